"""Making a tiling unique (:mod:`excover.tiling.unique`), checked against brute force.

Every proposal is recounted by another method (the ZDD of the changed puzzle's
solutions), and no proposal is missed: the placements contained in exactly one solution
are found again from the ZDD of all the solutions (its onset at each placement), the sets
of removed cells by counting the board less every set of that many cells, one by one.
"""

from __future__ import annotations

import itertools

import pytest

from excover.errors import UsageError
from excover.tiling import HexPattern, Pattern, Tile, Tiling, make_unique, pentominoes, tiles
from excover.tiling.unique import Uniqueness, without

DOMINO = "**"
TROMINO_L = "**\n*."


def _tilings() -> dict[str, Tiling]:
    """Small puzzles with several solutions, of every kind of multiplicity."""
    return {
        "3x20 pentominoes": Tiling(Pattern.constant(20, 3), tiles(pentominoes())),
        "2x4 dominoes": Tiling(Pattern.constant(4, 2), [Tile(DOMINO, "D", "any")]),
        "3x4 L trominoes": Tiling(Pattern.constant(4, 3), [Tile(TROMINO_L, "L", 4)]),
        "3x3 maybe pieces": Tiling(
            Pattern.constant(3, 3),
            [
                Tile(DOMINO, "D", "any"),
                Tile(TROMINO_L, "L", "maybe"),
                Tile("***", "I", "maybe"),
            ],
        ),
        "2x3 dominoes and an I": Tiling(
            Pattern.constant(3, 2), [Tile(DOMINO, "D", "any"), Tile("***", "I", "maybe")]
        ),
        "two 2x2 blocks": Tiling(Pattern.from_ascii("**.**\n**.**"), [Tile(DOMINO, "D", "any")]),
        "hex dominoes": Tiling(
            HexPattern([(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (2, 1)]),
            [Tile(HexPattern([(0, 0), (1, 0)]), "D", "any")],
        ),
    }


TILINGS = _tilings()


def _recount(tiling: Tiling | None) -> int:
    """The number of solutions of a changed puzzle by the ZDD (None: the empty board)."""
    return 1 if tiling is None else tiling.problem.count(method="zdd")


def _unique_option_sets(tiling: Tiling, size: int) -> set[frozenset[int]]:
    """Brute force: every set of ``size`` options that exactly one solution contains, from
    the ZDD of all the solutions."""
    family = tiling.problem.zdd()
    found = set()
    for options in itertools.combinations(range(tiling.problem.n_options), size):
        part = family
        for option in options:
            part = part.onset(option)
        if part.count() == 1:
            found.add(frozenset(options))
    return found


def _unique_removals(tiling: Tiling, size: int) -> set[frozenset[tuple[int, ...]]]:
    """Brute force: every set of ``size`` cells whose removal leaves exactly one tiling,
    each board counted anew by the dancing-links count."""
    cells = [tuple(int(v) for v in cell) for cell in tiling.cells.tolist()]
    found = set()
    for removed in itertools.combinations(cells, size):
        pieces = [tile for tile in tiling.tiles if tile.size <= len(cells) - size]
        if len(pieces) < len(tiling.tiles) and any(t.lo for t in tiling.tiles if t not in pieces):
            continue
        board = without(tiling.board, removed)
        if Tiling(board, pieces).count(method="search") == 1:
            found.add(frozenset(removed))
    return found


#: The reports are made once per process (the fixture below): the module's tests run on
#: one pytest-xdist worker, not each worker making them again.
pytestmark = pytest.mark.xdist_group("unique reports")


@pytest.fixture(scope="module")
def reports() -> dict[str, Uniqueness]:
    return {name: make_unique(tiling) for name, tiling in TILINGS.items()}


@pytest.mark.parametrize("name", sorted(TILINGS))
def test_every_proposal_leaves_one_solution_by_another_count(
    reports: dict[str, Uniqueness], name: str
) -> None:
    report = reports[name]
    tiling = TILINGS[name]
    assert report.complete and report.proposals
    for proposal in report.proposals:
        assert proposal.count == 1
        assert _recount(proposal.puzzle) == 1
        if proposal.placed:
            # the one solution is a solution of the puzzle as given, holding the pieces
            assert tiling.problem.is_solution(proposal.solution.options)
            assert {p.option for p in proposal.placed} <= set(proposal.solution.options)
        else:
            assert proposal.puzzle is not None
            assert proposal.puzzle.problem.is_solution(proposal.solution.options)
            covered = {cell for p in proposal.solution for cell in p.cells}
            assert covered.isdisjoint(proposal.removed)


@pytest.mark.parametrize("name", sorted(TILINGS))
def test_no_pre_placement_is_missed(reports: dict[str, Uniqueness], name: str) -> None:
    report = reports[name]
    tiling = TILINGS[name]
    size = len(report.placed[0].placed)
    found = {frozenset(p.option for p in proposal.placed) for proposal in report.placed}
    assert found == _unique_option_sets(tiling, size)
    assert report.placed_total == len(found)
    for fewer in range(1, size):  # and none with fewer pieces
        assert not _unique_option_sets(tiling, fewer)


@pytest.mark.parametrize(
    "name",
    ["2x3 dominoes and an I", "2x4 dominoes", "3x3 maybe pieces", "two 2x2 blocks", "hex dominoes"],
)
def test_no_removal_is_missed(reports: dict[str, Uniqueness], name: str) -> None:
    report = reports[name]
    tiling = TILINGS[name]
    size = len(report.removed[0].removed)
    assert {frozenset(p.removed) for p in report.removed} == _unique_removals(tiling, size)
    for fewer in range(1, size):
        assert not _unique_removals(tiling, fewer)


def test_two_pieces_when_no_single_piece_does(reports: dict[str, Uniqueness]) -> None:
    """Two separate 2x2 blocks: every domino lies in two of the four tilings, so the
    fewest pre-placed pieces are two, one in each block."""
    report = reports["two 2x2 blocks"]
    assert {len(p.placed) for p in report.placed} == {2}
    for proposal in report.placed:
        xs = [{cell[0] for cell in p.cells} for p in proposal.placed]
        assert max(xs[0]) < 2 < min(xs[1]) or max(xs[1]) < 2 < min(xs[0])


def test_a_fixed_piece_set_cannot_lose_cells(reports: dict[str, Uniqueness]) -> None:
    report = reports["3x20 pentominoes"]
    assert not report.removed
    assert any("cannot be removed" in note for note in report.notes)


def test_beyond_the_limit_every_placement_is_checked_by_a_count(
    reports: dict[str, Uniqueness],
) -> None:
    full = reports["3x3 maybe pieces"]
    cut = make_unique(TILINGS["3x3 maybe pieces"], limit=2, remove=False)
    assert cut.solutions == 2 and not cut.listed_all and full.listed_all
    assert cut.complete  # every placement was checked: nothing is left open
    options = {frozenset(p.option for p in proposal.placed) for proposal in cut.placed}
    assert options == {frozenset(p.option for p in proposal.placed) for proposal in full.placed}
    assert cut.placed_total == full.placed_total


def test_beyond_the_limit_every_cell_is_checked_by_a_count(
    reports: dict[str, Uniqueness],
) -> None:
    full = reports["2x3 dominoes and an I"]
    cut = make_unique(TILINGS["2x3 dominoes and an I"], limit=1, place=False)
    assert cut.complete and {len(p.removed) for p in full.removed} == {1}
    assert {p.removed for p in cut.removed} == {p.removed for p in full.removed}
    assert all(_recount(p.puzzle) == 1 for p in cut.removed)


def test_beyond_the_limit_larger_changes_are_marked_partial() -> None:
    report = make_unique(TILINGS["two 2x2 blocks"], limit=2, remove=False)
    assert report.stopped_by == "limit" and not report.placed
    assert any("pairs need the whole list" in note for note in report.notes)


def test_spare_cells_are_removed_from_a_board_larger_than_the_pieces() -> None:
    """Two dominoes on six cells: no tiling, every cell coverable; removing two cells
    leaves one tiling exactly where brute force says."""
    tiling = Tiling(Pattern.constant(3, 2), [Tile(DOMINO, "D", 2)])
    report = make_unique(tiling)
    assert report.listed_all and report.solutions == 0 and report.uncoverable == []
    assert any("all together" in note for note in report.notes)
    assert not report.placed
    assert {frozenset(p.removed) for p in report.removed} == _unique_removals(tiling, 2)
    assert report.removed and all(_recount(p.puzzle) == 1 for p in report.removed)


def test_uncoverable_cells_are_named() -> None:
    tiling = Tiling(Pattern.from_ascii("**.*\n**.."), [Tile(DOMINO, "D", "any")])
    report = make_unique(tiling, remove=False)
    assert report.solutions == 0 and report.uncoverable == [(3, 1)]


def test_pieces_that_cover_every_cell_but_not_together() -> None:
    """The plus pentomino and a domino with an L tromino: the domino must hold the
    centre, and the L cannot join the three arms left."""
    plus = Pattern.from_ascii(".*.\n***\n.*.")
    tiling = Tiling(plus, [Tile(DOMINO, "D"), Tile(TROMINO_L, "L")])
    report = make_unique(tiling)
    assert report.solutions == 0 and report.uncoverable == []
    assert any("cannot cover them all together" in note for note in report.notes)


def test_a_unique_puzzle_needs_no_change() -> None:
    tiling = Tiling(Pattern.constant(3, 1), [Tile("***", "I")])
    report = make_unique(tiling)
    assert report.unique is not None and report.solutions == 1
    assert not report.proposals and report.complete


def test_a_timeout_stops_with_what_was_proved() -> None:
    report = make_unique(TILINGS["3x20 pentominoes"], timeout=0)
    assert report.stopped_by == "timeout" and not report.complete
    assert all(p.count == 1 for p in report.proposals)


def test_max_proposals_proves_only_that_many_but_counts_all(
    reports: dict[str, Uniqueness],
) -> None:
    full = reports["3x20 pentominoes"]
    some = make_unique(TILINGS["3x20 pentominoes"], max_proposals=3)
    assert [p.describe() for p in some.placed] == [p.describe() for p in full.placed[:3]]
    assert some.placed_total == full.placed_total


def test_pictures_draw_the_board_with_the_change(reports: dict[str, Uniqueness]) -> None:
    placed = reports["3x20 pentominoes"].placed[0]
    text = placed.ascii()
    assert text.count(".") == 60 - 5 and text.count(placed.placed[0].tile.name or "?") == 5
    picture = placed.svg()
    assert picture.startswith("<svg") and picture.count("<polygon") == 60
    removed = reports["2x4 dominoes"].removed[0]
    assert removed.ascii().count("x") == len(removed.removed)
    assert removed.svg(solved=True).count("<polygon") == 8 - len(removed.removed)
    assert removed.to_json()["cells"] == [list(cell) for cell in removed.removed]


@pytest.mark.parametrize(
    "keywords",
    [{"limit": 0}, {"max_pieces": 0}, {"max_cells": -1}, {"timeout": -1}, {"max_proposals": -2}],
)
def test_bad_arguments_are_usage_errors(keywords: dict[str, int]) -> None:
    with pytest.raises(UsageError):
        make_unique(TILINGS["2x4 dominoes"], **keywords)  # type: ignore[arg-type]


def test_only_a_tiling_is_made_unique() -> None:
    with pytest.raises(UsageError, match="takes a Tiling"):
        make_unique("not a tiling")  # type: ignore[arg-type]
