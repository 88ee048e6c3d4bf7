"""Rectangle tilings with a perimeter target (A360773), by their states and by exact cover.

:func:`excover.tiling.count_rectangle_tilings` with ``perimeter`` against every tiling of
the same rule listed by search with its perimeters summed (random boxes and rules); its
parts against the whole; A360773's published terms by both routes of
:mod:`excover.sequences.rectangles` (the count by states, the key-set exact cover) and
against a tiler here that knows nothing of either; the key sets against a count of
another kind; the errors.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from itertools import combinations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, UsageError
from excover.main import main
from excover.sequences import problem, term
from excover.sequences.known import KNOWN
from excover.sequences.rectangles import count_key_sets, key_sets, shapes, side
from excover.tiling import _rectangles, count_rectangle_tilings
from excover.tiling.rectangles import _numbered, _quarter_turn_kept, max_perimeter_sum


def perimeter_sums(
    height: int, width: int, rule: Mapping[tuple[int, int], Hashable]
) -> Counter[int]:
    """How many tilings of the box under ``rule`` have each sum of perimeters: every
    tiling listed by a search of the rule's exact cover (a primary item per cell, a
    secondary item per key), its rectangles' perimeters added."""
    keys = list(dict.fromkeys(rule.values()))
    names = {key: f"k{i}" for i, key in enumerate(keys)}
    cells = [f"{r},{c}" for r in range(height) for c in range(width)]
    cover = ExactCover(primary=cells, secondary=list(names.values()))
    perimeters = []
    for (h, w), key in rule.items():
        for top in range(height - h + 1):
            for left in range(width - w + 1):
                covered = [f"{r},{c}" for r in range(top, top + h) for c in range(left, left + w)]
                cover.add_option([*covered, names[key]])
                perimeters.append(2 * (h + w))
    return Counter(sum(perimeters[k] for k in solution) for solution in cover.solutions())


@st.composite
def rules(draw: st.DrawFn) -> tuple[int, int, dict[tuple[int, int], int]]:
    """A box of at most 4 x 5 cells and a rule: some of its rectangles, each given one of
    a few keys; on a square, half the time a rule a quarter turn keeps (a key per
    unordered pair of sides)."""
    height = draw(st.integers(1, 4))
    width = draw(st.integers(1, 5))
    fitting = [(h, w) for h in range(1, height + 1) for w in range(1, width + 1)]
    if height == width and draw(st.booleans()):
        pairs = {(min(h, w), max(h, w)) for h, w in fitting}
        chosen = draw(st.lists(st.sampled_from(sorted(pairs)), unique=True))
        keys = {pair: draw(st.integers(0, 9)) for pair in chosen}
        return height, width, {s: keys[p] for p in chosen for s in {p, p[::-1]}}
    chosen = draw(st.lists(st.sampled_from(fitting), unique=True, max_size=len(fitting)))
    return height, width, {shape: draw(st.integers(0, 9)) for shape in chosen}


def by_rows(
    height: int, width: int, rule: Mapping[tuple[int, int], Hashable], perimeter: int
) -> int:
    """The count with every region kept row by row, as on boards larger than 8 x 8."""
    numbered = _numbered(height, width, rule)
    keys = len({key for _, _, key in numbered})
    turns = height == width and _quarter_turn_kept(numbered)
    count, _ = _rectangles.count_states(
        height, width, numbered, keys, True, turns, packed=False, target=perimeter // 2
    )
    return count


@settings(max_examples=examples(120), deadline=None)
@given(rules())
def test_each_perimeter_target_counts_the_tilings_of_that_sum(
    box: tuple[int, int, dict[tuple[int, int], int]],
) -> None:
    height, width, rule = box
    sums = perimeter_sums(height, width, rule)
    assert count_rectangle_tilings(height, width, rule) == sum(sums.values())
    # every sum met, one between them, one past them and an odd one
    targets = {*sums, min(sums, default=0) + 2, max(sums, default=0) + 2, 2 * height * width + 1}
    for perimeter in sorted(targets):
        expected = sums.get(perimeter, 0)
        assert count_rectangle_tilings(height, width, rule, perimeter=perimeter) == expected
        assert (
            count_rectangle_tilings(height, width, rule, perimeter=perimeter, symmetry=False)
            == expected
        )
        if perimeter % 2 == 0 and perimeter // 2 <= 2 * height * width:  # the core's range
            assert by_rows(height, width, rule, perimeter) == expected


def test_boxes_wider_than_a_word_with_a_target() -> None:
    """Boxes past 8 cells a side keep their regions row by row: a 2 x 9 and a 3 x 10
    box, every sum against the listed tilings."""
    for height, width in ((2, 9), (3, 10)):
        rule: dict[tuple[int, int], Hashable] = {
            (h, w): (min(h, w), max(h, w)) for h in range(1, 4) for w in range(1, 11)
        }
        rule.update({(1, 1): "one", (1, 2): "one"})  # a key of two shapes
        sums = perimeter_sums(height, width, rule)
        assert len(sums) > 3
        for perimeter, expected in sums.items():
            assert count_rectangle_tilings(height, width, rule, perimeter=perimeter) == expected


def test_the_parts_add_up_to_the_whole() -> None:
    rule = shapes("A360773", 4)
    whole = count_rectangle_tilings(8, 8, rule, perimeter=64)
    assert whole == KNOWN["A360773"][3]
    for m in (2, 7, 13):
        parts = [count_rectangle_tilings(8, 8, rule, perimeter=64, part=(k, m)) for k in range(m)]
        assert sum(parts) == whole and max(parts) < whole
    # without a target too
    plain = shapes("A360499", 5)
    whole = count_rectangle_tilings(5, 5, plain)
    assert sum(count_rectangle_tilings(5, 5, plain, part=(k, 3)) for k in range(3)) == whole


