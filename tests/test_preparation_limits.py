"""The long preparation steps before a count (laying a problem out for the frontier
count, finding its group for ``--up-to-symmetry``, building a sequence's model) stop at
the deadline and stay within bounds of time and memory, with the clear stop or error the
command line promises.

No test here measures wall-clock time: a deadline already past must stop each step
before its work, and the work that once took minutes is checked by what it gives.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pytest
from test_symmetry_large_groups import disjoint_copies

from excover import ExactCover, GroupMemoryError, LimitReached, ResourceLimitError, UsageError
from excover.cli.status import EXIT_RESOURCE
from excover.main import main
from excover.puzzles.queens import queens
from excover.sequences import problem
from excover.sequences.rectangles import RULES, model_nodes, rectangles
from excover.symmetry import BrokenSearch, Group, chain
from excover.symmetry.chain import StabilizerChain
from excover.symmetry.factors import order_of
from excover.zdd import _frontier, frontier


def star(cells: int) -> ExactCover:
    """``cells`` primary cell items and a piece item P, the options ``P cK`` for every
    K: no solution (P cannot be covered without a cell left over), which any search
    finds at once, while every cell shares an option with P."""
    problem = ExactCover(primary=[*(f"c{k}" for k in range(cells)), "P"])
    for k in range(cells):
        problem.add_option(["P", f"c{k}"])
    return problem


def arrays(problem: ExactCover) -> tuple[int, memoryview, memoryview]:
    """The problem's primary items and options as the compiled layout takes them."""
    data = problem.engine_input()
    return data.n_primary, memoryview(data.option_start), memoryview(data.node_item)


# ------------------------------------------------------------ the frontier count's layout


@pytest.mark.parametrize("cells", [1, 10, 5000])
def test_the_order_of_few_states_stops_at_a_past_deadline(cells: int) -> None:
    """A deadline already past stops the order at its first look, before any work, on
    the bit-matrix side of its partners (few items) and the stamps' side (many)."""
    past = time.monotonic() - 1.0
    assert _frontier.narrow_order(*arrays(star(cells)), past) is None
    assert _frontier.narrow_order(*arrays(star(cells)), time.monotonic() + 3600) is not None


def test_the_layout_of_a_star_raises_at_a_past_deadline() -> None:
    with pytest.raises(LimitReached) as stop:
        frontier.wide_layout(star(5000), time.monotonic() - 1.0)
    assert stop.value.reason == "timeout"
    assert stop.value.stats.stopped_by == "timeout"


def test_the_order_of_a_star_puts_the_cells_in_order_after_the_piece() -> None:
    """90,000 cells open at once when P is placed: the order takes them by its rule
    (fewest unopened partners, fewest options, lowest number) from a heap, where a scan
    of every open item at every step took seconds; the layout then spans all the cells, too
    wide for any window."""
    problem = star(90_000)
    order = _frontier.narrow_order(*arrays(problem))
    assert list(order) == [0, 90_000, *range(1, 90_000)]
    assert frontier.wide_layout(problem) is None


def test_an_option_too_long_for_any_window_is_turned_away_before_the_order() -> None:
    """An option of 256 items spans 255 in every order, past the widest window (254):
    no order is looked for, so even a past deadline does not stop it."""
    problem = ExactCover(primary=256)
    problem.add_option(list(range(256)))
    assert frontier.wide_layout(problem, time.monotonic() - 1.0) is None


