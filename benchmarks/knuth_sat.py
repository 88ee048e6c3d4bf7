"""Knuth's SAT13 reads excover's clauses in his SAT format and agrees with excover's DLX
route on 50 random tilings.

Each instance is a random board (a ``#`` drawing) and a random set of polyominoes of 2 to
5 cells (``[row, col]`` lists), written as the two files excover reads
(:meth:`Tiling.from_files`), seeded by its number: even instances may use each piece any
number of times on a rectangle with a few holes; odd ones must use each piece exactly
once on a random polyomino board of the pieces' total area, so that many have no tiling.
Reflections are allowed on three instances in four. The tiling's exact cover goes to
``to_cnf`` with an at-most-one encoding taken in turn, is written by ``CNF.to_knuth`` and
given to ``sat13`` on stdin (with ``b<N>`` when a line is longer than SAT13's default
buffer). SAT13's answer (``~``, or the literals of a model) is read back by
``CNF.knuth_model``; a model must decode into a tiling, and the verdict must be the one of
``problem.first(method="search")``. One row per instance, then a summary; exit status 1 on
any disagreement.

SAT13 is the executable ``sat13`` of ``--knuth-dir DIR``, else ``$EXCOVER_KNUTH_DIR``,
else ``~/.cache/excover-bench/knuth``. Without it the script says what is missing and how
to build it, and exits with status 2. To build it: ``sat13.w`` and ``gb_flip.w`` are in
the public repository ascherer/cwebtest; ``ctangle`` (Debian: ``texlive-binaries``; set
``CWEBINPUTS=.`` if it cannot open the files) turns them into C::

    ctangle gb_flip.w && gcc -O3 -c gb_flip.c
    ctangle sat13.w && gcc -O3 -o sat13 sat13.c gb_flip.o -lm

Usage: ``python benchmarks/knuth_sat.py [--instances N] [--knuth-dir DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from excover.sat import CNF
from excover.tiling import Tiling

__all__ = ["main"]

DEFAULT_KNUTH_DIR = Path.home() / ".cache" / "excover-bench" / "knuth"
ENCODINGS = ("pairwise", "seqcounter", "product", "commander", "bitwise")
#: SAT13's default input buffer (``buf_size``): a longer line needs ``b<N>``.
SAT13_BUFFER = 1024

Cell = tuple[int, int]


@dataclass(frozen=True)
class Instance:
    """One tiling: the two files' texts and how the pieces may be used."""

    number: int
    board: str
    pieces: str
    multiplicity: str
    reflections: bool


def polyomino(rng: random.Random, size: int) -> list[Cell]:
    """A random polyomino of ``size`` cells, grown from (0, 0) one neighbour at a time."""
    cells = [(0, 0)]
    while len(cells) < size:
        row, col = rng.choice(cells)
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        if (row + dr, col + dc) not in cells:
            cells.append((row + dr, col + dc))
    return cells


def drawing(cells: list[Cell]) -> str:
    """Cells as a ``#`` board drawing, rows downward."""
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    height = max(r for r, _ in cells) - top + 1
    width = max(c for _, c in cells) - left + 1
    grid = [["."] * width for _ in range(height)]
    for row, col in cells:
        grid[row - top][col - left] = "#"
    return "".join("".join(line) + "\n" for line in grid)


def instance(number: int) -> Instance:
    """The ``number``-th random tiling (the same one on every run)."""
    rng = random.Random(number)
    pieces = [polyomino(rng, rng.randint(2, 5)) for _ in range(rng.randint(1, 3))]
    if number % 2 == 0:
        width, height = rng.randint(3, 6), rng.randint(2, 5)
        cells = [(r, c) for r in range(height) for c in range(width) if rng.random() > 0.1]
        cells = cells or [(0, 0)]
        multiplicity = "any"
    else:
        cells = polyomino(rng, sum(len(piece) for piece in pieces))
        multiplicity = "one"
    text = "".join(
        f"P{k}: {json.dumps([list(cell) for cell in piece])}\n" for k, piece in enumerate(pieces)
    )
    return Instance(number, drawing(cells), text, multiplicity, number % 4 != 3)


def sat13(program: Path, text: str) -> tuple[str, float]:
    """SAT13's answer (its last line on stdout) and its wall-clock seconds."""
    longest = max((len(line) for line in text.splitlines()), default=0)
    args = [str(program)]
    if longest + 2 > SAT13_BUFFER:
        args.append(f"b{longest + 2}")
    started = time.perf_counter()
    done = subprocess.run(args, input=text, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"sat13 failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    return lines[-1], seconds


def run(item: Instance, program: Path, folder: Path, encoding: str) -> tuple[str, bool, bool]:
    """One row of the table, whether SAT13 and DLX agree, and whether DLX found a tiling."""
    board, pieces = folder / f"board{item.number}.txt", folder / f"pieces{item.number}.txt"
    board.write_text(item.board)
    pieces.write_text(item.pieces)
    tiling = Tiling.from_files(
        board, pieces, multiplicity=item.multiplicity, reflections=item.reflections
    )
    problem = tiling.problem
    cnf = problem.to_cnf(encoding)
    text = cnf.to_knuth()
    answer, seconds = sat13(program, text)
    model = CNF.from_knuth(text).knuth_model(answer)
    decodes = model is None or problem.is_solution(cnf.decode(model))
    dlx = problem.first(method="search") is not None
    agree = decodes and (model is not None) == dlx
    size = f"{len(item.board.splitlines()[0])}x{len(item.board.splitlines())}"
    row = (
        f"{item.number:>3} {size:>5} {len(tiling.cells):>5} {len(tiling.tiles):>6} "
        f"{item.multiplicity:>4} {'yes' if item.reflections else 'no':>4} {encoding:>10} "
        f"{cnf.n_vars:>5} {cnf.n_clauses:>7} {'SAT' if model else 'UNSAT':>6} "
        f"{'SAT' if dlx else 'UNSAT':>6} {seconds:>7.3f} {'ok' if agree else 'DIFFER'}"
    )
    return row, agree, dlx


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=50, help="how many (default 50)")
    parser.add_argument("--knuth-dir", type=Path, help="where sat13 is")
    args = parser.parse_args(argv)
    folder = args.knuth_dir or Path(os.environ.get("EXCOVER_KNUTH_DIR", DEFAULT_KNUTH_DIR))
    program = folder / "sat13"
    if not os.access(program, os.X_OK):
        print(
            f"missing: Knuth's SAT13, expected as the executable {program}\n"
            "build it from sat13.w and gb_flip.w (public repository ascherer/cwebtest): "
            "see this script's docstring",
            file=sys.stderr,
        )
        return 2
    print("  # board cells pieces uses refl   encoding  vars clauses  SAT13    DLX sat13 s")
    agreed = satisfiable = 0
    with tempfile.TemporaryDirectory() as temporary:
        for number in range(args.instances):
            item = instance(number)
            encoding = ENCODINGS[number % len(ENCODINGS)]
            row, agree, tiled = run(item, program, Path(temporary), encoding)
            print(row, flush=True)
            agreed += agree
            satisfiable += tiled
    print(
        f"{args.instances} instances, {satisfiable} with a tiling: SAT13 agrees with DLX on "
        f"{agreed}, and each of its models decodes into a tiling"
        if agreed == args.instances
        else f"{args.instances} instances: SAT13 and DLX DIFFER on {args.instances - agreed}"
    )
    return 0 if agreed == args.instances else 1


if __name__ == "__main__":
    sys.exit(main())
