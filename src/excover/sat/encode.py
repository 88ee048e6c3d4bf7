"""Encoding an exact cover problem as a CNF formula.

One Boolean variable per option (option ``i`` is variable ``i + 1``), true when the option
is chosen. Then, item by item:

* a primary item covered exactly once gets one clause "at least one of its options" and
  an at-most-one constraint over its options, in the chosen encoding
  (:mod:`excover.sat.amo`); with a multiplicity ``lo..hi`` it gets "at least lo" and "at
  most hi" cardinality constraints instead (:mod:`excover.sat.card`), left out when
  trivial (``lo = 0``, or ``hi`` at least the number of options);
* a secondary item may be used by one option, or by several options that agree on its
  color. Its uses fall into *groups*: each uncolored use alone, and all uses of one color
  together. At most one group may be chosen. A group of one option is represented by the
  option's variable; a larger group by a new variable ``g`` with ``g`` true exactly when
  one of the group's options is (clauses ``-x | g`` for each option ``x`` and
  ``-g | x1 | ... | xk``). The at-most-one constraint then runs over the groups.

The model rejects an option that names an item twice, so an option never conflicts with
itself (the mistake that makes combine's encoding of Scott's problem unsatisfiable).
"""

from __future__ import annotations

from collections.abc import Callable

from excover.formats.dlx import format_dlx
from excover.problem import Problem
from excover.sat.amo import amo_encoder
from excover.sat.card import at_least, at_most
from excover.sat.cnf import CNF
from excover.sat.pool import Clause, Pool

__all__ = ["CHECK_EVERY", "to_cnf"]

#: Items encoded between two calls of ``to_cnf``'s ``check``.
CHECK_EVERY = 256


def to_cnf(problem: Problem, amo: str = "auto", check: Callable[[], None] | None = None) -> CNF:
    """The CNF formula of ``problem``; ``amo`` names the at-most-one encoding (one of
    ``pairwise``, ``seqcounter``, ``product``, ``commander``, ``bitwise``, ``auto``).

    ``check`` is called every :data:`CHECK_EVERY` items: a solver with a time limit
    raises from it when the time is up, so that a large encoding does not overrun it."""
    encode_amo = amo_encoder(amo)
    data = problem.engine_input()
    n_options = len(data.option_start) - 1
    n_primary = data.n_primary
    uses: list[list[tuple[int, int]]] = [[] for _ in range(n_primary + data.n_secondary)]
    for option in range(n_options):
        for node in range(data.option_start[option], data.option_start[option + 1]):
            uses[data.node_item[node]].append((option + 1, data.node_color[node]))
    pool = Pool(n_options)
    clauses: list[Clause] = []
    for item in range(n_primary):
        if check is not None and item % CHECK_EVERY == 0:
            check()
        variables = [variable for variable, _ in uses[item]]
        lo, hi = data.lo[item], data.hi[item]
        clauses += at_least(lo, variables, pool)
        if hi == 1:
            clauses += encode_amo(variables, pool)
        else:
            clauses += at_most(hi, variables, pool)
    for item in range(n_primary, len(uses)):
        if check is not None and item % CHECK_EVERY == 0:
            check()
        groups = _groups(uses[item], pool, clauses)
        clauses += encode_amo(groups, pool)
    text = format_dlx(problem) if problem.n_primary else None
    return CNF(pool.top, clauses, n_options, amo, text)


def _groups(uses: list[tuple[int, int]], pool: Pool, clauses: list[Clause]) -> list[int]:
    """One literal per group of the uses (variable, color) of a secondary item, adding to
    ``clauses`` the definition of each new group variable. An item with a single group
    constrains nothing and gets no literal."""
    singles = [[variable] for variable, color in uses if color == 0]
    by_color: dict[int, list[int]] = {}
    for variable, color in uses:
        if color:
            by_color.setdefault(color, []).append(variable)
    groups = singles + list(by_color.values())
    if len(groups) <= 1:
        return []
    literals: list[int] = []
    for members in groups:
        if len(members) == 1:
            literals.append(members[0])
            continue
        group = pool.new()
        clauses += [[-member, group] for member in members]
        clauses.append([-group, *members])
        literals.append(group)
    return literals
