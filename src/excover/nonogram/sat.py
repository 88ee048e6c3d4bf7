"""The ``sat`` route: a nonogram as a compact CNF formula, one automaton per line.

Variable ``r * width + c + 1`` is the cell in row ``r``, column ``c``, true for black; these
cell variables are the projection set (two models that agree on them are one picture).

A clue ``c1 .. ck`` is the regular language ``0* 1^c1 0+ 1^c2 0+ ... 1^ck 0*``. Spell it
as the pattern ``P = 1^c1 0 1^c2 0 ... 1^ck`` of length ``L``: the automaton's state
``q`` says how many symbols of ``P`` the cells read so far have matched. Reading a cell
moves to ``q + 1`` when it is ``P[q]``; a white cell may also leave ``q`` where it is when
``q`` is at the start, at the end, or just after a gap (extra white); anything else fails.
A line is accepted when it ends in state ``L``.

Per line the formula has a variable ``s[i][q]`` "after ``i`` cells the automaton is in
state ``q``", only for the states reachable there (``q <= i``) that can still reach the
end (``L - q <= n - i``): at most ``n - L + 1`` per position, so ``O(n (n - L + 1))``
variables and clauses, against the exponential number of placements of the naive
per-configuration encoding. The clauses: ``s[0][0]``; for each state and cell value,
"in ``q`` and the cell is ``a`` implies the next state" (or "not both" when the move
fails or leaves the reachable states); and, to help unit propagation, "in ``q'`` after
``i + 1`` cells implies one of its predecessors after ``i``". The run of a line is
deterministic, so a picture satisfies the formula exactly when every line accepts it.

**Colour puzzles** (with a palette of ``C`` colours) give each cell ``C + 1`` one-hot
variables, variable ``(r * width + c) * (C + 1) + v + 1`` "the cell takes value ``v``"
(0 white, ``k`` the palette's ``k``-th colour), with one clause "some value" and a clause
"not both" per pair of values; these are the projection set. The automaton reads values:
the pattern spells block ``j`` as ``c_j`` repeated ``L_j`` times, with a ``0`` between two
blocks only when they have the same colour; a white cell may stay in state ``q`` at the
start, at the end, after a compulsory gap, and between two blocks of different colours.
The clauses are those above with the literal "the cell is ``a``" for each value ``a``.

**The order encoding** (:func:`order_clauses`, :func:`encode_order`; black and white only,
the formula of the hybrid route's CDCL) describes a line by where its blocks start rather
than by a run of states. Block ``j`` (length ``L_j``) can start from ``low_j`` (the
blocks before it packed to the left) to ``high_j`` (those from it packed to the right);
variable ``y[j][s]``, for ``low_j <= s < high_j``, says "block ``j`` starts at ``s`` or
before" (``y[j][s]`` is false below ``low_j`` and true from ``high_j`` on, so these are
constants, not variables). The clauses: ``y[j][s]`` implies ``y[j][s + 1]`` (an order);
block ``j + 1`` starting by ``s`` implies block ``j`` started by ``s - L_j - 1`` (the gap);
a white cell ``c`` is covered by no block: "not ``y[j][c]``, or ``y[j][c - L_j]``" for every
``j``; a black cell lies in no gap between blocks: it is not before block 0 ("``y[0][c]``"),
not after the end of block ``j`` and before block ``j + 1`` starts ("not ``y[j][c - L_j]``,
or ``y[j + 1][c]``"), and not after the last block ends. That is ``O(n k)`` variables and
clauses with no auxiliary ones; unit propagation over it is weaker than a line solver
but CDCL learns from it much better than from the automata: on random 30x30 puzzles that
the tree search finds hard it finds two pictures in a fraction of the time.

``cover=True`` adds, for each cell and each block that can reach it, a variable "block
``j`` covers cell ``c``" (equal to ``y[j][c]`` and not ``y[j][c - L_j]``), and the
clauses "a cover implies the cell black" and "a black cell has a cover": twice the
clauses, and a variable to branch on that says *which* block makes a cell black. CaDiCaL
does no better with them on random puzzles; Kissat does far better with them on some of
the largest puzzles and worse on others (docs/performance.md, "Tuning the hybrid route").

Solving goes through the SAT back ends of :mod:`excover.sat.solve` (PySAT solvers in
slices that honour ``timeout`` and Ctrl-C, or an ``ext:COMMAND``): each picture found is
blocked by a clause over the cell variables, and checked against the clues.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from excover.errors import LimitReached, SolverError
from excover.nonogram.model import BLACK, WHITE, Clue, Puzzle
from excover.sat.cnf import CNF
from excover.sat.pool import Clause, Pool

__all__ = [
    "colour_line_clauses",
    "encode",
    "encode_order",
    "line_clauses",
    "order_clauses",
    "order_phases",
    "solutions",
]


def line_clauses(clue: Clue, cells: list[int], pool: Pool) -> list[Clause]:
    """The clauses that make the cell variables ``cells`` (in line order) spell a
    placement of ``clue``; new state variables come from ``pool``."""
    pattern: list[int] = []
    for number, block in enumerate(clue):
        if number:
            pattern.append(0)
        pattern += [1] * block
    return _automaton_clauses(pattern, [[-cell, cell] for cell in cells], pool)


def _automaton_clauses(pattern: list[int], cells: list[list[int]], pool: Pool) -> list[Clause]:
    """The clauses of the automaton that reads the line's values and accepts the
    ``pattern`` (see :func:`_move`): ``cells[i][v]`` is the literal "cell ``i`` takes
    value ``v``". State ``q`` at position ``i`` has a variable only where ``q`` can still
    reach the end; each state implies its successor for every value and is implied by
    one of its predecessors."""
    n, size = len(cells), len(pattern)
    state: list[dict[int, int]] = []  # state[i][q]: the variable s[i][q]
    for i in range(n + 1):
        low, high = max(0, size - (n - i)), min(i, size)
        state.append(dict(zip(range(low, high + 1), pool.many(high - low + 1), strict=True)))
    clauses: list[Clause] = [[state[0][0]]]
    predecessors: list[dict[int, list[int]]] = [{} for _ in range(n + 1)]
    for i in range(n):
        for q, here in state[i].items():
            for value, literal in enumerate(cells[i]):
                target = _move(pattern, q, value)
                if target is None or target not in state[i + 1]:
                    clauses.append([-here, -literal])
                else:
                    clauses.append([-here, -literal, state[i + 1][target]])
                    predecessors[i + 1].setdefault(target, []).append(here)
    for i in range(1, n + 1):
        for q, here in state[i].items():
            clauses.append([-here, *sorted(set(predecessors[i].get(q, [])))])
    return clauses


def _move(pattern: list[int], q: int, value: int) -> int | None:
    """The automaton's state after reading ``value`` in state ``q``, or None (fail). A
    white cell stays put at the start, the end, after a gap, or between two blocks of
    different colours (never the case in black and white, where blocks are all 1)."""
    if q < len(pattern) and pattern[q] == value:
        return q + 1
    if value == 0 and (
        q == 0 or q == len(pattern) or pattern[q - 1] == 0 or pattern[q - 1] != pattern[q]
    ):
        return q
    return None


def colour_line_clauses(
    blocks: list[tuple[int, int]], cells: list[list[int]], pool: Pool
) -> list[Clause]:
    """The clauses that make the line spell a placement of the colour clue ``blocks``
    (``(length, value)`` pairs, values from 1); ``cells[i][v]`` is the variable "cell
    ``i`` takes value ``v``" (0 white). New state variables come from ``pool``."""
    pattern: list[int] = []
    for number, (length, value) in enumerate(blocks):
        if number and blocks[number - 1][1] == value:
            pattern.append(0)
        pattern += [value] * length
    return _automaton_clauses(pattern, cells, pool)


