"""The frontier count's states folded by symmetry (``excover.zdd.folding``): the same
counts as the unfolded count, the brute-force oracle and DLX, on symmetric boards of
dominoes, trominoes and pentominoes and on random problems closed under a symmetry; the
fold layers a row-major board gets (every row's start), none for a symmetry that keeps
no prefix together, and declared maps that are no symmetries dropped."""

from __future__ import annotations

import functools
import random
from array import array
from collections.abc import Collection
from pathlib import Path

import pytest
from budget import examples
from builders import dominoes
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover
from excover.counting import routes
from excover.main import main
from excover.tiling import Pattern, Tile, Tiling, pentominoes, tiles
from excover.zdd import _frontier, folding, frontier

#: The folds of a layout, or none.
Folds = folding.Folds | None

TROMINOES = [Tile("***", "I", "any"), Tile("**\n*.", "L", "any")]


def board(m: int, n: int, pieces: list[Tile]) -> ExactCover:
    """A tiling of an m x n rectangle by the pieces (any number of each), declaring the
    board's symmetries as the tiling finds them (option permutations)."""
    tiling = Tiling(Pattern.constant(m, n), pieces)
    problem = tiling.problem
    problem.declare_symmetries([maps.tolist() for maps in tiling.symmetry.option_maps])
    return problem


def counted(problem: ExactCover, fold: bool, workers: int = 1) -> tuple[int, int]:
    """The count and its states in all layers."""
    states: list[int] = []
    total = frontier.count(problem, workers, lambda done, n, layer: states.append(layer), fold=fold)
    assert total is not None
    return total, sum(states)


def oracle(n_items: int, options: list[frozenset[int]]) -> int:
    """Exact covers of items 0..n_items-1, by brute force on the first uncovered item.
    The count below each set of covered items is remembered (at most 2**n_items sets):
    orbits repeat options, and a count of thousands of covers then costs no more than
    the sets it passes through."""
    holding: list[list[int]] = [[] for _ in range(n_items)]
    for option in options:
        holding[min(option)].append(sum(1 << x for x in option))
    full = (1 << n_items) - 1

    @functools.cache
    def covers(covered: int) -> int:
        if covered == full:
            return 1
        first = (~covered & (covered + 1)).bit_length() - 1
        return sum(covers(covered | o) for o in holding[first] if not covered & o)

    return covers(0)


@pytest.mark.parametrize(
    ("m", "n", "pieces", "folds"),
    [
        (6, 7, [Tile("**", "d", "any")], True),
        (7, 6, [Tile("**", "d", "any")], True),
        (6, 6, TROMINOES, True),
        (9, 5, TROMINOES, True),
        (5, 9, TROMINOES, False),  # reordered (its rows span 18 items): no prefix is kept
        (6, 5, tiles(pentominoes(), "any"), True),
    ],
)
def test_symmetric_boards_fold_to_the_same_count(
    m: int, n: int, pieces: list[Tile], folds: bool
) -> None:
    problem = board(m, n, pieces)
    folded, fewer = counted(problem, True)
    plain, states = counted(problem, False)
    assert folded == plain == problem.count(method="search")
    assert (fewer < states) == folds
    assert counted(problem, True, workers=2)[0] == folded


def test_a_row_major_board_folds_at_every_row_start() -> None:
    """Dominoes on 6 x 8: of the board's four symmetries only the left-right mirror
    keeps the rows above a row together; it folds at the start of every row but the
    first, and the 16 x 16 square's states are then about half (one count, Kasteleyn's)."""
    problem = board(6, 8, [Tile("**", "d", "any")])
    data = problem.engine_input()
    placed = frontier.placed_layout(data.n_primary, data.option_start, data.node_item)
    assert placed is not None
    position, laid_out = placed
    elements = folding.group_of(folding.declared_maps(problem))
    assert len(elements) == 3  # the group of the rectangle, less the identity
    folds = folding.fold_tables(position, *laid_out, elements)
    assert folds is not None
    assert folds.layers == list(range(8, 48, 8))
    assert len(folds.tables) == folding.TABLE_BYTES * folding.BYTE_VALUES  # one table
    square = board(16, 16, [Tile("**", "d", "any")])
    folded, fewer = counted(square, True)
    plain, states = counted(square, False)
    assert folded == plain == 2444888770250892795802079170816  # OEIS A004003(8)
    assert 1.8 * fewer < states


