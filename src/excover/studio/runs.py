"""What a run does in its child process (:mod:`excover.studio.jobs` starts and kills it).

The child builds the design's tiling, runs its task and sends its news through a pipe as
small dicts:

- ``progress`` while the placements are found (orientations placed, of all);
- ``solving`` when the search starts (what it does, how many placements);
- ``estimate``: Knuth's estimate of the search (:func:`excover.parallel.estimate`): the
  solutions and the seconds of the whole count, sent before a long count;
- ``advance`` during a count: the share done (``fraction``, None while unknown) and the
  seconds ``left`` (None while unknown), both by the model of progress every front end
  shows (:class:`excover.parallel.progress.Meter`: never 100% before the end, never 0
  s left), the solutions counted so far, and for a count by subproblems the
  subproblems done;
- ``solutions``: solutions found (each a list of option numbers of the tiling problem),
  in batches, while a listing goes on;
- one ``result`` (or ``error``) at the end.

A count of every solution breaks the board's symmetry unless the settings say
``"break_symmetry": false``: once a short plain count has not finished it, a free tile is
pinned to one placement per orbit (:meth:`excover.tiling.symmetry.BoardSymmetry.total`)
and the smaller problem is counted as below, every count it sends (partial ones and the
estimate too) multiplied by the group's order; the result's ``symmetry`` says so. A board
without symmetry, or without a free tile, is counted as it is.

A count that the choice of route does not finish at once runs as one search for a tenth
of the checkpoint threshold (:data:`FIRST_LOOK`: a second by default), its progress the
share of the tree walked; one that has not ended by then is estimated. One of a few
seconds goes on as that search. A longer one is cut into subproblems
(:func:`excover.parallel.split`) whose counts go to a checkpoint file
(:class:`excover.parallel.checkpoint.Checkpoint`) as each one finishes: a count
cancelled, stopped by its time limit or by a closed tab keeps them, and the next count
of the same problem resumes from the file (the total is exact either way). The file goes
once the count is complete. A count holds the file's lock
(:func:`excover.parallel.checkpoint.claimed`): a second count of the same design
(another tab, a run left by an earlier studio) counts without the file, and says so in
the ``note`` of its ``advance`` and ``result`` events, as it does when a damaged file
was set aside."""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from excover.errors import ExcoverError, LimitReached, UsageError
from excover.names import METHOD_TRAITS

if TYPE_CHECKING:
    from excover.parallel.checkpoint import Checkpoint
    from excover.parallel.progress import Meter
    from excover.problem import SearchOptions
    from excover.solving import ExactCover
    from excover.studio.child import Outbox
    from excover.tiling import Tiling

__all__ = ["CHECKPOINT_ABOVE", "MAX_LISTED", "TASKS", "Settings", "work"]

#: What a run may do, with what the page shows while it runs.
TASKS = {
    "first": "looking for a solution",
    "all": "listing the solutions",
    "count": "counting the solutions",
    "count_symmetry": "counting the solutions up to symmetry",
}

#: The most solutions a listing keeps (the page pages through them).
MAX_LISTED = 100_000
#: The longest time limit, in seconds (a week).
MAX_SECONDS = 7 * 86400.0
#: Subproblems of a count by dancing links: enough for a smooth progress bar.
SUBPROBLEMS = 64
#: Random probes of the estimate sent before a long count.
ESTIMATE_SAMPLES = 128
#: A count estimated to take longer (seconds) is cut into subproblems with a checkpoint.
CHECKPOINT_ABOVE = 10.0
#: The share of that threshold a count runs as one search before it is estimated: one
#: that ends by then needs no estimate (which would cost it more than its search), and a
#: count then cut into subproblems has lost at most this share of its time.
FIRST_LOOK = 0.1
#: Seconds between two looks at a count run as one search.
SLICE = 0.25
#: Seconds between two messages of the child while it finds placements or solutions.
PROGRESS_INTERVAL = 0.1

