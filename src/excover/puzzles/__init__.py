"""Puzzles that are exact cover problems in disguise: N-queens, Sudoku and killer Sudoku.

Each module *builds* an :class:`~excover.ExactCover` (or hands its puzzles to a solver
specialised for them) and *decodes* solutions into the puzzle's own terms; none of them
knows how the engines search. Import the module you need::

    from excover.puzzles import queens, sudoku
    from excover.puzzles.sudoku import killer

Sudoku is a package of its own, :mod:`excover.puzzles.sudoku` (its boards, files,
pictures, generator, killer cages, compiled solvers and command); queens is one module,
:mod:`excover.puzzles.queens`.

Nonograms have their own package, :mod:`excover.nonogram` (a compiled solver of their
own, plus XCC and SAT routes); ``from excover.puzzles import nonogram``, as the design's
list of puzzles writes it, gives that same package.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from types import ModuleType

__all__: list[str] = []


def __getattr__(name: str) -> ModuleType:
    """``nonogram``: the package :mod:`excover.nonogram`, imported when first asked for."""
    if name != "nonogram":
        raise AttributeError(f"module 'excover.puzzles' has no attribute {name!r}")
    from excover import nonogram

    return nonogram
