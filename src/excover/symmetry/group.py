"""Symmetries of an exact cover problem and the groups they generate.

An *automorphism* of a problem is a pair of permutations, one of its options and one of
its items, that maps the problem onto itself: option ``o`` goes to an option whose items
are the images of ``o``'s items, primary items go to primary items with the same
multiplicity and secondary items to secondary items, and the colors on each secondary
item are renamed consistently (one color of ``x`` always becomes the same color of the
image of ``x``, and an item without color stays without). Such a pair maps solutions to
solutions, so a group of them acts on the solutions, and "how many essentially different
solutions" is the number of orbits.

:class:`Group` holds such a group by its generators, checks each one (a permutation that
is not an automorphism is a :class:`~excover.SymmetryError` naming the option or item at
fault), and knows its exact order, read off its structure first
(:mod:`excover.symmetry.factors`: products of small groups, symmetric groups on blocks of
identical options or of copies), and its elements through a stabilizer chain
(:mod:`excover.symmetry.chain`). A generator may be given by its action on the options
alone (the items follow) or on the items alone (the options follow), whichever is easier
to write.

A group's work (its orders, chains and orbits) stops at its ``deadline`` with
:class:`~excover.LimitReached` and past the memory bound of its chains with
:class:`~excover.errors.GroupMemoryError`; :meth:`Group.bounded` gives the same group
with a deadline, sharing what either computes.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from excover.deadlines import check_deadline
from excover.entries import distinct
from excover.errors import SymmetryError
from excover.numbers import to_decimal
from excover.permutations import Automorphism, Generator
from excover.symmetry.chain import Perm, StabilizerChain, Watch, is_identity
from excover.symmetry.factors import order_of, transposition_blocks

if TYPE_CHECKING:
    from excover.problem import Problem

__all__ = ["Automorphism", "Generator", "Group", "orbit_labels"]


class _Structure:
    """A problem's incidence structure as flat arrays, for checking automorphisms."""

    def __init__(self, problem: Problem) -> None:
        data = problem.engine_input()
        self.problem = problem
        self.n_options = len(data.option_start) - 1
        self.n_items = data.n_primary + data.n_secondary
        self.starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
        self.lengths = np.diff(self.starts)
        self.owner = np.repeat(np.arange(self.n_options, dtype=np.int64), self.lengths)
        items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
        colors = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
        # Each option's nodes sorted by item, so that two options compare node by node.
        order = np.argsort(self.owner * max(self.n_items, 1) + items, kind="stable")
        self.items = items[order]
        self.colors = colors[order]
        kinds = [("primary", lo, hi) for lo, hi in zip(data.lo, data.hi, strict=True)]
        kinds += [("secondary", 0, 1)] * data.n_secondary
        names = {kind: number for number, kind in enumerate(dict.fromkeys(kinds))}
        #: A number per item for its kind and multiplicity, which automorphisms keep.
        self.kind = np.array([names[kind] for kind in kinds], dtype=np.int64)

    def nodes_of(self, options: Perm) -> Perm:
        """The positions (in the sorted node arrays) of the nodes of ``options``, option
        after option."""
        lengths = self.lengths[options]
        firsts = np.repeat(self.starts[options] - np.cumsum(lengths) + lengths, lengths)
        return firsts + np.arange(int(lengths.sum()), dtype=np.int64)

    def option_keys(self, codes: Perm) -> list[bytes]:
        """One key per option: the bytes of ``codes`` (one number per node, in the
        order of the sorted node arrays) over its nodes."""
        data = codes.astype("<i8").tobytes()
        bounds = (self.starts * 8).tolist()
        return [data[a:b] for a, b in pairwise(bounds)]

    def item_twins(self) -> Perm:
        """A class number per item, in order of first item: the items of one kind in the
        same options, their colored options grouped alike by color (colors renamed in
        the order they first show), which an automorphism fixing every option may
        exchange, and no other."""
        by_item = np.lexsort((self.owner, self.items))
        items, options, colors = self.items[by_item], self.owner[by_item], self.colors[by_item]
        bounds = np.searchsorted(items, np.arange(self.n_items + 1)).tolist()
        option_bytes = options.astype("<i8").tobytes()
        colored = colors.tolist() if colors.any() else None
        classes: dict[tuple[Any, ...], int] = {}
        label = np.empty(self.n_items, dtype=np.int64)
        kinds = self.kind.tolist()
        for item in range(self.n_items):
            a, b = bounds[item], bounds[item + 1]
            key: tuple[Any, ...] = (kinds[item], option_bytes[8 * a : 8 * b])
            if colored is not None:
                renamed: dict[int, int] = {}
                key += (
                    tuple(renamed.setdefault(c, len(renamed)) if c else -1 for c in colored[a:b]),
                )
            label[item] = classes.setdefault(key, len(classes))
        return label

    def fault(self, g: Automorphism) -> str | None:
        """Why ``g`` is not an automorphism, or None when it is one."""
        problem = self.problem
        for what, perm, size in (
            ("option", g.options, self.n_options),
            ("item", g.items, self.n_items),
        ):
            if perm.shape != (size,):
                return f"it has {len(perm)} {what} images for {size} {what}s"
            if size and (perm.min() < 0 or perm.max() >= size):
                bad = int(np.flatnonzero((perm < 0) | (perm >= size))[0])
                return f"{what} {bad} has no {what} {int(perm[bad])} to go to"
            if len(distinct(perm)) != size:
                values, counts = np.unique(perm, return_counts=True)
                twice = int(values[counts > 1][0])
                return f"two {what}s go to {what} {twice}"
        moved_kind = np.flatnonzero(self.kind[g.items] != self.kind)
        if len(moved_kind):
            item = int(moved_kind[0])
            return (
                f"item {problem.items[item]!r} goes to {problem.items[int(g.items[item])]!r}, "
                "which is of another kind or multiplicity"
            )
        lengths_moved = np.flatnonzero(self.lengths[g.options] != self.lengths)
        if len(lengths_moved):
            return self._option_fault(g, int(lengths_moved[0]))
        # Each option's nodes in the order of their images' items, beside the nodes of the
        # option it goes to: the items must match node by node.
        # One integer key per node (a stable sort of nearly sorted keys: fast).
        order = np.argsort(self.owner * max(self.n_items, 1) + g.items[self.items], kind="stable")
        sources = self.items[order]
        target = self.nodes_of(g.options)
        wrong = np.flatnonzero(g.items[sources] != self.items[target])
        if len(wrong):
            return self._option_fault(g, int(self.owner[wrong[0]]))
        return self._color_fault(sources, self.colors[order], self.colors[target], g)

    def _option_fault(self, g: Automorphism, option: int) -> str:
        problem = self.problem
        image = int(g.options[option])
        mapped = sorted(problem.items[int(g.items[i])] for i in self._items_of(option))
        return (
            f"option {option} ({' '.join(problem.option_items(option))}) goes to option "
            f"{image} ({' '.join(problem.option_items(image))}), not to the items "
            f"{' '.join(mapped)}"
        )

    def _items_of(self, option: int) -> list[int]:
        return [int(i) for i in self.items[self.starts[option] : self.starts[option + 1]]]

    def _color_fault(
        self, items: Perm, colors: Perm, image_colors: Perm, g: Automorphism
    ) -> str | None:
        """Why colors are not renamed consistently item by item, or None: node ``k`` has
        item ``items[k]`` and color ``colors[k]``, and its image has ``image_colors[k]``."""
        if not colors.any() and not image_colors.any():
            return None
        pairs: dict[tuple[int, int], int] = {}
        backwards: dict[tuple[int, int], tuple[int, int]] = {}
        for source_item, color, image_color in zip(
            items.tolist(), colors.tolist(), image_colors.tolist(), strict=True
        ):
            target = (int(g.items[source_item]), image_color)
            if (color == 0) != (image_color == 0):
                return f"a color of item {self.problem.items[source_item]!r} is not kept"
            if color == 0:
                continue
            known = pairs.setdefault((source_item, color), image_color)
            back = backwards.setdefault(target, (source_item, color))
            if known != image_color or back != (source_item, color):
                return (
                    f"the colors of item {self.problem.items[source_item]!r} are not renamed "
                    "consistently"
                )
        return None


