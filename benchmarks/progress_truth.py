"""How true the progress bars' time left is, over every route of a count.

Runs ``excover count FILE --json --progress`` (with the flags of each route: the race of
``--method auto``, one route forced by ``--route``, the search engines of ``--method
search``, the DXZ count of ``--method zdd``, the parts route, a count by subproblems with
``--workers 2``) on fourteen runs of 2-30 seconds each on a quiet machine (queens of 13
to 16, pentomino boxes, Scott's puzzle, dominoes on a 22 x 22 board), reads the JSON
progress events it writes on stderr (the reading of
:class:`excover.parallel.progress.Meter`, every half second), and prints for each run:
its length, the events that showed a time left, the worst factor between that time left
and the truth (the run's end less the event's moment) among the events from 10% of the
run on where the truth is at least :data:`FLOOR` seconds (below, a second's error is no
error a person sees), and whether the last event is the bar at exactly 100% ("no bar"
when the count ended before its first reading). The target is 2x everywhere.
``--quick`` runs one problem of each kind of measure (:data:`QUICK`), ``--only`` the
runs named.

    PYTHONPATH=src python benchmarks/progress_truth.py [--quick | --only RUN...]

Timings depend on the machine's load: the script prints the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KNUTH = HERE.parent / "tests" / "data" / "knuth"
EXAMPLES = HERE.parent / "examples"
#: The truth below which a time left is not judged (seconds).
FLOOR = 1.0
#: The share of a run before which a time left is not judged.
FROM = 0.10


def two_apart(path: Path, out: Path) -> Path:
    """Two copies of the problem in DLX file ``path`` (no colours) with their items
    renamed apart: a problem that falls apart into two parts (the parts route)."""
    lines = [line.split() for line in path.read_text().splitlines()]
    lines = [line for line in lines if line and not line[0].startswith("|")]
    head, options = lines[0], lines[1:]

    def renamed(prefix: str, names: list[str]) -> list[str]:
        return [name if name == "|" else prefix + name for name in names]

    if "|" in head:
        cut = head.index("|")
        items = renamed("a", head[:cut]) + renamed("b", head[:cut]) + ["|"]
        items += renamed("a", head[cut + 1 :]) + renamed("b", head[cut + 1 :])
    else:
        items = renamed("a", head) + renamed("b", head)
    text = [" ".join(items)]
    text += [" ".join(renamed(prefix, option)) for prefix in "ab" for option in options]
    out.write_text("\n".join(text) + "\n")
    return out


def dominoes(side: int, out: Path) -> Path:
    """The domino tilings of a ``side`` x ``side`` board (the frontier count's kind)."""
    cells = [f"c{r}_{c}" for r in range(side) for c in range(side)]
    lines = [" ".join(cells)]
    for r in range(side):
        for c in range(side):
            if c + 1 < side:
                lines.append(f"c{r}_{c} c{r}_{c + 1}")
            if r + 1 < side:
                lines.append(f"c{r}_{c} c{r + 1}_{c}")
    out.write_text("\n".join(lines) + "\n")
    return out


def queens(n: int, out: Path) -> Path:
    """The ``n``-queens problem as a DLX file (no declared symmetry)."""
    from excover.puzzles.queens import queens as build

    build(n).write(out)
    return out


#: The runs for ``--quick``: one of each kind of measure (a search engine's own share,
#: DXZ's, the component count's, a race, subproblems on workers).
QUICK = (
    "queens15 search links",
    "pento6x10 search bits",
    "queens13 route dxz",
    "queens13 route components",
    "pento6x10 auto (race)",
    "queens15 --workers 2",
)


def cases(folder: Path) -> list[tuple[str, Path, list[str]]]:
    """The runs: a name, the file, the flags. Each takes 2-30 s of one core on a quiet
    machine, so that its bar is drawn and judged from 10% of the run on."""
    pento = EXAMPLES / "pento6x10.dlx"
    parts = two_apart(KNUTH / "pento5x12.dlx", folder / "pento5x12-twice.dlx")
    dom22 = dominoes(22, folder / "domino22x22.dlx")
    queens13 = KNUTH / "queens13.dlx"
    queens15, queens16 = queens(15, folder / "queens15.dlx"), queens(16, folder / "queens16.dlx")
    links, bits, cells = (["--method", "search", "--engine", e] for e in ("dlx", "bits", "cells"))
    return [
        ("pento6x10 auto (race)", pento, []),
        ("queens15 auto (race)", queens15, []),
        ("pento6x10 search bits", pento, bits),
        ("queens16 search bits", queens16, bits),
        ("pento6x10 search links", pento, links),
        ("queens15 search links", queens15, links),
        ("queens15 search cells", queens15, cells),
        ("queens13 route dxz", queens13, ["--route", "dxz"]),
        ("scott method zdd (dxz)", KNUTH / "scott.dlx", ["--method", "zdd"]),
        ("queens13 route components", queens13, ["--route", "components"]),
        ("domino22x22 route frontier", dom22, ["--route", "frontier"]),
        ("pento5x12 twice (parts)", parts, []),
        ("pento6x10 --workers 2", pento, ["--workers", "2"]),
        ("queens15 --workers 2", queens15, ["--workers", "2"]),
    ]


def run(path: Path, flags: list[str], cache: str) -> list[dict[str, object]]:
    """The JSON progress events of one count."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    done = subprocess.run(
        [sys.executable, "-m", "excover", "count", str(path), "--json", "--progress", *flags],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    events = []
    for line in done.stderr.splitlines():
        if line.startswith("{"):
            event = json.loads(line)
            if event.get("type") == "progress":
                events.append(event)
    return events


def judge(events: list[dict[str, object]]) -> tuple[float, int, float | None, bool]:
    """The run's length, the events judged, the worst factor among them (None: none
    judged) and whether the bar ended at exactly 100%."""
    if not events:
        return 0.0, 0, None, False
    last = events[-1]
    end = float(last["elapsed"])  # type: ignore[arg-type]
    ended = bool(last["finished"]) and last["fraction"] == 1.0
    worst: float | None = None
    judged = 0
    for event in events[:-1]:
        left, at = event["left"], float(event["elapsed"])  # type: ignore[arg-type]
        truth = end - at
        if left is None or at < FROM * end or truth < FLOOR:
            continue
        judged += 1
        factor = max(float(left), 0.01) / truth  # type: ignore[arg-type]
        factor = max(factor, 1 / factor)
        worst = factor if worst is None else max(worst, factor)
    return end, judged, worst, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"only the runs {', '.join(QUICK)}")
    parser.add_argument("--only", nargs="+", metavar="RUN", help="only the runs named")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'run':30} {'seconds':>8} {'shown':>6} {'worst':>7} {'100%':>6}")
    with tempfile.TemporaryDirectory() as folder:
        runs = cases(Path(folder))
        wanted = QUICK if args.quick else args.only
        for name, path, flags in runs:
            if wanted is not None and name not in wanted:
                continue
            events = run(path, flags, folder)
            end, judged, worst, ended = judge(events)
            shown = "-" if worst is None else f"{worst:.2f}x"
            # no event at all: the count ended before its first reading (no bar is drawn
            # under a second), which says nothing of the bar's truth
            closed = "no bar" if not events else "yes" if ended else "NO"
            print(f"{name:30} {end:8.1f} {judged:6} {shown:>7} {closed:>6}", flush=True)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
