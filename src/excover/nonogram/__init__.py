"""Nonograms (hanjie, paint by numbers): solve, count, classify, read, write and draw.

A puzzle is given by its clues, ``rows`` top to bottom and ``cols`` left to right, each
a list of block lengths (``[]`` or ``[0]`` for an empty line), or as a
:class:`Puzzle`; solutions are pictures, one string per row, ``#`` black and ``.``
white::

    from excover import nonogram
    nonogram.solve([[1], [3], [1]], [[1], [3], [1]])   # -> ['.#.', '###', '.#.']
    nonogram.classify(rows, cols)                        # -> 'none' | 'unique' | 'multiple'

Colour nonograms are :class:`Puzzle` values with a palette (see
:mod:`excover.nonogram.model`); their pictures have one char per cell, the
colour's or ``.``, and every function here takes them::

    palette = {"r": "red", "b": "blue"}
    p = nonogram.Puzzle.from_clues(["2r 1b", "1b"], ["1r", "1r", "2b"], palette=palette)
    nonogram.solve(p)                                    # -> ['rrb', '..b']

Three routes find the solutions, chosen by ``method``:

* ``"propagate"`` (what ``"auto"`` means): the compiled solver of
  :mod:`excover.nonogram._core`, which solves lines by dynamic programming, propagates
  to a fixpoint, probes cells both ways, and searches when that is not enough; it
  solves and validates random 30x30 puzzles in milliseconds;
* ``"xcc"``: an exact cover with colours, one option per placement of each row and
  column (:mod:`excover.nonogram.xcc`), searched by dancing links: small puzzles;
* ``"sat"``: a compact automaton encoding of each line, solved by CaDiCaL
  (:mod:`excover.nonogram.sat`).

Files: :func:`read` and :func:`write` handle the plain text format, Simpson's ``.non``,
webpbn's XML, Wilk's ``.nin``, Olsak's ``.mk`` and pynogram's INI files, and
:func:`read_all` the many puzzles of a tournament file
(:mod:`excover.nonogram.formats`); :func:`ascii_grid` and :func:`svg_grid`
draw a puzzle with its clues (:mod:`excover.nonogram.draw`); :func:`generate`
makes random puzzles (:mod:`excover.nonogram.generator`).

The package's modules: :mod:`~excover.nonogram.api` (the functions above),
:mod:`~excover.nonogram.model` (:class:`Puzzle` and its clues),
:mod:`~excover.nonogram.formats`, :mod:`~excover.nonogram.draw`,
:mod:`~excover.nonogram.search` (the driver of the compiled core
:mod:`~excover.nonogram._core`, with :mod:`~excover.nonogram.culprit` and
:mod:`~excover.nonogram.swap` for large and second pictures), :mod:`~excover.nonogram.xcc`,
:mod:`~excover.nonogram.sat`, :mod:`~excover.nonogram.rating`,
:mod:`~excover.nonogram.generator` and :mod:`~excover.nonogram.cli` (the ``excover
nonogram`` command). ``from excover.puzzles import nonogram``, the long-standing path, is
this same API.

Importing this package loads nothing else: each name is taken from
:mod:`excover.nonogram.api` on first use, so building the ``excover`` parser (which
imports :mod:`excover.nonogram.cli`, and with it this package) costs no solver.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.nonogram.api import (
        FORMATS,
        LEVELS,
        METHODS,
        Block,
        Clue,
        Colour,
        Puzzle,
        Rating,
        Status,
        ascii_grid,
        classify,
        clue_of,
        colour_clue_of,
        count,
        dumps,
        dumps_all,
        generate,
        line_solvable,
        loads,
        loads_all,
        palette_of,
        propagated,
        puzzle_of,
        random_picture,
        rate,
        read,
        read_all,
        solutions,
        solve,
        svg_grid,
        write,
        write_all,
    )

__all__ = [
    "FORMATS",
    "LEVELS",
    "METHODS",
    "Block",
    "Clue",
    "Colour",
    "Puzzle",
    "Rating",
    "Status",
    "ascii_grid",
    "classify",
    "clue_of",
    "colour_clue_of",
    "count",
    "dumps",
    "dumps_all",
    "generate",
    "line_solvable",
    "loads",
    "loads_all",
    "palette_of",
    "propagated",
    "puzzle_of",
    "random_picture",
    "rate",
    "read",
    "read_all",
    "solutions",
    "solve",
    "svg_grid",
    "write",
    "write_all",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from excover.nonogram import api

    value = getattr(api, name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
