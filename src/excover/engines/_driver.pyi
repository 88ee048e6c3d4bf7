"""Type stub of the search driver every compiled engine derives from (``_driver.pxi``).

``_driver.pxi`` is not a module of its own: ``_links.pyx``, ``_bits.pyx`` and
``_cells.pyx`` each include it and compile their own ``_Driver``. This stub names that
class once, with what every engine takes and answers, so that each engine's stub declares
only what is its own. Nothing imports it at run time.
"""

from typing import Literal, Self

from typing_extensions import disjoint_base

from excover.problem import EngineInput

@disjoint_base
class _Driver:
    """What every engine does: run a search chunk after chunk, resume it, reset it and
    report its statistics.

    An engine takes its problem as :meth:`~excover.problem.Problem.engine_input` packs
    it (an :class:`~excover.problem.EngineInput`) in ``__cinit__``, which runs in
    ``__new__`` (hence ``__new__`` here: at run time ``__init__`` is ``object``'s)."""

    def __new__(
        cls,
        arrays: EngineInput,
        heuristic: int,
        seed: int,
        algorithm: Literal["X", "C", "M"] | None = None,
        first_item: int = -1,
    ) -> Self: ...
    def run(self, count_only: bool, max_solutions: int, max_nodes: int, deadline: float) -> int:
        """Search on from where the last call stopped; return the status of the stop."""
    def solution(self) -> list[int]:
        """The option indices of the solution the last ``run()`` stopped at, by level
        (each engine reads it off its own structure)."""
    def reset(self) -> None:
        """Forget all progress: the next ``run()`` starts the search from the beginning."""
    @property
    def solutions(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def updates(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def memory_bytes(self) -> int:
        """The bytes the engine's structure takes (each engine counts its own)."""
