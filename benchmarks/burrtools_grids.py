"""BurrTools' example puzzles on its four other grids (triangular prisms, spheres,
rhombic dodecahedra, tetrahedra-octahedra): excover's count up to BurrTools' symmetries
beside the count stored in the file and beside BurrTools' own solver, timed side by side.

For every problem of every ``.xmpuzzle`` of github.com/burr-tools/burr-tools
(``examples/`` and ``doc_src/``) whose grid is not the cube's: the stored number of
assemblies, excover's (``ExactCover.from_burrtools(puzzle, n).count(up_to_symmetry=True)``,
reading and building included, in a fresh process), and with ``--burrtxt PATH``
burrTxt's (``burrTxt -q -o N``). The two are run interleaved, each the best of
``--repeat`` runs (3), and the load average is printed: the machine may be shared. The
last column is the ratio of the two times.

excover runs with compiled bytecode, as an installed copy does: the runs write and read it
in a temporary ``PYTHONPYCACHEPREFIX`` (never in the repository), even when the
environment sets ``PYTHONDONTWRITEBYTECODE``, and a first untimed run fills it. Beside
the problems, ``python -c "import numpy"`` is timed the same way: the least a fresh
process of excover takes, where burrTxt takes hundredths of a second.

Target (issue 57): every stored count matched; each count within 2x of burrTxt's time.

    python benchmarks/burrtools_grids.py BURR_TOOLS_DIR [--burrtxt PATH] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from burrtools_files import burrtxt_count, puzzle_files

from excover.formats.burrtools import parse_xmpuzzle

COUNT = (
    "import sys; from excover import ExactCover; "
    "from excover.formats.burrtools import read_xmpuzzle; "
    "p = read_xmpuzzle(sys.argv[1]); "
    "print(ExactCover.from_burrtools(p, int(sys.argv[2])).count(up_to_symmetry=True))"
)


def ours(env: dict[str, str], path: str, number: int) -> str:
    """excover's count, in a fresh process (as the command line would run it)."""
    done = subprocess.run(
        [sys.executable, "-c", COUNT, path, str(number)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    return done.stdout.strip() or "error: " + done.stderr.strip().splitlines()[-1]


def bare(env: dict[str, str]) -> str:
    """A fresh process that imports numpy and stops."""
    subprocess.run([sys.executable, "-c", "import numpy"], check=True, env=env)
    return "-"


def timed(run: Callable[..., str], *arguments: object) -> tuple[str, float]:
    """The result of ``run(*arguments)`` and its wall-clock time."""
    started = time.perf_counter()
    result = run(*arguments)
    return result, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, help="burr-tools checkout or bare git dir")
    parser.add_argument("--burrtxt", help="BurrTools' burrTxt binary")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the best kept")
    args = parser.parse_args()
    if args.source is None or not args.source.exists():
        print("missing: a copy of github.com/burr-tools/burr-tools", file=sys.stderr)
        return 2
    print(f"load average: {os.getloadavg()}")
    header = ["file", "problem", "grid", "stored", "ours", "burrTxt"]
    header += ["ours (s)", "burrTxt (s)", "ratio"]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        seconds = min(timed(bare, env)[1] for _ in range(args.repeat))
        rows.append(["python -c 'import numpy'", *"-----", f"{seconds:.2f}", "-", "-"])
        for name, data in puzzle_files(args.source).items():
            puzzle = parse_xmpuzzle(data, name)
            if puzzle.grid == 0:
                continue
            path = Path(folder) / Path(name).name
            path.write_bytes(data)
            for number, problem in enumerate(puzzle.problems):
                ours(env, str(path), number)  # untimed: compiles what it imports
                best = {"ours": float("inf"), "burrTxt": float("inf")}
                counts = {"ours": "-", "burrTxt": "-"}
                for _ in range(args.repeat):
                    counts["ours"], seconds = timed(ours, env, str(path), number)
                    best["ours"] = min(best["ours"], seconds)
                    if args.burrtxt:
                        burr = timed(burrtxt_count, args.burrtxt, data, number)
                        counts["burrTxt"], seconds = burr
                        best["burrTxt"] = min(best["burrTxt"], seconds)
                stored = str(problem.assemblies) if problem.state == 2 else "-"
                rows.append(
                    [
                        Path(name).name,
                        str(number),
                        str(puzzle.grid),
                        stored,
                        counts["ours"],
                        counts["burrTxt"],
                        f"{best['ours']:.2f}",
                        f"{best['burrTxt']:.2f}" if args.burrtxt else "-",
                        f"{best['ours'] / best['burrTxt']:.1f}" if args.burrtxt else "-",
                    ]
                )
                print("  ".join(rows[-1]), file=sys.stderr, flush=True)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"load average: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