Event = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    """The limits of a run and where its checkpoints go: ``limit`` solutions at most
    (a listing), ``seconds`` of time at most, ``up_to_symmetry`` (a listing: one
    solution per class), ``checkpoints`` a folder (None: counts keep no checkpoint),
    which counts estimated at more than ``checkpoint_above`` seconds use;
    ``break_symmetry`` (a count: by the board's symmetry, the default)."""

    limit: int | None = None
    seconds: float | None = None
    up_to_symmetry: bool = False
    checkpoints: str | None = None
    checkpoint_above: float = CHECKPOINT_ABOVE
    break_symmetry: bool = True

    @classmethod
    def from_json(
        cls, data: object, checkpoints: str | None, checkpoint_above: float = CHECKPOINT_ABOVE
    ) -> Settings:
        """The settings the page sent (``{"limit": 1000, "seconds": 60, "up_to_symmetry":
        false, "break_symmetry": true}``, each optional), checked."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise UsageError("settings: expected an object")
        limit = data.get("limit")
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LISTED
        ):
            raise UsageError(f"settings: the limit must be 1 to {MAX_LISTED} solutions")
        seconds = data.get("seconds")
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 < seconds <= MAX_SECONDS
        ):
            raise UsageError(f"settings: the time limit must be 0 to {MAX_SECONDS:.0f} seconds")
        symmetric = data.get("up_to_symmetry", False)
        if not isinstance(symmetric, bool):
            raise UsageError("settings: up_to_symmetry must be true or false")
        broken = data.get("break_symmetry", True)
        if not isinstance(broken, bool):
            raise UsageError("settings: break_symmetry must be true or false")
        seconds = None if seconds is None else float(seconds)
        return cls(limit, seconds, symmetric, checkpoints, checkpoint_above, broken)

    def as_json(self) -> dict[str, Any]:
        """The settings as the child gets them."""
        return {
            "limit": self.limit,
            "seconds": self.seconds,
            "up_to_symmetry": self.up_to_symmetry,
            "checkpoints": self.checkpoints,
            "checkpoint_above": self.checkpoint_above,
            "break_symmetry": self.break_symmetry,
        }


class _News:
    """The child's end of the pipe, with the time the run started."""

    def __init__(self, connection: Outbox) -> None:
        self.connection = connection
        self.started = time.monotonic()
        #: What every count sent is multiplied by: the order of the board's group when
        #: the count is of the problem with a free tile pinned (1: the problem itself).
        self.factor = 1

    def send(self, event: Event) -> None:
        self.connection.send(_scaled(event, self.factor))

    def deadline(self, settings: Settings) -> float | None:
        """The ``time.monotonic()`` instant the run must stop at (None: no limit)."""
        return None if settings.seconds is None else self.started + settings.seconds

    def options(self, settings: Settings) -> SearchOptions:
        """The search options of the time left before the limit (at least a millisecond)."""
        end = self.deadline(settings)
        return {} if end is None else {"timeout": max(end - time.monotonic(), 0.001)}


def work(design: dict[str, Any], task: str, settings: dict[str, Any], news: Outbox) -> None:
    """The child's whole life: build the tiling, run ``task``, send the outcome (through
    ``news``, the pipe to the server, see :mod:`excover.studio.child`)."""
    outcome: Event | None = None
    try:
        outcome = _run(design, task, Settings(**settings), _News(news))
    except ExcoverError as error:
        outcome = {"type": "error", "message": str(error)}
    except MemoryError:
        pass  # said below, once the failed run's frames (and their tables) are freed
    except Exception as error:  # a bug: said in one line, never a traceback in the page
        outcome = {"type": "error", "message": f"internal error: {type(error).__name__}"}
    try:
        if outcome is None:
            gc.collect()  # the memory to say it with: sending pickles the message
            outcome = {"type": "error", "message": news.memory_message}
        news.send(outcome)
    finally:
        news.close()


def _run(design: dict[str, Any], task: str, settings: Settings, news: _News) -> Event:
    from excover.studio.design import Design

    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_INTERVAL or done == total:
            last = now
            news.send({"type": "progress", "done": done, "total": total})

    tiling = Design.from_json(design).tiling(progress)
    news.send({"type": "solving", "what": TASKS[task], "placements": tiling.problem.n_options})
    result: Event = {"type": "result", "task": task, "obstruction": tiling.obstruction}
    if task in ("first", "all"):
        result.update(_listing(tiling, task, settings, news))
    else:
        result.update(_count(tiling, task == "count_symmetry", settings, news))
    result["seconds"] = round(time.monotonic() - news.started, 3)
    return result


