"""Belief propagation over a nonogram's lines (:meth:`Core.beliefs`) and the CDCL phases
made from it (:func:`nonogram_sat.order_phases`).

With no rounds of propagation every placement of a line that agrees with the grid weighs
the same, so the beliefs are plain shares of placements, checked here against an
enumeration of the placements; after rounds of propagation each block's starts still
form a distribution, over the positions where it can start at all (those where some
placement agreeing with the grid starts it).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from excover import nonogram
from excover.nonogram import sat as nonogram_sat
from excover.nonogram import search as nonogram_search
from excover.nonogram.model import Puzzle


def placements(clue: tuple[int, ...], cells: bytes) -> list[tuple[int, ...]]:
    """Every placement of ``clue`` (its blocks' starts) that agrees with ``cells``
    (1 white, 2 black, 3 unknown), by enumeration of the line's pictures."""
    found = []
    for bits in itertools.product((1, 2), repeat=len(cells)):
        if not all(cells[i] & bits[i] for i in range(len(cells))):
            continue
        starts, i = [], 0
        while i < len(bits):
            if bits[i] == 2:
                j = i
                while j < len(bits) and bits[j] == 2:
                    j += 1
                starts.append((i, j - i))
                i = j
            else:
                i += 1
        if tuple(length for _, length in starts) == clue:
            found.append(tuple(start for start, _ in starts))
    return found


def lines_of(puzzle: Puzzle, grid: bytes) -> list[tuple[tuple[int, ...], bytes]]:
    """Each line's clue and cells, rows then columns."""
    width = puzzle.width
    rows = [grid[r * width : (r + 1) * width] for r in range(puzzle.height)]
    cols = [grid[c::width] for c in range(width)]
    return list(zip(puzzle.rows + puzzle.cols, rows + cols, strict=True))


@pytest.mark.parametrize("seed", range(20))
def test_without_rounds_the_beliefs_are_shares_of_placements(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = nonogram.generate(5 + seed % 3, 6, rng.uniform(0.3, 0.7), rng)
    solver = nonogram_search.core(puzzle)
    if seed % 2:
        solver.propagate_only()  # some cells decided: placements must agree with them
    grid = solver.grid_bytes()
    black, starts = solver.beliefs(0)
    for line, (clue, cells) in enumerate(lines_of(puzzle, grid)):
        found = placements(clue, cells)
        assert found, "a grid that propagation reached keeps a placement of every line"
        for j in range(len(clue)):
            share = Counter(placement[j] for placement in found)
            for position in range(len(cells)):
                assert starts[line][j][position] == pytest.approx(share[position] / len(found))
                assert (starts[line][j][position] > 0.0) == (share[position] > 0)
    for cell, value in enumerate(grid):
        if value != 3:
            assert black[cell] == (1.0 if value == 2 else 0.0)
        else:
            assert black[cell] == pytest.approx(0.5)  # no round: no line has spoken


@pytest.mark.parametrize("seed", range(10))
def test_after_rounds_each_block_starts_somewhere_it_can(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = nonogram.generate(12, 10 + seed % 4, rng.uniform(0.3, 0.7), rng)
    solver = nonogram_search.core(puzzle)
    solver.probe_only()
    black, starts = solver.beliefs(20)
    feasible = [
        [[chance > 0.0 for chance in chances] for chances in line] for line in solver.beliefs(0)[1]
    ]
    assert all(0.0 <= chance <= 1.0 for chance in black)
    for line_starts, line_feasible in zip(starts, feasible, strict=True):
        for chances, possible in zip(line_starts, line_feasible, strict=True):
            assert sum(chances) == pytest.approx(1.0)
            assert all(possible[p] or chance == 0.0 for p, chance in enumerate(chances))
    # the solution agrees with the decided cells; the beliefs of the others lean to it
    # more often than not on these random puzzles
    picture = nonogram.solve(puzzle)
    assert picture is not None
    cells = "".join(picture)
    open_cells = [v for v, value in enumerate(solver.grid_bytes()) if value == 3]
    for v, value in enumerate(solver.grid_bytes()):
        if value != 3:
            assert (black[v] == 1.0) == (cells[v] == "#")
    if open_cells:
        right = sum((black[v] >= 0.5) == (cells[v] == "#") for v in open_cells)
        assert right >= len(open_cells) / 2


@pytest.mark.parametrize("seed", range(10))
def test_order_phases_give_every_variable_of_the_order_encoding_a_value(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = nonogram.generate(6 + seed, 9, rng.uniform(0.2, 0.8), rng)
    solver = nonogram_search.core(puzzle)
    solver.probe_only()
    black, starts = solver.beliefs(5)
    phases = nonogram_sat.order_phases(puzzle, black, starts)
    formula = nonogram_sat.encode_order(puzzle)
    assert [abs(literal) for literal in phases] == list(range(1, formula.n_vars + 1))
    cells = puzzle.height * puzzle.width
    assert all((literal > 0) == (black[v] >= 0.5) for v, literal in enumerate(phases[:cells]))
    # "block j starts by s" is tried true from some s on, never false again after: the
    # phases satisfy the order clauses "starts by s implies starts by s + 1"
    true = {literal for literal in phases if literal > 0}
    order = [
        clause
        for clause in formula.clauses
        if len(clause) == 2 and clause[0] < -cells and clause[1] == -clause[0] + 1
    ]
    assert order
    assert all(-clause[0] not in true or clause[1] in true for clause in order)
