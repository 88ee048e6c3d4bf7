"""BurrTools puzzles (``.xmpuzzle`` files) in the studio: opened, shown, assembled, played.

The page's **Open** sends the file's bytes as they are; the server tells a BurrTools file
from a ``.cmb`` program by its content (:func:`is_puzzle`: gzip's magic bytes, or XML),
never by its name. Everything a user's file asks for happens in a child process
(:class:`~excover.studio.child.Child`, bounded in memory, killed past its time), as for
the studio's other imports, runs and disassemblies:

- **reading** (:func:`open_puzzle`): the file parsed by
  :func:`excover.burr.xmpuzzle.parse_xmpuzzle` (gzip-compressed or plain XML, a
  ``FormatError`` naming the file and the line) and described for the page
  (:func:`summary`): its grid, its shapes drawn layer by layer (filled ``*``, variable
  ``+``: a voxel of the result that may stay empty), its problems with their pieces
  (shape, count or range), their result, BurrTools' figures and the solutions stored,
  each stored separation checked and measured (:func:`excover.burr.check.check_solution`:
  level and moves) within a share of the import's time;
- **assembling** (:func:`assembled`, the child of a run of the task :data:`ASSEMBLE_TASK`,
  with the run machinery's heartbeat, time limit, memory bound and Cancel): the
  assemblies of a problem, one per symmetry class as BurrTools counts them
  (:func:`excover.burr.assemblies`), each taken apart as it is found when asked
  (:func:`excover.burr.disassemble_all`: its status, level and moves), sent in batches;
  the options of each (a few integers) go to the server, which keeps them
  (:class:`AssemblyList`) so that the page can ask for one to be played;
- **playing** (:func:`play`): one assembly of such a list (decoded again from its
  options and taken apart by :func:`excover.burr.disassemble`) or one stored solution
  (its separation read back as the file has it), described as the studio's disassembly
  player wants it (:func:`excover.studio.disassembly.described`: the level, the moves,
  every state in space) with the pieces' surfaces for the 3D view, their names and
  colours.

Assemblies are played on the two grids whose pieces slide along the axes of a box of
voxels, cubes and triangular prisms (:data:`PLAY_GRIDS`); a puzzle of another grid is
shown and its assemblies listed, not taken apart.
"""

from __future__ import annotations

import re
import resource
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from excover.errors import ExcoverError, LimitReached, UsageError
from excover.studio.child import Child, Outbox, answer
from excover.studio.disassembly import BURR_GRIDS, GRACE, Bounds, DisassemblyFailed
from excover.studio.imports import ImportFailed
from excover.studio.limits import Limits
from excover.studio.runs import Settings

if TYPE_CHECKING:
    from excover.burr import Assembly, Disassembly, Separation
    from excover.burr.xmpuzzle import BurrPuzzle, BurrShape

__all__ = [
    "ASSEMBLE_TASK",
    "MAX_ASSEMBLIES_KEPT",
    "MAX_PUZZLE_BYTES",
    "PLAY_GRIDS",
    "AssembleRequest",
    "AssemblyList",
    "Opened",
    "assembled",
    "file_name",
    "is_puzzle",
    "open_puzzle",
    "play",
    "summary",
]

Event = dict[str, Any]
Voxel = tuple[int, int, int]

#: The task of a run that lists (and takes apart) the assemblies of a puzzle's problem.
ASSEMBLE_TASK = "assemble"
#: The most bytes of an ``.xmpuzzle`` file the page may send (compressed or not; the
#: largest of BurrTools' examples are well under a megabyte of gzip).
MAX_PUZZLE_BYTES = 8 << 20
#: A shape is drawn for the page when the box of its voxels has at most this many...
MAX_DRAWN_VOXELS = 32_768
#: ...and while the drawings of the whole file stay under this many voxels.
MAX_DRAWN_TOTAL = 1_000_000
#: The most stored solutions of a problem described one by one (all are counted).
MAX_STORED_LISTED = 1_000
#: The share of the import's time spent checking stored separations for their levels
#: (those left unmeasured are measured when played).
STORED_SHARE = 1 / 3
#: The most assemblies a run describes and the server keeps to play (all are counted).
MAX_ASSEMBLIES_KEPT = 10_000
#: The most configurations one assembly's disassembly explores in a run (each assembly
#: past it is ``unknown``; the run's time limit bounds the whole).
ASSEMBLY_STATES = 5_000_000
#: Seconds between two batches of assemblies a run sends.
BATCH_SECONDS = 0.1
#: BurrTools' grids whose assemblies are taken apart and played: its number -> the
#: studio's name of the grid (:data:`excover.studio.disassembly.BURR_GRIDS`).
PLAY_GRIDS = {number: name for name, number in BURR_GRIDS.items()}
#: The most characters of a puzzle's comment sent to the page.
MAX_COMMENT = 2_000

