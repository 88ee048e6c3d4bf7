"""Checking a separation stored in an ``.xmpuzzle`` file (by BurrTools or by excover).

Each stored solution places its pieces (:mod:`excover.burr.xmpuzzle.placements`)
and its ``<separation>`` gives the position of every piece in every state. The check
plays the states voxel by voxel, knowing nothing of the disassembler's tables:

- the assembly and every state are free of overlaps, and each separation starts where
  its parent left its pieces (the root where the assembly puts them), give or take one
  translation of the whole part (older versions of BurrTools moved a part taken out);
- every step is one legal move: one set of pieces (not all of the part) moves, all by
  the same vector, a whole number of units along one direction of the grid
  (:data:`~excover.burr.disassembly.DIRECTIONS`), and at each unit step none of the
  voxels it sweeps (the cell it enters and, on the prism grid, the triangle between)
  belongs to a piece that stays;
- the last step of each separation takes its set out: the set moves at least 10,000
  units (BurrTools puts it 20,000 away) and nothing stays in its way however far it goes;
- the two parts are separated in turn, down to single pieces, or left together as a
  group the problem allows.

:func:`check_stored` checks every stored separation of a problem; a fault names the
solution, the separation (``root``, ``root.left``, ``root.removed.left``...), the move
and what is wrong. A valid separation is read back as a
:class:`~excover.burr.disassembly.Separation` (pieces numbered as BurrTools numbers
them), whose level and moves can then be compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from excover.burr.disassembly import DIRECTIONS, Move, Separation
from excover.burr.grouping import Groups
from excover.burr.xmpuzzle import BurrPuzzle
from excover.burr.xmpuzzle.lattice import GRIDS
from excover.burr.xmpuzzle.model import Solution, StoredSeparation, Voxel
from excover.burr.xmpuzzle.placements import placed
from excover.errors import UsageError

__all__ = ["Checked", "check_solution", "check_stored", "sweep"]

#: A piece this far away (on some axis) in a state has been taken out.
_OUT = 10_000


@cache
def _between(grid: int, parity: int, d: Voxel) -> tuple[Voxel, ...]:
    """On the prism grid, the offsets of the cells a unit step along ``d`` from a voxel
    of this parity (``x + y`` mod 2) sweeps: its end, and any cell sharing a face with
    both ends (the triangle between them)."""
    start = (parity, 0, 0)
    end = (start[0] + d[0], d[1], d[2])
    lattice = GRIDS[grid]
    common = set(lattice.neighbours(start)) & set(lattice.neighbours(end))
    return tuple((c[0] - parity, c[1], c[2]) for c in (end, *sorted(common)))


def sweep(grid: int, voxel: Voxel, d: Voxel) -> list[Voxel]:
    """The cells a unit step of ``voxel`` along the direction ``d`` passes through."""
    x, y, z = voxel
    if grid == 0:
        return [(x + d[0], y + d[1], z + d[2])]
    return [(x + a, y + b, z + c) for a, b, c in _between(grid, (x + y) % 2, d)]


@dataclass(frozen=True)
class Checked:
    """The check of one stored solution: its number among the problem's stored
    solutions (from 0), where the file has it, the separation read back (None when it
    is refused), and the fault (None: valid)."""

    solution: int
    line: int
    tree: Separation | None
    fault: str | None = None


class _Fault(Exception):
    """A stored separation that does not hold; the message says where and why."""


def _shifted(voxels: Sequence[Voxel], t: Voxel) -> list[Voxel]:
    return [(x + t[0], y + t[1], z + t[2]) for x, y, z in voxels]


class _Checker:
    def __init__(self, puzzle: BurrPuzzle, problem: int, solution: Solution) -> None:
        if puzzle.grid not in DIRECTIONS:
            raise UsageError(f"{puzzle.source}: separations on {puzzle.grid_name} are not checked")
        self.grid = puzzle.grid
        spec = puzzle.problems[problem]
        parts = [k for k, part in enumerate(spec.parts) for _ in range(part.hi)]
        self.parts = parts
        self.groups = Groups([part.groups for part in spec.parts])
        if len(solution.placements) != len(parts):
            raise _Fault(f"the assembly places {len(solution.placements)} of {len(parts)} pieces")
        self.origin: dict[int, Voxel] = {}
        self.voxels: dict[int, list[Voxel]] = {}
        for piece, where in enumerate(solution.placements):
            if where is None:
                continue
            shape = puzzle.shapes[spec.parts[parts[piece]].shape]
            self.origin[piece] = where[:3]
            self.voxels[piece] = placed(shape, self.grid, where)
        self._overlaps(self.origin, "the assembly")

    def cells(self, piece: int, where: Voxel) -> list[Voxel]:
        """The voxels of ``piece`` with its hotspot at ``where``."""
        o = self.origin[piece]
        return _shifted(self.voxels[piece], (where[0] - o[0], where[1] - o[1], where[2] - o[2]))

    def _overlaps(self, state: dict[int, Voxel], what: str) -> None:
        owner: dict[Voxel, int] = {}
        for piece, where in state.items():
            for v in self.cells(piece, where):
                other = owner.setdefault(v, piece)
                if other != piece:
                    raise _Fault(f"{what} puts pieces {other} and {piece} on voxel {v}")

    def _direction(self, vector: Voxel, what: str) -> tuple[int, int]:
        """The direction and the number of units of a move by ``vector``."""
        for d, unit in enumerate(DIRECTIONS[self.grid]):
            k = next((v // u for v, u in zip(vector, unit, strict=True) if u), 0)
            if k > 0 and all(v == k * u for v, u in zip(vector, unit, strict=True)):
                return d, k
        raise _Fault(f"{what}: a move by {vector} is along no direction of the grid")

    def _blocked(
        self, moving: list[Voxel], rest: set[Voxel], unit: Voxel, steps: int
    ) -> tuple[int, Voxel] | None:
        """The first unit step (from 0) of ``moving`` along ``unit`` whose sweep meets
        ``rest``, within ``steps`` steps, and the voxel met; None if none does."""
        for step in range(steps):
            for v in moving:
                here = (v[0] + step * unit[0], v[1] + step * unit[1], v[2] + step * unit[2])
                for cell in sweep(self.grid, here, unit):
                    if cell in rest:
                        return step, cell
        return None

    def separation(self, node: StoredSeparation, path: str, start: dict[int, Voxel]) -> Separation:
        where = f"separation {path} (pieces {' '.join(map(str, node.pieces))})"
        if sorted(node.pieces) != sorted(start) or len(set(node.pieces)) != len(node.pieces):
            raise _Fault(
                f"{where}: the part should hold pieces {' '.join(map(str, sorted(start)))}"
            )
        states = [dict(zip(node.pieces, state, strict=True)) for state in node.states]
        shifts = {tuple(a - b for a, b in zip(states[0][p], start[p], strict=True)) for p in start}
        if len(shifts) > 1:  # a part apart may be moved as a whole (older BurrTools did)
            raise _Fault(f"{where}: the first state is not where the pieces were left")
        if len(states) < 2:
            raise _Fault(f"{where}: no move takes the part apart")
        moves: list[Move] = []
        for k, (before, after) in enumerate(pairwise(states), 1):
            at = f"{where}, move {k}"
            last = k == len(states) - 1
            if not last:
                self._overlaps(after, f"{at}: the state after it")
            moved = [p for p in node.pieces if after[p] != before[p]]
            if not moved or len(moved) == len(node.pieces):
                raise _Fault(f"{at}: {'no piece' if not moved else 'every piece'} moves")
            vectors = {
                tuple(a - b for a, b in zip(after[p], before[p], strict=True)) for p in moved
            }
            if len(vectors) > 1:
                raise _Fault(f"{at}: the pieces moved go different ways")
            vector: Voxel = vectors.pop()  # type: ignore[assignment]
            direction, units = self._direction(vector, at)
            unit = DIRECTIONS[self.grid][direction]
            moving = [v for p in moved for v in self.cells(p, before[p])]
            rest_pieces = [p for p in node.pieces if p not in moved]
            rest = {v for p in rest_pieces for v in self.cells(p, before[p])}
            if last:
                if units < _OUT:
                    raise _Fault(f"{at}: the last move does not take its pieces out")
                reach = 3 + max(
                    max(abs(c) for c in v) for v in (*moving, *rest)
                )  # past every voxel, whichever way
                units = 2 * reach
            elif any(abs(c) > _OUT for p in moved for c in after[p]):
                raise _Fault(f"{at}: pieces are taken out before the last move")
            hit = self._blocked(moving, rest, unit, units)
            if hit is not None:
                step, cell = hit
                other = next(p for p in rest_pieces if cell in set(self.cells(p, before[p])))
                pieces = " ".join(map(str, moved))
                raise _Fault(
                    f"{at}: pieces {pieces} meet piece {other} at voxel {cell} "
                    f"in unit step {step + 1} along {vector}"
                )
            moves.append(Move(tuple(moved), direction, None if last else units, self.grid))
        removed = set(moves[-1].pieces)
        before = states[-2]
        parts: dict[str, Separation | None] = {}
        for kind, sub in (("left", node.left), ("removed", node.removed)):
            side = [p for p in node.pieces if (p in removed) == (kind == "removed")]
            if sub is not None:
                parts[kind] = self.separation(sub, f"{path}.{kind}", {p: before[p] for p in side})
                continue
            parts[kind] = None
            kinds = [self.parts[p] for p in side]
            if len(side) > 1 and not (self.groups.same_group(kinds) or self.groups.fit([kinds])):
                raise _Fault(
                    f"{where}: the {kind} pieces {' '.join(map(str, side))} are not taken "
                    "apart, and no group of the problem holds them"
                )
        start_t = tuple(
            tuple(a - b for a, b in zip(states[0][p], self.origin[p], strict=True))
            for p in node.pieces
        )
        return Separation(
            tuple(node.pieces),
            start_t,  # type: ignore[arg-type]
            tuple(moves),
            parts["left"],
            parts["removed"],
        )


def check_solution(puzzle: BurrPuzzle, problem: int, number: int) -> Checked:
    """Check the separation of stored solution ``number`` of ``problem``."""
    solution = puzzle.problems[problem].stored[number]
    if solution.separation is None:
        raise UsageError(f"{puzzle.source}: stored solution {number} has no separation")
    try:
        checker = _Checker(puzzle, problem, solution)
        tree = checker.separation(solution.separation, "root", dict(checker.origin))
    except _Fault as fault:
        return Checked(number, solution.line, None, str(fault))
    return Checked(number, solution.line, tree)


def check_stored(puzzle: BurrPuzzle, problem: int = 0) -> list[Checked]:
    """Check every separation stored with ``problem`` (solutions without one are left
    out)."""
    if not 0 <= problem < len(puzzle.problems):
        raise UsageError(f"{puzzle.source}: no problem {problem}")
    stored = puzzle.problems[problem].stored
    return [
        check_solution(puzzle, problem, k) for k, s in enumerate(stored) if s.separation is not None
    ]
