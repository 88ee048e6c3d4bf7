"""The automorphism group of an exact cover problem, found by a graph-automorphism tool.

A problem is turned into its *incidence graph*, whose automorphisms are exactly the
problem's (see :mod:`excover.symmetry.group`):

* one vertex per option, one per item and one per (secondary item, color) pair in use;
* an option is joined to each item it covers without color, and to the vertex of the pair
  ``(x, c)`` for each ``x:c`` it holds; the vertex of ``(x, c)`` is joined to ``x``;
* the vertices are colored so that options go to options, pairs to pairs, and items to
  items of the same kind and multiplicity.

An automorphism of this graph sends each option to an option with the images of its items,
and renames the colors of each item consistently (a pair vertex belongs to one item, and
its options are those of one color). The group is computed by BLISS (Junttila and Kaski),
a canonical-labelling tool for large sparse graphs, through python-igraph (the optional
extra ``excover[symmetry]``). nauty, through pynauty, was the other candidate: it works on
dense adjacency matrices, far too large for the graphs of big problems.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

import numpy as np

from excover.deadlines import TimeUp
from excover.errors import UsageError
from excover.symmetry.group import Automorphism, Group

if TYPE_CHECKING:
    from excover.problem import Problem

__all__ = ["automorphism_group", "incidence_graph"]


def _igraph() -> Any:
    try:
        import igraph
    except ImportError:
        raise UsageError(
            "finding the symmetries of a problem needs python-igraph: "
            "pip install 'excover[symmetry]' (or give the group's generators yourself)"
        ) from None
    return igraph


def incidence_graph(problem: Problem) -> tuple[int, np.ndarray, list[int]]:
    """The incidence graph of ``problem``: its number of vertices, its edges (an ``m x 2``
    array) and the color of each vertex. Options are vertices ``0..n_options-1`` and items
    follow them, primary items first."""
    data = problem.engine_input()
    n_options = len(data.option_start) - 1
    n_items = data.n_primary + data.n_secondary
    starts = np.frombuffer(data.option_start, dtype=np.intc).astype(np.int64)
    owner = np.repeat(np.arange(n_options, dtype=np.int64), np.diff(starts))
    items = np.frombuffer(data.node_item, dtype=np.intc).astype(np.int64)
    colors = np.frombuffer(data.node_color, dtype=np.intc).astype(np.int64)
    plain = colors == 0
    pairs, pair_of_node = np.unique(
        np.column_stack([items[~plain], colors[~plain]]), axis=0, return_inverse=True
    )
    first_pair = n_options + n_items
    edges = np.concatenate(
        [
            np.column_stack([owner[plain], items[plain] + n_options]),
            np.column_stack([owner[~plain], pair_of_node.reshape(-1) + first_pair]),
            np.column_stack(
                [np.arange(len(pairs), dtype=np.int64) + first_pair, pairs[:, 0] + n_options]
            ),
        ]
    )
    kinds = [("primary", lo, hi) for lo, hi in zip(data.lo, data.hi, strict=True)]
    kinds += [("secondary", 0, 1)] * data.n_secondary
    numbers = {kind: number + 2 for number, kind in enumerate(dict.fromkeys(kinds))}
    vertex_colors = [0] * n_options + [numbers[kind] for kind in kinds] + [1] * len(pairs)
    return first_pair + len(pairs), edges, vertex_colors


def automorphism_group(problem: Problem) -> Group:
    """The group of all automorphisms of ``problem``, by generators (see
    :meth:`excover.ExactCover.symmetries`)."""
    igraph = _igraph()
    vertices, edges, colors = incidence_graph(problem)
    # igraph takes the edges as Python pairs: ten thousand small lists on Scott's
    # problem, which would set off the cyclic garbage collector several times (over
    # every object the process holds) for nothing, as they hold no cycle.
    enabled = gc.isenabled()
    gc.disable()
    try:
        graph = igraph.Graph(n=vertices, edges=edges.tolist())
    finally:
        if enabled:
            gc.enable()
    try:
        found = graph.automorphism_group(sh="fl", color=colors)
    except SystemError as error:
        # A signal handler's exception (Ctrl-C, the alarm of --timeout) raised while
        # BLISS runs comes back as a result with the exception set, which Python turns
        # into a SystemError: the interruption is what the caller must see.
        if isinstance(error.__cause__, KeyboardInterrupt | TimeUp):
            raise error.__cause__ from None
        raise
    n_options = problem.n_options
    end = n_options + problem.n_items
    generators = []
    for perm in found:
        image = np.asarray(perm[:end], dtype=np.int64)
        generators.append(Automorphism(image[:n_options], image[n_options:] - n_options))
    return Group.of_automorphisms(problem, generators)
