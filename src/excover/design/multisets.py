"""Multisets of catalog items numbered in order, and their canonical forms under a
group: the index space of designs made by choosing pieces.

A design that picks ``k`` pieces from a catalog of ``n``, each at most ``copies`` times,
is a multiset, written as its sorted tuple of item numbers. :class:`Multisets` numbers
them 0, 1, ... in lexicographic order of those tuples (with ``copies = 1`` these are the
combinations, in the order :func:`itertools.combinations` gives them), so that a search
can be cut into ranges of indices and any index turned back into its multiset
(:meth:`Multisets.unrank`) without listing those before it. The number of multisets of
each size over each tail of the catalog is a table of O(n k) big integers, built once.

A group acting on the items (the symmetries of the result permuting the catalog's
pieces, such as a mirror swapping the two hands of a chiral piece) makes multisets
equivalent: :func:`canonical` says whether a multiset is the smallest of its orbit (the
one the search keeps) and how many multisets that orbit holds (how many it stands for).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["Multisets", "canonical"]


class Multisets:
    """The multisets of ``size`` items from ``items`` items, each at most ``copies``
    times, numbered in lexicographic order of their sorted tuples."""

    def __init__(self, items: int, size: int, copies: int = 1) -> None:
        if items < 0 or size < 0 or copies < 1:
            raise ValueError(f"bad multisets ({items} items, size {size}, copies {copies})")
        self.items = items
        self.size = size
        self.copies = copies
        # ways[i][s]: the multisets of s items taken from items i, i + 1, ..., n - 1
        ways = [[0] * (size + 1) for _ in range(items + 1)]
        ways[items][0] = 1
        for item in range(items - 1, -1, -1):
            after = ways[item + 1]
            row = ways[item]
            for total in range(size + 1):
                row[total] = sum(after[total - m] for m in range(min(copies, total) + 1))
        self._ways = ways

    @property
    def count(self) -> int:
        """The number of multisets."""
        return self._ways[0][self.size]

    def unrank(self, index: int) -> tuple[int, ...]:
        """The multiset numbered ``index``."""
        if not 0 <= index < self.count:
            raise IndexError(f"multiset {index} out of range ({self.count} multisets)")
        chosen: list[int] = []
        left = self.size
        for item in range(self.items):
            if left == 0:
                break
            after = self._ways[item + 1]
            # more copies of a smaller item come first in lexicographic order
            for times in range(min(self.copies, left), -1, -1):
                block = after[left - times]
                if index < block:
                    chosen.extend([item] * times)
                    left -= times
                    break
                index -= block
        return tuple(chosen)

    def rank(self, chosen: Sequence[int]) -> int:
        """The number of the multiset ``chosen`` (its items in any order)."""
        counts = [0] * self.items
        for item in chosen:
            counts[item] += 1
        if len(chosen) != self.size or max(counts, default=0) > self.copies:
            raise ValueError(f"{tuple(chosen)} is not one of these multisets")
        index = 0
        left = self.size
        for item in range(self.items):
            after = self._ways[item + 1]
            for times in range(min(self.copies, left), counts[item], -1):
                index += after[left - times]
            left -= counts[item]
        return index

    def between(self, start: int, stop: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """``(index, multiset)`` for the indices from ``start`` to ``stop`` (excluded),
        in order: the first unranked, each next one its successor."""
        if start >= stop:
            return
        current = list(self.unrank(start))
        yield start, tuple(current)
        for index in range(start + 1, stop):
            current = self._successor(current)
            yield index, tuple(current)

    def _successor(self, current: list[int]) -> list[int]:
        """The multiset after ``current`` in lexicographic order (one exists)."""
        size, copies, last = self.size, self.copies, self.items - 1
        for position in range(size - 1, -1, -1):
            value = current[position] + 1
            if value > last:
                continue
            # the smallest completion from ``value`` on, each item at most ``copies`` times
            tail = [value + k // copies for k in range(size - position)]
            if tail[-1] <= last:
                return current[:position] + tail
        raise IndexError("no multiset after the last one")


def canonical(chosen: tuple[int, ...], maps: Sequence[Sequence[int]]) -> tuple[bool, int]:
    """Whether the sorted multiset ``chosen`` is the smallest of its orbit under the
    item permutations ``maps`` (a group, the identity among them), and the orbit's
    size."""
    images = {tuple(sorted(image[item] for item in chosen)) for image in maps}
    return chosen == min(images), len(images)
