"""The cross-check at full size: thousands of random problems against brute force.

The harness of ``tests/test_crosscheck.py`` (the checks of ``tests/every_way.py`` on the
random problems of ``tests/builders.py``, ``tests/symmetric.py`` and ``tests/tilings.py``)
run on many more and somewhat larger problems, so the issue 61 trial can be rerun:

* ``x``, ``xcc``, ``mcc``: random exact cover problems (up to 12 options), counted and
  listed every way (every method, engine and route, preprocessing on and off, split into
  subproblems) against every subset of the options;
* ``workers``: the same with the counts and listings on two worker processes too;
* ``parts``: unions of independent random problems, counted every way;
* ``symmetry``: problems made symmetric on purpose, counted and listed up to their known
  group (on two workers half the time) against the brute-force orbits;
* ``tilings``: random polyominoes on boards of up to 16 cells, counted and listed plainly
  and up to the board's symmetries against a brute-force tiling and canonical forms.

Each family runs ``--examples`` problems (times its weight below), drawn by Hypothesis
from ``--seed``. It prints, per family, the problems checked, the results compared (counts
and listings) and the seconds taken, then the totals. A disagreement stops its family:
Hypothesis shrinks it to a smallest problem, printed as the reproducer (a call of the
check with the problem's data), and the exit status is 1.

Usage: ``python benchmarks/crosscheck.py [--examples N] [--seed S] [--family x,tilings]``
(run it under ``nice``; ``--examples 1000`` takes several minutes of one core).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from builders import Kind, instances
from every_way import check_instance, check_symmetric, check_tiling, check_union
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from symmetric import symmetric_problems
from tilings import tiling_cases

from excover import ExcoverWarning

KINDS: tuple[Kind, ...] = ("X", "XCC", "MCC")


@dataclass(frozen=True)
class Family:
    """One kind of random problem: its strategy (drawing the check's arguments), the
    check, and its share of ``--examples`` (the slow ones run fewer)."""

    name: str
    strategy: st.SearchStrategy[tuple[Any, ...]]
    check: Callable[..., int]
    weight: float


FAMILIES = [
    Family("x", st.tuples(instances("X", max_options=12)), check_instance, 1.0),
    Family("xcc", st.tuples(instances("XCC", max_options=12)), check_instance, 1.0),
    Family("mcc", st.tuples(instances("MCC", max_options=12)), check_instance, 1.0),
    Family(
        "workers",
        st.tuples(st.sampled_from(KINDS).flatmap(instances), st.just(True), st.just(True)),
        check_instance,
        0.1,
    ),
    Family(
        "parts",
        st.tuples(
            st.lists(instances("X", max_options=5), min_size=2, max_size=4), st.integers(0, 999)
        ),
        check_union,
        0.5,
    ),
    Family(
        "symmetry",
        st.tuples(symmetric_problems(colors=True), st.sampled_from([False, False, False, True])),
        check_symmetric,
        1.0,
    ),
    Family("tilings", st.tuples(tiling_cases(max_area=16, max_cells=5)), check_tiling, 1.0),
]


@dataclass
class Tally:
    """What a family checked: problems, results compared, seconds, the failure if any."""

    problems: int = 0
    results: int = 0
    seconds: float = 0.0
    failure: str | None = None


def run_family(family: Family, examples: int, seed_value: int) -> Tally:
    """Check ``examples`` problems of ``family``; a disagreement is shrunk by Hypothesis
    and kept, with its reproducer, in the tally."""
    tally = Tally()

    @seed(seed_value)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=False,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(family.strategy)
    def check(arguments: tuple[Any, ...]) -> None:
        tally.results += family.check(*arguments)
        tally.problems += 1

    started = time.perf_counter()
    try:
        check()
    except Exception as error:  # a disagreement, or a crash of the library: both reported
        notes = "\n".join(getattr(error, "__notes__", []))
        tally.failure = f"{''.join(traceback.format_exception_only(error))}{notes}"
    tally.seconds = time.perf_counter() - started
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=1000, help="problems per family")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis's seed")
    names = [family.name for family in FAMILIES]
    parser.add_argument("--family", default=",".join(names), help="families, comma-separated")
    args = parser.parse_args(argv)
    chosen = args.family.split(",")
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        parser.error(f"unknown family {unknown[0]!r}; choose among {', '.join(names)}")
    warnings.simplefilter("ignore", ExcoverWarning)  # splits of tiny trees say they are short
    print(f"seed {args.seed}, {args.examples} examples per family (times its weight)")
    print("| family | problems | results compared | seconds | disagreement |")
    print("|---|---:|---:|---:|---|")
    total = Tally()
    failures = []
    for family in FAMILIES:
        if family.name not in chosen:
            continue
        tally = run_family(family, max(1, round(args.examples * family.weight)), args.seed)
        verdict = "none" if tally.failure is None else "YES (below)"
        print(
            f"| {family.name} | {tally.problems} | {tally.results} | {tally.seconds:.1f} "
            f"| {verdict} |",
            flush=True,
        )
        total.problems += tally.problems
        total.results += tally.results
        total.seconds += tally.seconds
        if tally.failure is not None:
            failures.append((family.name, tally.failure))
    print(
        f"total: {total.problems} problems, {total.results} results compared, "
        f"{len(failures)} disagreements, {total.seconds:.0f} s"
    )
    for name, failure in failures:
        print(f"\n--- {name}: disagreement (seed {args.seed}); reproducer:\n{failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