#: What tells an item apart: its kind, its uncolored options, its options by color.
_ItemKey = tuple[int, frozenset[int], frozenset[frozenset[int]]]


class Group:
    """A group of automorphisms of ``problem`` given by ``generators`` (see
    :data:`Generator` for the ways to write one; each is checked).

    ``order`` is its number of elements (an exact int), :meth:`elements` lists them,
    :meth:`item_orbits` and :meth:`option_orbits` give the orbits, and the group acts on
    solutions through :meth:`Automorphism.apply`. ``ExactCover.symmetries()`` gives the
    whole automorphism group of a problem. ``deadline`` (a ``time.monotonic()``
    instant; None: none) stops the group's work past it, the checks of the generators
    included, with :class:`~excover.LimitReached`.
    """

    def __init__(
        self,
        problem: Problem,
        generators: Iterable[Generator] = (),
        *,
        deadline: float | None = None,
        _checked: bool = True,
    ) -> None:
        self.problem = problem
        #: The ``time.monotonic()`` instant past which the group's work stops (None: never).
        self.deadline = check_deadline(deadline)
        #: What the group has computed (orders, chains, blocks), shared by its
        #: :meth:`bounded` copies.
        self._known: dict[str, Any] = {}
        structure = _Structure(problem)
        self._structure = structure
        self.generators: tuple[Automorphism, ...] = ()
        kept: list[Automorphism] = []
        watch = Watch(0, self.deadline, "")
        for number, generator in enumerate(generators):
            watch.tick(len(structure.items) + structure.n_items)
            g = self._as_automorphism(generator, number)
            why = structure.fault(g) if _checked else None
            if why is not None:
                raise SymmetryError(f"generator {number} is not a symmetry of the problem: {why}")
            if not (is_identity(g.options) and is_identity(g.items)):
                kept.append(g)
        #: The generators, identities left out.
        self.generators = tuple(kept)

    @classmethod
    def of_automorphisms(
        cls,
        problem: Problem,
        generators: Iterable[Automorphism],
        deadline: float | None = None,
    ) -> Group:
        """The group generated by ``generators`` that are automorphisms of ``problem`` by
        construction, not checked again: those BLISS finds, automorphisms of the
        incidence graph, which are the problem's (:mod:`excover.symmetry.automorphisms`;
        the tests check them), and their images on a problem made from it. Checking
        costs about as much as BLISS on small problems, where a count up to symmetry
        takes milliseconds. ``deadline`` as for the class."""
        return cls(problem, generators, deadline=deadline, _checked=False)

    def bounded(self, deadline: float | None) -> Group:
        """This group, its work stopping at the earlier of its own deadline and
        ``deadline`` (a ``time.monotonic()`` instant; None: its own): a copy that shares
        the generators and everything either computes (an order found within a deadline
        is known to the group without one)."""
        deadline = check_deadline(deadline)
        if deadline is None or (self.deadline is not None and self.deadline <= deadline):
            return self
        view = copy.copy(self)
        view.deadline = deadline
        return view

    # ----- reading generators -----

    def _as_automorphism(self, generator: Generator, number: int) -> Automorphism:
        structure = self._structure
        if isinstance(generator, Automorphism):
            return Automorphism(
                np.asarray(generator.options, dtype=np.int64),
                np.asarray(generator.items, dtype=np.int64),
            )
        if isinstance(generator, Mapping):
            items = self._item_mapping(generator, number)
            return Automorphism(self._options_following(items, number), items)
        if isinstance(generator, str | bytes) or not isinstance(generator, Sequence):
            raise SymmetryError(
                f"generator {number} must be a sequence of option indices, a mapping of "
                f"items or an Automorphism, not {type(generator).__name__}"
            )
        try:
            options = np.array([int(k) for k in generator], dtype=np.int64)
        except TypeError:
            raise SymmetryError(
                f"generator {number} holds something that is not an option index"
            ) from None
        if len(options) != structure.n_options:
            raise SymmetryError(
                f"generator {number} has {len(options)} option images for "
                f"{structure.n_options} options"
            )
        return Automorphism(options, self._items_following(options, number))

    def _item_mapping(self, mapping: Mapping[Any, Any], number: int) -> Perm:
        items = np.arange(self._structure.n_items, dtype=np.int64)
        for source, target in mapping.items():
            items[self._item(source, number)] = self._item(target, number)
        values, counts = np.unique(items, return_counts=True)
        if (counts > 1).any():
            twice = int(values[counts > 1][0])
            sources = [self.problem.items[i] for i in np.flatnonzero(items == twice)]
            raise SymmetryError(
                f"generator {number} sends both {sources[0]!r} and {sources[1]!r} to "
                f"{self.problem.items[twice]!r}"
            )
        return items

    @cached_property
    def _item_positions(self) -> dict[str, int]:
        """The position of each item, by name."""
        return {name: k for k, name in enumerate(self.problem.items)}

    def _item(self, ref: object, number: int) -> int:
        problem = self.problem
        if isinstance(ref, str):
            try:
                return self._item_positions[ref]
            except KeyError:
                raise SymmetryError(f"generator {number} names an unknown item {ref!r}") from None
        if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < problem.n_items:
            return ref
        raise SymmetryError(f"generator {number}: {ref!r} is not an item of the problem")

    def _options_following(self, items: Perm, number: int) -> Perm:
        """The option permutation induced by an item permutation (colors kept)."""
        structure = self._structure
        base = int(structure.colors.max(initial=0)) + 1
        # Each option is known by its nodes as numbers item * base + color, in increasing
        # order (the structure's nodes are sorted by item within each option).
        keys = structure.option_keys(structure.items * base + structure.colors)
        image_codes = items[structure.items] * base + structure.colors
        images = structure.option_keys(image_codes[np.lexsort((image_codes, structure.owner))])
        by_key: dict[bytes, list[int]] = {}
        for option, key in enumerate(keys):
            by_key.setdefault(key, []).append(option)
        used: dict[bytes, int] = {}
        options = np.empty(structure.n_options, dtype=np.int64)
        for option, image in enumerate(images):
            targets = by_key.get(image, [])
            rank = used.get(image, 0)
            if rank >= len(targets):
                names = " ".join(self.problem.option_items(option))
                raise SymmetryError(
                    f"generator {number} is not a symmetry of the problem: option {option} "
                    f"({names}) has no option to go to"
                )
            options[option] = targets[rank]
            used[image] = rank + 1
        return options

    def _items_following(self, options: Perm, number: int) -> Perm:
        """The item permutation induced by an option permutation: each item goes to the
        item whose options are the images of its own (twins matched in order)."""
        structure = self._structure
        if len(options) and (options.min() < 0 or options.max() >= structure.n_options):
            bad = int(np.flatnonzero((options < 0) | (options >= structure.n_options))[0])
            raise SymmetryError(
                f"generator {number}: option {bad} goes to {int(options[bad])}, which is "
                "not an option"
            )
        items = np.arange(structure.n_items, dtype=np.int64)
        moved = np.flatnonzero(options != np.arange(len(options)))
        # Only the items of moved options can move (twins share their options, so a
        # class of twins moves whole); the others stay.
        touched = np.unique(structure.items[structure.nodes_of(moved)]).tolist()
        by_key = self._item_profiles[2]
        used: dict[_ItemKey, int] = {}
        for item in touched:
            image = self._item_key(item, options)
            targets = by_key.get(image, [])
            rank = used.get(image, 0)
            if rank >= len(targets):
                raise SymmetryError(
                    f"generator {number} is not a symmetry of the problem: the options of item "
                    f"{self.problem.items[item]!r} go to options that no one item of the same "
                    "kind holds"
                )
            items[item] = targets[rank]
            used[image] = rank + 1
        return items

    @cached_property
    def _item_profiles(
        self,
    ) -> tuple[list[list[int]], list[dict[int, list[int]]], dict[_ItemKey, list[int]]]:
        """What tells the items apart, once for all generators: each item's options
        without color, its options grouped by color (colors may be renamed, so the groups
        carry no names), and the items by their key (:meth:`_item_key`)."""
        structure = self._structure
        plain: list[list[int]] = [[] for _ in range(structure.n_items)]
        shades: list[dict[int, list[int]]] = [{} for _ in range(structure.n_items)]
        for option, item, color in zip(
            structure.owner.tolist(),
            structure.items.tolist(),
            structure.colors.tolist(),
            strict=True,
        ):
            if color:
                shades[item].setdefault(color, []).append(option)
            else:
                plain[item].append(option)
        kinds = structure.kind.tolist()
        by_key: dict[_ItemKey, list[int]] = {}
        for item in range(structure.n_items):
            key = _item_key(kinds[item], plain[item], shades[item], None)
            by_key.setdefault(key, []).append(item)
        return plain, shades, by_key

    def _item_key(self, item: int, image: Perm) -> _ItemKey:
        """The key of ``item`` (:func:`_item_key`) with its options sent through ``image``."""
        plain, shades, _ = self._item_profiles
        return _item_key(int(self._structure.kind[item]), plain[item], shades[item], image)

    # ----- the group -----

    def _computed(self, name: str, make: Callable[[], Any]) -> Any:
        """What ``make`` computes, once for the group and its :meth:`bounded` copies."""
        if name not in self._known:
            self._known[name] = make()
        return self._known[name]

    @property
    def chain(self) -> StabilizerChain:
        """The stabilizer chain of the group over options and items together (options
        ``0..n_options-1``, then items)."""
        n = self._structure.n_options

        def make() -> StabilizerChain:
            combined = [np.concatenate([g.options, g.items + n]) for g in self.generators]
            points = n + self._structure.n_items
            return StabilizerChain(points, combined, order=self.order, deadline=self.deadline)

        chain: StabilizerChain = self._computed("chain", make)
        return chain

    @property
    def order(self) -> int:
        """The number of automorphisms in the group (an exact int): its order on the
        options times the order of the elements that fix every option (which exchange
        items no option tells apart), read off the structure
        (:mod:`excover.symmetry.factors`)."""
        order: int = self._computed("order", self._order)
        return order

    def _order(self) -> int:
        """:attr:`order`, worked out: the elements that fix every option exchange twin
        items (of one kind, in the same options, their colored options grouped alike),
        and when the generators' exchanges of two twins that fix every option (closed
        under conjugation) join every class of twins, they are the product of the
        classes' symmetric groups; otherwise the order of the action on options and
        items together."""
        twins = self._structure.item_twins()
        sizes = np.bincount(twins)
        if (sizes == 1).all():
            return self.option_order
        n = self._structure.n_options
        seeds = []
        for g in self.generators:
            moved = np.flatnonzero(g.items != np.arange(len(g.items)))
            if len(moved) == 2 and is_identity(g.options):
                seeds.append((int(moved[0]), int(moved[1])))
        item_maps = [g.items for g in self.generators]
        watch = Watch(self._structure.n_items, self.deadline, "the order of a symmetry group")
        blocks = transposition_blocks(self._structure.n_items, item_maps, seeds, watch)
        if blocks is not None and np.array_equal(blocks, twins):
            return self.option_order * math.prod(math.factorial(k) for k in sizes.tolist())
        combined = [np.concatenate([g.options, g.items + n]) for g in self.generators]
        return order_of(n + self._structure.n_items, combined, self.deadline)

    @property
    def option_chain(self) -> StabilizerChain:
        """The stabilizer chain of the group's action on the options alone: the group
        that acts on solutions (automorphisms that only swap items with the same options
        act there as the identity)."""

        def make() -> StabilizerChain:
            options = [g.options for g in self.generators]
            n = self._structure.n_options
            return StabilizerChain(n, options, order=self.option_order, deadline=self.deadline)

        chain: StabilizerChain = self._computed("option_chain", make)
        return chain

    @property
    def option_order(self) -> int:
        """The number of distinct permutations of the options in the group, read off its
        structure (:mod:`excover.symmetry.factors`)."""

        def make() -> int:
            options = [g.options for g in self.generators]
            return order_of(self._structure.n_options, options, self.deadline)

        order: int = self._computed("option_order", make)
        return order

    def option_blocks(self) -> Perm | None:
        """The blocks of options whose every permutation lies in the group (a block
        number per option: :func:`~excover.symmetry.factors.transposition_blocks` of its
        action on the options), or None when no generator exchanges two options alone."""

        def make() -> Perm | None:
            options = [g.options for g in self.generators]
            n = self._structure.n_options
            watch = Watch(n, self.deadline, "the blocks of a symmetry group")
            return transposition_blocks(n, options, watch=watch)

        blocks: Perm | None = self._computed("option_blocks", make)
        return blocks

    def option_elements(self) -> Iterator[Perm]:
        """Every distinct permutation of the options in the group, the identity first."""
        return self.option_chain.elements(self.deadline)

    def __len__(self) -> int:
        return self.order

    @property
    def is_trivial(self) -> bool:
        """Whether the group holds the identity alone."""
        return not self.generators

    def moves_options(self) -> bool:
        """Whether some element moves some option (else the group fixes every solution)."""
        return any(not is_identity(g.options) for g in self.generators)

    def elements(self) -> Iterator[Automorphism]:
        """Every element of the group, each once, the identity first."""
        n = self._structure.n_options
        for g in self.chain.elements(self.deadline):
            yield Automorphism(g[:n], g[n:] - n)

    def item_orbits(self) -> list[list[str]]:
        """The orbits of the items (names), each in input order, ordered by first item."""
        return [[self.problem.items[i] for i in orbit] for orbit in self.item_orbit_numbers()]

    def item_orbit_numbers(self) -> list[list[int]]:
        """The orbits of the items as item positions."""
        items = [g.items for g in self.generators]
        return _orbits(self._structure.n_items, items, self.deadline)

    def option_orbits(self) -> list[list[int]]:
        """The orbits of the options, each in input order, ordered by first option."""
        options = [g.options for g in self.generators]
        return _orbits(self._structure.n_options, options, self.deadline)

    def __repr__(self) -> str:
        order = to_decimal(self.order)
        return f"<Group of order {order} with {len(self.generators)} generators>"


