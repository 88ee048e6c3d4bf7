"""Type stub of the compiled nonogram core (``_core.pyx`` and the ``_core_*.pxi`` parts it
includes)."""

from collections.abc import Sequence
from typing import Self

from typing_extensions import disjoint_base

__all__ = [
    "EXHAUSTED",
    "MAX_CELLS",
    "NODE_LIMIT",
    "SOLUTION",
    "TIME_LIMIT",
    "ColourCore",
    "Core",
    "colour_line_solve",
    "line_solve",
]

MAX_CELLS: int
SOLUTION: int
EXHAUSTED: int
NODE_LIMIT: int
TIME_LIMIT: int

@disjoint_base
class LineCore:
    """What both cores share: the lines, the search loop, probing and the statistics
    (not used alone: :class:`Core` and :class:`ColourCore` give it a grid). They are
    compiled classes: each takes its clues in ``__cinit__``, which runs in ``__new__``
    (hence ``__new__`` here: at run time ``__init__`` is ``object``'s)."""

    nodes: int
    line_solves: int
    probes: int
    solutions: int
    cache_hits: int

    @property
    def depth(self) -> int:
        """Cells branched on down to the current node: 0 when everything was forced."""
    def restart(self) -> None:
        """Forget everything: every cell may take every value again, every line dirty,
        statistics zero."""
    def next_solution(
        self,
        max_nodes: int = -1,
        deadline: float = -1.0,
        probing: bool = True,
        max_probes: int = -1,
    ) -> int:
        """Search on to the next solution; SOLUTION, EXHAUSTED, NODE_LIMIT or TIME_LIMIT."""
    def propagate_only(self) -> int:
        """Line propagation alone from the start: 1 at the fixpoint, 0 on a contradiction."""

@disjoint_base
class Core(LineCore):
    """A black-and-white nonogram being solved: grid, trail and search stack."""

    skip_unchanged: bool
    near_first: bool
    score_rule: int
    fixpoint_below_root: bool

    def __new__(
        cls, height: int, width: int, clues: Sequence[int], clue_start: Sequence[int]
    ) -> Self: ...
    def probe_only(self) -> int:
        """Propagation and probing to their fixpoint from the start: 1, or 0 (contradiction)."""
    def probe_deep(self, deadline: float = -1.0) -> int:
        """Probing of depth 2 from the start: 1, 0 (contradiction) or TIME_LIMIT."""
    def hunt(
        self,
        max_nodes: int = -1,
        deadline: float = -1.0,
        seed: int = 1,
        first_run: int = 64,
        forbidden: bytes = b"",
    ) -> int:
        """Randomized search with restarts for a solution not in ``forbidden``."""
    def guess(
        self,
        deadline: float = -1.0,
        iterations: int = 20,
        fraction: float = 0.05,
        max_failures: int = -1,
        forbidden: bytes = b"",
        resume: bool = False,
        given: bytes = b"",
    ) -> int:
        """Decimation by belief propagation for a solution not in ``forbidden``; with
        ``resume``, going on from a guess paused at its deadline or its ``max_failures``;
        a fresh start first decides the cells ``given`` holds (1 white, 2 black)."""
    deepest_floor: int
    def deepest_guess(self) -> bytes | None:
        """The grid of the consistent state with the fewest unknown cells (but at least
        ``deepest_floor``) that the last decimation reached (None before any)."""
    def deepest_order(self) -> list[int] | None:
        """The cells that state decided, in the order they were decided (None before
        any)."""
    def beliefs(self, iterations: int = 20) -> tuple[list[float], list[list[list[float]]]]:
        """Belief propagation over the lines: each cell's chance of being black, and
        each block's chances of starting at each position."""
    def grid_bytes(self) -> bytes:
        """The grid, one byte per cell row by row (1 white, 2 black, 3 unknown)."""

def line_solve(clue: Sequence[int], cells: bytes, bit_parallel: bool = True) -> bytes | None:
    """Narrow one line against its clue; None when no placement agrees with the cells."""

@disjoint_base
class ColourCore(LineCore):
    """A colour nonogram being solved: value sets per cell, trail and search stack."""

    def __new__(
        cls,
        height: int,
        width: int,
        n_values: int,
        lengths: Sequence[int],
        colours: Sequence[int],
        clue_start: Sequence[int],
    ) -> Self: ...
    def grid_values(self) -> bytes:
        """One byte per cell: 0 white, 1.. a colour, 255 still open."""
    def grid_sets(self) -> list[int]:
        """The value set of every cell (bit v for value v)."""

def colour_line_solve(
    lengths: Sequence[int], colours: Sequence[int], n_values: int, cells: Sequence[int]
) -> list[int] | None:
    """Narrow one colour line; None when no placement agrees with the cells."""
