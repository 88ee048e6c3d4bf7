"""Symmetry: automorphism groups, counts up to symmetry and symmetry-broken search.

Small random problems made symmetric on purpose are checked against brute force: the
automorphism group's order against a search over every item permutation, the orbits of
solutions against every solution and its images. Known figures from the literature check
the large cases: OEIS A002562 (queens up to the square's symmetries), the pentomino
rectangles (2,339 and 1,010 classes), Scott's problem (65), Langford pairings up to
reversal (A014552) and the 4x4 sudoku grids (288; 5 and 2 classes).
"""

from __future__ import annotations

import builtins
import itertools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from budget import examples
from builders import KNUTH_DATA, dominoes, langford
from hypothesis import given, settings
from hypothesis import strategies as st
from symmetric import (
    all_solutions,
    brute_orbits,
    build,
    duplicate_swaps,
    option_map,
    orbit_roots,
    symmetric_problems,
)

from excover import ExactCover, SymmetryError, UsageError
from excover.engines import Search
from excover.names import SEARCH_ENGINES
from excover.puzzles.queens import queens
from excover.puzzles.sudoku import SudokuBoard
from excover.symmetry import Automorphism, BrokenSearch, Group, burnside
from excover.symmetry.chain import StabilizerChain


def brute_order(n_primary: int, n_secondary: int, options: Any, bounds: Any) -> int:
    """The order of the automorphism group of an uncolored problem: the item
    permutations that keep kinds, bounds and the multiset of options, each times the ways
    to permute equal options."""
    kinds = list(bounds) + [None] * n_secondary
    count = 0
    multiset = Counter(options)
    for sigma in itertools.permutations(range(n_primary + n_secondary)):
        if any(kinds[sigma[i]] != kinds[i] for i in range(len(sigma))):
            continue
        images = Counter(tuple(sorted((sigma[i], c) for i, c in o)) for o in options)
        count += images == multiset
    return count * math.prod(math.factorial(m) for m in multiset.values())


@settings(max_examples=examples(150), deadline=None)
@given(symmetric_problems())
def test_automorphism_group_and_orbits_match_brute_force(drawn: Any) -> None:
    n_primary, n_secondary, options, bounds, _ = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    group = problem.symmetries()
    assert group.order == brute_order(n_primary, n_secondary, options, bounds)
    solutions = all_solutions(problem)
    for g in group.generators:  # each generator maps solutions to solutions
        assert {tuple(g.apply(s)) for s in solutions} == solutions
    maps = [g.options.tolist() for g in group.generators]
    orbits = brute_orbits(solutions, maps)
    assert problem.count(up_to_symmetry=True) == orbits
    assert burnside(problem, group) == orbits
    assert problem.count(symmetry=True) == len(solutions)
    listed = [tuple(s) for s in problem.solutions(symmetry=True)]
    assert sorted(listed) == sorted(solutions)
    representatives = [tuple(s) for s in problem.solutions(up_to_symmetry=True)]
    roots = orbit_roots(solutions, maps)
    assert len({roots[s] for s in representatives}) == len(representatives) == orbits


@settings(max_examples=examples(150), deadline=None)
@given(symmetric_problems(colors=True))
def test_the_generators_bliss_finds_pass_the_check(drawn: Any) -> None:
    """The automorphism group's generators are taken unchecked
    (``Group.of_automorphisms``): checked, each is a symmetry, of the same group."""
    from excover.symmetry.automorphisms import automorphism_group

    problem = build(*drawn[:4])
    found = automorphism_group(problem)
    checked = Group(problem, found.generators)
    assert checked.order == found.order
    assert len(checked.generators) == len(found.generators)


@pytest.mark.parametrize("name", ["pento6x10", "pento5x12", "scott", "scott-pfix", "queens8"])
def test_the_generators_bliss_finds_on_knuth_files_pass_the_check(name: str) -> None:
    from excover.symmetry.automorphisms import automorphism_group

    problem = ExactCover.read(KNUTH_DATA / f"{name}.dlx")
    found = automorphism_group(problem)
    assert Group(problem, found.generators).order == found.order


