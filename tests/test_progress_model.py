"""The one model of progress (:class:`excover.parallel.progress.Meter`) and the bars that
draw from it: the share never goes back and reaches 1 only at the end, the time left is
shown only once it means something and never as 0 before the end, and every route of a
count (search engines, the frontier count, DXZ, the component count, the race) ends its
bar at 100% exactly. Time is a fake clock wherever it matters; no wall-clock figure is
asserted."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from excover import ExactCover
from excover.cli.progress import JsonProgress, Progress
from excover.counting import routes
from excover.counting.by_routes import RaceBar
from excover.names import METHOD_TRAITS, METHODS, ROUTES
from excover.parallel.progress import (
    MIN_SECONDS,
    Forecast,
    LocalTasks,
    Meter,
    duration,
)
from excover.solving import orchestrate
from excover.solving.request import Request

KNUTH = Path(__file__).parent / "data" / "knuth"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_time_left_follows_a_steady_pace_and_is_shown_only_once_it_means_something() -> None:
    clock = Clock()
    meter = Meter(clock)
    assert meter.left() is None  # nothing noted
    seen = []
    for step in range(1, 101):  # 1% a second: a run of 100 s
        clock.now += 1.0
        meter.note(step / 100)
        seen.append((step, meter.left()))
    assert seen[0][1] is None  # too early: one look, under MIN_SECONDS of pace
    for step, left in seen[10:99]:
        assert left is not None and left == pytest.approx(100 - step, rel=1e-6)


def test_the_share_never_goes_back_and_reaches_one_only_at_the_end() -> None:
    clock = Clock()
    meter = Meter(clock)
    shown = []
    for share in (0.1, 0.3, 0.2, 0.5, 1.0, 1.0):
        clock.now += 1
        meter.note(share)
        assert meter.share is not None
        shown.append(meter.share)
    assert shown == sorted(shown)
    assert max(shown) < 1.0
    meter.finish()
    assert meter.share == 1.0 and meter.left() == 0.0


def test_a_stalled_share_shows_no_time_left_rather_than_zero() -> None:
    """At 99.9% of an estimate that was too small the pace is nil: the time left is
    unknown (None), never 0, until the run ends."""
    clock = Clock()
    meter = Meter(clock)
    for step in range(1, 30):
        clock.now += 1
        meter.note(min(step / 20, 1.0))
    assert meter.left() is None
    assert duration(0.2) == "<1 s" and duration(0.0) != "0 s"


def test_a_run_with_no_measure_has_no_share_and_no_time_left() -> None:
    clock = Clock()
    meter = Meter(clock)
    for _ in range(10):
        clock.now += 1
        meter.note(None)
    assert meter.share is None and meter.left() is None
    assert meter.reading()["fraction"] is None


def test_the_window_follows_a_pace_that_changes() -> None:
    """Slow for 50 s (0.2%/s), then five times faster: the time left soon follows the
    new pace, not the average since the start."""
    clock = Clock()
    meter = Meter(clock)
    share = 0.0
    for _ in range(50):
        clock.now += 1
        share += 0.002
        meter.note(share)
    for _ in range(60):
        clock.now += 1
        share += 0.01
        meter.note(share)
    left = meter.left()
    assert left is not None
    truth = (1 - share) / 0.01
    assert truth / 2 <= left <= truth * 2


def test_a_run_s_own_time_left_counts_down_between_two_notes() -> None:
    clock = Clock()
    meter = Meter(clock)
    clock.now += MIN_SECONDS
    meter.note(0.5, left=10.0)
    clock.now += 4
    assert meter.left() == pytest.approx(6.0)


class FakeTqdm:
    """What :class:`Progress` asks of a tqdm bar, with what it showed."""

    def __init__(self, total: float | None = None) -> None:
        self.n = 0.0
        self.total = total
        self.postfix: dict[str, object] = {}
        self.shown: list[tuple[float, float | None, dict[str, object]]] = []

    def set_postfix(self, postfix: dict[str, object], refresh: bool = False) -> None:
        self.postfix = postfix

    def update(self, amount: float) -> None:
        self.n += amount
        self.shown.append((self.n, self.total, dict(self.postfix)))

    def close(self) -> None:
        pass


def percent(n: float, total: float | None) -> int:
    """The percentage tqdm prints (rounded)."""
    return round(100 * n / total) if total else -1


def test_the_bar_shows_100_percent_only_when_finished() -> None:
    clock = Clock()
    tqdm = FakeTqdm()
    bar = Progress(tqdm, clock)
    for nodes in range(0, 1001, 50):
        clock.now += 0.5
        bar.set(nodes * 0.999, 1000)  # an estimate the search reaches just short of
    assert all(percent(n, total) < 100 for n, total, _ in tqdm.shown)
    assert all(post.get("left") != "0 s" for _, _, post in tqdm.shown)
    assert any("left" in post for _, _, post in tqdm.shown)
    bar.finish(1234)
    assert tqdm.shown[-1][:2] == (1234, 1234)
    assert "left" not in tqdm.shown[-1][2]


def test_a_bar_whose_total_is_reached_ends_at_100_percent() -> None:
    """A bar of exact work (placements found, of all) ends when the work is all done."""
    tqdm = FakeTqdm()
    bar = Progress(tqdm, Clock())
    bar.set(10, 10)
    assert tqdm.shown[-1][:2] == (10, 10)


def test_json_progress_events_carry_the_model_s_reading(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    bar = JsonProgress("count", "node", None, clock)
    for step in range(1, 31):
        clock.now += 0.25
        bar.set(step, 40)
    bar.finish(40)
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert len(events) >= 5
    assert all(e["type"] == "progress" and e["what"] == "count" for e in events)
    assert all(e["fraction"] < 1 and not e["finished"] for e in events[:-1])
    assert events[-1]["fraction"] == 1.0 and events[-1]["finished"] and events[-1]["left"] == 0
    assert any(e["left"] is not None and e["left"] > 0 for e in events[:-1])


def test_local_tasks_move_while_tasks_run_and_reach_one_only_at_the_end() -> None:
    """Four tasks on two workers, handed out biggest first: the share grows while they
    run, stays below 1, and the time left is known once one has finished."""
    clock = Clock()
    sizes = [400.0, 300.0, 200.0, 100.0]
    tasks = LocalTasks(sizes, [0, 1, 2, 3], 2, sum(sizes), clock)
    assert tasks.remaining() is None
    clock.now += 3
    tasks.finished(1, 300, True)
    first = tasks.share(300.0, [1])
    clock.now += 1
    assert tasks.share(300.0, [1]) > first  # the tasks running moved it
    assert tasks.remaining() is not None and tasks.remaining() > 0  # type: ignore[operator]
    for index in (0, 2, 3):
        clock.now += 2
        tasks.finished(index, int(sizes[index]), True)
    assert tasks.share(1000.0, [0, 1, 2, 3]) == pytest.approx(1.0)


class Recorder:
    """A bar that records what the run set on it."""

    shown = True

    def __init__(self) -> None:
        self.sets: list[tuple[float, float | None]] = []
        self.finished: float | None = None
        self.closed = False

    def set(
        self, done: float, total: float | None = None, *, left: float | None = None, **_: object
    ) -> None:
        self.sets.append((done, total))

    def update(self, amount: float = 1) -> None:
        pass

    def finish(self, done: float | None = None, **postfix: object) -> None:
        self.finished = done

    def close(self) -> None:
        self.closed = True


#: Every route of ``route=`` but ``parts``, which takes only a problem of independent
#: parts (none here).
ROUTE_CASES = [route for route in ROUTES if route != "parts"]

#: The methods that are one route, not a choice among routes (``auto``: the routes
#: above), and draw a bar (a SAT solver draws none).
BAR_METHODS = [m for m in METHODS if not METHOD_TRAITS[m].chooses and not METHOD_TRAITS[m].solver]


@pytest.mark.parametrize("route", ROUTE_CASES)
def test_every_route_ends_its_bar_at_100_percent(route: str) -> None:
    bars: list[Recorder] = []

    def make(description: str, unit: str) -> Recorder:
        bars.append(Recorder())
        return bars[-1]

    problem = ExactCover.read(KNUTH / ("domino8x8.dlx" if route == "frontier" else "queens10.dlx"))
    outcome = orchestrate.count(problem, Request("auto", route=route, bar=make))
    assert outcome.stopped_by is None
    assert bars and all(bar.closed for bar in bars)
    assert bars[-1].finished == 100
    assert all(done < total for done, total in bars[-1].sets if total)


@pytest.mark.parametrize("method", BAR_METHODS)
def test_a_method_s_bar_ends_at_its_work_done(method: str) -> None:
    bars: list[Recorder] = []

    def make(description: str, unit: str) -> Recorder:
        bars.append(Recorder())
        return bars[-1]

    searches = METHOD_TRAITS[method].searches
    problem = ExactCover.read(KNUTH / ("queens10.dlx" if searches else "domino8x8.dlx"))
    outcome = orchestrate.count(problem, Request(method, bar=make))
    assert outcome.stopped_by is None
    assert bars and bars[-1].closed
    if searches:
        assert bars[-1].finished == outcome.stats["nodes"]


def test_the_race_bar_follows_the_route_ahead_and_counts_up_without_a_measure() -> None:
    """The watcher draws the share of the unfinished runner furthest ahead; with only a
    runner that measures nothing, no total (the bar counts up)."""
    clock = Clock()
    bar = Recorder()
    watch = RaceBar(bar, clock)
    problem = ExactCover.read(KNUTH / "pento6x10-xq.dlx")
    blind = routes.Restarting("blind", lambda stop: None)  # a route that measures nothing
    blind.advance(0.001)
    clock.now += 1
    watch(blind)
    assert bar.sets[-1] == (0, 0)
    dxz = routes.DxzRunner(problem)  # DXZ measures the share of its tree walked
    dxz.advance(0.01)
    clock.now += 1
    watch(dxz)
    done, total = bar.sets[-1]
    assert total == 100 and 0 < done < 100
    search = routes.SearchRunner(problem, "bits")
    search.advance(0.05)
    clock.now += 1
    watch(search)
    done, total = bar.sets[-1]
    assert total == 100 and 0 < done < 100
    assert watch.running is search


def test_an_interrupted_race_names_the_route_and_the_search_s_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C during the race: the outcome names the route that was running (not
    ``auto``) and gives the solutions so far of the search that walked most."""
    from excover.counting import choice

    problem = ExactCover.read(KNUTH / "pento6x10.dlx")
    tell = routes._tell

    def interrupting(runner: routes.Runner) -> None:
        tell(runner)
        if isinstance(runner, routes.SearchRunner) and runner.nodes > 100_000:
            raise KeyboardInterrupt

    monkeypatch.setattr(routes, "_tell", interrupting)
    monkeypatch.setattr(choice, "PREPROCESS_ABOVE", float("inf"))
    outcome = orchestrate.count(problem, Request("auto", preprocess=False))
    assert outcome.stopped_by == "interrupt"
    assert outcome.method in ("search", "zdd") and outcome.route is not None
    assert outcome.route["name"] in routes.ROUTES
    assert "Ctrl-C" in outcome.route["reason"]
    assert outcome.count is not None and outcome.count == outcome.stats["solutions"]
    assert outcome.stats["nodes"] > 100_000


