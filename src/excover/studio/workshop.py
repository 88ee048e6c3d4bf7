"""The studio as a burr workshop: a BurrTools puzzle edited on the page, made again and
saved as an ``.xmpuzzle`` file that BurrTools opens.

The page edits a puzzle it opened (or a new one): its shapes (drawn voxel by voxel,
filled ``#``, variable ``+`` or empty ``_``, any size) and its problems (the pieces, each
a shape with a count or a range, and the result). It sends the edits
(:func:`edited_puzzle` reads them) with the id of the puzzle they start from; the
server makes the new puzzle in a child, as every import is made (the base file parsed,
the edits applied, the file written by BurrTools' layout,
:func:`excover.burr.xmpuzzle.format_xmpuzzle`, and described for the page,
:func:`excover.studio.burrtools.summary`), and keeps it as a puzzle opened: it is
assembled, played and saved like any other.

What an edit keeps of the base: a shape whose voxels are unchanged keeps its colours,
weight and hotspot (a renamed one too); an edited shape keeps its weight (a frame stays
heavier than the pieces that slide in it), its colours are dropped. A problem whose
pieces and result are unchanged, their shapes all unchanged, keeps everything the file
had (BurrTools' counts, its stored solutions and their separations, piece groups,
colour constraints); any other problem is a new, unsolved one (colour constraints and a
maximum of holes kept).

**Saving** (:mod:`excover.studio.saving`): the puzzle as kept, gzip-compressed as
BurrTools writes; an assemble run that took each assembly apart makes the file of its
puzzle with the problem solved (BurrTools' counts, the hardest 100 solutions stored with
their separations), which the page saves instead. :func:`design_puzzle` makes a
BurrTools puzzle of the design on the page (squares or cubes).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from excover.errors import UsageError
from excover.studio.burrtools import STORED_SHARE, _failure, summary
from excover.studio.child import Child, Outbox, answer
from excover.studio.imports import ImportFailed
from excover.studio.limits import Limits
from excover.studio.saving import gzipped
from excover.tiling.grids import by_burrtools

if TYPE_CHECKING:
    from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part
    from excover.studio.design import StudioDesign

__all__ = [
    "DESIGN_GRIDS",
    "MAX_EDITED_SHAPES",
    "MAX_PROBLEMS",
    "MAX_SIDE",
    "MAX_VOLUME",
    "design_puzzle",
    "edited_puzzle",
    "make_puzzle",
]

Event = dict[str, Any]

#: The most shapes and problems a puzzle edited on the page holds.
MAX_EDITED_SHAPES = 256
MAX_PROBLEMS = 64
#: The longest side of a shape drawn on the page, and the most voxels of its box.
MAX_SIDE = 64
MAX_VOLUME = 32_768
#: The most pieces (parts) of a problem, and the most copies of one.
MAX_PARTS = 256
MAX_COPIES = 1_000
#: The states of a voxel in BurrTools' files.
_STATES = frozenset("#+_")


def _natural(value: object, what: str, most: int, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise UsageError(f"{what}: a whole number from {least} to {most}")
    return value


def _name(value: object, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 100:
        raise UsageError(f"{what}: a name of at most 100 characters")
    return value.strip()


def _shape(entry: object, number: int, base: BurrPuzzle | None) -> tuple[BurrShape, bool]:
    """Shape ``number`` of the edits (``{"from": K}``: base shape K as it is; with
    ``size`` and ``states``: drawn), and whether it is base shape ``number`` with its
    voxels unchanged (renamed or not)."""
    from excover.burr.xmpuzzle import BurrShape

    what = f"shapes[{number}]"
    if not isinstance(entry, dict):
        raise UsageError(f"{what}: an object")
    origin = entry.get("from")
    old = None
    if origin is not None:
        count = 0 if base is None else len(base.shapes)
        if count == 0 or base is None:
            raise UsageError(f"{what}.from: no puzzle to take a shape from")
        old = base.shapes[_natural(origin, f"{what}.from", count - 1)]
    if "states" not in entry:
        if old is None:
            raise UsageError(f"{what}: give its size and states, or the shape it is (from)")
        name = _name(entry["name"], f"{what}.name") if "name" in entry else old.name
        return replace(old, name=name), origin == number
    size = entry.get("size")
    if not isinstance(size, list) or len(size) != 3:
        raise UsageError(f"{what}.size: three whole numbers [x, y, z]")
    sx, sy, sz = (_natural(v, f"{what}.size", MAX_SIDE, 1) for v in size)
    if sx * sy * sz > MAX_VOLUME:
        raise UsageError(f"{what}.size: at most {MAX_VOLUME:,} voxels in its box")
    states = entry["states"]
    if not isinstance(states, str) or len(states) != sx * sy * sz or not set(states) <= _STATES:
        raise UsageError(
            f"{what}.states: {sx * sy * sz} characters, each # (filled), + (variable) or _"
        )
    name = _name(entry.get("name"), f"{what}.name")
    if old is not None and old.size == (sx, sy, sz) and old.states == states:
        return replace(old, name=name), origin == number
    weight = 1 if old is None else old.weight
    return BurrShape((sx, sy, sz), states, name=name, weight=weight), False


def _count(part: dict[str, Any], what: str) -> tuple[int, int]:
    lo = _natural(part.get("lo", 1), f"{what}.lo", MAX_COPIES)
    hi = _natural(part.get("hi", lo), f"{what}.hi", MAX_COPIES)
    if hi < lo or hi == 0:
        raise UsageError(f"{what}: copies from lo to hi, lo <= hi, hi at least 1")
    return lo, hi


def _problem(
    entry: object, number: int, base: BurrPuzzle | None, shapes: list[BurrShape], same: list[bool]
) -> BurrProblem:
    """Problem ``number`` of the edits (``{"from": K}`` and, edited, its ``name``,
    ``result`` and ``parts``)."""
    from excover.burr.xmpuzzle import BurrProblem, Part

    what = f"problems[{number}]"
    if not isinstance(entry, dict):
        raise UsageError(f"{what}: an object")
    old = None
    if entry.get("from") is not None:
        count = 0 if base is None else len(base.problems)
        if count == 0 or base is None:
            raise UsageError(f"{what}.from: no puzzle to take a problem from")
        old = base.problems[_natural(entry["from"], f"{what}.from", count - 1)]
    name = _name(entry["name"], f"{what}.name") if "name" in entry else (old.name if old else "")
    last = len(shapes) - 1
    if "result" in entry:
        result = _natural(entry["result"], f"{what}.result", last)
    elif old is not None:
        result = old.result
    else:
        raise UsageError(f"{what}.result: the number of the result's shape")
    if "parts" in entry:
        listed = entry["parts"]
        if not isinstance(listed, list) or not 0 < len(listed) <= MAX_PARTS:
            raise UsageError(f"{what}.parts: a list of 1 to {MAX_PARTS} pieces")
        parts: list[Part] = []
        for k, part in enumerate(listed):
            where = f"{what}.parts[{k}]"
            if not isinstance(part, dict):
                raise UsageError(f"{where}: an object")
            shape = _natural(part.get("shape"), f"{where}.shape", last)
            if shape == result:
                raise UsageError(f"{where}: the result's shape is no piece of its problem")
            lo, hi = _count(part, where)
            parts.append(Part(shape, lo, hi))
    elif old is not None:
        parts = list(old.parts)
    else:
        raise UsageError(f"{what}.parts: the pieces of the problem")
    if old is not None:
        bare = [(p.shape, p.lo, p.hi) for p in old.parts]
        unchanged = bare == [(p.shape, p.lo, p.hi) for p in parts] and result == old.result
        if unchanged and all(same[k] for k in [result, *(p.shape for p in parts)]):
            return replace(old, name=name)
        groups = {(p.shape, p.hi): p.groups for p in old.parts}
        parts = [replace(p, groups=groups.get((p.shape, p.hi), ())) for p in parts]
        return BurrProblem(tuple(parts), result, name, old.color_pairs, old.max_holes)
    return BurrProblem(tuple(parts), result, name)


def edited_puzzle(base: BurrPuzzle | None, edits: object) -> BurrPuzzle:
    """The puzzle that ``edits`` (the page's JSON: ``shapes`` and ``problems``, each
    entry ``{"from": K}`` for the base's as it is, or drawn: a shape's ``name``,
    ``size`` and ``states``, a problem's ``name``, ``result`` and ``parts``) make of
    ``base`` (None: a new puzzle, of the grid ``edits["grid"]``). Raises
    :class:`~excover.errors.UsageError` naming the field at fault."""
    from excover.burr.xmpuzzle import BurrPuzzle
    from excover.burr.xmpuzzle.model import GRID_NAMES

    if not isinstance(edits, dict):
        raise UsageError("the edits: an object with shapes and problems")
    listed = edits.get("shapes")
    if not isinstance(listed, list) or not 0 < len(listed) <= MAX_EDITED_SHAPES:
        raise UsageError(f"shapes: a list of 1 to {MAX_EDITED_SHAPES} shapes")
    made = [_shape(entry, k, base) for k, entry in enumerate(listed)]
    shapes = [shape for shape, _ in made]
    same = [unchanged for _, unchanged in made]
    problems = edits.get("problems", [])
    if not isinstance(problems, list) or len(problems) > MAX_PROBLEMS:
        raise UsageError(f"problems: a list of at most {MAX_PROBLEMS} problems")
    made_problems = tuple(_problem(p, k, base, shapes, same) for k, p in enumerate(problems))
    if base is not None:
        return replace(base, shapes=tuple(shapes), problems=made_problems)
    grid = _natural(edits.get("grid", 0), "grid", max(GRID_NAMES))
    return BurrPuzzle(tuple(shapes), made_problems, grid)


def _made(
    base: bytes | None, name: str, edits: dict[str, Any], seconds: float, news: Outbox
) -> None:
    """The child's work of an edit: the puzzle the edits make of the file ``base`` (its
    bytes; None: a new puzzle), written and described, sent through ``news`` as
    ``{"type": "puzzle", "puzzle": summary, "data": bytes}``."""
    from excover.burr.check import check_solution  # noqa: F401  (loaded before the clock)
    from excover.burr.xmpuzzle import format_xmpuzzle, parse_xmpuzzle

    news.send({"type": "ready"})
    event: Event | None
    try:
        puzzle = None if base is None else parse_xmpuzzle(base, name)
        made = edited_puzzle(puzzle, edits)
        data = gzipped(format_xmpuzzle(made).encode("utf-8"))
        again = parse_xmpuzzle(data, name)  # as the page's later runs will read it
        event = {"type": "puzzle", "puzzle": summary(again, name, seconds), "data": data}
    except Exception as error:  # every failure said in one line, never a traceback
        event = _failure(error, "the edit")
    news.send(event or {"type": "error", "message": news.memory_message})
    news.close()


async def make_puzzle(
    base: bytes | None,
    name: str,
    edits: dict[str, Any],
    limits: Limits,
    running: set[Child] | None = None,
) -> tuple[bytes, Event]:
    """The bytes and summary of the puzzle the page's ``edits`` make of ``base`` (a
    puzzle's file; None: a new one), made in a child bounded as an import. Raises
    :class:`~excover.studio.imports.ImportFailed` with the reason."""
    child = Child(_made, (base, name, edits, limits.seconds * STORED_SHARE), "the edit", limits)
    too_long = f"the edit stopped: it took more than {limits.seconds:g} s"
    event = await answer(child, limits.seconds, too_long, ImportFailed, running)
    if event["type"] != "puzzle":
        raise ImportFailed(event.get("message", "the edit failed"))
    shown: Event = event["puzzle"]
    return event["data"], shown


#: The studio's grids whose designs become BurrTools puzzles, and how BurrTools moves
#: their pieces: a flat piece turns over in space (every isometry of the plane), a piece
#: of cubes is turned, never mirrored.
#: :func:`excover.burr.xmpuzzle.design` writes puzzles of BurrTools' grid 0 (cubes),
#: whose pieces may be drawn as patterns of its grid or of its layers' grid (squares).
_WRITTEN = by_burrtools(0)
DESIGN_GRIDS = {_WRITTEN.layer_grid.name: "all", _WRITTEN.name: "rotations"}


class _Cells(NamedTuple):
    """A pattern's cells, as :func:`excover.burr.xmpuzzle.design` reads them."""

    cells: tuple[tuple[int, ...], ...]


