"""The studio's web application (Starlette): the page, its files, and a small JSON API.

Routes (every one needs the run's token, see :class:`Guard`)::

    GET  /                        the page (its script and style under /static/)
    GET  /api/catalog             the pieces on offer, by grid and family
    GET  /api/initial             the design (a .cmb) or the puzzle (an .xmpuzzle) of the
                                  file given on the command line, if any
    POST /api/import              a file's bytes (?name=FILE): a .cmb program -> its
                                  design, or a located error; a BurrTools .xmpuzzle
                                  (gzip or XML, told by its content) -> {"puzzle": ...}
                                  (:func:`excover.studio.burrtools.summary`, with the
                                  ``id`` the server keeps it under), or an error naming
                                  the file; read in a child process bounded in memory and
                                  time (one at a time, a few waiting)
    POST /api/export              a design -> the .cmb program
    POST /api/export/stl          a design -> a zip of one STL file per distinct piece
    POST /api/isometric           a design of a solid grid -> its board in an isometric view
    POST /api/jobs                {"design": ..., "task": "first"|"all"|"count"|
                                  "count_symmetry", "settings": {"limit": N, "seconds": S,
                                  "up_to_symmetry": bool, "break_symmetry": bool}} ->
                                  {"id": ...}: a run, started when its events are read
                                  (a count breaks the board's symmetry unless
                                  "break_symmetry" is false); its id stays valid until
                                  its stream has reported it (or, never started, for
                                  at least PENDING_SECONDS); the task "design_search"
                                  with {"search": {"pieces": K, "solutions": "unique"|
                                  "any"|N, "top": K, "by": ...}} searches the sets of K
                                  of the design's pieces that fill its board
                                  (:mod:`excover.studio.design_search`), its events and
                                  cancel those of any run; the task "assemble" with
                                  {"puzzle": ID, "problem": K, "take_apart": bool} lists
                                  (and takes apart) the assemblies of a problem of a
                                  puzzle opened (:mod:`excover.studio.burrtools`)
    GET  /api/jobs/ID/events      the run's news as server-sent events; the run is
                                  stopped when the reader goes away (the tab closed),
                                  when it stops following the run (below), past the
                                  studio's longest run time and when the server shuts
                                  down
    POST /api/jobs/ID/alive       the page still follows the run: it says so every few
                                  seconds of events read, and a run not followed for
                                  ``Limits.abandon_seconds`` is cancelled
    POST /api/jobs/ID/cancel      stop the run (its child process is killed)
    GET  /api/listings/ID         the solutions of run ID found so far, a page of them
                                  drawn (?start=K&count=N)
    GET  /api/listings/ID/json    all of them, as the command line's --json document
    GET  /api/listings/ID/K/stl   solution K's assembly as an STL file (?gap=MM)
    POST /api/listings/ID/K/disassemble
                                  solution K (cube or prism grid) taken apart, within
                                  {"seconds": S, "max_states": N} (each optional): its
                                  status, level, moves and states, its pieces'
                                  names, made in a child
                                  (:mod:`excover.studio.disassembly`; a few at once),
                                  stopped when the client goes away
    POST /api/assemblies/ID/K/play
                                  assembly K of the assemble run ID taken apart, as a
                                  solution's disassembly, with its pieces' surfaces,
                                  names and colours (:func:`excover.studio.burrtools.play`)
    POST /api/puzzles/ID/P/stored/K/play
                                  stored solution K of problem P of a puzzle opened,
                                  played as the file's separation has it
    POST /api/export/xmpuzzle, POST /api/puzzles, GET /api/puzzles/ID/save
                                  the burr workshop's: the design as a BurrTools puzzle,
                                  a puzzle edited, a puzzle saved
                                  (:mod:`excover.studio.workshop_routes`)

Errors come back as ``{"error": {"message": ..., "line": ..., "column": ...}}`` with a
4xx status, never as a traceback.

The server never does a user's heavy work itself: imports, runs and disassemblies happen
in child processes bounded by :class:`~excover.studio.limits.Limits`
(:mod:`excover.studio.imports`, :mod:`excover.studio.jobs`,
:mod:`excover.studio.disassembly`), waited on by the event loop without holding a thread, so
that every endpoint, Cancel first, answers while they work. No work outlives the one who
asked for it: an import or a disassembly stops when its client disconnects
(:func:`_while_connected`), a run when its stream's reader goes or when its page stops
saying that it follows it (:meth:`Studio._watch`), and every run and disassembly stops
within the studio's longest run time (``Limits.run_seconds``), whatever time limit the
page set, so that a page that went away holds no place for long. :meth:`Studio.stop` (the
server's Ctrl-C) ends every stream at its next tick and kills every child.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from excover.errors import ExcoverError
from excover.lang.errors import LangError
from excover.studio import library
from excover.studio.burrtools import (
    ASSEMBLE_TASK,
    MAX_PUZZLE_BYTES,
    AssembleRequest,
    AssemblyList,
    Opened,
    assembled,
    file_name,
    is_puzzle,
    open_puzzle,
    play,
)
from excover.studio.catalog import families
from excover.studio.cells import LAYERED, shape
from excover.studio.child import STARTUP_SECONDS, Child
from excover.studio.design import StudioDesign, StudioDesignError
from excover.studio.design_search import SEARCH_TASK, SearchRequest
from excover.studio.design_search import work as search_work
from excover.studio.disassembly import BURR_GRIDS, Bounds, disassemble_cells
from excover.studio.imports import MAX_IMPORTS_WAITING, import_design
from excover.studio.jobs import StudioRun
from excover.studio.limits import Limits
from excover.studio.listing import Listing
from excover.studio.page_grids import page_grids
from excover.studio.runs import CHECKPOINT_ABOVE, TASKS, Settings
from excover.studio.web import (
    GONE,
    MAX_BODY,
    Guard,
    error_response,
    lang_error_response,
    natural,
    read_body,
    read_json,
    while_connected,
)
from excover.studio.workshop_routes import workshop_routes

__all__ = [
    "GONE",
    "MAX_BODY",
    "MAX_DISASSEMBLING",
    "MAX_IMPORTS_WAITING",
    "MAX_JOBS",
    "MAX_LISTINGS",
    "MAX_PUZZLES",
    "MAX_RUNNING",
    "PENDING_SECONDS",
    "Guard",
    "create_app",
]

#: The most runs held at once (started or not), and the most running at once.
MAX_JOBS = 64
MAX_RUNNING = 4
#: Seconds a run never started is kept at least: past them, it may make room for another.
PENDING_SECONDS = 60.0
#: The most lists of solutions of finished runs kept for the page (the oldest goes first;
#: those of runs not yet reported are all kept).
MAX_LISTINGS = 8
#: The most disassemblies made at once (each in a child of its own).
MAX_DISASSEMBLING = 2
#: The most BurrTools puzzles the server keeps for the page (the oldest opened goes
#: first; a list of assemblies keeps its own puzzle's bytes).
MAX_PUZZLES = 4
#: Seconds between two messages of an events stream when the run says nothing: the
#: page shows the time spent, and a closed tab is noticed when a message fails to go.
#: Also the seconds between two looks at a run's page and time (:meth:`Studio._watch`).
TICK = 0.25
_STATIC = {
    "studio.js": "text/javascript",
    "search.js": "text/javascript",
    "puzzle.js": "text/javascript",
    "workshop.js": "text/javascript",
    "studio.css": "text/css",
}


@dataclass(eq=False, repr=False)
class Studio:
    """The state of one studio run: its token, the design it opened, its runs (compared
    by identity; no repr, which would show the token); ``clock`` (seconds) dates the
    runs' making, start and pages' last word."""

    token: str
    initial: StudioDesign | None
    name: str | None
    checkpoints: str | None
    checkpoint_above: float
    limits: Limits
    clock: Callable[[], float] = time.monotonic
    jobs: dict[str, StudioRun] = field(default_factory=dict, init=False)
    #: The watches of the runs started (:meth:`_watch`).
    watches: set[asyncio.Task[None]] = field(default_factory=set, init=False)
    listings: dict[str, Listing] = field(default_factory=dict, init=False)
    #: The BurrTools puzzles opened (their bytes and file name), the oldest first, and
    #: the lists of assemblies of the assemble runs.
    puzzles: dict[str, Opened] = field(default_factory=dict, init=False)
    assembly_lists: dict[str, AssemblyList] = field(default_factory=dict, init=False)
    #: The puzzle given on the command line, as the page shows it (with its ``id``).
    initial_puzzle: dict[str, Any] | None = field(default=None, init=False)
    #: The children of the imports going on, and the imports that want one.
    imports: set[Child] = field(default_factory=set, init=False)
    importers: int = field(default=0, init=False)
    _import_turn: asyncio.Lock | None = field(default=None, init=False)
    #: The disassemblies going on, and their children.
    disassembling: int = field(default=0, init=False)
    disassemblies: set[Child] = field(default_factory=set, init=False)
    #: Set by :meth:`stop`: the server shuts down.
    stopping: bool = field(default=False, init=False)

    async def page(self, request: Request) -> Response:
        html = resources.files("excover.studio").joinpath("static/index.html").read_text("utf-8")
        return HTMLResponse(html.replace("{{TOKEN}}", self.token))

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            raise HTTPException(404, f"no file {name!r}")
        text = resources.files("excover.studio").joinpath(f"static/{name}").read_text("utf-8")
        return Response(text, media_type=_STATIC[name])

    async def catalog(self, request: Request) -> Response:
        found = await asyncio.to_thread(families)
        return JSONResponse({"families": found, **page_grids()})

    async def initial_design(self, request: Request) -> Response:
        design = None if self.initial is None else self.initial.to_json()
        return JSONResponse({"design": design, "name": self.name, "puzzle": self.initial_puzzle})

    def keep_puzzle(self, data: bytes, name: str, shown: dict[str, Any]) -> dict[str, Any]:
        """Keep the puzzle of ``data`` (the file ``name``) for the page's runs and plays,
        the oldest forgotten past :data:`MAX_PUZZLES`; ``shown`` (its summary) gets the
        id it is kept under."""
        while len(self.puzzles) >= MAX_PUZZLES:
            del self.puzzles[next(iter(self.puzzles))]
        key = secrets.token_hex(8)
        self.puzzles[key] = Opened(data, name, len(shown["problems"]))
        return {**shown, "id": key}

    async def import_program(self, request: Request) -> Response:
        """A file opened by the page: a BurrTools puzzle (told by its bytes, whatever its
        name) or a ``.cmb`` program."""
        data = await read_body(request, MAX_PUZZLE_BYTES)
        puzzle = is_puzzle(data)
        if not puzzle and len(data) > MAX_BODY:
            raise HTTPException(413, f"the body is larger than {MAX_BODY} bytes")
        if puzzle:
            name = file_name(request.query_params.get("name"))
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                name = file_name(request.query_params.get("name"), "the file")
                return error_response(
                    400, f"{name} is neither a .cmb program (UTF-8 text) nor a BurrTools file"
                )
        if self.importers > MAX_IMPORTS_WAITING:
            return error_response(429, "too many imports at once: wait for one to end")
        turn = self.import_turn()
        self.importers += 1
        try:
            if puzzle:
                shown = await while_connected(request, self._imported_puzzle(data, name, turn))
            else:
                design = await while_connected(request, self._imported(text, turn))
        except LangError as error:
            return lang_error_response(error)
        finally:
            self.importers -= 1
        if puzzle:
            if shown is None:
                return error_response(503, "the studio is stopping")
            return JSONResponse({"puzzle": self.keep_puzzle(data, name, shown)})
        if design is None:
            return error_response(503, "the studio is stopping")
        return JSONResponse({"design": design.to_json()})

    def import_turn(self) -> asyncio.Lock:
        """The lock imports (and the workshop's edits) take turns by, one at a time."""
        if self._import_turn is None:
            self._import_turn = asyncio.Lock()
        return self._import_turn

    async def _imported(self, text: str, turn: asyncio.Lock) -> StudioDesign | None:
        """The design of the program ``text``, read when its ``turn`` comes (None: the
        studio stopped meanwhile)."""
        async with turn:
            if self.stopping:
                return None
            return await import_design(text, "upload.cmb", None, self.limits, self.imports)

    async def _imported_puzzle(
        self, data: bytes, name: str, turn: asyncio.Lock
    ) -> dict[str, Any] | None:
        """The summary of the BurrTools puzzle ``data`` (the file ``name``), read when its
        ``turn`` comes (None: the studio stopped meanwhile)."""
        async with turn:
            if self.stopping:
                return None
            return await open_puzzle(data, name, self.limits, self.imports)

    async def export_program(self, request: Request) -> Response:
        design = StudioDesign.from_json(await read_json(request))
        design.check_usable()
        headers = {"Content-Disposition": 'attachment; filename="puzzle.cmb"'}
        return Response(design.to_cmb(), media_type="text/plain", headers=headers)

    async def export_stl(self, request: Request) -> Response:
        design = StudioDesign.from_json(await read_json(request))
        design.check_usable()
        pieces = {piece.name: shape(design.grid, piece.cells) for piece in design.used}
        data = await asyncio.to_thread(library.pieces_zip, pieces)
        headers = {"Content-Disposition": 'attachment; filename="pieces.zip"'}
        return Response(data, media_type="application/zip", headers=headers)

    async def isometric(self, request: Request) -> Response:
        design = StudioDesign.from_json(await read_json(request))
        if design.grid not in LAYERED:
            return error_response(400, "an isometric view is drawn of a board of a solid grid")
        svg = await asyncio.to_thread(lambda: library.board_isometric_svg(design.board_shape()))
        return Response(svg, media_type="image/svg+xml")

    async def new_job(self, request: Request) -> Response:
        body = await read_json(request)
        task = body.get("task") if isinstance(body, dict) else None
        if task not in TASKS and task not in (SEARCH_TASK, ASSEMBLE_TASK):
            every = ", ".join([*TASKS, SEARCH_TASK, ASSEMBLE_TASK])
            return error_response(400, f"the task must be one of {every}")
        if task == ASSEMBLE_TASK:
            return self._assemble(body)
        design = StudioDesign.from_json(body.get("design"))
        settings = Settings.from_json(body.get("settings"), self.checkpoints, self.checkpoint_above)
        search = None
        if task == SEARCH_TASK:
            search = SearchRequest.from_json(body.get("search"))
            search.check(design)
        else:
            design.check_usable()
        if len(self.jobs) >= MAX_JOBS:
            self._forget_one()
        if len(self.jobs) >= MAX_JOBS:
            return error_response(429, "too many runs at once: cancel one first")
        key = secrets.token_hex(8)
        child: dict[str, Any] = {}  # a run's, unless a search's
        if search is not None:
            child = {"target": search_work, "extra": (search.as_json(),), "what": "the search"}
        self.jobs[key] = StudioRun(
            design.to_json(), task, settings, self.limits, self.clock, **child
        )
        if task in ("first", "all"):
            finished = [k for k, listing in self.listings.items() if listing.finished]
            while len(self.listings) >= MAX_LISTINGS and finished:
                del self.listings[finished.pop(0)]
            symmetric = settings.up_to_symmetry and task == "all"
            self.listings[key] = Listing(design.to_json(), task, symmetric)
        return JSONResponse({"id": key})

    def _assemble(self, body: dict[str, Any]) -> Response:
        """A run listing the assemblies of a problem of a puzzle opened (and taking each
        apart): its id, as for any run; the server keeps the assemblies' options to play
        one (:class:`~excover.studio.burrtools.AssemblyList`)."""
        request = AssembleRequest.from_json(body)
        settings = Settings.from_json(body.get("settings"), None)
        kept = self.puzzles.get(request.puzzle)
        if kept is None:
            return error_response(404, "no such puzzle (any more): open the file again")
        data, name, count = kept
        if request.problem >= count:
            return error_response(400, f"problem: {name} has {count} problem{'s' * (count != 1)}")
        if len(self.jobs) >= MAX_JOBS:
            self._forget_one()
        if len(self.jobs) >= MAX_JOBS:
            return error_response(429, "too many runs at once: cancel one first")
        key = secrets.token_hex(8)
        extra = (data, name, request.problem, request.take_apart)
        design = {"puzzle": request.puzzle, "problem": request.problem}
        self.jobs[key] = StudioRun(
            design, ASSEMBLE_TASK, settings, self.limits, self.clock, target=assembled, extra=extra
        )
        finished = [k for k, listed in self.assembly_lists.items() if listed.finished]
        while len(self.assembly_lists) >= MAX_LISTINGS and finished:
            del self.assembly_lists[finished.pop(0)]
        self.assembly_lists[key] = AssemblyList(data, name, request.problem, request.puzzle)
        return JSONResponse({"id": key})

    def _forget_one(self) -> None:
        """Make room for a run: forget the oldest run whose events nobody has asked for in
        :data:`PENDING_SECONDS` (its page went away before starting it). A run started,
        or made more recently, is kept: its id stays valid until it is reported."""
        now = self.clock()
        for key, job in self.jobs.items():
            if job.started is None and now - job.created > PENDING_SECONDS:
                del self.jobs[key]
                self.listings.pop(key, None)
                self.assembly_lists.pop(key, None)
                return

    def _job(self, request: Request) -> tuple[str, StudioRun]:
        key = request.path_params["key"]
        job = self.jobs.get(key)
        if job is None:
            raise HTTPException(404, f"no run {key!r}")
        return key, job

    async def events(self, request: Request) -> Response:
        key, job = self._job(request)
        if job.started is not None:
            return error_response(409, "this run's events are already being read")
        if sum(j.started is not None for j in self.jobs.values()) >= MAX_RUNNING:
            return error_response(429, f"{MAX_RUNNING} runs already going: cancel one first")
        if self.stopping:
            return error_response(503, "the studio is stopping")
        await job.start()
        watch = asyncio.create_task(self._watch(key, job))
        self.watches.add(watch)
        watch.add_done_callback(self.watches.discard)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(
            self._stream(key, job, watch), media_type="text/event-stream", headers=headers
        )

    async def _stream(
        self, key: str, job: StudioRun, watch: asyncio.Task[None]
    ) -> AsyncIterator[str]:
        """The run's events, a tick when it says nothing for a while; the run is stopped
        when the stream ends, however it ends (done, cancelled, the reader gone, or the
        server stopping). A result stopped by the studio's longest run time, not by the
        page's own limit, says so in ``maximum`` (its seconds)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        listing = self.listings.get(key)
        assemblies = self.assembly_lists.get(key)
        try:
            while True:
                event = await job.next_event(TICK)
                if event is None and self.stopping:
                    event = {"type": "cancelled", "message": "the studio stopped"}
                if event is None:
                    event = {"type": "tick"}
                elif event["type"] == "solutions" and listing is not None:
                    listing.add(event.pop("options"))  # kept here, drawn on request
                elif event["type"] == "assemblies" and assemblies is not None:
                    assemblies.add(event["batch"])  # their options kept here, to play one
                elif event["type"] == "saved":  # the file of the puzzle solved, kept to save
                    if assemblies is not None:
                        assemblies.saved = event["data"]
                    continue
                elif event["type"] == "result":
                    if event.get("stopped_by") == "timeout" and job.maximum is not None:
                        event["maximum"] = job.maximum
                    if listing is not None:
                        listing.finish(event.get("stopped_by"))
                event["elapsed"] = round(loop.time() - started, 2)
                yield f"data: {json.dumps(event)}\n\n"
                if event["type"] in ("result", "error", "cancelled"):
                    return
        finally:
            watch.cancel()
            job.close()
            self._forget(key, job)

    def _forget(self, key: str, job: StudioRun) -> None:
        """The run ``key`` is over (reported, or stopped by :meth:`_watch`): its place
        goes to the next run, and its list of solutions, if unfinished, is finished as
        the run left it."""
        if self.jobs.get(key) is job:
            del self.jobs[key]
        listing = self.listings.get(key)
        if listing is not None and not listing.finished:
            listing.finish(None if job.cancelled_at is None else "interrupt")
        assemblies = self.assembly_lists.get(key)
        if assemblies is not None:
            assemblies.finished = True

    async def _watch(self, key: str, job: StudioRun) -> None:
        """Watch the run ``key``, started, until it is over: cancel it when its page has
        not said for ``limits.abandon_seconds`` that it follows it (the tab frozen or
        gone, a client that stopped reading) or past the studio's longest run time
        (``limits.run_seconds``, which the child's own deadline enforces; this is the
        backstop, counted from the start with the child's start-up time to spare). Its
        place goes to the next run at once, even while its stream still waits for a
        reader that never reads."""
        while self.jobs.get(key) is job and job.cancelled_at is None:
            reason = self._overdue(job)
            if reason is not None:
                await job.cancel(reason)
                self._forget(key, job)
                return
            await asyncio.sleep(TICK)

    def _overdue(self, job: StudioRun) -> str | None:
        """Why ``job`` (started) must stop now, or None."""
        now = self.clock()
        limits = self.limits
        if now - job.seen > limits.abandon_seconds:
            return f"no page followed the run for {limits.abandon_seconds:g} s"
        assert job.started is not None
        if now - job.started > limits.run_seconds + STARTUP_SECONDS:
            return (
                f"the run took more than {limits.run_seconds:g} s, the studio's longest run "
                "time (excover studio --max-run-time)"
            )
        return None

    async def alive(self, request: Request) -> Response:
        _, job = self._job(request)
        job.followed()
        return JSONResponse({"alive": True})

    async def cancel(self, request: Request) -> Response:
        _, job = self._job(request)
        await job.cancel()
        return JSONResponse({"cancelled": True, "stop_seconds": job.stop_seconds})

    def _listing(self, request: Request) -> Listing:
        key = request.path_params["key"]
        listing = self.listings.get(key)
        if listing is None:
            raise HTTPException(404, f"no solutions of run {key!r} (any more)")
        for other in self.listings.values():  # one tiling built at a time: it may be large
            if other is not listing:
                other.release()
        return listing

    async def listing_page(self, request: Request) -> Response:
        listing = self._listing(request)
        start = natural(request, "start", 0)
        count = natural(request, "count", 1)
        drawn = await asyncio.to_thread(listing.page, start, count)
        return JSONResponse(
            {
                "total": len(listing.options),
                "finished": listing.finished,
                "stopped_by": listing.stopped_by,
                "solutions": drawn,
            }
        )

    async def listing_json(self, request: Request) -> Response:
        listing = self._listing(request)
        data = await asyncio.to_thread(listing.document)
        headers = {"Content-Disposition": 'attachment; filename="solutions.json"'}
        return JSONResponse(data, headers=headers)

    async def listing_stl(self, request: Request) -> Response:
        listing = self._listing(request)
        index = _index(request, listing)
        gap = library.read_gap(request.query_params.get("gap"))  # mm; None: the default
        data = await asyncio.to_thread(lambda: library.solution_stl(listing.solution(index), gap))
        name = f"solution{index + 1}.stl"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(data, media_type="model/stl", headers=headers)

    async def listing_disassembly(self, request: Request) -> Response:
        bounds = await self._bounds(request)
        listing = self._listing(request)
        index = _index(request, listing)
        grid = listing.design["grid"]
        if grid not in BURR_GRIDS:
            return error_response(
                400,
                f"a solution is taken apart on the {' and '.join(BURR_GRIDS)} "
                f"grids only, not on the {grid} grid",
            )
        return await self._disassembly(request, lambda: self._taken_apart(listing, index, bounds))

    async def _taken_apart(self, listing: Listing, index: int, bounds: Bounds) -> dict[str, Any]:
        """The disassembly of solution ``index`` of ``listing`` within ``bounds``, its
        pieces named."""
        solution = await asyncio.to_thread(listing.solution, index)
        pieces = [list(placement.cells) for placement in solution.placements]
        grid = listing.design["grid"]
        found = await disassemble_cells(grid, pieces, bounds, self.limits, self.disassemblies)
        found.pop("type")
        found["names"] = [placement.tile.name for placement in solution.placements]
        return found

    async def assembly_play(self, request: Request) -> Response:
        """Assembly K of an assemble run, taken apart and described for the player."""
        bounds = await self._bounds(request)
        key = request.path_params["key"]
        listed = self.assembly_lists.get(key)
        if listed is None:
            raise HTTPException(404, f"no assemblies of run {key!r} (any more)")
        index = natural(request, "index", 0, path=True)
        if index >= len(listed.options):
            raise HTTPException(404, f"no assembly {index + 1}: {len(listed.options)} kept")
        which = {"options": listed.options[index]}
        return await self._played(request, listed.data, listed.name, listed.problem, which, bounds)

    async def stored_play(self, request: Request) -> Response:
        """Stored solution K of problem P of a puzzle opened, played as the file has it."""
        bounds = await self._bounds(request)
        kept = self.puzzles.get(request.path_params["key"])
        if kept is None:
            raise HTTPException(404, "no such puzzle (any more): open the file again")
        problem = natural(request, "problem", 0, path=True)
        number = natural(request, "index", 0, path=True)
        which = {"stored": number}
        return await self._played(request, kept.data, kept.name, problem, which, bounds)

    async def _bounds(self, request: Request) -> Bounds:
        bounds = Bounds.from_json(await read_json(request))
        return replace(bounds, seconds=min(bounds.seconds, self.limits.run_seconds))

    async def _played(
        self,
        request: Request,
        data: bytes,
        name: str,
        problem: int,
        which: dict[str, Any],
        bounds: Bounds,
    ) -> Response:
        """A play of a puzzle's assembly or stored solution, in a child of its own (a
        few at once, as disassemblies), stopped when the client goes away."""
        return await self._disassembly(
            request,
            lambda: play(data, name, problem, which, bounds, self.limits, self.disassemblies),
        )

    async def _disassembly(
        self, request: Request, work: Callable[[], Coroutine[Any, Any, dict[str, Any]]]
    ) -> Response:
        """The answer of ``work()``, a disassembly or a play in a child of its own, stopped
        when the client goes away; refused (429) while :data:`MAX_DISASSEMBLING` are
        going, or (503) once the studio is stopping."""
        if self.disassembling >= MAX_DISASSEMBLING:
            return error_response(
                429, f"{MAX_DISASSEMBLING} disassemblies already going: wait for one"
            )
        if self.stopping:
            return error_response(503, "the studio is stopping")
        self.disassembling += 1
        try:
            found = await while_connected(request, work())
        finally:
            self.disassembling -= 1
        return JSONResponse(found)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """The server's life: the catalog is made before the first page asks for it, and
        every run still going is stopped when the server shuts down."""
        await asyncio.to_thread(families)
        try:
            yield
        finally:
            self.stop()
            for watch in list(self.watches):
                watch.cancel()
            for job in self.jobs.values():
                job.close()
            self.jobs.clear()

    def stop(self) -> None:
        """The server shuts down: every stream ends at its next tick, every child is killed
        (none is waited for: this may run in a signal handler)."""
        self.stopping = True
        for job in list(self.jobs.values()):
            job.halt()
        for child in [*self.imports, *self.disassemblies]:
            child.kill()


def _index(request: Request, listing: Listing) -> int:
    """The number (from 0) of a solution of ``listing`` that the path names."""
    index = natural(request, "index", 0, path=True)
    if index >= len(listing.options):
        raise HTTPException(404, f"no solution {index + 1}: {len(listing.options)} found")
    return index


async def _excover_error(request: Request, error: Exception) -> Response:
    if isinstance(error, StudioDesignError):
        return error_response(400, error.detail, where=error.where)
    return error_response(400, str(error))


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return error_response(error.status_code, str(error.detail))


async def _internal_error(request: Request, error: Exception) -> Response:
    return error_response(500, f"internal error ({type(error).__name__}): please report it")


def create_app(
    token: str,
    port: int,
    initial: StudioDesign | None = None,
    name: str | None = None,
    checkpoints: str | None = None,
    checkpoint_above: float = CHECKPOINT_ABOVE,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
    puzzle: tuple[bytes, dict[str, Any]] | None = None,
) -> Starlette:
    """The application of one studio run, answering at ``127.0.0.1:port`` (or
    ``localhost:port``) to requests carrying ``token``. ``initial`` is the design the
    page opens with (from the file called ``name``); the checkpoints of counts estimated
    at more than ``checkpoint_above`` seconds go to the folder ``checkpoints`` (None:
    counts keep none). Imports and runs happen in children bounded by ``limits``
    (default: :class:`~excover.studio.limits.Limits`' defaults), which also say how long
    a run may go on, and unfollowed; ``clock`` measures those times (a test's clock
    moves when the test says). ``puzzle`` is a BurrTools file the page opens with: its
    bytes and its summary (:func:`excover.studio.burrtools.open_puzzle`)."""
    limits = limits or Limits()
    studio = Studio(token, initial, name, checkpoints, checkpoint_above, limits, clock)
    if puzzle is not None:
        data, shown = puzzle
        studio.initial_puzzle = studio.keep_puzzle(data, shown["name"], shown)
    routes = [
        Route("/", studio.page),
        Route("/static/{name}", studio.static),
        Route("/api/catalog", studio.catalog),
        Route("/api/initial", studio.initial_design),
        Route("/api/import", studio.import_program, methods=["POST"]),
        Route("/api/export", studio.export_program, methods=["POST"]),
        Route("/api/export/stl", studio.export_stl, methods=["POST"]),
        Route("/api/isometric", studio.isometric, methods=["POST"]),
        Route("/api/jobs", studio.new_job, methods=["POST"]),
        Route("/api/jobs/{key}/events", studio.events),
        Route("/api/jobs/{key}/alive", studio.alive, methods=["POST"]),
        Route("/api/jobs/{key}/cancel", studio.cancel, methods=["POST"]),
        Route("/api/listings/{key}", studio.listing_page),
        Route("/api/listings/{key}/json", studio.listing_json),
        Route("/api/listings/{key}/{index}/stl", studio.listing_stl),
        Route(
            "/api/listings/{key}/{index}/disassemble", studio.listing_disassembly, methods=["POST"]
        ),
        Route("/api/assemblies/{key}/{index}/play", studio.assembly_play, methods=["POST"]),
        Route(
            "/api/puzzles/{key}/{problem}/stored/{index}/play",
            studio.stored_play,
            methods=["POST"],
        ),
        *workshop_routes(studio),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ExcoverError: _excover_error,
            HTTPException: _http_error,
            Exception: _internal_error,
        },
        lifespan=studio.lifespan,
    )
    app.state.studio = studio
    hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    app.add_middleware(Guard, token=token, hosts=hosts)
    return app
