"""Culprit search: decimation whose wrong guesses are found by a SAT solver.

On large random puzzles, decimation (:meth:`Core.guess
<excover.nonogram._core.Core.guess>`) decides thousands of cells right and then a
few wrong, and the tree search below cannot tell which: a wrong guess shows only
thousands of cells later, where backtracking one step at a time is hopeless. A SAT
solver given a state as unit clauses refutes it fast when it is wrong, so the guess to
blame can be found by bisection:

1. decimate, with the *trusted* literals (none at first) decided at the root, and take
   the deepest consistent state it reaches (:meth:`Core.deepest_order
   <excover.nonogram._core.Core.deepest_order>`: its cells in the order they were
   decided; those probing decides at the root are left out, they are implied);
2. find, by bisection over its literals in that order, the shortest prefix Kissat
   refutes within :data:`CALL_SECONDS` (a run that does not answer in time counts as
   not refuted); its last literal is the *culprit*;
3. trust the literals before the culprit and the culprit's opposite, and go back to 1.
   When that is refuted too (by probing, or because the culprit is the opposite of an
   earlier culprit, trusted last time), the prefix before the culprit holds no
   solution either: the culprit moves one literal back (cheaply, without Kissat) until
   its opposite is neither. So the trusted literals are a path of a depth-first search
   whose refuted branches are never tried again, and the bisection starts from the
   trusted literals (the prefix before the last one was not refuted within a run).

A prefix Kissat finds satisfiable comes with a picture, and so does a decimation that
reaches the end. Bisection takes about a dozen runs of at most a few seconds.

The search looks for a picture, not for proofs: a picture found is a picture (the
caller checks it against the clues); when every literal has been blamed back to the
first, it stops with :attr:`CulpritSearch.refuted` (the formula has no model), which the
hybrid route leaves to CDCL on the whole formula to prove. Some puzzles defeat it: their
wrong guesses are refuted only by longer runs than the bisection gives Kissat (see
docs/performance.md, "Hard puzzles").
"""

from __future__ import annotations

import time
from collections.abc import Generator

from excover.nonogram import _core
from excover.nonogram.cores import GUESS_FRACTION, GUESS_ROUNDS, core
from excover.nonogram.model import Puzzle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from excover.sat.child import ChildRun
    from excover.sat.pool import Clause

__all__ = [
    "CALL_SECONDS",
    "DECIMATION_FAILURES",
    "DECIMATION_SECONDS",
    "OPEN_SHARE",
    "CulpritSearch",
]

#: Seconds of Kissat's run on each prefix; one that does not answer in time counts as
#: not refuted: wrong states with many decided literals are refuted within it, those
#: with few seldom are at all (docs/performance.md, hard puzzles).
CALL_SECONDS = 8.0

#: A decimation (with the turns' usual steps, :data:`~excover.nonogram.cores.
#: GUESS_ROUNDS` and :data:`~excover.nonogram.cores.GUESS_FRACTION`) stops at
#: this many dead ends, or after this many seconds of its own time, and its deepest
#: state is taken from there.
DECIMATION_FAILURES = 200
DECIMATION_SECONDS = 10.0

#: The least share of the cells a decimation's deepest state leaves open (see
#: :attr:`Core.deepest_floor <excover.nonogram._core.Core.deepest_floor>`): the
#: deepest states hold more wrong guesses, and Kissat's runs get slower as fewer
#: literals are left to it.
OPEN_SHARE = 0.1

#: The search in steps: each yields None when a slice is over, or a picture's grid.
_Steps = Generator[bytes | None, None, None]