def _encode_colour(puzzle: Puzzle, deadline: float | None) -> CNF:
    """The formula of a colour puzzle: one-hot cell variables first, then the states."""
    height, width = puzzle.height, puzzle.width
    palette = puzzle.palette or ()
    values = len(palette) + 1
    pool = Pool(height * width * values)
    clauses: list[Clause] = []
    for cell in range(height * width):
        first = cell * values + 1
        literals = list(range(first, first + values))
        clauses.append(literals)
        clauses += [[-a, -b] for k, a in enumerate(literals) for b in literals[k + 1 :]]
    number = {colour.char: k + 1 for k, colour in enumerate(palette)}

    def variables(cell: int) -> list[int]:
        return list(range(cell * values + 1, cell * values + values + 1))

    for line in range(height + width):
        if deadline is not None and time.monotonic() >= deadline:
            raise _out_of_time()
        if line < height:
            cells = [variables(line * width + c) for c in range(width)]
        else:
            cells = [variables(r * width + line - height) for r in range(height)]
        blocks = [(length, number[char]) for length, char in puzzle.blocks(line)]
        clauses += colour_line_clauses(blocks, cells, pool)
    return CNF(pool.top, clauses, height * width * values, "colour nonogram automata")


def encode(puzzle: Puzzle, deadline: float | None = None) -> CNF:
    """The formula of ``puzzle``: cell variables first (the projection set), then the
    state variables of every line (a colour puzzle: see the module's notes). Past
    ``deadline`` (a ``time.monotonic()`` value) the encoding stops with
    :class:`~excover.LimitReached`: a large puzzle's formula takes seconds, which a time
    limit must bound too."""
    if puzzle.palette is not None:
        return _encode_colour(puzzle, deadline)
    pool = Pool(puzzle.height * puzzle.width)
    clauses: list[Clause] = []
    for clue, cells in _lines(puzzle):
        if deadline is not None and time.monotonic() >= deadline:
            raise _out_of_time()
        clauses += line_clauses(clue, cells, pool)
    return CNF(pool.top, clauses, puzzle.height * puzzle.width, "nonogram automata")


