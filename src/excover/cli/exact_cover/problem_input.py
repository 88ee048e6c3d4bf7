"""FILE of the commands over one exact cover problem (``count``, ``solve``, ``dimacs``,
``estimate``): a problem in Knuth's DLX format, a BurrTools ``.xmpuzzle`` file, or with
``--pieces`` a board to tile; a ``.cmb`` program given by mistake is named as one, with
the command that runs it. :func:`load_problem` reads what FILE is from the flags once,
into a :class:`ProblemSource`, which the board reader takes.
"""

from __future__ import annotations

from excover.cli import common
from excover.errors import FormatError, UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from excover.solving import ExactCover
    from excover.solving.orchestrate import Total

    #: A tiling's solution drawn as text, or as SVG when the flag is True.
    Drawing = Callable[[list[int], bool], str]
    #: What reads ``FILE --pieces PIECES`` (or a BurrTools puzzle to draw): the problem
    #: and the drawing of its solutions.
    BoardReader = Callable[["ProblemSource"], tuple[ExactCover, Drawing]]
    #: How a count of every solution uses a symmetry known without a search (the
    #: orchestrator's ``totals``).
    Totals = Callable[[str, float | None], Total | None]

__all__ = ["ProblemSource", "load_problem", "read_problem"]


class ProblemSource:
    """What FILE of a problem command is, read off its flags: the ``file`` (``-``:
    standard input), the ``pieces`` that make it a board to tile (None: it is a problem),
    their ``multiplicity`` and ``no_reflections``, the ``problem`` of a BurrTools file,
    the ``svg`` picture asked for, and what the problem is read for: the ``command`` and
    its ``method`` (and ``route``), and whether it counts classes (``up_to_symmetry``).
    The board reader fills in ``totals``: how a count of every tiling uses the board's symmetry
    (:meth:`excover.tiling.Tiling.total`, which ``count`` hands the orchestrator so that
    a count of a board breaks its group by default, as a ``.cmb`` count does), None for
    any other problem; and ``mesh``, the STL file of a tiling's solution with a gap in
    millimetres (None: the grid's default) and the gap it has (``solve --stl``), None
    for any other problem."""

    __slots__ = (
        "command",
        "file",
        "mesh",
        "method",
        "multiplicity",
        "no_reflections",
        "pieces",
        "problem",
        "route",
        "svg",
        "totals",
        "up_to_symmetry",
    )

    def __init__(self, args: argparse.Namespace) -> None:
        self.command: str = args.command
        self.file: str = args.file
        self.method: str | None = getattr(args, "method", None)
        self.multiplicity: str | None = args.multiplicity
        self.no_reflections: bool = bool(args.no_reflections)
        self.pieces: str | None = args.pieces
        self.problem: int | None = getattr(args, "problem", None)
        self.route: str | None = getattr(args, "route", None)
        self.svg: str | None = getattr(args, "svg", None)
        self.up_to_symmetry = bool(getattr(args, "up_to_symmetry", False))
        self.totals: Totals | None = None
        self.mesh: Callable[[list[int], float | None], tuple[bytes, float]] | None = None


def read_problem(path: str, number: int | None = None, up_to_symmetry: bool = False) -> ExactCover:
    """Parse the problem in ``path`` (``-``: stdin); errors name the file and the line.
    A ``.xmpuzzle`` file is a BurrTools puzzle: ``number`` picks its problem, and
    ``up_to_symmetry`` (the command counts classes) shapes the note on its stored count."""
    from excover.formats.dlx import parse_dlx_bytes
    from excover.solving import ExactCover

    data = common.read_input(path, binary=True)
    source = "<stdin>" if path == "-" else path
    if path.lower().endswith(".xmpuzzle"):
        from excover.cli.exact_cover.burrtools import read_cover

        return read_cover(data, source, number, up_to_symmetry)
    if number is not None:
        raise UsageError("--problem picks a problem of a BurrTools .xmpuzzle file")
    if path.lower().endswith(".cmb"):
        raise UsageError(
            _cmb_hint(source, "is a .cmb program, not a problem in Knuth's DLX format")
        )
    try:
        return parse_dlx_bytes(data, source, ExactCover)
    except FormatError as exc:
        from excover.cli.kinds import looks_like_cmb  # only to name a .cmb program given

        if not looks_like_cmb(data):
            raise
        hint = _cmb_hint(source, "looks like a .cmb program")
        raise FormatError(f"{exc.message} ({hint})", source=exc.source, line=exc.line) from None


def _cmb_hint(source: str, what: str) -> str:
    """How to run a .cmb program given to a command that reads DLX problems."""
    name = "FILE" if source == "<stdin>" else source
    return (
        f"{source} {what}: run it with 'excover run {name}', or write one of its problems "
        f"with 'excover run {name} --write-dlx PROBLEM=OUT.dlx'"
    )


def load_problem(
    args: argparse.Namespace, source: ProblemSource | None = None
) -> tuple[ExactCover, Drawing | None]:
    """The problem of FILE; with ``--pieces``, the tiling of the board FILE (read by the
    ``read_board`` that ``excover.main`` gave the problem commands) and the function
    drawing its solutions. Given ``source`` (what FILE is, read off ``args``), the
    caller reads what the board reader filled in (``source.totals``)."""
    if source is None:
        source = ProblemSource(args)
    read_board: BoardReader = args.read_board
    if source.pieces is None:
        common.refuse(args, "no_reflections", "needs --pieces (FILE is not a board)")
        common.refuse(args, "multiplicity", "needs --pieces (FILE is not a board)")
        if source.svg is not None and source.file.lower().endswith(".xmpuzzle"):
            problem, draw = read_board(source)  # a puzzle read with its drawing
            return problem, draw
        return read_problem(source.file, source.problem, source.up_to_symmetry), None
    common.refuse(args, "problem", "picks a problem of a BurrTools file, not of a board")
    problem, draw = read_board(source)
    return problem, draw
