"""Folding the frontier count's states by the problem's symmetries.

The frontier count (:mod:`excover.zdd._frontier`) scans the items in an order; each
state past layer L has every item before L covered, and the number of ways to complete
it depends only on its set C of covered items. A permutation π of the items that takes
the set of options onto itself takes every exact cover of the items outside C to one of
the items outside π(C): C and π(C) have as many completions. When π also takes the
items before L onto themselves, π(C) is again a state past L, and the count may keep
either one: at such a *fold layer*, each state sent past it is replaced by the smaller of
itself and its image, so that the two are summed as one. A board scanned row by row with
a left-right mirror folds at the start of every row, and its layers then hold about half
the states.

The image must also fit the count's window: the covered items past L all lie before the
*reach* of L (the end of the furthest option starting before L), and π must keep them
within the window's usual width from L (:func:`fold_tables`), as every state sent past
L has them. At each fold layer one symmetry acts, the one that moves the most of those
items; it acts on a window's bits byte by byte, through a table of 256 images per byte.

Where the symmetries come from: the problem's declared ones
(:meth:`~excover.problem.Problem.declare_symmetries`: a tiling's board, a BurrTools
puzzle's result shape), as item maps (:func:`item_maps`), closed into a group of at most
:data:`MOST_ELEMENTS` elements (a reflection that keeps rows together may be a product
of the generators given), and each element checked here to take the options onto the
options, as many times each (a generator that is not a symmetry is dropped, never
trusted).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple, SupportsIndex

from excover.permutations import Automorphism

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from excover.permutations import Generator
    from excover.problem import Problem

__all__ = ["MOST_ELEMENTS", "Folds", "declared_maps", "fold_tables", "group_of", "item_maps"]

#: The most elements of the group whose elements are tried as folds.
MOST_ELEMENTS = 64

#: Bytes of a window a fold's tables map, and entries per byte (as the count reads them).
TABLE_BYTES = 8
BYTE_VALUES = 256

#: An item map: entry x is the image of primary item x.
ItemMap = tuple[int, ...]


class Folds(NamedTuple):
    """What the compiled count needs to fold (:class:`excover.zdd._frontier.Counting`'s
    ``fold_of``, ``fold_tables``, ``fold_bytes``): per layer the table of its fold (-1:
    none), the tables (:data:`TABLE_BYTES` x :data:`BYTE_VALUES` words each), and the
    window's low bytes that a fold may meet."""

    fold_of: array[int]
    tables: array[int]
    n_bytes: int

    @property
    def layers(self) -> list[int]:
        """The fold layers."""
        return [layer for layer, table in enumerate(self.fold_of) if table >= 0]


def declared_maps(problem: Problem) -> list[ItemMap]:
    """The item maps of the problem's declared symmetries that are symmetries of its
    options (:func:`item_maps`), or none when it declares none."""
    declared = problem.declared_symmetries()
    if not declared:
        return []
    return item_maps(problem, declared)


def item_maps(problem: Problem, generators: Iterable[Generator]) -> list[ItemMap]:
    """Each generator (an :class:`~excover.permutations.Automorphism`, an option
    permutation, or a mapping of item names or positions) as a map of the primary items,
    kept when it takes the problem's options onto its options, as many times each (an
    option given twice must have an image given twice); the others are dropped."""
    import numpy as np

    data = problem.engine_input()
    if data.n_secondary:
        return []
    options = _Options(
        np.frombuffer(data.option_start, np.intc), np.frombuffer(data.node_item, np.intc)
    )
    identity = np.arange(data.n_primary)
    known = options.sorted_rows(identity)
    maps: list[ItemMap] = []
    for generator in generators:
        found = _as_item_map(problem, generator, options)
        if found is None or len(found) != data.n_primary:
            continue
        image = np.asarray(found, dtype=np.int64)
        if np.array_equal(image, identity):  # the identity folds nothing
            continue
        if not np.array_equal(np.sort(image), identity):
            continue
        if np.array_equal(options.sorted_rows(image), known):
            maps.append(tuple(image.tolist()))
    return maps