def _lines(puzzle: Puzzle) -> list[tuple[Clue, list[int]]]:
    """Each line's clue with the variables of its cells, the rows then the columns."""
    height, width = puzzle.height, puzzle.width
    lines = [[r * width + c + 1 for c in range(width)] for r in range(height)]
    lines += [[r * width + c + 1 for r in range(height)] for c in range(width)]
    return list(zip(puzzle.rows + puzzle.cols, lines, strict=True))


def order_clauses(clue: Clue, cells: list[int], pool: Pool, cover: bool = False) -> list[Clause]:
    """The order encoding of one black-and-white line (see the module's notes): the
    clauses that make the cell variables ``cells`` spell a placement of ``clue``, over new
    variables "block ``j`` starts at ``s`` or before" from ``pool``; ``cover`` adds the
    variables "block ``j`` covers cell ``c``"."""
    n, k = len(cells), len(clue)
    if k == 0:
        return [[-cell] for cell in cells]
    low, high = _start_range(clue, n)
    starts = [
        dict(zip(range(low[j], high[j]), pool.many(high[j] - low[j]), strict=True))
        for j in range(k)
    ]

    def by(j: int, s: int) -> int | bool:
        """The literal "block ``j`` starts at ``s`` or before", or its constant value."""
        if s < low[j]:
            return False
        if s >= high[j]:
            return True
        return starts[j][s]

    clauses: list[Clause] = []

    def add(*literals: int | bool) -> None:
        """Add the clause of ``literals`` (True drops it, False drops the literal)."""
        if any(literal is True for literal in literals):  # not `in`: 1 == True
            return
        clauses.append([literal for literal in literals if literal is not False])

    def neg(literal: int | bool) -> int | bool:
        return not literal if isinstance(literal, bool) else -literal

    for j in range(k):
        for s in range(low[j], high[j] - 1):
            add(-starts[j][s], starts[j][s + 1])
        if j + 1 < k:
            for s in range(low[j + 1], high[j + 1]):
                add(-starts[j + 1][s], by(j, s - clue[j] - 1))
    for c, cell in enumerate(cells):
        for j in range(k):
            add(cell, neg(by(j, c)), by(j, c - clue[j]))
        add(-cell, by(0, c))
        for j in range(k - 1):
            add(-cell, neg(by(j, c - clue[j])), by(j + 1, c))
        add(-cell, neg(by(k - 1, c - clue[-1])))
        if cover:
            clauses += _cover_clauses(
                cell, [(by(j, c), by(j, c - clue[j])) for j in range(k)], pool
            )
    return clauses


def _start_range(clue: Clue, n: int) -> tuple[list[int], list[int]]:
    """For each block of ``clue`` on a line of ``n`` cells, its first possible start
    (the blocks before it packed to the left) and its last (those from it packed to the
    right)."""
    k = len(clue)
    low = [0] * k
    for j in range(1, k):
        low[j] = low[j - 1] + clue[j - 1] + 1
    high = [0] * k
    high[-1] = n - clue[-1]
    for j in range(k - 2, -1, -1):
        high[j] = high[j + 1] - clue[j] - 1
    return low, high


