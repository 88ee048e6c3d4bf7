"""``count(method="auto")``: the race of counting routes, its report, and its limits.

Every route of :data:`excover.counting.ROUTES` must give the brute-force count on random
instances, auto must agree with them, the report must name the route that really counted,
and the race must stop at its deadline and at Ctrl-C.
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import jsonschema
import pytest
from budget import examples
from builders import Instance, dominoes, instances, queens
from hypothesis import HealthCheck, given, settings

from excover import ExactCover, LimitReached, ResourceLimitError, UsageError, counting
from excover.cli import common
from excover.counting import choice, routes
from excover.main import main

TESTS = Path(__file__).parent
FUZZ = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def every_route(problem: ExactCover) -> dict[str, int]:
    """The count of each route that takes ``problem``, forced one by one."""
    counts = {}
    for name in counting.ROUTES:
        try:
            found = counting.count(problem, route=name)
        except UsageError:
            continue
        assert found.route == name and found.reason == f"asked for (route={name!r})"
        counts[name] = found.count
    return counts


@FUZZ
@given(data=instances("X"))
def test_auto_and_every_route_give_the_brute_force_count(data: Instance) -> None:
    problem = data.build()
    expected = len(data.all_covers())
    found = counting.count(problem)
    assert found.count == expected == problem.count()
    assert found.route in found.work  # the route that finished did work
    counts = every_route(problem)
    assert {"dlx", "dxz"} <= set(counts)
    assert set(counts.values()) == {expected}


@pytest.mark.parametrize("kind", ["XCC", "MCC"])
def test_auto_agrees_on_colors_and_multiplicities(kind: str) -> None:
    @FUZZ
    @given(data=instances(kind))  # type: ignore[arg-type]
    def check(data: Instance) -> None:
        problem = data.build()
        expected = len(data.all_covers())
        assert counting.count(problem).count == expected
        assert set(every_route(problem).values()) == {expected}

    check()


def test_the_frontier_count_takes_tilings_without_a_race() -> None:
    found = counting.count(dominoes(8, 8))
    assert (found.count, found.route, found.method) == (12988816, "frontier", "zdd")
    assert set(found.work) == {"frontier"} and found.work["frontier"].steps == 1
    assert "no race" in found.reason


def shuffled_strips(lengths: list[int], seed: int = 5) -> ExactCover:
    """Domino tilings of 2 x n strips side by side (one per length, apart), the cells
    and the options in a shuffled order: the items' own order is far too wide for the
    frontier count, the order it picks is narrow."""
    import random

    shuffle = random.Random(seed).shuffle
    cells = [f"s{s}r{i}c{j}" for s, n in enumerate(lengths) for i in range(2) for j in range(n)]
    shuffle(cells)
    options = []
    for s, n in enumerate(lengths):
        for j in range(n):
            options.append([f"s{s}r0c{j}", f"s{s}r1c{j}"])
            if j + 1 < n:
                options += [[f"s{s}r{i}c{j}", f"s{s}r{i}c{j + 1}"] for i in range(2)]
    shuffle(options)
    problem = ExactCover(primary=cells)
    for option in options:
        problem.add_option(option)
    return problem


def strip_tilings(n: int) -> int:
    """The domino tilings of a 2 x n strip: the Fibonacci number F(n + 1)."""
    a, b = 1, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return b


def test_the_frontier_counts_a_big_problem_in_its_first_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A problem past the scout's size, of the frontier count's kind but too wide in its
    own order, is counted by the frontier count in its order of few states within its
    first slice: no look for parts, no engine. (The slice is made long enough for any
    machine's load: the count takes a few milliseconds.)"""
    monkeypatch.setattr(choice, "FIRST_SLICE", 60.0)
    problem = shuffled_strips([1100])
    assert len(problem.engine_input().node_item) > choice.SCOUT_FIRST
    assert problem.engine_input().n_primary >= choice.SLICE_MIN_ITEMS
    found = counting.count(problem)
    assert found.count == strip_tilings(1100)
    assert (found.route, set(found.work)) == ("frontier", {"frontier"})
    assert "first slice" in found.reason


