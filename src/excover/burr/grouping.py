"""BurrTools' piece groups: parts of an assembly that may stay together.

A problem's part (a shape with its count) may name groups, as ``(group, count)`` pairs:
``count`` copies of the shape belong to ``group`` (0: no group). A part of a
disassembly need not come apart when

- every piece of it belongs to one group only and it is the same for all (BurrTools then
  does not even try to take it apart), or
- it does not come apart, and the parts that do not come apart can each be given a group
  holding enough copies of each of their shapes (groups shared between such parts share
  their counts), as BurrTools' grouping check decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["Groups"]


class Groups:
    """The groups of a problem's parts: ``groups[part]`` is its ``(group, count)`` pairs."""

    def __init__(self, groups: Sequence[Sequence[tuple[int, int]]]) -> None:
        self.groups = [tuple((g, c) for g, c in pairs if g) for pairs in groups]
        self._answers: dict[tuple[int, ...], tuple[bool, bool]] = {}

    def __bool__(self) -> bool:
        return any(self.groups)

    def same_group(self, parts: Sequence[int]) -> bool:
        """Every piece (by its part) in exactly one group, the same for all."""
        found = {self.groups[p][0][0] if len(self.groups[p]) == 1 else 0 for p in parts}
        return len(found) == 1 and 0 not in found

    def answers(self, parts: Sequence[int]) -> tuple[bool, bool]:
        """:meth:`same_group` and :meth:`fit` of one set of pieces (by their parts),
        remembered by the parts (with repeats): every assembly of a problem asks the
        same questions."""
        key = tuple(sorted(parts))
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = (self.same_group(key), self.fit([key]))
        return found

    def fit(self, stuck: Sequence[Sequence[int]]) -> bool:
        """Can each set of pieces (given by their parts) that does not come apart be put
        in a group, the groups' counts shared?"""
        room: dict[int, Counter[int]] = {}
        for part, pairs in enumerate(self.groups):
            for group, count in pairs:
                room.setdefault(group, Counter())[part] += count
        needs = [Counter(parts) for parts in stuck]

        def place(k: int) -> bool:
            if k == len(needs):
                return True
            for counts in room.values():
                if all(counts[p] >= c for p, c in needs[k].items()):
                    counts.subtract(needs[k])
                    if place(k + 1):
                        return True
                    counts.update(needs[k])
            return False

        return place(0)