_GZIP = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_UNSAFE = re.compile(r"[^\w .,()+\-#@'&]")


def is_puzzle(data: bytes) -> bool:
    """Whether ``data`` is a BurrTools file rather than a ``.cmb`` program: gzip's magic
    bytes (BurrTools compresses its files), or XML (a ``<`` first, after a byte-order
    mark and white space), which no program starts with."""
    if data.startswith(_GZIP):
        return True
    return data[:4096].removeprefix(_BOM).lstrip().startswith(b"<")


def file_name(name: str | None, default: str = "upload.xmpuzzle") -> str:
    """The name of an uploaded file as messages say it: its last part, at most 100
    characters, of letters, digits and a few signs (the page sends it; it names the file
    in messages, and nothing is read or written under it)."""
    if not name:
        return default
    tail = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = _UNSAFE.sub("_", tail).strip()[:100]
    return cleaned or default


# ----------------------------------------------------------------- reading and showing


def _drawing(shape: BurrShape) -> tuple[list[list[str]], tuple[int, int, int]] | None:
    """The shape's voxels in the smallest box that holds them, as layers (bottom first)
    of rows (the largest ``y`` first) of ``*`` (filled), ``+`` (variable) and ``.``
    (empty), and the box's size; None when it has no voxel."""
    voxels = list(shape.voxels())
    if not voxels:
        return None
    low = [min(v[a] for v, _, _ in voxels) for a in range(3)]
    high = [max(v[a] for v, _, _ in voxels) for a in range(3)]
    sx, sy, sz = (high[a] - low[a] + 1 for a in range(3))
    grid = [[["."] * sx for _ in range(sy)] for _ in range(sz)]
    for (x, y, z), state, _ in voxels:
        grid[z - low[2]][high[1] - y][x - low[0]] = "*" if state == "#" else "+"
    return [["".join(row) for row in layer] for layer in grid], (sx, sy, sz)


def _shape_json(shape: BurrShape, number: int, budget: list[int]) -> Event:
    """What the page shows of shape ``number``: its name, its voxels counted, and its
    drawing while ``budget`` (voxels left to draw, a one-element list) allows."""
    filled = shape.states.count("#")
    variable = shape.states.count("+")
    found: Event = {
        "number": number,
        "name": shape.name,
        "label": shape.name or f"shape {number + 1}",
        "size": list(shape.size),
        "filled": filled,
        "variable": variable,
        "colours": any(shape.colors),
        "weight": shape.weight,
        "layers": None,
        "box": None,
        "states": None,
    }
    sx, sy, sz = shape.size
    if sx * sy * sz <= MAX_DRAWN_VOXELS and sx * sy * sz <= budget[0]:
        budget[0] -= sx * sy * sz
        found["states"] = shape.states  # to edit it (BurrTools' order: x fastest, then y, z)
    if sx * sy * sz > MAX_DRAWN_VOXELS * 64:  # too large even to trim
        return found
    drawn = _drawing(shape)
    if drawn is not None:
        layers, box = drawn
        volume = box[0] * box[1] * box[2]
        if volume <= MAX_DRAWN_VOXELS and volume <= budget[0]:
            budget[0] -= volume
            found["layers"], found["box"] = layers, list(box)
    return found


