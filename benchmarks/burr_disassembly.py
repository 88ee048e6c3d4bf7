"""excover's disassembler beside BurrTools' on BurrTools' own cube-grid puzzles.

For each problem of each cube-grid ``.xmpuzzle`` of github.com/burr-tools/burr-tools
(``examples/`` and ``doc_src/``) that has pieces, side by side:

- assemblies and solutions: ``burrTxt -d`` (BurrTools' command-line solver, built by
  ``build-burrtxt.sh`` from the same repository) and ``excover disassemble``;
- levels: the multiset of level strings ``burrTxt -d`` prints and excover's, and the
  levels of the ``<separation>`` trees stored in the file (BurrTools' GUI wrote them,
  possibly with an older version) against excover's;
- time, best of ``--repeat`` runs interleaved: ``burrTxt -d`` (assembly and
  disassembly), ``burrTxt`` alone (assembly only), the ``excover disassemble`` command
  (a fresh interpreter: start-up, reading, assembly, disassembly), and in this process
  excover's assembly and disassembly apart (complete, and greedy as BurrTools).

The load average is printed first: the machine may be shared.

    python benchmarks/burr_disassembly.py BURR_TOOLS_DIR BURRTXT [--repeat 3]

BURR_TOOLS_DIR is a checkout of burr-tools/burr-tools or a bare git directory of it
(its puzzles are read from there, never copied into this repository).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from burrtools_files import puzzle_files

from excover.burr import assemblies, disassemble_all
from excover.formats.burrtools import parse_xmpuzzle


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


def burrtxt(binary: str, path: str, number: int, disassemble: bool) -> tuple[float, str]:
    started = time.perf_counter()
    argv = [binary, *(["-d"] if disassemble else ["-q"]), "-o", str(number), path]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - started, out


def excover_command(path: str, number: int) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "excover", "disassemble", path, "--problem", str(number), "--quiet"],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    return time.perf_counter() - started


def in_process(data: bytes, number: int, complete: bool) -> tuple[float, float, list]:
    """(assembly seconds, disassembly seconds, the disassemblies)."""
    puzzle = parse_xmpuzzle(data)
    started = time.perf_counter()
    list(assemblies(puzzle, number))
    assembled = time.perf_counter() - started
    started = time.perf_counter()
    results = list(disassemble_all(puzzle, number, complete=complete))
    total = time.perf_counter() - started
    return assembled, total - assembled, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("burrtxt")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in puzzle_files(args.source).items():
            puzzle = parse_xmpuzzle(data, name)
            if puzzle.grid != 0:
                continue
            path = str(Path(tmp) / Path(name).name)
            Path(path).write_bytes(data)
            for number, problem in enumerate(puzzle.problems):
                if not problem.parts:
                    continue
                best: dict[str, float] = {}
                for _ in range(args.repeat):
                    for key, seconds in (
                        ("bt -d", burrtxt(args.burrtxt, path, number, True)[0]),
                        ("bt asm", burrtxt(args.burrtxt, path, number, False)[0]),
                        ("ex cmd", excover_command(path, number)),
                    ):
                        best[key] = min(best.get(key, float("inf")), seconds)
                _, out = burrtxt(args.burrtxt, path, number, True)
                counts = re.search(r"(\d+) assemblies and (\d+) solutions", out)
                assert counts is not None
                bt_levels = Counter(re.findall(r"level: (\S+)", out))
                asm, dis, results = in_process(data, number, True)
                _, g_dis, greedy = in_process(data, number, False)
                agree = [(r.status, r.level) for r in results] == [
                    (r.status, r.level) for r in greedy
                ]
                solved = [r for r in results if r.status == "solved"]
                ex_levels = Counter(r.level for r in solved)
                stored = Counter(stored_levels(data, number))
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
                        best["bt -d"],
                        best["bt asm"],
                        best["ex cmd"],
                        asm,
                        dis,
                        g_dis,
                        best["ex cmd"] / best["bt -d"],
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
        "unknown",
        "bt -d s",
        "bt asm s",
        "ex cmd s",
        "ex asm s",
        "ex dis s",
        "ex greedy dis s",
        "cmd/bt",
    )
    print(" | ".join(head))
    for row in rows:
        print(" | ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row))
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
