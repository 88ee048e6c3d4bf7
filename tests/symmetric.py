"""Small problems made symmetric on purpose, and a brute-force oracle for their orbits of
solutions (every solution and its images), shared by the symmetry tests."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from hypothesis import strategies as st

from excover import ExactCover

__all__ = [
    "all_solutions",
    "brute_orbits",
    "build",
    "duplicate_swaps",
    "option_map",
    "orbit_roots",
    "symmetric_problems",
]

Option = tuple[tuple[int, str | None], ...]


@st.composite
def symmetric_problems(draw: st.DrawFn, colors: bool = False) -> tuple[Any, ...]:
    """A small problem closed under an item permutation ``sigma`` that keeps kinds and
    multiplicities: (primary count, secondary count, options, bounds, sigma)."""
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 2))
    bounds = [
        draw(st.sampled_from([(1, 1), (1, 1), (0, 1), (1, 2), (0, 2)])) for _ in range(n_primary)
    ]
    # sigma: a permutation of the primary items within classes of equal bounds, and of
    # the secondary items.
    sigma = list(range(n_primary + n_secondary))
    for bound in set(bounds):
        members = [i for i in range(n_primary) if bounds[i] == bound]
        shuffled = draw(st.permutations(members))
        for source, target in zip(members, shuffled, strict=True):
            sigma[source] = target
    secondary = list(range(n_primary, n_primary + n_secondary))
    for source, target in zip(secondary, draw(st.permutations(secondary)), strict=True):
        sigma[source] = target
    shades = [None, "red", "blue"] if colors and n_secondary else [None]
    base: set[Option] = set()
    for _ in range(draw(st.integers(1, 4))):
        items = draw(st.sets(st.integers(0, n_primary - 1), min_size=1))
        if n_secondary:
            items |= draw(st.sets(st.integers(n_primary, n_primary + n_secondary - 1)))
        base.add(
            tuple(
                sorted((i, None if i < n_primary else draw(st.sampled_from(shades))) for i in items)
            )
        )
    options: set[Option] = set()
    for option in base:
        current = option
        while current not in options:
            options.add(current)
            current = tuple(sorted((sigma[i], c) for i, c in current))
    ordered = sorted(options, key=lambda o: [(i, c or "") for i, c in o])
    ordered = draw(st.permutations(ordered))
    if draw(st.booleans()):  # duplicate options: symmetries that move no item
        current = ordered[0]
        while True:
            ordered.append(current)
            current = tuple(sorted((sigma[i], c) for i, c in current))
            if current == ordered[0]:
                break
    return n_primary, n_secondary, tuple(ordered), tuple(bounds), tuple(sigma)


def build(n_primary: int, n_secondary: int, options: Any, bounds: Any) -> ExactCover:
    problem = ExactCover(primary=n_primary, secondary=n_secondary)
    for item, (lo, hi) in enumerate(bounds):
        if (lo, hi) != (1, 1):
            problem.set_multiplicity(item, lo, hi)
    for option in options:
        problem.add_option([i if c is None else f"{i}:{c}" for i, c in option])
    return problem


def all_solutions(problem: ExactCover) -> set[tuple[int, ...]]:
    """Every solution, by checking every subset of the options."""
    n = problem.n_options
    return {
        subset
        for size in range(n + 1)
        for subset in itertools.combinations(range(n), size)
        if problem.is_solution(subset)
    }


def option_map(options: Any, sigma: Any) -> list[int]:
    """The option permutation that ``sigma`` induces (equal options matched in order)."""
    where: dict[Any, list[int]] = {}
    for k, option in enumerate(options):
        where.setdefault(option, []).append(k)
    used: Counter[Any] = Counter()
    result = []
    for option in options:
        image = tuple(sorted((sigma[i], c) for i, c in option))
        result.append(where[image][used[image]])
        used[image] += 1
    return result


def brute_orbits(solutions: set[tuple[int, ...]], maps: list[list[int]]) -> int:
    """The number of orbits of the solutions under the option maps."""
    return len(set(orbit_roots(solutions, maps).values()))


def orbit_roots(
    solutions: set[tuple[int, ...]], maps: list[list[int]]
) -> dict[tuple[int, ...], tuple[int, ...]]:
    """One member of its orbit for each solution (the same for the whole orbit)."""
    parent = {s: s for s in solutions}

    def root(s: tuple[int, ...]) -> tuple[int, ...]:
        while parent[s] != s:
            s = parent[s]
        return s

    for s in solutions:
        for g in maps:
            image = tuple(sorted(g[k] for k in s))
            parent[root(image)] = root(s)
    return {s: root(s) for s in solutions}


def duplicate_swaps(options: Any) -> list[list[int]]:
    """Transpositions of equal options."""
    swaps = []
    for a, b in itertools.combinations(range(len(options)), 2):
        if options[a] == options[b]:
            swap = list(range(len(options)))
            swap[a], swap[b] = b, a
            swaps.append(swap)
    return swaps
