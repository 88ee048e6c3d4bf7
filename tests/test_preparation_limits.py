"""The long preparation steps before a count (laying a problem out for the frontier
count, finding its group for ``--up-to-symmetry``, building a sequence's model) stop at
the deadline and stay within bounds of time and memory, with the clear stop or error the
command line promises.

No test here measures wall-clock time: a deadline already past must stop each step
before its work, and the work that once took minutes is checked by what it gives.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from excover import ExactCover, LimitReached
from excover.main import main
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
