"""The permutations a problem stores: its declared symmetries, as their users give them.

A problem may declare the symmetries under which its solutions count as the same
(:meth:`excover.ExactCover.declare_symmetries`): a BurrTools puzzle declares those of its
result shape, a tiling those of its board. The model keeps them as given, so their types
live here, at the model's level; :mod:`excover.symmetry` checks them, builds the group
they generate and acts with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, SupportsIndex

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Automorphism", "Generator"]


class Automorphism(NamedTuple):
    """An automorphism of a problem: ``options[k]`` is the image of option ``k`` and
    ``items[i]`` the image of item ``i`` (positions, primary items first)."""

    options: npt.NDArray[np.int64]
    items: npt.NDArray[np.int64]

    def apply(self, solution: Iterable[SupportsIndex]) -> list[int]:
        """The image of a solution (option indices), sorted."""
        return sorted(int(self.options[int(k)]) for k in solution)


#: A generator as a user may give it: an option permutation (a sequence of option
#: indices, one per option), an item mapping (item names or positions to item names or
#: positions; items left out are fixed), or an :class:`Automorphism`.
Generator = (
    Automorphism
    | Sequence[SupportsIndex]
    | Mapping[str, str]
    | Mapping[int, int]
    | Mapping[str | int, str | int]
)
