"""The disassembler (excover.burr) against a brute-force checker and hand-drawn puzzles.

The checker knows nothing of Cutler's tables: it moves sets of pieces one voxel at a
time inside a bounding box, a step that continues the previous one (the same set, the
same direction) costing no new move, and calls a set free when no voxel of the rest lies
on any ray from its voxels along the direction. On small random assemblies (drawn here
by hypothesis) it must agree with the disassembler on whether the assembly comes apart
and on the first number of the level; every disassembly found is replayed voxel by voxel
(no overlap on the way, the set taken out free).
"""

from __future__ import annotations

import json
import pickle
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from itertools import product
from pathlib import Path

import jsonschema
import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excover.burr import Assembly, Disassembly, Move, Separation, disassemble, disassemble_all
from excover.burr._moves import Geometry, Part
from excover.burr.check import check_stored, sweep
from excover.burr.disassembly import PackedSeparationTree, held_tree
from excover.burr.grouping import Groups
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, read_xmpuzzle, write_xmpuzzle
from excover.burr.xmpuzzle import Part as BurrPart
from excover.burr.xmpuzzle.placements import placed, placement_of
from excover.cli import common
from excover.errors import UsageError
from excover.main import main

Voxel = tuple[int, int, int]
CUBE_DIRECTIONS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
#: On the prism grid: along z, and along the three directions of the triangles' edges.
PRISM_DIRECTIONS = (
    *((0, 0, s) for s in (1, -1)),
    *((2 * s, 0, 0) for s in (1, -1)),
    *((s, s, 0) for s in (1, -1)),
    *((-s, s, 0) for s in (1, -1)),
)


# --------------------------------------------------------------------------- the checker


def _shift(voxels: frozenset[Voxel], t: Voxel) -> frozenset[Voxel]:
    return frozenset((x + t[0], y + t[1], z + t[2]) for x, y, z in voxels)


def _add(v: Voxel, d: Voxel, times: int = 1) -> Voxel:
    return (v[0] + times * d[0], v[1] + times * d[1], v[2] + times * d[2])