# ----- listing -----


def _listing(tiling: Tiling, task: str, settings: Settings, news: _News) -> Event:
    """A first solution or a list of them, sent in batches as they come."""
    from excover.tiling.render import solution_svg

    limit = 1 if task == "first" else (settings.limit or MAX_LISTED)
    symmetric = settings.up_to_symmetry and task == "all"
    options = news.options(settings)
    found: list[list[int]] = []
    batch: list[list[int]] = []
    sent = time.monotonic()
    stopped_by = None
    first = None
    try:
        for solution in tiling.solutions(
            limit=limit,
            up_to_symmetry=symmetric,
            **options,
        ):
            if first is None:
                first = solution
            found.append(solution.options)
            batch.append(solution.options)
            if time.monotonic() - sent >= PROGRESS_INTERVAL:
                news.send({"type": "solutions", "options": batch, "found": len(found)})
                batch, sent = [], time.monotonic()
    except LimitReached:
        stopped_by = "timeout"
    if batch:
        news.send({"type": "solutions", "options": batch, "found": len(found)})
    if stopped_by is None and len(found) == limit and task == "all":
        stopped_by = "limit"
    result: Event = {"found": len(found), "stopped_by": stopped_by, "complete": stopped_by is None}
    if task == "first":
        result["found"] = first is not None
        if first is not None:
            result["svg"] = solution_svg(first, 28.0, each_piece=True)
            result["ascii"] = first.ascii()
    return result


# ----- counting -----


def _count(tiling: Tiling, up_to_symmetry: bool, settings: Settings, news: _News) -> Event:
    """The count, or the count up to symmetry: by subproblems with a checkpoint when it
    comes down to one exact cover problem (the count; up to symmetry, the problem with a
    free tile pinned, see :mod:`excover.tiling.symmetry`), else at once."""
    if tiling.obstruction is not None:
        return {"count": "0", "complete": True, "stopped_by": None}
    if not up_to_symmetry and settings.break_symmetry:
        broken = _by_symmetry(tiling, settings, news)
        if broken is not None:
            return broken
    problem: ExactCover | None = tiling.problem
    if up_to_symmetry:
        pinned = None if _equal_tiles(tiling) else tiling.symmetry.pinned()
        problem = None if pinned is None else pinned[0]
    if problem is None:  # Burnside's lemma, or tiles told apart only by name
        try:
            total = tiling.count(up_to_symmetry=True, **news.options(settings))
        except LimitReached:
            return {"count": None, "complete": False, "stopped_by": "timeout"}
        return {"count": str(total), "complete": True, "stopped_by": None}
    return _counted(problem, settings, news)


def _by_symmetry(tiling: Tiling, settings: Settings, news: _News) -> Event | None:
    """The count by the board's symmetry (see the module's text), or None when the
    tiling is counted as it is: a count of it stopped earlier (its checkpoint is taken up
    again), a count that a plain count finishes within
    :data:`~excover.solving.registry.SCOUT_NODES` nodes (then that count, at once), a board
    without symmetry or without a free tile."""
    from excover.parallel.checkpoint import fingerprint
    from excover.solving import registry

    earlier = _checkpoint_path(settings, fingerprint(tiling.problem))
    if earlier is not None and earlier.exists():
        return None
    try:
        known = registry.scout(tiling.problem, news.options(settings))
        if known is not None:
            return {"count": str(known), "complete": True, "stopped_by": None}
        total = tiling.board_symmetry(news.deadline(settings)).total()
    except LimitReached:
        return {"count": None, "complete": False, "stopped_by": "timeout"}
    if total is None:
        return None
    news.factor = total.factor
    try:
        result = _counted(total.problem, settings, news)
    finally:
        news.factor = 1
    return {**_scaled(result, total.factor), "symmetry": total.note}


def _scaled(event: Event, factor: int) -> Event:
    """``event`` with its counts (``count``, an estimate's ``solutions``) multiplied by
    ``factor``."""
    if factor == 1:
        return event
    scaled = dict(event)
    if scaled.get("count") is not None:
        scaled["count"] = str(int(scaled["count"]) * factor)
    if scaled.get("type") == "estimate" and scaled.get("solutions") is not None:
        scaled["solutions"] = scaled["solutions"] * factor
    return scaled


