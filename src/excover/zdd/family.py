"""``Family``: a family of sets of non-negative ints, held as a ZDD.

A :class:`Family` is a handle on one node of a :class:`~excover.zdd.Manager`'s store. The
store keeps every family reduced and hash-consed with variables increasing along every
path, so each family has exactly one node: ``==`` and ``hash`` compare node numbers (O(1))
and structurally equal families are the same node. A handle keeps its node (and all the
nodes below it) alive; when the last handle on a node goes, the node becomes garbage that
the store reclaims when it fills up.

Iteration order: depth first, lo edge before hi edge. At the node of the smallest variable
``v``, the sets without ``v`` come before the sets with ``v``, recursively; so ``{∅}``, if a
member, comes first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from excover.atomic import write_whole
from excover.errors import FormatError, ResourceLimitError, UsageError
from excover.numbers import to_decimal
from excover.zdd import _store
from excover.zdd.manager import Manager, default

if TYPE_CHECKING:  # a count does not import random (tests/test_cli_startup.py)
    from random import Random

__all__ = ["Family", "SetLike", "walk"]

#: A set of variables as the API accepts it: any iterable of non-negative ints.
SetLike = Iterable[int]

#: The first line of a saved family (see :meth:`Family.save`).
_MAGIC = "excover-zdd 1"

#: Families with at most this many sets print in full.
_REPR_LIMIT = 16


def _elements(members: object) -> list[int]:
    """A set of variables as a strictly increasing list, checking every element."""
    if isinstance(members, str | bytes) or not isinstance(members, Iterable):
        raise UsageError(f"a set must be an iterable of non-negative ints, not {members!r}")
    result = set()
    for element in members:
        if isinstance(element, bool) or not isinstance(element, int) or element < 0:
            raise UsageError(f"set element {element!r} is not a non-negative int")
        if element >= 2**31 - 1:
            raise UsageError(f"set element {element} is too large (at most 2**31 - 2)")
        result.add(element)
    return sorted(result)


def _run(call: Callable[[], int]) -> int:
    """Call a store operation, turning its node-limit signal into ResourceLimitError."""
    try:
        return call()
    except _store.StoreFull as full:
        raise ResourceLimitError(
            f"the ZDD manager reached its limit of {full.args[0]} nodes "
            "(raise it with Manager(max_nodes=...) or excover.zdd.configure)"
        ) from None


class Family:
    """A family of sets of non-negative ints (a ZDD), immutable and canonical.

    Build one with :meth:`empty`, :meth:`base`, :meth:`singleton`, :meth:`from_sets` or
    :meth:`node`; combine them with ``|``, ``&``, ``-``, ``^`` and the methods below. All
    families in one expression must belong to the same manager (the default one unless
    ``manager=`` was given).
    """

    __slots__ = ("__weakref__", "_id", "_manager")

    _manager: Manager
    _id: int

    def __init__(self, manager: Manager, node: int) -> None:
        """A handle on ``node`` of ``manager`` (internal; use the class methods)."""
        self._manager = manager
        self._id = node
        manager.store.incref(node)

    def __del__(self) -> None:
        manager = getattr(self, "_manager", None)
        if manager is not None:
            manager.store.decref(self._id)

    # ----- construction -----

    @classmethod
    def empty(cls, manager: Manager | None = None) -> Family:
        """The empty family, with no set at all."""
        return cls(manager or default(), 0)

    @classmethod
    def base(cls, manager: Manager | None = None) -> Family:
        """The family ``{∅}``, holding only the empty set."""
        return cls(manager or default(), 1)

    @classmethod
    def singleton(cls, members: SetLike, manager: Manager | None = None) -> Family:
        """The family holding exactly one set."""
        owner = manager or default()
        elements = _elements(members)
        return cls(owner, _run(lambda: owner.store.from_sorted(elements)))

    @classmethod
    def from_sets(cls, sets: Iterable[SetLike], manager: Manager | None = None) -> Family:
        """The family of the given sets (duplicates merge), built by balanced unions."""
        owner = manager or default()
        if isinstance(sets, str | bytes) or not isinstance(sets, Iterable):
            raise UsageError(f"from_sets needs an iterable of sets, not {sets!r}")
        layer = [cls.singleton(members, owner) for members in sets]
        if not layer:
            return cls(owner, 0)
        while len(layer) > 1:
            paired = [a | b for a, b in zip(layer[::2], layer[1::2], strict=False)]
            if len(layer) % 2:
                paired.append(layer[-1])
            layer = paired
        return layer[0]

    @classmethod
    def node(cls, var: int, lo: Family, hi: Family) -> Family:
        """The family of the sets of ``lo`` and the sets of ``hi`` with ``var`` added: one
        node of the ZDD.

        ``var`` must be smaller than every variable of ``lo`` and ``hi`` (so the result is
        canonical); when ``hi`` is empty the result is ``lo`` itself (zero suppression).
        """
        if not isinstance(lo, Family) or not isinstance(hi, Family):
            raise UsageError("Family.node needs two families as lo and hi")
        manager = _same_manager(lo, hi)
        if isinstance(var, bool) or not isinstance(var, int) or var < 0:
            raise UsageError(f"a variable must be a non-negative int, not {var!r}")
        try:
            node = _run(lambda: manager.store.node(var, lo._id, hi._id))
        except ValueError as problem:
            raise UsageError(f"bad Family.node({var}, ...): {problem}") from None
        return cls(manager, node)

    def _new(self, node: int) -> Family:
        return Family(self._manager, node)

    def _apply(self, op: int, other: Family) -> Family:
        if not isinstance(other, Family):
            raise UsageError(f"expected a Family, not {other!r}")
        manager = _same_manager(self, other)
        return self._new(_run(lambda: manager.store.apply(op, self._id, other._id)))

    def _apply_var(self, op: int, var: int) -> Family:
        if isinstance(var, bool) or not isinstance(var, int) or not 0 <= var < 2**31 - 1:
            raise UsageError(f"a variable must be a non-negative int, not {var!r}")
        store = self._manager.store
        return self._new(_run(lambda: store.apply(op, self._id, var)))

    # ----- the node -----

    @property
    def manager(self) -> Manager:
        """The manager holding this family's nodes."""
        return self._manager

    @property
    def var(self) -> int | None:
        """The variable of the root node (the smallest variable), None for ∅ and {∅}."""
        return self._manager.store.var_of(self._id)

    @property
    def lo(self) -> Family:
        """The sets without :attr:`var` (only for a family with a root variable)."""
        self._need_inner("lo")
        return self._new(self._manager.store.lo_of(self._id))

    @property
    def hi(self) -> Family:
        """The sets with :attr:`var`, with it removed (only with a root variable)."""
        self._need_inner("hi")
        return self._new(self._manager.store.hi_of(self._id))

    def _need_inner(self, what: str) -> None:
        if self._id < 2:
            raise UsageError(f"the family {self!r} has no root variable, hence no {what}")

    @property
    def size(self) -> int:
        """The number of inner nodes of the ZDD (terminals not counted)."""
        return self._manager.store.size(self._id)

    # ----- sets -----

    def __or__(self, other: Family) -> Family:
        return self._apply(_store.OP_UNION, other)

    def __and__(self, other: Family) -> Family:
        return self._apply(_store.OP_INTER, other)

    def __sub__(self, other: Family) -> Family:
        return self._apply(_store.OP_DIFF, other)

    def __xor__(self, other: Family) -> Family:
        return self._apply(_store.OP_XOR, other)

    def __contains__(self, members: object) -> bool:
        try:
            elements = _elements(members)
        except UsageError:
            return False
        return self._manager.store.contains(self._id, elements)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Family):
            return NotImplemented
        return self._id == other._id and self._manager is other._manager

    def __hash__(self) -> int:
        return hash((self._id, id(self._manager)))

    def __le__(self, other: Family) -> bool:
        """Whether every set of this family is in ``other``."""
        return (self - other)._id == 0

    def __lt__(self, other: Family) -> bool:
        return self <= other and self != other

    def __ge__(self, other: Family) -> bool:
        return other <= self

    def __gt__(self, other: Family) -> bool:
        return other < self

    def __bool__(self) -> bool:
        return self._id != 0

    def is_empty(self) -> bool:
        """Whether the family has no set at all."""
        return self._id == 0

    def add(self, members: SetLike) -> Family:
        """This family with one more set."""
        return self | Family.singleton(members, self._manager)

    def remove(self, members: SetLike) -> Family:
        """This family without the given set (unchanged if it was not a member)."""
        return self - Family.singleton(members, self._manager)

    def count(self) -> int:
        """The number of sets, an exact int however large."""
        return self._manager.store.count(self._id)

    def __len__(self) -> int:
        """The number of sets (OverflowError beyond ``sys.maxsize``: use :meth:`count`)."""
        return self.count()

    def __iter__(self) -> Iterator[frozenset[int]]:
        """The sets as frozensets, in the order the module docstring defines."""
        for path in walk(self._manager.store, self._id):
            yield frozenset(path)

    def elements(self) -> frozenset[int]:
        """The union of all the sets: every variable that occurs in some set."""
        store = self._manager.store
        return frozenset(store.triple(node)[0] for node in store.nodes(self._id))

    def min(self) -> frozenset[int]:
        """The lexicographically smallest set (sets compared as increasing sequences)."""
        self._need_members("min")
        store = self._manager.store
        node, chosen = self._id, []
        while node >= 2 and not _has_empty(store, node):
            var, _, node = store.triple(node)
            chosen.append(var)
        return frozenset(chosen)

    def max(self) -> frozenset[int]:
        """The lexicographically largest set (sets compared as increasing sequences)."""
        self._need_members("max")
        store = self._manager.store
        node, chosen = self._id, []
        while node >= 2:
            var, lo, hi = store.triple(node)
            if lo >= 2:
                node = lo
            else:
                chosen.append(var)
                node = hi
        return frozenset(chosen)

    def choose(self) -> frozenset[int]:
        """Some set of the family (the smallest, :meth:`min`); UsageError if empty."""
        return self.min()

    def _need_members(self, what: str) -> None:
        if self._id == 0:
            raise UsageError(f"{what}() of an empty family")

    def filter(self, predicate: Callable[[frozenset[int]], bool]) -> Family:
        """The sets for which ``predicate`` holds (visits every set)."""
        return Family.from_sets((s for s in self if predicate(s)), self._manager)

    def for_all(self, predicate: Callable[[frozenset[int]], bool]) -> bool:
        """Whether ``predicate`` holds for every set."""
        return all(predicate(s) for s in self)

    def exists(self, predicate: Callable[[frozenset[int]], bool]) -> bool:
        """Whether ``predicate`` holds for some set."""
        return any(predicate(s) for s in self)

    def partition(self, predicate: Callable[[frozenset[int]], bool]) -> tuple[Family, Family]:
        """The sets for which ``predicate`` holds, and the others."""
        yes = self.filter(predicate)
        return yes, self - yes

    # ----- family algebra (Minato; Knuth, TAOCP 7.1.4) -----

    def onset(self, var: int) -> Family:
        """The sets that contain ``var`` (keeping it)."""
        return self._apply_var(_store.OP_ONSET, var)

    def offset(self, var: int) -> Family:
        """The sets that do not contain ``var``."""
        return self._apply_var(_store.OP_OFFSET, var)

    def change(self, var: int) -> Family:
        """Every set with ``var`` toggled (added where absent, removed where present)."""
        return self._apply_var(_store.OP_CHANGE, var)

    def join(self, other: Family) -> Family:
        """The unions ``a | b`` of a set ``a`` of this family and a set ``b`` of ``other``
        (Knuth's join)."""
        return self._apply(_store.OP_JOIN, other)

    def meet(self, other: Family) -> Family:
        """The intersections ``a & b`` of a set ``a`` of this family and a set ``b`` of
        ``other`` (Knuth's meet)."""
        return self._apply(_store.OP_MEET, other)

    def nonsup(self, other: Family) -> Family:
        """The sets of this family that contain no set of ``other``."""
        return self._apply(_store.OP_NONSUP, other)

    def nonsub(self, other: Family) -> Family:
        """The sets of this family contained in no set of ``other``."""
        return self._apply(_store.OP_NONSUB, other)

    def restrict(self, other: Family) -> Family:
        """The sets of this family that contain at least one set of ``other``."""
        return self - self.nonsup(other)

    def permit(self, other: Family) -> Family:
        """The sets of this family contained in at least one set of ``other``."""
        return self - self.nonsub(other)

    def minimal(self) -> Family:
        """The sets with no proper subset in the family."""
        return self._new(_run(lambda: self._manager.store.apply(_store.OP_MINIMAL, self._id, 0)))

    def maximal(self) -> Family:
        """The sets with no proper superset in the family."""
        return self._new(_run(lambda: self._manager.store.apply(_store.OP_MAXIMAL, self._id, 0)))

    def quotient(self, other: Family) -> Family:
        """Minato's weak division: the largest family ``q`` of sets disjoint from the sets
        of ``other`` with ``q ⊔ other ⊆ self``; the quotient by ``∅`` is ``∅``."""
        _same_manager(self, other)
        result: Family | None = None
        for divisor in other:
            part = self
            for var in sorted(divisor):
                part = part.onset(var).change(var)
            result = part if result is None else result & part
        return result if result is not None else Family.empty(self._manager)

    def remainder(self, other: Family) -> Family:
        """``self - (self / other) ⊔ other``: what the weak division leaves over."""
        return self - self.quotient(other).join(other)

    __truediv__ = quotient
    __mod__ = remainder

    # ----- counting, sampling, weights -----

    def sample(self, rng: Random, k: int = 1) -> list[frozenset[int]]:
        """``k`` sets drawn independently and exactly uniformly (with replacement)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise UsageError(f"k must be a non-negative int, not {k!r}")
        self._need_members("sample")
        store = self._manager.store
        counts = store.counts(self._id)
        draws = []
        for _ in range(k):
            node, chosen = self._id, []
            while node >= 2:
                var, lo, hi = store.triple(node)
                if rng.randrange(counts[node]) < counts[lo]:
                    node = lo
                else:
                    chosen.append(var)
                    node = hi
            draws.append(frozenset(chosen))
        return draws

    def max_weight(
        self, weights: Mapping[int, float] | Sequence[float]
    ) -> tuple[frozenset[int], float]:
        """A set of largest total weight and its weight (``weights[v]`` for variable v)."""
        return self._best(weights, 1)

    def min_weight(
        self, weights: Mapping[int, float] | Sequence[float]
    ) -> tuple[frozenset[int], float]:
        """A set of smallest total weight and its weight (``weights[v]`` for variable v)."""
        best, weight = self._best(weights, -1)
        return best, weight

    def by_weight(
        self, weights: Mapping[int, float] | Sequence[float], descending: bool = True
    ) -> Iterator[tuple[frozenset[int], float]]:
        """Every set with its weight, heaviest first (lightest first if not
        ``descending``), lazily: a best-first search whose bound at each node is the exact
        best completion, so each set costs one walk down the ZDD and heap operations."""
        sign = 1 if descending else -1
        if self._id == 0:
            return
        import heapq  # loaded by the walks by weight alone

        store = self._manager.store
        value = self._values(weights, sign)
        # entries: (-(weight so far + best completion), tie, weight so far, node, chosen)
        heap: list[tuple[float, int, float, int, tuple[int, ...]]] = [
            (-value[self._id], 0, 0.0, self._id, ())
        ]
        tie = 1
        while heap:
            _, _, so_far, node, chosen = heapq.heappop(heap)
            if node == 1:
                yield frozenset(chosen), sign * so_far
                continue
            var, lo, hi = store.triple(node)
            if lo in value:
                heapq.heappush(heap, (-(so_far + value[lo]), tie, so_far, lo, chosen))
                tie += 1
            with_var = so_far + sign * weights[var]
            heapq.heappush(heap, (-(with_var + value[hi]), tie, with_var, hi, (*chosen, var)))
            tie += 1

    def _values(
        self, weights: Mapping[int, float] | Sequence[float], sign: int
    ) -> dict[int, float]:
        """The largest total of ``sign * weights`` over the sets of each node (not 0)."""
        store = self._manager.store
        value: dict[int, float] = {1: 0.0}
        for node in store.nodes(self._id):
            var, lo, hi = store.triple(node)
            try:
                w = sign * weights[var]
            except (KeyError, IndexError):
                raise UsageError(f"no weight for variable {var}") from None
            best = value[hi] + w
            value[node] = max(best, value[lo]) if lo in value else best
        return value

    def _best(
        self, weights: Mapping[int, float] | Sequence[float], sign: int
    ) -> tuple[frozenset[int], float]:
        self._need_members("a weight optimum")
        store = self._manager.store
        value = self._values(weights, sign)
        node, chosen = self._id, []
        while node >= 2:
            var, lo, hi = store.triple(node)
            if value[node] == value[hi] + sign * weights[var]:
                chosen.append(var)
                node = hi
            else:
                node = lo
        return frozenset(chosen), sign * value[self._id]

    # ----- printing, drawing, saving -----

    def __repr__(self) -> str:
        if self._id == 0:
            return "{}"
        total = self.count()
        if total > _REPR_LIMIT:
            return f"<Family: {to_decimal(total)} sets, {self.size} nodes>"
        sets = sorted((sorted(s) for s in self), key=lambda s: (len(s), s))
        return "{ " + ", ".join("{" + ",".join(map(str, s)) + "}" for s in sets) + " }"

    def _repr_html_(self) -> str:
        """What a notebook shows: the number of sets and of nodes, the first sets and,
        for a small ZDD, its diagram (:func:`excover.display.family_html`)."""
        from excover.display import family_html

        return family_html(self.count(), self.size, iter(self), self._repr_svg_())

    def _repr_svg_(self) -> str | None:
        """The diagram of a ZDD of at most :data:`excover.display.DIAGRAM_NODES` nodes
        (:func:`excover.display.zdd_svg`); None for a larger one (nothing drawn)."""
        from excover.display import DIAGRAM_NODES, zdd_svg

        if self.size > DIAGRAM_NODES:
            return None
        store = self._manager.store
        return zdd_svg(self._id, [(node, *store.triple(node)) for node in store.nodes(self._id)])

    def to_dot(self, name: str = "zdd") -> str:
        """The ZDD in Graphviz DOT: lo edges dotted, hi edges solid, as combine draws it."""
        store = self._manager.store
        lines = [f"digraph {name} {{", "  node [shape=circle];"]
        lines.append('  t0 [shape=box, label="0"];')
        lines.append('  t1 [shape=box, label="1"];')

        def ref(node: int) -> str:
            return f"t{node}" if node < 2 else f"n{node}"

        for node in store.nodes(self._id):
            var, lo, hi = store.triple(node)
            lines.append(f'  n{node} [label="{var}"];')
            lines.append(f"  n{node} -> {ref(lo)} [style=dotted];")
            lines.append(f"  n{node} -> {ref(hi)};")
        if self._id < 2:
            lines.append(f"  root -> {ref(self._id)};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the family to a text file that :meth:`load` reads back.

        The format: a first line ``excover-zdd 1``; then one line ``id var lo hi`` per inner
        node, children before parents, where ids count from 2 and 0 and 1 are the
        terminals ∅ and {∅}; then a last line ``root id``. The file is written whole
        (:func:`excover.atomic.write_whole`).
        """
        store = self._manager.store
        number = {0: 0, 1: 1}
        lines = [_MAGIC]
        for node in store.nodes(self._id):
            var, lo, hi = store.triple(node)
            number[node] = len(number)
            lines.append(f"{number[node]} {var} {number[lo]} {number[hi]}")
        lines.append(f"root {number[self._id]}")
        write_whole(path, "\n".join(lines) + "\n", follow_links=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str], manager: Manager | None = None) -> Family:
        """Read a family written by :meth:`save`; a malformed file raises FormatError."""
        owner = manager or default()
        from excover.formats.text import read_text

        text, source = read_text(path)  # a missing or non-UTF-8 file is a clear error
        lines = text.splitlines()
        if not lines or lines[0].strip() != _MAGIC:
            raise FormatError(
                f"not an excover ZDD file (first line must be {_MAGIC!r})", source=source, line=1
            )
        made: dict[int, Family] = {0: cls.empty(owner), 1: cls.base(owner)}
        for number, line in enumerate(lines[1:], start=2):
            fields = line.split()
            if fields[:1] == ["root"]:
                if (
                    len(fields) != 2
                    or not _DECIMAL.fullmatch(fields[1])
                    or int(fields[1]) not in made
                ):
                    raise FormatError(f"bad root line {line!r}", source=source, line=number)
                if any(rest.strip() for rest in lines[number:]):
                    raise FormatError("text after the root line", source=source, line=number + 1)
                return made[int(fields[1])]
            if len(fields) != 4 or not all(_DECIMAL.fullmatch(field) for field in fields):
                raise FormatError(
                    f"expected 'id var lo hi', got {line!r}", source=source, line=number
                )
            ident, var, lo, hi = map(int, fields)
            if ident in made or lo not in made or hi not in made:
                raise FormatError(f"bad node numbers in {line!r}", source=source, line=number)
            try:
                made[ident] = cls.node(var, made[lo], made[hi])
            except UsageError as problem:
                raise FormatError(str(problem), source=source, line=number) from None
            except OverflowError:
                raise FormatError(
                    f"variable {var} is out of range", source=source, line=number
                ) from None
        raise FormatError("missing root line", source=source, line=len(lines))