class Brute:
    """Unit steps of any set of pieces, inside a box of translations."""

    def __init__(self, pieces: Sequence[Sequence[Voxel]], grid: int = 0) -> None:
        self.pieces = [frozenset(p) for p in pieces]
        self.grid = grid
        self.directions = CUBE_DIRECTIONS if grid == 0 else PRISM_DIRECTIONS
        every = [v for p in pieces for v in p]
        extent = max(max(v[a] for v in every) - min(v[a] for v in every) for a in range(3))
        self.bound = 2 + extent if grid == 0 else 4 + extent

    def placed(self, members: tuple[int, ...], config: tuple[Voxel, ...]) -> list[frozenset[Voxel]]:
        return [_shift(self.pieces[p], t) for p, t in zip(members, config, strict=True)]

    def free(self, cells: list[frozenset[Voxel]], mask: int, d: Voxel) -> bool:
        moving = [v for k, c in enumerate(cells) if mask >> k & 1 for v in c]
        rest = {v for k, c in enumerate(cells) if not mask >> k & 1 for v in c}
        top = 2 * self.bound + 10
        return not any(
            c in rest
            for v in moving
            for s in range(top)
            for c in sweep(self.grid, _add(v, d, s), d)
        )

    def free_sets(self, members: tuple[int, ...], config: tuple[Voxel, ...]) -> list[int]:
        cells = self.placed(members, config)
        full = (1 << len(members)) - 1
        return [m for m in range(1, full) if any(self.free(cells, m, d) for d in self.directions)]

    def steps(
        self, members: tuple[int, ...], config: tuple[Voxel, ...]
    ) -> Iterator[tuple[tuple[int, int], tuple[Voxel, ...]]]:
        """Every unit step ``((mask, d), config after)``, the first piece kept in place."""
        cells = self.placed(members, config)
        full = (1 << len(members)) - 1
        for mask in range(1, full):
            for k, d in enumerate(self.directions):
                moving = {v for i, c in enumerate(cells) if mask >> i & 1 for v in c}
                rest = {v for i, c in enumerate(cells) if not mask >> i & 1 for v in c}
                if any(c in rest for v in moving for c in sweep(self.grid, v, d)):
                    continue
                sign = -1 if mask & 1 else 1
                after = tuple(
                    _add(t, d, sign) if (mask >> i & 1) != (mask & 1) else t
                    for i, t in enumerate(config)
                )
                if all(abs(c) <= self.bound for t in after for c in t):
                    yield (mask, k), after

    def first_level(self, members: tuple[int, ...], config: tuple[Voxel, ...]) -> int | None:
        """The fewest moves to a configuration with a free set, plus one (the move taking
        it out); None when there is none. A 0-1 breadth-first search."""
        start: tuple[tuple[Voxel, ...], tuple[int, int] | None] = (config, None)
        best: dict[object, int] = {start: 0}
        todo = deque([start])
        while todo:
            state = todo.popleft()
            cost = best[state]
            here, last = state
            if self.free_sets(members, here):
                return cost + 1  # the first popped is the nearest: 0-1 BFS pops in order
            for move, after in self.steps(members, here):
                extra = 0 if move == last else 1
                key = (after, move)
                if key not in best or best[key] > cost + extra:
                    best[key] = cost + extra
                    (todo.appendleft if extra == 0 else todo.append)(key)
        return None

    @cache  # noqa: B019 (one checker per drawn assembly)
    def comes_apart(self, members: tuple[int, ...], config: tuple[Voxel, ...]) -> bool:
        """Whether the part comes apart into single pieces: some configuration reachable
        without a set being free has a free set whose two parts both come apart."""
        if len(members) == 1:
            return True
        o = config[0]
        config = tuple((t[0] - o[0], t[1] - o[1], t[2] - o[2]) for t in config)
        seen = {config}
        todo = [config]
        while todo:
            here = todo.pop()
            free = self.free_sets(members, here)
            if free:
                for mask in free:
                    one = tuple(k for k in range(len(members)) if mask >> k & 1)
                    two = tuple(k for k in range(len(members)) if not mask >> k & 1)
                    if all(
                        self.comes_apart(
                            tuple(members[k] for k in side), tuple(here[k] for k in side)
                        )
                        for side in (one, two)
                    ):
                        return True
                continue
            for _, after in self.steps(members, here):
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
        return False

    @cache  # noqa: B019 (one checker per drawn assembly)
    def min_total(self, members: tuple[int, ...], config: tuple[Voxel, ...]) -> int | None:
        """The fewest moves of a whole disassembly of the part (None: it does not come
        apart): over every configuration reached (a 0-1 breadth-first search, in order
        of moves), each free set taken out in one more move, its two parts taken apart
        in their own fewest moves."""
        if len(members) == 1:
            return 0
        if not self.comes_apart(members, config):
            return None
        o = config[0]
        config = tuple((t[0] - o[0], t[1] - o[1], t[2] - o[2]) for t in config)
        start: tuple[tuple[Voxel, ...], tuple[int, int] | None] = (config, None)
        cost_of: dict[object, int] = {start: 0}
        todo = deque([start])
        best = None
        while todo:
            state = todo.popleft()
            cost = cost_of[state]
            if best is not None and cost + 1 + len(members) - 2 >= best:
                break
            here, last = state
            for mask in self.free_sets(members, here):
                sides = [
                    tuple(k for k in range(len(members)) if (mask >> k & 1) == bit)
                    for bit in (0, 1)
                ]
                totals = [
                    self.min_total(tuple(members[k] for k in side), tuple(here[k] for k in side))
                    for side in sides
                ]
                if None not in totals:
                    found = cost + 1 + sum(t for t in totals if t is not None)
                    best = found if best is None else min(best, found)
            for move, after in self.steps(members, here):
                extra = 0 if move == last else 1
                key = (after, move)
                if key not in cost_of or cost_of[key] > cost + extra:
                    cost_of[key] = cost + extra
                    (todo.appendleft if extra == 0 else todo.append)(key)
        return best


def replay(pieces: Sequence[Sequence[Voxel]], separation: Separation, grid: int = 0) -> None:
    """Every move of the tree legal unit step by unit step, the set taken out free."""
    where = dict(zip(separation.pieces, separation.start, strict=True))

    def cells(p: int) -> frozenset[Voxel]:
        return _shift(frozenset(pieces[p]), where[p])

    for move in separation.moves:
        assert move.grid == grid
        moving = set(move.pieces)
        rest = {v for p in separation.pieces if p not in moving for v in cells(p)}
        d = move.vector
        if move.distance is None:
            assert not any(
                c in rest
                for p in moving
                for v in cells(p)
                for s in range(200)
                for c in sweep(grid, _add(v, d, s), d)
            )
            break
        for _ in range(move.distance):
            assert not any(c in rest for p in moving for v in cells(p) for c in sweep(grid, v, d))
            for p in moving:
                where[p] = _add(where[p], d)
    assert separation.states()[-1] == tuple(where[p] for p in separation.pieces)
    for part in (separation.left, separation.removed):
        if part is not None:
            assert set(part.pieces) <= set(separation.pieces)
            replay(pieces, part, grid)