def order_phases(puzzle: Puzzle, black: list[float], starts: list[list[list[float]]]) -> list[int]:
    """Phases for :func:`encode_order` (without cover variables): a literal per variable,
    the value to try first. ``black`` gives each cell's chance of being black, and
    ``starts``, per line and block, the chance that the block starts at each position
    (both as :meth:`Core.beliefs <excover.nonogram._core.Core.beliefs>` estimates
    them): a cell is tried black when it is more likely black than not, "block ``j``
    starts at ``s`` or before" true when the block's chance of starting by ``s`` is at
    least one half. On the tournament puzzles that 300 depth-first nodes do not settle,
    CaDiCaL finds the first picture three to four times sooner with them."""
    phases = [v + 1 if chance >= 0.5 else -(v + 1) for v, chance in enumerate(black)]
    variable = puzzle.height * puzzle.width + 1  # encode_order's first start variable
    lengths = [puzzle.width] * puzzle.height + [puzzle.height] * puzzle.width
    for clue, n, line_starts in zip(puzzle.rows + puzzle.cols, lengths, starts, strict=True):
        if not clue:
            continue
        low, high = _start_range(clue, n)
        for j, chances in enumerate(line_starts):
            by = sum(chances[: low[j]])
            for position in range(low[j], high[j]):
                by += chances[position]
                phases.append(variable if by >= 0.5 else -variable)
                variable += 1
    return phases


def _cover_clauses(
    cell: int, spans: list[tuple[int | bool, int | bool]], pool: Pool
) -> list[Clause]:
    """The cover variables of one cell: for each block that can reach it, given as the
    pair of literals "started by the cell" and "started a block length before it", a
    variable "the block covers the cell" equal to the first and not the second; the
    cell is black exactly when one of them is true."""
    clauses: list[Clause] = []
    covers: list[int] = []
    for started, gone in spans:
        if started is False or gone is True:
            continue  # this block cannot cover the cell
        covering = pool.new()
        covers.append(covering)
        clauses.append([-covering, cell])
        if started is not True:
            clauses.append([-covering, started])
        if gone is not False:
            clauses.append([-covering, -gone])
        clauses.append(
            [covering] + ([] if started is True else [-started]) + ([] if gone is False else [gone])
        )
    clauses.append([-cell, *covers])
    return clauses


def encode_order(puzzle: Puzzle, cover: bool = False) -> CNF:
    """The order encoding of a black-and-white ``puzzle``: cell variables first (as in
    :func:`encode`), then each line's start variables (and its cover variables when
    ``cover``)."""
    if puzzle.palette is not None:
        raise ValueError("the order encoding is for black-and-white puzzles")
    pool = Pool(puzzle.height * puzzle.width)
    clauses: list[Clause] = []
    for clue, cells in _lines(puzzle):
        clauses += order_clauses(clue, cells, pool, cover)
    return CNF(
        pool.top, clauses, puzzle.height * puzzle.width, "nonogram block starts (order encoding)"
    )


def _out_of_time() -> LimitReached:
    """The error of an encoding cut short by its time limit (no solution found yet)."""
    from excover.engines import Stats

    stats = Stats(complete=False, stopped_by="timeout", algorithm="SAT", engine="sat")
    return LimitReached("timeout", stats)


def solutions(
    puzzle: Puzzle, *, solver: str | None = None, timeout: float | None = None
) -> Iterator[tuple[str, ...]]:
    """Every solution, each found by the SAT solver ``solver`` (see
    :func:`excover.sat.solve.models`; default CaDiCaL) after blocking the ones before.
    ``timeout`` (seconds of solving) raises :class:`~excover.LimitReached`."""
    from excover.sat.solve import models

    started = time.monotonic()
    cnf = encode(puzzle, None if timeout is None else started + timeout)
    left = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
    return _pictures(puzzle, models(cnf, solver, timeout=left))


def _pictures(puzzle: Puzzle, found: Iterator[list[int]]) -> Iterator[tuple[str, ...]]:
    """The models as pictures (the cell variables come first, row by row), each checked
    against the clues."""
    width = puzzle.width
    symbols = WHITE + "".join(colour.char for colour in puzzle.palette or ())
    values = len(symbols)
    for model in found:
        if puzzle.palette is None:
            cells = "".join(
                BLACK if model[v - 1] > 0 else WHITE for v in range(1, puzzle.height * width + 1)
            )
        else:
            cells = "".join(
                next((symbols[v] for v in range(values) if model[cell * values + v] > 0), "?")
                for cell in range(puzzle.height * width)
            )
        picture = tuple(cells[k : k + width] for k in range(0, len(cells), width))
        problem = puzzle.mismatch(picture)
        if problem is not None:
            raise SolverError(f"the SAT solver's model is not a solution: {problem}")
        yield picture
