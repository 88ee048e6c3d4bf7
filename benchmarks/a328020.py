"""A328020(n) by Burnside's lemma, each part resumable: the long run behind a new term.

A328020(n) (the n x n square tiled by free n-ominoes, up to its 8 symmetries) is the
mean, over the square's symmetries, of the tilings each one fixes
(excover.sequences.polyominoes): the identity fixes every tiling, A172477(n), counted
from the cells by excover.tiling.count_dissections; each of the 7 others fixes far fewer,
counted by searching the quotient problem (excover.symmetry.Quotient). For n = 9 both
take hours, so each is run so that it survives its process:

    python benchmarks/a328020.py 9 DIR dissections     # DIR/A172477-9.states, resumable
    python benchmarks/a328020.py 9 DIR fixed           # writes DIR/A328020-9-fixed-K.dlx

The first prints the count's progress (a line a cell: the cells done, the states, the CPU
seconds) and, at its end, the number of dissections; run again, it resumes from its
checkpoint (``--max-bytes N`` bounds its tables: by default a share of the machine's
memory). The second writes the quotient problem of each symmetry K (1 to 7) and the
commands that count each by subproblems with a ledger (``excover count FILE --checkpoint
LEDGER``), resumable the same way. The term is then (dissections + the 7 fixed counts) /
8, which must divide exactly.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def dissections(n: int, folder: Path, every: float, max_bytes: int | None) -> int:
    """A172477(n), counted with its checkpoint in ``folder`` and its tables bounded by
    ``max_bytes`` (None: the library's default bound), its progress printed."""
    from excover.tiling import count_dissections

    started = time.process_time()

    def tick(done: int, cells: int, states: int) -> None:
        print(
            f"cell {done}/{cells}: {states:,} states, {time.process_time() - started:.0f} s",
            flush=True,
        )

    checkpoint = folder / f"A172477-{n}.states"
    found = count_dissections(
        n, n, n, max_bytes=max_bytes, checkpoint=checkpoint, checkpoint_every=every, tick=tick
    )
    print(f"A172477({n}) = {found} ({time.process_time() - started:.1f} s of CPU in this run)")
    return found


def fixed(n: int, folder: Path) -> None:
    """Write the quotient problem of each symmetry of the square but the identity."""
    from excover.formats.dlx import write_dlx
    from excover.sequences.polyominoes import square_by_ominoes
    from excover.symmetry.chain import is_identity
    from excover.symmetry.fixed import Quotient, elements_of

    cover = square_by_ominoes(n)
    others = [g for g in elements_of(cover.symmetries(), "A328020") if not is_identity(g)]
    for k, g in enumerate(others, 1):
        quotient = Quotient(cover, g)
        if quotient.weighted:  # never for a square's tilings: a cycle covers a cell once
            sys.exit(f"symmetry {k}: weighted items, count it with Quotient(...).count()")
        path = folder / f"A328020-{n}-fixed-{k}.dlx"
        write_dlx(quotient.exact_cover, path)
        ledger = path.with_suffix(".json")
        print(
            f"excover count {path} --method search --engine bits --tasks 400"
            f" --checkpoint {ledger} --no-progress --stats"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("part", choices=["dissections", "fixed"])
    parser.add_argument("--every", type=float, default=600.0, help="seconds between checkpoints")
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        help="the bound of the dissection count's tables in bytes (0: none; default: a share"
        " of the machine's memory)",
    )
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.part == "dissections":
        dissections(args.n, args.folder, args.every, args.max_bytes)
    else:
        fixed(args.n, args.folder)


if __name__ == "__main__":
    main()