# --------------------------------------------------------------------------- random designs


@st.composite
def designs(draw: st.DrawFn) -> list[list[Voxel]]:
    """A small box cut into 2 or 3 pieces (not necessarily connected), with a few holes
    so that pieces can slide inside."""
    size = draw(st.tuples(*(st.integers(2, 3),) * 3).filter(lambda s: s[0] * s[1] * s[2] <= 18))
    n = draw(st.integers(2, 3))
    cells: list[Voxel] = [(x, y, z) for x, y, z in product(*(range(s) for s in size))]
    labels = draw(st.lists(st.integers(0, n - 1), min_size=len(cells), max_size=len(cells)))
    holes = draw(st.sets(st.sampled_from(range(len(cells))), max_size=3))
    pieces = [
        [
            c
            for k, (c, label) in enumerate(zip(cells, labels, strict=True))
            if label == p and k not in holes
        ]
        for p in range(n)
    ]
    pieces = [p for p in pieces if p]
    if len(pieces) < 2:
        pieces = [[cells[0]], [cells[-1]]]
    return pieces


@st.composite
def mazes(draw: st.DrawFn) -> list[list[Voxel]]:
    """A block three layers high with a random cave inside its middle layer and one
    exit on its border, and one or two loose cubes in the cave."""
    w, h = draw(st.integers(4, 5)), draw(st.integers(4, 5))
    inner = list(product(range(1, w - 1), range(1, h - 1)))
    open_ = draw(st.lists(st.booleans(), min_size=len(inner), max_size=len(inner)))
    cave = [c for c, empty in zip(inner, open_, strict=True) if empty] or [inner[0]]
    border = [(x, y) for x, y in product(range(w), range(h)) if (x, y) not in inner]
    cave.append(draw(st.sampled_from(border)))
    loose = draw(st.lists(st.sampled_from(cave[:-1]), min_size=1, max_size=2, unique=True))
    block = [
        (x, y, z)
        for x, y in product(range(w), range(h))
        for z in range(3)
        if z != 1 or (x, y) not in cave
    ]
    return [block, *([(x, y, 1)] for x, y in loose)]


