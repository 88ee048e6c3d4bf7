"""The frontier count as the search's rival in the route choice's race: its share of
the race follows its projected remaining time (``FrontierRunner.weight``), and a count
that may be stopped is stopped within a layer whose states each meet many options."""

from __future__ import annotations

from pathlib import Path

import pytest

from excover import ExactCover, counting
from excover.counting import choice, routes
from excover.zdd import frontier

KNUTH = Path(__file__).parent / "data" / "knuth"


def runner_of(name: str) -> routes.FrontierRunner:
    """The frontier count of one of Knuth's files in its wide layout, as a runner."""
    laid = frontier.wide_layout(ExactCover.read(KNUTH / f"{name}.dlx"))
    assert laid is not None
    return routes.FrontierRunner(laid)


def test_the_projection_is_the_layers_to_come_at_the_pace_so_far() -> None:
    """Before any step nothing is known (infinite); after some steps, the seconds spent
    times the layers to come over the layers done (at least one)."""
    runner = runner_of("scott")
    assert runner.remaining() == float("inf")
    while runner.counting is None or runner.counting.done < 3:
        assert runner.advance(0.0005) is None
    done = runner.counting.done
    expected = runner.seconds * (runner.laid_out.n_items - done) / done
    assert runner.remaining() == pytest.approx(expected)


def test_the_share_drops_only_while_the_count_is_far_behind_its_rival() -> None:
    """No rival yet: 1. A rival that has spent more than the projection over BEHIND:
    1. A rival far behind the projection: LOW_WEIGHT; the same count gets 1 back once
    the rival's time catches up."""
    runner = runner_of("pento5x12")
    while runner.counting is None or runner.counting.done < 4:
        assert runner.advance(0.002) is None
    projected = runner.remaining()
    assert 0.0 < projected < float("inf")
    assert runner.weight() == 1.0
    assert runner.weight(rival_seconds=projected / routes.BEHIND / 10) == routes.LOW_WEIGHT
    assert runner.weight(rival_seconds=2 * projected / routes.BEHIND) == 1.0


def test_a_search_that_wins_leaves_the_frontier_count_a_small_share() -> None:
    """Scott's pentomino puzzle: the frontier count's states multiply layer after layer
    (it would take seconds and gigabytes), the search counts it in some tens of
    milliseconds; auto's race ends on the search with the frontier count at the low
    share, and it had well under the search's CPU time (an even race gave it as much)."""
    problem = ExactCover.read(KNUTH / "scott.dlx")
    found = counting.count(problem)
    assert found.count == 520 and found.route == "bits"
    assert f"frontier {routes.LOW_WEIGHT:.3g}" in found.reason
    assert found.work["frontier"].seconds < 0.75 * found.work["bits"].seconds


def test_a_stoppable_count_stops_inside_a_layer_of_many_options() -> None:
    """Asked to stop at once after each group, the count of Scott's puzzle stops inside
    its fourth layer (about 31,000 states, each meeting the options of a piece item:
    one default group held it whole) before finishing it; on to the fifth, every stop
    comes back with the count able to go on."""
    runner = runner_of("scott")
    counting_run = frontier.start(runner.laid_out)
    calls_in_layer: dict[int, int] = {}
    while counting_run.done < 4:
        before = counting_run.done
        assert counting_run.advance(None, lambda: True) is None
        calls_in_layer[before] = calls_in_layer.get(before, 0) + 1
    assert calls_in_layer[3] > 2  # the fourth layer (index 3) took several calls


def test_a_race_on_a_latin_square_counts_what_both_routes_count() -> None:
    """A partial Latin square of order 8, of the frontier count's kind and the search's:
    auto's race, with the frontier count's share following its projection, counts what
    the two routes forced count."""
    from test_frontier_wide import partial_latin

    problem = partial_latin(8, 20, 3)
    found = counting.count(problem)
    assert [runner.name for runner in choice.candidates(problem)] == ["bits", "frontier"]
    assert found.count == counting.count(problem, route="frontier").count
    assert found.count == counting.count(problem, route="bits").count
