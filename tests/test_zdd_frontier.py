"""The frontier count over DXZ's states (``excover.zdd.frontier``), on one and two
threads, against the brute-force oracle, Kasteleyn's formula (in floats and in 150-digit
decimals), combine's figures, OEIS, the Fibonacci numbers, DLX, the DXZ family and a
transfer over pentomino strips written here; its item order; and the problems it leaves
to the DXZ family."""

from __future__ import annotations

import itertools
import math
import os
import random
import subprocess
import sys
from array import array
from decimal import Decimal, getcontext, localcontext

import pytest
from budget import examples
from builders import COMBINE_DATA, Instance, dominoes, instances, walks
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover
from excover.tiling import Pattern, Tiling, pentominoes, tiles
from excover.zdd import _frontier, dxz, frontier, ordering


@settings(max_examples=examples(150))
@given(instances("X", 10))
def test_counts_match_the_oracle_on_any_number_of_threads(data: Instance) -> None:
    problem = data.build()
    counted = frontier.count(problem)
    if data.n_secondary:
        assert counted is None and not frontier.suits(problem)
        return
    assert counted == len(data.all_covers())
    assert frontier.count(problem, workers=2) == counted == frontier.count(problem, workers=3)


def kasteleyn(m: int, n: int) -> int:
    value = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            value *= (
                4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
            )
    return round(value)


@pytest.mark.parametrize(("m", "n"), [(2, 2), (4, 7), (8, 8), (10, 11)])
def test_domino_rectangles_against_kasteleyn(m: int, n: int) -> None:
    problem = dominoes(m, n)
    assert frontier.count(problem, workers=1) == kasteleyn(m, n) == frontier.count(problem, 2)


def test_the_12x12_square_against_oeis() -> None:
    """Domino tilings of the 12 x 12 square: OEIS A004003(6) (beyond a float's 53 bits,
    so not from the product formula)."""
    problem = dominoes(12, 12)
    assert frontier.count(problem, workers=2) == 53060477521960000 == frontier.count(problem)


def shape(name: str) -> ExactCover:
    """Domino tilings of one of combine's shapes, cells in reading order."""
    rows = (COMBINE_DATA / name).read_text().split()
    cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"}
    ordered = sorted(cells)
    problem = ExactCover(primary=[f"{r}_{c}" for r, c in ordered])
    for r, c in ordered:
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr, c + dc) in cells:
                problem.add_option([f"{r}_{c}", f"{r + dr}_{c + dc}"])
    return problem


@pytest.mark.parametrize(
    ("name", "total"),
    [
        ("caml_large.txt", 32420116341024288),
        ("dominos_c4_22x22.txt", 2255578550442504749056000000),
    ],
)
def test_combines_shapes(name: str, total: int) -> None:
    problem = shape(name)
    assert frontier.count(problem, workers=2) == total == frontier.count(problem)


def test_problems_it_does_not_suit() -> None:
    """Colors, secondary items, multiplicities and options spanning 63 items or more are
    left to the family; count(method="zdd") and count(workers=2) still count them."""
    colored = walks(4, [("a", "b"), ("b", "a"), ("a", "a")])
    wide = ExactCover(primary=70)
    wide.add_option([0, 69])
    wide.add_option(list(range(1, 69)))
    multiple = ExactCover(primary=["a", "b"])
    multiple.set_multiplicity("a", 0, 2)
    multiple.add_option(["a", "b"])
    multiple.add_option(["a"])
    for problem in (colored, wide, multiple):
        assert not frontier.suits(problem) and frontier.count(problem) is None
        expected = problem.count(method="search")
        assert problem.count(method="zdd") == expected
        assert problem.count(method="zdd", workers=2) == expected


def test_parallel_count_by_zdd_uses_threads_and_agrees() -> None:
    problem = dominoes(9, 10)
    assert problem.count(method="zdd", workers=2) == kasteleyn(9, 10)
    assert problem.count(method="zdd", workers=2, tasks=4) == kasteleyn(9, 10)