@st.composite
def prism_designs(draw: st.DrawFn) -> list[list[Voxel]]:
    """A small block of triangular prisms (rows of triangles, one or two layers) cut into
    2 or 3 pieces, with a few holes."""
    size = draw(st.tuples(st.integers(3, 5), st.integers(1, 2), st.integers(1, 2)))
    n = draw(st.integers(2, 3))
    cells: list[Voxel] = [(x, y, z) for x, y, z in product(*(range(s) for s in size))]
    labels = draw(st.lists(st.integers(0, n - 1), min_size=len(cells), max_size=len(cells)))
    holes = draw(st.sets(st.sampled_from(range(len(cells))), max_size=2))
    pieces = [
        [c for k, c in enumerate(cells) if labels[k] == p and k not in holes] for p in range(n)
    ]
    pieces = [p for p in pieces if p]
    return pieces if len(pieces) > 1 else [[cells[0]], [cells[-1]]]


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(designs(), mazes()))
def test_the_disassembler_agrees_with_the_brute_force_checker(pieces: list[list[Voxel]]) -> None:
    result = disassemble(Assembly.of_voxels(pieces))
    # the level, total and sort key read from the compact tree, before it is built
    compact = (result.level, result.total, result.sort_key())
    greedy = disassemble(Assembly.of_voxels(pieces), complete=False)
    brute = Brute(pieces)
    members = tuple(range(len(pieces)))
    start = tuple((0, 0, 0) for _ in pieces)
    apart = brute.comes_apart(members, start)
    assert result.status == ("solved" if apart else "stuck")
    # BurrTools' greedy rule loses nothing: a part left by any separation of an assembly
    # that comes apart comes apart too (moves are reversible, and a move of the whole is
    # one of each part), so the first separation found always works when any does
    assert (greedy.status, greedy.level) == (result.status, result.level)
    if apart:
        assert result.tree is not None and not result.beyond_greedy
        assert int(result.tree.level().split(".")[0]) == brute.first_level(members, start)
        assert compact == (result.tree.level(), result.tree.total(), result.tree.sequence())
        replay(pieces, result.tree)
        assert result.total == len(result.moves) == len(result.states) - 1


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prism_designs())
def test_on_the_prism_grid_the_disassembler_agrees_with_the_brute_force_checker(
    pieces: list[list[Voxel]],
) -> None:
    result = disassemble(Assembly.of_voxels(pieces, grid=1))
    brute = Brute(pieces, grid=1)
    members = tuple(range(len(pieces)))
    start = tuple((0, 0, 0) for _ in pieces)
    apart = brute.comes_apart(members, start)
    assert result.status == ("solved" if apart else "stuck")
    if apart:
        assert result.tree is not None
        assert int(result.tree.level().split(".")[0]) == brute.first_level(members, start)
        replay(pieces, result.tree, grid=1)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.tuples(st.one_of(designs(), mazes()), st.just(0)),
        st.tuples(prism_designs(), st.just(1)),
    )
)
def test_the_minimum_total_agrees_with_the_brute_force_checker(
    drawn: tuple[list[list[Voxel]], int],
) -> None:
    """--min-total finds the fewest moves in all, never more than the stage-by-stage
    disassembly's total."""
    pieces, grid = drawn
    result = disassemble(Assembly.of_voxels(pieces, grid=grid), min_total=True)
    staged = disassemble(Assembly.of_voxels(pieces, grid=grid))
    brute = Brute(pieces, grid=grid)
    members = tuple(range(len(pieces)))
    best = brute.min_total(members, tuple((0, 0, 0) for _ in pieces))
    assert result.status == staged.status == ("stuck" if best is None else "solved")
    if best is not None:
        assert result.tree is not None and staged.total is not None
        assert result.total == best <= staged.total
        replay(pieces, result.tree, grid=grid)


# --------------------------------------------------------------------------- hand-drawn


def tunnel(plan: Sequence[str]) -> list[list[Voxel]]:
    """A block three layers high whose middle layer is ``plan`` (rows from y = 0 up:
    ``#`` block, ``.`` tunnel, a letter a loose cube, ``A`` first), the other layers
    solid: the cubes must follow the tunnel out."""
    block: list[Voxel] = []
    cubes: dict[str, list[Voxel]] = {}
    for y, row in enumerate(plan):
        for x, ch in enumerate(row):
            for z in range(3):
                if z != 1 or ch == "#":
                    block.append((x, y, z))
                elif ch.isalpha():
                    cubes.setdefault(ch, []).append((x, y, z))
    return [block, *(cubes[ch] for ch in sorted(cubes))]


def test_a_cube_in_a_tunnel_takes_one_move_per_leg() -> None:
    pieces = tunnel(["#####", "###A#", "#...#", "#.###"])
    result = disassemble(Assembly.of_voxels(pieces))
    assert (result.status, result.level, result.total) == ("solved", "3", 3)
    relative = [
        tuple(c - b for c, b in zip(cube, block, strict=True)) for block, cube in result.states
    ]
    assert relative[:3] == [(0, 0, 0), (0, 1, 0), (-2, 1, 0)]  # the cube: up 1, left 2
    out = result.moves[-1]
    assert (out.pieces, out.direction) in (((1,), 2), ((0,), 3))  # then up and out
    longer = tunnel(["#######", "#A#...#", "#.#.#.#", "#...#.#", "#####.#"])
    assert disassemble(Assembly.of_voxels(longer)).level == "5"  # up, right, down, right, out
    brute = Brute(longer)
    assert brute.first_level((0, 1), ((0, 0, 0), (0, 0, 0))) == 5


def test_a_slide_longer_than_the_move_tables_is_one_move() -> None:
    # a cube 69 voxels down a tunnel, then out by a hole in the roof: the move generator
    # keeps bitmasks for distances below 64 and answers from the gaps beyond
    tunnel_cells = {(x, 1, 1) for x in range(1, 71)} | {(70, 2, 1)}
    block = [
        (x, y, z)
        for x, y, z in product(range(72), range(3), range(3))
        if (x, y, z) not in tunnel_cells
    ]
    assembly = Assembly.of_voxels([block, [(1, 1, 1)]])
    for result in (disassemble(assembly), disassemble(assembly, min_total=True)):
        assert (result.status, result.level, result.total) == ("solved", "2", 2)
        assert [str(move) for move in result.moves] == ["1 +x 69", "1 +y out"]


