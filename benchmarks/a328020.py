"""A328020(n) by Burnside's lemma, each part resumable: the long run behind a new term.

A328020(n) (the n x n square tiled by free n-ominoes, up to its 8 symmetries) is the
mean, over the square's symmetries, of the tilings each one fixes
(excover.sequences.polyominoes): the identity fixes every tiling, A172477(n), counted
from the cells by excover.tiling.count_dissections; each of the 7 others fixes far fewer,
counted by searching the quotient problem (excover.symmetry.Quotient). For n = 9 both
take hours, so each is run so that it survives its process:

    python benchmarks/a328020.py 9 DIR dissections     # DIR/A172477-9.states, resumable
    python benchmarks/a328020.py 9 DIR fixed           # writes DIR/A328020-9-fixed-K.dlx
    python benchmarks/a328020.py 9 DIR frontier        # DIR/frontier.json, resumable

The first prints the count's progress (a line a cell: the cells done, the states, the CPU
seconds) and, at its end, the number of dissections; run again, it resumes from its
checkpoint (``--max-bytes N`` bounds its tables: by default a share of the machine's
memory). The second writes the quotient problem of each symmetry K (1 to 7) and the
commands that count each by subproblems with a ledger (``excover count FILE --checkpoint
LEDGER``), resumable the same way. The third is a second route to the same 7 counts that
shares nothing with the search: the dissections each symmetry maps onto themselves,
counted by a frontier over the square's quotient by the symmetry's group
(excover.tiling.symmetric_dissections; the conjugate symmetries Rot270, HorizRefl and
Diag2Refl on another domain than Rot90, VertRefl and Diag1Refl), one symmetry at a
time, the cheap ones first, each one's count and CPU time saved to the ledger
``DIR/frontier.json`` as it finishes and its states to ``fixed-NAME.states`` (in DIR,
or in ``--states FOLDER``: they take gigabytes) while it runs (every ``--every`` seconds
and on a stop), so that a killed run resumes where it was. The term is then
(dissections + the 7 fixed counts) / 8, which must divide exactly, as must each
subgroup's sum by its order (``frontier`` checks them all once the 7 counts are in, the
dissections being A172477's published term or ``--dissections``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _burnside import OTHERS, checks, classes, count_into, load_ledger


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


def frontier(
    n: int,
    folder: Path,
    states_folder: Path,
    every: float,
    max_bytes: int | None,
    dissections: int | None,
    only: list[str] | None,
) -> None:
    """The tilings each symmetry of the square but the identity fixes, counted by the
    frontier over its quotient, each saved to ``folder/frontier.json`` when done and
    resumable from ``states_folder/fixed-NAME.states`` meanwhile; with all 7 in, the Burnside
    checks and the term."""
    from excover.tiling.symmetric_dissections import count_fixed_dissections

    path = folder / "frontier.json"
    ledger = load_ledger(path, n)
    for name in only or OTHERS:

        def count(tick: Callable[[int, int, int], None], checkpoint: Path, name: str = name) -> int:
            return count_fixed_dissections(
                n,
                name,
                n,
                max_bytes=max_bytes,
                tick=tick,
                checkpoint=checkpoint,
                checkpoint_every=every,
            )

        count_into(ledger, path, name, states_folder / f"fixed-{name}.states", count)
    if any(name not in ledger["fixed"] for name in OTHERS):
        return
    if dissections is None:
        from excover.sequences.known import KNOWN

        if len(KNOWN["A172477"]) < n:
            print("the dissections are not published: give --dissections", flush=True)
            return
        dissections = KNOWN["A172477"][n - 1]
    counts = {name: int(record["count"]) for name, record in ledger["fixed"].items()}
    if not checks(dissections, counts):
        print(f"A328020({n}) = {classes(dissections, counts)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("part", choices=["dissections", "fixed", "frontier"])
    parser.add_argument("--every", type=float, default=600.0, help="seconds between checkpoints")
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        help="the bound of the dissection count's tables in bytes (0: none; default: a share"
        " of the machine's memory)",
    )
    parser.add_argument(
        "--dissections",
        type=int,
        default=None,
        help="frontier: the dissections (A172477(n)) for the checks, if not published",
    )
    parser.add_argument(
        "--only", default=None, help="frontier: these symmetries only (names, commas)"
    )
    parser.add_argument(
        "--states", type=Path, default=None, help="frontier: the folder of its checkpoints"
    )
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    if args.part == "dissections":
        dissections(args.n, args.folder, args.every, args.max_bytes)
    elif args.part == "fixed":
        fixed(args.n, args.folder)
    else:
        only = None if args.only is None else args.only.split(",")
        if only and not set(only) <= set(OTHERS):
            sys.exit(f"--only takes names of {', '.join(OTHERS)}")
        states = args.folder if args.states is None else args.states
        states.mkdir(parents=True, exist_ok=True)
        frontier(args.n, args.folder, states, args.every, args.max_bytes, args.dissections, only)


if __name__ == "__main__":
    main()
