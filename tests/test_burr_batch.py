"""The batch path (excover.burr.search.BatchDisassembler, on the compiled Batch) against the
per-assembly one and the brute-force checker of test_burr_disassembly.

A runner takes many assemblies apart one after another on one set of buffers (its part,
its stage-by-stage search): each answer must be the one a fresh disassembler gives for
that assembly alone, whatever came before it (assemblies of other sizes, weights and
groups, searches cut short by the state cap).
"""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import product

import pytest
from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_burr_disassembly import Brute, designs, mazes, prism_designs, replay

from excover.burr import Assembly, Disassembly, disassemble, disassemble_all
from excover.burr._moves import Geometry
from excover.burr.pool import disassemble_many
from excover.burr.search import BatchDisassembler, DisassemblyBudget
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape
from excover.burr.xmpuzzle import Part as BurrPart
from excover.errors import UsageError


def _summary(result: Disassembly) -> tuple[object, ...]:
    """Everything a disassembly tells, its tree as its moves and their order."""
    return (
        result.status,
        result.level,
        result.total,
        result.sort_key(),
        result.beyond_greedy,
        result.states_explored,
        result.reason,
        result.groups,
        [str(move) for move in result.moves],
    )


@st.composite
def variants(draw: st.DrawFn, grid: int) -> Assembly:
    """A random design of the grid, its pieces given random weights (the heavier side
    stays) or its parts put in one group (pieces that may stay together) at times."""
    pieces = draw(st.one_of(designs(), mazes()) if grid == 0 else prism_designs())
    assembly = Assembly.of_voxels(pieces, grid=grid)
    kind = draw(st.sampled_from(("plain", "weighted", "grouped")))
    if kind == "weighted":
        weights = draw(st.lists(st.integers(1, 3), min_size=len(pieces), max_size=len(pieces)))
        assembly = replace(
            assembly,
            pieces=tuple(
                replace(p, weight=w) for p, w in zip(assembly.pieces, weights, strict=True)
            ),
        )
    elif kind == "grouped":
        assembly = replace(assembly, groups=tuple(((1, 1),) for _ in pieces))
    return assembly


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from((0, 1)).flatmap(
        lambda grid: st.tuples(st.just(grid), st.lists(variants(grid), min_size=2, max_size=5))
    ),
    st.booleans(),
    st.sampled_from((None, 1, 5, 40)),
)
def test_a_runner_gives_each_assembly_what_a_fresh_disassembler_does(
    drawn: tuple[int, list[Assembly]], complete: bool, cap: int | None
) -> None:
    grid, family = drawn
    runner = BatchDisassembler(Geometry(grid), complete)
    for assembly in family:
        alone = disassemble(assembly, complete=complete, max_states=cap)
        batched = runner.run(assembly, DisassemblyBudget(None, cap))
        assert _summary(batched) == _summary(alone)
        if cap is None and not assembly.groups:
            pieces = [p.voxels for p in assembly.pieces]
            members = tuple(range(len(pieces)))
            start = tuple((0, 0, 0) for _ in pieces)
            brute = Brute(pieces, grid=grid)
            apart = brute.comes_apart(members, start)
            assert batched.status == ("solved" if apart else "stuck")
            if apart and batched.tree is not None:
                assert int(batched.tree.level().split(".")[0]) == brute.first_level(members, start)
                replay(pieces, batched.tree, grid=grid)


def test_a_runner_refuses_a_piece_without_voxels_and_goes_on() -> None:
    """A bad assembly is a UsageError; the runner's buffers then serve the next one."""
    runner = BatchDisassembler(Geometry())
    good = Assembly.of_voxels([[(0, 0, 0)], [(1, 0, 0)], [(2, 0, 0)]])
    bad = Assembly((*good.pieces[:1], replace(good.pieces[1], voxels=())))
    with pytest.raises(UsageError, match="no voxels"):
        runner.run(bad, DisassemblyBudget())
    assert _summary(runner.run(good, DisassemblyBudget())) == _summary(disassemble(good))


def test_disassemble_all_batches_a_family_as_it_would_take_each_alone() -> None:
    """Every assembly of a problem, taken apart in turn on one runner, as alone: a frame
    with cells for two loose cubes, drawn here."""
    frame = BurrShape((4, 3, 1), "#" * 4 + "#__#" + "#" * 4)
    cube = BurrShape((1, 1, 1), "#")
    result = BurrShape((4, 3, 1), "#" * 12)
    puzzle = BurrPuzzle(
        (frame, cube, result),
        (BurrProblem((BurrPart(0), BurrPart(1, 2, 2)), 2),),
    )
    found = list(disassemble_all(puzzle, 0))
    assert found
    for each in found:
        assert _summary(each) == _summary(disassemble(each.assembly))


def test_threads_of_an_executor_each_take_assemblies_apart_on_their_own_buffers() -> None:
    """Tasks run on threads (a concurrent.futures executor) give what one thread gives:
    each thread keeps its own runner, whose buffers serve one assembly at a time."""
    rng = random.Random(7)
    family = []
    for _ in range(48):  # small boxes cut at random into 2 to 4 pieces, a few holes
        cells = list(product(range(3), range(3), range(2)))
        labels = [rng.randrange(rng.randint(2, 4)) for _ in cells]
        holes = set(rng.sample(range(len(cells)), 3))
        pieces = [
            [c for k, c in enumerate(cells) if labels[k] == p and k not in holes] for p in range(4)
        ]
        family.append(Assembly.of_voxels([p for p in pieces if p] or [[(0, 0, 0)], [(1, 0, 0)]]))
    alone = dict(disassemble_many(family))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads taking turns as often as Python lets them
    try:
        with ThreadPoolExecutor(4) as pool:
            threaded = dict(disassemble_many(family, executor=pool))
    finally:
        sys.setswitchinterval(interval)
    assert {k: _summary(r) for k, r in threaded.items()} == {
        k: _summary(r) for k, r in alone.items()
    }
    assert len(alone) == len(family)


def test_assemblies_with_holes_hold_only_pieces() -> None:
    """A problem with maxHoles: its assemblies' solutions hold options that place a hole
    (no piece); the decoder leaves those out, whatever option it meets first. Unit cubes
    in a row of three variable voxels, at most one hole: the assemblies are two or three
    units, each on its own voxel."""
    from excover.burr import assemblies

    unit = BurrShape.from_voxels({(0, 0, 0)})
    row = BurrShape.from_voxels(set(), {(0, 0, 0), (1, 0, 0), (2, 0, 0)})
    puzzle = BurrPuzzle((unit, row), (BurrProblem((BurrPart(0, 0, 3),), 1, max_holes=1),))
    found = list(assemblies(puzzle))
    sizes = sorted(len(a.pieces) for a in found)
    assert sizes and set(sizes) <= {2, 3} and 2 in sizes
    for assembly in found:
        voxels = [v for piece in assembly.pieces for v in piece.voxels]
        assert len(voxels) == len(set(voxels)) == len(assembly.pieces)