def test_wide_layers_are_shared_among_threads_with_the_same_count() -> None:
    """A 16x16 board's layers hold tens of thousands of states, past the size from which
    the threads share a layer (smaller layers are done by one thread in turn): the count
    is OEIS A004003's 2,444,888,770,250,892,795,802,079,170,816 on 1, 2 and 3 threads."""
    problem = dominoes(16, 16)
    expected = 2444888770250892795802079170816
    assert [frontier.count(problem, workers=w) for w in (1, 2, 3)] == [expected] * 3


# ----- counts of any size ------------------------------------------------------------


def raw_count(
    problem: ExactCover,
    threads: int = 1,
    buckets: int = 0,
    words: int = 1,
    group: int = 0,
    fine: bool = False,
    short_keys: bool = True,
) -> int:
    """The compiled count on the problem's layout, with the layers' most buckets, the
    counts' first width, the most posts summed at once, the finest split and the states'
    posting in 4 bytes where they fit chosen."""
    layout = frontier.layout(problem)
    assert layout is not None
    starts, masks = layout
    n_items = problem.engine_input().n_primary
    counted = _frontier.Counting(
        n_items,
        memoryview(starts),
        memoryview(masks),
        threads,
        buckets=buckets,
        words=words,
        group=group,
        fine=fine,
        short_keys=short_keys,
    ).advance()
    assert counted is not None
    return counted


@settings(max_examples=examples(60))
@given(instances("X", 10))
def test_buckets_groups_and_widths_do_not_change_the_count(data: Instance) -> None:
    """One bucket per layer; as many as a post each, every bucket summed alone and every
    layer shared among 2 or 3 threads; counts starting wide: one count, the oracle's."""
    problem = data.build()
    if data.n_secondary:
        return
    expected = len(data.all_covers())
    assert raw_count(problem, buckets=1) == expected == raw_count(problem, 2, fine=True)
    assert raw_count(problem, 3, 4, words=3, fine=True) == expected
    assert raw_count(problem, 2, 8, words=2, group=3) == expected
    assert raw_count(problem, short_keys=False) == expected
    assert raw_count(problem, 3, 4, words=2, fine=True, short_keys=False) == expected


def test_states_are_posted_in_4_bytes_where_every_option_fits_in_32_bits() -> None:
    """A 12 x 12 board's options span 12 items: its states are posted in 4 bytes, or in
    8 when told, with one count (OEIS A004003's), on one thread and on three. A path of
    40 items covered by its pairs and the pair {0, 33}, whose mask reaches bit 33: 8
    bytes, and its 2 covers counted (item 0 in the pair {0, 33} or {0, 1})."""
    layout = frontier.layout(dominoes(12, 12))
    assert layout is not None
    starts, masks = (memoryview(part) for part in layout)
    n_items = len(starts) - 1
    assert _frontier.Counting(n_items, starts, masks).key_bytes == 4
    assert _frontier.Counting(n_items, starts, masks, short_keys=False).key_bytes == 8
    expected = 53060477521960000
    for threads in (1, 3):
        short = _frontier.Counting(n_items, starts, masks, threads, fine=threads > 1)
        full = _frontier.Counting(n_items, starts, masks, threads, short_keys=False)
        assert short.advance() == full.advance() == expected
    pairs = [1 | 1 << 33] + [0b11] * 39
    path_starts = array("q", [0, *range(2, 41), 40])
    path = _frontier.Counting(40, memoryview(path_starts), memoryview(array("Q", pairs)))
    assert path.key_bytes == 8
    assert path.advance() == 2


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def test_counts_past_128_bits_are_exact() -> None:
    """A 600 x 2 board has Fibonacci(601) tilings, 416 bits: the counts widen word by
    word (from 2 words, or wide from the start), on one thread and three, and agree with
    the DXZ family's count."""
    problem = dominoes(600, 2)
    expected = fibonacci(601)
    assert expected.bit_length() > 6 * 64
    assert frontier.count(problem) == expected == frontier.count(problem, workers=3)
    assert raw_count(problem, words=9) == expected == raw_count(problem, 2, 2, words=2, fine=True)
    family = dxz.run_dxz(problem, dxz.search_manager()).family
    assert family is not None and family.count() == expected


