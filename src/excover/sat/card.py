"""Cardinality constraints: at most k, at least k of some literals (Sinz's counter).

A primary item with a multiplicity ``lo..hi`` (Knuth's MCC problems) asks that between
``lo`` and ``hi`` of its options be chosen. Both bounds are written with Sinz's sequential
counter (CP 2005): auxiliary variable ``s[i][j]`` is true when at least j+1 of the first
i+1 literals are, which takes (n-1)k variables and about 2nk clauses and lets unit
propagation enforce the bound. "At least k of n" is "at most n-k of the negations".
Bounds of one use the chosen at-most-one encoding instead (see :mod:`excover.sat.amo`).
"""

from __future__ import annotations

from collections.abc import Sequence

from excover.sat.pool import Clause, Pool

__all__ = ["at_least", "at_most"]


def at_most(k: int, literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Clauses allowing at most ``k`` (>= 0) of ``literals`` to be true."""
    n = len(literals)
    if k >= n:
        return []
    if k == 0:
        return [[-x] for x in literals]
    s = [pool.many(k) for _ in range(n - 1)]
    clauses: list[Clause] = [[-literals[0], s[0][0]]]
    clauses += [[-s[0][j]] for j in range(1, k)]
    for i in range(1, n - 1):
        x = literals[i]
        clauses += [[-x, s[i][0]], [-s[i - 1][0], s[i][0]]]
        for j in range(1, k):
            clauses += [[-x, -s[i - 1][j - 1], s[i][j]], [-s[i - 1][j], s[i][j]]]
        clauses.append([-x, -s[i - 1][k - 1]])
    clauses.append([-literals[n - 1], -s[n - 2][k - 1]])
    return clauses


def at_least(k: int, literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Clauses forcing at least ``k`` of ``literals`` to be true (an empty clause when
    there are fewer than ``k`` literals)."""
    n = len(literals)
    if k <= 0:
        return []
    if k > n:
        return [[]]
    if k == 1:
        return [list(literals)]
    return at_most(n - k, [-x for x in literals], pool)
