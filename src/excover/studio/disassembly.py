"""A solution of a 3D design taken apart (:mod:`excover.burr`), away from the server.

The page asks for the disassembly of a solution it shows in 3D. The server hands the
cells of its pieces to a child process (:class:`~excover.studio.child.Child`, bounded in
memory as every child of the studio is), which turns them into BurrTools' voxels (the
cube grid's cells are its voxels; a triangular prism's strip coordinates become
BurrTools' prism voxels, :func:`~excover.burr.xmpuzzle.lattice.from_prism_strips`)
and takes them apart with :func:`excover.burr.disassemble`, bounded by its own time
limit and state cap (:class:`Bounds`): past either the answer is ``unknown``, never
``stuck``. The server waits for the answer without holding a thread, and kills the child
should it outlive its time limit by :data:`GRACE` seconds.

The answer (:func:`described`) is what the page plays: the status, BurrTools' level
string and the number of moves, each move (its pieces, its direction by name, its
distance, None for out), and each state as the translation **in space** of every piece
(the units of the 3D view's faces, :func:`excover.studio.library.solid_view`), the
assembled state first. A set taken out is put beyond the assembly's box, as
:attr:`excover.burr.Disassembly.states` puts it. The pieces are numbered as the
solution's placements, which is the order of the 3D view's pieces.

A move slides one set of a part's pieces against the others, so that moving those others
the opposite way is the same move. The page shows, in each part, its largest piece
staying put (:func:`_held`): a cube leaves the frame around it, rather than the frame
flying off the cube.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from excover.burr.disassembly import DIRECTION_NAMES
from excover.errors import ExcoverError, UsageError
from excover.studio.child import Child, Outbox, answer
from excover.studio.limits import Limits
from excover.studio.runs import Settings
from excover.tiling.grids import GRIDS, by_burrtools

if TYPE_CHECKING:
    from excover.burr import Disassembly, Separation

__all__ = [
    "BURR_GRIDS",
    "GRACE",
    "MAX_STATES",
    "SECONDS",
    "Bounds",
    "DisassemblyFailed",
    "described",
    "disassemble_cells",
    "taken_apart",
]

#: The grids whose solutions come apart (those of BurrTools' grids whose moves the
#: disassembler knows): the studio's name -> BurrTools' grid number.
BURR_GRIDS = {by_burrtools(number).name: number for number in DIRECTION_NAMES}
#: The most configurations a disassembly explores (over all its searches), and by default.
MAX_STATES = 5_000_000
#: The seconds a disassembly takes at most when the page sets no time limit.
SECONDS = 60.0
#: Seconds past its time limit after which the server kills a disassembly's child.
GRACE = 10.0

Event = dict[str, Any]
Cells = Sequence[Sequence[tuple[int, ...]]]


class DisassemblyFailed(UsageError):
    """A disassembly refused by the disassembler (its message says why: more than 64
    pieces, say), or whose child died or outlived its time limit."""


@dataclass(frozen=True)
class Bounds:
    """What one disassembly may spend: ``seconds`` of time and ``max_states``
    configurations explored."""

    seconds: float = SECONDS
    max_states: int = MAX_STATES

    @classmethod
    def from_json(cls, data: object) -> Bounds:
        """The bounds the page sent (``{"seconds": 60, "max_states": 100000}``, each
        optional), checked: the time limit as a run's (:class:`~excover.studio.runs.
        Settings`), the state cap from 1 to :data:`MAX_STATES`."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise UsageError("disassembly: expected an object of its limits")
        try:
            seconds = Settings.from_json({"seconds": data.get("seconds")}, None).seconds
        except UsageError as error:
            raise UsageError(f"disassembly: {str(error).removeprefix('settings: ')}") from None
        states = data.get("max_states", MAX_STATES)
        if isinstance(states, bool) or not isinstance(states, int) or not 1 <= states <= MAX_STATES:
            raise UsageError(f"disassembly: max_states must be 1 to {MAX_STATES:,} states")
        return cls(SECONDS if seconds is None else seconds, states)


def taken_apart(grid: str, pieces: Cells, seconds: float, max_states: int, news: Outbox) -> None:
    """The child's work: the disassembly of the pieces (their cells on ``grid``), sent
    through ``news`` as :func:`described` says it, after a ``ready`` once the
    disassembler is loaded (the time limit counts from there)."""
    from excover.burr import Assembly, disassemble

    news.send({"type": "ready"})
    event: Event | None = None
    try:
        assembly = Assembly.of_voxels([_voxels(grid, cells) for cells in pieces], BURR_GRIDS[grid])
        result = disassemble(assembly, timeout=seconds, max_states=max_states)
        event = {"type": "result", **described(result, grid, pieces)}
    except ExcoverError as error:  # the request's own fault (too many pieces): its reason
        event = {"type": "error", "message": str(error)}
    except MemoryError:
        pass  # said below, once the frames holding the memory are gone
    except Exception as error:  # a bug: said in one line, never a traceback
        event = {"type": "error", "message": f"internal error: {type(error).__name__}"}
    if event is None:
        event = {"type": "result", "status": "unknown", "reason": news.memory_message}
    news.send(event)
    news.close()


def _voxels(grid: str, cells: Sequence[tuple[int, ...]]) -> list[tuple[int, int, int]]:
    """BurrTools' voxels of a piece's cells on ``grid``."""
    if not GRIDS[grid].traits.strips:  # the cube's cells are its voxels
        return [(x, y, z) for x, y, z in cells]
    import numpy as np

    from excover.burr.xmpuzzle.lattice import from_prism_strips

    voxels = from_prism_strips(np.array(cells, dtype=np.int64))
    return [(int(x), int(y), int(z)) for x, y, z in voxels.tolist()]


def described(result: Disassembly, grid: str, pieces: Cells) -> Event:
    """What the page shows of ``result``, the disassembly of ``pieces`` (their cells on
    ``grid``): see the module's notes."""
    names = DIRECTION_NAMES[BURR_GRIDS[grid]]
    if result.tree is not None:
        sizes = [len(piece.voxels) for piece in result.assembly.pieces]
        result = replace(result, tree=_held(result.tree, sizes))
    return {
        "status": result.status,
        "level": result.level,
        "total": result.total,
        "reason": result.reason,
        "states_explored": result.states_explored,
        "beyond_greedy": result.beyond_greedy,
        "moves": [
            {"pieces": list(m.pieces), "direction": names[m.direction], "distance": m.distance}
            for m in result.moves
        ],
        "states": _in_space(grid, pieces, result.states),
    }


def _held(part: Separation, sizes: list[int]) -> Separation:
    """The separation tree ``part`` with each move that slides the part's largest piece
    (by ``sizes``, the first of equals) turned into the same move of the part's other
    pieces, the opposite way."""
    from excover.burr import Move

    anchor = max(part.pieces, key=lambda p: (sizes[p], -p))
    moves = []
    for move in part.moves:
        if anchor in move.pieces:
            others = tuple(p for p in part.pieces if p not in move.pieces)
            move = Move(others, move.direction ^ 1, move.distance, move.grid)  # along, against
        moves.append(move)
    return replace(
        part,
        moves=tuple(moves),
        left=None if part.left is None else _held(part.left, sizes),
        removed=None if part.removed is None else _held(part.removed, sizes),
    )


def _in_space(
    grid: str, pieces: Cells, states: list[tuple[tuple[int, int, int], ...]]
) -> list[list[list[float]]]:
    """Each state's voxel translations as translations in space: the move of the centre
    of each piece's first cell."""
    from excover.tiling.geometry import cell_centres

    shape = GRIDS[grid]
    firsts = [_voxels(grid, cells[:1])[0] for cells in pieces]
    home = cell_centres(shape, [cells[0] for cells in pieces])
    found = []
    for state in states:
        moved = [
            tuple(v + d for v, d in zip(first, shift, strict=True))
            for first, shift in zip(firsts, state, strict=True)
        ]
        cells = [_cell(grid, voxel) for voxel in moved]
        found.append((cell_centres(shape, cells) - home).round(6).tolist())
    return found


def _cell(grid: str, voxel: tuple[int, ...]) -> tuple[int, ...]:
    """The cell of ``grid`` that is BurrTools' ``voxel`` (on the prism grid, its strip
    coordinates; on the cube, the voxel)."""
    import numpy as np

    (cell,) = GRIDS[grid].from_voxels(np.array([voxel], dtype=np.int64)).tolist()
    return tuple(int(v) for v in cell)


async def disassemble_cells(
    grid: str, pieces: Cells, bounds: Bounds, limits: Limits, running: set[Child]
) -> Event:
    """The disassembly of ``pieces`` (their cells on ``grid``, a grid of
    :data:`BURR_GRIDS`) within ``bounds``, made in a child bounded by ``limits`` (in
    ``running`` while it lives): :func:`described`'s answer with ``type`` ``result``.
    Raises :class:`DisassemblyFailed` when the disassembler refuses the pieces (with its
    reason), or when the child dies or outlives its time."""
    args = (grid, pieces, bounds.seconds, bounds.max_states)
    child = Child(taken_apart, args, "the disassembly", limits)
    too_long = f"the disassembly stopped: it took more than {bounds.seconds + GRACE:g} s"
    event = await answer(child, bounds.seconds + GRACE, too_long, DisassemblyFailed, running)
    if event["type"] == "error":
        raise DisassemblyFailed(event["message"])
    return event
