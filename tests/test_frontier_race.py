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


def test_the_frontier_count_takes_the_lead_by_time_or_by_far_and_keeps_it_while_ahead() -> None:
    """frontier_leads(frontier_left, search_seconds, search_left, leading): never past a
    LEAD-th of the search's projection; to take the lead, within BEHIND times the
    search's time or FAR_AHEAD times ahead of its projection; once leading, only the
    first test; against a search that projects nothing, only the test on its time."""
    lead, behind, far = routes.LEAD, routes.BEHIND, routes.FAR_AHEAD
    leads = routes.frontier_leads
    assert not leads(1.0, 100.0, 1.9 * lead / 2, False)  # past a LEAD-th of the search's
    assert not leads(1.0, 100.0, 1.9 * lead / 2, True)
    assert leads(1.0, 1.0 / behind, lead * 1.0, False)  # within BEHIND x its time
    assert not leads(1.0, 0.9 / behind, lead * 1.0, False)
    assert leads(1.0, 0.0, far * 1.0, False)  # far ahead: at its word
    assert not leads(1.0, 0.0, 0.9 * far, False)
    assert leads(1.0, 0.0, lead * 1.0, True)  # leading: kept while within a LEAD-th
    assert leads(1.0, 1.0 / behind, float("inf"), False)
    assert not leads(1.0, 0.9 / behind, float("inf"), True)  # no projection: time alone


def test_a_search_led_by_far_takes_the_low_share() -> None:
    """The search's weight mirrors the frontier count's: LOW_WEIGHT while the frontier
    count leads it (far ahead of its projection), 1 again once it no longer does."""
    problem = ExactCover.read(KNUTH / "pento6x10.dlx")
    search = routes.SearchRunner(problem, "bits")
    while search.seconds < 0.03:
        assert search.advance(0.01) is None
    projected = search.remaining()
    assert 0.0 < projected < float("inf")
    assert search.weight(0.01, projected / (2 * routes.FAR_AHEAD)) == routes.LOW_WEIGHT
    assert search.weight(0.01, projected / routes.LEAD / 1.1) == routes.LOW_WEIGHT  # kept
    assert search.weight(0.01, projected) == 1.0
    assert search.weight(0.01, float("inf")) == 1.0


def test_a_count_the_frontier_wins_by_far_leaves_the_search_a_small_share() -> None:
    """A partial Latin square of order 8 with 18 cells given (2,836,824 completions):
    the frontier count takes about 0.16 s, the search about 2 s. The frontier count
    leads at once (its projection far ahead of the search's), and auto ends on it with
    the search at the low share (an even race gave the search as much time)."""
    from test_frontier_wide import partial_latin

    problem = partial_latin(8, 18, 2)
    found = counting.count(problem, preprocess=False)
    assert found.count == 2836824 and found.route == "frontier"
    assert f"bits {routes.LOW_WEIGHT:.3g}" in found.reason
    assert found.work["bits"].seconds < 0.5 * found.work["frontier"].seconds