@settings(max_examples=examples(150), deadline=None)
@given(symmetric_problems(colors=True))
def test_a_given_group_counts_orbits_as_brute_force(drawn: Any) -> None:
    n_primary, n_secondary, options, bounds, sigma = drawn
    problem = build(n_primary, n_secondary, options, bounds)
    generators = [option_map(options, sigma), *duplicate_swaps(options)]
    group = Group(problem, generators)
    solutions = all_solutions(problem)
    orbits = brute_orbits(solutions, generators)
    assert problem.count(up_to_symmetry=True, symmetry=group) == orbits
    assert burnside(problem, group) == orbits
    assert problem.count(symmetry=group) == len(solutions)
    representatives = [tuple(s) for s in problem.solutions(up_to_symmetry=True, symmetry=group)]
    roots = orbit_roots(solutions, generators)
    assert len({roots[s] for s in representatives}) == len(representatives) == orbits
    # The item mapping says the same as the option permutation it induces.
    items = {str(i): str(sigma[i]) for i in range(n_primary + n_secondary)}
    by_items = Group(problem, [items, *duplicate_swaps(options)])
    assert problem.count(up_to_symmetry=True, symmetry=by_items) == orbits
    # The automorphism group contains the given one, so it has at most as many orbits.
    assert problem.count(up_to_symmetry=True) <= orbits


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 7), st.lists(st.permutations(list(range(7))), min_size=1, max_size=3))
def test_stabilizer_chain_lists_the_group_generated(n: int, perms: list[list[int]]) -> None:
    """The chain's elements are the closure of the generators, each once."""
    generators = [
        np.array(
            [p[i] for i in range(n)] if sorted(p[:n]) == list(range(n)) else list(range(n)),
            dtype=np.int64,
        )
        for p in perms
    ]
    closure = {tuple(range(n))}
    frontier = [tuple(range(n))]
    while frontier:
        current = frontier.pop()
        for g in generators:
            image = tuple(int(g[x]) for x in current)
            if image not in closure:
                closure.add(image)
                frontier.append(image)
    chain = StabilizerChain(n, generators)
    elements = [tuple(int(x) for x in g) for g in chain.elements()]
    assert chain.order == len(closure) == len(elements)
    assert set(elements) == closure
    assert elements[0] == tuple(range(n))


# ----- known figures -----

#: OEIS A002562: n-queens solutions up to the symmetries of the square, n = 1..14.
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


@pytest.mark.parametrize("n", range(1, 15))
def test_queens_up_to_symmetry_is_a002562(n: int) -> None:
    problem = queens(n)
    assert problem.count(up_to_symmetry=True) == A002562[n - 1]


def test_queens_group_is_the_square_group() -> None:
    """queens(n) declares the board's 8 symmetries; BLISS finds the same group."""
    from excover.symmetry.automorphisms import automorphism_group

    for n in range(4, 15):
        problem = queens(n)
        assert problem.declared_symmetries() is not None
        declared = problem.symmetries()
        found = automorphism_group(problem)
        assert declared.option_order == found.option_order == 8
        assert {tuple(g.options.tolist()) for g in declared.elements()} == {
            tuple(g.options.tolist()) for g in found.elements()
        }


@pytest.mark.parametrize(
    ("name", "classes", "total", "order"),
    [("pento6x10", 2339, 9356, 4), ("pento5x12", 1010, 4040, 4), ("scott", 65, 520, 8)],
)
def test_pentomino_classes(name: str, classes: int, total: int, order: int) -> None:
    problem = ExactCover.read(KNUTH_DATA / f"{name}.dlx")
    group = problem.symmetries()
    assert group.order == order
    search = BrokenSearch(problem, group)
    assert search.count_orbits() == classes
    assert search.count() == total