def test_the_cli_bar_is_wanted_as_json_with_json_and_progress() -> None:
    from excover.cli.progress import progress

    args = argparse.Namespace(progress=True, json=True)
    assert isinstance(progress(args, desc="count", unit="node"), JsonProgress)


def apart(path: Path) -> ExactCover:
    """Two copies of the problem of DLX file ``path`` with their items renamed apart: a
    problem that falls apart into two parts."""
    rows = [line.split() for line in path.read_text().splitlines()]
    rows = [row for row in rows if row and not row[0].startswith("|")]
    head = rows[0] + ["|"] * ("|" not in rows[0])
    cut = head.index("|")

    def renamed(k: str, names: list[str]) -> list[str]:
        return [f"{k}.{name}" for name in names]

    items = [*renamed("a", head[:cut]), *renamed("b", head[:cut]), "|"]
    items += [*renamed("a", head[cut + 1 :]), *renamed("b", head[cut + 1 :])]
    text = [" ".join(items)] + [" ".join(renamed(k, row)) for k in "ab" for row in rows[1:]]
    return ExactCover.from_dlx("\n".join(text) + "\n")


def test_the_parts_route_s_bar_moves_on_over_the_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two parts, each raced: the bar shows the whole count's share (the parts counted
    and the share of the one under way), which never goes back when the second part
    starts, passes the middle while that part runs, and ends at 100%."""
    from excover.counting import by_routes

    monkeypatch.setattr(by_routes, "DRAW_EVERY", 0.0)
    bars: list[Recorder] = []

    def make(description: str, unit: str) -> Recorder:
        bars.append(Recorder())
        return bars[-1]

    problem = apart(KNUTH / "queens10.dlx")
    outcome = orchestrate.count(problem, Request("auto", bar=make))
    assert outcome.count == 724 * 724 and outcome.route is not None
    assert outcome.route["name"] == "parts"
    shares = [done for done, total in bars[-1].sets if total]
    assert shares == sorted(shares)
    assert any(50 <= share < 100 for share in shares)
    assert bars[-1].finished == 100


def test_a_task_that_outran_every_finished_one_shows_more_time_left_as_it_runs() -> None:
    """Six tasks of one size finished in a second each; a seventh of the same size runs
    on and on: past them, its time left grows with the time it has run (it is taken to
    go on as long again), never dwindling to nothing."""
    forecast = Forecast(700.0)
    for _ in range(6):
        forecast.finished(1.0, 100.0, 100)
    lefts = [forecast.remaining([(100.0, ran)], [], 2) for ran in (2.0, 4.0, 8.0, 16.0)]
    assert all(left is not None for left in lefts)
    assert lefts == sorted(lefts)  # type: ignore[type-var]
    assert lefts[-1] is not None and lefts[-1] >= 8.0


def test_an_estimate_beyond_those_finished_is_taken_at_its_word() -> None:
    """Finished tasks estimated 1,000 to 6,000 all took 5,000 nodes (a fit that says the
    estimates tell nothing); a task estimated 600,000 is not called a 5,000-node task:
    beyond the estimates finished, its own is its measure."""
    forecast = Forecast(700_000.0)
    for k in range(1, 7):
        forecast.finished(1.0, 1000.0 * k, 5000)
    left = forecast.remaining([(600_000.0, 0.001)], [], 2)
    assert left is not None and left >= 50.0  # a task of the finished ones' size: ~1 s


def test_the_rate_leaves_out_the_tasks_that_started_with_their_workers() -> None:
    """On one worker, the first task's time includes the worker's start (3 s for 100
    nodes), the next one's does not (1 s for 100 nodes): once the next one has finished,
    the time left for two more such tasks is that of its rate (about 2 s), not of both
    (about 4 s)."""
    clock = Clock()
    tasks = LocalTasks([100.0] * 4, [0, 1, 2, 3], 1, 400.0, clock)
    clock.now += 3
    tasks.finished(0, 100, True)
    cold = tasks.remaining()
    clock.now += 1
    tasks.finished(1, 100, True)
    warm = tasks.remaining()
    assert cold is not None and warm is not None
    assert cold > 6.0  # three tasks at the cold rate
    assert 1.5 <= warm <= 2.5


def test_a_task_just_started_is_not_expected_to_run_twice_its_expected_work() -> None:
    """Three tasks estimated 1,000 nodes took 300, 600 and 1,200 (errors spread widely;
    700 nodes a second of a worker, the fourth task expected at 700 nodes): the fourth,
    a quarter of the way, has about the rest of its expected work left, less than its
    whole (a smoothing of the errors wider than their mean, cut off at the work done
    so far, expected it to run on for twice its expected work)."""
    forecast = Forecast(2800.0)
    for nodes in (300, 600, 1200):
        forecast.finished(nodes / 700.0, 1000.0, nodes)
    left = forecast.remaining([(1000.0, 0.25)], [], 2)
    assert left is not None
    assert 0.3 <= left <= 1.0


def test_the_race_bar_keeps_its_share_once_the_route_that_measured_it_finished() -> None:
    """DXZ measured its share, then finished: the bar stays at that share until the
    close (it used to turn into a bar with no total, a share unknown, just before its
    100%)."""
    clock = Clock()
    bar = Recorder()
    watch = RaceBar(bar, clock)
    problem = ExactCover.read(KNUTH / "queens10.dlx")
    dxz = routes.DxzRunner(problem)
    dxz.advance(0.002)
    clock.now += 1
    watch(dxz)
    measured = bar.sets[-1]
    assert measured[1] == 100 and 0 < measured[0] < 100
    while dxz.count is None:
        dxz.advance(1.0)
    clock.now += 1
    watch(dxz)
    assert bar.sets[-1] == measured
    watch.close(finished=True)
    assert bar.finished == 100