def test_a_symmetry_that_keeps_no_prefix_together_does_not_fold() -> None:
    """The quarter turn of a square (and its powers), or the transposition, keeps no
    rows together in a row-major scan: no layer folds, and the count is the plain one."""
    square = dominoes(6, 6)
    n = 6
    turn = {r * n + c: c * n + (n - 1 - r) for r in range(n) for c in range(n)}
    transpose = {r * n + c: c * n + r for r in range(n) for c in range(n)}
    data = square.engine_input()
    placed = frontier.placed_layout(data.n_primary, data.option_start, data.node_item)
    assert placed is not None
    position, laid_out = placed
    for generators in ([turn], [transpose]):
        square.declare_symmetries(generators)
        elements = folding.group_of(folding.declared_maps(square))
        assert elements  # they are symmetries ...
        assert folding.fold_tables(position, *laid_out, elements) is None  # ... no fold
        assert frontier.count(square) == frontier.count(square, fold=False) == 6728


def test_declared_maps_that_are_no_symmetries_are_dropped() -> None:
    """A map that does not take the options onto the options is not used, nor is one
    that takes an option given twice to an option given once."""
    square = dominoes(4, 4)
    draw = random.Random(62)
    shuffled = list(range(16))
    draw.shuffle(shuffled)
    square.declare_symmetries([dict(enumerate(shuffled))])
    assert folding.declared_maps(square) == []
    assert frontier.count(square) == 36
    twice = ExactCover(primary=4)
    for option in ([0, 1], [0, 1], [2, 3], [0, 2], [1, 3]):
        twice.add_option(option)
    mirror = {0: 2, 1: 3, 2: 0, 3: 1}
    twice.declare_symmetries([mirror])
    assert folding.declared_maps(twice) == []
    n_options = twice.n_options
    for option_map in ([2, 1, 0, 3, 4], [0, 1, 2, 3, n_options], [-1, 1, 2, 3, 4]):
        assert folding.item_maps(twice, [option_map]) == []
    assert folding.item_maps(twice, [[0, 1, 2, 4, 3]]) == [(1, 0, 3, 2)]  # mirror left-right
    assert (
        frontier.count(twice)
        == 3
        == oracle(4, [frozenset(o) for o in ([0, 1], [0, 1], [2, 3], [0, 2], [1, 3])])
    )


@st.composite
def symmetric_problems(draw: st.DrawFn) -> tuple[int, list[frozenset[int]], dict[int, int]]:
    """Items 0..n-1, a permutation of them (a product of permutations within consecutive
    blocks, which keeps every block's prefix together, or any permutation at all), and
    options closed under it (each option's orbit)."""
    n = draw(st.integers(2, 12))
    if draw(st.booleans()):
        cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=4)))
        image: list[int] = []
        for low, high in zip([0, *cuts], [*cuts, n], strict=True):
            block = list(range(low, high))
            image += draw(st.permutations(block))
    else:
        image = draw(st.permutations(list(range(n))))
    options: list[frozenset[int]] = []
    for _ in range(draw(st.integers(1, 8))):
        first = draw(st.integers(0, n - 1))
        size = draw(st.integers(1, 3))
        option = frozenset(min(first + draw(st.integers(0, 3)), n - 1) for _ in range(size))
        orbit = [option]
        while (following := frozenset(image[x] for x in orbit[-1])) != option:
            orbit.append(following)
        options += orbit
    return n, options, dict(enumerate(image))


@settings(max_examples=examples(200), deadline=None)
@given(symmetric_problems())
def test_random_symmetric_problems_against_the_oracle(
    data: tuple[int, list[frozenset[int]], dict[int, int]],
) -> None:
    n, options, image = data
    problem = ExactCover(primary=n)
    for option in options:
        problem.add_option(sorted(option))
    problem.declare_symmetries([image])
    expected = oracle(n, options)
    assert frontier.count(problem, fold=False) in (None, expected)
    assert frontier.count(problem) in (None, expected)
    assert frontier.count(problem, workers=3) in (None, expected)
    laid_out = frontier.layout(problem, reorder=False)
    elements = folding.group_of(folding.declared_maps(problem))
    if laid_out is None or not elements:
        return
    folds = folding.fold_tables(array("q", range(n)), *laid_out, elements)
    if folds is None:
        return
    starts, masks = (memoryview(part) for part in laid_out)
    for threads, fine in ((1, False), (2, True), (3, True)):
        counting = _frontier.Counting(
            n,
            starts,
            masks,
            threads,
            fine=fine,
            fold_of=memoryview(folds.fold_of),
            fold_tables=memoryview(folds.tables),
            fold_bytes=folds.n_bytes,
        )
        assert counting.advance() == expected