def test_a_piece_without_voxels_is_refused() -> None:
    with pytest.raises(UsageError, match="no voxels"):
        disassemble(Assembly.of_voxels([[(0, 0, 0)], []]))
    with pytest.raises(UsageError, match="no voxels"):
        disassemble(Assembly.of_voxels([[]]))


def test_a_triangle_follows_a_tunnel_on_the_prism_grid() -> None:
    """The tunnel's plan read as rows of triangles (pointing up where x + y is even):
    the loose triangle slides one unit (two voxels) along x, two along the edge direction
    u = (1, 1, 0), then out along x."""
    pieces = tunnel(["########", "#A...###", "####..##", "#####...", "########"])
    result = disassemble(Assembly.of_voxels(pieces, grid=1))
    assert (result.status, result.level, result.total) == ("solved", "3", 3)
    relative = [
        tuple(c - b for c, b in zip(cube, block, strict=True)) for block, cube in result.states
    ]
    assert relative[:3] == [(0, 0, 0), (2, 0, 0), (4, 2, 0)]
    assert [str(m).split()[1] for m in result.moves] == ["+x", "+u", "+x"]
    assert result.tree is not None
    replay(pieces, result.tree, grid=1)
    brute = Brute(pieces, grid=1)
    assert brute.first_level((0, 1), ((0, 0, 0), (0, 0, 0))) == 3
    # closed at the far end, the same tunnel holds the triangle for good
    closed = tunnel(["########", "#A...###", "####..##", "#####..#", "########"])
    assert disassemble(Assembly.of_voxels(closed, grid=1)).status == "stuck"


def test_prism_gaps_count_the_triangles_swept() -> None:
    """Along x a triangle's unit step sweeps the triangle beside it and the next; along
    an edge direction, the one sharing an edge with its start and its end."""
    part = Part(Geometry(1), [[(0, 0, 0)], [(4, 0, 0)]])
    free = part.gaps(0, 1, 9, 9, 9)[0]
    assert part.gaps(0, 1, 0, 0, 0) == (free, 1, free, free)  # axes z, x, u, v
    assert part.gaps(1, 0, 0, 0, 0) == (free, free, free, free)
    assert part.gaps(0, 1, 20, 0, 0)[1] == 11  # beyond the table's window: 24 voxels away
    down = Part(Geometry(1), [[(1, 0, 0)], [(1, 1, 0)]])  # a down triangle, the one above
    assert down.gaps(0, 1, 0, 0, 0) == (free, free, 0, 0)
    above = Part(Geometry(1), [[(1, 0, 0)], [(1, 0, 2)]])  # two layers up
    assert above.gaps(0, 1, 0, 0, 0)[0] == 1


def test_the_minimum_total_takes_two_cubes_out_together() -> None:
    """Two cubes in a cave with one exit: BurrTools' first separation (2 moves) takes one
    cube out and leaves the other 2 moves from the exit (level 2.2, 4 moves); taking the
    two out together, then apart, takes 3."""
    pieces = tunnel(["#####", "#AB##", "...##", "#####"])
    staged = disassemble(Assembly.of_voxels(pieces))
    assert (staged.level, staged.total) == ("2.2", 4)
    least = disassemble(Assembly.of_voxels(pieces), min_total=True)
    assert (least.level, least.total) == ("2", 3)
    assert least.tree is not None and set(least.tree.left_pieces) in ({0}, {1, 2})
    replay(pieces, least.tree)
    assert Brute(pieces).min_total((0, 1, 2), ((0, 0, 0),) * 3) == 3


def test_a_cube_in_a_closed_shell_is_stuck_and_a_budget_makes_it_unknown() -> None:
    shell = [v for v in product(range(4), range(3), range(3)) if v != (1, 1, 1) and v != (2, 1, 1)]
    pieces = [shell, [(1, 1, 1)]]
    result = disassemble(Assembly.of_voxels(pieces))
    assert result.status == "stuck" and result.level is None and result.total is None
    assert result.states_explored >= 2  # the cube slides inside its room
    capped = disassemble(Assembly.of_voxels(pieces), max_states=1)
    assert capped.status == "unknown" and "states" in capped.reason
    late = disassemble(Assembly.of_voxels(pieces), timeout=0)
    assert late.status == "unknown" and late.reason == "out of time"


