"""All solutions of an exact cover problem as a Family, by combine's column merge.

For each primary item the family of the option sets that cover it exactly the right number
of times (other options free) is a ZDD with one node per option and per count still
possible; a secondary item gives the sets that use it at most once, or, when some options
give it a color, the sets whose options on it are one uncolored option or any options of a
single color. The solutions are the intersection of all these families. As in combine,
the items are sorted by their first option and the families intersected by balanced
merging (pairs, then pairs of pairs...), which keeps the intermediate families small when
neighbouring items share options.

This is the slower construction, kept to compare with combine and to check DXZ: both
return the same canonical family.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from excover.zdd.family import Family
from excover.zdd.manager import Manager, default

if TYPE_CHECKING:
    from excover.problem import Problem

__all__ = ["color_family", "column_family", "columns"]


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


def color_family(manager: Manager, n_options: int, uses: dict[int, int]) -> Family:
    """The sets of options (numbered ``0..n_options-1``) that use a secondary item
    consistently: ``uses`` maps each option on the item to the color it gives it (0 for
    none), and a set may hold one uncolored option or any number of options of one color;
    the options not in ``uses`` are free.

    Built from the last option back, one family per state of the choice already made:
    ``free`` (no option on the item yet), ``done`` (an uncolored one: no more), and one per
    color (options of that color only).
    """
    base, empty = Family.base(manager), Family.empty(manager)
    colors = sorted({c for c in uses.values() if c})
    free, done = base, base
    tinted = dict.fromkeys(colors, base)
    for option in reversed(range(n_options)):
        color = uses.get(option)
        if color is None:
            free, done = Family.node(option, free, free), Family.node(option, done, done)
            tinted = {c: Family.node(option, f, f) for c, f in tinted.items()}
            continue
        taken = done if color == 0 else tinted[color]
        free = Family.node(option, free, taken)
        done = Family.node(option, done, empty)
        tinted = {c: Family.node(option, f, f if c == color else empty) for c, f in tinted.items()}
    return free


def columns(problem: Problem, manager: Manager | None = None) -> Family:
    """The family of all solutions of ``problem``, by combine's column merge."""
    owner = manager or default()
    data = problem.engine_input()
    n_items = data.n_primary + data.n_secondary
    uses: list[dict[int, int]] = [{} for _ in range(n_items)]  # option -> color, per item
    start, items, node_colors = data.option_start, data.node_item, data.node_color
    for option in range(problem.n_options):
        for node in range(start[option], start[option + 1]):
            uses[items[node]][option] = node_colors[node]
    order = sorted(range(n_items), key=lambda j: min(uses[j], default=problem.n_options))
    layer = [_item_family(owner, problem, j, uses[j]) for j in order]
    if not layer:
        return Family.base(owner)
    while len(layer) > 1:
        merged = [a & b for a, b in zip(layer[::2], layer[1::2], strict=False)]
        if len(layer) % 2:
            merged.append(layer[-1])
        layer = merged
    return layer[0]


def _item_family(manager: Manager, problem: Problem, item: int, uses: dict[int, int]) -> Family:
    """The family of the option sets that satisfy ``item`` (an engine item number)."""
    data = problem.engine_input()
    if item < data.n_primary:
        return column_family(manager, problem.n_options, set(uses), data.lo[item], data.hi[item])
    if any(uses.values()):
        return color_family(manager, problem.n_options, uses)
    return column_family(manager, problem.n_options, set(uses), 0, 1)
