"""The studio's web application (Starlette): the page, its files, and a small JSON API.

Routes (every one needs the run's token, see :class:`Guard`)::

    GET  /                        the page (its script and style under /static/)
    GET  /api/catalog             the pieces on offer, by family
    GET  /api/initial             the design of the file given on the command line, if any
    POST /api/import              a .cmb program (text) -> its design, or a located error
    POST /api/export              a design -> the .cmb program
    POST /api/jobs                {"design": ..., "task": "first"|"count"|"count_symmetry"}
                                  -> {"id": ...}: a run, started when its events are read
    GET  /api/jobs/ID/events      the run's news as server-sent events; the run is
                                  stopped when the reader goes away (the tab closed)
    POST /api/jobs/ID/cancel      stop the run (its child process is killed)

Errors come back as ``{"error": {"message": ..., "line": ..., "column": ...}}`` with a
4xx status, never as a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from excover.errors import ExcoverError
from excover.lang.errors import LangError
from excover.studio.catalog import families
from excover.studio.design import Design, DesignError, from_cmb
from excover.studio.jobs import TASKS, Job

__all__ = ["MAX_BODY", "MAX_JOBS", "MAX_RUNNING", "Guard", "create_app"]

#: The most bytes a request body may hold (a design or a .cmb program).
MAX_BODY = 1 << 20
#: The most runs held at once (started or not), and the most running at once.
MAX_JOBS = 16
MAX_RUNNING = 4
#: Seconds between two messages of an events stream when the run says nothing: the
#: page shows the time spent, and a closed tab is noticed when a message fails to go.
TICK = 0.25

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_STATIC = {"studio.js": "text/javascript", "studio.css": "text/css"}


class Guard:
    """ASGI middleware refusing (403) every request that does not carry the run's token
    (``?token=`` or the ``X-Studio-Token`` header), that names another host (a DNS
    rebinding attack) or that comes from a page of another origin."""

    def __init__(self, app: ASGIApp, token: str, hosts: set[str]) -> None:
        self.app = app
        self.token = token
        self.hosts = hosts
        self.origins = {f"http://{host}" for host in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        reason = self._refusal(scope)
        if reason is not None:
            await _error(403, reason)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> str | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if headers.get("host") not in self.hosts:
            return "this server answers only at its own address"
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return f"requests from {origin} are refused"
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = headers.get("x-studio-token") or next(iter(query.get("token", [])), "")
        if not secrets.compare_digest(given.encode(), self.token.encode()):
            return "a missing or wrong token: open the address the studio printed"
        return None


def _error(status: int, message: str, **where: object) -> JSONResponse:
    return JSONResponse({"error": {"message": message, **where}}, status_code=status)


def _lang_error(error: LangError) -> JSONResponse:
    """A located error of a program: line, column, and the line with a caret."""
    return _error(
        400, error.message, line=error.pos.line, column=error.pos.column, report=error.report()
    )


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise HTTPException(413, f"the body is larger than {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise HTTPException(413, f"the body is larger than {MAX_BODY} bytes")
    return bytes(data)


async def _json(request: Request) -> Any:
    try:
        return json.loads(await _body(request))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HTTPException(400, f"the body is not JSON: {error}") from None


class Studio:
    """The state of one studio run: its token, the design it opened, its runs."""

    def __init__(self, token: str, initial: Design | None, name: str | None) -> None:
        self.token = token
        self.initial = initial
        self.name = name
        self.jobs: dict[str, Job] = {}

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
        return JSONResponse({"families": families()})

    async def initial_design(self, request: Request) -> Response:
        design = None if self.initial is None else self.initial.to_json()
        return JSONResponse({"design": design, "name": self.name})

    async def import_program(self, request: Request) -> Response:
        try:
            text = (await _body(request)).decode("utf-8")
        except UnicodeDecodeError:
            return _error(400, "the file is not UTF-8 text")
        try:
            design = await asyncio.to_thread(from_cmb, text, "upload.cmb")
        except LangError as error:
            return _lang_error(error)
        return JSONResponse({"design": design.to_json()})

    async def export_program(self, request: Request) -> Response:
        design = Design.from_json(await _json(request))
        design.check_usable()
        headers = {"Content-Disposition": 'attachment; filename="puzzle.cmb"'}
        return Response(design.to_cmb(), media_type="text/plain", headers=headers)

    async def new_job(self, request: Request) -> Response:
        body = await _json(request)
        if not isinstance(body, dict) or body.get("task") not in TASKS:
            return _error(400, f"the task must be one of {', '.join(TASKS)}")
        design = Design.from_json(body.get("design"))
        design.check_usable()
        if len(self.jobs) >= MAX_JOBS:
            self._forget_one()
        if len(self.jobs) >= MAX_JOBS:
            return _error(429, "too many runs at once: cancel one first")
        key = secrets.token_hex(8)
        self.jobs[key] = Job(design.to_json(), body["task"])
        return JSONResponse({"id": key})

    def _forget_one(self) -> None:
        """Make room for a run: forget the oldest run whose events nobody has asked for
        (its page went away before starting it); running ones are kept."""
        waiting = [key for key, job in self.jobs.items() if job.started is None]
        if waiting:
            del self.jobs[waiting[0]]

    def _job(self, request: Request) -> tuple[str, Job]:
        key = request.path_params["key"]
        job = self.jobs.get(key)
        if job is None:
            raise HTTPException(404, f"no run {key!r}")
        return key, job

    async def events(self, request: Request) -> Response:
        key, job = self._job(request)
        if job.started is not None:
            return _error(409, "this run's events are already being read")
        if sum(j.alive for j in self.jobs.values()) >= MAX_RUNNING:
            return _error(429, f"{MAX_RUNNING} runs already going: cancel one first")
        job.start()
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(
            self._stream(key, job), media_type="text/event-stream", headers=headers
        )

    async def _stream(self, key: str, job: Job) -> AsyncIterator[str]:
        """The run's events, a tick when it says nothing for a while; the run is stopped
        when the stream ends, however it ends (done, cancelled, or the reader gone)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            while True:
                event = await asyncio.to_thread(job.next_event, TICK)
                if event is None:
                    event = {"type": "tick"}
                event["elapsed"] = round(loop.time() - started, 2)
                yield f"data: {json.dumps(event)}\n\n"
                if event["type"] in ("result", "error", "cancelled"):
                    return
        finally:
            job.close()
            self.jobs.pop(key, None)

    async def cancel(self, request: Request) -> Response:
        _, job = self._job(request)
        await asyncio.to_thread(job.cancel)
        return JSONResponse({"cancelled": True, "stop_seconds": job.stop_seconds})

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """The server's life: every run still going is stopped when it shuts down."""
        try:
            yield
        finally:
            for job in self.jobs.values():
                job.close()
            self.jobs.clear()


async def _excover_error(request: Request, error: Exception) -> Response:
    if isinstance(error, DesignError):
        return _error(400, error.detail, where=error.where)
    return _error(400, str(error))


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return _error(error.status_code, str(error.detail))


async def _internal_error(request: Request, error: Exception) -> Response:
    return _error(500, f"internal error ({type(error).__name__}): please report it")


def create_app(
    token: str,
    port: int,
    initial: Design | None = None,
    name: str | None = None,
) -> Starlette:
    """The application of one studio run, answering at ``127.0.0.1:port`` (or
    ``localhost:port``) to requests carrying ``token``. ``initial`` is the design the
    page opens with (from the file called ``name``)."""
    studio = Studio(token, initial, name)
    routes = [
        Route("/", studio.page),
        Route("/static/{name}", studio.static),
        Route("/api/catalog", studio.catalog),
        Route("/api/initial", studio.initial_design),
        Route("/api/import", studio.import_program, methods=["POST"]),
        Route("/api/export", studio.export_program, methods=["POST"]),
        Route("/api/jobs", studio.new_job, methods=["POST"]),
        Route("/api/jobs/{key}/events", studio.events),
        Route("/api/jobs/{key}/cancel", studio.cancel, methods=["POST"]),
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
