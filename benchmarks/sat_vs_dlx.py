"""Time to the first solution: SAT solvers against dancing links.

For each problem of :mod:`sat_problems`, times DLX's first solution (MRV, with a time
limit) and the SAT route (encoding, then CaDiCaL through PySAT) for a few at-most-one
encodings, and prints a Markdown table. Every solution found is checked with
``is_solution``. The large board (20x20, the 12 pentominoes and dominoes) is where the two
methods part ways.

Usage: ``python benchmarks/sat_vs_dlx.py [--problems NAME ...] [--timeout SECONDS]
[--encodings NAME ...] [--solver NAME]``.
"""

from __future__ import annotations

import argparse
import time

from sat_problems import problems

from excover import ExactCover, LimitReached

__all__ = ["main"]


def _dlx(problem: ExactCover, timeout: float) -> str:
    """DLX's time to the first solution, or how far it got within the time limit."""
    start = time.perf_counter()
    try:
        solution = problem.first(timeout=timeout)
    except LimitReached as stop:
        return f"> {timeout:.0f} s ({stop.stats.nodes:,} nodes)"
    seconds = time.perf_counter() - start
    assert solution is None or problem.is_solution(solution)
    return f"{seconds:.2f} s" + ("" if solution else " (none)")


def _sat(problem: ExactCover, solver: str, encoding: str) -> str:
    """The SAT route's time to the first solution, encoding included."""
    start = time.perf_counter()
    solution = problem.first(method="sat", solver=solver, amo=encoding)
    seconds = time.perf_counter() - start
    assert solution is None or problem.is_solution(solution)
    return f"{seconds:.2f} s" + ("" if solution else " (none)")


def main() -> None:
    catalog = problems()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", nargs="+", choices=list(catalog), default=list(catalog))
    parser.add_argument("--encodings", nargs="+", default=["seqcounter", "product", "auto"])
    parser.add_argument("--solver", default="cadical")
    parser.add_argument("--timeout", type=float, default=60.0, help="DLX time limit")
    args = parser.parse_args()
    header = ["problem", "options", "DLX (mrv)"] + [f"SAT {e}" for e in args.encodings]
    print("| " + " | ".join(header) + " |")
    print("|---|---:|" + "---:|" * (len(header) - 2))
    for name in args.problems:
        problem = catalog[name]()
        cells = [name, f"{problem.n_options:,}", _dlx(problem, args.timeout)]
        cells += [_sat(problem, args.solver, encoding) for encoding in args.encodings]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