class _Options:
    """A problem's options as arrays: each option's items (``starts``, ``items``: its
    compressed rows) and, for each item place, the option holding it."""

    def __init__(self, starts: npt.NDArray[np.intc], items: npt.NDArray[np.intc]) -> None:
        import numpy as np

        self.starts = starts.astype(np.int64)
        self.items = items.astype(np.int64)
        self.sizes = np.diff(self.starts)
        self.owner = np.repeat(np.arange(len(self.sizes)), self.sizes)
        self.column = np.arange(len(self.items)) - self.starts[self.owner]

    @cached_property
    def plain_rows(self) -> npt.NDArray[np.int64]:
        """:meth:`rows` of the items themselves."""
        return self.rows()

    @cached_property
    def holders(self) -> npt.NDArray[np.int64]:
        """The places of the options' items, by item."""
        import numpy as np

        return np.argsort(self.items, kind="stable")

    def rows(self, image: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """Each option's items (their images under the item map ``image``), padded with
        -1 to the longest option's size."""
        import numpy as np

        widest = int(self.sizes.max(initial=0))
        rows = np.full((len(self.sizes), widest), -1, dtype=np.int64)
        rows[self.owner, self.column] = self.items if image is None else image[self.items]
        return rows

    def sorted_rows(self, image: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The options' images under the item map ``image``, each as its sorted items
        padded with -1, the rows in lexicographic order: equal for two maps exactly when
        they give the same options, as many times each."""
        import numpy as np

        rows = -np.sort(-self.rows(image), axis=1)  # the items high first, the padding last
        if rows.shape[1] == 0:
            return rows
        base = len(image) + 1
        if base ** rows.shape[1] < 2**63:  # each row as one number: one sort, not a lexsort
            keys = np.zeros(len(rows), dtype=np.int64)
            for column in rows.T:
                keys = keys * base + (column + 1)
            return np.sort(keys)
        return rows[np.lexsort(rows.T[::-1])]


def _as_item_map(problem: Problem, generator: Generator, options: _Options) -> ItemMap | None:
    """The item map of one generator, or None when it says nothing of the primary items
    that this module can read."""
    n_primary = problem.n_primary
    if isinstance(generator, Automorphism):
        return tuple(int(x) for x in generator.items[:n_primary])
    if isinstance(generator, Mapping):
        names = {name: k for k, name in enumerate(problem.items)}
        image = list(range(n_primary))
        for source, target in generator.items():
            x = names.get(source) if isinstance(source, str) else int(source)
            y = names.get(target) if isinstance(target, str) else int(target)
            if x is None or y is None or not 0 <= x < n_primary:
                return None
            image[x] = y
        return tuple(image)
    if isinstance(generator, Sequence) and len(generator) == len(options.sizes):
        return _from_option_map(generator, options, n_primary)
    return None


def _from_option_map(
    option_map: Sequence[SupportsIndex], options: _Options, n_primary: int
) -> ItemMap | None:
    """The item map an option permutation induces: item x goes to the item that the
    images of x's options all hold (the images of its first option, narrowed by those of
    the next ones while several items are left), or None when an item has no options, or
    none or several such items (the map is then not read)."""
    import numpy as np

    try:
        image_of = np.asarray(option_map, dtype=np.int64)
    except (TypeError, ValueError):  # not option numbers
        return None
    if len(image_of) and (image_of.min() < 0 or image_of.max() >= len(options.sizes)):
        return None
    holders = options.holders
    degree = np.bincount(options.items, minlength=n_primary)
    if len(degree) > n_primary or (degree == 0).any():
        return None
    first = np.cumsum(degree) - degree  # each item's first place in ``holders``
    rows = options.plain_rows
    candidates = rows[image_of[options.owner[holders[first]]]]
    for k in range(1, int(degree.max())):
        left = np.flatnonzero(((candidates >= 0).sum(axis=1) > 1) & (degree > k))
        if len(left) == 0:
            break
        others = rows[image_of[options.owner[holders[first[left] + k]]]]
        kept = (candidates[left, :, None] == others[:, None, :]).any(axis=2)
        candidates[left] = np.where(kept, candidates[left], -1)
    if ((candidates >= 0).sum(axis=1) != 1).any():
        return None
    return tuple(candidates.max(axis=1).tolist())


def group_of(maps: Sequence[ItemMap], most: int = MOST_ELEMENTS) -> list[ItemMap]:
    """The elements of the group the maps generate, the identity left out, or the first
    ``most`` found when it has more."""
    if not maps:
        return []
    identity = tuple(range(len(maps[0])))
    seen = {identity}
    frontier = [identity]
    while frontier and len(seen) < most + 1:
        following = []
        for element in frontier:
            for generator in maps:
                product = tuple(generator[x] for x in element)
                if product not in seen and len(seen) < most + 1:
                    seen.add(product)
                    following.append(product)
        frontier = following
    return [element for element in seen if element != identity]


def fold_tables(
    position: Sequence[int],
    starts: array[int],
    masks: array[int],
    elements: Sequence[ItemMap],
    keep: Iterable[int] = (),
) -> Folds | None:
    """The folds of a one-word layout (``starts``, ``masks`` as
    :func:`excover.zdd._frontier.layout` makes them, ``position[x]`` the place of item
    x) by the group ``elements`` (item maps), or None when no layer folds. Layer L folds
    by an element that takes the places before L onto themselves and each place from L to
    L's reach within L + (the widest option's span): the states past L have their covered
    items there, and so do their images.

    ``keep``: places P whose empty state (the places before P covered, none after) the
    count is asked for (``Counting``'s ``watch``). A layer L < P then folds only by an
    element that also takes the places before P onto themselves: the exact covers of
    those places from a state C and from its image are then as many, so the count of the
    empty state at P stays exact, and the empty state is no other state's image."""
    n_items = len(position)
    if n_items == 0 or not elements:
        return None
    reach = _reaches(n_items, starts, masks)
    width = max((int(mask).bit_length() for mask in masks), default=1)
    place_of = list(position)
    item_at = [0] * n_items
    for item, place in enumerate(place_of):
        item_at[place] = item
    moved_by = [[place_of[element[item_at[p]]] for p in range(n_items)] for element in elements]
    best = [(0, -1)] * n_items  # per layer: how many places its fold moves, by which element
    kept = sorted(set(keep))
    for number, moved in enumerate(moved_by):
        first_free = _first_free_layer(moved, kept)
        highest = -1
        for layer in range(1, n_items):
            highest = max(highest, moved[layer - 1])
            if highest >= layer or layer < first_free:  # some places before a kept
                continue  # one, the layer's or a later one's, are not kept together
            window = range(layer, reach[layer])
            if any(moved[p] - layer >= width - 1 for p in window):
                continue
            shifted = sum(moved[p] != p for p in window)
            if shifted > best[layer][0]:
                best[layer] = (shifted, number)
    if all(number < 0 for _, number in best):
        return None
    fold_of = array("q", [-1] * n_items)
    tables = array("Q")
    made: dict[tuple[int, ...], int] = {}  # the tables by the images of their bits
    n_bytes = 1
    for layer, (_, number) in enumerate(best):
        if number < 0:
            continue
        moved = moved_by[number]
        images = tuple(moved[p] - layer for p in range(layer, reach[layer]))
        n_bytes = max(n_bytes, (len(images) + 7) // 8)
        if images not in made:
            made[images] = len(made)
            tables.extend(_table(images))
        fold_of[layer] = made[images]
    return Folds(fold_of, tables, n_bytes)


def _first_free_layer(moved: Sequence[int], kept: Sequence[int]) -> int:
    """The first layer from which the element (``moved[p]``: the image of place p)
    keeps together the places before every kept place after the layer: the last kept
    place whose places before it it does not keep together, or 0."""
    last_open = 0
    highest = -1
    p = 0
    for place in kept:  # increasing
        while p < min(place, len(moved)):
            highest = max(highest, moved[p])
            p += 1
        if highest >= place:
            last_open = place
    return last_open


def _reaches(n_items: int, starts: array[int], masks: array[int]) -> list[int]:
    """For each layer L, one past the last place covered by an option that starts before
    L (at least L)."""
    reach = [0] * (n_items + 1)
    furthest = 0
    for layer in range(n_items + 1):
        reach[layer] = max(furthest, layer)
        if layer < n_items:
            for k in range(starts[layer], starts[layer + 1]):
                furthest = max(furthest, layer + int(masks[k]).bit_length())
    return reach


def _table(images: Sequence[int]) -> array[int]:
    """The byte tables of a fold whose window bit k goes to bit ``images[k]`` (bit k of
    the window: place L + k, for the places before L's reach: no state past L covers a
    later one): entry 256 b + v is the image of the bits of byte b set in v."""
    bits = [1 << image for image in images]
    bits += [0] * (TABLE_BYTES * 8 - len(bits))
    table = array("Q", bytes(8 * TABLE_BYTES * BYTE_VALUES))
    for b in range(TABLE_BYTES):
        for value in range(1, BYTE_VALUES):
            low = value & -value
            table[BYTE_VALUES * b + value] = (
                table[BYTE_VALUES * b + (value ^ low)] | bits[8 * b + low.bit_length() - 1]
            )
    return table