def _equal_tiles(tiling: Tiling) -> bool:
    """Whether two tiles have the same orientations and multiplicity: counting up to
    symmetry then also exchanges them (:meth:`Tiling.count`), beyond one problem."""
    keys = [(tile.orientation_keys(), tile.lo, tile.hi) for tile in tiling.tiles]
    return len(set(keys)) < len(keys)


def _counted(problem: ExactCover, settings: Settings, news: _News) -> Event:
    """Count ``problem`` holding its checkpoint's lock (:func:`_counted_from`). A count of
    the same design running elsewhere (another tab, a run left by an earlier studio)
    holds it: this one then counts without the checkpoint, and its events say so in
    ``note``, as do they when a damaged checkpoint was set aside."""
    from excover.parallel.checkpoint import claimed, fingerprint

    notes: list[str] = []
    path = _checkpoint_path(settings, fingerprint(problem))
    with claimed(path, wait=False, say=notes.append) as held:
        result = _counted_from(problem, held, settings, news, notes)
    if notes:
        result["note"] = "; ".join(notes)
    return result


def _counted_from(
    problem: ExactCover, path: Path | None, settings: Settings, news: _News, notes: list[str]
) -> Event:
    """Count ``problem``: from its checkpoint ``path`` when an earlier count of it was
    stopped; else at once when the choice of route counts it (or the frontier count takes
    it); else by one search for its first look (:data:`FIRST_LOOK`), then, estimated,
    on by that search or by subproblems, checkpointed when it is estimated to run long. The
    checkpoint is looked for first: the race of routes may finish a count whose checkpoint
    would then stay behind, and which a resume would not report as one."""
    from excover.parallel.checkpoint import Checkpoint
    from excover.parallel.probes import estimate
    from excover.parallel.run import resolve_auto

    state = None if path is None else Checkpoint.resume(path, problem, "search", notes.append)
    if state is not None:  # an earlier count of this problem was stopped: go on with it
        return _by_subproblems(problem, state, settings, news, notes)
    method, known = resolve_auto(problem, "auto", {})
    if known is not None:
        return {"count": str(known), "complete": True, "stopped_by": None}
    if not METHOD_TRAITS[method].one_search:
        try:
            total = problem.count(method=method, **news.options(settings))
        except LimitReached:
            return {"count": None, "complete": False, "stopped_by": "timeout"}
        return {"count": str(total), "complete": True, "stopped_by": None}
    counting = _OneSearch(problem, news.deadline(settings))
    look = FIRST_LOOK * settings.checkpoint_above
    if look > 0:
        done = counting.run(news, time.monotonic() + look)
        if done is not None:
            return done
    guess = estimate(problem, ESTIMATE_SAMPLES)
    seconds = guess.seconds or 0.0
    news.send({"type": "estimate", "solutions": _finite(guess.solutions), "seconds": seconds})
    if path is None or seconds <= settings.checkpoint_above:
        result = counting.run(news)
        assert result is not None  # without a pause it runs to its end or its deadline
        return result
    return _by_subproblems(problem, _new_checkpoint(problem, path), settings, news, notes)


class _OneSearch:
    """A count of ``problem`` by one dancing-links search, in slices of :data:`SLICE`
    seconds between which its share of the tree walked goes to the page (as the command
    line's bar has it: :class:`excover.counting.by_search.SearchBar`), with the time left;
    it may pause and go on."""

    def __init__(self, problem: ExactCover, end: float | None) -> None:
        from excover.counting.by_search import SearchBar
        from excover.parallel.progress import Meter
        from excover.solving.progress import TreeSize

        self.search = problem.search()
        self.sizer = SearchBar(problem, None, TreeSize)
        self.meter = Meter()
        self.end = end

    def run(self, news: _News, pause: float | None = None) -> Event | None:
        """Count on to the end or the deadline (the result), or to the ``pause``
        instant (None: not done yet)."""
        search, end = self.search, self.end
        while True:
            now = time.monotonic()
            search.deadline = min([now + SLICE, *(t for t in (end, pause) if t is not None)])
            try:
                total = search.count()
            except LimitReached:
                stats = search.stats
                now = time.monotonic()
                if end is not None and now >= end:
                    return {
                        "count": str(stats.solutions),
                        "complete": False,
                        "stopped_by": "timeout",
                    }
                self.meter.note(self.sizer.share(search)[0])
                news.send(
                    {"type": "advance", "count": str(stats.solutions), **_reading(self.meter)}
                )
                if pause is not None and now >= pause:
                    return None
                continue
            return {"count": str(total), "complete": True, "stopped_by": None}


