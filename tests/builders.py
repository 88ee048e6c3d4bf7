"""Small exact cover problems with known answers, and random instances with an oracle.

The named builders (:func:`queens`, :func:`langford`, :func:`dominoes`, ...) produce the
classic problems whose counts are known from the literature or from a formula, so tests
and benchmarks can check the engine against an answer computed another way.

:class:`Instance` is a tiny problem described as plain data (item indices, colors,
multiplicity bounds), independent of :class:`~excover.ExactCover`. It can build itself
through each front door of the model, and it knows its own solutions by brute force: the
oracle enumerates every subset of options and checks the definition of an exact cover
directly, without going through the model or the engine. :func:`instances` is a
hypothesis strategy of such instances, small enough for that brute force, and
:func:`wide_problems` one of problems past a machine word, for comparing engines.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from excover import ExactCover

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "COMBINE_DATA",
    "KNUTH_DATA",
    "Instance",
    "Kind",
    "compositions",
    "dominoes",
    "instances",
    "langford",
    "queens",
    "two_regular_graphs",
    "union",
    "walks",
    "wide_problems",
    "word_squares",
]

#: Shapes and puzzles taken from combine's examples, with their counts in ``INDEX.md``.
COMBINE_DATA = Path(__file__).resolve().parent / "data" / "combine"

#: Knuth's DLX inputs, with DLX1's statistics on them in ``MANIFEST.md``.
KNUTH_DATA = Path(__file__).resolve().parent / "data" / "knuth"

#: The three families of random instances: plain exact cover with secondary items (X),
#: colors on secondary items (XCC), and multiplicities on primary items plus colors (MCC).
Kind = Literal["X", "XCC", "MCC"]

#: The multiplicity bounds (lo, hi) of primary items in random MCC instances.
BOUNDS = [(lo, hi) for hi in range(1, 4) for lo in range(hi + 1)]

#: One use of an item by an option: the item's index and its color (None: uncolored).
Use = tuple[int, str | None]

#: The colors of a colored use in random XCC and MCC instances (None: uncolored).
COLORS = (None, "red", "blue")

#: The bytes one option of :func:`instances` is made from: how many primary items and a
#: key for each (5), how many secondary items and a key for each (3), a color for each
#: secondary item, a key for each use (8) giving the option's order.
USE_BYTES = 21

#: The bytes one option of :func:`wide_problems` is made from: how many primary items
#: (1 to 4) and four items, how many secondary items (0 to 3), three items and their
#: three colors.
OPTION_BYTES = 12


def queens(n: int) -> ExactCover:
    """The n-queens problem in Knuth's formulation.

    Rows ``r*`` and columns ``c*`` are primary (each gets exactly one queen); the diagonals
    ``a*`` (constant r+c) and anti-diagonals ``b*`` (constant r-c) are secondary (at most
    one queen each). One option per square.
    """
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    diagonals = [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    problem = ExactCover(primary=rows + cols, secondary=diagonals)
    for i in range(n):
        for j in range(n):
            problem.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"])
    return problem


def langford(n: int) -> ExactCover:
    """Langford pairs L(2, n): place two copies of each of 1..n in positions 1..2n so that
    the two copies of k have exactly k numbers between them.

    Items are the numbers ``1..n`` and the positions ``s1..s2n``, all primary; the option
    ``k sj s(j+k+1)`` puts the copies of k at positions j and j+k+1. Every arrangement and
    its reversal are distinct solutions.
    """
    numbers = [str(k) for k in range(1, n + 1)]
    positions = [f"s{j}" for j in range(1, 2 * n + 1)]
    problem = ExactCover(primary=numbers + positions)
    for k in range(1, n + 1):
        for j in range(1, 2 * n - k):
            problem.add_option([str(k), f"s{j}", f"s{j + k + 1}"])
    return problem


def dominoes(m: int, n: int) -> ExactCover:
    """Domino tilings of an m x n rectangle: one primary item per cell ``r{i}c{j}``, one
    option per pair of adjacent cells."""
    cells = [f"r{i}c{j}" for i in range(m) for j in range(n)]
    problem = ExactCover(primary=cells)
    for i in range(m):
        for j in range(n):
            if j + 1 < n:
                problem.add_option([f"r{i}c{j}", f"r{i}c{j + 1}"])
            if i + 1 < m:
                problem.add_option([f"r{i}c{j}", f"r{i + 1}c{j}"])
    return problem


def compositions(n: int, lo: int, hi: int) -> ExactCover:
    """Compositions of n into between lo and hi parts, as a multiplicity problem.

    Cells ``1..n`` are primary, covered exactly once; the primary item ``parts`` must be
    covered between lo and hi times. One option per segment ``i..j`` of cells, and every
    option also covers ``parts``, so the number of options chosen is the number of parts.
    """
    cells = [str(i) for i in range(1, n + 1)]
    problem = ExactCover(primary=[*cells, "parts"])
    problem.set_multiplicity("parts", lo, hi)
    for i in range(1, n + 1):
        for j in range(i, n + 1):
            problem.add_option([*cells[i - 1 : j], "parts"])
    return problem


def two_regular_graphs(n: int) -> ExactCover:
    """Spanning 2-regular subgraphs of the complete graph K_n (disjoint unions of cycles
    covering every vertex): every vertex is a primary item covered exactly twice, and every
    edge is an option."""
    vertices = [f"v{i}" for i in range(n)]
    problem = ExactCover(primary=vertices)
    for vertex in vertices:
        problem.set_multiplicity(vertex, 2, 2)
    for u, v in combinations(vertices, 2):
        problem.add_option([u, v])
    return problem


def walks(length: int, edges: Sequence[tuple[str, str]]) -> ExactCover:
    """Walks of ``length`` steps in a directed graph on letters, as a color problem.

    Primary item ``p{i}`` is step i; the secondary item ``x{i}`` holds, as its color, the
    letter the walk is at after i steps. The option for edge (a, b) at step i covers
    ``p{i} x{i}:a x{i+1}:b``; consecutive steps must agree on the letter they share.
    """
    steps = [f"p{i}" for i in range(length)]
    letters = [f"x{i}" for i in range(length + 1)]
    problem = ExactCover(primary=steps, secondary=letters)
    for i in range(length):
        for a, b in edges:
            problem.add_option([f"p{i}", f"x{i}:{a}", f"x{i + 1}:{b}"])
    return problem


def word_squares(words: Sequence[str]) -> ExactCover:
    """Double word squares: a k x k grid of letters whose rows and columns are all words of
    the list, 2k distinct words in all (k is the length of the words).

    Rows ``R*`` and columns ``C*`` are primary; each cell ``i_j`` is secondary, colored by
    its letter; each word is an uncolored secondary item, so it is used at most once.
    """
    k = len(words[0])
    lines = [f"R{i}" for i in range(k)] + [f"C{j}" for j in range(k)]
    cells = [f"{i}_{j}" for i in range(k) for j in range(k)]
    problem = ExactCover(primary=lines, secondary=[*cells, *words])
    for word in words:
        for i in range(k):
            problem.add_option([f"R{i}", *(f"{i}_{j}:{word[j]}" for j in range(k)), word])
            problem.add_option([f"C{i}", *(f"{j}_{i}:{word[j]}" for j in range(k)), word])
    return problem


@dataclass(frozen=True)
class Instance:
    """A small exact cover problem as plain data, with a brute-force oracle.

    Items are numbered: primary items ``0..n_primary-1``, then the secondary items. Each
    option is a tuple of uses ``(item, color)``; ``bounds[j]`` is ``(lo, hi)`` for primary
    item j.
    """

    n_primary: int
    n_secondary: int
    options: tuple[tuple[Use, ...], ...]
    bounds: tuple[tuple[int, int], ...]

    def build(self) -> ExactCover:
        """The instance through ``add_option`` (ints for uncolored items, ``"i:c"`` names
        for colored ones) and ``set_multiplicity``."""
        problem = ExactCover(primary=self.n_primary, secondary=self.n_secondary)
        for item, (lo, hi) in enumerate(self.bounds):
            if (lo, hi) != (1, 1):
                problem.set_multiplicity(str(item), lo, hi)
        for option in self.options:
            problem.add_option(
                [item if color is None else f"{item}:{color}" for item, color in option]
            )
        return problem

    def sparse_rows(self) -> list[list[int]]:
        """Each option as the list of its item indices (colors dropped)."""
        return [[item for item, _ in option] for option in self.options]

    def dense_rows(self) -> list[list[int]]:
        """Each option as a 0/1 row over all items (colors dropped)."""
        width = self.n_primary + self.n_secondary
        rows = []
        for option in self.options:
            row = [0] * width
            for item, _ in option:
                row[item] = 1
            rows.append(row)
        return rows

    def is_cover(self, chosen: Iterable[int]) -> bool:
        """Whether the chosen option indices form a solution, by the definition: each
        primary item covered between its bounds, each secondary item used at most once or
        only by options that give it the same color."""
        picked = list(chosen)
        if len(set(picked)) != len(picked) or not all(0 <= k < len(self.options) for k in picked):
            return False
        covered = [0] * self.n_primary
        colors: dict[int, list[str | None]] = {}
        for k in picked:
            for item, color in self.options[k]:
                if item < self.n_primary:
                    covered[item] += 1
                else:
                    colors.setdefault(item, []).append(color)
        if any(not lo <= c <= hi for c, (lo, hi) in zip(covered, self.bounds, strict=True)):
            return False
        return all(
            len(uses) == 1 or (None not in uses and len(set(uses)) == 1) for uses in colors.values()
        )

    def all_covers(self) -> set[frozenset[int]]:
        """Every solution: each subset of the options is weighed and :meth:`is_cover`
        decides. A subset is passed over, with every subset that adds options to it, as
        soon as it covers a primary item more often than the item's upper bound or uses a
        secondary item twice without one color: adding options undoes neither."""
        n = len(self.options)
        covers: set[frozenset[int]] = set()

        def extend(
            k: int, chosen: list[int], covered: list[int], colors: dict[int, str | None]
        ) -> None:
            if k == n:
                if self.is_cover(chosen):
                    covers.add(frozenset(chosen))
                return
            extend(k + 1, chosen, covered, colors)
            covered, colors = covered.copy(), colors.copy()
            for item, color in self.options[k]:
                if item < self.n_primary:
                    covered[item] += 1
                    if covered[item] > self.bounds[item][1]:
                        return
                elif item in colors and (color is None or colors[item] != color):
                    return
                else:
                    colors[item] = color
            extend(k + 1, [*chosen, k], covered, colors)

        extend(0, [], [0] * self.n_primary, {})
        return covers


def instances(kind: Kind, max_options: int = 10) -> SearchStrategy[Instance]:
    """A hypothesis strategy of random instances of the given kind, small enough for the
    brute-force oracle: up to 5 primary items, 3 secondary items and ``max_options``
    options. Every option has at least one primary item; the items of an option come in a
    random order. XCC and MCC instances color some secondary uses with two colors; MCC
    instances have at least one primary item whose bounds are not (1, 1)."""
    return _instances(kind, max_options)


@cache  # made once per kind and size: a flatmap over the kinds asks again per example
def _instances(kind: Kind, max_options: int) -> SearchStrategy[Instance]:
    """The strategy of :func:`instances`: each option read off :data:`USE_BYTES` drawn
    bytes (:func:`_option`), one draw where drawing its items, colors and order one by
    one took a dozen."""
    from hypothesis import strategies as st

    option_bytes = st.binary(min_size=USE_BYTES, max_size=USE_BYTES)

    @st.composite
    def draw_instance(draw: st.DrawFn) -> Instance:
        n_primary = draw(st.integers(1, 5))
        n_secondary = draw(st.integers(0, 3))
        n_options = draw(st.integers(0, max_options))
        drawn = draw(st.lists(option_bytes, min_size=n_options, max_size=n_options))
        options = tuple(_option(raw, n_primary, n_secondary, kind != "X") for raw in drawn)
        bounds = [(1, 1)] * n_primary
        if kind == "MCC":
            bounds = [draw(st.sampled_from(BOUNDS)) for _ in range(n_primary)]
            if all(bound == (1, 1) for bound in bounds):
                unusual = [bound for bound in BOUNDS if bound != (1, 1)]
                bounds[draw(st.integers(0, n_primary - 1))] = draw(st.sampled_from(unusual))
        return Instance(n_primary, n_secondary, options, tuple(bounds))

    return draw_instance()


def _option(raw: bytes, n_primary: int, n_secondary: int, colored: bool) -> tuple[Use, ...]:
    """The option of an instance that ``raw`` (:data:`USE_BYTES` bytes) stands for: its
    primary items (at least one) and its secondary items picked by :func:`_some`, their
    colors (none, red or blue, if ``colored``) and the order of the uses. As often as
    hypothesis's sets of items did, an option uses one item or all of them, and about as
    many options make an instance with solutions. Bytes of 0 shrink it to the first
    primary item alone."""
    primary = _some(raw[0], raw[1:6], n_primary, 1)
    secondary = _some(raw[6], raw[7:10], n_secondary, 0)
    palette = COLORS if colored else (None,)
    uses: list[Use] = [(i, None) for i in primary]
    uses += [(n_primary + i, palette[raw[10 + i] % len(palette)]) for i in secondary]
    order = raw[13:]
    return tuple(use for _, _, use in sorted(zip(order, range(len(uses)), uses, strict=False)))


def _some(size: int, keys: bytes, n: int, least: int) -> list[int]:
    """Some of the items ``0..n-1`` (at least ``least``, at most all), in increasing
    order: as many as the byte ``size`` says (a quarter of its values each: ``least``,
    ``least + 1``, any number, all), those of the largest ``keys`` (ties to the first)."""
    kind, rest = size % 4, size // 4
    count = (least, least + 1, least + rest % (n - least + 1), n)[kind]
    chosen = sorted(range(n), key=lambda i: (-keys[i], i))[: min(count, n)]
    return sorted(chosen)


def union(parts: list[Instance], seed: int, shared: bool = False) -> Instance:
    """The disjoint union of ``parts``, the items of all parts interleaved in a random
    order (primary and secondary separately); with ``shared``, one more secondary item
    is added to one option of each of the first two parts (if they have options), which
    couples them."""
    rng = random.Random(seed)
    n_primary = sum(part.n_primary for part in parts)
    n_secondary = sum(part.n_secondary for part in parts) + (1 if shared else 0)
    primary_slots = list(range(n_primary))
    secondary_slots = list(range(n_primary, n_primary + n_secondary))
    rng.shuffle(primary_slots)
    rng.shuffle(secondary_slots)
    options: list[tuple[Use, ...]] = []
    for number, part in enumerate(parts):
        rename = {i: primary_slots.pop() for i in range(part.n_primary)}
        rename |= {part.n_primary + i: secondary_slots.pop() for i in range(part.n_secondary)}
        renamed = [
            tuple((rename[item], color) for item, color in option) for option in part.options
        ]
        if shared and number < 2 and renamed:
            renamed[0] = (*renamed[0], (secondary_slots[0], None))
        options += renamed
    rng.shuffle(options)
    bounds = ((1, 1),) * n_primary
    return Instance(n_primary, n_secondary, tuple(options), bounds)


def wide_problems(
    max_options: int = 200,
    *,
    max_primary: int = 140,
    max_secondary: int = 70,
    max_colors: int = 5,
    multiplicities: bool = False,
) -> SearchStrategy[ExactCover]:
    """A hypothesis strategy of random problems with up to ``max_primary`` primary items,
    ``max_secondary`` secondary items (some colored, with up to ``max_colors`` colors) and
    ``max_options`` options of 1 to 4 primary items and 0 to 3 secondary items each (the
    number of options bounds the size of the search tree); with ``multiplicities``, some
    primary items get bounds ``lo..hi`` within ``0..3``.

    Each option is read off :data:`OPTION_BYTES` drawn bytes: one draw for hypothesis,
    where drawing its items and colors one by one took a dozen, and those draws, not the
    searches, took most of the time of the engines' property tests. The bytes shrink
    towards options of one primary item, the first, and no secondary item."""
    return _wide_problems(max_options, max_primary, max_secondary, max_colors, multiplicities)


@cache  # made once per size, as _instances
def _wide_problems(
    max_options: int, max_primary: int, max_secondary: int, max_colors: int, multiplicities: bool
) -> SearchStrategy[ExactCover]:
    """The strategy of :func:`wide_problems`."""
    from hypothesis import strategies as st

    option_bytes = st.binary(min_size=OPTION_BYTES, max_size=OPTION_BYTES)

    @st.composite
    def draw_problem(draw: st.DrawFn) -> ExactCover:
        n_primary = draw(st.integers(1, max_primary))
        n_secondary = draw(st.integers(0, max_secondary))
        colors = draw(st.integers(0, max_colors))
        n_options = draw(st.integers(0, max_options))
        problem = ExactCover(
            [f"p{i}" for i in range(n_primary)], [f"s{i}" for i in range(n_secondary)]
        )
        for raw in draw(st.lists(option_bytes, min_size=n_options, max_size=n_options)):
            problem.add_option(_wide_option(raw, n_primary, n_secondary, colors))
        if multiplicities:
            chosen = draw(st.sets(st.integers(0, n_primary - 1), min_size=1, max_size=20))
            for i in sorted(chosen):
                hi = draw(st.integers(1, 3))
                problem.set_multiplicity(f"p{i}", draw(st.integers(0, hi)), hi)
        return problem

    return draw_problem()


def _wide_option(raw: bytes, n_primary: int, n_secondary: int, colors: int) -> list[str]:
    """The option that ``raw`` (:data:`OPTION_BYTES` bytes) stands for, its items named
    ``p*`` and ``s*``, a secondary item's color ``c1`` to ``c{colors}`` (or none)."""
    primary = {_scaled(byte, n_primary) for byte in raw[1 : 2 + raw[0] % 4]}
    option = [f"p{i}" for i in sorted(primary)]
    if n_secondary:
        uses: dict[int, int] = {}
        for byte, color in zip(raw[6 : 6 + raw[5] % 4], raw[9:12], strict=False):
            uses.setdefault(_scaled(byte, n_secondary), _scaled(color, colors + 1))
        option += [f"s{i}" + (f":c{c}" if c else "") for i, c in sorted(uses.items())]
    return option


def _scaled(byte: int, n: int) -> int:
    """A byte read as one of ``0..n-1`` (``n`` at most 256), each about as often."""
    return byte * n >> 8
