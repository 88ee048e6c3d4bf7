"""Puzzles that are exact cover problems in disguise: N-queens, Sudoku and killer Sudoku.

Each module *builds* an :class:`~excover.ExactCover` (or hands its puzzles to a solver
specialised for them) and *decodes* solutions into the puzzle's own terms; none of them
knows how the engines search. Import the module you need::

    from excover.puzzles import killer, queens, sudoku

Nonograms have their own package, :mod:`excover.nonogram` (a compiled solver of their
own, plus XCC and SAT routes); ``from excover.puzzles import nonogram`` still works, the
long-standing path to that same API (:mod:`excover.puzzles.nonogram`).
"""

__all__: list[str] = []
