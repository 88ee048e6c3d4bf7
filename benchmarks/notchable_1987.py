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
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from excover.burr import Disassembly, disassemble_all
from excover.burr.designs import design_puzzle
from excover.burr.notchable import (
    assembly_count,
    burnside_count,
    catalog,
    cutler_level,
    first_piece_moves,
    survey_unit,
)
from excover.burr.stored import solved_puzzle
from excover.burr.xmpuzzle import write_xmpuzzle

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


def judged(pieces: tuple[int, ...]) -> list[Disassembly]:
    """The disassemblies of every assembly of a design, by the general route (the
    assemblies of its BurrTools puzzle, taken apart with their movement tables shared)."""
    return list(disassemble_all(design_puzzle(pieces), 0, complete=False))


def _solutions(found: list[Disassembly]) -> list[Disassembly]:
    solved = [r for r in found if r.status == "solved"]
    return sorted(solved, key=lambda r: r.sort_key(), reverse=True)


class Judge:
    """Designs judged by the general route, each once (:func:`judged`): how many
    solutions, and for a unique design its level and moves."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, ...], dict[str, Any]] = {}

    def verdict(self, design: tuple[int, ...]) -> dict[str, Any]:
        """The design's pieces (numbered from 1), its solutions, its best level and moves."""
        if design not in self.seen:
            solutions = _solutions(judged(design))
            best = solutions[0] if solutions else None
            self.seen[design] = {
                "pieces": [k + 1 for k in design],
                "solutions": len(solutions),
                "level": None if best is None else best.level,
                "moves": None if best is None else best.total,
                "cutler_level": None
                if best is None or best.tree is None
                else first_piece_moves(best.tree),
            }
        return self.seen[design]

    def ranked(
        self,
        candidates: dict[tuple[int, ...], list[tuple[str, int]]],
        bound: Callable[[list[tuple[str, int]]], tuple[int, ...]],
        top: int,
    ) -> list[dict[str, Any]]:
        """The unique designs met in the order of ``bound`` (the deepest a design's
        candidates reach), judged until ``top`` are found and the next design's bound
        falls below the last one's first number."""
        found: list[dict[str, Any]] = []
        floor = 0  # the first number of the bound of the last unique design found
        for design, deep in sorted(candidates.items(), key=lambda kv: bound(kv[1]), reverse=True):
            if len(found) >= top and bound(deep)[0] < floor:
                break
            verdict = self.verdict(design)
            if verdict["solutions"] == 1:
                found.append(verdict)
                floor = bound(deep)[0]
        return found


def write_design(pieces: tuple[int, ...], path: Path) -> float:
    """The design's puzzle, solved: its assemblies counted, its solutions stored with
    their separations (BurrTools opens it and plays them). Returns the seconds its
    assemblies took to find and take apart."""
    started = time.perf_counter()
    results = judged(pieces)
    seconds = time.perf_counter() - started
    puzzle = design_puzzle(pieces)
    solved = solved_puzzle(puzzle, 0, dict(enumerate(results)), len(results), complete=True)
    write_xmpuzzle(solved, path)
    return seconds


