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

A sixth, A360773 (Shannon and Sloane), asks more of A360499's tilings: of the 2n x 2n
square, each dimension pair once, and the rectangles' perimeters summing to the square's
area, (2n)^2. Its count by states keeps the perimeter left to make in each state
(:func:`excover.tiling.count_rectangle_tilings` with ``perimeter``). Its exact cover
chooses the *key set* instead: the set of dimension pairs a tiling uses decides both its
area and its perimeters, so the tilings are those whose key set is one of the sets of
pairs of area (2n)^2 and of ``h + w`` summing to (2n)^2 / 2. The cells, the keys
(``"{h,w}"``, each covered once: by a placement or by its "unused" option) and
``"select"`` are primary; each key has a colored secondary item ``"u{h,w}"``, color 1
in its placements, 0 in its "unused" option; and ``"select"`` has one option per key
set, coloring every key's item 1 if the set holds the key, else 0. A tiling's key set
is one of them, chosen by one option: its solutions are the tilings, each once. Its
option per key set makes it large: 14,146 sets of 55 keys at n = 5, 1.4 million of 78
at n = 6 (past :data:`MAX_NODES`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from excover.deadlines import check, check_deadline
from excover.errors import UsageError
from excover.solving import ExactCover

__all__ = [
    "MAX_NODES",
    "PERIMETER_RULES",
    "RULES",
    "Rule",
    "count_by_states",
    "count_key_sets",
    "key_sets",
    "model_nodes",
    "rectangles",
    "shapes",
    "side",
]

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


#: The sequences of tilings whose perimeters sum to the square's area, by A-number: the
#: rule of their rectangles (one of :data:`RULES`); the n-th term's square is 2n x 2n.
PERIMETER_RULES: dict[str, str] = {"A360773": "A360499"}


def side(sequence: str, n: int) -> int:
    """The side of the square of the ``n``-th term of ``sequence``: n, or 2n for the
    sequences of :data:`PERIMETER_RULES`."""
    return 2 * n if sequence in PERIMETER_RULES else n


def _cell(row: int, column: int) -> str:
    return f"{row},{column}"


def _cells(size: int) -> list[str]:
    """The cells of the ``size`` x ``size`` square, row by row."""
    return [_cell(row, column) for row in range(size) for column in range(size)]


def _turn_and_mirror(size: int) -> tuple[dict[str, str], dict[str, str]]:
    """The quarter turn and the mirror of the ``size`` x ``size`` square, as maps of its
    cells (the generators of its 8 symmetries)."""
    turn = {_cell(r, c): _cell(c, size - 1 - r) for r in range(size) for c in range(size)}
    mirror = {_cell(r, c): _cell(r, size - 1 - c) for r in range(size) for c in range(size)}
    return turn, mirror


def _placements(
    size: int, h: int, w: int, problem: ExactCover, deadline: float | None
) -> Iterator[list[str]]:
    """The cells of each placement of an ``h`` x ``w`` rectangle in the ``size`` x
    ``size`` square, top row by top row; before each row, LimitReached if ``deadline``
    has passed (``problem``, being built, tells how far)."""
    for top in range(size - h + 1):
        check(deadline, problem.n_options)
        for left in range(size - w + 1):
            yield [
                _cell(row, column)
                for row in range(top, top + h)
                for column in range(left, left + w)
            ]


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
    if sequence in PERIMETER_RULES:
        return _perimeter_rectangles(sequence, n, deadline)
    allowed = shapes(sequence, n)
    rule = RULES[sequence]
    keys = list(dict.fromkeys(allowed.values()))
    problem = ExactCover(primary=_cells(n), secondary=keys)
    for (h, w), key in allowed.items():
        for covered in _placements(n, h, w, problem, deadline):
            problem.add_option([*covered, key])
    turn, mirror = _turn_and_mirror(n)
    turn.update({key: rule.turned(key) for key in keys})
    problem.declare_symmetries([turn, mirror])
    return problem


def _by_key(sequence: str, n: int) -> dict[str, list[tuple[int, int]]]:
    """The keys of a perimeter sequence's n-th term, each with its rectangles (both ways
    up), in the order :func:`shapes` meets them."""
    by_key: dict[str, list[tuple[int, int]]] = {}
    for shape, key in shapes(sequence, n).items():
        by_key.setdefault(key, []).append(shape)
    return by_key


def key_sets(sequence: str, n: int, *, deadline: float | None = None) -> Iterator[list[str]]:
    """The key sets of a perimeter sequence's n-th term (the module's text): every set
    of its keys whose rectangles' areas sum to the square's and their ``h + w`` to half
    its area, in a fixed order, each a list of keys in :func:`shapes`' order; LimitReached
    once ``deadline`` (a ``time.monotonic()`` instant) passes. The keys are decided
    largest first, each branch only if the keys left can still make the sums (a table
    of the sums each suffix of the keys makes), so every branch walked ends in a set."""
    import numpy as np

    size = side(sequence, n)
    area, target = size * size, size * size // 2
    order = list(_by_key(sequence, n).items())
    position = {key: i for i, (key, _) in enumerate(order)}
    keys = sorted(
        ((key, rectangles_of[0]) for key, rectangles_of in order),
        key=lambda item: -item[1][0] * item[1][1],
    )
    # makes[i][a, s]: whether some set of the keys from i on has area a and sum s
    makes = np.zeros((len(keys) + 1, area + 1, target + 1), dtype=bool)
    makes[len(keys), 0, 0] = True
    for i in range(len(keys) - 1, -1, -1):
        h, w = keys[i][1]
        makes[i] = makes[i + 1]
        if h * w <= area and h + w <= target:
            makes[i, h * w :, h + w :] |= makes[i + 1, : area + 1 - h * w, : target + 1 - h - w]
    chosen: list[str] = []
    # a stack of (key index, area still to make, sum still to make, keys chosen before)
    stack = [(0, area, target, 0)] if makes[0, area, target] else []
    walked = 0
    while stack:
        i, a, s, depth = stack.pop()
        walked += 1
        check(deadline, walked)
        del chosen[depth:]
        if a == 0 and s == 0:
            yield sorted(chosen, key=position.__getitem__)
            continue
        key, (h, w) = keys[i]
        if makes[i + 1, a, s]:
            stack.append((i + 1, a, s, depth))
        if h * w <= a and h + w <= s and makes[i + 1, a - h * w, s - h - w]:
            chosen.append(key)
            stack.append((i + 1, a - h * w, s - h - w, depth + 1))


def count_key_sets(sequence: str, n: int) -> int:
    """The number of key sets of a perimeter sequence's n-th term (:func:`key_sets`),
    counted without listing them: the sets of each area and sum, key by key, in floating
    point (exact below 2^53, far past any exact cover excover builds); for a square of
    more than 24 cells a side, a UsageError (its sets number more than 10^18)."""
    import numpy as np

    size = side(sequence, n)
    if size > 24:
        raise UsageError(
            f"{sequence}({n}): its key sets are too many to count (7.2e18 at n = 12 already)"
        )
    area, target = size * size, size * size // 2
    sets = np.zeros((area + 1, target + 1))
    sets[0, 0] = 1.0
    for h, w in (rectangles_of[0] for rectangles_of in _by_key(sequence, n).values()):
        if h * w <= area and h + w <= target:
            sets[h * w :, h + w :] += sets[: area + 1 - h * w, : target + 1 - h - w].copy()
    return int(sets[area, target])


def _perimeter_rectangles(sequence: str, n: int, deadline: float | None) -> ExactCover:
    """The exact cover of a perimeter sequence's n-th term (the module's text): the
    2n x 2n square's cells, the keys and ``"select"`` primary, a colored secondary item
    per key, the square's 8 symmetries declared (they keep every key)."""
    size = side(sequence, n)
    by_key = _by_key(sequence, n)
    used = {key: f"u{key}" for key in by_key}
    problem = ExactCover(primary=[*_cells(size), *by_key, "select"], secondary=list(used.values()))
    for key, rectangles_of in by_key.items():
        problem.add_option([key, f"{used[key]}:0"])
        for h, w in rectangles_of:
            for covered in _placements(size, h, w, problem, deadline):
                problem.add_option([*covered, key, f"{used[key]}:1"])
    for chosen in key_sets(sequence, n, deadline=deadline):
        held = set(chosen)
        problem.add_option(["select", *(f"{used[key]}:{int(key in held)}" for key in by_key)])
    fixed = {item: item for item in [*by_key, "select", *used.values()]}
    turn, mirror = _turn_and_mirror(size)
    problem.declare_symmetries([turn | fixed, mirror | fixed])
    return problem


def model_nodes(sequence: str, n: int) -> int:
    """The nodes of :func:`rectangles`' exact cover of ``sequence`` at ``n``, told in a
    few operations whatever ``n``: an ``h x w`` rectangle has ``(n - h + 1)(n - w + 1)``
    placements of ``h w + 1`` nodes (its cells and its key), so all rectangles together
    have ``(sum of (n - h + 1) h)^2 + (sum of (n - h + 1))^2``, less the squares' share
    where the rule leaves them out (sums of powers, in closed form). A perimeter
    sequence's (:data:`PERIMETER_RULES`) adds its key sets, counted
    (:func:`count_key_sets`: a square of more than 24 cells a side is a UsageError)."""
    if sequence in PERIMETER_RULES:
        return _perimeter_nodes(sequence, n)
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


def _perimeter_nodes(sequence: str, n: int) -> int:
    """The nodes of a perimeter sequence's exact cover: each key's "unused" option (2),
    each placement's cells, key and colored item, and each key set's option ("select"
    and every key's item)."""
    size = side(sequence, n)
    count = count_key_sets(sequence, n)  # a UsageError past 24 cells a side
    by_key = _by_key(sequence, n)
    placed = sum(
        (size - h + 1) * (size - w + 1) * (h * w + 2)
        for rectangles_of in by_key.values()
        for h, w in rectangles_of
    )
    return 2 * len(by_key) + placed + count * (1 + len(by_key))


def _rule(sequence: str) -> Rule:
    """The rule of ``sequence``; UsageError for a sequence of another family."""
    rule = RULES.get(sequence)
    if rule is None:
        raise UsageError(f"{sequence!r} is not of the rectangle family ({', '.join(RULES)})")
    return rule


def shapes(sequence: str, n: int) -> dict[tuple[int, int], str]:
    """The rectangles ``sequence`` allows in the square of its ``n``-th term (n x n, or
    2n x 2n for a perimeter sequence), each with its key."""
    size = side(sequence, n)
    rule = _rule(PERIMETER_RULES.get(sequence, sequence))
    return {
        (h, w): rule.key(h, w)
        for h in range(1, size + 1)
        for w in range(1, size + 1)
        if rule.squares or h != w
    }


def count_by_states(
    sequence: str, n: int, *, timeout: float | None = None
) -> tuple[int, dict[str, object]]:
    """The n-th term of ``sequence`` counted by the states of its partial tilings
    (:func:`excover.tiling.count_rectangle_tilings`, the square's symmetries used; a
    perimeter sequence's perimeter target in the states), and
    the states merged; past ``timeout`` seconds, :class:`~excover.LimitReached`. A
    square larger than that count takes is a UsageError naming its limit, told before
    the rectangles are listed (the n^2 of a square of 10,000 cells a side took
    gigabytes first)."""
    import time

    from excover.errors import LimitReached
    from excover.statistics import Stats
    from excover.tiling import count_rectangle_tilings
    from excover.tiling.rectangles import check_box

    size = side(sequence, n)
    check_box(size, size)
    deadline = None if timeout is None else time.monotonic() + timeout
    merged = 0

    def heard(done: int, cells: int, states: int) -> None:
        nonlocal merged
        merged += states
        if deadline is not None and time.monotonic() > deadline:
            raise LimitReached("timeout", Stats())

    perimeter = size * size if sequence in PERIMETER_RULES else None
    value = count_rectangle_tilings(
        size, size, shapes(sequence, n), perimeter=perimeter, tick=heard
    )
    return value, {"states": merged}
