"""Tilings of a box by rectangles whose keys are all different, counted by their states.

A *rectangle rule* gives each allowed rectangle (``height`` rows by ``width`` columns) a
*key*, and a tiling may use each key at most once: Scott R. Shannon's sequences (each
dimension pair once, each height x width once, distinct areas), tilings by rectangles of
distinct sizes, any rule of that form. Its exact cover has a secondary item per key, and
a search walks every tiling, one by one (87 million at the 9 x 9 square of A360498).

This count merges instead. A partial tiling leaves a *state*: the cells still empty,
moved to the corner of their bounding box, and the *usable shapes*, those of the keys
still free that fit that box in at most as many cells as are left. Two partial tilings
with the same state have the same completions (no other shape can be placed any more),
so states are kept by their number of empty cells, merged (their counts added) and
expanded from the largest number down: each state tries the rectangles at the empty
corner cell (two of its sides closed) where the fewest fit, each leaving a smaller state
or covering its last cells. A state is also merged with its images in the box's
mirrors, which keep every rectangle's height and width. With ``symmetry`` the first
states are the choices of the four corner rectangles, one of each orbit under the box's
mirrors, each standing for its orbit; on a square whose rule a quarter turn maps onto
itself (the key of a rectangle on its side a function of the key of the rectangle
upright), the quarter turns join the corners' group, and a state is merged with its
turned images too, its shapes turned. On boards of at most 8 x 8 cells a state's region
is one word, a byte per row, and its images are a few word operations each
(``_rectangles8.h``): 1.8x faster on A360725(8) than the rows one by one.

A360498(9) (the 9 x 9 square, oblongs, each dimension pair once): 8.9 million states,
against the symmetry-broken search's 69 million nodes (docs/performance.md, "The
rectangle sequences").

A *perimeter target* counts only the tilings whose rectangles' perimeters sum to it
(A360773: the 2n x 2n square, each dimension pair once, the perimeters summing to the
area). A rectangle's perimeter is ``2 (h + w)``, so the target is a sum of ``h + w``,
and a state keeps what is left of it, its *budget*: two partial tilings have the same
completions only if their budgets agree too (the budget is a word of the state, merged
as the rest), a rectangle is usable only while its ``h + w`` is at most the budget, the
last one only if it is exactly the budget, and a state whose region's perimeter (halved)
is more than its budget is dropped: every tiling of a region has at least the region's
own perimeter, its rectangles' sides along it. The symmetries keep each rectangle's
``h + w``, so they merge budgeted states as before. A count too large for memory runs in
*parts*: part k of m starts from every m-th orbit of the corner choices only, and the m
counts add up to the whole (few states of different parts would have merged: on the
10 x 10 square of A360773, 3 parts hold 19% more states than one).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

from excover.errors import UsageError

__all__ = ["check_box", "count_rectangle_tilings", "max_perimeter_sum"]


def count_rectangle_tilings(
    height: int,
    width: int,
    shapes: Mapping[tuple[int, int], Hashable],
    *,
    perimeter: int | None = None,
    symmetry: bool = True,
    part: tuple[int, int] = (0, 1),
    max_bytes: int | None = None,
    tick: Callable[[int, int, int], None] | None = None,
) -> int:
    """The number of tilings of the ``height`` x ``width`` box by the rectangles of
    ``shapes`` (``{(rows, columns): key}``, a rectangle that way up and its key), each
    key used at most once, rectangles placed anywhere (tilings that a symmetry maps onto
    each other counted apart). Rectangles larger than the box are ignored. ``perimeter``
    (None: any) counts only the tilings whose rectangles' perimeters sum to it (the
    module's text says how): an odd sum, or one past :func:`max_perimeter_sum`, has
    none.

    ``symmetry`` starts from one choice of corner rectangles per orbit under the box's
    symmetries (a quarter turn only on a square whose rule it keeps: the key of a
    rectangle on its side follows from the key of the rectangle upright); False counts
    from the empty box, the same number, for checking. ``part`` ``(k, m)`` counts only
    part k (0 to m - 1) of m, the tilings from every m-th orbit of the corner choices
    (with ``symmetry``): the m parts add up to the count. The box has at most
    :data:`~excover.tiling._rectangles.MAX_SIDE` (62) cells a side and
    :data:`~excover.tiling._rectangles.MAX_CELLS` (240) cells.
    The count is exact up to 2**64 (past it, :class:`~excover.ResourceLimitError`).
    ``max_bytes`` bounds the states kept (None: the ZDD constructions' default, a share
    of the machine's memory; 0: none; past it, :class:`~excover.MemoryBoundError`).
    ``tick(cells_done, cells, states)`` is called after each number of cells left, with
    the states merged there. Ctrl-C stops the count (KeyboardInterrupt)."""
    from excover.tiling import _rectangles
    from excover.zdd import memory

    check_box(height, width)
    k, m = _check_part(part, symmetry)
    _check_perimeter(perimeter)
    numbered = _numbered(height, width, shapes)
    if perimeter is not None and (perimeter % 2 or perimeter > max_perimeter_sum(height, width)):
        return 0
    keys = len({key for _, _, key in numbered})
    bound = memory.default_bound() if max_bytes is None else memory.checked(max_bytes)
    turns = symmetry and height == width and _quarter_turn_kept(numbered)
    count, _ = _rectangles.count_states(
        height,
        width,
        numbered,
        keys,
        symmetry,
        turns,
        tick,
        bound,
        target=-1 if perimeter is None else perimeter // 2,
        part=k,
        parts=m,
    )
    return int(count)


def max_perimeter_sum(height: int, width: int) -> int:
    """A bound on the perimeters' sum of any tiling of the ``height`` x ``width`` box by
    rectangles: ``4 height width`` (the unit squares' sum), each rectangle's
    ``2 (h + w)`` being at most ``2 (h w + 1)``, at most ``4 h w`` (h, w >= 1). A
    perimeter target past it has no tiling."""
    return 4 * height * width


def _check_perimeter(perimeter: object) -> None:
    """UsageError unless ``perimeter`` is None or a non-negative integer."""
    if perimeter is not None and (
        isinstance(perimeter, bool) or not isinstance(perimeter, int) or perimeter < 0
    ):
        raise UsageError(f"perimeter must be a non-negative integer, not {perimeter!r}")


def _check_part(part: object, symmetry: bool) -> tuple[int, int]:
    """``part`` as ``(k, m)``, checked: 0 <= k < m, and m > 1 only with ``symmetry``
    (the parts are shares of the corner choices)."""
    if (
        not isinstance(part, tuple)
        or len(part) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) for x in part)
        or not 0 <= part[0] < part[1]
    ):
        raise UsageError(f"part must be (k, m) with 0 <= k < m, not {part!r}")
    if part[1] > 1 and not symmetry:
        raise UsageError("a count in parts starts from the corner choices: symmetry=True")
    return part[0], part[1]


def check_box(height: int, width: int) -> None:
    """UsageError unless :func:`count_rectangle_tilings` takes a ``height`` x ``width``
    box (positive sides, at most :data:`~excover.tiling._rectangles.MAX_SIDE` cells a
    side and :data:`~excover.tiling._rectangles.MAX_CELLS` cells), the error naming the
    limits: a caller can ask before it lists the rectangles of a box too large."""
    from excover.tiling import _rectangles

    for name, value in (("height", height), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UsageError(f"{name} must be a positive integer, not {value!r}")
    if max(height, width) > _rectangles.MAX_SIDE or height * width > _rectangles.MAX_CELLS:
        raise UsageError(
            f"a {height} x {width} box: the rectangle count takes at most"
            f" {_rectangles.MAX_SIDE} cells a side and {_rectangles.MAX_CELLS} cells"
        )


def _numbered(
    height: int, width: int, shapes: Mapping[tuple[int, int], Hashable]
) -> list[tuple[int, int, int]]:
    """The rectangles that fit the box as ``(rows, columns, key number)``, keys numbered
    in order of first use."""
    from excover.tiling import _rectangles

    if not isinstance(shapes, Mapping):
        raise UsageError(f"shapes must map (rows, columns) to a key, not {type(shapes).__name__}")
    numbers: dict[Hashable, int] = {}
    numbered = []
    for shape, key in shapes.items():
        if (
            not isinstance(shape, tuple)
            or len(shape) != 2
            or any(isinstance(side, bool) or not isinstance(side, int) for side in shape)
            or min(shape) < 1
        ):
            raise UsageError(f"a shape is (rows, columns), two positive integers, not {shape!r}")
        try:
            hash(key)
        except TypeError:
            raise UsageError(f"the key of shape {shape} is not hashable: {key!r}") from None
        rows, columns = shape
        if rows <= height and columns <= width:
            numbered.append((rows, columns, numbers.setdefault(key, len(numbers))))
    # at most one key per shape that fits: never more than MAX_CELLS, within MAX_KEYS
    assert len(numbers) <= _rectangles.MAX_KEYS
    return numbered


def _quarter_turn_kept(numbered: list[tuple[int, int, int]]) -> bool:
    """Whether a quarter turn maps the rule onto itself: every rectangle's side-on copy is
    allowed, and its key is a function of the upright one's (so that two rectangles
    share a key exactly when their turned copies do)."""
    key_of = {(rows, columns): key for rows, columns, key in numbered}
    turned: dict[int, int] = {}
    for (rows, columns), key in key_of.items():
        other = key_of.get((columns, rows))
        if other is None or turned.setdefault(key, other) != other:
            return False
    return True
