"""The ZDD method's limits, measured: how soon a limited listing answers, how soon a
timeout or Ctrl-C stops a listing or a count, and what the memory bound leaves a run.

Run from the repository root: ``python benchmarks/zdd_limits_bench.py`` prints a Markdown
table (figures on the machine at hand; the load average is printed first, since a
busy machine stretches every figure). Each command runs in a process of its own, as a
user runs it; "overshoot" is the time past the limit (start-up included, measured apart
by ``excover --version``).

- ``solve --method zdd --limit 5`` on a 40 x 40 board of dominoes (about 10^258 tilings,
  whose family could never be built), and the listing's search nodes;
- a listing stopped by ``--timeout 1`` while no solution comes (the same board with an
  odd cell more: no tiling, and DXZ's states without end), and one printing solutions;
- a ZDD count stopped by ``--timeout 1`` (DXZ on Knuth's 6 x 10 pentomino box, top-down
  on 16 queens);
- Ctrl-C sent to a listing: the seconds from the signal to the exit;
- ``count --method zdd --max-memory 64M`` on the same box (DXZ's memo outgrows it): the
  time to the stop and the process's peak memory;
- the full listing of 12 queens (14,200 solutions) against building the family and
  walking it.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from builders import dominoes, queens  # noqa: E402

from excover import ExactCover  # noqa: E402
from excover.zdd import dxz  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def _command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "excover", *argv]


def timed(*argv: str) -> tuple[float, int, str]:
    """Wall-clock seconds, exit status and stderr of one run, its output discarded."""
    started = time.monotonic()
    done = subprocess.run(
        _command(*argv), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV
    )
    return time.monotonic() - started, done.returncode, done.stderr


def interrupted(*argv: str) -> tuple[float, int]:
    """Seconds from Ctrl-C to the exit of a listing that has printed its first line."""
    process = subprocess.Popen(
        _command(*argv), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV
    )
    assert process.stdout is not None
    process.stdout.readline()
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.communicate()
    return time.monotonic() - sent, process.returncode


def peak_of_children_mib() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        board = Path(folder) / "dominoes40.dlx"
        dominoes(40, 40).write(board)
        odd = Path(folder) / "odd.dlx"
        lines = dominoes(41, 40).to_dlx().splitlines()
        lines[0] += " extra"
        lines.append("r40c39 extra")
        odd.write_text("\n".join(lines) + "\n")
        pento = ROOT / "tests" / "data" / "knuth" / "pento6x10.dlx"

        start_up = min(timed("--version")[0] for _ in range(3))
        rows.append(("start-up (excover --version)", f"{start_up:.3f} s"))

        seconds, status, _ = timed("solve", str(board), "--method", "zdd", "--limit", "5")
        cells = ExactCover.read(board)
        listing = dxz.DxzListing(cells)
        for _, _ in zip(listing, range(5), strict=False):
            pass
        rows.append(
            (
                "solve 40x40 dominoes --method zdd --limit 5",
                f"{seconds:.3f} s (exit {status}), {listing.run.nodes:,} search nodes "
                f"for {cells.n_primary} cells",
            )
        )
        for name, argv in (
            ("listing, no solution, --timeout 1", ["solve", str(odd)]),
            ("listing, printing, --timeout 1", ["solve", str(board)]),
            ("count, DXZ (pento6x10), --timeout 1", ["count", str(pento)]),
            ("count, top-down (16 queens), --timeout 1", ["queens", "16", "--count"]),
        ):
            seconds, status, _ = timed(*argv, "--method", "zdd", "--timeout", "1")
            rows.append(
                (name, f"exit {status}, overshoot {seconds - 1 - start_up:+.3f} s past start-up")
            )
        seconds, status = interrupted("solve", str(board), "--method", "zdd")
        rows.append(("Ctrl-C to a listing", f"exit {status} {seconds:.3f} s after the signal"))
        pento = ROOT / "tests" / "data" / "knuth" / "pento6x10.dlx"
        seconds, status, err = timed("count", str(pento), "--method", "zdd", "--max-memory", "64M")
        stop = next((line for line in err.splitlines() if "stopped by" in line), "")
        rows.append(
            (
                "count pento6x10 --method zdd --max-memory 64M",
                f"exit {status} after {seconds:.2f} s, peak {peak_of_children_mib():.0f} MiB "
                f"of all runs so far ({stop.removeprefix('excover: ')})",
            )
        )

    problem = queens(12)
    started = time.perf_counter()
    listed = sum(1 for _ in dxz.solutions(problem))
    streaming = time.perf_counter() - started
    started = time.perf_counter()
    walked = sum(1 for _ in dxz.dxz(problem, dxz.search_manager()))
    built = time.perf_counter() - started
    rows.append(
        (
            "12 queens, all 14,200 solutions",
            f"listing {streaming:.3f} s ({listed}); family built and walked {built:.3f} s "
            f"({walked})",
        )
    )
    print("| run | figures |\n|---|---|")
    for name, figures in rows:
        print(f"| {name} | {figures} |")


if __name__ == "__main__":
    main()