def piece_names(puzzle: BurrPuzzle, problem: int) -> list[str]:
    """The name of every piece of ``problem`` in BurrTools' numbering (each copy of a
    shape, placed or not): the shape's name (or ``shape N``), with ``#k`` after it when
    the problem uses the shape more than once."""
    names: list[str] = []
    for part in puzzle.problems[problem].parts:
        shape = puzzle.shapes[part.shape]
        label = shape.name or f"shape {part.shape + 1}"
        names.extend(label if part.hi == 1 else f"{label} #{k + 1}" for k in range(part.hi))
    return names


def _stored_json(puzzle: BurrPuzzle, problem: int, end: float) -> tuple[list[Event], int]:
    """The stored solutions of ``problem`` (the first :data:`MAX_STORED_LISTED`), each
    with its separation's level and moves while the time allows (``end``, a
    ``time.monotonic()`` instant), and how many there are."""
    from excover.burr.check import check_solution

    stored = puzzle.problems[problem].stored
    found = []
    for number, solution in enumerate(stored[:MAX_STORED_LISTED]):
        entry: Event = {
            "number": number,
            "assembly": solution.assembly_number,
            "solution": solution.solution_number,
            "separation": solution.separation is not None,
            "level": None,
            "total": None,
            "fault": None,
        }
        if entry["separation"] and puzzle.grid in PLAY_GRIDS and time.monotonic() < end:
            checked = check_solution(puzzle, problem, number)
            if checked.tree is None:
                entry["fault"] = checked.fault
            else:
                entry["level"], entry["total"] = checked.tree.level(), checked.tree.total()
        found.append(entry)
    return found, len(stored)


