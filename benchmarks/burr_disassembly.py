"""excover's disassembler beside BurrTools' on BurrTools' own puzzles of the cube and
triangular-prism grids.

For each problem of each ``.xmpuzzle`` of github.com/burr-tools/burr-tools (``examples/``
and ``doc_src/``) on the cube or the triangular-prism grid (``Prisgon``) that has pieces,
side by side:

- assemblies and solutions: ``burrTxt -d`` (BurrTools' command-line solver, built by
  ``build-burrtxt.sh`` from the same repository) and ``excover disassemble``;
- levels: the multiset of level strings ``burrTxt -d`` prints and excover's, and the
  levels of the ``<separation>`` trees stored in the file (BurrTools' GUI wrote them,
  possibly with an older version) against excover's;
- time, wall clock and CPU (user and system), each the best of ``--repeat`` runs
  interleaved: ``burrTxt -d`` (assembly and disassembly), ``burrTxt -q`` (assembly
  only), the ``excover disassemble`` command (a fresh interpreter: start-up, reading,
  assembly, disassembly), and in this process excover's assembly and its disassembly
  (complete, and greedy as BurrTools) apart, and its whole run (the file's bytes read,
  the exact cover problem and its symmetries built, the assemblies found and taken
  apart, as ``excover.burr.disassemble_all`` does in a running process);
- the ratios, on CPU time (steadier than wall clock on a shared machine): the command's
  to ``burrTxt -d``'s, the in-process whole run's to ``burrTxt -d``'s, and the
  disassembly's to BurrTools' (``burrTxt -d`` less ``burrTxt -q``; ``-`` where that
  difference is lost in the noise of the two runs).

The load average is printed first and last: the machine may be shared.

    python benchmarks/burr_disassembly.py BURR_TOOLS_DIR BURRTXT [--repeat 3] [--only NAME]

BURR_TOOLS_DIR is a checkout of burr-tools/burr-tools or a bare git directory of it
(its puzzles are read from there, never copied into this repository).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from burrtools_files import puzzle_files

from excover.burr import Assembly, Disassembly, assemblies, disassemble_all
from excover.burr._moves import AXES, Geometry
from excover.burr.search import Disassembler, DisassemblyBudget
from excover.burr.xmpuzzle import BurrPuzzle, parse_xmpuzzle

T = TypeVar("T")


#: BurrTools' disassembly time is ``burrTxt -d`` less ``burrTxt -q``: where it is less than
#: this share of ``-d``'s whole run, the two runs' noise outweighs it (SolidSixPieceBurrs'
#: 8 s assembly), and no ratio to it is printed.
LEAST_DISASSEMBLY_SHARE = 0.05


def dis_ratio(excover_cpu: float, burrtools_dis: float, burrtools_all: float) -> str:
    """excover's disassembly time over BurrTools' (``-d`` less ``-q``), or ``-`` where
    BurrTools' part is lost in the noise of its two runs."""
    if burrtools_dis < LEAST_DISASSEMBLY_SHARE * burrtools_all:
        return "-"
    return f"{excover_cpu / max(burrtools_dis, 0.005):.2f}"