def _reading(meter: Meter) -> Event:
    """The share done and the seconds left of ``meter``, as ``advance`` events carry
    them."""
    reading = meter.reading()
    return {"fraction": reading["fraction"], "left": reading["left"]}


def _new_checkpoint(problem: ExactCover, path: Path) -> Checkpoint:
    """A checkpoint of ``problem`` cut into :data:`SUBPROBLEMS` subproblems, none done."""
    import warnings

    from excover.errors import ExcoverWarning
    from excover.parallel.checkpoint import Checkpoint, fingerprint
    from excover.parallel.subproblems import split

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExcoverWarning)
        parts = split(problem, tasks=SUBPROBLEMS)
    return Checkpoint(path, fingerprint(problem), "search", parts)


def _by_subproblems(
    problem: ExactCover, state: Checkpoint, settings: Settings, news: _News, notes: list[str]
) -> Event:
    """Count ``problem`` by dancing links, cut into the subproblems of ``state``, saved to
    its file as each one finishes; ``notes`` (what the checkpoint's lock and load said)
    go with each ``advance`` event."""
    from excover.parallel.progress import LocalTasks, Meter
    from excover.parallel.run import run_tasks

    path = state.path
    resumed = len(state.done)
    sizes = [sub.size for sub in state.subproblems]
    earlier = state.seconds
    started = time.monotonic()
    order = sorted((i for i in range(len(sizes)) if not state.settled(i)), key=lambda i: -sizes[i])
    tasks = LocalTasks(sizes, order, 1, sum(sizes))
    meter = Meter()

    def report() -> None:
        state.seconds = earlier + time.monotonic() - started
        state.save()
        done = sum(sizes[index] for index in state.done)
        if state.complete:
            meter.finish()
        else:
            meter.note(tasks.share(done, list(state.done)), tasks.remaining())
        news.send(
            {
                "type": "advance",
                **_reading(meter),
                "count": str(state.count),
                "done": len(state.done),
                "total": len(state.subproblems),
                "resumed": resumed,
                "saved": path is not None,
                "seconds_before": round(earlier, 3),
                **({"note": "; ".join(notes)} if notes else {}),
            }
        )

    report()  # at once: a folder that cannot be written fails before the work
    deadline = news.deadline(settings)
    runs = run_tasks(
        problem,
        state.subproblems,
        "search",
        {},
        skip=state.settled,
        deadline=None if deadline is None else time.time() + deadline - time.monotonic(),
    )
    try:
        for finished in runs:
            if finished is not None:
                tasks.finished(finished[0], finished[1].nodes, finished[1].complete)
            if finished is not None and finished[1].complete:
                index, result = finished
                state.done[index] = (result.total, result.nodes)
                report()
    finally:
        runs.close()
    if state.complete and path is not None:
        path.unlink(missing_ok=True)  # finished: nothing left to resume
    return {
        "count": str(state.count),
        "complete": state.complete,
        "stopped_by": None if state.complete else "timeout",
        "subproblems": len(state.subproblems),
        "done": len(state.done),
        "resumed": resumed,
        "kept": not state.complete and path is not None,
        "total_seconds": round(earlier + time.monotonic() - started, 3),
    }


def _checkpoint_path(settings: Settings, digest: str) -> Path | None:
    """The checkpoint file of the problem with this digest (None: no folder)."""
    if settings.checkpoints is None:
        return None
    folder = Path(settings.checkpoints)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the checkpoint folder {folder}: {error}") from None
    from excover.parallel.checkpoint import named_file

    return named_file(folder, digest, "search")


def _finite(value: float) -> float | None:
    """``value``, or None when it is beyond a double (JSON has no infinity)."""
    return value if value < float("inf") else None