def _count(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def summary(puzzle: BurrPuzzle, name: str, seconds: float = 10.0) -> Event:
    """What the page shows of ``puzzle`` (read from the file ``name``): its grid, its
    shapes (:func:`_shape_json`), its problems (their pieces, result, BurrTools' figures
    and stored solutions, whose separations are measured within ``seconds``)."""
    budget = [MAX_DRAWN_TOTAL]
    shapes = [_shape_json(shape, k, budget) for k, shape in enumerate(puzzle.shapes)]
    end = time.monotonic() + seconds
    problems = []
    for k, spec in enumerate(puzzle.problems):
        stored, total = _stored_json(puzzle, k, end)
        result = puzzle.shapes[spec.result]
        problems.append(
            {
                "number": k,
                "name": spec.name,
                "label": spec.name or f"problem {k + 1}",
                "pieces": [
                    {
                        "shape": part.shape,
                        "lo": part.lo,
                        "hi": part.hi,
                        "count": _count(part.lo, part.hi),
                        "label": shapes[part.shape]["label"],
                    }
                    for part in spec.parts
                ],
                "piece_count": _count(sum(p.lo for p in spec.parts), sum(p.hi for p in spec.parts)),
                "piece_voxels": _count(
                    sum(p.lo * shapes[p.shape]["filled"] for p in spec.parts),
                    sum(p.hi * shapes[p.shape]["filled"] for p in spec.parts),
                ),
                "result": spec.result,
                "result_filled": result.states.count("#"),
                "result_variable": result.states.count("+"),
                "colour_constraints": bool(spec.color_pairs),
                "max_holes": spec.max_holes,
                "state": spec.state,
                "assemblies": spec.assemblies,
                "solutions": spec.solutions,
                "stored": stored,
                "stored_count": total,
            }
        )
    return {
        "name": name,
        "grid": puzzle.grid,
        "grid_name": puzzle.grid_name,
        "playable": puzzle.grid in PLAY_GRIDS,
        "comment": puzzle.comment[:MAX_COMMENT],
        "shapes": shapes,
        "problems": problems,
    }


def _failure(error: BaseException, what: str) -> Event | None:
    """The event saying why the child's work failed (None for a MemoryError: said once
    the frames holding the memory are gone)."""
    if isinstance(error, ExcoverError):
        return {"type": "error", "message": str(error)}
    if isinstance(error, MemoryError):
        return None
    if isinstance(error, RecursionError):
        return {"type": "error", "message": f"{what} stopped: the file nests too deeply"}
    said = f"{type(error).__name__}: {error}"[:200]
    return {"type": "error", "message": f"{what} failed ({said}): please report it"}


def read_puzzle(data: bytes, name: str, seconds: float, news: Outbox) -> None:
    """The child's work of an import: the :func:`summary` of the puzzle in ``data`` (the
    bytes of the file ``name``), or the error, sent through ``news``; stored separations
    are measured within ``seconds``."""
    from excover.burr.check import check_solution  # noqa: F401  (loaded before the clock)
    from excover.burr.xmpuzzle import parse_xmpuzzle

    news.send({"type": "ready"})
    event: Event | None
    try:
        puzzle = parse_xmpuzzle(data, name)
        event = {"type": "puzzle", "puzzle": summary(puzzle, name, seconds)}
    except Exception as error:  # every failure said in one line, never a traceback
        event = _failure(error, "the import")
    news.send(event or {"type": "error", "message": news.memory_message})
    news.close()


async def open_puzzle(
    data: bytes, name: str, limits: Limits, running: set[Child] | None = None
) -> Event:
    """The :func:`summary` of the puzzle in ``data`` (the file ``name``), read in a child
    bounded by ``limits`` as every import is (in ``running`` while it lives). Raises
    :class:`~excover.studio.imports.ImportFailed` with the reason: an error of the file
    (naming it, and the line), a limit, or a failure."""
    if len(data) > MAX_PUZZLE_BYTES:
        raise ImportFailed(f"{name}: the file is larger than {MAX_PUZZLE_BYTES:,} bytes")
    child = Child(read_puzzle, (data, name, limits.seconds * STORED_SHARE), "the import", limits)
    too_long = (
        f"the import stopped: it took more than {limits.seconds:g} s "
        "(excover studio --import-timeout)"
    )
    event = await answer(child, limits.seconds, too_long, ImportFailed, running)
    if event["type"] != "puzzle":
        raise ImportFailed(event.get("message", "the import failed"))
    found: Event = event["puzzle"]
    return found


# ----------------------------------------------------------------- assembling


class Opened(NamedTuple):
    """A puzzle the server keeps for the page: the file's bytes, its name, and how many
    problems it has."""

    data: bytes
    name: str
    problems: int


class AssembleRequest:
    """What a run of :data:`ASSEMBLE_TASK` does: the ``problem`` (from 0) of the puzzle
    the server holds under ``puzzle``, each assembly taken apart or not (``take_apart``)."""

    __slots__ = ("problem", "puzzle", "take_apart")

    def __init__(self, puzzle: str, problem: int, take_apart: bool) -> None:
        self.puzzle = puzzle
        self.problem = problem
        self.take_apart = take_apart

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> AssembleRequest:
        """The request the page sent (``{"puzzle": ID, "problem": K, "take_apart":
        true}``), checked (the puzzle's existence and the problem's range are the
        server's to check)."""
        puzzle = body.get("puzzle")
        if not isinstance(puzzle, str) or not puzzle:
            raise UsageError("puzzle: the id of a puzzle opened in the studio")
        problem = body.get("problem", 0)
        if isinstance(problem, bool) or not isinstance(problem, int) or problem < 0:
            raise UsageError("problem: the number of a problem of the puzzle, from 0")
        take_apart = body.get("take_apart", True)
        if not isinstance(take_apart, bool):
            raise UsageError("take_apart: true or false")
        return cls(puzzle, problem, take_apart)


class AssemblyList:
    """The assemblies of one run, kept by the server so that the page can play one: the
    puzzle's bytes and name, the problem, and each assembly's options (the first
    :data:`MAX_ASSEMBLIES_KEPT`)."""

    def __init__(self, data: bytes, name: str, problem: int, puzzle: str = "") -> None:
        self.data = data
        self.name = name
        self.problem = problem
        #: The id of the puzzle assembled, and the file of it solved by the run (its
        #: assemblies counted, its solutions stored with their separations) once the
        #: run has taken every assembly apart (:func:`excover.studio.workshop.saved`).
        self.puzzle = puzzle
        self.saved: bytes | None = None
        self.options: list[list[int]] = []
        self.finished = False

    def add(self, batch: list[Event]) -> None:
        """Keep the options of a batch of assemblies (taken out of each entry: the page
        gets the rest)."""
        for entry in batch:
            options = entry.pop("options")
            if len(self.options) < MAX_ASSEMBLIES_KEPT:
                self.options.append(options)


def _memory_bound() -> int | None:
    """The bytes a disassembler's tables may take in this child: a quarter of its address
    space (so that an assembly too large to search is ``unknown``, and the run goes on),
    None (the disassembler's own default) when the child has no bound."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // 4


def _entries(
    puzzle: BurrPuzzle, problem: int, take_apart: bool, deadline: float | None
) -> Iterator[tuple[Assembly, Disassembly | None]]:
    """Each assembly of ``problem``, with its disassembly when it is taken apart."""
    from excover.burr import assemblies, disassemble_all

    if take_apart:
        bound = _memory_bound()
        for result in disassemble_all(
            puzzle, problem, deadline=deadline, max_states=ASSEMBLY_STATES, max_memory=bound
        ):
            yield result.assembly, result
    else:
        for assembly in assemblies(puzzle, problem, deadline):
            yield assembly, None


def _entry(index: int, assembly: Assembly, result: Disassembly | None) -> Event:
    """What the page lists of an assembly (and the options the server keeps)."""
    entry: Event = {"index": index, "options": [int(o) for o in assembly.options]}
    entry["pieces"] = len(assembly.pieces)
    if result is not None:
        entry |= {
            "status": result.status,
            "level": result.level,
            "total": result.total,
            "key": list(result.sort_key()),
            "beyond_greedy": result.beyond_greedy,
            "reason": result.reason,
        }
    return entry


def assembled(
    design: dict[str, Any],
    task: str,
    settings: dict[str, Any],
    data: bytes,
    name: str,
    problem: int,
    take_apart: bool,
    news: Outbox,
) -> None:
    """The child's work of a run of :data:`ASSEMBLE_TASK` (``design`` and ``task`` are
    the run's, unused): the assemblies of ``problem`` of the puzzle in ``data``, each
    taken apart when ``take_apart`` (on the grids of :data:`PLAY_GRIDS`), sent in
    ``assemblies`` batches with the counts so far, then a ``result``; the run's time
    limit (``settings``) bounds the whole, the process's memory bound each disassembly's
    tables."""
    outcome: Event | None
    try:
        outcome = _assemble(Settings(**settings), data, name, problem, take_apart, news)
    except Exception as error:  # every failure said in one line, never a traceback
        outcome = _failure(error, "the run")
    try:
        if outcome is None:
            import gc

            gc.collect()  # the memory to say it with
            outcome = {"type": "error", "message": news.memory_message}
        news.send(outcome)
    finally:
        news.close()


def _assemble(
    settings: Settings, data: bytes, name: str, problem: int, take_apart: bool, news: Outbox
) -> Event:
    from excover.burr.disassembly import DIRECTIONS
    from excover.burr.xmpuzzle import parse_xmpuzzle

    started = time.monotonic()
    deadline = None if settings.seconds is None else started + settings.seconds
    puzzle = parse_xmpuzzle(data, name)
    if not 0 <= problem < len(puzzle.problems):
        raise UsageError(f"{name} has no problem {problem + 1}")
    why_not = None
    if take_apart and puzzle.grid not in DIRECTIONS:
        why_not = f"the disassembler moves pieces on cubes and prisms, not on {puzzle.grid_name}"
        take_apart = False
    what = "assembling and taking apart" if take_apart else "assembling"
    news.send({"type": "solving", "what": what, "placements": None, "note": why_not})
    counts = {"found": 0, "solved": 0, "stuck": 0, "unknown": 0}
    from excover.studio.saving import Hardest, saved

    hardest = Hardest()  # the solutions the file saved stores
    batch: list[Event] = []
    sent = time.monotonic()
    stopped_by = None

    def send() -> None:
        nonlocal batch, sent
        news.send({"type": "assemblies", "batch": batch, **counts})
        batch, sent = [], time.monotonic()

    try:
        for assembly, result in _entries(puzzle, problem, take_apart, deadline):
            if counts["found"] < MAX_ASSEMBLIES_KEPT:
                batch.append(_entry(counts["found"], assembly, result))
            counts["found"] += 1
            if result is not None:
                counts[result.status] += 1
                if result.status == "solved":
                    hardest.add(counts["found"] - 1, result)
            if time.monotonic() - sent > BATCH_SECONDS:
                send()
    except LimitReached:
        stopped_by = "timeout"
    send()
    if deadline is not None and time.monotonic() > deadline:
        stopped_by = "timeout"
    if take_apart:
        data = saved(puzzle, problem, hardest, counts["found"], stopped_by is None)
        news.send({"type": "saved", "data": data})
    return {
        "type": "result",
        "task": ASSEMBLE_TASK,
        "problem": problem,
        "take_apart": take_apart,
        "note": why_not,
        "complete": stopped_by is None,
        "stopped_by": stopped_by,
        "kept": min(counts["found"], MAX_ASSEMBLIES_KEPT),
        "seconds": round(time.monotonic() - started, 3),
        **counts,
    }


# ----------------------------------------------------------------- playing


def _renumbered(tree: Separation, number: dict[int, int]) -> Separation:
    """The separation tree ``tree`` with its pieces renumbered by ``number``."""
    from excover.burr import Move, Separation

    return Separation(
        tuple(number[p] for p in tree.pieces),
        tree.start,
        tuple(
            Move(tuple(number[p] for p in m.pieces), m.direction, m.distance, m.grid)
            for m in tree.moves
        ),
        None if tree.left is None else _renumbered(tree.left, number),
        None if tree.removed is None else _renumbered(tree.removed, number),
    )


def _stored(puzzle: BurrPuzzle, problem: int, number: int) -> tuple[Disassembly, list[int]]:
    """Stored solution ``number`` of ``problem`` as a disassembly (its pieces the placed
    ones, in BurrTools' order) and each piece's number in BurrTools' numbering. Raises
    :class:`~excover.studio.disassembly.DisassemblyFailed` when the file's separation
    does not hold (its fault named)."""
    from excover.burr import AssembledPiece, Assembly, Disassembly
    from excover.burr.check import check_solution
    from excover.burr.xmpuzzle.placements import placed

    spec = puzzle.problems[problem]
    stored = spec.stored
    if not 0 <= number < len(stored):
        raise UsageError(
            f"{puzzle.source}: problem {problem + 1} has no stored solution {number + 1}"
        )
    solution = stored[number]
    if solution.separation is None:
        raise DisassemblyFailed(
            f"{puzzle.source}: stored solution {number + 1} has no separation to play"
        )
    checked = check_solution(puzzle, problem, number)
    if checked.tree is None:
        raise DisassemblyFailed(
            f"{puzzle.source}, line {checked.line}: stored solution {number + 1}: {checked.fault}"
        )
    parts = [k for k, part in enumerate(spec.parts) for _ in range(part.hi)]
    numbers = [n for n, where in enumerate(solution.placements) if where is not None]
    pieces = []
    for n in numbers:
        where = solution.placements[n]
        assert where is not None
        shape = spec.parts[parts[n]].shape
        voxels = placed(puzzle.shapes[shape], puzzle.grid, where)
        pieces.append(
            AssembledPiece(shape, parts[n], puzzle.shapes[shape].weight, tuple(sorted(voxels)))
        )
    assembly = Assembly(tuple(pieces), tuple(part.groups for part in spec.parts), grid=puzzle.grid)
    tree = _renumbered(checked.tree, {n: k for k, n in enumerate(numbers)})
    return Disassembly(assembly, "solved", tree), numbers


def _found(
    puzzle: BurrPuzzle, problem: int, options: Sequence[int], seconds: float, max_states: int
) -> tuple[Disassembly, list[int]]:
    """The assembly of ``problem`` made of ``options`` (kept from a run), taken apart
    within ``seconds`` and ``max_states``, and each piece's number in BurrTools'
    numbering."""
    from excover.burr import disassemble
    from excover.burr.assembly import assembly_of, cover_of

    assembly = assembly_of(puzzle, problem, cover_of(puzzle, problem), options)
    result = disassemble(
        assembly, timeout=seconds, max_states=max_states, max_memory=_memory_bound()
    )
    parts = puzzle.problems[problem].parts
    first = [sum(part.hi for part in parts[:k]) for k in range(len(parts))]
    used = [0] * len(parts)
    numbers = []
    for piece in assembly.pieces:  # the copies of a shape in order, as BurrTools numbers them
        numbers.append(first[piece.part] + used[piece.part])
        used[piece.part] += 1
    return result, numbers


def _cells(grid: str, voxels: Sequence[Voxel]) -> list[tuple[int, ...]]:
    """A piece's cells on the studio's ``grid`` (the cube's are its voxels; a prism's
    are its strip coordinates)."""
    import numpy as np

    from excover.tiling.registry import GRIDS

    cells = GRIDS[grid].from_voxels(np.array(voxels, dtype=np.int64)).tolist()
    return [tuple(int(c) for c in cell) for cell in cells]


def played(
    data: bytes,
    name: str,
    problem: int,
    which: dict[str, Any],
    seconds: float,
    max_states: int,
    news: Outbox,
) -> None:
    """The child's work of a play: stored solution ``which["stored"]`` of ``problem``, or
    the assembly of ``which["options"]`` taken apart within ``seconds`` and
    ``max_states``, described as the page's player and 3D view want it (the pieces'
    names, colours and surfaces too), sent through ``news``."""
    from excover.burr.xmpuzzle import parse_xmpuzzle
    from excover.studio.disassembly import described
    from excover.tiling.colours import tile_colour
    from excover.tiling.registry import GRIDS
    from excover.tiling.solidview import piece_surfaces

    news.send({"type": "ready"})
    event: Event | None
    try:
        puzzle = parse_xmpuzzle(data, name)
        if puzzle.grid not in PLAY_GRIDS:
            raise DisassemblyFailed(
                f"{name}: pieces are taken apart on cubes and prisms, not on {puzzle.grid_name}"
            )
        if not 0 <= problem < len(puzzle.problems):
            raise UsageError(f"{name} has no problem {problem + 1}")
        if "stored" in which:
            result, numbers = _stored(puzzle, problem, which["stored"])
        else:
            result, numbers = _found(puzzle, problem, which["options"], seconds, max_states)
        grid = PLAY_GRIDS[puzzle.grid]
        cells = [_cells(grid, piece.voxels) for piece in result.assembly.pieces]
        names = piece_names(puzzle, problem)
        colours = [tile_colour(k) for k in range(len(cells))]
        surfaces = piece_surfaces(GRIDS[grid], cells)
        event = {
            "type": "result",
            **described(result, grid, cells),
            "names": [names[n] for n in numbers],
            "colours": colours,
            "solid": {
                "pieces": [
                    {"colour": colour, "faces": [{"points": p, "creases": c} for p, c in faces]}
                    for colour, faces in zip(colours, surfaces, strict=True)
                ]
            },
        }
    except Exception as error:  # every failure said in one line, never a traceback
        event = _failure(error, "the disassembly")
    if event is None:
        event = {"type": "result", "status": "unknown", "reason": news.memory_message}
    news.send(event)
    news.close()


async def play(
    data: bytes,
    name: str,
    problem: int,
    which: dict[str, Any],
    bounds: Bounds,
    limits: Limits,
    running: set[Child],
) -> Event:
    """The disassembly of a stored solution or of an assembly found (see
    :func:`played`), made in a child bounded by ``limits`` and by ``bounds`` (in
    ``running`` while it lives). Raises
    :class:`~excover.studio.disassembly.DisassemblyFailed` with the reason."""
    args = (data, name, problem, which, bounds.seconds, bounds.max_states)
    child = Child(played, args, "the disassembly", limits)
    too_long = f"the disassembly stopped: it took more than {bounds.seconds + GRACE:g} s"
    event = await answer(child, bounds.seconds + GRACE, too_long, DisassemblyFailed, running)
    if event["type"] == "error":
        raise DisassemblyFailed(event["message"])
    event.pop("type")
    return event