def check_with_burrtxt(binary: str, path: Path, design: dict[str, Any]) -> float:
    """``burrTxt -d`` on a design's file: one solution, of the same level (a SystemExit
    says where it differs). Returns its seconds (the solver's whole run)."""
    from burr_differential import burrtxt

    theirs = burrtxt(binary, str(path), 600.0)
    if theirs.solutions != 1 or list(theirs.levels) != [design["level"]]:
        raise SystemExit(
            f"{path.name}: burrTxt finds {theirs.solutions} solutions, levels "
            f"{dict(theirs.levels)}; excover 1 solution, level {design['level']}"
        )
    design["burrtxt"] = f"{theirs.assemblies} assemblies, 1 solution, level {design['level']}"
    return theirs.seconds or 0.0


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
    print(f"classes: {classes:,} (Burnside over {raw:,} assemblies: {by_burnside:,})")
    print(f"solutions: {sum(levels.values()):,}; by first number of the level: {dict(firsts)}")
    started = time.process_time()
    judge = Judge()
    by_level = judge.ranked(
        candidates, lambda found: max(_level_key(lv) for lv, _ in found), args.top
    )
    by_moves = judge.ranked(candidates, lambda found: (max(t for _, t in found),), args.top)
    deepest = [
        judge.verdict(design)
        for design, found in candidates.items()
        if max(_level_key(lv)[0] for lv, _ in found) == highest
    ]
    # Cutler's level (the moves until a single piece is out) of every candidate class
    cutler: Counter[int] = Counter()
    cutler_deepest: list[dict[str, Any]] = []
    for entry in done.values():
        for row, level, _ in entry["candidates"]:
            moves = cutler_level(np.array(row), cat)
            if moves is None:
                continue
            cutler[moves] += 1
            cutler_deepest.append({"row": row, "class_level": level, "cutler_level": moves})
    top_cutler = max(cutler)
    cutler_deepest = [d for d in cutler_deepest if d["cutler_level"] == top_cutler]
    for d in cutler_deepest:
        d["design"] = judge.verdict(cat.design_key(np.array(d["row"])))
    by_level.sort(key=lambda d: (_level_key(d["level"]), d["moves"]), reverse=True)
    by_moves.sort(key=lambda d: d["moves"], reverse=True)
    for d in cutler_deepest:
        d["assemblies_at_that_level"] = sum(
            r.tree is not None and first_piece_moves(r.tree) == top_cutler
            for r in judged(tuple(k - 1 for k in d["design"]["pieces"]))
        )
    folder = args.summary.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    speed = {"excover_seconds": 0.0, "burrtxt_seconds": 0.0, "designs": 0}
    for name, designs in (("level", by_level), ("moves", by_moves)):
        for rank, top in enumerate(designs[: args.top], 1):
            path = folder / f"unique-by-{name}-{rank:02d}.xmpuzzle"
            ours = write_design(tuple(k - 1 for k in top["pieces"]), path)
            if args.burrtxt:
                speed["burrtxt_seconds"] += check_with_burrtxt(args.burrtxt, path, top)
                speed["excover_seconds"] += ours
                speed["designs"] += 1
    top_unique = by_level[0]["level"].split(".")[0] if by_level else None
    summary = {
        "assemblies": classes,
        "assemblies_by_burnside": by_burnside,
        "assemblies_before_symmetry": raw,
        "solutions": sum(levels.values()),
        "levels_first_number": {str(k): firsts[k] for k in sorted(firsts)},
        "holes_of_solutions": {str(k): holes[k] for k in sorted(holes)},
        "highest_level": highest,
        "highest_level_classes": firsts[highest],
        "highest_level_designs": deepest,
        "cutler_levels_of_candidates": {str(k): cutler[k] for k in sorted(cutler)},
        "highest_cutler_level": top_cutler,
        "highest_cutler_level_classes": cutler_deepest,
        "highest_unique_level": _level_key(by_level[0]["level"])[0] if by_level else None,
        "unique_designs_found": len(by_level),
        "unique_designs_by_level": dict(Counter(d["level"] for d in by_level)),
        "unique_designs_at_highest_unique_level": [
            d for d in by_level if d["level"].split(".")[0] == top_unique
        ],
        "unique_designs_top": by_level[: args.top],
        "most_moves_unique": by_moves[: args.top],
        "designs_judged": len(judge.seen),
        "cpu_seconds": round(
            sum(entry["cpu_seconds"] for entry in done.values()) + time.process_time() - started,
            1,
        ),
        "complete": len(done) == len(cat.units()),
        "cutler_1987": CUTLER,
        "speed_against_burrtxt": {
            **{k: round(v, 2) for k, v in speed.items()},
            "load": [round(v, 2) for v in os.getloadavg()],
        },
    }
    args.summary.parent.mkdir(parents=True, exist_ok=True)
    args.summary.write_text(json.dumps(summary, indent=1) + "\n")
    shown = {
        "unique_designs_at_highest_unique_level",
        "unique_designs_top",
        "most_moves_unique",
        "highest_level_designs",
        "highest_cutler_level_classes",
    }
    print(json.dumps({k: v for k, v in summary.items() if k not in shown}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--summary", type=Path, default=SUMMARY)
    parser.add_argument("--top", type=int, default=20, help="unique designs kept and written")
    parser.add_argument("--max-states", type=int, default=2_000_000)
    parser.add_argument("--keep-level", type=int, default=5)
    parser.add_argument("--keep-total", type=int, default=20)
    parser.add_argument("--burrtxt", help="BurrTools' burrTxt: check every design written")
    parser.add_argument(
        "--report-only", action="store_true", help="summarise the ledger as it is, survey nothing"
    )
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    done = read_ledger(args.ledger) if args.report_only else survey(args)
    summarise(done, args)


if __name__ == "__main__":
    main()