def test_representatives_of_several_orbit_sizes_count_in_one_run_or_by_size() -> None:
    """On pento5x12 the representatives left after splitting have orbits of 4 and of 2:
    the bit-parallel engine counts them in one run, solutions under each apart; dancing
    links and the other engines, which keep no such counts, in one run per orbit size.
    Every engine gives every solution."""
    problem = ExactCover.read(KNUTH_DATA / "pento5x12.dlx")
    group = problem.symmetries()
    sizes = {orbit.size for orbit in BrokenSearch(problem, group)._split_orbits}
    assert len(sizes) > 1
    for engine in SEARCH_ENGINES:
        assert BrokenSearch(problem, group, engine=engine).count() == 4040


def test_representatives_covering_an_item_twice_merge_apart() -> None:
    """Monominoes and at most two dominoes on a strip of six cells, under its reflection:
    the base is the two end cells, and the partial solution of two dominoes there covers
    the dominoes' item twice; its merged option holds the item once, the item's bounds
    lowered so that no third domino fits, in a merged problem of its own (as two
    monominoes there, for theirs). 1 + 5 + 6
    tilings by their number of dominoes, 1 + 3 + 4 up to reflection."""
    problem = ExactCover(primary=[*(f"c{k}" for k in range(6)), "d", "m"])
    problem.set_multiplicity("d", 0, 2)
    problem.set_multiplicity("m", 0, 6)
    for cell in range(5):
        problem.add_option(["d", f"c{cell}", f"c{cell + 1}"])
    for cell in range(6):
        problem.add_option(["m", f"c{cell}"])
    group = Group(problem, [{f"c{k}": f"c{5 - k}" for k in range(6)}])
    search = BrokenSearch(problem, group, engine="dlx")
    assert search.base == [0, 5]
    assert search.orbits is not None
    # two dominoes, a domino and a monomino, two monominoes: three merged problems
    assert len(search._extensions.alike(search.orbits)) == 3
    assert search.count() == 12 == problem.count()
    assert search.count_orbits() == 8
    found = list(search.representatives())
    assert len(found) == 8 and all(problem.is_solution(solution) for solution in found)
    assert sorted(map(sorted, search.solutions())) == sorted(
        sorted(solution) for solution in problem.solutions(method="search")
    )


#: OEIS A014552: Langford pairings of 1..n up to reversal.
A014552 = {7: 26, 8: 150, 11: 17792, 12: 108144}


@pytest.mark.parametrize("n", sorted(A014552))
def test_langford_up_to_reversal(n: int) -> None:
    problem = langford(n)
    assert problem.symmetries().order == 2
    assert problem.count(up_to_symmetry=True) == A014552[n]


def _sudoku_generator(cell_map: Any, digit_map: Any = None) -> list[int]:
    """The option permutation of the 4x4 sudoku cover (option ``cell * 4 + d``) for a map
    of the cells and a relabelling of the digits."""
    perm = []
    for cell in range(16):
        row, column = divmod(cell, 4)
        to_row, to_column = cell_map(row, column)
        for d in range(4):
            perm.append((to_row * 4 + to_column) * 4 + (digit_map(d) if digit_map else d))
    return perm


RELABEL = [
    _sudoku_generator(lambda r, c: (r, c), lambda d: (d + 1) % 4),
    _sudoku_generator(lambda r, c: (r, c), lambda d: [1, 0, 2, 3][d]),
]
SQUARE = [
    _sudoku_generator(lambda r, c: (c, 3 - r)),
    _sudoku_generator(lambda r, c: (r, 3 - c)),
]
SUDOKU = [
    _sudoku_generator(lambda r, c: ([1, 0, 2, 3][r], c)),
    _sudoku_generator(lambda r, c: ([2, 3, 0, 1][r], c)),
    _sudoku_generator(lambda r, c: (c, r)),
]