def negligible() -> Decimal:
    """A term below which a series' remaining terms do not change the precision's digits."""
    return Decimal(10) ** -(getcontext().prec + 5)


def decimal_pi() -> Decimal:
    """Pi to the current decimal precision, by Machin's formula."""

    def arctan_inverse(x: int) -> Decimal:
        total, term, k = Decimal(0), Decimal(1) / x, 0
        while term > negligible():
            total += term / (2 * k + 1) * (-1) ** k
            term /= x * x
            k += 1
        return total

    return 16 * arctan_inverse(5) - 4 * arctan_inverse(239)


def decimal_cos(x: Decimal) -> Decimal:
    total, term, k = Decimal(0), Decimal(1), 0
    while abs(term) > negligible():
        total += term
        k += 2
        term = -term * x * x / (k * (k - 1))
    return total


def kasteleyn_exact(m: int, n: int) -> int:
    """Kasteleyn's product for an m x n board, in 150-digit decimals (so its rounding to
    an integer is exact for counts of up to about 140 digits)."""
    with localcontext() as context:
        context.prec = 150
        pi = decimal_pi()
        value = Decimal(1)
        for j in range(1, (m + 1) // 2 + 1):
            for k in range(1, (n + 1) // 2 + 1):
                value *= (
                    4 * decimal_cos(pi * j / (m + 1)) ** 2 + 4 * decimal_cos(pi * k / (n + 1)) ** 2
                )
        return int(value.to_integral_value())


def test_exact_kasteleyn_agrees_with_oeis() -> None:
    """The decimal product against OEIS A004003's 16 x 16 term, and the float one."""
    assert kasteleyn_exact(16, 16) == 2444888770250892795802079170816
    assert kasteleyn_exact(6, 7) == kasteleyn(6, 7)


@pytest.mark.parametrize(("m", "n"), [(18, 18), (14, 30)])
def test_large_domino_boards_against_kasteleyn(m: int, n: int) -> None:
    """Boards beyond 128 bits (18 x 18: 129 bits), on one and two threads."""
    problem = dominoes(m, n)
    expected = kasteleyn_exact(m, n)
    assert frontier.count(problem) == expected == frontier.count(problem, workers=2)


# ----- the item order ----------------------------------------------------------------


def strip(n: int, shapes: dict[str, Pattern], long_rows: bool) -> ExactCover:
    """Tilings of the 5 x n board by ``shapes`` (each as often as wanted), built by
    excover's tilings: ``long_rows`` numbers the cells along rows of n cells."""
    board = Pattern.constant(5, n) if long_rows else Pattern.constant(n, 5)
    return Tiling(board, tiles(shapes, multiplicity="any")).problem


FREE_PENTOMINOES = {
    "F": [".**", "**.", ".*."],
    "I": ["*****"],
    "L": ["****", "*..."],
    "N": ["**..", ".***"],
    "P": ["**", "**", "*."],
    "T": ["***", ".*.", ".*."],
    "U": ["*.*", "***"],
    "V": ["*..", "*..", "***"],
    "W": ["*..", "**.", ".**"],
    "X": [".*.", "***", ".*."],
    "Y": ["****", ".*.."],
    "Z": ["**.", ".*.", ".**"],
}


def orientations(rows: list[str]) -> set[tuple[tuple[int, int], ...]]:
    """The fixed shapes of a free polyomino: its cells (x, y), moved to x, y >= 0."""
    cells = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*"]
    found = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(y, -x) for x, y in cells]
            low_x, low_y = min(x for x, _ in cells), min(y for _, y in cells)
            found.add(tuple(sorted((x - low_x, y - low_y) for x, y in cells)))
        cells = [(-x, y) for x, y in cells]
    return found


def strip_counts(letters: str, longest: int) -> list[int]:
    """Tilings of 5 x n boards for n = 0..longest, by a transfer over the cells of an
    endless strip of height 5, column by column, in plain Python with big integers
    (nothing of excover's): the state is the set of filled cells ahead of the first empty
    one; a board 5 x n is tiled when the first empty cell is 5n and nothing lies beyond."""
    by_row: list[list[int]] = [[] for _ in range(5)]
    for letter in letters:
        for shape in orientations(FREE_PENTOMINOES[letter]):
            anchor_x, anchor_y = min(shape)  # the first cell in column-major order
            for y in range(5):
                moved = [(x - anchor_x, y + dy - anchor_y) for x, dy in shape]
                if all(0 <= cy < 5 for _, cy in moved):
                    by_row[y].append(sum(1 << (5 * cx + cy - y) for cx, cy in moved))
    layers: dict[int, dict[int, int]] = {0: {0: 1}}
    counts = []
    for position in range(5 * longest + 1):
        layer = layers.pop(position, {})
        if position % 5 == 0:
            counts.append(layer.get(0, 0))
        for filled, ways in layer.items():
            for mask in by_row[position % 5]:
                if filled & mask:
                    continue
                grown = filled | mask
                shift = (~grown & (grown + 1)).bit_length() - 1
                target = layers.setdefault(position + shift, {})
                target[grown >> shift] = target.get(grown >> shift, 0) + ways
    return counts


def test_the_transfer_counts_against_oeis() -> None:
    """The test's own transfer against OEIS A247124 (shapes I, U, X) and A251737 (L, U,
    I), their first terms."""
    assert strip_counts("IUX", 12) == [1, 1, 1, 2, 3, 8, 14, 21, 37, 63, 122, 221, 374]
    assert strip_counts("LUI", 9) == [1, 1, 3, 5, 17, 66, 181, 508, 1283, 3664]


def test_pentomino_strips_against_the_transfer_and_dlx() -> None:
    """5 x n boards tiled by the 12 pentominoes (OEIS A174249): the frontier count in
    both orientations against the transfer for n up to 40, and DLX for small n."""
    transfer = strip_counts("FILNPTUVWXYZ", 40)
    for n in (*range(1, 9), 25, 40):
        wide, narrow = strip(n, pentominoes(), True), strip(n, pentominoes(), False)
        assert frontier.count(wide) == transfer[n] == frontier.count(narrow, workers=2)
        if n <= 6:
            assert wide.count(method="search") == transfer[n]
    subset = {letter: pentominoes()[letter] for letter in "IUX"}
    assert frontier.count(strip(60, subset, True)) == strip_counts("IUX", 60)[60]


def test_long_rows_are_reordered_to_a_small_span() -> None:
    """A 5 x 300 board with rows of 300 cells spans 1200 items in its own order; the
    reordered one spans no more than the board numbered column by column (20)."""
    wide, narrow = strip(300, pentominoes(), True), strip(300, pentominoes(), False)
    assert ordering.span(wide) == 4 * 300 and ordering.span(narrow) == 20
    order = ordering.item_order(wide)
    assert order is not None and sorted(order.tolist()) == list(range(1500))
    assert ordering.span(wide, order) <= 20
    assert ordering.item_order(narrow) is None and ordering.item_order(dominoes(12, 12)) is None


def test_a_long_strip_two_ways() -> None:
    """A 5 x 300 board (over 850 bits: 14 words, past the counts of 1 to 4 words whose
    loops are compiled apart), rows long and short, counts starting 2 words wide and 30
    wide, on one and two threads: one count."""
    wide, narrow = strip(300, pentominoes(), True), strip(300, pentominoes(), False)
    counted = frontier.count(wide)
    assert counted is not None and counted.bit_length() > 850
    assert frontier.count(narrow, workers=2) == counted == raw_count(narrow, 2, 16, words=30)


# ----- the compiled shape test and layout ----------------------------------------------


@st.composite
def option_rows(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """Up to 40 options, each a nonempty set of up to 8 of ``n`` items (n <= 90, so that
    spans both within and past the 63-bit window occur), as sorted lists."""
    n = draw(st.integers(1, 90))
    row = st.lists(st.integers(0, n - 1), min_size=1, max_size=8, unique=True)
    return n, [sorted(items) for items in draw(st.lists(row, max_size=40))]


def rows_arrays(rows: list[list[int]]) -> tuple[array[int], array[int]]:
    starts = array("i", [0])
    items = array("i")
    for row in rows:
        items.extend(row)
        starts.append(len(items))
    return starts, items


@settings(max_examples=examples(200))
@given(option_rows(), st.integers(0, 10_000))
def test_shape_matches_its_definition(data: tuple[int, list[list[int]]], budget: int) -> None:
    n, rows = data
    starts, items = rows_arrays(rows)
    partners: list[set[int]] = [set() for _ in range(n)]
    for row in rows:
        for item in row:
            partners[item].update(row)
    pairs = sum(len(row) ** 2 for row in rows)
    expected = (
        max((row[-1] - row[0] for row in rows), default=0),
        min((len(row) for row in rows), default=0),
        max((len(row) for row in rows), default=0),
        -1 if pairs > budget else max(len(p - {i}) for i, p in enumerate(partners)) if rows else 0,
    )
    assert _frontier.shape(n, memoryview(starts), memoryview(items), budget) == expected


@settings(max_examples=examples(200))
@given(option_rows(), st.randoms(use_true_random=False))
def test_layout_groups_the_options_by_their_first_position(
    data: tuple[int, list[list[int]]], rng: random.Random
) -> None:
    n, rows = data
    place = list(range(n))
    rng.shuffle(place)
    starts, items = rows_arrays(rows)
    got = _frontier.layout(n, memoryview(starts), memoryview(items), memoryview(array("q", place)))
    moved = [sorted(place[item] for item in row) for row in rows]
    if any(row[-1] - row[0] > 62 for row in moved):
        assert got is None
        return
    assert got is not None
    first, masks = got
    expected: list[list[int]] = [[] for _ in range(n)]
    for row in moved:  # in the options' order within a position
        expected[row[0]].append(sum(1 << (p - row[0]) for p in row))
    assert list(first) == [0, *itertools.accumulate(len(group) for group in expected)]
    assert list(masks) == [mask for group in expected for mask in group]


def dominoes_and_trominoes(m: int, n: int) -> ExactCover:
    """Tilings of an m x n board by dominoes and L-trominoes: up to six options start at
    a cell, and some of them fit none of a layer's states (every cell below or right of
    a covered one is taken)."""
    problem = dominoes(m, n)
    for i in range(m - 1):
        for j in range(n - 1):
            square = [(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)]
            for left_out in square:
                problem.add_option([f"r{a}c{b}" for a, b in square if (a, b) != left_out])
    return problem


@pytest.mark.parametrize(("m", "n"), [(4, 6), (6, 5), (3, 10)])
def test_several_options_a_cell_against_dxz(m: int, n: int) -> None:
    """One-word windows send a group option by option (the rows an option fits picked
    first): with several options a cell, on one thread and on three, in coarse and fine
    groups, the count is the DXZ family's."""
    problem = dominoes_and_trominoes(m, n)
    family = dxz.run_dxz(problem, dxz.search_manager()).family
    assert family is not None
    expected = family.count()
    assert expected > 1000
    assert frontier.count(problem) == expected == frontier.count(problem, workers=3)
    assert raw_count(problem, 2, 4, fine=True) == expected == raw_count(problem, group=5)


@pytest.mark.parametrize("policy", [None, "ACTIVE"])
def test_the_compiled_count_loads_with_threads_that_sleep(policy: str | None) -> None:
    """Whichever module is imported first (``_frontier`` itself here, as tests and
    scripts do), OpenMP loads with the passive wait policy (threads waiting at a layer's
    barrier sleep, not spin on cores others need), and a policy the user set is kept."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if policy is not None:
        env["OMP_WAIT_POLICY"] = policy
    code = "import os, excover.zdd._frontier; print(os.environ['OMP_WAIT_POLICY'])"
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == (policy or "PASSIVE")
