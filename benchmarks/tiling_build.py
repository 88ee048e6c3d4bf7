"""Time to reduce tiling problems to exact cover, and end-to-end tiling counts.

Run ``python benchmarks/tiling_build.py [--quick]``. It prints:

1. **Build**: the 100x100 board with the 12 pentominoes (all isometries, any number of
   each) reduced to exact cover, in seconds, and as a ratio against storing the same
   options one ``add_option`` call each (the path the reduction took before the bulk
   ``add_options``), measured in the same process.
2. **Knuth's pentomino files**: each count of ``tests/data/knuth/MANIFEST.md``
   obtained end to end by the tiling library (build, then count; the "xq" and "pfix"
   files, whose pieces are restricted to break the board's symmetry, against our exact
   count up to symmetry), next to the time to read and count Knuth's own ``.dlx`` file in
   the same process. ``--quick`` keeps the files DLX1 counts in under a second.
3. **combine's harder shapes** (``tests/data/combine/INDEX.md``), skipped with ``--quick``:
   the 5 x n strips with each pentomino at most once for n = 9..12 (OEIS A246902), the
   fifteen 8x8 boards of penta.cmb, the hooks of a 6x6 and an 8x8 square on the 10x10
   square (522752), the hexominoes' hardest board (``hexa_board_p1``) and the five
   pentacube boards, solved (60 s at most each).
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from _data import COMBINE_DATA, KNUTH_DATA

from excover import ExactCover, LimitReached
from excover.tiling import Pattern, Pattern3, Tile, Tiling, pentominoes, tiles

__all__ = ["main"]

#: The product side's reference shapes, beside the repository.
SHARED = COMBINE_DATA


T = TypeVar("T")


def timed(work: Callable[[], T]) -> tuple[T, float]:
    """The result of ``work()`` and the seconds it took."""
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


def build() -> None:
    """The 100x100 board: the bulk build against one ``add_option`` call per option."""
    board = Pattern.constant(100, 100)
    pieces = tiles(pentominoes(), multiplicity="any")
    Tiling(Pattern.constant(10, 10), pieces)  # warm up: imports, first numpy calls
    builds = [timed(partial(Tiling, board, pieces)) for _ in range(3)]
    tiling, bulk = min(builds, key=lambda run: run[1])  # the least disturbed of three
    problem = tiling.problem
    rows = [problem.option_items(option) for option in range(problem.n_options)]
    slow = ExactCover(problem.primary_items, problem.secondary_items)
    _, reference = timed(partial(list, map(slow.add_option, rows)))
    assert slow == problem
    print(
        f"build 100x100, 12 pentominoes (any, all isometries): {problem.n_options} options "
        f"in {bulk:.3f} s; storing them one add_option call each takes {reference:.3f} s "
        f"({reference / bulk:.1f}x the whole bulk build)"
    )


def manifest() -> dict[str, tuple[int, bool]]:
    """Knuth's manifest by file name: the solution count, and whether DLX1 took a second
    or more."""
    text = (KNUTH_DATA / "MANIFEST.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| (\S+\.dlx)[^|]*\| ([\d,]+) \|[^|]*\|[^|]*\| <?([\d.]+)[^|]*\|$", text, re.MULTILINE
    )
    return {
        name: (int(count.replace(",", "")), float(seconds) >= 1) for name, count, seconds in rows
    }


def knuth_files(quick: bool) -> None:
    """Every pentomino count of the manifest, end to end, beside Knuth's file."""
    figures = manifest()
    scott = Pattern.read(SHARED / "scott_board.txt")
    cases: list[tuple[str, Pattern, bool]] = [
        ("pento3x20.dlx", Pattern.constant(20, 3), False),
        ("pento4x15.dlx", Pattern.constant(15, 4), False),
        ("pento5x12.dlx", Pattern.constant(12, 5), False),
        ("pento6x10.dlx", Pattern.constant(10, 6), False),
        ("pento6x10-xq.dlx", Pattern.constant(10, 6), True),
        ("scott.dlx", scott, False),
        ("scott-pfix.dlx", scott, True),
    ]
    for name, board, up_to_symmetry in cases:
        expected, slow = figures[name]
        if quick and slow:
            continue
        count, ours = timed(partial(count_pentominoes, board, up_to_symmetry))
        theirs, reference = timed(partial(count_file, name))
        verdict = "ok" if count == expected == theirs else f"MISMATCH (expected {expected})"
        how = "up to symmetry" if up_to_symmetry else "tilings"
        print(
            f"{name}: {count} {how} in {ours:.2f} s (built and counted); Knuth's file: "
            f"{theirs} in {reference:.2f} s; ratio {ours / reference:.2f}; {verdict}"
        )