def test_the_compiled_count_checks_its_folds() -> None:
    layout = frontier.layout(dominoes(3, 3))
    assert layout is not None
    starts, masks = (memoryview(part) for part in layout)
    table = memoryview(array("Q", bytes(8 * folding.TABLE_BYTES * folding.BYTE_VALUES)))
    fine = array("q", [-1] * 9)
    with pytest.raises(ValueError, match="one fold entry per item"):
        _frontier.Counting(
            9, starts, masks, fold_of=memoryview(array("q", [-1])), fold_tables=table
        )
    for wrong in (0, 4):
        bad = array("q", fine)
        bad[wrong] = 0 if wrong == 0 else 1
        with pytest.raises(ValueError, match="a fold names one of the tables"):
            _frontier.Counting(9, starts, masks, fold_of=memoryview(bad), fold_tables=table)
    with pytest.raises(ValueError, match="fold tables"):
        _frontier.Counting(9, starts, masks, fold_of=memoryview(fine), fold_tables=None)
    with pytest.raises(ValueError, match="only one-word windows fold"):
        wide = array("Q", [word for mask in layout[1] for word in (mask, 0)])
        _frontier.Counting(
            9, starts, memoryview(wide), key_words=2, fold_of=memoryview(fine), fold_tables=table
        )


def test_the_route_choice_frontier_runner_folds() -> None:
    """The frontier runner of the route choice (``excover count --route frontier``,
    ``method="auto"``'s frontier count) folds a problem that declares symmetries: the
    same count as the search, from fewer states than its layout unfolded."""
    problem = board(8, 8, [Tile("**", "d", "any")])
    runner = routes.start(problem, "frontier")
    assert isinstance(runner, routes.FrontierRunner)
    assert runner.folds is not None

    def states(folds: Folds) -> int:
        layers: list[int] = []
        counting = frontier.start(runner.laid_out, folds=folds)
        assert counting.advance(lambda done, layer: layers.append(layer)) == 12988816
        return sum(layers)

    assert states(runner.folds) < states(None)
    assert runner.advance(None) == problem.count(method="search") == 12988816
    plain = routes.start(
        Tiling(Pattern.constant(8, 8), [Tile("**", "d", "any")]).problem, "frontier"
    )
    assert isinstance(plain, routes.FrontierRunner) and plain.folds is None


@pytest.mark.parametrize(
    ("m", "n", "pieces", "method"),
    [
        (6, 8, [Tile("**", "d", "any")], "zdd"),
        (6, 8, [Tile("**", "d", "any")], "auto"),
        (6, 5, tiles(pentominoes(), "any"), "zdd"),
    ],
)
def test_a_tiling_counted_by_the_frontier_count_folds_by_its_mirrors(
    m: int, n: int, pieces: list[Tile], method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Tiling.count`` by a method that may take the frontier count declares the board's
    mirrors while it counts: the frontier count gets folds, fewer states than unfolded
    (the layout folded by hand), the count agrees with the search, and the problem
    declares nothing afterwards."""
    tiling = Tiling(Pattern.constant(m, n), pieces)
    folded: list[tuple[frontier.FrontierLayout, Folds]] = []
    started = frontier.start

    def spy(
        laid_out: frontier.FrontierLayout,
        workers: int = 1,
        max_bytes: int = 0,
        folds: Folds = None,
        watch: Collection[int] = (),
    ) -> object:
        folded.append((laid_out, folds))
        return started(laid_out, workers, max_bytes, folds, watch)

    monkeypatch.setattr(frontier, "start", spy)
    total = tiling.count(method=method)
    assert total == tiling.problem.count(method="search", symmetry=False)
    assert tiling.problem.declared_symmetries() is None
    assert len(folded) == 1
    laid_out, folds = folded[0]
    assert folds is not None

    def states(folds: Folds) -> int:
        layers: list[int] = []
        assert started(laid_out, folds=folds).advance(lambda done, k: layers.append(k)) == total
        return sum(layers)

    assert states(folds) < states(None)


def test_the_cli_count_of_a_board_by_zdd_folds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``excover count BOARD --pieces PIECES --method zdd`` declares the board's mirrors:
    the frontier count gets folds, and prints the search's count."""
    board_file, pieces_file = tmp_path / "board.txt", tmp_path / "pieces.txt"
    board_file.write_text("\n".join(["*" * 8] * 6) + "\n")
    pieces_file.write_text("d: [[0,0],[0,1]]\n")
    folds_seen: list[Folds] = []
    started = frontier.start

    def spy(
        laid_out: frontier.FrontierLayout,
        workers: int = 1,
        max_bytes: int = 0,
        folds: Folds = None,
        watch: Collection[int] = (),
    ) -> object:
        folds_seen.append(folds)
        return started(laid_out, workers, max_bytes, folds, watch)

    monkeypatch.setattr(frontier, "start", spy)
    flags = ["--pieces", str(pieces_file), "--multiplicity", "any", "--method", "zdd"]
    assert main(["count", str(board_file), *flags]) == 0
    expected = Tiling(Pattern.constant(6, 8), [Tile("**", "d", "any")]).count(method="search")
    assert str(expected) in capsys.readouterr().out
    assert len(folds_seen) == 1 and folds_seen[0] is not None