def walk(store: _store.Store, root: int, hi_first: bool = False) -> Iterator[list[int]]:
    """The sets of the family at node ``root`` of ``store``, each as the increasing list
    of its variables, depth first: lo edge first (the order of iteration of a
    :class:`Family`), or hi edge first, which is lexicographic order (a set before its
    prefixes). The list yielded is the walk's own, changed by the next step: copy it to
    keep it."""
    path: list[int] = []
    # frames: (node, taken): taken is the variable pushed onto path to reach it, or -1
    stack: list[tuple[int, int]] = [(root, -1)]
    while stack:
        node, taken = stack.pop()
        if taken == -2:  # marker: pop the variable added on the way down
            path.pop()
            continue
        if taken >= 0:
            path.append(taken)
            stack.append((0, -2))
        if node == 1:
            yield path
        elif node >= 2:
            var, lo, hi = store.triple(node)
            if hi_first:
                stack.append((lo, -1))
                stack.append((hi, var))
            else:
                stack.append((hi, var))
                stack.append((lo, -1))


#: A number in the saved format: ASCII decimal digits only (``str.isdigit`` takes others).
_DECIMAL = re.compile(r"[0-9]+")


def _has_empty(store: _store.Store, node: int) -> bool:
    """Whether the family at ``node`` contains the empty set (its lo chain ends at 1)."""
    while node >= 2:
        node = store.lo_of(node)
    return node == 1


def _same_manager(a: Family, b: Family) -> Manager:
    if a._manager is not b._manager:
        raise UsageError("cannot combine families of two different ZDD managers")
    return a._manager
