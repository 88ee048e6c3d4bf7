"""The count of rectangle tilings by their states (:mod:`excover.tiling.rectangles`)
against the exact cover of the same rule counted by search (another engine, no state
merged), on random boxes and rules; its symmetries against the count from the empty box;
the published terms of Shannon's sequences; its limits and errors."""

from __future__ import annotations

import os
import signal
from collections.abc import Hashable, Mapping

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import ExactCover, MemoryBoundError, UsageError
from excover.sequences.known import KNOWN
from excover.sequences.rectangles import RULES, shapes
from excover.tiling import _rectangles, count_rectangle_tilings
from excover.tiling.rectangles import _numbered, _quarter_turn_kept


def by_search(height: int, width: int, rule: Mapping[tuple[int, int], Hashable]) -> int:
    """The tilings as an exact cover counted by search: a primary item per cell, a
    secondary item per key, an option per placement."""
    keys = list(dict.fromkeys(rule.values()))
    names = {key: f"k{i}" for i, key in enumerate(keys)}
    cells = [f"{r},{c}" for r in range(height) for c in range(width)]
    problem = ExactCover(primary=cells, secondary=list(names.values()))
    for (h, w), key in rule.items():
        for top in range(height - h + 1):
            for left in range(width - w + 1):
                covered = [f"{r},{c}" for r in range(top, top + h) for c in range(left, left + w)]
                problem.add_option([*covered, names[key]])
    return problem.count(method="search")


@st.composite
def rules(draw: st.DrawFn, square: bool = False) -> tuple[int, int, dict[tuple[int, int], int]]:
    """A box of at most 5 x 6 cells and a rule: some of its rectangles, each given one of
    a few keys (so that keys are shared), or, on a square, a rule that a quarter turn
    maps onto itself (keys by unordered pair of sides, or by height x width)."""
    height = draw(st.integers(1, 5))
    width = height if square else draw(st.integers(1, 6))
    fitting = [(h, w) for h in range(1, height + 1) for w in range(1, width + 1)]
    chosen = draw(st.lists(st.sampled_from(fitting), unique=True, max_size=len(fitting)))
    if square and draw(st.booleans()):
        # a key per unordered pair of sides (a quarter turn keeps each key), or a key per
        # rectangle and another for it turned (a quarter turn exchanges them)
        pairs = sorted({(min(h, w), max(h, w)) for h, w in chosen})
        keys = {pair: draw(st.integers(0, 6)) for pair in pairs}
        oriented = draw(st.booleans())
        rule = {}
        for a, b in pairs:
            rule[(a, b)] = keys[(a, b)]
            rule[(b, a)] = keys[(a, b)] + (10 if oriented and a != b else 0)
        return height, width, rule
    return height, width, {shape: draw(st.integers(0, 8)) for shape in chosen}


def by_rows(height: int, width: int, rule: Mapping[tuple[int, int], Hashable]) -> int:
    """The count by states with every region kept row by row, as on boards larger than
    8 x 8 (the default packs a small board's region into one word)."""
    numbered = _numbered(height, width, rule)
    keys = len({key for _, _, key in numbered})
    turns = height == width and _quarter_turn_kept(numbered)
    count, _ = _rectangles.count_states(height, width, numbered, keys, True, turns, packed=False)
    return count


@settings(max_examples=examples(150), deadline=None)
@given(rules())
def test_random_rules_count_as_their_exact_cover_does(
    box: tuple[int, int, dict[tuple[int, int], int]],
) -> None:
    height, width, rule = box
    expected = by_search(height, width, rule)
    assert count_rectangle_tilings(height, width, rule) == expected
    assert count_rectangle_tilings(height, width, rule, symmetry=False) == expected
    assert by_rows(height, width, rule) == expected


@st.composite
def long_boxes(draw: st.DrawFn) -> tuple[int, int, dict[tuple[int, int], int]]:
    """A box wider than 8 cells (its states kept row by row) and a rule of its
    rectangles, keys shared."""
    height = draw(st.integers(1, 3))
    width = draw(st.integers(9, 12))
    fitting = [(h, w) for h in range(1, height + 1) for w in range(1, width + 1)]
    chosen = draw(st.lists(st.sampled_from(fitting), unique=True, max_size=len(fitting)))
    return height, width, {shape: draw(st.integers(0, 12)) for shape in chosen}


@settings(max_examples=examples(60), deadline=None)
@given(long_boxes())
def test_boxes_wider_than_a_word_count_as_their_exact_cover_does(
    box: tuple[int, int, dict[tuple[int, int], int]],
) -> None:
    height, width, rule = box
    expected = by_search(height, width, rule)
    assert count_rectangle_tilings(height, width, rule) == expected
    assert count_rectangle_tilings(width, height, {(w, h): k for (h, w), k in rule.items()}) == (
        expected
    )


@settings(max_examples=examples(100), deadline=None)
@given(rules(square=True))
def test_quarter_turns_count_what_the_empty_box_does(
    box: tuple[int, int, dict[tuple[int, int], int]],
) -> None:
    """On squares, with rules a quarter turn keeps or not: the corners' orbits under the
    group the rule allows, weighed by their sizes, and the states merged with their
    mirror images and quarter turns (keys turned), give the count from the empty box,
    and the exact cover's."""
    height, width, rule = box
    expected = by_search(height, width, rule)
    assert count_rectangle_tilings(height, width, rule) == expected
    assert count_rectangle_tilings(height, width, rule, symmetry=False) == expected
    assert by_rows(height, width, rule) == expected


