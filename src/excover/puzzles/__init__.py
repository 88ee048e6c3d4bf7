"""Puzzles that are exact cover problems in disguise: N-queens and Sudoku.

Each module *builds* an :class:`~excover.ExactCover` (or hands its puzzles to a solver
specialised for them) and *decodes* solutions into the puzzle's own terms; none of them
knows how the engines search. Import the module you need::

    from excover.puzzles import queens, sudoku
    from excover.puzzles import nonogram   # its own solver, plus XCC and SAT routes
"""

__all__: list[str] = []
