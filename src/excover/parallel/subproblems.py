"""Cutting a search tree into independent subproblems.

A :class:`Subproblem` is the problem with some options *forced* into the solution and
some *forbidden*: its solutions are those of the problem that hold every forced option
and no forbidden one. It is a pair of short lists of option indices, so it is small to
send to another process or machine and to save in a checkpoint, and it means the same
thing to every engine: :meth:`Subproblem.reduce` turns it into a smaller plain
:class:`~excover.ExactCover` (the forced options' items covered, their colors settled,
conflicting and forbidden options removed, multiplicities lowered) that dancing links,
DXZ or a SAT solver can solve.

:func:`split` takes the subproblems from the top of the engine's own search tree
(:mod:`excover.parallel.tree`): the branches of a node partition its solutions, so the
subproblems of a split partition the solutions of the problem and their counts add up to
its count. ``split(depth=k)`` cuts every path at depth ``k``; ``split(tasks=n)`` cuts
where the tree is big: it estimates every subtree by Knuth's random probes
(:mod:`excover.parallel.probes`) and keeps splitting the biggest one until there are
``n`` subproblems, so an unbalanced tree is cut deeper on its heavy side. When cutting a
node into all its branches would overshoot ``n``, the last cut keeps its first branches
apart and gathers the others into one *rest* subproblem (the node with those first
branches' options forbidden), so the split has exactly ``n`` subproblems whenever the
tree has that many nodes to offer. The estimates are seeded, so a split is the same every
time. Subproblems come in the order of the engine's depth-first search.

Every function here that walks the tree takes a ``deadline`` (a ``time.monotonic()``
value, as :attr:`excover.Search.deadline`) and raises :class:`~excover.LimitReached` once
it has passed, checked at every node a probe or the walk goes through, so that a run's
``--timeout`` covers its split as well as its search. A node waiting to be cut keeps its
path, its options and its probes, not its state (which is as big as the problem): that
is made again from its path when it is cut, so a split into many subproblems of a big
problem holds one state at a time.
"""

from __future__ import annotations

import heapq
import math
import random
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from excover.deadlines import check, check_deadline
from excover.engines import Search
from excover.errors import ExcoverWarning, LimitReached, UsageError
from excover.parallel.probes import (
    GUARD,
    SHAPE_PROBES,
    SUBTREE_NODES,
    Probe,
    check_samples,
    choose_cutoff,
    mean,
    probe,
)
from excover.parallel.tree import Branch, Layout, State
from excover.problem import Problem

__all__ = [
    "MAX_TASKS",
    "Subproblem",
    "check_partition",
    "check_tasks",
    "resized",
    "split",
    "split_further",
]

#: Probes per subtree when :func:`split` estimates sizes.
SPLIT_SAMPLES = 4

#: Fresh probes per subproblem when :func:`resized` estimates sizes again.
RESIZE_SAMPLES = 32


#: A problem of any class: what a subproblem reduces to is of its class (Problem.derive).
P = TypeVar("P", bound=Problem)


@dataclass(frozen=True)
class Subproblem:
    """The solutions of a problem that contain every ``forced`` option and no ``forbidden``
    one (option indices of the problem).

    ``path`` places it in the search tree (the branch taken at each level, in the
    engine's order: sorting by path gives the engine's order of the solutions);
    ``rest`` says that it stands for the branch at the end of its path *and every later
    branch* of the same node (the last piece of a split into an exact number of tasks);
    ``size`` is the estimated number of nodes of its search tree. None of the three takes
    part in equality.
    """

    forced: tuple[int, ...]
    forbidden: tuple[int, ...] = ()
    path: tuple[int, ...] = field(default=(), compare=False)
    size: float = field(default=1.0, compare=False)
    rest: bool = field(default=False, compare=False)

    def state(self, layout: Layout) -> State:
        """The node of the search tree this subproblem stands for."""
        return State.after(layout, self.forced, self.forbidden)

    def reduce(self, problem: P) -> tuple[P, list[int]]:
        """The subproblem as a plain problem, and the index in ``problem`` of each of its
        options: a solution ``s`` of the plain problem gives the solution
        ``forced + [options[k] for k in s]`` of ``problem``. Options ``problem`` does not
        have are a UsageError; forced options in conflict give a problem without
        solution."""
        check_options(problem, [self])
        reduced, original = self.state(Layout.of(problem)).reduced()
        return cast("P", reduced), original  # derived from problem: of its class

    def as_dict(self) -> dict[str, Any]:
        """The subproblem as a JSON-ready dictionary (read back by :meth:`from_dict`)."""
        return {
            "forced": list(self.forced),
            "forbidden": list(self.forbidden),
            "path": list(self.path),
            "size": self.size,
            "rest": self.rest,
        }

    @classmethod
    def from_dict(cls, data: object) -> Subproblem:
        """A subproblem from :meth:`as_dict`'s dictionary; UsageError if malformed."""
        if not isinstance(data, dict):
            raise UsageError(f"a subproblem must be a dictionary, not {data!r}")
        try:
            forced = _ints(data["forced"], "forced")
            forbidden = _ints(data.get("forbidden", []), "forbidden")
            path = _ints(data.get("path", []), "path")
            size = data.get("size", 1.0)
            rest = data.get("rest", False)
        except KeyError:
            raise UsageError(f"a subproblem needs 'forced': {data!r}") from None
        if isinstance(size, bool) or not isinstance(size, int | float) or not size >= 0:
            raise UsageError(f"the size of a subproblem must be a number >= 0, not {size!r}")
        if not isinstance(rest, bool) or (rest and not path):
            raise UsageError(
                f"'rest' must be true or false, and true only below the root: {data!r}"
            )
        return cls(forced, forbidden, path, float(size), rest)


