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
(:meth:`~excover.problem.Problem.declare_symmetries`: a tiling's board, the queens'
square), as item maps (:func:`item_maps`), closed into a group of at most
:data:`MOST_ELEMENTS` elements (a reflection that keeps rows together may be a product
of the generators given), and each element checked here to take the options onto the
options (a generator that is not a symmetry is dropped, never trusted).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from excover.permutations import Automorphism

if TYPE_CHECKING:
    from excover.permutations import Generator
    from excover.problem import Problem

__all__ = ["Folds", "MOST_ELEMENTS", "declared_maps", "fold_tables", "group_of", "item_maps"]

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
    kept when it takes the problem's options onto its options; the others are dropped."""
    data = problem.engine_input()
    n_primary = data.n_primary
    if data.n_secondary:
        return []
    options = _option_sets(data.option_start, data.node_item)
    known = set(options)
    maps: list[ItemMap] = []
    for generator in generators:
        found = _as_item_map(problem, generator, options)
        if found is None or len(found) != n_primary:
            continue
        if sorted(found) != list(range(n_primary)):
            continue
        if all(frozenset(found[x] for x in option) in known for option in options):
            maps.append(found)
    return maps


def _option_sets(option_start: array[int], node_item: array[int]) -> list[frozenset[int]]:
    """Each option's items."""
    return [
        frozenset(node_item[option_start[k] : option_start[k + 1]])
        for k in range(len(option_start) - 1)
    ]


def _as_item_map(
    problem: Problem, generator: Generator, options: list[frozenset[int]]
) -> ItemMap | None:
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
    if isinstance(generator, Sequence) and len(generator) == len(options):
        return _from_option_map([int(k) for k in generator], options, n_primary)
    return None


def _from_option_map(
    option_map: list[int], options: list[frozenset[int]], n_primary: int
) -> ItemMap | None:
    """The item map an option permutation induces: item x goes to the item common to
    the images of all of x's options (the first one not yet taken when several are:
    items with the same options are interchangeable), or None when there is none."""
    holding: list[list[int]] = [[] for _ in range(n_primary)]
    for k, option in enumerate(options):
        for x in option:
            if x < n_primary:
                holding[x].append(k)
    image: list[int] = []
    taken: set[int] = set()
    for x in range(n_primary):
        if not holding[x]:
            return None
        common = set(options[option_map[holding[x][0]]])
        for k in holding[x][1:]:
            common &= options[option_map[k]]
        free = sorted(y for y in common if y < n_primary and y not in taken)
        if not free:
            return None
        image.append(free[0])
        taken.add(free[0])
    return tuple(image)


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
    position: Sequence[int], starts: array[int], masks: array[int], elements: Sequence[ItemMap]
) -> Folds | None:
    """The folds of a one-word layout (``starts``, ``masks`` as
    :func:`excover.zdd._frontier.layout` makes them, ``position[x]`` the place of item
    x) by the group ``elements`` (item maps), or None when no layer folds. Layer L folds
    by an element that takes the places before L onto themselves and each place from L to
    L's reach within L + (the widest option's span): the states past L have their covered
    items there, and so do their images."""
    n_items = len(position)
    if n_items == 0 or not elements:
        return None
    reach = _reaches(n_items, starts, masks)
    width = max((int(mask).bit_length() for mask in masks), default=1)
    place_of = list(position)
    item_at = [0] * n_items
    for item, place in enumerate(place_of):
        item_at[place] = item
    best: list[tuple[int, ItemMap | None]] = [(0, None)] * n_items
    for element in elements:
        moved = [place_of[element[item_at[p]]] for p in range(n_items)]  # by place
        highest = -1
        for layer in range(1, n_items):
            highest = max(highest, moved[layer - 1])
            if highest >= layer:  # the places before the layer are not kept together
                continue
            window = range(layer, reach[layer])
            if any(moved[p] - layer >= width - 1 for p in window):
                continue
            shifted = sum(moved[p] != p for p in window)
            if shifted > best[layer][0]:
                best[layer] = (shifted, tuple(moved))
    if all(element is None for _, element in best):
        return None
    fold_of = array("q", [-1] * n_items)
    tables = array("Q")
    made: dict[bytes, int] = {}
    n_bytes = 1
    for layer, (_, moved_at) in enumerate(best):
        if moved_at is None:
            continue
        table = _table(moved_at, layer, reach[layer])
        n_bytes = max(n_bytes, (reach[layer] - layer + 7) // 8)
        key = table.tobytes()
        if key not in made:
            made[key] = len(made)
            tables.extend(table)
        fold_of[layer] = made[key]
    return Folds(fold_of, tables, n_bytes)


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


def _table(moved: Sequence[int], layer: int, reach: int) -> array[int]:
    """The byte tables of the fold at ``layer``: entry 256 b + v is the image of the
    window bits of byte b set in v (bit k of the window: place ``layer`` + k), for the
    places before ``reach`` (no state past the layer covers a later one)."""
    image = [0] * (TABLE_BYTES * 8)
    for bit in range(min(reach - layer, TABLE_BYTES * 8)):
        image[bit] = 1 << (moved[layer + bit] - layer)
    table = array("Q", bytes(8 * TABLE_BYTES * BYTE_VALUES))
    for b in range(TABLE_BYTES):
        for value in range(1, BYTE_VALUES):
            low = value & -value
            table[BYTE_VALUES * b + value] = (
                table[BYTE_VALUES * b + (value ^ low)] | image[8 * b + low.bit_length() - 1]
            )
    return table