def test_a_first_slice_that_does_not_finish_loses_no_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no time for the slice, the choice goes on as before it: the parts route on a
    problem that falls apart (its report keeps the slice's work), the frontier count
    after reordering on one that does not; both count right."""
    monkeypatch.setattr(choice, "FIRST_SLICE", 0.0)
    monkeypatch.setattr(choice, "SLICE_PER_NODE", 0.0)
    apart = counting.count(shuffled_strips([700, 900]))
    assert apart.count == strip_tilings(700) * strip_tilings(900)
    assert apart.route == "parts" and "frontier" in apart.work
    assert "first slice" not in apart.reason
    whole = counting.count(shuffled_strips([1100]))
    assert whole.count == strip_tilings(1100) and "first slice" not in whole.reason


def test_small_or_other_problems_get_no_first_slice() -> None:
    """Below the scout's size, below :data:`SLICE_MIN_ITEMS` primary items, or with a
    secondary item, no slice is planned."""
    assert choice.plan(shuffled_strips([30])).then is None  # the scout first
    assert choice.plan(queens(12)).then is None  # secondary items
    narrow = shuffled_strips([60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60])
    assert narrow.engine_input().n_primary >= choice.SLICE_MIN_ITEMS
    assert choice.plan(narrow).then is not None


def test_a_race_names_its_racers_and_its_winner() -> None:
    """queens(13) takes the search a million nodes, past the time after which its rivals
    join; queens(9) ends before that, in the search alone."""
    found = counting.count(queens(13))
    assert found.count == 73712
    assert found.route in ("bits", "dxz") and found.method in ("search", "zdd")
    assert "race of bits, dxz" in found.reason
    assert found.work[found.route].steps >= 1
    assert counting.count(queens(13), engine="cells").work.keys() <= {"cells", "dxz"}
    early = counting.count(queens(9))
    assert (early.count, early.route, set(early.work)) == (352, "bits", {"bits"})
    assert "before its rivals joined the race" in early.reason


def test_search_options_make_one_dancing_links_search() -> None:
    found = counting.count(queens(8), heuristic="leftmost")
    assert (found.count, found.method) == (92, "search")
    assert set(found.work) == {found.route} and "search options" in found.reason
    with pytest.raises(UsageError, match="route='dxz' takes no search options"):
        counting.count(queens(8), route="dxz", heuristic="leftmost")
    with pytest.raises(UsageError, match="unknown route"):
        counting.count(queens(8), route="magic")
    with pytest.raises(UsageError, match="does not take this problem"):
        counting.count(queens(8), route="frontier")


def test_dxz_wins_where_dancing_links_drowns_in_solutions() -> None:
    """Dominoes with one secondary item per row (so no frontier count): DXZ merges the
    repeated sub-problems (alone, or inside the component count, which hands a problem
    that does not split to DXZ), the search must visit all 12,988,816 tilings."""
    problem = dominoes(8, 8)
    tagged = ExactCover(primary=problem.primary_items, secondary=["tag"])
    for option in range(problem.n_options):
        tagged.add_option([*problem.option_items(option), "tag:x"])
    found = counting.count(tagged, preprocess=False)
    assert found.count == 12988816 and found.route in ("dxz", "components")
    assert found.work["dxz"].nodes > 0 and found.work["bits"].nodes > 0
    assert found.preprocessed is None


def test_preprocessing_can_hand_the_count_to_a_faster_route() -> None:
    """The same problem with the race's preprocessing (the default): once the search
    projects a long count, preprocessing drops the tag (every option gives it one color,
    so it keeps no two options apart), and what is left is plain dominoes, the frontier
    count's."""
    problem = dominoes(8, 8)
    tagged = ExactCover(primary=problem.primary_items, secondary=["tag"])
    for option in range(problem.n_options):
        tagged.add_option([*problem.option_items(option), "tag:x"])
    found = counting.count(tagged)
    assert found.count == 12988816 and found.route == "frontier"
    assert found.preprocessed is not None and found.preprocessed.items_removed == 1
    assert found.reason.startswith("preprocessed once the search")
    assert found.work["bits"].nodes > 0  # the search that projected the long count


def test_a_huge_sparse_problem_does_not_stall_the_search_steps() -> None:
    """20,000 primary items, one option each with a shared colored secondary item: every
    MRV node scans all active items, so a step's node budget is far too dear; the
    step's clock ends it, and DXZ (linear here) wins."""
    n = 20_000
    problem = ExactCover(primary=n, secondary=["s"])
    for item in range(n):
        problem.add_option([item, "s:c"])
    found = counting.count(problem)
    assert (found.count, found.route) == (1, "dxz")


class Failing(routes.Runner):
    """A route that runs out of memory at its first step."""

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        raise ResourceLimitError("no memory left")


class Idle(routes.Runner):
    """A route that finishes after ``needs`` seconds of CPU time in all (never, by
    default): each step spins for its time; ``share`` is its weight in the race."""

    def __init__(self, name: str, needs: float = float("inf"), share: float = 1.0) -> None:
        super().__init__(name)
        self.needs = needs
        self.share = share

    def weight(self, rival_seconds: float = 0.0, rival_left: float = math.inf) -> float:
        return self.share

    def _step(self, seconds: float | None, deadline: float | None) -> int | None:
        assert seconds is not None or self.needs < float("inf")  # never alone forever
        left = self.needs - self.seconds
        spin = left if seconds is None else min(seconds, left)
        until = time.process_time() + spin
        while time.process_time() < until:
            pass
        return 1 if spin >= left else None


def test_each_route_gets_its_weight_of_the_race() -> None:
    """A route of weight 0.25 racing one of weight 1 that needs 60 ms: when that one
    finishes, the other has had about a quarter of its time (CPU time; the bounds allow
    for the steps' granularity)."""
    fast, slow = Idle("bits", needs=0.06), Idle("dxz", share=0.25)
    assert choice.race([fast, slow]) is fast
    assert 0.1 * fast.seconds < slow.seconds < 0.45 * fast.seconds


def test_rivals_join_only_after_the_searchs_first_milliseconds() -> None:
    """The rivals are made (a look for splits, DXZ's links) once the race has given
    RIVALS_AFTER seconds: a count shorter than that never makes them."""
    made: list[routes.Runner] = []

    def rivals() -> list[routes.Runner]:
        made.append(Idle("dxz"))
        return made[-1:]

    quick = Idle("bits", needs=choice.RIVALS_AFTER / 4)
    runners: list[routes.Runner] = [quick]
    assert choice.race(runners, rivals=rivals) is quick and made == []
    slow = Idle("bits", needs=4 * choice.RIVALS_AFTER)
    runners = [slow]
    assert choice.race(runners, rivals=rivals) is slow
    assert len(made) == 1 and runners == [slow, made[0]] and made[0].steps > 0


def test_dxz_weighs_by_its_memo_hits() -> None:
    """DXZ's share of the race: low until it has evidence, low while few of its nodes
    hit the memo, high where many do, in between by the rate."""
    runner = routes.DxzRunner(queens(6))
    low, high = routes.HIT_RATES
    assert runner.weight() == routes.LOW_WEIGHT  # no nodes yet
    runner._nodes, runner.hits = routes.HIT_EVIDENCE - 1, routes.HIT_EVIDENCE - 1
    assert runner.weight() == routes.LOW_WEIGHT  # too few nodes to tell
    runner._nodes = 10_000
    cases = [(0.0, routes.LOW_WEIGHT), (low, routes.LOW_WEIGHT), (0.9, routes.HIGH_WEIGHT)]
    for rate, weight in cases:
        runner.hits = int(rate * runner._nodes)
        assert runner.weight() == pytest.approx(weight)
    runner.hits = int((low + high) / 2 * runner._nodes)
    assert runner.weight() == pytest.approx((routes.LOW_WEIGHT + routes.HIGH_WEIGHT) / 2)


def test_a_route_out_of_memory_leaves_the_race() -> None:
    search = routes.SearchRunner(queens(8), "dlx")
    assert choice.race([Failing("dxz"), search]) is search and search.count == 92
    with pytest.raises(ResourceLimitError, match="no memory"):
        choice.race([Failing("dxz"), Failing("components")])


def test_a_route_that_cannot_pause_starts_again_with_longer_steps() -> None:
    """A restarting route needing 30 ms of uninterrupted time finishes once a step
    is that long, after its shorter steps were thrown away. Its time is CPU time, as the
    race's steps are: time this process spends descheduled counts for neither."""
    calls = []

    def count_until(stop: object) -> int | None:
        calls.append(1)
        begun = time.process_time()
        while time.process_time() - begun < 0.03:
            if stop():  # type: ignore[operator]
                return None
        return 7

    runner = routes.Restarting("components", count_until)
    assert choice.race([Idle("dlx"), runner]) is runner and runner.count == 7
    assert len(calls) == runner.steps >= 2
    alone = routes.Restarting("components", count_until)
    assert choice.race([alone]) is alone and alone.steps == 1  # alone: one try, to the end


def test_the_components_route_races_only_where_it_counts() -> None:
    """The component count races (in DXZ's place) on problems that split and that the
    frontier count does not take (a secondary item), and counts right when forced on
    one that does not split; a problem with multiplicities leaves it out, and forcing it
    there is a clear error (never a wrong count)."""
    found = counting.count(queens(7), route="components")
    assert (found.count, found.route) == (40, "components")
    assert [r.name for r in choice.candidates(queens(7))] == ["bits", "dxz"]
    for secondary in ([], ["s"]):
        primary = [f"{side}{k}" for side in "ab" for k in range(8)]
        twice = ExactCover(primary=primary, secondary=secondary)
        for side in "ab":  # two copies of 8 items covered by pairs: 105 ways each
            for i in range(8):
                for j in range(i + 1, 8):
                    twice.add_option([f"{side}{i}", f"{side}{j}"])
        if secondary:  # an option of its own: the count is the same
            twice.add_option(["a0", "a1", "s"])
        rival = "components" if secondary else "frontier"
        assert [r.name for r in choice.candidates(twice)] == ["bits", rival]
        assert counting.count(twice).count == twice.count(method="search")
    multiple = ExactCover(primary=["a", "b"])
    multiple.set_multiplicity("a", 1, 2)
    for options in (["a"], ["a"], ["a", "b"], ["b"]):
        multiple.add_option(options)
    assert "components" not in [r.name for r in choice.candidates(multiple)]
    assert counting.count(multiple).count == multiple.count(method="search")
    with pytest.raises(UsageError, match="does not take"):
        counting.count(multiple, route="components")


def test_a_timeout_stops_the_race_with_the_search_partial_count() -> None:
    begun = time.monotonic()
    with pytest.raises(LimitReached) as stopped:
        queens(16).count(timeout=0.1)
    assert time.monotonic() - begun < 30.0  # generous: a stop, not a speed
    assert stopped.value.reason == "timeout"
    # how far the search got in 0.1 s depends on the machine's load (on a busy one the
    # limit can pass before its first step): its partial count, not its progress
    found = stopped.value.stats
    assert found.engine == "bits" and not found.complete and found.solutions < 14_772_512
    with pytest.raises(LimitReached):
        counting.count(queens(16), route="dxz", timeout=0.05)


def test_ctrl_c_stops_the_race() -> None:
    timer = threading.Timer(0.2, lambda: signal.raise_signal(signal.SIGINT))
    begun = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            counting.count(queens(16))
    finally:
        timer.cancel()
    assert time.monotonic() - begun < 30.0  # generous: a stop, not a speed


VALIDATOR = jsonschema.Draft202012Validator(common.schema())


def test_the_command_line_reports_the_route(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q13.dlx"  # past the search's scout and the rivals' start: a race
    path.write_text(queens(13).to_dlx())
    assert main(["count", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == "73712\n"
    assert "excover: route " in err and "race of bits, dxz" in err
    assert main(["count", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    VALIDATOR.validate(doc)
    assert doc["count"] == 73712 and doc["route"]["name"] in doc["route"]["work"]
    assert doc["method"] == ("search" if doc["route"]["name"] == "bits" else "zdd")
    small = tmp_path / "q8.dlx"
    small.write_text(queens(8).to_dlx())
    assert main(["count", str(small), "--route", "dxz", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    VALIDATOR.validate(doc)
    assert (doc["count"], doc["method"], doc["route"]["name"]) == (92, "zdd", "dxz")
    assert main(["count", str(path), "--route", "dxz", "--method", "search"]) == 2
    assert "--route forces one route of --method auto" in capsys.readouterr().err
    assert main(["count", str(path), "--route", "dxz", "--limit", "3"]) == 2


def test_the_command_line_timeout_stops_the_race(tmp_path: Path) -> None:
    path = tmp_path / "q16.dlx"
    path.write_text(queens(16).to_dlx())
    done = subprocess.run(
        [sys.executable, "-m", "excover", "count", str(path), "--timeout", "0.2", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    doc = json.loads(done.stdout)
    VALIDATOR.validate(doc)
    assert doc["stopped_by"] == "timeout" and isinstance(doc["count"], int)


def test_a_parallel_count_scouts_its_method_with_the_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """``workers=``/``tasks=`` counts resolve ``auto`` once: the frontier count's problems
    go to the ZDD method (counted on the workers' threads), others to the race's
    finisher, with the count when the race already found it. As in a count, the search
    scouts alone before its rivals join: 8 queens end within its scout. The scout's
    time (wall clock) is made long: which method wins is the question here, not whether
    a loaded machine lets the race finish within half a second."""
    monkeypatch.setattr(choice, "SCOUT_SECONDS", 60.0)
    assert choice.scout(dominoes(6, 6)) == ("zdd", None)
    assert choice.scout(queens(8)) == ("search", 92)
    # Scott's board with its X pinned by the board's symmetry: a search of some 0.02 s,
    # which DXZ, racing it from the start on an even share, used to beat now and then
    from excover.tiling import Pattern, Tile, Tiling, pentominoes

    board = Pattern.from_ascii("\n".join(["*" * 8] * 3 + ["***..***"] * 2 + ["*" * 8] * 3))
    tiling = Tiling(board, [Tile(shape) for shape in pentominoes().values()])
    pinned = tiling.board_symmetry(None).total()
    assert pinned is not None and choice.scout(pinned.problem) == ("search", 65)
    assert queens(8).count(workers=1, tasks=4) == 92


def test_the_choices_copies_of_the_frontier_counts_limits_agree() -> None:
    """The choice tells some problems from the frontier count's without loading its
    module, by copies of two of its limits: they must stay equal to the originals."""
    from excover.zdd import frontier

    assert routes.FRONTIER_SPAN == frontier.MAX_SPAN - 1
    assert choice.REORDER_MIN_ITEMS == frontier.REORDER_MIN_ITEMS
    wide = ExactCover(primary=70)
    wide.add_option([0, 69])
    assert routes._too_wide(wide)
    assert routes.frontier_runner(wide, reorder=False, wide=False) is None
    assert routes.frontier_runner(wide, reorder=False) is not None  # a wide window takes it
    assert frontier.layout(wide, reorder=False) is None  # the compiled test agrees
