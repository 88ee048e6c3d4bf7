"""The component-decomposition count beside ``count(method="zdd")`` and plain DXZ.

Issue #40, item 4: counting by components must be faster than plain DXZ where the problem
splits and never more than 1.1x slower where it does not. Each row is one instance; each
cell the best of ``--repeat`` runs in this process (seconds), ``> T`` past ``--timeout``:

* ``zdd``: ``count(method="zdd")``, the frontier count when it suits, else DXZ;
* ``dxz``: the DXZ family counted (``excover.zdd.dxz.run_dxz``), always;
* ``comp``: :func:`excover.counting.components.count`;

then ``comp/zdd`` and ``comp/dxz``, the ratios (below 1: components faster), and whether
the three counts agree (a disagreement prints ``MISMATCH`` and the exit status is 1).

The instances:

* ``union``: disjoint unions of dominoes and queens problems, their items interleaved
  (item ``i`` of every part, then item ``i + 1`` of every part, ...), so that the
  leftmost-item order of DXZ mixes the parts and its memo sees the product of their states;
* ``whole``: problems that do not split (dominoes, queens, Langford pairs): the route's
  cost over ``zdd`` is its look for splits;
* ``alg-lab``: the ``--largest`` largest instances of the SAT 2026 paper's sets in Knuth's
  format (``--alg-lab DIR``, default ``~/.cache/excover-bench/alg-lab``, as converted by
  benchmarks/counting_sets.py); without that directory the set says so and is skipped.

Files named on the command line (Knuth's format) make one more set, ``files``.

Usage: ``python benchmarks/components_bench.py [--set union,whole,alg-lab] [--largest N]
[--timeout S] [--repeat R] [--alg-lab DIR] [FILE ...]``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType

from excover import ExactCover
from excover.counting import components
from excover.zdd import dxz

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from builders import dominoes, langford, queens

#: Where benchmarks/counting_sets.py caches the paper's instances in Knuth's format.
ALG_LAB = Path.home() / ".cache" / "excover-bench" / "alg-lab"


class _OutOfTime(Exception):
    """The alarm of ``--timeout`` rang."""


def interleave(parts: Sequence[ExactCover]) -> ExactCover:
    """The disjoint union of ``parts``, item ``i`` of each part next to item ``i`` of the
    others (primary items first, then the secondary ones, interleaved the same way)."""

    def slots(sizes: list[int], offsets: list[int]) -> list[tuple[int, int]]:
        return [
            (part, offsets[part] + i)
            for i in range(max(sizes, default=0))
            for part, size in enumerate(sizes)
            if i < size
        ]

    primary = slots([p.n_primary for p in parts], [0] * len(parts))
    secondary = slots([p.n_secondary for p in parts], [p.n_primary for p in parts])
    position = {slot: n for n, slot in enumerate(primary + secondary)}
    union = ExactCover(primary=len(primary), secondary=len(secondary))
    for number, part in enumerate(parts):
        data = part.engine_input()
        start, items = data.option_start, data.node_item
        for k in range(part.n_options):
            union.add_option([position[number, i] for i in items[start[k] : start[k + 1]]])
    return union


def unions() -> Iterator[tuple[str, ExactCover]]:
    """The ``union`` set of the module notes."""
    yield "3 x dominoes 4x5", interleave([dominoes(4, 5)] * 3)
    yield "dominoes 4x4+3x6+2x8", interleave([dominoes(4, 4), dominoes(3, 6), dominoes(2, 8)])
    yield "3 x queens 6", interleave([queens(6)] * 3)
    yield "2 x queens 8", interleave([queens(8)] * 2)
    yield "dominoes 8x8 + queens 7", interleave([dominoes(8, 8), queens(7)])
    yield "2 x dominoes 10x10", interleave([dominoes(10, 10)] * 2)


def wholes() -> Iterator[tuple[str, ExactCover]]:
    """The ``whole`` set of the module notes."""
    yield "dominoes 8x8", dominoes(8, 8)
    yield "dominoes 12x12", dominoes(12, 12)
    yield "queens 9", queens(9)
    yield "queens 10", queens(10)
    yield "langford 11", langford(11)


def alg_lab(directory: Path, largest: int) -> Iterator[tuple[str, ExactCover]]:
    """The ``largest`` largest files of ``directory``."""
    if not directory.is_dir():
        print(f"alg-lab: no directory {directory} (run benchmarks/counting_sets.py first)")
        return
    files = sorted(directory.glob("*.dlx"), key=lambda f: f.stat().st_size)[-largest:]
    for path in reversed(files):
        yield path.stem[:12], ExactCover.read(path)


def files(paths: list[Path]) -> Iterator[tuple[str, ExactCover]]:
    """The instances named on the command line."""
    for path in paths:
        yield path.stem[:12], ExactCover.read(path)


def timed(run: Callable[[], int | None], timeout: float, repeat: int) -> tuple[float, int | None]:
    """The best time of ``repeat`` runs and the count; ``(inf, None)`` past ``timeout``."""

    def ring(signum: int, frame: FrameType | None) -> None:
        raise _OutOfTime

    best, found = float("inf"), None
    previous = signal.signal(signal.SIGALRM, ring)
    try:
        for _ in range(repeat):
            signal.setitimer(signal.ITIMER_REAL, timeout)
            started = time.perf_counter()
            try:
                found = run()
            except _OutOfTime:
                return float("inf"), None
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            best = min(best, time.perf_counter() - started)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return best, found


def plain_dxz(problem: ExactCover) -> int:
    family = dxz.run_dxz(problem, dxz.search_manager()).family
    assert family is not None  # no budget: the search ran to its end
    return family.count()


def row(name: str, problem: ExactCover, timeout: float, repeat: int) -> bool:
    """Print one instance's row; False on a disagreement."""
    runs = {
        "zdd": lambda: problem.count(method="zdd"),
        "dxz": lambda: plain_dxz(problem),
        "comp": lambda: components.count(problem),
    }
    times, counts = {}, {}
    for route, run in runs.items():
        times[route], counts[route] = timed(run, timeout, repeat)
    found = {c for c in counts.values() if c is not None}
    verdict = "MISMATCH" if len(found) > 1 else (str(found.pop()) if found else "-")

    def shown(seconds: float) -> str:
        return f"> {timeout:g}" if seconds == float("inf") else f"{seconds:.4f}"

    def ratio(route: str) -> str:
        if times["comp"] == float("inf") or times[route] == float("inf"):
            return "-"
        return f"{times['comp'] / times[route]:.2f}"

    cells = [shown(times[r]) for r in runs] + [ratio("zdd"), ratio("dxz")]
    print(f"{name:26} " + " ".join(f"{c:>8}" for c in cells) + f"  {verdict}")
    return verdict != "MISMATCH"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="union,whole,alg-lab")
    parser.add_argument("--largest", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--alg-lab", type=Path, default=ALG_LAB)
    parser.add_argument("files", nargs="*", type=Path, help="more instances (Knuth's format)")
    args = parser.parse_args(argv)
    sets: dict[str, Callable[[], Iterator[tuple[str, ExactCover]]]] = {
        "union": unions,
        "whole": wholes,
        "alg-lab": lambda: alg_lab(args.alg_lab, args.largest),
        "files": lambda: files(args.files),
    }
    heading = ["zdd", "dxz", "comp", "comp/zdd", "comp/dxz"]
    print(f"{'instance':26} " + " ".join(f"{h:>8}" for h in heading) + "  count")
    agree = True
    for name in args.set.split(",") + (["files"] if args.files else []):
        print(f"-- {name}")
        for label, problem in sets[name]():
            agree = row(label, problem, args.timeout, args.repeat) and agree
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
