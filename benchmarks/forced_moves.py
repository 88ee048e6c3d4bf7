"""Forced moves against plain MRV on the bit-parallel engine, and against Knuth's DLX1.

For each input, in one process, interleaved round by round, best of ``--repeat`` in CPU
seconds (the problem already read): ``Search(p, engine="bits").count()`` with
``heuristic="mrv"`` and with ``heuristic="forced"``, their nodes, and the ratio of the
times; with ``--knuth-dir DIR`` (a directory holding Knuth's ``dlx1``, built as
``benchmarks/knuth_compare.py`` says), DLX1's run as a process on the same file, its user
CPU seconds, best of the same rounds. Every count must agree.

Inputs: Knuth's files of ``tests/data/knuth`` named by ``--files`` (default: queens12,
pento6x10, scott), the Latin squares of order 5 and 6 with the first row fixed (built
here: 1,344 and 1,128,960 solutions, OEIS A002860(n) / n!), and with ``--alg-lab PATH``
(a checkout or bare git directory of the public repository loiufam/alg-lab, whose data is
not copied here) the Latin-square instances of its ``data/exact_cover_benchmark``
named by ``--latin`` (default: latin7-blk-00001 and latin8-blk-00001; the last takes
40-130 s a run).

    python benchmarks/forced_moves.py [--repeat 1] [--files NAME ...] [--alg-lab PATH]
        [--latin NAME ...] [--knuth-dir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import KNUTH_DATA, require
from _problems import latin_first_row

from excover import ExactCover, Search


def alg_lab(repo: Path, name: str) -> ExactCover:
    """An instance of alg-lab's ``data/exact_cover_benchmark`` (``c``/``p ec``/``s`` lines:
    each ``s`` line an option of numbered primary items)."""
    path = f"data/exact_cover_benchmark/{name}.ec"
    if (repo / path).exists():
        text = (repo / path).read_text()
    else:
        text = subprocess.run(
            ["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    options = [line.split()[1:] for line in text.splitlines() if line.startswith("s ")]
    items = sorted({int(x) for option in options for x in option})
    problem = ExactCover([f"i{i}" for i in items])
    for option in options:
        problem.add_option([f"i{x}" for x in option])
    return problem


def counted(problem: ExactCover, heuristic: str) -> tuple[int, int, float]:
    search = Search(problem, engine="bits", heuristic=heuristic)
    started = time.process_time()
    total = search.count()
    return total, search.stats.nodes, time.process_time() - started


def dlx1(program: Path, problem: ExactCover) -> tuple[int, float]:
    """DLX1's count and its user CPU seconds on ``problem`` written in Knuth's format."""
    with tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False) as file:
        path = Path(file.name)
    problem.write(path)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    with path.open() as stdin:
        run = subprocess.run([str(program), "m0"], stdin=stdin, capture_output=True, text=True)
    seconds = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    os.unlink(path)
    line = next(line for line in run.stderr.splitlines() if line.startswith("Altogether"))
    return int(line.split()[1]), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--files", nargs="*", default=["queens12", "pento6x10", "scott"])
    parser.add_argument("--alg-lab", type=Path)
    parser.add_argument("--latin", nargs="*", default=["latin7-blk-00001", "latin8-blk-00001"])
    parser.add_argument("--knuth-dir", type=Path)
    args = parser.parse_args()
    inputs = {name: ExactCover.read(require(KNUTH_DATA / f"{name}.dlx")) for name in args.files}
    inputs |= {f"latin{n} (first row fixed)": latin_first_row(n) for n in (5, 6)}
    if args.alg_lab is not None:
        inputs |= {name: alg_lab(args.alg_lab, name) for name in args.latin}
    program = None if args.knuth_dir is None else args.knuth_dir / "dlx1"
    header = f"{'input':28} {'solutions':>12} {'mrv nodes':>13} {'forced nodes':>13}"
    header += f" {'mrv s':>8} {'forced s':>8} {'forced/mrv':>10}"
    if program is not None:
        header += f" {'DLX1 s':>8} {'forced/DLX1':>11}"
    print(header)
    for name, problem in inputs.items():
        best: dict[str, float] = {}
        results: dict[str, tuple[int, int]] = {}
        for _ in range(args.repeat):
            for heuristic in ("mrv", "forced"):
                total, nodes, seconds = counted(problem, heuristic)
                results[heuristic] = (total, nodes)
                best[heuristic] = min(best.get(heuristic, seconds), seconds)
            if program is not None:
                total, seconds = dlx1(program, problem)
                results["DLX1"] = (total, 0)
                best["DLX1"] = min(best.get("DLX1", seconds), seconds)
        totals = {total for total, _ in results.values()}
        if len(totals) != 1:
            sys.exit(f"{name}: the counts disagree: {results}")
        row = f"{name:28} {results['mrv'][0]:>12,} {results['mrv'][1]:>13,}"
        row += f" {results['forced'][1]:>13,} {best['mrv']:>8.3f} {best['forced']:>8.3f}"
        row += f" {best['forced'] / best['mrv']:>10.2f}"
        if program is not None:
            row += f" {best['DLX1']:>8.3f} {best['forced'] / best['DLX1']:>11.2f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