def design_puzzle(design: StudioDesign) -> BurrPuzzle:
    """The studio's ``design`` (a board and pieces of squares or cubes) as a BurrTools
    puzzle of one problem (:func:`excover.burr.xmpuzzle.design`): the board the result,
    each piece used a shape with its copies (a count without a bound, such as ``any``,
    bounded by how many fit in the board's cells). Raises
    :class:`~excover.errors.UsageError` when BurrTools would move a piece otherwise than
    the design does (a flat piece that may not be turned over, a piece of cubes that may
    be mirrored), unless the piece is its own mirror image."""
    from excover.burr.xmpuzzle import design as burr_design
    from excover.studio.cells import shape
    from excover.tiling import Tile

    if design.grid not in DESIGN_GRIDS:
        raise UsageError(
            f"grid: BurrTools files are made of designs on squares or cubes, not {design.grid}"
        )
    design.check_usable()
    board = design.board_shape()
    area = len(board.coords())
    moved = DESIGN_GRIDS[design.grid]
    pieces = {}
    for piece in design.used:
        pattern = shape(design.grid, piece.cells)
        mine = Tile(pattern, piece.name, symmetry=piece.symmetry).orientation_keys()
        theirs = Tile(pattern, piece.name, symmetry=moved).orientation_keys()
        if mine != theirs:
            how = "turns a flat piece over" if moved == "all" else "never mirrors a piece"
            raise UsageError(
                f"piece {piece.name}: BurrTools {how}, and this one moves otherwise here "
                f"({piece.symmetry}): {'tick' if moved == 'all' else 'untick'} "
                "'pieces may be turned over'"
            )
        size = len(pattern.coords())
        hi = piece.hi if piece.hi is not None else max(piece.lo, area // size)
        pieces[piece.name] = (_cells(pattern), piece.lo, hi)
    return burr_design(_cells(board), pieces, name="board")


def _cells(pattern: Any) -> _Cells:
    return _Cells(tuple(tuple(int(v) for v in cell) for cell in pattern.coords()))