def test_a_star_is_counted_by_its_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "star.dlx"
    star(20_000).write(path)
    assert main(["count", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "0"
    assert "method search" in err


def test_a_timeout_while_the_count_is_laid_out_stops_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--timeout 0``: the choice's layout of the star for the frontier count's first
    slice is its first step that meets the deadline; the run stops there, exit status
    1, no partial count and no traceback."""
    path = tmp_path / "star.dlx"
    star(5000).write(path)
    assert main(["count", str(path), "--timeout", "0"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "route frontier: stopped by the time limit while it laid the problem out" in err
    assert "stopped by --timeout (no partial count)" in err
    assert "Traceback" not in err


# ------------------------------------------------------------------ the group search


def copies_of_options(items: int) -> ExactCover:
    """``items`` primary items, each covered by three identical options of its own."""
    problem = ExactCover(primary=[f"i{k}" for k in range(items)])
    for k in range(items):
        for _ in range(3):
            problem.add_option([f"i{k}"])
    return problem


def swaps_of_copies(items: int) -> list[list[int]]:
    """The exchanges of each item's first two options and of its last two, as option
    maps: generators of a direct product of ``items`` copies of S3."""
    swaps = []
    for k in range(items):
        for a, b in ((3 * k, 3 * k + 1), (3 * k + 1, 3 * k + 2)):
            options = list(range(3 * items))
            options[a], options[b] = b, a
            swaps.append(options)
    return swaps


def test_the_group_s_work_stops_at_a_past_deadline() -> None:
    """Its order, its chain and its orbits stop at once past the deadline; what the group
    computes without one is then computed as if nothing had happened (the bounded copy
    shares it)."""
    problem = copies_of_options(40)
    group = Group(problem, swaps_of_copies(40))
    late = group.bounded(time.monotonic() - 1.0)
    for work in (lambda: late.option_order, lambda: late.order, late.option_orbits):
        with pytest.raises(LimitReached) as stop:
            work()
        assert stop.value.reason == "timeout"
    assert group.option_order == 6**40
    assert late.option_order == 6**40  # known now, for both
    with pytest.raises(LimitReached):
        Group(problem, swaps_of_copies(40), deadline=time.monotonic() - 1.0)  # checks


def test_a_chain_shared_by_bounded_copies_keeps_no_deadline() -> None:
    """The chain one copy built within its deadline serves the group and its other
    copies, each listing its elements within its own deadline."""
    group = queens(6).symmetries()
    early = group.bounded(time.monotonic() + 3600)
    assert len(list(early.option_elements())) == 8  # the chain, built and shared
    with pytest.raises(LimitReached):
        list(group.bounded(time.monotonic() - 1.0).option_elements())
    assert len(list(group.option_elements())) == 8


def test_a_chain_and_an_order_stop_at_a_past_deadline() -> None:
    generators = [np.roll(np.arange(50), 1), np.array([1, 0, *range(2, 50)])]  # S50
    past = time.monotonic() - 1.0
    with pytest.raises(LimitReached):
        StabilizerChain(50, generators, deadline=past)
    with pytest.raises(LimitReached):
        order_of(50, generators, past)
    assert order_of(50, generators) == math.factorial(50)


def test_a_count_up_to_symmetry_stops_at_its_timeout_before_the_group_s_work() -> None:
    problem = copies_of_options(40)
    with pytest.raises(LimitReached) as stop:
        BrokenSearch(problem, Group(problem, swaps_of_copies(40)), timeout=0).count_orbits()
    assert stop.value.reason == "timeout"


def test_a_chain_past_its_memory_bound_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A symmetric group of 400 points has a chain of about 80,000 permutations of 400
    points (256 MB): with the bound at 1 MiB it stops with GroupMemoryError, which says
    what needed the memory, and the bound."""
    monkeypatch.setattr(chain, "MAX_CHAIN_BYTES", 1 << 20)
    generators = [np.roll(np.arange(400), 1), np.array([1, 0, *range(2, 400)])]
    with pytest.raises(GroupMemoryError) as error:
        StabilizerChain(400, generators, order=math.factorial(400))
    assert "the stabilizer chain of a symmetry group needs more memory" in str(error.value)
    assert "1.0 MiB" in str(error.value)
    assert isinstance(error.value, ResourceLimitError)


def test_the_command_line_reports_a_chain_past_its_memory_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five copies of the 5-queens problem: the order of their group (8^5 5!) takes a
    stabilizer chain (no generator exchanges two options alone, the copies are exchanged
    25 options at a time); past the bound, the command says so (exit status 3, a
    resource limit) instead of being killed."""
    monkeypatch.setattr(chain, "MAX_CHAIN_BYTES", 1 << 10)
    path = tmp_path / "copies.dlx"
    problem = disjoint_copies(queens(5), 5)
    problem.write(path)
    status = main(["count", str(path), "--up-to-symmetry"])
    out, err = capsys.readouterr()
    assert status == EXIT_RESOURCE and out == ""
    assert "resource limit: the stabilizer chain of a symmetry group needs more memory" in err
    assert "Traceback" not in err


# ------------------------------------------------------------ a sequence's exact cover


def test_a_term_past_the_count_by_states_is_refused_before_anything_is_built(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A360498(10000) listed its 10^8 rectangles (3.3 GB, still going at 60 s) before the
    count by states said it takes squares of at most 62 cells a side: now the limit is
    told first."""
    assert main(["sequence", "A360498", "10000", "--timeout", "5"]) == 2
    err = capsys.readouterr().err
    assert "a 10000 x 10000 box: the rectangle count takes at most 62 cells a side" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("sequence", sorted(RULES))
def test_the_size_of_a_rectangle_model_is_told_before_it_is_built(sequence: str) -> None:
    for n in range(1, 9):
        built = rectangles(sequence, n).engine_input().node_item
        assert model_nodes(sequence, n) == len(built)
    with pytest.raises(UsageError, match=r"past the 50,000,000 excover builds"):
        rectangles(sequence, 10_000)


def test_a_model_too_large_to_build_is_refused_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The search of a rectangle term (asked for by --workers) and the exact cover of an
    omino term (--write-dlx) say their limit before building anything."""
    assert main(["sequence", "A360498", "10000", "--workers", "2"]) == 2
    assert "its exact cover would have 27,791,115,555,722,174,997,000 nodes" in (
        capsys.readouterr().err
    )
    assert main(["sequence", "A172477", "30", "--write-dlx", "-"]) == 2
    assert "is built for n up to 10" in capsys.readouterr().err


@pytest.mark.parametrize("sequence", ["A360498", "A328020"])
def test_a_model_stops_at_a_past_deadline(sequence: str) -> None:
    with pytest.raises(LimitReached):
        problem(sequence, 6, deadline=time.monotonic() - 1.0)


def test_a_timeout_while_a_term_s_model_is_built_stops_cleanly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sequence", "A360498", "12", "--workers", "2", "--timeout", "0"]) == 1
    out, err = capsys.readouterr()
    assert out.strip() in ("", "0")  # a count stopped while built prints no figure, or 0
    assert "building the problem" in err and "stopped by --timeout" in err
    assert "Traceback" not in err