def test_shidoku_grids() -> None:
    problem = SudokuBoard((2, 2)).cover()
    assert problem.count() == 288
    square = Group(problem, RELABEL + SQUARE)
    assert square.order == 24 * 8
    assert problem.count(up_to_symmetry=True, symmetry=square) == 5
    assert burnside(problem, square) == 5
    every = Group(problem, RELABEL + SUDOKU)
    assert every.order == 24 * 128
    assert problem.count(up_to_symmetry=True, symmetry=every) == 2
    assert problem.count(symmetry=every) == 288
    # The automorphism group of the cover is that whole group.
    assert problem.symmetries().order == 24 * 128
    assert problem.count(up_to_symmetry=True) == 2


def test_symmetry_broken_search_searches_fewer_nodes() -> None:
    """The search behind a symmetry-broken count is smaller than the plain one (the
    benchmark measures the time)."""
    problem = queens(10)
    search = BrokenSearch(problem, problem.symmetries())
    assert search.orbits is not None
    assert len(search.orbits) * 4 < sum(orbit.size for orbit in search.orbits)


def test_branch_first_is_followed_and_keeps_the_count() -> None:
    problem = queens(8)
    plain = Search(problem)
    first = Search(problem, branch_first="r0")
    assert plain.count() == first.count() == 92
    assert first.stats.nodes != plain.stats.nodes
    top = Search(problem, branch_first="c7", max_solutions=1)
    solution = top.first()
    assert solution is not None and problem.option_items(solution[0])[:2] == ["r0", "c7"]
    with pytest.raises(Exception, match="secondary item 'a3' cannot be branched on first"):
        Search(problem, branch_first="a3")


# ----- errors -----


def test_generators_that_are_not_symmetries_are_refused() -> None:
    problem = queens(4)
    with pytest.raises(SymmetryError, match="generator 0 has 3 option images for 16 options"):
        Group(problem, [[0, 1, 2]])
    swap = list(range(16))
    swap[0], swap[1] = 1, 0
    with pytest.raises(SymmetryError, match="generator 0 is not a symmetry"):
        Group(problem, [swap])
    with pytest.raises(SymmetryError, match="unknown item 'z9'"):
        Group(problem, [{"r0": "z9"}])
    with pytest.raises(SymmetryError, match=r"option \d+ \(.*\) has no option to go to"):
        Group(problem, [{"r0": "c0", "c0": "r0", "r1": "r2", "r2": "r1"}])
    swapped = np.array([1, 0, *range(2, 18)])
    with pytest.raises(SymmetryError, match=r"option 2 \(r0 c2 .*\) goes to option 2"):
        Group(problem, [Automorphism(np.arange(16), swapped)])
    across = np.array([8, *range(1, 8), 0, *range(9, 18)])
    with pytest.raises(SymmetryError, match="item 'r2' goes to 'a1', which is of another kind"):
        Group(problem, [Automorphism(np.arange(16), across)])
    with pytest.raises(SymmetryError, match="it has 22 item images for 18 items"):
        Group(problem, [Automorphism(np.arange(16), np.arange(22))])
    with pytest.raises(SymmetryError, match="generator 0 sends both 'r2' and 'r0' to 'r2'"):
        Group(problem, [{"r0": "r2"}])
    with pytest.raises(SymmetryError, match="must be a sequence"):
        Group(problem, [3])  # type: ignore[list-item]


def test_colors_must_be_renamed_consistently() -> None:
    problem = ExactCover(primary=["a", "b"], secondary=["x"])
    problem.add_option(["a", "x:red"])
    problem.add_option(["b", "x:red"])
    problem.add_option(["a", "x:blue"])
    problem.add_option(["b", "x:blue"])
    assert problem.symmetries().order == 4  # swap a and b, swap the two colors
    assert Group(problem, [[1, 0, 3, 2]]).order == 2
    with pytest.raises(SymmetryError, match="the options of item 'x' go to options that no"):
        Group(problem, [[2, 1, 0, 3]])
    recolored = Automorphism(np.array([2, 1, 0, 3]), np.arange(3))
    with pytest.raises(SymmetryError, match="colors of item 'x' are not renamed consistently"):
        Group(problem, [recolored])


