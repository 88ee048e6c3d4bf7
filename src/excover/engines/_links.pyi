"""Type stub of the compiled dancing-links engine (``_links.pyx``)."""

from typing import Final, Literal

from typing_extensions import disjoint_base

from excover.engines._driver import _Driver

__all__ = ["DONE", "MAX_NODES", "MAX_SOLUTIONS", "SOLUTION", "TIMEOUT", "LinksEngine"]

DONE: Final[int]
SOLUTION: Final[int]
MAX_SOLUTIONS: Final[int]
MAX_NODES: Final[int]
TIMEOUT: Final[int]

@disjoint_base
class LinksEngine(_Driver):
    """One dancing-links search over a problem given as flat arrays."""

    def progress(self) -> float | None:
        """The share of the search tree walked so far, by Knuth's estimate from the
        current path; None on Algorithm M."""
    @property
    def algorithm(self) -> Literal["X", "C", "M"]: ...
