"""Counting with the SAT back end: enumeration, ganak, and count(method="sat")'s race.

For each problem, times three ways to count its solutions: enumeration alone by CaDiCaL
(``solver="cadical"``), the ganak model counter alone (``solver="ganak"``, needs pyganak),
and the default of ``count(method="sat")``, which enumerates and races ganak against the
enumeration once the count looks large. Every count is checked against dancing links'
(run first, so DLX's time is shown too). A run stopped by ``--timeout`` shows as
``> T s``. The figures behind the counting rule in the README's SAT section.

Usage: ``python benchmarks/sat_count.py [--problems NAME ...] [--timeout SECONDS]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from sat_problems import KNUTH_DIR, queens

from excover import ExactCover, LimitReached
from excover.sat import solve

__all__ = ["main"]


def _dominoes(rows: int, cols: int) -> ExactCover:
    """A rows x cols rectangle covered by dominoes (cells are the primary items)."""
    problem = ExactCover(primary=[f"{r}_{c}" for r in range(rows) for c in range(cols)])
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                problem.add_option([f"{r}_{c}", f"{r}_{c + 1}"])
            if r + 1 < rows:
                problem.add_option([f"{r}_{c}", f"{r + 1}_{c}"])
    return problem


def _problems() -> dict[str, Callable[[], ExactCover]]:
    """The problems by name, built on demand."""
    return {
        "queens8": lambda: queens(8),
        "queens10": lambda: queens(10),
        "queens12": lambda: queens(12),
        "dominoes8x8": lambda: _dominoes(8, 8),
        "pento3x20": lambda: ExactCover.read(KNUTH_DIR / "pento3x20.dlx"),
    }


def _timed(problem: ExactCover, solver: str | None, timeout: float, expected: int) -> str:
    """The time ``count(method="sat", solver=solver)`` takes, and who counted."""
    start = time.perf_counter()
    try:
        stats = solve.counted(problem, solver, timeout=timeout)
    except LimitReached:
        return f"> {timeout:.0f} s"
    seconds = time.perf_counter() - start
    assert stats.solutions == expected, (stats.solutions, expected)
    who = "" if solver is not None else f" ({stats.algorithm})"
    return f"{seconds:.2f} s{who}"


def main() -> None:
    catalog = _problems()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", nargs="+", choices=list(catalog), default=list(catalog))
    parser.add_argument("--timeout", type=float, default=150.0, help="limit of each count")
    args = parser.parse_args()
    header = ["problem", "solutions", "DLX", "enumeration", "ganak", 'count(method="sat")']
    print("| " + " | ".join(header) + " |")
    print("|---|---:|" + "---:|" * (len(header) - 2))
    for name in args.problems:
        problem = catalog[name]()
        start = time.perf_counter()
        expected = problem.count(method="search")
        cells = [name, f"{expected:,}", f"{time.perf_counter() - start:.2f} s"]
        cells += [_timed(problem, s, args.timeout, expected) for s in ("cadical", "ganak", None)]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
