"""The size of each at-most-one encoding: variables and clauses of the CNF formula.

For every problem of :mod:`sat_problems` and every encoding of :mod:`excover.sat.amo`,
prints the number of variables, of clauses, of literals, and the time to encode, as a
Markdown table. combine's pairwise encoding of Scott's problem had 3.75 million clauses;
the issue asks seqcounter and product to be ten times smaller than pairwise.

Usage: ``python benchmarks/sat_encodings.py [--problems NAME ...]``.
"""

from __future__ import annotations

import argparse
import time

from sat_problems import problems

from excover.sat import AMO_ENCODINGS, to_cnf

__all__ = ["main"]


def main() -> None:
    catalog = problems()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", nargs="+", choices=list(catalog), default=list(catalog))
    args = parser.parse_args()
    print("| problem | options | encoding | variables | clauses | literals | encode time |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name in args.problems:
        problem = catalog[name]()
        for encoding in AMO_ENCODINGS:
            start = time.perf_counter()
            cnf = to_cnf(problem, encoding)
            seconds = time.perf_counter() - start
            literals = sum(len(clause) for clause in cnf.clauses)
            print(
                f"| {name} | {problem.n_options:,} | {encoding} | {cnf.n_vars:,} | "
                f"{cnf.n_clauses:,} | {literals:,} | {seconds:.2f} s |"
            )


if __name__ == "__main__":
    main()
