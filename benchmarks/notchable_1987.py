"""Bill Cutler's 1987 survey again: every holey six-piece burr of notchable pieces.

Every assembly of six of Cutler's 59 notchable pieces into the six-piece burr, the
notchable voxels free to stay empty, once up to the burr's 24 symmetries
(:mod:`excover.burr.notchable`), taken apart as BurrTools does; then the designs (the
multisets of six pieces, a set and its mirror image one design) whose solutions are
deepest, each judged by a plain count: its own puzzle (exactly its six pieces) assembled
and disassembled by :func:`excover.burr.assemblies` and :func:`excover.burr.disassemble`,
the general route, independent of the survey's enumeration.

Cutler reported 13,354,991 essentially different assemblies, the highest level 10 (two
assemblies, neither the only solution of its pieces) and 5 the highest level of a burr
whose solution is unique.

The survey is cut into units (the masks of the first two sticks of a class's smallest
member); each unit done is a line of the ledger (JSON lines), so that a run stopped
(Ctrl-C, a machine that goes away) goes on where it stopped when run again with the same
ledger. When every unit is done the summary is written (``--summary``), with the top
designs as ``.xmpuzzle`` files beside it, each with its solution and separation.

    nice python benchmarks/notchable_1987.py [--workers 2]
        [--ledger benchmarks/data/designs/notchable-1987/ledger.jsonl]
        [--summary benchmarks/data/designs/notchable-1987.json] [--top 20]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import Any

from excover.burr import Disassembly, assemblies, disassemble
from excover.burr.notchable import (
    assembly_count,
    burnside_count,
    catalog,
    survey_unit,
)
from excover.burr.sixpiece import NOTCHABLE, SHAPE, notchable_pieces
from excover.burr.stored import solved_puzzle
from excover.formats.burrtools import Part, Problem, Puzzle, Shape, write_xmpuzzle

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "designs"
LEDGER = DATA / "notchable-1987" / "ledger.jsonl"
SUMMARY = DATA / "notchable-1987.json"
#: Cutler's figures, as his account of the 1987 survey gives them.
CUTLER = {"assemblies": 13_354_991, "highest_level": 10, "highest_unique_level": 5}


def read_ledger(path: Path) -> dict[tuple[int, int], dict[str, Any]]:
    """The units already done (a last line cut short by a kill is left out)."""
    done: dict[tuple[int, int], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            done[(entry["unit"][0], entry["unit"][1])] = entry
    return done


def _work(unit: tuple[int, int], settings: dict[str, int]) -> dict[str, Any]:
    """A unit surveyed in a worker process (low priority), as a ledger entry."""
    return asdict(
        survey_unit(
            unit[0],
            unit[1],
            max_states=settings["max_states"],
            keep_level=settings["keep_level"],
            keep_total=settings["keep_total"],
        )
    )


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(5)


def survey(args: argparse.Namespace) -> dict[tuple[int, int], dict[str, Any]]:
    """Every unit not in the ledger surveyed on ``args.workers`` processes, each
    appended to the ledger as it ends."""
    units = catalog().units()
    done = read_ledger(args.ledger)
    todo = [unit for unit in units if unit not in done]
    total = sum(entry["classes"] for entry in done.values())
    print(f"{len(units)} units, {len(done)} in the ledger ({total:,} classes), {len(todo)} to go")
    settings = {
        "max_states": args.max_states,
        "keep_level": args.keep_level,
        "keep_total": args.keep_total,
    }
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with (
        args.ledger.open("a") as ledger,
        ProcessPoolExecutor(args.workers, initializer=_ignore_interrupt) as pool,
    ):
        pending: dict[Future[dict[str, Any]], tuple[int, int]] = {}
        queue = iter(todo)
        try:
            for unit in _take(queue, 2 * args.workers):
                pending[pool.submit(_work, unit, settings)] = unit
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    del pending[future]
                    entry = future.result()
                    ledger.write(json.dumps(entry, separators=(",", ":")) + "\n")
                    ledger.flush()
                    os.fsync(ledger.fileno())
                    done[(entry["unit"][0], entry["unit"][1])] = entry
                    total += entry["classes"]
                    for unit in _take(queue, 1):
                        pending[pool.submit(_work, unit, settings)] = unit
                spent = time.monotonic() - started
                print(
                    f"\r{len(done)}/{len(units)} units, {total:,} classes, {spent:.0f} s",
                    end="",
                    flush=True,
                )
        except KeyboardInterrupt:
            for future in pending:
                future.cancel()
            print(f"\nstopped: {len(done)} units in {args.ledger}; run again to go on")
            raise SystemExit(130) from None
    print()
    return done


def _take(queue: Iterator[tuple[int, int]], count: int) -> list[tuple[int, int]]:
    return [unit for _, unit in zip(range(count), queue, strict=False)]


def _level_key(level: str) -> tuple[int, ...]:
    return tuple(int(x) for x in level.split("."))


def design_puzzle(pieces: tuple[int, ...], name: str = "burr") -> Puzzle:
    """The puzzle of one design: exactly its six pieces (copies counted), the burr with
    its notchable voxels free to stay empty."""
    every = notchable_pieces()
    kinds = sorted(Counter(pieces).items())
    shapes = [Shape.from_voxels(every[k], name=f"piece {k + 1}") for k, _ in kinds]
    shapes.append(Shape.from_voxels(SHAPE - NOTCHABLE, NOTCHABLE, name=name))
    parts = tuple(Part(i, count, count) for i, (_, count) in enumerate(kinds))
    return Puzzle(tuple(shapes), (Problem(parts, len(kinds)),))


def judged(pieces: tuple[int, ...]) -> list[Disassembly]:
    """The disassemblies of every assembly of a design, by the general route."""
    return [disassemble(a, complete=False) for a in assemblies(design_puzzle(pieces))]


def _solutions(found: list[Disassembly]) -> list[Disassembly]:
    solved = [r for r in found if r.status == "solved"]
    return sorted(solved, key=lambda r: r.sort_key(), reverse=True)


def summarise(done: dict[tuple[int, int], dict[str, Any]], args: argparse.Namespace) -> None:
    """The figures of the whole survey, the designs judged, the summary and the files."""
    cat = catalog()
    raw = assembly_count(cat)
    classes = sum(entry["classes"] for entry in done.values())
    by_burnside = burnside_count(raw, cat)
    levels: Counter[str] = Counter()
    holes: Counter[int] = Counter()
    for entry in done.values():
        levels.update(entry["levels"])
        holes.update({int(h): n for h, n in entry["holes"].items()})
    firsts: Counter[int] = Counter()
    for level, n in levels.items():
        firsts[_level_key(level)[0]] += n
    highest = max(firsts)
    candidates: dict[tuple[int, ...], list[tuple[str, int]]] = {}
    for entry in done.values():
        for row, level, total in entry["candidates"]:
            candidates.setdefault(cat.design_key(row), []).append((level, total))
    ranked = sorted(
        candidates.items(), key=lambda kv: max(_level_key(lv) for lv, _ in kv[1]), reverse=True
    )
    print(f"classes: {classes:,} (Burnside over {raw:,} assemblies: {by_burnside:,})")
    print(f"solutions: {sum(levels.values()):,}; by first number of the level: {dict(firsts)}")
    unique: list[dict[str, Any]] = []
    judged_designs = 0
    started = time.process_time()
    for design, found in ranked:
        best = max(_level_key(lv) for lv, _ in found)
        if unique and best[0] < unique[0]["level_key"][0] and len(unique) >= args.top:
            break
        solutions = _solutions(judged(design))
        judged_designs += 1
        if len(solutions) == 1:
            level = solutions[0].level or ""
            unique.append(
                {
                    "pieces": [k + 1 for k in design],
                    "level": level,
                    "level_key": _level_key(level),
                    "moves": solutions[0].total,
                }
            )
    unique.sort(key=lambda d: (d["level_key"], d["moves"]), reverse=True)
    by_moves = sorted(unique, key=lambda d: d["moves"], reverse=True)
    summary = {
        "assemblies": classes,
        "assemblies_by_burnside": by_burnside,
        "assemblies_before_symmetry": raw,
        "solutions": sum(levels.values()),
        "levels_first_number": {str(k): firsts[k] for k in sorted(firsts)},
        "holes_of_solutions": {str(k): holes[k] for k in sorted(holes)},
        "highest_level": highest,
        "highest_level_classes": firsts[highest],
        "highest_unique_level": unique[0]["level_key"][0] if unique else None,
        "unique_designs_top": [{k: v for k, v in d.items() if k != "level_key"} for d in unique],
        "most_moves_unique": by_moves[0] if by_moves else None,
        "designs_judged": judged_designs,
        "cpu_seconds": round(
            sum(entry["cpu_seconds"] for entry in done.values()) + time.process_time() - started,
            1,
        ),
        "complete": len(done) == len(cat.units()),
        "cutler_1987": CUTLER,
    }
    args.summary.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "unique_designs_top"}, indent=1))
    folder = args.summary.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    for rank, top in enumerate(unique[: args.top], 1):
        chosen = tuple(k - 1 for k in top["pieces"])
        puzzle = design_puzzle(chosen, name=f"level {top['level']}")
        results = judged(chosen)
        solved = solved_puzzle(puzzle, 0, dict(enumerate(results)), len(results), complete=True)
        write_xmpuzzle(solved, folder / f"unique-{rank:02d}-level-{top['level']}.xmpuzzle")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--summary", type=Path, default=SUMMARY)
    parser.add_argument("--top", type=int, default=20, help="unique designs kept and written")
    parser.add_argument("--max-states", type=int, default=2_000_000)
    parser.add_argument("--keep-level", type=int, default=5)
    parser.add_argument("--keep-total", type=int, default=20)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    done = survey(args)
    summarise(done, args)


if __name__ == "__main__":
    main()