def count_pentominoes(board: Pattern, up_to_symmetry: bool) -> int:
    """Build the tiling of ``board`` with the 12 pentominoes, each once, and count."""
    tiling = Tiling(board, tiles(pentominoes()))
    return tiling.count(method="search", up_to_symmetry=up_to_symmetry)


def count_file(name: str) -> int:
    """Read one of Knuth's files and count its solutions."""
    return ExactCover.read(KNUTH_DATA / name).count(method="search")


def hook(k: int) -> Pattern:
    """An L of 2k - 1 cells: the k-th layer of a square grown from a corner."""
    return Pattern.from_cells([(i, k - 1) for i in range(k)] + [(0, j) for j in range(k - 1)])


def solid(name: str) -> Pattern3:
    """A 3D board of the shared benchmarks: blocks ``= layerK``, bottom first."""
    text = (SHARED / name).read_text(encoding="utf-8")
    return Pattern3.from_layers([block.partition("\n")[2] for block in text.split("= ")[1:]])


def pieces(name: str, three_d: bool) -> dict[str, Pattern | Pattern3]:
    """The named pieces of a multi-shape file (3D pieces as their layers)."""
    layers: dict[str, list[str]] = {}
    text = (SHARED / name).read_text(encoding="utf-8")
    for block in text.split("= ")[1:]:
        header, _, drawing = block.partition("\n")
        layers.setdefault(header.split()[0], []).append(drawing)
    if three_d:
        return {key: Pattern3.from_layers(value) for key, value in layers.items()}
    return {key: Pattern.from_ascii(value[0]) for key, value in layers.items()}


def hard_shapes() -> None:
    """combine's larger problems: counts against its figures, boards solved."""
    a246902 = {9: 23608, 10: 27804, 11: 16412, 12: 4040}
    for n, expected in a246902.items():
        strip = Tiling(Pattern.constant(n, 5), tiles(pentominoes(), "maybe"))
        count, seconds = timed(strip.count)
        print(f"5x{n}, pentominoes at most once: {count} (OEIS {expected}) in {seconds:.2f} s")
    index = (SHARED / "INDEX.md").read_text(encoding="utf-8")
    line = next(row for row in index.splitlines() if row.startswith("| penta_board_p1..p15"))
    for board_name, expected in re.findall(r"\b(p\d+) (\d+)", line):
        board = Pattern.read(SHARED / f"penta_board_{board_name}.txt")
        count, seconds = timed(Tiling(board, tiles(pentominoes())).count)
        print(f"penta.cmb {board_name}: {count} (combine {expected}) in {seconds:.2f} s")
    hooks = [Tile(hook(k), f"a{k}") for k in range(1, 7)] + [
        Tile(hook(k), f"b{k}") for k in range(1, 9)
    ]
    count, seconds = timed(Tiling(Pattern.constant(10, 10), hooks).count)
    print(f"pyth 6-8-10 hooks on 10x10: {count} (combine 522752) in {seconds:.2f} s")
    merged, seconds = timed(Tiling(Pattern.constant(10, 10), hooks, interchangeable=True).count)
    print(f"  equal hooks interchangeable: {merged}, times 2**6: {merged * 64}, in {seconds:.2f} s")
    hexominoes = pieces("pieces_hexominoes.txt", three_d=False)
    board = Pattern.read(SHARED / "hexa_board_p1.txt")
    chosen = [Tile(p, k) for k, p in hexominoes.items() if k != "h11"]
    found, seconds = timed(Tiling(board, chosen).first)
    print(f"hexa_board_p1, 34 hexominoes: solved={found is not None} in {seconds:.2f} s")
    cubes = pieces("pieces_pentacubes_3d.txt", three_d=True)
    for name in ("one", "two", "three", "four", "five"):
        board3 = solid(f"pentacubes_board_{name}_cube{'' if name == 'one' else 's'}_3d.txt")
        tiling = Tiling(board3, tiles(cubes, "maybe", "rotations"))
        try:
            solution, seconds = timed(partial(tiling.first, timeout=60))
            print(f"pentacubes, {name} cube(s): solved={solution is not None} in {seconds:.2f} s")
        except LimitReached as stop:
            print(f"pentacubes, {name} cube(s): no tiling found in 60 s ({stop.stats.nodes} nodes)")


def main() -> None:
    """Run the benchmark sections chosen on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the fast cases")
    args = parser.parse_args()
    build()
    knuth_files(args.quick)
    if not args.quick:
        hard_shapes()


if __name__ == "__main__":
    main()
