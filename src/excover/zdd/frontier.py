"""Counting by DXZ's states, layer by layer and on several threads (see
:mod:`excover.zdd._frontier`).

This is how ``count(method="zdd")`` counts the problems it suits: only primary items, no
colors or multiplicities, and options spanning fewer than 64 items in *some* order of the
items. It walks the same states as DXZ's memo, forward, keeping only what is sent to the
layers ahead instead of the whole memo and building no ZDD, and it shares each layer
among threads: ``workers=2`` is how a domino count runs on two cores. Other problems give
None: the caller counts on the DXZ family instead.

**Wide windows.** :func:`wide_layout` lays a problem out in a window of up to
:data:`MAX_WORDS` words (options spanning up to 254 items), with the items in the order
of :func:`excover.zdd._frontier.narrow_order`, which keeps the states few rather than the
span small. Whether that count is quick cannot be told in advance (its layers may grow
to millions of states), so ``count(method="zdd")`` does not take it; the route choice
races it against the search (:mod:`excover.counting.choice`), paused between layers and
within a memory bound (:func:`start`).

**Runs.** Where no option reaches across a position of the order, every state there
has an empty window: the count before it has merged into one state, and the rest is
counted afresh from it. A layout of several words is cut there into runs
(:func:`excover.zdd._frontier.split_layout`), each counted in the window its own options
need and the counts multiplied (:class:`SplitCounting`): on the SAT 2026 graph instances, whose
parts the order of few states lays out one after another, a part of wide options set
two words for every part, and the parts of narrow options, which hold most of the
states, were counted 1.3-2 times slower in them.

**Folding by symmetry.** A problem that declares symmetries (a tiling's board) has its
states folded by them where they keep the items before a layer together
(:mod:`excover.zdd.folding`, :func:`folds_for`): a left-right symmetric board scanned row
by row folds at every row's start, and its layers hold about half the states. Only
:func:`count` folds (``fold=False``: not), in one-word windows.

**Counts of any size.** The compiled count adds counts of several 64-bit words, each
group of states in one word more than its widest input, and passes each state on as wide
as its count needs; the module docstring of :mod:`excover.zdd._frontier` proves that no
addition ever loses a carry, so the result is exact however many bits it has (a 20 x 20
board's domino tilings: 160 bits; a 5 x 1000 board of pentominoes: 2948). No bound on
the count is needed in advance, and no modular arithmetic.

**Counts of prefixes.** The state whose window is empty at the start of layer L counts
the exact covers of the items before L by the options within them. :func:`prefix_counts`
asks the compiled count for it at chosen positions of the problem's own order: on a
board of n rows read row by row, at each row's start, so that one count gives the
tilings of every height up to n for the cost of the tallest (and a count stopped by a
budget, every height it passed). :func:`excover.tiling.heights.count_heights` is that,
for rectangles.

**The item order.** The count depends on the order of the items only through its cost
(the span of the options: the state is a window of that many items). The problem's own
order is used, or the order of :mod:`excover.zdd.ordering` when that one is narrow
enough; the test of the problem's shape is compiled, and numpy (the ordering's) is
loaded only when cheap bounds leave hope of a narrow order.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, NamedTuple

from excover.errors import LimitReached, MemoryBoundError, ResourceLimitError
from excover.statistics import Stats
from excover.zdd import _frontier  # OMP_WAIT_POLICY set by the package (excover.zdd)

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable

    from excover.problem import Problem
    from excover.zdd.folding import Folds

__all__ = [
    "FrontierLayout",
    "SplitCounting",
    "count",
    "count_layout",
    "layout",
    "layout_of",
    "start",
    "suits",
]
__all__ += ["folds_for", "placed_layout", "prefix_counts", "wide_layout"]

#: The widest option span the 64-bit state window holds.
MAX_SPAN = 63
#: The most 64-bit words of a wide state window (:func:`wide_layout`).
MAX_WORDS = 4
#: The widest span a reordering of the items may have for the count to use it. The
#: reordering is for boards given along their long side (a 5 x n strip read row by row
#: spans n items, column by column 20); where even the best order found stays wide (the
#: pentomino rectangles of Knuth's files, whose twelve piece items join every option:
#: 44-64 reordered), the layers grow towards 2^span states and DXZ's memo is far faster,
#: so the problem's own order, with the :data:`MAX_SPAN` limit it always had, decides.
MAX_REORDERED_SPAN = 32

#: The span at or below which the problem's own order is kept without looking for a
#: better one: a window of 16 items holds few states whatever the order, and the look
#: (numpy's import alone) would cost more than the count saves.
NARROW_ENOUGH = 16

#: The fewest primary items for which the route choice (``count(method="auto")``) looks
#: for a better order. The look costs tens of milliseconds (numpy's import,
#: Cuthill-McKee), more than a small problem's whole count by the route choice's other
#: routes (Kirkman triple systems of 132 items, Latin squares of 90, which no order made
#: narrow); the boards it is for, strips given along their long side, have hundreds of
#: cells or more. An explicit frontier count
#: (``method="zdd"``) always looks.
REORDER_MIN_ITEMS = 256

#: Item pairs (the sum of the squares of the options' sizes) above which
#: :func:`_may_narrow` does not bound the span and the order is searched for.
PAIR_BUDGET = 20_000_000


def _may_narrow(longest: int, met: int) -> bool:
    """Whether some order of the items might span at most :data:`MAX_REORDERED_SPAN`,
    by two lower bounds on every order's span (:func:`_frontier.shape` gives
    ``longest`` and ``met``): an option of k items spans k - 1, and an item that shares
    options with d others spans at least d / 2 (at most s of them fit within s places
    on each side). Looking for a good order costs up to a second on big problems
    (Cuthill-McKee and its smoothing); these bounds cost a few milliseconds and spare
    it on problems that no order makes narrow (graph instances whose items meet
    hundreds of others, pentomino rectangles' piece items). When ``met`` was not worked
    out (-1: more than :data:`PAIR_BUDGET` item pairs) the search for an order goes
    ahead."""
    if longest - 1 > MAX_REORDERED_SPAN:
        return False
    return met < 0 or (met + 1) // 2 <= MAX_REORDERED_SPAN  # ceil(most met / 2)


def layout_of(
    n_primary: int, option_start: array[int], node_item: array[int], reorder: bool = True
) -> tuple[array[int], array[int]] | None:
    """:func:`placed_layout`'s layout alone."""
    placed = placed_layout(n_primary, option_start, node_item, reorder)
    return None if placed is None else placed[1]


def placed_layout(
    n_primary: int, option_start: array[int], node_item: array[int], reorder: bool = True
) -> tuple[array[int], tuple[array[int], array[int]]] | None:
    """Each item's place in the order of the count (``position[item]``), and each
    position's options as bit masks from the position (options grouped by their first
    position, items numbered by :func:`excover.zdd.ordering.item_order` when the
    own order spans more than :data:`NARROW_ENOUGH` and the reordered one at most
    :data:`MAX_REORDERED_SPAN`, else in their own order), for ``n_primary`` primary items
    and the options as compressed rows (``option_start``, ``node_item``: arrays of C
    ints); None when no option is left at most :data:`MAX_SPAN` - 1 wide or an option is
    empty (left to DXZ, which knows what it means). The shape test is compiled; numpy
    is loaded only when the order is searched for (never with ``reorder`` False: the
    items' own order only)."""
    starts, items = memoryview(option_start), memoryview(node_item)
    budget = PAIR_BUDGET if reorder else 0  # the pairs only bound a reordering
    own_span, shortest, longest, met = _frontier.shape(n_primary, starts, items, budget)
    if len(option_start) > 1 and shortest == 0:
        return None
    position = None
    if reorder and own_span > NARROW_ENOUGH and _may_narrow(longest, met):
        from excover.zdd import ordering

        order = ordering.order_of(n_primary, option_start, node_item)
        if order is not None:
            reordered = ordering.span_of(order, option_start, node_item)
            if reordered <= MAX_REORDERED_SPAN:
                position = array("q", bytes(8 * n_primary))
                for place, item in enumerate(order.tolist()):
                    position[item] = place
    if position is None:
        if own_span > MAX_SPAN - 1:
            return None
        position = array("q", range(n_primary))
    laid_out = _frontier.layout(n_primary, starts, items, memoryview(position))
    return None if laid_out is None else (position, laid_out)


def layout(problem: Problem, reorder: bool = True) -> tuple[array[int], array[int]] | None:
    """:func:`layout_of` for ``problem`` (``reorder`` as there), or None when the problem
    does not suit the frontier count (secondary items, colors, multiplicities, or no
    narrow order)."""
    if not _plain(problem):
        return None
    data = problem.engine_input()
    return layout_of(data.n_primary, data.option_start, data.node_item, reorder)


def _plain(problem: Problem) -> bool:
    """Whether the problem has primary items only, no colors and no multiplicities."""
    data = problem.engine_input()
    if data.n_secondary or any(data.node_color):
        return False
    return all(lo == 1 for lo in data.lo) and all(hi == 1 for hi in data.hi)


class FrontierLayout(NamedTuple):
    """A problem laid out for the compiled count: ``n_items`` primary items, states of
    ``words`` 64-bit words, each position's options (``starts``) as masks of ``words``
    words each (``masks``)."""

    n_items: int
    words: int
    starts: array[int]
    masks: array[int]


def wide_layout(problem: Problem, deadline: float | None = None) -> FrontierLayout | None:
    """The problem laid out with the items in the order of
    :func:`excover.zdd._frontier.narrow_order` (few states, whatever the span) in the
    fewest words (up to :data:`MAX_WORDS`: spans up to 254 items), or None when the
    problem does not suit the frontier count (secondary items, colors, multiplicities,
    an empty option) or the order spans more. This is the layout of the frontier count
    as a rival in the route choice's race (:mod:`excover.counting.choice`), where the
    count's cost cannot be told in advance. An option too long for the widest window
    turns the problem away before the order is looked for. LimitReached (``"timeout"``)
    once ``deadline`` (a ``time.monotonic()`` instant) passes while the order is found:
    on a problem of many items it is the longest part of the layout."""
    if not _plain(problem):
        return None
    data = problem.engine_input()
    n_items, starts, items = data.n_primary, data.option_start, data.node_item
    _, shortest, longest, _ = _frontier.shape(n_items, memoryview(starts), memoryview(items), 0)
    empty = len(starts) > 1 and shortest == 0
    if n_items == 0 or empty or longest - 1 > 64 * MAX_WORDS - 2:
        return None
    order = _frontier.narrow_order(n_items, memoryview(starts), memoryview(items), deadline)
    if order is None:
        raise LimitReached("timeout", Stats(stopped_by="timeout"))
    position = array("q", bytes(8 * n_items))
    for place, item in enumerate(order):
        position[item] = place
    span = _frontier.span_at(memoryview(starts), memoryview(items), memoryview(position))
    words = (span + 65) // 64  # the window's last bit stays clear: span <= 64 words - 2
    if words > MAX_WORDS:
        return None
    places = memoryview(position)
    laid_out = _frontier.layout(n_items, memoryview(starts), memoryview(items), places, words)
    assert laid_out is not None  # the words were chosen for the span
    return FrontierLayout(n_items, words, *laid_out)


def suits(problem: Problem) -> bool:
    """Whether :func:`count` can count ``problem``."""
    return layout(problem) is not None


def count(
    problem: Problem,
    workers: int = 1,
    tick: Callable[[int, int, int], None] | None = None,
    max_bytes: int | None = None,
    fold: bool = True,
) -> int | None:
    """The number of solutions (exact, however large) counted on ``workers`` threads, or
    None when the problem does not suit this count. ``tick`` is called after each layer
    (one per primary item) with the layers done, their number and the states of the layer
    just done (for a progress bar). ``max_bytes`` bounds the count's memory (None: the
    default bound of :mod:`excover.zdd.memory`; 0: none), past which it stops with
    MemoryBoundError. With ``fold`` (the default) the states are folded by the
    problem's declared symmetries where they allow it (:mod:`excover.zdd.folding`): the
    same count, from fewer states."""
    if not _plain(problem):
        return None
    data = problem.engine_input()
    placed = placed_layout(data.n_primary, data.option_start, data.node_item)
    if placed is None:
        return None
    position, laid_out = placed
    folds = folds_for(problem, position, laid_out) if fold else None
    return count_layout(data.n_primary, laid_out, workers, tick, max_bytes, folds)


def folds_for(
    problem: Problem,
    position: array[int],
    laid_out: tuple[array[int], array[int]],
    keep: Iterable[int] = (),
) -> Folds | None:
    """The folds of ``problem``'s one-word layout (``position`` and ``laid_out`` as
    :func:`placed_layout` gives them) by its declared symmetries, or None when it
    declares none or none of them folds a layer (:mod:`excover.zdd.folding`); ``keep``:
    the positions whose empty state's count is asked for (as there)."""
    if not problem.declared_symmetries():
        return None
    from excover.zdd import folding

    elements = folding.group_of(folding.declared_maps(problem))
    return folding.fold_tables(position, *laid_out, elements, keep)


def count_layout(
    n_items: int,
    layout: tuple[array[int], array[int]],
    workers: int = 1,
    tick: Callable[[int, int, int], None] | None = None,
    max_bytes: int | None = None,
    folds: Folds | None = None,
) -> int:
    """The count of the problem of ``n_items`` primary items laid out by
    :func:`layout_of` (``workers``, ``tick`` and ``max_bytes`` as for :func:`count`),
    its states folded by ``folds`` (:func:`excover.zdd.folding.fold_tables` of that
    layout) when given."""
    total, _ = _advanced(n_items, layout, workers, tick, max_bytes, folds)
    assert total is not None  # nothing asked it to stop
    return total


def prefix_counts(
    problem: Problem,
    cuts: Iterable[int],
    workers: int = 1,
    tick: Callable[[int, int, int], None] | None = None,
    max_bytes: int | None = None,
    fold: bool = True,
    stop: Callable[[], bool] | None = None,
) -> dict[int, int] | None:
    """For each cut c of ``cuts`` (0 to the number of primary items), the number of
    exact covers of the first c primary items (in the problem's order) by the options
    that lie within them, all from one frontier count in the problem's own order; None
    when the problem does not suit it (:func:`count`'s conditions, with the options
    spanning fewer than :data:`MAX_SPAN` items in that order). On a board read row by
    row, the cuts at the rows' ends give the tilings of every shorter board. ``stop``
    (asked between groups of states, as :meth:`excover.zdd._frontier.Counting.advance`
    does) ends the count early: the cuts it passed are then those returned, each exact.
    ``workers``, ``tick``, ``max_bytes`` and ``fold`` as for :func:`count`; a fold keeps
    the cuts' counts exact (:func:`excover.zdd.folding.fold_tables`' ``keep``)."""
    if not _plain(problem):
        return None
    data = problem.engine_input()
    wanted = sorted(set(cuts))
    if any(not 0 <= cut <= data.n_primary for cut in wanted):
        raise ValueError(f"the cuts lie from 0 to the {data.n_primary} primary items")
    placed = placed_layout(data.n_primary, data.option_start, data.node_item, reorder=False)
    if placed is None:
        return None
    position, laid_out = placed
    folds = folds_for(problem, position, laid_out, wanted) if fold else None
    _, counting = _advanced(data.n_primary, laid_out, workers, tick, max_bytes, folds, wanted, stop)
    return dict(sorted(counting.empties.items()))


def _advanced(
    n_items: int,
    layout: tuple[array[int], array[int]],
    workers: int,
    tick: Callable[[int, int, int], None] | None,
    max_bytes: int | None,
    folds: Folds | None,
    watch: Collection[int] = (),
    stop: Callable[[], bool] | None = None,
) -> tuple[int | None, _frontier.Counting | SplitCounting]:
    """The count of a one-word layout (the arguments as for :func:`count_layout`,
    ``watch`` as for :func:`start`) advanced until done or ``stop()``: the count (None
    when stopped) and the compiled count, whose ``empties`` hold the watched positions
    passed. Memory errors become excover's."""
    from excover.zdd import memory

    bound = memory.default_bound() if max_bytes is None else memory.checked(max_bytes)
    starts, masks = layout
    layer = None if tick is None else (lambda done, states: tick(done, n_items, states))
    try:
        counting = start(FrontierLayout(n_items, 1, starts, masks), workers, bound, folds, watch)
        total = counting.advance(layer, stop)
    except MemoryError as error:  # past the bound, or the tables could not grow
        if bound and "memory limit" in str(error):  # the compiled count's words for its bound
            raise MemoryBoundError(bound, "the frontier count") from None
        raise ResourceLimitError(f"out of memory: {error}") from None
    return (None if total is None else int(total)), counting


def start(
    laid_out: FrontierLayout,
    workers: int = 1,
    max_bytes: int = 0,
    folds: Folds | None = None,
    watch: Collection[int] = (),
) -> _frontier.Counting | SplitCounting:
    """The compiled count of a laid-out problem, on ``workers`` threads, ready to
    :meth:`~excover.zdd._frontier.Counting.advance` (layer by layer, stopping between
    two layers when asked, and going on later); ``max_bytes`` (0: none) bounds its
    memory (MemoryError past it). A layout in more than one word that falls into runs
    of positions needing fewer (:func:`excover.zdd._frontier.split_layout`) is counted
    run by run (:class:`SplitCounting`), each in its own window. ``folds`` (one-word layouts
    only: :func:`excover.zdd.folding.fold_tables`, made with ``keep`` the watched
    positions) folds its states by symmetries. ``watch``: the positions (0 to
    ``n_items``) whose empty state's count the count keeps in its ``empties``."""
    n_items, words, starts, masks = laid_out
    if words > 1:
        if folds is not None:
            raise ValueError("only one-word layouts fold")
        runs = _frontier.split_layout(n_items, memoryview(starts), memoryview(masks), words)
        if runs is not None:
            return SplitCounting(runs, workers, max_bytes, watch)
    folding: dict[str, Any] = {}
    if folds is not None:
        folding = {
            "fold_of": memoryview(folds.fold_of),
            "fold_tables": memoryview(folds.tables),
            "fold_bytes": folds.n_bytes,
        }
    return _frontier.Counting(
        n_items,
        memoryview(starts),
        memoryview(masks),
        workers,
        words,
        max_bytes=max_bytes,
        watch=watch,
        **folding,
    )


class SplitCounting:
    """The frontier count of a layout cut into runs of positions that no option reaches
    across (:func:`excover.zdd._frontier.split_layout`): each run is counted by its own
    compiled count in the window its options need, one run after the other, and the
    counts are multiplied (every state at a cut has an empty window: the count goes on
    from a single state). It advances, pauses and reports as a compiled
    :class:`~excover.zdd._frontier.Counting` does; a run whose count is 0 ends it.
    ``watch`` and :attr:`empties` as for the compiled count: a position's empty state
    counts the product of the runs before its own times its own run's empty state."""

    def __init__(
        self,
        runs: list[tuple[int, int, int, array[int], array[int]]],
        workers: int = 1,
        max_bytes: int = 0,
        watch: Collection[int] = (),
    ) -> None:
        self.runs = runs
        self.workers = workers
        self.max_bytes = max_bytes
        self.n_items = sum(positions for _, positions, _, _, _ in runs)
        self.watch = frozenset(watch)
        if any(not 0 <= position <= self.n_items for position in self.watch):
            raise ValueError(f"watched positions lie from 0 to {self.n_items}")
        self.product = 1
        self.next = 0  # the run under way or next
        self.counting: _frontier.Counting | None = None
        self.result: int | None = None
        self.found: dict[int, int] = {}  # the watched positions of the runs done

    @property
    def empties(self) -> dict[int, int]:
        """The counts of the empty states of the watched positions passed."""
        found = dict(self.found)
        if self.counting is not None:
            first = self.runs[self.next][0]
            for place, value in self.counting.empties.items():
                found[first + place] = self.product * value
        return found

    @property
    def done(self) -> int:
        """The layers counted so far."""
        if self.result is not None:
            return self.n_items
        if self.next >= len(self.runs):
            return self.n_items
        first = self.runs[self.next][0]
        return first + (0 if self.counting is None else self.counting.done)

    @property
    def bytes(self) -> int:
        """The memory the run under way holds now (a finished run's is freed)."""
        return 0 if self.counting is None else self.counting.bytes

    def advance(
        self,
        tick: Callable[[int, int], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> int | None:
        """Count the runs still to do, as :meth:`excover.zdd._frontier.Counting.advance`
        counts its layers: the count once every run is done, None when ``stop()`` says
        to stop (a later call goes on from there); ``tick`` gets the layers done in all."""
        while self.result is None:
            if self.next == len(self.runs) or self.product == 0:
                self.result = self.product
                for place in self.watch - self.found.keys():  # the end, or past a run of 0
                    self.found[place] = self.product
                break
            first, positions, words, starts, masks = self.runs[self.next]
            if self.counting is None:
                ends = first + positions
                local = [place - first for place in self.watch if first <= place < ends]
                self.counting = _frontier.Counting(
                    positions,
                    memoryview(starts),
                    memoryview(masks),
                    self.workers,
                    words,
                    max_bytes=self.max_bytes,
                    watch=local,
                )
            layer = None if tick is None else _shifted(tick, first)
            found = self.counting.advance(layer, stop)
            if found is None:
                return None
            self.found = self.empties
            self.product *= int(found)
            self.counting = None
            self.next += 1
        return self.result


def _shifted(tick: Callable[[int, int], None], first: int) -> Callable[[int, int], None]:
    """``tick`` for a run that starts at position ``first``: its layers counted from the
    problem's first."""
    return lambda done, states: tick(first + done, states)
