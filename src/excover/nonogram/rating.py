"""How hard a nonogram is: the solution count and the least reasoning that finishes it.

:func:`rate` answers the two questions of a puzzle maker: does the puzzle have exactly
one picture, and what does a solver need to find it? The levels, from easiest:

* ``"line"``: line solving alone decides every cell (each line narrowed against its clue,
  over and over): the puzzle can be solved one line at a time, without guessing;
* ``"probe"``: probing finishes it: try a cell both ways, line-solve each, keep what both
  ways agree on (or the other value when one way fails). ``depth`` says how deep the
  probing must nest: 1, every branch line-solved; 2, every branch itself probed (one
  guess ahead, as a person who "tries a cell and follows it" would);
* ``"search"``: nothing short of search (with backtracking) settles it, or the puzzle has
  several pictures (then no reasoning can decide every cell, and ``level`` is
  ``"search"``).

A puzzle whose clues contradict one another is rated by the level that finds the
contradiction, with status ``"none"``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from excover.entries import check_time_limit
from excover.errors import LimitReached, UsageError
from excover.nonogram import _core, search
from excover.nonogram.model import Puzzle

__all__ = ["LEVELS", "Level", "Rating", "rate"]

#: What a puzzle needs, easiest first.
Level = Literal["line", "probe", "search"]
LEVELS: tuple[Level, ...] = ("line", "probe", "search")


@dataclass(frozen=True)
class Rating:
    """What :func:`rate` found: ``status`` (``"none"``, ``"unique"``, ``"multiple"``),
    ``level`` (``"line"``, ``"probe"``, ``"search"``), ``depth`` (the probing depth: 0
    for line solving, 1 or 2 for probing, None for search) and the seconds it took."""

    status: Literal["none", "unique", "multiple"]
    level: Level
    depth: int | None
    seconds: float

    def __str__(self) -> str:
        how = {"line": "line solving", "probe": f"probing, depth {self.depth}", "search": "search"}
        return f"{self.status}, {how[self.level]}"


def rate(puzzle: Puzzle, *, timeout: float | None = None, max_depth: int = 2) -> Rating:
    """Rate ``puzzle``: line solving, then probing of depth 1, then (when ``max_depth`` is
    2) of depth 2, then the full solver for the solution count. ``timeout`` (seconds over
    the whole rating) raises :class:`~excover.LimitReached`."""
    check_time_limit("timeout", timeout)
    if puzzle.palette is not None:
        raise UsageError(
            "rating needs the black-and-white solver's probing: colour puzzles can be "
            "classified (classify) but not rated yet"
        )
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout

    def done(
        status: Literal["none", "unique", "multiple"], level: Level, depth: int | None
    ) -> Rating:
        return Rating(status, level, depth, time.monotonic() - started)

    if puzzle.contradiction is not None:
        return done("none", "line", 0)
    solver = search.core(puzzle)
    solver.skip_unchanged = False  # the whole fixpoint: a rating must not depend on luck
    if not solver.propagate_only():
        return done("none", "line", 0)
    if _solved(solver):
        return done("unique", "line", 0)
    if not solver.probe_only():
        return done("none", "probe", 1)
    if _solved(solver):
        return done("unique", "probe", 1)
    if max_depth >= 2:
        result = solver.probe_deep(-1.0 if deadline is None else deadline)
        if result == _core.TIME_LIMIT:
            raise LimitReached(
                "timeout", search._stats(solver, time.monotonic() - started, "timeout")
            )
        if not result:
            return done("none", "probe", 2)
        if _solved(solver):
            return done("unique", "probe", 2)
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    found = search.count(puzzle, 2, timeout=left, hybrid=True)
    statuses: tuple[Literal["none", "unique", "multiple"], ...] = ("none", "unique", "multiple")
    return done(statuses[found], "search", None)


def _solved(solver: _core.Core) -> bool:
    """Whether the solver's grid has no unknown cell left."""
    return 3 not in solver.grid_bytes()
