"""Type stub of the compiled dancing-links engine (``_links.pyx``)."""

from collections.abc import Sequence
from typing import Final, Literal

__all__ = ["DONE", "MAX_NODES", "MAX_SOLUTIONS", "SOLUTION", "TIMEOUT", "LinksEngine"]

DONE: Final[int]
SOLUTION: Final[int]
MAX_SOLUTIONS: Final[int]
MAX_NODES: Final[int]
TIMEOUT: Final[int]

class LinksEngine:
    """One dancing-links search over a problem given as flat arrays."""

    def __init__(
        self,
        n_primary: int,
        n_secondary: int,
        option_start: Sequence[int],
        node_item: Sequence[int],
        node_color: Sequence[int],
        lo: Sequence[int],
        hi: Sequence[int],
        heuristic: int,
        seed: int,
        algorithm: Literal["X", "C", "M"] | None = None,
        first_item: int = -1,
    ) -> None: ...
    def run(self, count_only: bool, max_solutions: int, max_nodes: int, deadline: float) -> int:
        """Search on from where the last call stopped; return the status of the stop."""
    def solution(self) -> list[int]:
        """The option indices of the solution the last ``run()`` stopped at, by level."""
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
    def algorithm(self) -> Literal["X", "C", "M"]: ...
    @property
    def memory_bytes(self) -> int: ...
