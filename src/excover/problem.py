"""The exact cover model as data: items, options, colors and multiplicities.

A :class:`Problem` has *items* and *options* (Knuth, TAOCP 7.2.2.1). Primary items come
first and must each be covered exactly once, or between ``lo`` and ``hi`` times when given
a multiplicity (Knuth's MCC problem). Secondary items come after them and may be covered
at most once, or by several options that all give the item the same *color*
(``item:color``, Knuth's XCC problem). An option is a set of items with at least one
primary item; a solution is a list of option indices.

The model validates everything when it is built, so every engine can trust it, and keeps
the options in the flat integer arrays the engines read (:class:`EngineInput`): this makes
building a large problem cheap and handing it to an engine a plain copy.

This module is the bottom of the package: it imports no engine, format or front end.
Every engine and operation reads a :class:`Problem`; the public class,
:class:`excover.ExactCover`, is a :class:`Problem` with solving methods, defined one
floor above the operations (:mod:`excover.solving`). A problem derived from another
(:meth:`Problem.derive`) is of the other's class, so what an operation hands back to a
user (a subproblem, a preprocessed problem) solves itself like the problem it came from.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple, Self, SupportsIndex, TypedDict

from excover.entries import MAX_INT, distinct, indices, int_array, matrix_entry, option_number
from excover.errors import ProblemError, UsageError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from excover.permutations import Generator

__all__ = ["EngineInput", "ItemRef", "Problem", "SearchOptions", "Widening"]

#: An item in an option: its name (``"name:color"`` on a secondary item) or its position.
ItemRef = str | SupportsIndex


class EngineInput(NamedTuple):
    """A problem as the engines read it: flat integer arrays, options in input order.

    Primary items are engine items ``0..n_primary-1`` and secondary items follow them.
    Option ``k`` owns the nodes ``option_start[k]:option_start[k+1]``; node ``j`` covers
    item ``node_item[j]`` with color ``node_color[j]`` (0 for no color, colors are numbered
    from 1 in order of first appearance). ``lo`` and ``hi`` hold the multiplicity bounds of
    the primary items.
    """

    n_primary: int
    n_secondary: int
    option_start: array[int]
    node_item: array[int]
    node_color: array[int]
    lo: array[int]
    hi: array[int]


class SearchOptions(TypedDict, total=False):
    """Keyword arguments of a search (:meth:`excover.ExactCover.search`), accepted by
    every solving method (their names: :data:`excover.names.SEARCH_OPTIONS`)."""

    heuristic: str
    seed: int | None
    max_solutions: int | None
    max_nodes: int | None
    timeout: float | None
    engine: str


def _is_token(text: str) -> bool:
    """True when ``text`` can name an item or a color in Knuth's format: non-empty,
    printable (so no whitespace but the space, which is excluded too, and nothing that a
    UTF-8 file cannot hold), without ``:`` or ``|``."""
    return text.isprintable() and text != "" and not any(c in text for c in " :|")


def _index(value: object, what: str) -> int:
    """``value`` as an int (ints and int-like objects such as numpy integers, not bools)."""
    if isinstance(value, bool | str):
        raise ProblemError(f"{what} must be an integer, not {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ProblemError(f"{what} must be an integer, not {value!r}") from None


def _item_names(spec: SupportsIndex | Iterable[str], start: int, kind: str) -> list[str]:
    """The names of the ``kind`` items given as a count (numbered from ``start``) or names."""
    if isinstance(spec, str):
        raise ProblemError(f"{kind} items must be a count or a list of names, not {spec!r}")
    if isinstance(spec, Iterable):
        names = list(spec)
        for name in names:
            if not isinstance(name, str) or not _is_token(name):
                raise ProblemError(
                    f"bad {kind} item name {name!r}: names are non-empty printable strings "
                    "without blanks, ':' or '|'"
                )
        return names
    count = _index(spec, f"the number of {kind} items")
    if not 0 <= count <= MAX_INT - start:
        raise ProblemError(f"the number of {kind} items must be in 0..{MAX_INT}, not {count}")
    return [str(position) for position in range(start, start + count)]


def _rows(rows: object, what: str) -> Iterator[tuple[int, list[object]]]:
    """Number the rows of a matrix and turn each into a list, rejecting non-iterables."""
    if isinstance(rows, str | bytes) or not isinstance(rows, Iterable):
        raise ProblemError(f"{what} must be an iterable of rows, not {rows!r}")
    for number, row in enumerate(rows):
        if isinstance(row, str | bytes) or not isinstance(row, Iterable):
            raise ProblemError(f"row {number} must be an iterable, not {row!r}")
        yield number, list(row)


class Problem:
    """An exact cover problem: items (primary, then secondary) and options.

    ``primary`` and ``secondary`` are either lists of names or counts; counted items are
    named by their position, ``"0"``, ``"1"``, ..., the secondary ones continuing after the
    primary ones. Names are non-empty printable strings without blanks, ``:`` or ``|`` (so
    that every problem can be written in Knuth's format); so are color names. Build the options with
    :meth:`add_option`, or build the whole problem with :meth:`from_matrix`,
    :meth:`from_sparse`, :meth:`from_dlx` or :meth:`read`. Every malformed input raises
    :class:`~excover.ProblemError` naming the culprit.
    """

    def __init__(
        self,
        primary: SupportsIndex | Iterable[str] = (),
        secondary: SupportsIndex | Iterable[str] = (),
    ) -> None:
        primary_names = _item_names(primary, 0, "primary")
        secondary_names = _item_names(secondary, len(primary_names), "secondary")
        self._setup(tuple(primary_names), tuple(secondary_names))

    def _setup(self, primary: tuple[str, ...], secondary: tuple[str, ...]) -> None:
        """The state of an empty problem over these item names."""
        self._primary = primary
        self._secondary = secondary
        self._items = self._primary + self._secondary
        self._position: dict[str, int] = {}
        for position, name in enumerate(self._items):
            if name in self._position:
                raise ProblemError(f"duplicate item name {name!r}")
            self._position[name] = position
        n_primary = len(self._primary)
        self._lo = array("i", [1]) * n_primary
        self._hi = array("i", [1]) * n_primary
        self._option_start = array("i", [0])
        self._node_item = array("i")
        self._node_color = array("i")
        self._colors: list[str] = []
        self._color_id: dict[str, int] = {}
        self._engine_input: EngineInput | None = None
        self._declared: list[Generator] | None = None
        self._widening: Widening | None = None

    def derive(
        self, primary: Iterable[str] | None = None, secondary: Iterable[str] | None = None
    ) -> Self:
        """A new problem of this problem's class, without options, over the items named
        (by default this problem's own): names of this problem's items are taken as they
        are, so a choice of them, in a new order, costs no checking, and a new name is
        checked as the constructor checks it. The new problem solves itself as this one
        does: an operation that cuts a part, a subproblem or a reduction out of a
        user's :class:`excover.ExactCover` hands back an ``ExactCover``. Multiplicities
        and options are the caller's to add."""
        names = self._primary if primary is None else tuple(primary)
        others = self._secondary if secondary is None else tuple(secondary)
        new = [name for name in (*names, *others) if name not in self._position]
        if new:
            _item_names(new, 0, "new")
        return self._of_checked_names(names, others)

    @classmethod
    def _of_checked_names(cls, primary: Iterable[str], secondary: Iterable[str]) -> Self:
        """An empty problem over item names that are already known good (taken from
        another problem): the problems that a count derives from the user's (its
        symmetry-broken parts, :mod:`excover.symmetry.broken`) are built many times a
        count, and checking every name again costs more than some of their searches."""
        problem = cls.__new__(cls)
        problem._setup(tuple(primary), tuple(secondary))
        return problem

    def _add_checked_options(
        self,
        starts: npt.NDArray[np.int64],
        items: npt.NDArray[np.int64],
        colors: npt.NDArray[np.int64],
        color_names: Iterable[str],
    ) -> None:
        """Add the options of flat arrays laid out as :meth:`add_options` takes them, that
        come from another problem and so break none of its rules; ``colors`` number
        ``color_names`` from 1, and this problem must have no color yet (its numbers
        are then the same). For the problems derived from a checked one (see
        :meth:`_of_checked_names`); anything else goes through :meth:`add_options`."""
        import numpy as np

        if self._colors:
            raise UsageError("the options of a derived problem are added at once")
        for name in color_names:
            self._color_number(name)
        base = len(self._node_item)
        self._node_item.frombytes(np.asarray(items, dtype=np.intc).tobytes())
        self._node_color.frombytes(np.asarray(colors, dtype=np.intc).tobytes())
        ends = np.asarray(starts[1:], dtype=np.int64) + base
        self._option_start.frombytes(ends.astype(np.intc).tobytes())
        self._engine_input = None

    # ----- builders -----

    @classmethod
    def from_matrix(
        cls, rows: Iterable[Iterable[SupportsIndex]], primary: SupportsIndex | None = None
    ) -> Self:
        """A problem from a dense 0/1 matrix: one option per row, one item per column.

        The first ``primary`` columns are primary items (default: all of them), the others
        secondary; items are named by their column number. This is combine's matrix front
        door. Entries may be ints, bools or int-like objects (numpy integers).
        """
        matrix = list(_rows(rows, "a matrix"))
        width = len(matrix[0][1]) if matrix else 0
        problem = cls(*cls._split_count(width, primary))
        for number, row in matrix:
            if len(row) != width:
                raise ProblemError(f"row {number} has {len(row)} entries, row 0 has {width}")
            items = []
            for column, entry in enumerate(row):
                value = matrix_entry(entry, number, column)
                if value:
                    items.append(column)
            problem._append(items, None, f"in row {number}")
        return problem

    @classmethod
    def from_sparse(
        cls,
        rows: Iterable[Iterable[SupportsIndex]],
        n_items: SupportsIndex,
        primary: SupportsIndex | None = None,
    ) -> Self:
        """A problem from sparse rows: each row lists the column indices of its items.

        ``n_items`` columns, the first ``primary`` of them primary (default: all); items are
        named by their column number. This is combine's ``create_sparse``.
        """
        width = _index(n_items, "n_items")
        if width < 0:
            raise ProblemError(f"n_items must be >= 0, not {width}")
        problem = cls(*cls._split_count(width, primary))
        for number, row in _rows(rows, "sparse rows"):
            where = f"in row {number}"
            items = [problem._locate(column, where, "column") for column in row]
            problem._append(items, None, where)
        return problem

    @classmethod
    def _from_checked(
        cls,
        n_primary: int,
        n_secondary: int,
        arrays: tuple[array[int], array[int], array[int]],
        color_names: Sequence[str],
    ) -> Self:
        """A problem of numbered items from options already checked, as the engines read
        them (``arrays``: ``option_start``, ``node_item``, ``node_color`` of
        :class:`EngineInput`; colors numbered in ``color_names`` from 1): a part of a
        checked problem, as :mod:`excover.counting.parts` cuts it out. Nothing is checked
        again, so that a part costs no more than copying its arrays."""
        problem = cls(n_primary, n_secondary)
        problem._adopt_checked_options(*arrays, color_names)
        return problem

    def _adopt_checked_options(
        self,
        option_start: array[int],
        node_item: array[int],
        node_color: array[int],
        color_names: Sequence[str],
    ) -> None:
        """Take, as this empty problem's options, arrays of options already checked, laid
        out as :class:`EngineInput` holds them (colors numbered in ``color_names`` from
        1): the options of a problem derived from a checked one (a part of it, or what
        preprocessing leaves of it), copied, not checked again."""
        self._option_start = array("i", option_start)
        self._node_item = array("i", node_item)
        self._node_color = array("i", node_color)
        self._colors = list(color_names)
        self._color_id = {name: number for number, name in enumerate(color_names, 1)}
        self._engine_input = None

    @staticmethod
    def _split_count(width: int, primary: SupportsIndex | None) -> tuple[int, int]:
        """The numbers of primary and secondary items among ``width`` columns."""
        if primary is None:
            return width, 0
        count = _index(primary, "primary")
        if not 0 <= count <= width:
            raise ProblemError(f"primary={count} is not between 0 and the {width} columns")
        return count, width - count

    def add_option(self, items: Iterable[ItemRef]) -> int:
        """Add an option and return its index.

        Each item is a name, ``"name:color"`` for a colored secondary item, or a position
        (0-based over all items). An option names each item at most once and holds at least
        one primary item.
        """
        return self._add(items, f"in option {self.n_options}")

    def add_options(
        self,
        starts: npt.ArrayLike,
        items: npt.ArrayLike,
        colors: npt.ArrayLike | None = None,
        color_names: Iterable[str] = (),
    ) -> range:
        """Add many options at once from flat integer arrays and return their indices.

        This is the fast door for generated problems (a tiling of a large board has
        hundreds of thousands of options): the options are checked and stored with a few
        numpy operations instead of one Python call each. The layout is the one of
        :class:`EngineInput`: option ``k`` of the batch holds the item positions
        ``items[starts[k]:starts[k + 1]]``, so ``starts`` has one entry more than the batch
        has options, begins at 0 and ends at ``len(items)``. ``colors``, when given, has one
        entry per item: 0 for no color, ``c >= 1`` for the color ``color_names[c - 1]`` (on
        secondary items only). The checks are those of :meth:`add_option`; a failure names
        the option (by its index in the problem) and adds none of the batch.
        """
        import numpy as np

        first = self.n_options
        start_array = int_array(starts, "starts")
        item_array = int_array(items, "items")
        if len(start_array) == 0 or start_array[0] != 0 or start_array[-1] != len(item_array):
            raise ProblemError(
                f"starts must begin at 0 and end at len(items) = {len(item_array)}, one entry "
                "more than the number of options"
            )
        lengths = np.diff(start_array)
        if len(lengths) == 0:
            return range(first, first)
        if lengths.min() <= 0:
            bad = int(np.argmax(lengths <= 0))
            reason = "no primary item" if lengths[bad] == 0 else "a negative length"
            raise ProblemError(f"{reason} in option {first + bad} (starts must not decrease)")

        def option_of(node: int) -> int:
            """The problem index of the option holding the batch's ``node``."""
            return first + int(np.searchsorted(start_array, node, side="right")) - 1

        out_of_range = (item_array < 0) | (item_array >= len(self._items))
        if out_of_range.any():
            node = int(np.argmax(out_of_range))
            raise ProblemError(
                f"item position {int(item_array[node])} in option {option_of(node)} is out of "
                f"range ({len(self._items)} items)"
            )
        no_primary = np.minimum.reduceat(item_array, start_array[:-1]) >= len(self._primary)
        if no_primary.any():
            raise ProblemError(f"no primary item in option {first + int(np.argmax(no_primary))}")
        for length in distinct(lengths).tolist():  # options of one length as a matrix
            chosen = np.flatnonzero(lengths == length)
            rows = np.sort(item_array[start_array[chosen, None] + np.arange(length)], axis=1)
            twice = rows[:, 1:] == rows[:, :-1]
            if twice.any():
                row, column = divmod(int(np.argmax(twice)), length - 1)
                raise ProblemError(
                    f"item {self._items[int(rows[row, column])]!r} twice in option "
                    f"{first + int(chosen[row])}"
                )
        if len(self._node_item) + len(item_array) > MAX_INT:
            raise ProblemError(f"too many item occurrences: more than {MAX_INT} in all")
        color_array = self._batch_colors(colors, color_names, item_array, option_of)
        self._node_item.frombytes(item_array.astype(np.intc).tobytes())
        self._node_color.frombytes(color_array.astype(np.intc).tobytes())
        ends = start_array[1:] + (len(self._node_item) - len(item_array))
        self._option_start.frombytes(ends.astype(np.intc).tobytes())
        self._engine_input = None
        return range(first, self.n_options)

    def _batch_colors(
        self,
        colors: npt.ArrayLike | None,
        color_names: Iterable[str],
        items: npt.NDArray[np.int64],
        option_of: Callable[[int], int],
    ) -> npt.NDArray[np.int64]:
        """The color ids of a batch of nodes (see :meth:`add_options`), checked; new color
        names are numbered only once every check has passed."""
        import numpy as np

        if colors is None:
            return np.zeros(len(items), dtype=np.int64)
        names = [color_names] if isinstance(color_names, str) else list(color_names)
        for name in names:
            if not isinstance(name, str) or not _is_token(name):
                raise ProblemError(f"bad color name {name!r}")
        color_array = int_array(colors, "colors")
        if len(color_array) != len(items):
            raise ProblemError(
                f"colors has {len(color_array)} entries, items has {len(items)}: one each"
            )
        bad = (color_array < 0) | (color_array > len(names))
        if bad.any():
            node = int(np.argmax(bad))
            raise ProblemError(
                f"color {int(color_array[node])} in option {option_of(node)} is not "
                f"0 or a number of one of the {len(names)} color names"
            )
        on_primary = (color_array > 0) & (items < len(self._primary))
        if on_primary.any():
            node = int(np.argmax(on_primary))
            raise ProblemError(
                f"color on primary item {self._items[int(items[node])]!r} in option "
                f"{option_of(node)}"
            )
        ids = np.zeros(len(names) + 1, dtype=np.int64)
        used = color_array[color_array > 0]
        values, where = np.unique(used, return_index=True)
        for value in values[np.argsort(where)].tolist():  # in order of first appearance
            ids[value] = self._color_number(names[value - 1])
        result: npt.NDArray[np.int64] = ids[color_array]
        return result

    def _add(self, items: Iterable[ItemRef], where: str) -> int:
        """Add an option given by item references; ``where`` ends every error message."""
        if isinstance(items, str | bytes) or not isinstance(items, Iterable):
            raise ProblemError(f"an option must be a list of items, not {items!r} ({where})")
        refs = list(items)
        position_of = self._position
        try:  # the common case, plain names, in one quick pass
            positions = [position_of[ref] for ref in refs]  # type: ignore[index]
        except (KeyError, TypeError):
            return self._append(*self._resolve(refs, where), where)
        return self._append(positions, None, where)

    def _resolve(self, refs: list[ItemRef], where: str) -> tuple[list[int], list[str | None]]:
        """The positions and color names of the items ``refs`` of an option."""
        positions: list[int] = []
        colors: list[str | None] = []
        n_primary = len(self._primary)
        known_colors = self._color_id  # checked when first seen
        for ref in refs:
            if not isinstance(ref, str):
                if isinstance(ref, bool) or not isinstance(ref, SupportsIndex):
                    raise ProblemError(f"item {ref!r} {where} is neither a name nor a position")
                positions.append(self._locate(ref, where, "item position"))
                colors.append(None)
                continue
            name, colon, color = ref.partition(":")
            position = self._position.get(name)
            if position is None:
                raise ProblemError(f"unknown item {name!r} {where}")
            if colon:
                if position < n_primary:
                    raise ProblemError(f"color on primary item {name!r} {where}")
                if color not in known_colors and not _is_token(color):
                    raise ProblemError(f"bad color {color!r} on item {name!r} {where}")
            positions.append(position)
            colors.append(color if colon else None)
        return positions, colors

    def _locate(self, ref: object, where: str, noun: str) -> int:
        """The item at position ``ref``, checked against the number of items."""
        position = _index(ref, f"{noun} {where}")
        if not 0 <= position < len(self._items):
            raise ProblemError(
                f"{noun} {position} {where} is out of range ({len(self._items)} items)"
            )
        return position

    def _append(self, items: list[int], colors: list[str | None] | None, where: str) -> int:
        """Check an option's items (distinct, one primary at least) and store it with its
        colors (None: no colors), numbering new colors in order of first appearance."""
        if len(set(items)) < len(items):
            seen: set[int] = set()
            for item in items:
                if item in seen:
                    raise ProblemError(f"item {self._items[item]!r} twice {where}")
                seen.add(item)
        if not items or min(items) >= len(self._primary):
            raise ProblemError(f"no primary item {where}")
        self._node_item.extend(items)
        if colors is None:
            self._node_color.extend(array("i", [0]) * len(items))
        else:
            self._node_color.extend([self._color_number(color) for color in colors])
        self._option_start.append(len(self._node_item))
        self._engine_input = None
        return len(self._option_start) - 2

    def _color_number(self, color: str | None) -> int:
        """The id of a color (0 for none), numbering new colors from 1."""
        if color is None:
            return 0
        number = self._color_id.get(color)
        if number is None:
            self._colors.append(color)
            number = self._color_id[color] = len(self._colors)
        return number

    def set_multiplicity(self, item: ItemRef, lo: SupportsIndex, hi: SupportsIndex) -> None:
        """Require the primary ``item`` to be covered between ``lo`` and ``hi`` times."""
        position = self.primary_position(item)
        low = _index(lo, "lo")
        high = _index(hi, "hi")
        name = self._items[position]
        if low < 0 or high < 1 or low > high or high > MAX_INT:
            raise ProblemError(
                f"bad multiplicity {low}..{high} for item {name!r}: "
                f"need 0 <= lo <= hi, 1 <= hi <= {MAX_INT}"
            )
        self._lo[position] = low
        self._hi[position] = high
        self._engine_input = None

    def multiplicity(self, item: ItemRef) -> tuple[int, int]:
        """The bounds ``(lo, hi)`` on the number of times the primary ``item`` is covered."""
        position = self.primary_position(item)
        return self._lo[position], self._hi[position]

    def primary_position(self, item: ItemRef, purpose: str = "have a multiplicity") -> int:
        """The position of a primary item given by name or position; a ProblemError says
        that a secondary item cannot serve ``purpose``."""
        if isinstance(item, str):
            if item not in self._position:
                raise ProblemError(f"unknown item {item!r}")
            position = self._position[item]
        else:
            position = self._locate(item, f"to {purpose}", "item position")
        if position >= len(self._primary):
            raise ProblemError(f"secondary item {self._items[position]!r} cannot {purpose}")
        return position

    # ----- reading the problem -----

    @property
    def items(self) -> tuple[str, ...]:
        """The names of all items: primary, then secondary."""
        return self._items

    @property
    def primary_items(self) -> tuple[str, ...]:
        """The names of the primary items."""
        return self._primary

    @property
    def secondary_items(self) -> tuple[str, ...]:
        """The names of the secondary items."""
        return self._secondary

    @property
    def color_names(self) -> tuple[str, ...]:
        """The names of the colors, numbered from 1 in order of first use (the numbers of
        :class:`EngineInput`'s ``node_color``)."""
        return tuple(self._colors)

    @property
    def n_items(self) -> int:
        """The number of items."""
        return len(self._items)

    @property
    def n_primary(self) -> int:
        """The number of primary items."""
        return len(self._primary)

    @property
    def n_secondary(self) -> int:
        """The number of secondary items."""
        return len(self._secondary)

    @property
    def n_options(self) -> int:
        """The number of options."""
        return len(self._option_start) - 1

    def option_items(self, option: SupportsIndex) -> list[str]:
        """The items of an option, in input order: names, ``"x:color"`` when colored."""
        index = option_number(option)
        if not 0 <= index < self.n_options:
            raise UsageError(f"option {index} is out of range ({self.n_options} options)")
        names, colors = self._items, self._colors
        return [
            names[self._node_item[node]]
            if self._node_color[node] == 0
            else f"{names[self._node_item[node]]}:{colors[self._node_color[node] - 1]}"
            for node in range(self._option_start[index], self._option_start[index + 1])
        ]

    def option_lines(self) -> list[str]:
        """Every option as a DLX file writes it, in order: its items (``"x:color"`` when
        colored) separated by spaces. One pass over the nodes, where
        :meth:`option_items` per option costs a problem's writing and fingerprint
        several times more."""
        names = [self._items[item] for item in self._node_item]
        colors = self._colors
        for node, color in enumerate(self._node_color):
            if color:
                names[node] = f"{names[node]}:{colors[color - 1]}"
        starts = self._option_start
        return [" ".join(names[starts[k] : starts[k + 1]]) for k in range(len(starts) - 1)]

    def format_solution(self, solution: Iterable[SupportsIndex]) -> str:
        """A solution as text: one option per line, its item names separated by spaces."""
        return "\n".join(" ".join(self.option_items(option)) for option in indices(solution))

    def is_solution(self, solution: Iterable[SupportsIndex]) -> bool:
        """True when ``solution`` (option indices) solves the problem, checked directly
        against the definition: distinct valid indices; each primary item covered between
        its ``lo`` and ``hi`` times; each secondary item covered at most once, or only by
        options that all give it the same color."""
        chosen = indices(solution)
        if len(set(chosen)) < len(chosen) or not all(0 <= i < self.n_options for i in chosen):
            return False
        covers = [0] * len(self._items)
        colors: dict[int, set[int]] = {}
        for index in chosen:
            for node in range(self._option_start[index], self._option_start[index + 1]):
                item = self._node_item[node]
                covers[item] += 1
                colors.setdefault(item, set()).add(self._node_color[node])
        primary_covers = covers[: len(self._primary)]
        primary_ok = all(
            lo <= count <= hi
            for lo, hi, count in zip(self._lo, self._hi, primary_covers, strict=True)
        )
        secondary_ok = all(
            covers[item] <= 1 or (len(used) == 1 and 0 not in used)
            for item, used in colors.items()
            if item >= len(self._primary)
        )
        return primary_ok and secondary_ok

    def engine_input(self) -> EngineInput:
        """The problem as flat arrays for the engines; cached until the problem changes."""
        if self._engine_input is None:
            self._engine_input = EngineInput(
                n_primary=len(self._primary),
                n_secondary=len(self._secondary),
                option_start=array("i", self._option_start),
                node_item=array("i", self._node_item),
                node_color=array("i", self._node_color),
                lo=array("i", self._lo),
                hi=array("i", self._hi),
            )
        return self._engine_input

    # ----- declared symmetries -----

    def declare_symmetries(
        self, generators: Iterable[Generator] | None, widening: Widening | None = None
    ) -> None:
        """Declare the symmetries under which solutions count as the same, by
        generators (as :class:`~excover.symmetry.Group` takes them): a front door that
        knows them says so (a BurrTools puzzle: the symmetries of its result shape,
        which may be fewer than the problem's automorphisms). ``widening``: more
        symmetries that only the solutions of a sub-problem have
        (:class:`Widening`), which counts and listings up to
        symmetry under the declared group then take into account. None forgets them."""
        if widening is not None and generators is None:
            raise UsageError("a widening widens declared symmetries: declare them too")
        self._declared = None if generators is None else list(generators)
        self._widening = widening

    def declared_widening(self) -> Widening | None:
        """The widening given to :meth:`declare_symmetries`, or None."""
        return self._widening

    def declared_symmetries(self) -> list[Generator] | None:
        """The generators given to :meth:`declare_symmetries`, or None: then
        :meth:`symmetries` finds the automorphism group."""
        return None if self._declared is None else list(self._declared)

    # ----- comparing and printing -----

    def _key(self) -> tuple[object, ...]:
        return (
            self._primary,
            self._secondary,
            self._lo,
            self._hi,
            self._option_start,
            self._node_item,
            self._node_color,
            self._colors,
        )

    def __eq__(self, other: object) -> bool:
        """Same items of the same kinds, same multiplicities, same options with the same
        colors, in the same order."""
        if not isinstance(other, Problem):
            return NotImplemented
        return self._key() == other._key()

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__}: {self.n_primary} primary items, {self.n_secondary} secondary "
            f"items, {self.n_options} options>"
        )

    def _repr_html_(self) -> str:
        """What a notebook shows: the items, multiplicities, colors and declared
        symmetries, and the first few options (:func:`excover.display.problem_html`)."""
        from excover.display import problem_html

        return problem_html(self, type(self).__name__)


class Widening(NamedTuple):
    """Symmetries that only some solutions have, declared beside a problem's group
    (:meth:`excover.ExactCover.declare_symmetries`): the solutions of the sub-problem
    ``problem`` count as the same under the group it declares, every other solution
    under the whole problem's group only.

    ``problem`` has the whole problem's items and some of its options, option ``k``
    being option ``options[k]`` of the whole (increasing); its solutions are solutions of
    the whole. ``base`` generates the whole problem's group as it acts on ``problem``
    (by option permutations of ``problem``): it must keep the solutions of ``problem``
    among themselves and the others among themselves, and be a subgroup of the group
    ``problem`` declares. The classes are then the orbits of the whole group on the
    solutions outside ``problem`` and the orbits of the larger group on those inside:
    a BurrTools puzzle whose pieces may be used a range of times identifies an assembly
    with its mirror image only when that image is an assembly too
    (:mod:`excover.burr.xmpuzzle.cover`)."""

    problem: Problem
    options: Sequence[int]
    base: list[Generator]
