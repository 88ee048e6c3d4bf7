"""Type stub of the compiled bit-parallel engine (``_bits.pyx``)."""

from collections.abc import Sequence
from typing import Final, Literal, Self

from typing_extensions import disjoint_base

from excover.engines._driver import _Driver
from excover.problem import EngineInput

MAX_BITS: Final[int]
MAX_OPTIONS: Final[int]
SIMD_LEVELS: Final[tuple[str, ...]]
SIMD: Final[str]

def bits_needed(
    n_primary: int, n_secondary: int, node_item: Sequence[int], node_color: Sequence[int]
) -> int:
    """The number of bits the engine would use for a problem."""

def primary_counts(n_primary: int, node_item: Sequence[int]) -> list[int]:
    """The number of options of each primary item."""

@disjoint_base
class BitEngine(_Driver):
    """One bit-parallel search over a problem given as flat arrays."""

    def __new__(
        cls,
        arrays: EngineInput,
        heuristic: int,
        seed: int,
        algorithm: Literal["X", "C", "M"] | None = None,
        first_item: int = -1,
        simd: str | None = None,
        share: tuple[int, int, int] | None = None,
    ) -> Self: ...
    def root_solutions(self) -> dict[int, int] | None:
        """The solutions found so far under each option of the root's item, or None
        (no ``first_item``, or Algorithm M)."""
    def progress(self) -> float | None:
        """The share of the search tree walked so far (Knuth's estimate), or None
        (Algorithm M)."""
    @property
    def algorithm(self) -> Literal["X", "C"]: ...
    @property
    def simd(self) -> str: ...
