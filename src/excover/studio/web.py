"""The studio's HTTP plumbing: the guard of every request, bounded request bodies, JSON
errors, and work that stops when its client goes away (:mod:`excover.studio.app` serves
the routes with them).

- :class:`Guard`: the ASGI middleware that refuses (403) a request without the run's
  token, naming another host or coming from a page of another origin;
- :func:`read_body`, :func:`read_json`: a request's body, refused (413) past a size, and
  as JSON (400 when it is not, or nests too deeply);
- :func:`error_response`, :func:`lang_error_response`: the ``{"error": {"message": ...}}``
  answers, a program's error located (line, column, the line quoted);
- :func:`while_connected`: an answer's work, cancelled (its child killed) when the
  client disconnects first;
- :func:`natural`: a whole number of the query or the path, bounded.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any, TypeVar
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from excover.lang.errors import LangError

__all__ = [
    "GONE",
    "MAX_BODY",
    "Guard",
    "error_response",
    "lang_error_response",
    "natural",
    "read_body",
    "read_json",
    "while_connected",
]

#: The most bytes a request body may hold (a design or a .cmb program).
MAX_BODY = 1 << 20
#: The status of an answer to a client that went away before it (nobody reads it).
GONE = 499

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")


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
            await error_response(403, reason)(scope, receive, send)
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


def error_response(status: int, message: str, **where: object) -> JSONResponse:
    return JSONResponse({"error": {"message": message, **where}}, status_code=status)


def lang_error_response(error: LangError) -> JSONResponse:
    """A located error of a program: line, column, and the line with a caret."""
    return error_response(
        400, error.message, line=error.pos.line, column=error.pos.column, report=error.report()
    )


async def read_body(request: Request, most: int = MAX_BODY) -> bytes:
    """The request's body, refused (413) past ``most`` bytes (:data:`MAX_BODY`)."""
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > most:
        raise HTTPException(413, f"the body is larger than {most} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > most:
            raise HTTPException(413, f"the body is larger than {most} bytes")
    return bytes(data)


async def read_json(request: Request) -> Any:
    try:
        return json.loads(await read_body(request))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HTTPException(400, f"the body is not JSON: {error}") from None
    except RecursionError:
        raise HTTPException(400, "the body is nested too deeply to be a design") from None


async def _disconnected(request: Request) -> None:
    """Return once the client of ``request`` (whose body is read) has disconnected."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def while_connected(request: Request, work: Coroutine[Any, Any, T]) -> T:
    """The result of ``work``, unless the client of ``request`` (whose body is read)
    disconnects first: ``work`` is then cancelled (its child killed and reaped) and the
    answer, which nobody reads, is an error of status :data:`GONE`."""
    done = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({done, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not done.done():
            done.cancel()
            await asyncio.gather(done, return_exceptions=True)
    if done.cancelled():
        raise HTTPException(GONE, "the client went away")
    return done.result()


def natural(request: Request, name: str, default: int, path: bool = False) -> int:
    """A non-negative integer of the query (or of the path), at most a million."""
    text = request.path_params.get(name) if path else request.query_params.get(name)
    if text is None:
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise HTTPException(400, f"{name} must be a number from 0 to 999999, not {text!r}")
    return int(text)