def test_a_part_that_cannot_come_apart_may_stay_together_as_a_group() -> None:
    """A cube locked in a shell, and a loose cube on top: stuck, unless the shell and
    the locked cube belong to one group (BurrTools' groups, with their counts)."""
    shell = [v for v in product(range(4), range(3), range(3)) if v not in ((1, 1, 1), (2, 1, 1))]
    voxels = [shell, [(1, 1, 1)], [(0, 0, 3)]]
    plain = Assembly.of_voxels(voxels)
    assert disassemble(plain).status == "stuck"
    grouped = Assembly(plain.pieces, groups=(((1, 1),), ((1, 1),), ()))
    result = disassemble(grouped)
    assert (result.status, result.level, result.tree and result.tree.left) == ("solved", "1", None)
    # two parts stuck, each fitting group 1 alone, not both at once (counts shared)
    assert Groups([((1, 1),), ((1, 2),)]).fit([[0, 1]])
    assert not Groups([((1, 1),), ((1, 2),)]).fit([[0, 1], [0, 1]])
    assert Groups([((1, 1), (2, 1)), ((1, 1), (2, 1))]).fit([[0, 1], [0, 1]])


def test_levels_read_as_burrtools_writes_them() -> None:
    """Subtrees whose separations all take one move are left out; the left part comes
    before the removed one; solutions sort by the moves of every separation in
    pre-order."""
    single = Separation((0, 1), ((0, 0, 0),) * 2, _moves(1, [1]))
    double = Separation((2, 3), ((0, 0, 0),) * 2, _moves(2, [3]))
    tree = Separation((0, 1, 2, 3), ((0, 0, 0),) * 4, _moves(5, [2, 3]), single, double)
    assert tree.level() == "5.2" and tree.total() == 8 and tree.sequence() == (5, 1, 2)
    flat = Separation((0, 1, 2, 3), ((0, 0, 0),) * 4, _moves(5, [2, 3]), single, single)
    assert flat.level() == "5" and flat.sequence() < tree.sequence()


def test_a_disassembly_builds_its_tree_when_read_and_travels_compact() -> None:
    """The compiled disassembler hands out a PackedSeparationTree: the level comes from
    it, the tree is built on first reading (then kept), and a pickled disassembly carries
    the PackedSeparationTree."""
    pieces = tunnel(["#######", "#AB.#.#", "#.#...#", "#.#####"])
    result = disassemble(Assembly.of_voxels(pieces))
    assert isinstance(held_tree(result), PackedSeparationTree)
    level, total = result.level, result.total
    copy = pickle.loads(pickle.dumps(result))
    assert isinstance(held_tree(copy), PackedSeparationTree) and copy.level == level
    tree = result.tree
    assert tree is not None and held_tree(result) is tree and result.tree is tree
    assert (tree.level(), tree.total()) == (level, total) and total == len(result.moves)
    assert copy == result and hash(copy) == hash(result)  # compared as built trees
    assert tree.start == ((0, 0, 0),) * len(pieces)
    assert replace(result, tree=None).level is None
    assert replace(copy, reason="x").tree == tree


def test_pieces_met_again_are_known_by_identity_or_by_their_voxels() -> None:
    """A Geometry shared by a problem's assemblies knows a piece it met before by the
    identity of its voxels' tuple (the decoder's pieces recur in every assembly) and
    otherwise by the voxels: the same disassembly from the same objects, from equal
    copies and from a fresh Geometry."""
    from excover.burr.search import Disassembler, DisassemblyBudget

    pieces = tunnel(["#######", "#AB.#.#", "#.#...#", "#.#####"])
    shared = Geometry()
    first = Assembly.of_voxels(pieces)
    runs = [
        Disassembler(assembly, DisassemblyBudget(), True, geometry).run()
        for assembly, geometry in [
            (first, shared),
            (first, shared),
            (Assembly.of_voxels(pieces), shared),
            (Assembly.made(first.pieces, (), (), 0), Geometry()),
        ]
    ]
    assert all(
        (r.status, r.level, r.moves) == (runs[0].status, runs[0].level, runs[0].moves) for r in runs
    )
    assert runs[0].status == "solved" and runs[3].assembly == first


def _moves(count: int, out: list[int]) -> tuple[Move, ...]:
    return (*(Move((0,), 0, 1) for _ in range(count - 1)), Move(tuple(out), 2, None))


