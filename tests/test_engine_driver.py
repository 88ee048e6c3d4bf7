"""The search driver the three compiled engines share (``engines/_driver.pxi``).

Dancing links, bitsets and dancing cells each keep only their data structure and moves;
stopping and resuming, limits, the deadline, resetting, the statistics and the argument
checks are one piece of code. These tests hold the three engines to the same contract:
every schedule of stops replays an uninterrupted search exactly (solutions, their order,
nodes and updates), and a malformed problem is refused by each with the same message.
"""

from __future__ import annotations

import pytest
from builders import langford, queens
from packed import packed

from excover import ExactCover
from excover.engines import CompiledEngine, new_engine, pick_engine
from excover.engines._bits import BitEngine
from excover.engines._cells import CellEngine
from excover.engines._links import DONE, MAX_NODES, MAX_SOLUTIONS, SOLUTION, LinksEngine
from excover.names import SEARCH_ENGINES

#: Every compiled engine, as :mod:`excover.names` lists them.
ENGINES = SEARCH_ENGINES


def colored_row() -> ExactCover:
    """Four cells in a row, each painted r or g by an option that gives its color to the
    boundaries on both sides (colored secondary items): neighbours must agree."""
    problem = ExactCover(primary=["c0", "c1", "c2", "c3"], secondary=["e0", "e1", "e2"])
    for cell in range(4):
        for color in "rg":
            items = [f"c{cell}"]
            items += [f"e{cell - 1}:{color}"] if cell > 0 else []
            items += [f"e{cell}:{color}"] if cell < 3 else []
            problem.add_option(items)
    return problem


PROBLEMS = {"queens 6": queens(6), "langford 7": langford(7), "colored row": colored_row()}


def totals(run: CompiledEngine) -> tuple[int, int, int]:
    return run.solutions, run.nodes, run.updates


def straight(problem: ExactCover, engine: str) -> tuple[list[list[int]], CompiledEngine]:
    """Every solution of an engine stopped only at solutions, and the finished engine."""
    run = new_engine(problem, "mrv", 0, engine=pick_engine(problem, engine))
    found = []
    while run.run(False, -1, -1, 0.0) == SOLUTION:
        found.append(run.solution())
    return found, run


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_kind_of_stop_replays_the_straight_search(name: str, engine: str) -> None:
    """Node limits, solution limits and stops at solutions, mixed, leave the search where
    an uninterrupted one would be: the solutions shown are the straight search's, in its
    order, and the totals at the end are its totals."""
    problem = PROBLEMS[name]
    expected, reference = straight(problem, engine)
    assert expected, "the problem must have solutions for the test to mean anything"
    run = new_engine(problem, "mrv", 0, engine=pick_engine(problem, engine))
    shown = 0
    status = None
    for step in range(1, 10_000):
        if step % 3 == 0:
            status = run.run(True, -1, run.nodes + 5, 0.0)
            assert status in (MAX_NODES, DONE)
        elif step % 3 == 1:
            status = run.run(True, run.solutions + 1, -1, 0.0)
            assert status in (MAX_SOLUTIONS, DONE)
        else:
            status = run.run(False, -1, -1, 0.0)
            if status == SOLUTION:
                assert run.solution() == expected[run.solutions - 1]
                shown += 1
        if status == DONE:
            break
    assert status == DONE
    assert shown > 0
    assert run.finished
    assert totals(run) == totals(reference)
    assert run.run(False, -1, -1, 0.0) == DONE  # a finished search stays finished


@pytest.mark.parametrize("engine", ENGINES)
def test_reset_halfway_replays_the_same_search(engine: str) -> None:
    problem = queens(7)
    expected, reference = straight(problem, engine)
    run = new_engine(problem, "mrv", 0, engine=pick_engine(problem, engine))
    assert run.run(True, -1, reference.nodes // 2, 0.0) == MAX_NODES
    run.reset()
    again = []
    while run.run(False, -1, -1, 0.0) == SOLUTION:
        again.append(run.solution())
    assert again == expected
    assert totals(run) == totals(reference)


@pytest.mark.parametrize("kind", [LinksEngine, BitEngine, CellEngine])
def test_no_primary_item_is_the_empty_solution_once(kind: type[CompiledEngine]) -> None:
    """With nothing to cover, the empty set of options is the one solution, found at the
    first node (a node limit of 0 stops before it)."""
    run = kind(packed(0, 1, [0, 1], [0], [0], [], []), 0, 0)  # one option, of a secondary item
    assert run.run(True, -1, 0, 0.0) == MAX_NODES
    assert run.run(False, -1, -1, 0.0) == SOLUTION
    assert run.solution() == []
    assert run.run(False, -1, -1, 0.0) == DONE
    assert totals(run)[:2] == (1, 1)
    with pytest.raises(RuntimeError, match="did not stop at a solution"):
        run.solution()


MALFORMED = [
    (1, 0, [0, 1], [3], [0], [1], [1]),  # item out of range
    (2, 0, [0, 2], [0, 0], [0, 0], [1, 1], [1, 1]),  # item twice
    (1, 1, [0, 2], [0, 1], [0, -2], [1], [1]),  # negative color
    (1, 1, [0, 2], [0, 1], [5, 0], [1], [1]),  # color on a primary item
    (1, 0, [0, 1], [0], [0], [2], [1]),  # lo > hi
    (1, 0, [1, 1], [0], [0], [1], [1]),  # option_start not from 0
    (1, 0, [0, 1], [0], [0, 0], [1], [1]),  # one color too many
    (1, 0, [0, 1], [0], [0], [], []),  # no bounds
]


@pytest.mark.parametrize("arguments", MALFORMED)
def test_the_three_engines_refuse_a_malformed_problem_alike(
    arguments: tuple[int, int, list[int], list[int], list[int], list[int], list[int]],
) -> None:
    messages = set()
    for kind in (LinksEngine, BitEngine, CellEngine):
        with pytest.raises(ValueError) as refused:
            kind(packed(*arguments), 0, 0)
        messages.add(str(refused.value))
    assert len(messages) == 1, messages
