"""The burr workshop's routes (:mod:`excover.studio.workshop`), served by the studio's
app (:func:`excover.studio.app.create_app`) beside its own:

    POST /api/export/xmpuzzle     the design on the page (squares or cubes) as a
                                  BurrTools puzzle (:func:`~excover.studio.workshop.design_puzzle`)
    POST /api/puzzles             a puzzle edited on the page: {"base": ID or null,
                                  "shapes": [...], "problems": [...]} made in a child
                                  (:func:`~excover.studio.workshop.make_puzzle`), bounded
                                  and queued as an import, and kept as a puzzle opened
                                  -> {"puzzle": ...}, with its new id
    GET  /api/puzzles/ID/save     the puzzle as an .xmpuzzle file (gzip); ?run=RUN: with
                                  the problem of that assemble run solved (its
                                  solutions and their separations stored)
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from excover.studio.burrtools import file_name
from excover.studio.design import StudioDesign
from excover.studio.imports import MAX_IMPORTS_WAITING
from excover.studio.saving import gzipped, xmpuzzle_name
from excover.studio.web import error_response, read_json, while_connected
from excover.studio.workshop import design_puzzle, make_puzzle

if TYPE_CHECKING:
    from excover.studio.app import Studio

__all__ = ["workshop_routes"]


async def export_xmpuzzle(studio: Studio, request: Request) -> Response:
    """The design as a BurrTools puzzle (squares or cubes; the board the result, the
    pieces used its shapes), gzip-compressed as BurrTools writes."""
    design = StudioDesign.from_json(await read_json(request))

    def made() -> bytes:
        from excover.burr.xmpuzzle import format_xmpuzzle

        return gzipped(format_xmpuzzle(design_puzzle(design)).encode("utf-8"))

    data = await asyncio.to_thread(made)
    headers = {"Content-Disposition": 'attachment; filename="design.xmpuzzle"'}
    return Response(data, media_type="application/gzip", headers=headers)


async def edit_puzzle(studio: Studio, request: Request) -> Response:
    """A puzzle edited on the page: the edits of the puzzle ``base`` (an id; none: a new
    puzzle) made in a child when the imports' turn comes, the new puzzle kept as one
    opened, its summary answered with its id."""
    body = await read_json(request)
    if not isinstance(body, dict):
        return error_response(400, "the edits: an object with shapes and problems")
    base = body.get("base")
    data = None
    given = body.get("name")
    name = file_name(given if isinstance(given, str) else None, "new.xmpuzzle")
    if base is not None:
        kept = studio.puzzles.get(base) if isinstance(base, str) else None
        if kept is None:
            return error_response(404, "no such puzzle (any more): open the file again")
        data, name = kept.data, kept.name
    if studio.importers > MAX_IMPORTS_WAITING:
        return error_response(429, "too many imports at once: wait for one to end")
    turn = studio.import_turn()
    studio.importers += 1
    try:
        made = await while_connected(request, _made(studio, data, name, body, turn))
    finally:
        studio.importers -= 1
    if made is None:
        return error_response(503, "the studio is stopping")
    new, shown = made
    return JSONResponse({"puzzle": studio.keep_puzzle(new, name, shown)})


async def _made(
    studio: Studio, data: bytes | None, name: str, edits: dict[str, Any], turn: asyncio.Lock
) -> tuple[bytes, dict[str, Any]] | None:
    async with turn:
        if studio.stopping:
            return None
        return await make_puzzle(data, name, edits, studio.limits, studio.imports)


async def save_puzzle(studio: Studio, request: Request) -> Response:
    """A puzzle opened, as an ``.xmpuzzle`` file to download: as kept, or (``?run=`` an
    assemble run of it that took every assembly apart) with that run's problem solved,
    its solutions stored with their separations."""
    key = request.path_params["key"]
    kept = studio.puzzles.get(key)
    if kept is None:
        raise HTTPException(404, "no such puzzle (any more): open the file again")
    data = kept.data
    run = request.query_params.get("run")
    if run:
        listed = studio.assembly_lists.get(run)
        if listed is None or listed.puzzle != key:
            raise HTTPException(404, f"no assemblies of run {run!r} of this puzzle (any more)")
        if listed.saved is None:
            raise HTTPException(409, "the run has not taken its assemblies apart (yet)")
        data = listed.saved
    name = xmpuzzle_name(kept.name).replace('"', "")
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(gzipped(data), media_type="application/gzip", headers=headers)


def workshop_routes(studio: Studio) -> list[Route]:
    """The workshop's routes, each answered for ``studio``."""

    async def export(request: Request) -> Response:
        return await export_xmpuzzle(studio, request)

    async def edit(request: Request) -> Response:
        return await edit_puzzle(studio, request)

    async def save(request: Request) -> Response:
        return await save_puzzle(studio, request)

    return [
        Route("/api/export/xmpuzzle", export, methods=["POST"]),
        Route("/api/puzzles", edit, methods=["POST"]),
        Route("/api/puzzles/{key}/save", save),
    ]