def _ints(values: object, what: str) -> tuple[int, ...]:
    """A list of non-negative ints from JSON data, or a UsageError naming ``what``."""
    if not isinstance(values, list | tuple) or not all(
        type(value) is int and value >= 0 for value in values
    ):
        raise UsageError(f"{what} must be a list of non-negative integers, not {values!r}")
    return tuple(values)


def check_options(problem: Problem, subproblems: list[Subproblem]) -> None:
    """Reject subproblems naming an option that ``problem`` does not have."""
    n = problem.n_options
    for sub in subproblems:
        for option in (*sub.forced, *sub.forbidden):
            if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < n:
                raise UsageError(
                    f"subproblem {list(sub.path)} names option {option!r}, but the problem has "
                    f"{n} options"
                )


@dataclass
class _Node:
    """A node of the tree while :func:`split` works: a subproblem, its state (None while
    it waits to be cut: made again from its path then) and the probes that passed
    through it."""

    state: State | None
    forced: tuple[int, ...]
    forbidden: tuple[int, ...]
    path: tuple[int, ...]
    probes: list[Probe]
    size: float = 0.0
    rest: bool = False

    def subproblem(self) -> Subproblem:
        return Subproblem(self.forced, self.forbidden, self.path, self.size, self.rest)


class _Splitter:
    """The tree walk of :func:`split`, with its seeded probes, within its deadline."""

    def __init__(
        self,
        problem: Problem,
        samples: int,
        seed: int,
        deadline: float | None = None,
        grace: float = 0.0,
    ) -> None:
        self.layout = Layout.of(problem)
        self.top = State(self.layout)  # the root, copied for every walk from it
        self.samples = samples
        self.seed = seed
        self._deadline = deadline
        self._graced = time.thread_time() + grace if grace > 0 else None
        self.nodes = 0  # nodes made, for the statistics of a stop at the deadline

    @property
    def deadline(self) -> float | None:
        """The deadline, once the grace in CPU time is spent (None before)."""
        if self._graced is not None:
            if time.thread_time() < self._graced:
                return None
            self._graced = None
        return self._deadline

    def check(self) -> None:
        """Raise LimitReached once the deadline has passed."""
        check(self.deadline, self.nodes)

    def state(self, node: _Node) -> State:
        """The state of ``node``: kept, or made again by walking its path from the root."""
        if node.state is None:
            node = _walk(self, node.path)
        assert node.state is not None  # made by the walk
        return node.state

    def root(self) -> _Node:
        return self.estimated(_Node(self.top.copy(), (), (), (), []))

    def estimated(self, node: _Node) -> _Node:
        """``node`` with its size: the probes that came through it, plus its own (a rest
        node keeps the size of the children it gathers)."""
        if node.rest:
            return node
        if len(node.probes) < self.samples:
            rng = random.Random(f"{self.seed}/{node.path}")
            state = self.state(node)
            node.probes.extend(
                probe(state.copy(), rng, deadline=self.deadline)
                for _ in range(self.samples - len(node.probes))
            )
        node.size = mean([p.nodes for p in node.probes])
        return node

    def children(self, node: _Node, most: int | None = None) -> list[_Node] | None:
        """The live children of ``node``, estimated; None when it is a solution.

        With ``most``, at most that many: when there are more, the last one is a rest
        node that stands for its branch and every later one."""
        state = self.state(node)
        item = state.choose()
        if item is None:
            return None
        branches = state.branches(item)
        result = []
        for index, branch in enumerate(branches):
            self.check()  # each child is a copy of the state, as big as the problem
            self.nodes += 1
            below = state.copy()
            named, _ = below.follow(item, branch)
            if _dead(below):
                continue
            option = branch[0]
            probes = [p.below() for p in node.probes if p.path and p.path[0] == index]
            result.append(
                _Node(
                    below,
                    node.forced if option is None else (*node.forced, option),
                    node.forbidden + named,
                    (*node.path, index),
                    probes,
                )
            )
        if most is not None and len(result) > most:
            result[most - 1 :] = [self._rest(state, node, branches, result[most - 1 :])]
        return [self.estimated(child) for child in result]

    def _rest(
        self, state: State, node: _Node, branches: list[Branch], gathered: list[_Node]
    ) -> _Node:
        """The rest node of ``node`` that stands for the ``gathered`` children (its last
        live branches): the node with the options of every earlier branch forbidden.
        Its size is the mean of ``samples`` probes of its own tree (the one its task
        searches: that node, reduced), not the sum of its children's estimates, which
        cost ``samples`` probes each (a split of the 8x8 square with the twelve
        pentominoes and the 2x2 square in 6 gathers 28 children: 112 probes for one
        size)."""
        first = gathered[0].path[-1]
        earlier = tuple(option for option, _ in branches[:first] if option is not None)
        below = state.copy()
        below.exclude(earlier)
        path = gathered[0].path
        rest = _Node(None, node.forced, node.forbidden + earlier, path, [], rest=True)
        rng = random.Random(f"{self.seed}/{path}/rest")
        rest.probes = [
            probe(below.copy(), rng, deadline=self.deadline) for _ in range(self.samples)
        ]
        rest.size = mean([p.nodes for p in rest.probes])
        return rest


