"""At-most-one encodings: clauses saying that at most one of some literals is true.

Every item of an exact cover problem says "at most one of these options" (or, for a
colored secondary item, "at most one of these groups of options"), so the size of the
formula is decided almost entirely by how that constraint is written. Each encoding below
turns a list of literals into clauses, taking auxiliary variables from a :class:`Pool`:

``pairwise``
    one binary clause per pair, no auxiliary variable: n(n-1)/2 clauses. Best for a
    handful of literals, hopeless for hundreds (Scott's problem needs millions).
``seqcounter``
    Sinz's sequential counter (CP 2005): n-1 auxiliary variables, 3n-4 clauses. Unit
    propagation enforces the constraint as soon as one literal is set.
``product``
    Chen's two-product encoding (2010): the literals are laid out in a p x q grid with
    p about sqrt(n); a true literal forces its row and its column, and at most one row and
    one column may be true (recursively). About 2n + 4 sqrt(n) clauses, 2 sqrt(n) variables.
``commander``
    Klieber and Kwon's commander encoding (2007): groups of three literals, each with a
    commander variable implied by its group, pairwise inside a group and recursively
    among the commanders. About 3n clauses, n/2 variables.
``bitwise``
    Frisch's binary encoding: ceil(log2 n) bits name the chosen literal; each literal
    forces its own index on the bits. n log n binary clauses, log n variables.
``auto``
    pairwise up to :data:`PAIRWISE_UP_TO` literals (fewer clauses than any other for so
    few), the sequential counter above that.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from excover.errors import UsageError
from excover.sat.pool import Clause, Pool

__all__ = ["AMO_ENCODINGS", "PAIRWISE_UP_TO", "AmoEncoder", "amo_encoder"]

#: ``auto`` writes constraints on this many literals or fewer pairwise.
PAIRWISE_UP_TO = 6

#: Below this size the recursive encodings stop and write the rest pairwise.
_BASE = 4


def _pairwise(literals: Sequence[int], pool: Pool) -> list[Clause]:
    """One clause ``-a | -b`` per pair of literals."""
    return [[-a, -literals[j]] for i, a in enumerate(literals) for j in range(i + 1, len(literals))]


def _seqcounter(literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Sinz's sequential counter: ``s[i]`` is true when one of the first i+1 literals is."""
    n = len(literals)
    if n <= 1:
        return []
    s = pool.many(n - 1)
    clauses = [[-literals[0], s[0]]]
    for i in range(1, n - 1):
        x = literals[i]
        clauses += [[-x, s[i]], [-s[i - 1], s[i]], [-x, -s[i - 1]]]
    clauses.append([-literals[n - 1], -s[n - 2]])
    return clauses


def _product(literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Chen's product encoding: literal k sits at row k // q and column k % q of a grid."""
    n = len(literals)
    if n <= _BASE:
        return _pairwise(literals, pool)
    rows = math.isqrt(n - 1) + 1  # ceil(sqrt(n))
    columns = -(-n // rows)
    u = pool.many(rows)
    v = pool.many(columns)
    clauses: list[Clause] = []
    for k, x in enumerate(literals):
        clauses += [[-x, u[k // columns]], [-x, v[k % columns]]]
    return clauses + _product(u, pool) + _product(v, pool)


def _commander(literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Klieber and Kwon's commander encoding with groups of three."""
    if len(literals) <= _BASE:
        return _pairwise(literals, pool)
    clauses: list[Clause] = []
    commanders: list[int] = []
    for start in range(0, len(literals), 3):
        group = literals[start : start + 3]
        if len(group) == 1:  # a lone literal commands itself
            commanders.append(group[0])
            continue
        commander = pool.new()
        commanders.append(commander)
        clauses += _pairwise(group, pool)
        clauses += [[-x, commander] for x in group]
    return clauses + _commander(commanders, pool)


def _bitwise(literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Frisch's binary encoding: literal k forces the bits to spell k."""
    n = len(literals)
    if n <= 1:
        return []
    bits = pool.many((n - 1).bit_length())
    return [
        [-x, bit if k >> t & 1 else -bit]
        for k, x in enumerate(literals)
        for t, bit in enumerate(bits)
    ]


def _auto(literals: Sequence[int], pool: Pool) -> list[Clause]:
    """Pairwise for a few literals, the sequential counter for more."""
    if len(literals) <= PAIRWISE_UP_TO:
        return _pairwise(literals, pool)
    return _seqcounter(literals, pool)


#: An at-most-one encoding: clauses over the literals, auxiliary variables from the pool.
AmoEncoder = Callable[[Sequence[int], Pool], list[Clause]]

#: The at-most-one encodings by name.
AMO_ENCODINGS: dict[str, AmoEncoder] = {
    "pairwise": _pairwise,
    "seqcounter": _seqcounter,
    "product": _product,
    "commander": _commander,
    "bitwise": _bitwise,
    "auto": _auto,
}


def amo_encoder(name: str) -> AmoEncoder:
    """The at-most-one encoding called ``name`` (one of :data:`AMO_ENCODINGS`)."""
    try:
        return AMO_ENCODINGS[name]
    except (KeyError, TypeError):
        raise UsageError(
            f"unknown at-most-one encoding {name!r}; choose one of {', '.join(AMO_ENCODINGS)}"
        ) from None
