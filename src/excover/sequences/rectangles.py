"""Scott R. Shannon's 2023 family: the n x n square tiled by rectangles under one global rule.

Five OEIS sequences count every tiling of the n x n square (tilings equal by a symmetry
counted apart) by rectangles, under a rule on the rectangles of one tiling:

- A360498: oblongs, distinct dimensions (each pair {h, w} at most once, either way up);
- A360725: oblongs, distinct h x w (a 1 x 3 and a 3 x 1 may both be used, each once);
- A360499: rectangles, distinct dimensions, squares included (the n x n square too);
- A360256: rectangles, distinct h x w, squares included;
- A360804: rectangles, distinct areas (a 2 x 2 and a 1 x 4 never together).

An *oblong* is a rectangle that is not a square. Each is an exact cover with
secondary items: one primary item per cell (``"r,c"``, row r from the top), one option per
placement of each allowed rectangle, holding its cells and the secondary item of its
*key* (``"{h,w}"`` for a pair, ``"hxw"`` for a rectangle the way up it lies, ``"areak"``):
a secondary item is covered at most once, which is the rule. The problem declares the 8
symmetries of the square (a quarter turn exchanges ``"hxw"`` and ``"wxh"``; the other keys
stay), so a symmetry-broken count needs no search for its group.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from excover.deadlines import check, check_deadline
from excover.errors import UsageError
from excover.solving import ExactCover

__all__ = ["MAX_NODES", "RULES", "Rule", "count_by_states", "model_nodes", "rectangles", "shapes"]

#: The most nodes (the cells and the key of every option) of an exact cover that
#: :func:`rectangles` builds (squares up to 33 or 34 cells a side): its
#: engines would take gigabytes more, for a search no machine finishes (the largest
#: published term, the 9 x 9 square, has 25,632 nodes; the 25 x 25 square, 8.3 million,
#: is built in 2.7 s and 80 MB). A square of 10,000 cells a side, with 2.8 * 10^22, ran
#: out of memory while it was built.
MAX_NODES = 50_000_000


@dataclass(frozen=True)
class Rule:
    """One sequence of the family: whether squares may be used, and the secondary item
    that a rectangle of ``h`` rows and ``w`` columns holds (the name of its key)."""

    squares: bool
    key: Callable[[int, int], str]
    #: How a quarter turn renames a key (identity unless the key has a way up).
    turned: Callable[[str], str]


def _pair(h: int, w: int) -> str:
    return f"{{{min(h, w)},{max(h, w)}}}"


def _oriented(h: int, w: int) -> str:
    return f"{h}x{w}"


def _area(h: int, w: int) -> str:
    return f"area{h * w}"


def _same(key: str) -> str:
    return key


def _turn_oriented(key: str) -> str:
    h, w = key.split("x")
    return f"{w}x{h}"


#: The five sequences of the family, by A-number.
RULES: dict[str, Rule] = {
    "A360498": Rule(squares=False, key=_pair, turned=_same),
    "A360725": Rule(squares=False, key=_oriented, turned=_turn_oriented),
    "A360499": Rule(squares=True, key=_pair, turned=_same),
    "A360256": Rule(squares=True, key=_oriented, turned=_turn_oriented),
    "A360804": Rule(squares=True, key=_area, turned=_same),
}


def _cell(row: int, column: int) -> str:
    return f"{row},{column}"


def rectangles(sequence: str, n: int, *, deadline: float | None = None) -> ExactCover:
    """The exact cover whose solutions are the tilings counted by ``sequence`` (one of
    :data:`RULES`) at ``n``: the n x n square, its cells primary, one option per
    placement of each allowed rectangle, one secondary item per key. UsageError when it
    would have more than :data:`MAX_NODES` nodes (told before anything is built);
    LimitReached once ``deadline`` (a ``time.monotonic()`` instant) passes while it is
    built."""
    deadline = check_deadline(deadline)
    nodes = model_nodes(sequence, n)
    if nodes > MAX_NODES:
        raise UsageError(
            f"{sequence}({n}): its exact cover would have {nodes:,} nodes, past the "
            f"{MAX_NODES:,} excover builds (excover.sequences.rectangles.MAX_NODES)"
        )
    allowed = shapes(sequence, n)
    rule = RULES[sequence]
    keys = list(dict.fromkeys(allowed.values()))
    cells = [_cell(row, column) for row in range(n) for column in range(n)]
    problem = ExactCover(primary=cells, secondary=keys)
    for (h, w), key in allowed.items():
        for top in range(n - h + 1):
            check(deadline, problem.n_options)
            for left in range(n - w + 1):
                covered = [
                    _cell(row, column)
                    for row in range(top, top + h)
                    for column in range(left, left + w)
                ]
                problem.add_option([*covered, key])
    turn = {_cell(r, c): _cell(c, n - 1 - r) for r in range(n) for c in range(n)}
    turn.update({key: rule.turned(key) for key in keys})
    mirror = {_cell(r, c): _cell(r, n - 1 - c) for r in range(n) for c in range(n)}
    problem.declare_symmetries([turn, mirror])
    return problem


def model_nodes(sequence: str, n: int) -> int:
    """The nodes of :func:`rectangles`' exact cover of ``sequence`` at ``n``, told in a
    few operations whatever ``n``: an ``h x w`` rectangle has ``(n - h + 1)(n - w + 1)``
    placements of ``h w + 1`` nodes (its cells and its key), so all rectangles together
    have ``(sum of (n - h + 1) h)^2 + (sum of (n - h + 1))^2``, less the squares' share
    where the rule leaves them out (sums of powers, in closed form)."""
    rule = _rule(sequence)
    m = n + 1
    powers = [n, n * m // 2, n * m * (2 * n + 1) // 6, (n * m // 2) ** 2]
    powers.append(n * m * (2 * n + 1) * (3 * n * n + 3 * n - 1) // 30)
    weighted = m * powers[1] - powers[2]  # sum of (m - h) h
    placements = m * powers[0] - powers[1]  # sum of (m - h)
    every = weighted**2 + placements**2
    if rule.squares:
        return every
    squared = m * m * powers[2] - 2 * m * powers[3] + powers[4]  # sum of (m - h)^2 h^2
    return every - squared - powers[2]  # the squares' placements: sum of (m - h)^2


def _rule(sequence: str) -> Rule:
    """The rule of ``sequence``; UsageError for a sequence of another family."""
    rule = RULES.get(sequence)
    if rule is None:
        raise UsageError(f"{sequence!r} is not of the rectangle family ({', '.join(RULES)})")
    return rule


def shapes(sequence: str, n: int) -> dict[tuple[int, int], str]:
    """The rectangles ``sequence`` allows in the n x n square, each with its key."""
    rule = _rule(sequence)
    return {
        (h, w): rule.key(h, w)
        for h in range(1, n + 1)
        for w in range(1, n + 1)
        if rule.squares or h != w
    }


def count_by_states(
    sequence: str, n: int, *, timeout: float | None = None
) -> tuple[int, dict[str, object]]:
    """The n-th term of ``sequence`` counted by the states of its partial tilings
    (:func:`excover.tiling.count_rectangle_tilings`, the square's symmetries used), and
    the states merged; past ``timeout`` seconds, :class:`~excover.LimitReached`. A
    square larger than that count takes is a UsageError naming its limit, told before
    the rectangles are listed (the n^2 of a square of 10,000 cells a side took
    gigabytes first)."""
    import time

    from excover.errors import LimitReached
    from excover.statistics import Stats
    from excover.tiling import count_rectangle_tilings
    from excover.tiling.rectangles import check_box

    check_box(n, n)
    deadline = None if timeout is None else time.monotonic() + timeout
    merged = 0

    def heard(done: int, cells: int, states: int) -> None:
        nonlocal merged
        merged += states
        if deadline is not None and time.monotonic() > deadline:
            raise LimitReached("timeout", Stats())

    value = count_rectangle_tilings(n, n, shapes(sequence, n), tick=heard)
    return value, {"states": merged}