def test_symmetry_arguments_are_checked() -> None:
    problem = queens(6)
    with pytest.raises(UsageError, match="group of another problem"):
        problem.count(up_to_symmetry=True, symmetry=queens(5).symmetries())
    with pytest.raises(UsageError, match="max_solutions does not combine"):
        problem.count(symmetry=True, max_solutions=3)
    with pytest.raises(UsageError, match="not with executor= or tasks="):
        problem.count(symmetry=True, tasks=2)
    with pytest.raises(UsageError, match="workers= goes with count"):
        next(problem.solutions(up_to_symmetry=True, workers=2))
    with pytest.raises(UsageError, match="method 'sat' cannot"):
        problem.count(up_to_symmetry=True, method="sat")
    with pytest.raises(UsageError, match="symmetry must be True, a Group"):
        problem.count(symmetry="yes")  # type: ignore[arg-type]


def test_missing_igraph_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def without_igraph(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "igraph":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_igraph)
    problem = queens(5)
    assert problem.count(up_to_symmetry=True) == 2  # its group is declared: no igraph
    problem.declare_symmetries(None)
    with pytest.raises(UsageError, match=r"pip install 'excover\[symmetry\]'"):
        problem.symmetries()


def test_a_group_too_large_to_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from excover.symmetry import fixed

    monkeypatch.setattr(fixed, "MAX_ELEMENTS", 100)
    problem = SudokuBoard((2, 2)).cover()
    with pytest.raises(SymmetryError, match="this one has 3,072; the limit is 100"):
        burnside(problem, problem.symmetries())