def _item_key(
    kind: int, plain: list[int], shades: dict[int, list[int]], image: Perm | None
) -> _ItemKey:
    """What tells an item apart: its ``kind``, its options without color (``plain``) and
    its groups of options by color (``shades``), as sets, the options sent through
    ``image`` (None: as they are)."""

    def moved(options: list[int]) -> frozenset[int]:
        return frozenset(options if image is None else image[options].tolist())

    return kind, moved(plain), frozenset(moved(group) for group in shades.values())


def orbit_labels(n: int, generators: Sequence[Perm], deadline: float | None = None) -> Perm:
    """For each point of ``0..n-1``, the smallest point of its orbit under the
    permutations: every point takes the smallest label among its own and those of its
    images and preimages, then follows the labels to their end, until nothing changes.
    LimitReached once ``deadline`` (a ``time.monotonic()`` instant) has passed."""
    watch = Watch(n, deadline, "")
    label = np.arange(n, dtype=np.int64)
    while True:
        new = label.copy()
        for g in generators:
            watch.tick(4 * n)
            np.minimum.at(new, g, label)
            np.minimum(new, label[g], out=new)
        while True:
            jumped = new[new]
            if np.array_equal(jumped, new):
                break
            new = jumped
        if np.array_equal(new, label):
            return label
        label = new


def _orbits(n: int, generators: Sequence[Perm], deadline: float | None) -> list[list[int]]:
    """The orbits of ``0..n-1`` under the permutations (:func:`orbit_labels`, within
    ``deadline``), in order of their smallest point, each in increasing order."""
    label = orbit_labels(n, generators, deadline)
    order = np.argsort(label, kind="stable")
    cuts = np.flatnonzero(np.diff(label[order])) + 1
    return [part.tolist() for part in np.split(order, cuts)] if n else []