def brute_a360773(n: int) -> int:
    """The tilings of the 2n x 2n square by rectangles of distinct dimension pairs whose
    perimeters sum to its area, by filling the first empty cell in every way (no state,
    no exact cover), a branch dropped once its perimeters pass the area."""
    size = 2 * n
    filled = [[False] * size for _ in range(size)]

    def fill(used: frozenset[tuple[int, int]], left: int) -> int:
        empty = next(((r, c) for r in range(size) for c in range(size) if not filled[r][c]), None)
        if empty is None:
            return int(left == 0)
        r, c = empty
        total = 0
        for h in range(1, size - r + 1):
            for w in range(1, size - c + 1):
                pair = (min(h, w), max(h, w))
                if pair in used or 2 * (h + w) > left:
                    continue
                cells = [(r + i, c + j) for i in range(h) for j in range(w)]
                if any(filled[i][j] for i, j in cells):
                    break  # wider ones overlap too
                for i, j in cells:
                    filled[i][j] = True
                total += fill(used | {pair}, left - 2 * (h + w))
                for i, j in cells:
                    filled[i][j] = False
        return total

    return fill(frozenset(), size * size)


def test_a360773_published_terms_by_states_exact_cover_and_a_plain_tiler() -> None:
    for n in range(1, 5):
        published = KNOWN["A360773"][n - 1]
        assert term("A360773", n) == published
        cover = problem("A360773", n)
        assert cover.count(method="search") == cover.count(symmetry=True) == published
        if n <= 3:
            assert brute_a360773(n) == published


@pytest.mark.slow
def test_a360773_fifth_term_by_both_routes() -> None:
    """a(5) = 620,448 (the 10 x 10 square): states (about 3 s), exact cover (about 7 s)."""
    assert term("A360773", 5) == KNOWN["A360773"][4]
    assert problem("A360773", 5).count(symmetry=True) == KNOWN["A360773"][4]


def test_the_exact_covers_solutions_are_the_tilings_each_once() -> None:
    """a(3)'s 8 solutions: each a tiling of the 6 x 6 square by rectangles of distinct
    pairs, perimeters summing to 36, and no two alike."""
    cover = problem("A360773", 3)
    tilings = set()
    for solution in cover.solutions():
        rectangles = []
        for k in solution:
            items = cover.option_items(k)
            cells = [
                tuple(map(int, item.split(",")))
                for item in items
                if "," in item and "{" not in item
            ]
            if cells:
                rows = {r for r, _ in cells}
                columns = {c for _, c in cells}
                assert len(cells) == len(rows) * len(columns)
                rectangles.append((len(rows), len(columns), frozenset(cells)))
        assert sum(len(cells) for _, _, cells in rectangles) == 36
        assert len({frozenset(cells) for *_, cells in rectangles}) == len(rectangles)
        assert sum(2 * (h + w) for h, w, _ in rectangles) == 36
        pairs = [(min(h, w), max(h, w)) for h, w, _ in rectangles]
        assert len(set(pairs)) == len(pairs)
        tilings.add(frozenset(cells for *_, cells in rectangles))
    assert len(tilings) == KNOWN["A360773"][2]


def test_the_key_sets_are_every_set_of_the_right_area_and_sum() -> None:
    """Listed (largest keys first, a table of the sums) against every subset of the
    keys for n = 1 and 2, and against their count (a table of floating-point counts)
    to n = 5."""
    for n in (1, 2):
        size = side("A360773", n)
        keys = {key: shape for shape, key in shapes("A360773", n).items()}
        every = [
            sorted(chosen)
            for r in range(len(keys) + 1)
            for chosen in combinations(keys, r)
            if sum(keys[k][0] * keys[k][1] for k in chosen) == size * size
            and sum(sum(keys[k]) for k in chosen) == size * size // 2
        ]
        assert sorted(sorted(s) for s in key_sets("A360773", n)) == sorted(every)
    for n in range(1, 6):
        listed = list(key_sets("A360773", n))
        assert len(listed) == len({tuple(s) for s in listed}) == count_key_sets("A360773", n)
    assert [count_key_sets("A360773", n) for n in range(2, 6)] == [1, 3, 187, 14146]


def test_what_a_perimeter_target_refuses() -> None:
    rule = shapes("A360499", 3)
    for wrong in (-2, 2.0, True, "36"):
        with pytest.raises(UsageError, match="perimeter must be a non-negative integer"):
            count_rectangle_tilings(3, 3, rule, perimeter=wrong)  # type: ignore[arg-type]
    for bad_part in ((1, 1), (0,), (-1, 2), [0, 2], (0, True)):
        with pytest.raises(UsageError, match="part must be"):
            count_rectangle_tilings(3, 3, rule, part=bad_part)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="symmetry=True"):
        count_rectangle_tilings(3, 3, rule, part=(0, 2), symmetry=False)
    assert count_rectangle_tilings(3, 3, rule, perimeter=37) == 0  # odd
    assert max_perimeter_sum(3, 3) == 36  # nine unit squares
    assert count_rectangle_tilings(3, 3, {(1, 1): 0}, perimeter=36) == 0  # one key
    assert count_rectangle_tilings(3, 3, rule, perimeter=38) == 0
    with pytest.raises(UsageError, match="too many to count"):
        problem("A360773", 13)


def test_excover_sequence_a360773(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sequence", "A360773", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "8"
    assert main(["sequence", "A360773", "4", "--workers", "1"]) == 0  # the search
    assert capsys.readouterr().out.splitlines()[-1] == "1024"
