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

Every count goes through the orchestrator (:mod:`excover.solving.orchestrate`), whose
events (:class:`_News`) are sent as they come. A count of every solution breaks the
board's symmetry unless the settings say ``"break_symmetry": false``: once a short plain
count has not finished it, a free tile is pinned to one placement per orbit
(:meth:`excover.tiling.symmetry.BoardSymmetry.total`) and the smaller problem is counted
as below, every count it sends (partial ones and the estimate too) multiplied by the
group's order; the result's ``symmetry`` says so. A board without symmetry, or without
a free tile, is counted as it is.

A count that the choice of route does not finish at once runs as one search for a tenth
of the checkpoint threshold (a second by default), its progress the share of the tree
walked; one that has not ended by then is estimated. One of a few seconds goes on as that
search. A longer one is cut into subproblems whose counts go to a checkpoint file as each
one finishes (:func:`excover.solving.long_count.count_long`): a count cancelled,
stopped by its time limit or by a closed tab keeps them, and the next count of the same
problem resumes from the file (the total is exact either way). The file goes once the
count is complete. A count holds the file's lock: a second count of the same design
(another tab, a run left by an earlier studio) counts without the file, and says so in
the ``note`` of its ``advance`` and ``result`` events, as it does when a damaged file
was set aside."""

from __future__ import annotations

import gc
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from excover.errors import ExcoverError, LimitReached, UsageError
from excover.solving.request import Events

if TYPE_CHECKING:
    from excover.counting.outcome import Outcome
    from excover.parallel.progress import Meter
    from excover.problem import Problem, SearchOptions
    from excover.solving.orchestrate import Total
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
#: A count estimated to take longer (seconds) is cut into subproblems with a checkpoint.
CHECKPOINT_ABOVE = 10.0
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
        """The settings as the child gets them: their fields."""
        return asdict(self)


class _News(Events):
    """The child's end of the pipe, with the time the run started: the orchestrator's
    events of a count, sent as ``advance`` and ``estimate`` events (the share done and
    the time left by :class:`excover.parallel.progress.Meter`), its notes kept for the
    events and the result. ``factor`` is what every count sent is multiplied by: the
    order of the board's group when the count is of the problem with a free tile pinned
    (1: the problem itself)."""

    def __init__(self, connection: Outbox) -> None:
        self.connection = connection
        self.started = time.monotonic()
        self.factor = 1
        #: What the count's checkpoint had to say (its lock held elsewhere, a damaged
        #: file set aside).
        self.notes: list[str] = []
        self._meters: dict[bool, Meter] = {}

    def send(self, event: Event) -> None:
        self.connection.send(_scaled(event, self.factor))

    def say(self, text: str) -> None:
        self.notes.append(text)

    def estimated(self, solutions: float, seconds: float) -> None:
        self.send({"type": "estimate", "solutions": _finite(solutions), "seconds": seconds})

    def advance(self, count: int, share: float | None, left: float | None, **detail: Any) -> None:
        from excover.parallel.progress import Meter

        meter = self._meters.setdefault(bool(detail), Meter())  # by one search, by parts
        if not detail:
            meter.note(share)
            self.send({"type": "advance", "count": str(count), **_reading(meter)})
            return
        if detail.pop("complete"):
            meter.finish()
        else:
            meter.note(share, left)
        event: Event = {"type": "advance", **_reading(meter), "count": str(count), **detail}
        if self.notes:
            event["note"] = "; ".join(self.notes)
        self.send(event)

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
    from excover.studio.design import StudioDesign

    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_INTERVAL or done == total:
            last = now
            news.send({"type": "progress", "done": done, "total": total})

    tiling = StudioDesign.from_json(design).tiling(progress)
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
    """The count, or the count up to symmetry (the problem with a free tile pinned, see
    :mod:`excover.tiling.symmetry`, else Burnside's lemma), through the orchestrator:
    by the board's symmetry by default, unless a count of the whole problem was stopped
    earlier (its checkpoint is taken up again)."""
    if tiling.obstruction is not None:
        return {"count": "0", "complete": True, "stopped_by": None}
    problem: Problem = tiling.problem
    if up_to_symmetry:
        pinned = None if _equal_tiles(tiling) else tiling.symmetry.pinned()
        if pinned is None:  # Burnside's lemma, or tiles told apart only by name
            try:
                total = tiling.count(up_to_symmetry=True, **news.options(settings))
            except LimitReached:
                return {"count": None, "complete": False, "stopped_by": "timeout"}
            return {"count": str(total), "complete": True, "stopped_by": None}
        problem = pinned[0]
    elif settings.break_symmetry and not _stopped_before(problem, settings):
        return _counted(problem, settings, news, tiling)
    return _counted(problem, settings, news)


def _stopped_before(problem: Problem, settings: Settings) -> bool:
    """Whether a count of ``problem`` itself was stopped earlier (its checkpoint is
    there to be taken up again)."""
    from excover.parallel.checkpoint import fingerprint

    earlier = _checkpoint_path(settings, fingerprint(problem))
    return earlier is not None and earlier.exists()


def _counted(
    problem: Problem, settings: Settings, news: _News, tiling: Tiling | None = None
) -> Event:
    """Count ``problem`` through the orchestrator, as the module's text says: a count
    that may run long (:func:`excover.solving.long_count.count_long`); with the
    ``tiling`` whose problem it is, by the board's symmetry by default (a free tile
    pinned: :meth:`excover.tiling.symmetry.BoardSymmetry.total`)."""
    from excover.parallel.checkpoint import fingerprint
    from excover.solving import orchestrate
    from excover.solving.request import Request

    def pinned(method: str, deadline: float | None) -> Total | None:
        assert tiling is not None
        return tiling.board_symmetry(deadline).total()

    request = Request(
        "auto",
        deadline=news.deadline(settings),
        symmetry=False if tiling is None else None,
        totals=None if tiling is None else pinned,
        split_above=settings.checkpoint_above,
        checkpoints=lambda counted: _checkpoint_path(settings, fingerprint(counted)),
        events=news,
        note_ctrl_c=False,
    )
    result = _result(orchestrate.count(problem, request))
    if news.notes:
        result["note"] = "; ".join(news.notes)
    return result


def _result(outcome: Outcome) -> Event:
    """The result event's fields of a count's outcome (its counts of the whole problem)."""
    from excover.solving.checkpointed import SplitOutcome
    from excover.solving.orchestrate import SymmetricOutcome

    if isinstance(outcome, SymmetricOutcome):  # by the board's symmetry
        if outcome.inner is None:  # stopped while it found the board's group
            return {"count": None, "complete": False, "stopped_by": "timeout"}
        assert outcome.total is not None
        return {**_result(outcome.inner), "symmetry": outcome.total.note}
    count = None if outcome.count is None else str(outcome.count)
    if not isinstance(outcome, SplitOutcome) or outcome.kind == "whole":  # the scout's, the route's
        if outcome.stopped_by is not None:
            return {"count": None, "complete": False, "stopped_by": "timeout"}
        return {"count": count, "complete": True, "stopped_by": None}
    complete = outcome.stopped_by is None
    result: Event = {"count": count, "complete": complete, "stopped_by": outcome.stopped_by}
    if outcome.kind == "tasks":
        state = outcome.state
        assert state is not None
        result.update(
            subproblems=len(state.subproblems),
            done=len(state.done),
            resumed=outcome.resumed,
            kept=not complete and outcome.path is not None,
            total_seconds=outcome.stats["total_seconds"],
        )
    return result


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


def _reading(meter: Meter) -> Event:
    """The share done and the seconds left of ``meter``, as ``advance`` events carry
    them."""
    reading = meter.reading()
    return {"fraction": reading["fraction"], "left": reading["left"]}


def _checkpoint_path(settings: Settings, digest: str) -> Path | None:
    """The checkpoint file of the problem with this digest (None: no folder)."""
    if settings.checkpoints is None:
        return None
    folder = Path(settings.checkpoints)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the checkpoint folder {folder}: {error}") from None
    from excover.names import SEARCH_METHOD
    from excover.parallel.checkpoint import named_file

    return named_file(folder, digest, SEARCH_METHOD)


def _finite(value: float) -> float | None:
    """``value``, or None when it is beyond a double (JSON has no infinity)."""
    return value if value < float("inf") else None