class CulpritSearch:
    """The culprit search for a picture of ``puzzle``, whose order formula (with units
    implied by it, but no blocking clause: the decimations would not know it) is
    ``formula``, run in slices by :meth:`advance`.
    ``root`` is the grid probing leaves at the root (its cells are left out of the
    literals: the formula implies them)."""

    def __init__(self, puzzle: Puzzle, formula: list[Clause], root: bytes) -> None:
        self.puzzle = puzzle
        self.formula = formula
        self.root = root
        self.cells = puzzle.height * puzzle.width
        self.floor = int(self.cells * OPEN_SHARE)
        self.until = 0.0  # the end of the current slice
        self.call_seconds = CALL_SECONDS  # doubled when a deepest state is not refuted
        self.trusted: list[int] = []  # the literals every decimation starts from
        # the places in trusted of culprits' opposites: the culprit's value is refuted
        # under the trusted literals before it
        self.flipped: set[int] = set()
        self.culprits = 0  # how many culprits were found so far
        self.kissat_runs = 0  # how many prefixes were given to Kissat
        self.refuted = False  # True once the formula itself is found to have no model
        self._run: ChildRun | None = None  # Kissat's run under way (paused), if any
        self._steps = self._search()

    def advance(self, until: float) -> bytes | None:
        """Go on until ``time.monotonic()`` reaches ``until``: the grid of a picture,
        when one was found (cell bytes, 1 white, 2 black), None otherwise (and at once
        when the search is over: a picture was given, or :attr:`refuted`)."""
        self.until = until
        return next(self._steps, None)

    def close(self) -> None:
        """Stop Kissat's run, if one is under way."""
        if self._run is not None:
            self._run.close()
            self._run = None

    def _search(self) -> _Steps:
        """The whole search, pausing (yielding None) at the end of each slice."""
        while True:
            yield from self._pause()
            decimation = core(self.puzzle)
            decimation.deepest_floor = self.floor
            status = yield from self._decimate(decimation)
            if status == _core.SOLUTION:
                yield decimation.grid_bytes()
                return
            if status == _core.EXHAUSTED:  # no picture under the trusted: a proof
                literals = self.trusted
                refuted = len(literals)
            else:
                literals = self.trusted + self._deepest_literals(decimation)
                verdict = yield from self._refute(literals)
                if isinstance(verdict, bytes):
                    yield verdict
                    return
                if not verdict:  # the deepest state has a picture Kissat has not found
                    self.call_seconds *= 2
                    continue
                refuted = len(literals)
            # literals[:refuted] is refuted; literals[:unrefuted] was not refuted within a
            # run's time: the trusted literals less the last (flipped) one, by the last
            # bisection (or the walk back, which leaves it to a later bisection)
            unrefuted = max(0, len(self.trusted) - 1)
            while refuted - unrefuted > 1:
                middle = (unrefuted + refuted) // 2
                verdict = yield from self._refute(literals[:middle])
                if isinstance(verdict, bytes):
                    yield verdict
                    return
                if verdict:
                    refuted = middle
                else:
                    unrefuted = middle
            # walk back while the culprit's opposite is refuted too (by an earlier
            # culprit at the same place, or by probing): the prefix before it then holds
            # no picture either, and the culprit is earlier
            culprit = refuted - 1
            while culprit >= 0 and (
                culprit in self.flipped
                or self._probing_refutes([*literals[:culprit], -literals[culprit]])
            ):
                culprit -= 1
                yield from self._pause()
            if culprit < 0:  # refuted with nothing assumed
                self.refuted = True
                return
            self.culprits += 1
            self.trusted = [*literals[:culprit], -literals[culprit]]
            self.flipped = {j for j in self.flipped if j < culprit} | {culprit}

    def _deepest_literals(self, decimation: _core.Core) -> list[int]:
        """The literals of the decimation's deepest state, in the order it decided them,
        less those of the trusted literals and of the cells probing decides at the
        root."""
        order = decimation.deepest_order()
        deepest = decimation.deepest_guess()
        if order is None or deepest is None:
            return []
        known = {abs(literal) for literal in self.trusted}
        return [
            _literal(cell, deepest[cell])
            for cell in order
            if self.root[cell] == 3 and cell + 1 not in known
        ]

    def _decimate(self, decimation: _core.Core) -> Generator[None, None, int]:
        """Decimation from the trusted literals, in slices, until it meets
        :data:`DECIMATION_FAILURES` dead ends or has run :data:`DECIMATION_SECONDS`:
        its last status."""
        given = _grid_of(self.trusted, self.cells)
        spent = 0.0
        resume = False
        while True:
            start = time.monotonic()
            end = min(self.until, start + DECIMATION_SECONDS - spent)
            status = decimation.guess(
                end, GUESS_ROUNDS, GUESS_FRACTION, DECIMATION_FAILURES, given=given, resume=resume
            )
            spent += time.monotonic() - start
            if status != _core.TIME_LIMIT or spent >= DECIMATION_SECONDS:
                return status
            resume = True
            yield None

    def _refute(self, literals: list[int]) -> Generator[None, None, bool | bytes]:
        """Whether the formula with ``literals`` as units is refuted, by probing or else
        by Kissat within :attr:`call_seconds` of its time (True, or False when it has
        not answered by then), or the grid of a picture that satisfies it."""
        if self._probing_refutes(literals):
            return True
        from excover.sat.child import ChildRun

        self.kissat_runs += 1
        self._run = ChildRun("kissat404", self.formula + [[literal] for literal in literals])
        spent = 0.0
        try:
            while True:
                start = time.monotonic()
                done = self._run.advance(min(self.until, start + self.call_seconds - spent))
                spent += time.monotonic() - start
                if done:
                    model = self._run.answer()
                    if model is None:
                        return True
                    return bytes(2 if model[v] > 0 else 1 for v in range(self.cells))
                if spent >= self.call_seconds:
                    return False
                yield None
        finally:
            self.close()

    def _probing_refutes(self, literals: list[int]) -> bool:
        """Whether probing at the root, with ``literals`` decided, meets a
        contradiction (a decimation that stops at once, after its root)."""
        given = _grid_of(literals, self.cells)
        status = core(self.puzzle).guess(0.0, GUESS_ROUNDS, GUESS_FRACTION, 0, given=given)
        return bool(status == _core.EXHAUSTED)

    def _pause(self) -> Generator[None, None, None]:
        """Yield if the slice is over."""
        if time.monotonic() >= self.until:
            yield None


def _literal(cell: int, value: int) -> int:
    """The order formula's literal for ``cell`` being ``value`` (2 black, 1 white)."""
    return cell + 1 if value == 2 else -(cell + 1)


def _grid_of(literals: list[int], cells: int) -> bytes:
    """A grid with the cells of ``literals`` decided (1 white, 2 black), others 3."""
    grid = bytearray(b"\x03" * cells)
    for literal in literals:
        grid[abs(literal) - 1] = 2 if literal > 0 else 1
    return bytes(grid)