def stored_levels(data: bytes, number: int) -> list[str]:
    """The level strings of the ``<separation>`` trees stored for problem ``number``."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = ET.fromstring(data.decode("utf-8", errors="replace"))
    problems = [p for group in root.findall("problems") for p in group.findall("problem")]
    found = []
    for solution in problems[number].iter("solution"):
        tree = solution.find("separation")
        if tree is not None:
            found.append(_level(tree))
    return found


def _moves(tree: ET.Element) -> int:
    return len(tree.findall("state")) - 1


def _multi(tree: ET.Element) -> bool:
    return _moves(tree) > 1 or any(_multi(sub) for sub in tree.findall("separation"))


def _level(tree: ET.Element) -> str:
    """BurrTools' level text of a stored tree: its moves, then the left part's level,
    then the removed part's, parts of one-move separations left out."""
    parts = {sub.get("type"): sub for sub in tree.findall("separation")}
    text = str(_moves(tree))
    for kind in ("left", "removed"):
        sub = parts.get(kind)
        if sub is not None and _multi(sub):
            text += "." + _level(sub)
    return text


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(argv: list[str], **options: Any) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of a command."""
    cpu, started = _child_cpu(), time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True, **options).stdout
    return time.perf_counter() - started, _child_cpu() - cpu, out


def burrtxt(binary: str, path: str, number: int, disassemble: bool) -> tuple[float, float, str]:
    """``burrTxt -d`` (assembly and disassembly) or ``burrTxt -q`` (assembly only)."""
    return timed_run([binary, "-d" if disassemble else "-q", "-o", str(number), path])


def excover_command(path: str, number: int) -> tuple[float, float, str]:
    """``excover disassemble`` in a fresh interpreter."""
    argv = [sys.executable, "-m", "excover", "disassemble", path, "--problem", str(number)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return timed_run([*argv, "--quiet"], env=env)


def in_process(run: Callable[[], T]) -> tuple[float, float, T]:
    """(wall seconds, CPU seconds, result) of ``run()`` in this process."""
    cpu, started = time.process_time(), time.perf_counter()
    result = run()
    return time.perf_counter() - started, time.process_time() - cpu, result


def assembled(puzzle: BurrPuzzle, number: int) -> list[Assembly]:
    """The assemblies of a problem."""
    return list(assemblies(puzzle, number))


def disassembly(found: list[Assembly], complete: bool) -> list[Disassembly]:
    """The disassemblies of the assemblies, the movement tables built afresh."""
    geometry = Geometry(found[0].grid) if found else Geometry()
    return [Disassembler(a, DisassemblyBudget(), complete, geometry).run() for a in found]


def whole_run(data: bytes, name: str, number: int) -> list[Disassembly]:
    """excover's whole run in this process: the file's bytes parsed, the assemblies
    found and taken apart (complete), as ``excover disassemble`` does after start-up."""
    return list(disassemble_all(parse_xmpuzzle(data, name), number))


#: The runs timed, in the order of the table.
KEYS = ("bt -d", "bt asm", "ex cmd", "ex asm", "ex dis", "ex greedy", "ex total")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("burrtxt")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", action="append", help="the files whose name holds NAME")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in puzzle_files(args.source).items():
            if args.only and not any(part in name for part in args.only):
                continue
            puzzle = parse_xmpuzzle(data, name)
            if puzzle.grid not in AXES:
                continue
            path = str(Path(tmp) / Path(name).name)
            Path(path).write_bytes(data)
            for number, problem in enumerate(puzzle.problems):
                if not problem.parts:
                    continue
                best: dict[str, tuple[float, float]] = {}
                found = assembled(puzzle, number)
                for _ in range(args.repeat):
                    for key, (wall, cpu, _out) in (
                        ("bt -d", burrtxt(args.burrtxt, path, number, True)),
                        ("bt asm", burrtxt(args.burrtxt, path, number, False)),
                        ("ex cmd", excover_command(path, number)),
                        ("ex asm", in_process(partial(assembled, puzzle, number))),
                        ("ex dis", in_process(partial(disassembly, found, True))),
                        ("ex greedy", in_process(partial(disassembly, found, False))),
                        ("ex total", in_process(partial(whole_run, data, name, number))),
                    ):
                        old = best.get(key, (float("inf"), float("inf")))
                        best[key] = (min(old[0], wall), min(old[1], cpu))
                out = burrtxt(args.burrtxt, path, number, True)[2]
                counts = re.search(r"(\d+) assemblies and (\d+) solutions", out)
                assert counts is not None
                bt_levels = Counter(re.findall(r"level: (\S+)", out))
                results = disassembly(found, True)
                greedy = disassembly(found, False)
                agree = [(r.status, r.level) for r in results] == [
                    (r.status, r.level) for r in greedy
                ]
                solved = [r for r in results if r.status == "solved"]
                ex_levels = Counter(r.level for r in solved)
                stored = Counter(stored_levels(data, number))
                bt_dis = best["bt -d"][1] - best["bt asm"][1]
                rows.append(
                    (
                        f"{Path(name).stem}:{number}",
                        f"{counts[1]}/{len(results)}",
                        f"{counts[2]}/{len(solved)}",
                        "same" if bt_levels == ex_levels else "DIFFER",
                        "-" if not stored else "same" if stored <= ex_levels else "DIFFER",
                        sum(r.beyond_greedy for r in solved),
                        "same" if agree else "DIFFER",
                        sum(r.status == "unknown" for r in results),
                        *(f"{best[k][0]:.3f}/{best[k][1]:.3f}" for k in KEYS),
                        f"{best['ex cmd'][1] / max(best['bt -d'][1], 0.005):.1f}",
                        f"{best['ex total'][1] / max(best['bt -d'][1], 0.001):.2f}",
                        dis_ratio(best["ex dis"][1], bt_dis, best["bt -d"][1]),
                        dis_ratio(best["ex greedy"][1], bt_dis, best["bt -d"][1]),
                    )
                )
                if bt_levels != ex_levels:
                    print(f"  {name}:{number}: burrTxt {dict(bt_levels)} excover {dict(ex_levels)}")
                if stored and not stored <= ex_levels:
                    print(f"  {name}:{number}: stored {dict(stored)} excover {dict(ex_levels)}")
    head = (
        "puzzle:problem",
        "assemblies bt/ex",
        "solutions bt/ex",
        "levels",
        "stored",
        "beyond",
        "greedy",
        "unknown",
        *(f"{k} wall/cpu s" for k in KEYS),
        "cmd/bt cpu",
        "total/bt cpu",
        "dis/bt-dis cpu",
        "greedy/bt-dis cpu",
    )
    print(" | ".join(head))
    for row in rows:
        print(" | ".join(str(v) for v in row))
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