def test_gaps_are_cutlers_runs_of_empty_voxels() -> None:
    """How far a piece slides before it touches another, along each axis."""
    part = Part(Geometry(), [[(0, 0, 0)], [(3, 0, 0), (0, 2, 0)]])
    free = part.gaps(0, 1, 9, 9, 9)[0]
    assert part.gaps(0, 1, 0, 0, 0) == (2, 1, free)
    assert part.gaps(1, 0, 0, 0, 0) == (free, free, free)
    assert part.gaps(0, 1, 5, 0, 0) == (7, free, free)  # beyond the table's window


# --------------------------------------------------------------------------- the command


def _tunnel_file(tmp_path: Path) -> Path:
    block, cube = tunnel(["#####", "###A#", "#...#", "#.###"])
    shapes = (
        BurrShape.from_voxels(frozenset(block) | frozenset(cube), name="result"),
        BurrShape.from_voxels(frozenset(block), name="block"),
        BurrShape.from_voxels(frozenset(cube), name="cube"),
    )
    puzzle = BurrPuzzle(shapes, (BurrProblem((BurrPart(1), BurrPart(2)), 0),))
    path = tmp_path / "tunnel.xmpuzzle"
    write_xmpuzzle(puzzle, path)
    return path


def test_the_command_prints_assemblies_solutions_and_levels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_tunnel_file(tmp_path))
    assert main(["disassemble", path, "--moves"]) == 0
    out = capsys.readouterr().out
    assert "assemblies: 1\nsolutions: 1\nstuck: 0\nunknown: 0\n" in out
    assert "assembly 1: level 3, 3 moves" in out and "1 +y out" in out
    assert main(["disassemble", path, "--json", "--moves"]) == 0
    document = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(common.schema()).validate(document)
    assert (document["assemblies"], document["levels"], document["unknown"]) == (1, ["3"], 0)
    assert document["solutions"][0]["separation"]["moves"][-1]["distance"] is None
    assert document["complete"] is True