# ----- the command line -----


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from excover.main import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_counts_classes_and_breaks_symmetry(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import jsonschema

    from excover.cli import common

    queens10 = str(KNUTH_DATA / "queens10.dlx")
    status, out, err = _cli(capsys, "count", queens10, "--up-to-symmetry")
    assert (status, out) == (0, "92\n")
    assert "a group of order 8" in err and "classes under a group of order 8" in err
    status, out, err = _cli(capsys, "count", queens10, "--break-symmetry", "--stats")
    assert (status, out) == (0, "724\n")
    assert "symmetry-broken" in err
    status, out, _ = _cli(capsys, "count", queens10, "--up-to-symmetry", "--json")
    document = json.loads(out)
    jsonschema.validate(document, common.schema())
    assert document["count"] == 92 and document["complete"] is True


def test_cli_lists_one_solution_per_class(capsys: pytest.CaptureFixture[str]) -> None:
    queens8 = str(KNUTH_DATA / "queens8.dlx")
    problem = ExactCover.read(KNUTH_DATA / "queens8.dlx")
    status, out, _ = _cli(capsys, "solve", queens8, "--up-to-symmetry", "--json")
    assert status == 0
    solutions = [found["options"] for found in json.loads(out)["solutions"]]
    assert len(solutions) == 12
    group = problem.symmetries()
    elements = list(group.option_elements())
    classes = {min(tuple(sorted(int(g[k]) for k in s)) for g in elements) for s in solutions}
    assert len(classes) == 12
    assert all(problem.is_solution(s) for s in solutions)
    status, out, _ = _cli(capsys, "solve", queens8, "--break-symmetry", "--limit", "3")
    assert status == 0 and out.count("solution ") == 3


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--up-to-symmetry", "--tasks", "2"], "--tasks does not go with"),
        (["--up-to-symmetry", "--workers", "2", "--max-nodes", "9"], "--max-nodes bounds one"),
        (["--break-symmetry", "--method", "sat"], "--method sat does not go with"),
        (["--up-to-symmetry", "--break-symmetry"], "two different questions"),
        (["--up-to-symmetry", "--limit", "3"], "--limit does not go with"),
    ],
)
def test_cli_refuses_what_does_not_combine(
    capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    status, out, err = _cli(capsys, "count", str(KNUTH_DATA / "queens8.dlx"), *flags)
    assert status == 2 and out == "" and message in err


def test_cli_timeout_stops_a_symmetric_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "q20.dlx"  # 39,029,188,884 solutions: never counted in a test
    path.write_text(queens(20).to_dlx(), encoding="utf-8")
    status, out, err = _cli(capsys, "count", str(path), "--up-to-symmetry", "--timeout", "0.05")
    assert status == 1 and out == "" and "stopped by --timeout" in err


# ----- the tiling layer -----


def _shipped_tilings() -> list[tuple[str, Any]]:
    """Every tiling problem of the shipped examples (the programs run in full)."""
    import io

    from excover.lang.interp import Interpreter
    from excover.lang.parser import parse

    found = []
    for path in sorted((Path(__file__).parent.parent / "examples").glob("*.cmb")):
        interpreter = Interpreter(io.StringIO(), io.StringIO())
        interpreter.run(parse(path.read_text(), str(path)))
        for name, problem in [*interpreter.problems.items(), *interpreter.problems3.items()]:
            if problem.tiling is not None and problem.tiling.obstruction is None:
                found.append((f"{path.name}:{name}", problem.tiling))
    return found


@pytest.mark.slow  # the automatic group of every shipped board
def test_board_groups_lie_in_the_automatic_group_of_every_shipped_board() -> None:
    """On every shipped board the hand-written group's action on the options is a
    subgroup of the automorphism group. Counting up to symmetry uses the larger group of
    board symmetries and exchanges of equal tiles only where labelled copies can trade
    places (the box's copies of each tetromino), and that group lies in the automatic one
    too. The automatic groups of the camel and of the maze (one frame, one cube, one
    assembly) are larger than their board groups without any exchange of tiles:
    symmetries of the cover that are no symmetries of the board, which counting up to
    symmetry must not use."""
    larger = []
    beyond_the_board = []
    tilings = _shipped_tilings()
    assert len(tilings) >= 20
    for name, tiling in tilings:
        board = tiling.symmetry
        automatic = tiling.problem.symmetries()
        for board_map in board.option_maps:
            assert board_map in automatic.option_chain, name
        assert board.option_order <= automatic.option_order, name
        if board.option_order < automatic.option_order:
            beyond_the_board.append(name)
        search = tiling._larger_automatic_group("search", {})
        if search is not None:
            larger.append(name)
            assert board.option_order < search.group.option_order <= automatic.option_order
            for generator in search.group.generators:
                assert generator.options in automatic.option_chain, name
    assert larger == ["tetrominoes.cmb:box"]
    assert beyond_the_board == ["caml.cmb:caml", "studio_maze.cmb:puzzle", "tetrominoes.cmb:box"]


@pytest.mark.parametrize(
    "problem",
    [queens(6), queens(8), queens(9), dominoes(4, 4), langford(7)],
    ids=["queens6", "queens8", "queens9", "dominoes4x4", "langford7"],
)
def test_counts_on_workers_are_the_counts_of_one_process(problem: ExactCover) -> None:
    """The merged problems of the representatives, dealt out to the workers, count what
    the one merged problem counts: every solution, and every class of them."""
    group = problem.symmetries()
    alone = BrokenSearch(problem, group)
    shared = BrokenSearch(problem, group, workers=2)
    assert shared.count() == alone.count() == problem.count()
    assert shared.count_orbits() == alone.count_orbits()
    assert problem.count(up_to_symmetry=True, workers=2) == alone.count_orbits()
