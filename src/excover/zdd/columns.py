"""All solutions of an exact cover problem as a Family, by combine's column merge.

For each primary item the family of the option sets that cover it exactly the right number
of times (other options free) is a ZDD with one node per option and per count still
possible; a secondary item gives the sets that use it at most once. The solutions are the
intersection of all these families. As in combine, the items are sorted by their first
option and the families intersected by balanced merging (pairs, then pairs of pairs...),
which keeps the intermediate families small when neighbouring items share options.

This is the slower construction, kept to compare with combine and to check DXZ: both
return the same canonical family. Problems with colors are built from the enumerated
solutions instead (see :func:`excover.zdd.dxz.solutions_family`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from excover.zdd.dxz import solutions_family
from excover.zdd.family import Family
from excover.zdd.manager import Manager, default

if TYPE_CHECKING:
    from excover.problem import ExactCover

__all__ = ["column_family", "columns"]


def column_family(manager: Manager, n_options: int, covering: set[int], lo: int, hi: int) -> Family:
    """The sets of options (numbered ``0..n_options-1``) holding between ``lo`` and ``hi``
    of the options in ``covering``; the others are free.

    Built from the last option back: ``need[c]`` is the family of the choices among the
    options still to come that complete a choice already holding ``c`` options of
    ``covering`` (``need[hi + 1]`` is always empty: too many).
    """
    base, empty = Family.base(manager), Family.empty(manager)
    need = [base if lo <= c <= hi else empty for c in range(hi + 2)]
    for option in reversed(range(n_options)):
        if option in covering:
            need = [
                Family.node(option, need[c], need[c + 1] if c + 1 <= hi else empty)
                for c in range(hi + 1)
            ] + [empty]
        else:
            need = [Family.node(option, need[c], need[c]) for c in range(hi + 1)] + [empty]
    return need[0]


def columns(problem: ExactCover, manager: Manager | None = None) -> Family:
    """The family of all solutions of ``problem``, by combine's column merge."""
    owner = manager or default()
    data = problem.engine_input()
    if any(data.node_color):
        return solutions_family(problem, owner)
    n_items = data.n_primary + data.n_secondary
    covering: list[set[int]] = [set() for _ in range(n_items)]
    start, items = data.option_start, data.node_item
    for option in range(problem.n_options):
        for node in range(start[option], start[option + 1]):
            covering[items[node]].add(option)
    bounds = [(data.lo[j], data.hi[j]) for j in range(data.n_primary)]
    bounds += [(0, 1)] * data.n_secondary
    order = sorted(range(n_items), key=lambda j: min(covering[j], default=problem.n_options))
    layer = [column_family(owner, problem.n_options, covering[j], *bounds[j]) for j in order]
    if not layer:
        return Family.base(owner)
    while len(layer) > 1:
        merged = [a & b for a, b in zip(layer[::2], layer[1::2], strict=False)]
        if len(layer) % 2:
            merged.append(layer[-1])
        layer = merged
    return layer[0]