def test_the_command_reports_an_assembly_out_of_budget_as_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_tunnel_file(tmp_path))
    assert main(["disassemble", path, "--max-states", "1", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert (document["unknown"], document["solutions"], document["complete"]) == (1, [], False)
    assert main(["disassemble", path, "--problem", "3"]) == 2
    assert "no problem 3" in capsys.readouterr().err
    assert main(["disassemble", path, "--greedy", "--min-total"]) == 2
    assert "exclude each other" in capsys.readouterr().err
    assert main(["disassemble", path, "--min-total"]) == 0
    assert "assembly 1: level 3, 3 moves" in capsys.readouterr().out
    assert main(["disassemble", path, "--timeout", "0"]) == 1
    out, err = capsys.readouterr()
    assert "unknown: 1" in out and "stopped by --timeout" in err


def test_a_disassembly_plays_its_moves_from_the_assembled_state() -> None:
    pieces = tunnel(["#####", "###A#", "#...#", "#.###"])
    result: Disassembly = disassemble(Assembly.of_voxels(pieces))
    states = result.states
    assert len(states) == 4 and states[0] == ((0, 0, 0), (0, 0, 0))
    for before, after, move in zip(states[:-1], states[1:], result.moves, strict=True):
        moved = {k for k in range(2) if before[k] != after[k]}
        assert moved == set(move.pieces)
    block, cube = states[3]
    assert abs(cube[1] - block[1]) > 4  # taken out beyond the block's box


# --------------------------------------------------------------------------- stored separations


def _prism_tunnel_file(tmp_path: Path) -> Path:
    block, triangle = tunnel(["########", "#A...###", "####..##", "#####...", "########"])
    shapes = (
        BurrShape.from_voxels(frozenset(block) | frozenset(triangle), name="result"),
        BurrShape.from_voxels(frozenset(block), name="block"),
        BurrShape.from_voxels(frozenset(triangle), name="triangle"),
    )
    puzzle = BurrPuzzle(shapes, (BurrProblem((BurrPart(1), BurrPart(2)), 0),), grid=1)
    path = tmp_path / "prism.xmpuzzle"
    write_xmpuzzle(puzzle, path)
    return path


@pytest.mark.parametrize("make", [_tunnel_file, _prism_tunnel_file])
def test_written_solutions_read_back_and_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Callable[[Path], Path]
) -> None:
    """--write saves the solutions with their separations as BurrTools stores them; read
    back, the placements give the pieces' voxels and the check replays every move."""
    out = tmp_path / "solved.xmpuzzle"
    assert main(["disassemble", str(make(tmp_path)), "--write", str(out), "--quiet"]) == 0
    capsys.readouterr()
    puzzle = read_xmpuzzle(out)
    problem = puzzle.problems[0]
    assert (problem.state, problem.assemblies, problem.solutions) == (2, 1, 1)
    (solution,) = problem.stored
    assert solution.separation is not None and len(solution.separation.states) == 4
    assert all(where is not None for where in solution.placements)
    (checked,) = check_stored(puzzle, 0)
    assert checked.fault is None and checked.tree is not None
    assert (checked.tree.level(), checked.tree.total()) == ("3", 3)
    result = next(iter(disassemble_all(puzzle, 0)))
    assert [str(m) for m in checked.tree.moves] == [str(m) for m in result.moves]
    assert main(["disassemble", str(out), "--check", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(common.schema()).validate(document)
    assert document["refused"] == 0 and document["checked"][0]["level"] == "3"


def test_a_tampered_separation_is_refused_at_the_step_at_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "solved.xmpuzzle"
    assert main(["disassemble", str(_tunnel_file(tmp_path)), "--write", str(out), "--quiet"]) == 0
    capsys.readouterr()
    puzzle = read_xmpuzzle(out)
    solution = puzzle.problems[0].stored[0]
    tree = solution.separation
    assert tree is not None

    def tampered(states: tuple[tuple[Voxel, ...], ...]) -> BurrPuzzle:
        bad = replace(solution, separation=replace(tree, states=states))
        return replace(puzzle, problems=(replace(puzzle.problems[0], stored=(bad,)),))

    def moved(state: tuple[Voxel, ...], piece: int, by: Voxel) -> tuple[Voxel, ...]:
        return tuple(_add(w, by) if k == piece else w for k, w in enumerate(state))

    s = tree.states
    # the cube's second move (2 along -x, the block +x) made 3: into the wall
    wall = tampered((s[0], s[1], moved(s[2], 1, (-1, 0, 0)), moved(s[3], 1, (-1, 0, 0))))
    (checked,) = check_stored(wall, 0)
    assert checked.tree is None and checked.fault is not None
    assert "separation root" in checked.fault and "move 2" in checked.fault
    # the cube sliding up through the block in one move
    (jump,) = check_stored(tampered((s[0], moved(s[0], 1, (0, 3, 0)), s[3])), 0)
    assert jump.fault is not None and "move 1" in jump.fault and "meet piece 0" in jump.fault
    # a diagonal move (to an empty voxel) is no move
    (diagonal,) = check_stored(tampered((s[0], moved(s[0], 1, (-1, 1, 0)), s[3])), 0)
    assert diagonal.fault is not None and "along no direction" in diagonal.fault
    # the last move stopping short takes nothing out
    short = (*s[:3], moved(s[2], 1, (0, 1, 0)))
    (stops,) = check_stored(tampered(short), 0)
    assert stops.fault is not None and "does not take its pieces out" in stops.fault
    path = tmp_path / "tampered.xmpuzzle"
    write_xmpuzzle(wall, path)
    assert main(["disassemble", str(path), "--check"]) == 2
    out_text, err = capsys.readouterr()
    assert "refused: 1" in out_text and "move 2" in out_text and "refused" in err


@pytest.mark.parametrize(("grid", "rotations"), [(0, 24), (1, 12)])
def test_placements_number_every_rotation_once(grid: int, rotations: int) -> None:
    """A shape with no symmetry has one placement a rotation: placing it and finding
    the placement back gives the same transformation number."""
    voxels = (
        {(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)}
        if grid == 0
        else {(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (1, 1, 0), (0, 0, 1)}
    )
    shape = BurrShape.from_voxels(frozenset(voxels))
    images = set()
    for t in range(rotations):
        cells = placed(shape, grid, (5, 7, 3, t))
        assert placement_of(shape, grid, cells) == (5, 7, 3, t)
        low = [min(v[a] for v in cells) for a in range(3)]
        low[0] -= (low[0] + low[1]) % 2 if grid == 1 else 0
        images.add(frozenset(tuple(c - o for c, o in zip(v, low, strict=True)) for v in cells))
    assert len(images) == rotations
