"""The machine's load, for the benchmarks that set excover beside a reference program.

On a shared machine the two programs are slowed by different amounts (cache, memory
bandwidth, time slices), so a ratio of their times taken under load says little about the
ratio on a quiet machine. Such a benchmark therefore:

* states the load average it ran at (:func:`load_line`);
* runs the programs interleaved, round after round, each round in the other order than
  the one before (:func:`interleaved`), and keeps the best of at least
  :data:`MIN_ROUNDS` runs of each, so that a burst of load falls on both;
* prints a ratio only when the load stayed at most :data:`QUIET_LOAD` while it ran,
  unless ``--allow-load`` is given (:func:`add_load_flag`), and then marks the ratio with
  the load (:func:`ratio_text`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = [
    "MIN_ROUNDS",
    "QUIET_LOAD",
    "add_load_flag",
    "interleaved",
    "load_average",
    "load_line",
    "ratio_text",
]

#: The highest one-minute load average at which a ratio is printed without ``--allow-load``.
QUIET_LOAD = 1.5
#: The fewest rounds a comparison runs (the best run of each program is kept).
MIN_ROUNDS = 3

_T = TypeVar("_T")


def load_average() -> float:
    """The one-minute load average."""
    return os.getloadavg()[0]


def load_line() -> str:
    """The load averages over 1, 5 and 15 minutes, and the number of cores."""
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def add_load_flag(parser: argparse.ArgumentParser) -> None:
    """``--allow-load``: print ratios taken above :data:`QUIET_LOAD` (marked with it)."""
    parser.add_argument(
        "--allow-load",
        action="store_true",
        help=f"print ratios even above a load average of {QUIET_LOAD} (marked with the load)",
    )


def interleaved(
    runs: Sequence[tuple[str, Callable[[], _T]]], rounds: int
) -> tuple[dict[str, list[_T]], float]:
    """Each run of ``runs`` (name, call) once a round, for ``rounds`` rounds (at least
    :data:`MIN_ROUNDS`), every other round in reverse order; the results by name, and the
    highest load average seen before, between and after the rounds."""
    results: dict[str, list[_T]] = {name: [] for name, _ in runs}
    highest = load_average()
    for number in range(max(rounds, MIN_ROUNDS)):
        for name, call in runs if number % 2 == 0 else reversed(runs):
            results[name].append(call())
        highest = max(highest, load_average())
    return results, highest


def ratio_text(value: float, load: float, allowed: bool) -> str:
    """A ratio as printed: plain at most :data:`QUIET_LOAD`; above it withheld, or with
    ``--allow-load`` marked with the load it was taken at."""
    if load <= QUIET_LOAD:
        return f"{value:.2f}"
    if allowed:
        return f"{value:.2f} (load {load:.1f})"
    return f"withheld (load {load:.1f})"