@pytest.mark.parametrize("sequence", sorted(RULES))
def test_shannons_sequences_published_terms(sequence: str) -> None:
    """Every rule of the family to n = 7 (n = 6 for the two rules with squares and keys
    by height x width, whose counts grow fastest) against the OEIS; both starts agree."""
    last = 6 if sequence in ("A360256",) else 7
    for n in range(1, last + 1):
        counted = count_rectangle_tilings(n, n, shapes(sequence, n))
        assert counted == KNOWN[sequence][n - 1], (sequence, n)
    n = 5
    plain = count_rectangle_tilings(n, n, shapes(sequence, n), symmetry=False)
    assert plain == KNOWN[sequence][n - 1]
    assert by_rows(6, 6, shapes(sequence, 6)) == KNOWN[sequence][5]


def test_a_rule_whose_turn_is_not_a_rule_keeps_the_mirrors_only() -> None:
    """Upright dominoes only (no 1 x 2): a quarter turn maps the rule elsewhere, so only
    the mirrors may be used; oriented keys, which a quarter turn exchanges, may."""
    upright = {(2, 1): "tall", (1, 1): "one"}
    assert count_rectangle_tilings(2, 2, upright) == by_search(2, 2, upright)
    oriented = {(h, w): f"{h}x{w}" for h in range(1, 5) for w in range(1, 5) if h != w}
    assert count_rectangle_tilings(4, 4, oriented) == KNOWN["A360725"][3]
    shared = {(1, 2): "a", (2, 1): "b", (1, 3): "a", (3, 1): "a"}  # no key map for a turn
    assert count_rectangle_tilings(3, 3, shared) == by_search(3, 3, shared)


def test_boxes_and_rules_it_refuses() -> None:
    with pytest.raises(UsageError, match="positive integer"):
        count_rectangle_tilings(0, 3, {(1, 1): 0})
    with pytest.raises(UsageError, match="positive integer"):
        count_rectangle_tilings(True, 3, {(1, 1): 0})
    with pytest.raises(UsageError, match="at most 62 cells a side"):
        count_rectangle_tilings(1, 63, {(1, 1): 0})
    with pytest.raises(UsageError, match="240 cells"):
        count_rectangle_tilings(16, 16, {(1, 1): 0})
    with pytest.raises(UsageError, match="must map"):
        count_rectangle_tilings(2, 2, [((1, 1), 0)])  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"not \(1, 0\)"):
        count_rectangle_tilings(2, 2, {(1, 0): 0})
    with pytest.raises(UsageError, match="not hashable"):
        count_rectangle_tilings(2, 2, {(1, 1): []})  # type: ignore[dict-item]


def test_what_does_not_fit_or_is_missing() -> None:
    assert count_rectangle_tilings(3, 3, {(4, 1): 0, (1, 5): 1}) == 0  # nothing fits
    assert count_rectangle_tilings(2, 3, {(2, 3): "whole"}) == 1
    assert count_rectangle_tilings(2, 3, {}) == 0
    # each key once: the 1 x 1 square cannot tile more than one cell
    assert count_rectangle_tilings(1, 2, {(1, 1): "unit"}) == 0
    assert count_rectangle_tilings(1, 2, {(1, 1): "unit", (1, 2): "unit"}) == 1


def test_the_memory_bound_and_the_tick() -> None:
    rule = shapes("A360498", 7)
    with pytest.raises(MemoryBoundError, match="the rectangle count needs more memory"):
        count_rectangle_tilings(7, 7, rule, max_bytes=4096)
    heard: list[tuple[int, int, int]] = []
    total = count_rectangle_tilings(7, 7, rule, tick=lambda *args: heard.append(args))
    assert total == KNOWN["A360498"][6]
    assert heard and all(cells == 49 for _, cells, _ in heard)
    assert [done for done, _, _ in heard] == sorted(done for done, _, _ in heard)

    class Stop(Exception):
        """What the tick raises."""

    def stop(done: int, cells: int, states: int) -> None:
        raise Stop

    with pytest.raises(Stop):  # a tick's exception ends the count
        count_rectangle_tilings(7, 7, rule, tick=stop)


def test_the_limits_are_the_compiled_ones() -> None:
    """A state's cells and its box's sides fill at most four words; a shape that fits
    has one key at most, so the keys never outnumber the four words of a state's keys."""
    assert (_rectangles.MAX_SIDE, _rectangles.MAX_CELLS, _rectangles.MAX_KEYS) == (62, 240, 256)
    assert _rectangles.MAX_CELLS <= _rectangles.MAX_KEYS


def test_ctrl_c_stops_the_count() -> None:
    """SIGINT comes from the kernel (an interval timer), as Ctrl-C does, while the
    count of A360498(9) (seconds of CPU) runs; a count afterwards is whole."""

    def interrupt(signum: int, frame: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)

    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    previous_alarm = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(KeyboardInterrupt):
            count_rectangle_tilings(9, 9, shapes("A360498", 9))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous_int)
    assert count_rectangle_tilings(6, 6, shapes("A360498", 6)) == KNOWN["A360498"][5]