def check_partition(problem: Problem, subproblems: list[Subproblem]) -> None:
    """Raise :class:`~excover.UsageError` unless ``subproblems`` partition the solutions
    of ``problem`` as :func:`split` makes them: each one a node of the search tree (its
    forced and forbidden options those of its path) or a rest node (its parent with the
    options of the branches before it forbidden), no two nested, and together the
    whole tree (every live branch below the root leads to exactly one of them). A
    checkpoint's subproblems are checked so before their
    counts are trusted: a list edited by hand (one dropped, one repeated, one changed)
    would otherwise give a wrong total without a word."""
    layout = Layout.of(problem)
    by_path: dict[tuple[int, ...], Subproblem] = {}
    for sub in subproblems:
        if sub.path in by_path:
            raise UsageError(f"subproblem {list(sub.path)} is listed twice")
        by_path[sub.path] = sub
    deepest = max((len(path) for path in by_path), default=0)
    seen = 0
    pending: list[tuple[State, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = [
        (State(layout), (), (), ())
    ]
    while pending:
        state, path, forced, forbidden = pending.pop()
        found = by_path.get(path)
        if found is not None:
            if (found.forced, found.forbidden) != (forced, forbidden):
                raise UsageError(
                    f"subproblem {list(path)} does not hold the options of its place in "
                    "the search tree"
                )
            seen += 1
            continue
        if _dead(state):
            continue  # no solution below: split leaves such a branch out
        item = state.choose()
        if item is None or (
            len(path) >= deepest and _may_hold_solutions(problem, forced, forbidden)
        ):  # a solution, or solutions below a node past every subproblem's depth
            raise UsageError(f"no subproblem covers the branch {list(path)} of the search tree")
        if len(path) >= deepest:
            continue
        branches = state.branches(item)
        for index, branch in enumerate(branches):
            rest = by_path.get((*path, index))
            if rest is not None and rest.rest:  # this branch and every later one
                earlier = tuple(option for option, _ in branches[:index] if option is not None)
                if (rest.forced, rest.forbidden) != (forced, forbidden + earlier):
                    raise UsageError(
                        f"subproblem {list(rest.path)} does not hold the options of its "
                        "place in the search tree"
                    )
                seen += 1
                break
            below = state.copy()
            named, _ = below.follow(item, branch)
            option = branch[0]
            if _dead(below):
                continue
            pending.append(
                (
                    below,
                    (*path, index),
                    forced if option is None else (*forced, option),
                    forbidden + named,
                )
            )
    if seen != len(subproblems):
        raise UsageError("a subproblem lies outside the search tree or below another one")


#: Search nodes spent proving that an uncovered branch of a checkpoint has no solution.
_PROOF_NODES = 10_000


def _may_hold_solutions(
    problem: Problem, forced: tuple[int, ...], forbidden: tuple[int, ...]
) -> bool:
    """False only when a short search proves the branch has no solution (split leaves
    such branches out when it sees at once that they are dead)."""
    small, _ = Subproblem(forced, forbidden).reduce(problem)
    try:
        return Search(small, max_nodes=_PROOF_NODES).first() is not None
    except LimitReached:
        return True


def _dead(state: State) -> bool:
    """True when the node's item has no branch left: no solution below."""
    item = state.choose()
    return item is not None and state.degree(item) <= 0


def split(
    problem: Problem,
    depth: int | None = None,
    tasks: int | None = None,
    *,
    samples: int = SPLIT_SAMPLES,
    seed: int = 0,
    deadline: float | None = None,
    grace: float = 0.0,
) -> list[Subproblem]:
    """Subproblems that partition the solutions of ``problem``, in depth-first order.

    Give ``depth`` (cut every path of the search tree at that depth) or ``tasks`` (cut
    the biggest estimated subtree until there are at least that many subproblems, or
    the tree has no more nodes to cut; at most :data:`MAX_TASKS`). Subtrees without
    solution that show at once (an item with no option left) are left out, so the list
    may be empty. ``samples`` probes estimate each subtree (``Subproblem.size``), seeded
    by ``seed``. Past ``deadline`` (a ``time.monotonic()`` value) the split stops with
    :class:`~excover.LimitReached`, but not before it has spent ``grace`` seconds of CPU
    time (this thread's, not the clock's): a small split is then made in full whatever
    the deadline and however busy the machine (a checkpointed count stopped at once
    still leaves its subproblems), and a big one stops soon after the deadline.
    """
    if (depth is None) == (tasks is None):
        raise UsageError("give split() one of depth= or tasks=")
    samples = check_samples(samples)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"seed must be an integer, not {seed!r}")
    if tasks is not None:
        tasks = check_tasks(tasks)
    if isinstance(grace, bool) or not isinstance(grace, int | float) or not 0 <= grace < math.inf:
        raise UsageError(f"grace must be a finite number of seconds >= 0, not {grace!r}")
    splitter = _Splitter(problem, samples, seed, check_deadline(deadline), grace)
    root = splitter.root()
    if _dead(splitter.state(root)):
        if tasks is not None:
            _fewer(0, tasks, "the problem shows at once that it has no solution")
        return []
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise UsageError(f"depth must be a non-negative integer, not {depth!r}")
        nodes = list(_to_depth(splitter, root, depth))
    else:
        assert tasks is not None
        nodes = _biggest_first(splitter, [root], tasks)
        if len(nodes) < tasks:
            _fewer(
                len(nodes), tasks, "the rest of the search tree is solutions, with no node to cut"
            )
    return sorted((node.subproblem() for node in nodes), key=lambda sub: sub.path)


def resized(
    problem: Problem,
    subproblems: list[Subproblem],
    samples: int = RESIZE_SAMPLES,
    *,
    seed: int = 1,
    deadline: float | None = None,
) -> list[Subproblem]:
    """``subproblems`` with their sizes estimated again by ``samples`` fresh probes each.

    The sizes :func:`split` leaves are biased as weights of progress: it keeps cutting the
    subtrees whose few probes happened to come out big, so the subproblems it leaves
    whole are mostly those whose probes came out small, and a run that hands out the
    biggest first settles the overestimated ones first (a bar that rushes ahead, then
    crawls). Probes drawn afresh, seeded apart from the split's, know nothing of that
    choice: their sizes are unbiased for any set of subproblems, done or not. Each probe
    counts in full the subtree it reaches at the depth where subtrees have about
    :data:`~excover.parallel.probes.SUBTREE_NODES` nodes (as :func:`estimate
    <excover.parallel.probes.estimate>` does): on trees as uneven as a pentomino
    packing's, plain probes this few are off by orders of magnitude. Past ``deadline``:
    :class:`~excover.LimitReached`."""
    samples = check_samples(samples)
    deadline = check_deadline(deadline)
    layout = Layout.of(problem)
    rng = random.Random(f"resize {seed}")
    root = State(layout)
    cutoff = choose_cutoff(
        [probe(root.copy(), rng, deadline=deadline) for _ in range(SHAPE_PROBES)]
    )
    guard = GUARD * SUBTREE_NODES
    fresh = []
    for sub in subproblems:
        rng = random.Random(f"resize {seed}/{sub.path}/{sub.rest}")
        state = State.after(layout, sub.forced, sub.forbidden)
        below = None if cutoff is None else max(cutoff - len(sub.path), 0)
        size = mean(
            [probe(state.copy(), rng, below, guard, deadline).nodes for _ in range(samples)]
        )
        fresh.append(replace(sub, size=size))
    return fresh


def split_further(
    problem: Problem,
    sub: Subproblem,
    tasks: int,
    *,
    seed: int = 0,
    deadline: float | None = None,
) -> list[Subproblem]:
    """Cut ``sub`` (a subproblem of a :func:`split` of ``problem``) into about ``tasks``
    parts that partition it, each a node of the same search tree (so that a list with
    ``sub`` replaced by its parts still passes :func:`check_partition`); ``[sub]`` alone
    when it cannot be cut (a solution, or a node whose branches are all dead but one
    that cannot be cut either).

    A rest node is first taken apart into the branches it stands for. Past ``deadline``:
    :class:`~excover.LimitReached`."""
    splitter = _Splitter(problem, SPLIT_SAMPLES, seed, check_deadline(deadline))
    node = _walk(splitter, sub.path[:-1] if sub.rest else sub.path)
    if node.forced != sub.forced or (not sub.rest and node.forbidden != sub.forbidden):
        raise UsageError(f"subproblem {list(sub.path)} is not a node of this search tree")
    if sub.rest:
        children = splitter.children(node) or []
        roots = [child for child in children if child.path[-1] >= sub.path[-1]]
    else:
        roots = [splitter.estimated(node)]
    nodes = _biggest_first(splitter, roots, max(tasks, len(roots)))
    parts = sorted((node.subproblem() for node in nodes), key=lambda part: part.path)
    return parts if len(parts) > 1 else [sub]


def _walk(splitter: _Splitter, path: tuple[int, ...]) -> _Node:
    """The node at ``path`` of the search tree (branch indices from the root)."""
    state = splitter.top.copy()
    forced: tuple[int, ...] = ()
    forbidden: tuple[int, ...] = ()
    for index in path:
        splitter.check()
        item = state.choose()
        branches = [] if item is None else state.branches(item)
        if not 0 <= index < len(branches):
            raise UsageError(f"no branch {list(path)} in the search tree")
        named, _ = state.follow(item, branches[index])  # type: ignore[arg-type]
        option = branches[index][0]
        forced = forced if option is None else (*forced, option)
        forbidden = forbidden + named
    return _Node(state, forced, forbidden, path, [])


def _to_depth(splitter: _Splitter, node: _Node, depth: int) -> Iterator[_Node]:
    """The nodes at ``depth`` below ``node`` (and the solutions above it)."""
    splitter.check()
    if depth == 0:
        yield node
        return
    children = splitter.children(node)
    if children is None:
        yield node
        return
    for child in children:
        yield from _to_depth(splitter, child, depth - 1)


def _biggest_first(splitter: _Splitter, roots: list[_Node], tasks: int) -> list[_Node]:
    """Split the biggest node until there are ``tasks`` nodes or none can be split; the
    last cut gathers its later branches into a rest node rather than overshoot."""
    heap = [(-root.size, serial, root) for serial, root in enumerate(roots)]
    heapq.heapify(heap)
    done: list[_Node] = []
    serial = len(roots)
    while heap and len(heap) + len(done) < tasks:
        splitter.check()
        _, _, node = heapq.heappop(heap)
        assert not node.rest  # a rest node only comes with the last cut
        children = splitter.children(node, most=tasks - len(heap) - len(done))
        node.state = None
        if children is None:
            done.append(node)
            continue
        for child in children:
            child.state = None  # made again from its path if it is cut in turn
            heapq.heappush(heap, (-child.size, serial, child))
            serial += 1
    nodes = done + [node for _, _, node in heap]
    return nodes


#: The most subproblems :func:`split` makes: each costs a few probes to estimate and a
#: line in a checkpoint, and a long one is cut further where it runs (a cluster cuts
#: long subproblems for idle workers), so more than this would only cost memory.
MAX_TASKS = 1_000_000


def check_tasks(tasks: object) -> int:
    """``tasks`` as an int from 1 to :data:`MAX_TASKS`, or a UsageError saying why not."""
    if isinstance(tasks, bool) or not isinstance(tasks, int) or tasks < 1:
        raise UsageError(f"tasks must be a positive integer, not {tasks!r}")
    if tasks > MAX_TASKS:
        raise UsageError(
            f"tasks must be at most {MAX_TASKS:,} (each subproblem is estimated by probes and "
            f"kept in memory and in a checkpoint), not {tasks:,}"
        )
    return tasks


def _fewer(made: int, tasks: int, why: str) -> None:
    """Warn that a split made fewer subproblems than asked for, and why."""
    warnings.warn(
        f"split into {made} subproblems, not {tasks}: {why}", ExcoverWarning, stacklevel=3
    )
