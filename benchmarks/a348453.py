"""A348453's T(n, k): the n x n square cut into d connected pieces of n*n/d cells (d the
k-th divisor of n*n), every cut counted: the long runs behind its new terms.

Two routes, each resumable after a kill (run the same command again):

    python benchmarks/a348453.py N D blocks DIR    # the count by blocks, DIR/T-N-D.blocks
    python benchmarks/a348453.py N D blocks DIR --staircase   # by rows with a step
    python benchmarks/a348453.py N D apart DIR --parts P --split-at ROWS

``blocks`` counts by :func:`excover.tiling.cell_frontier.count_partitions` with
``blocks=True`` (each frontier cell's piece guessed: few states for few large pieces),
checkpointed every ``--every`` seconds. ``apart`` is the second route, through the older
compiled core of :func:`excover.tiling.count_dissections` (its states the frontier's
pieces, their sizes and the pairs declared apart: another state, other code): it counts
the first ``--split-at`` rows, saves the layer, cuts it into ``--parts`` files (the
count is linear in the layer's counts: the parts' counts add up to the whole), and
counts each part from its file in turn, each part's result kept in the ledger
``DIR/T-N-D.apart.json`` (a part counted is never counted again). Each prints a line
per row (states, CPU seconds) and at its end the term.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
import time
from pathlib import Path


def blocks(
    n: int, d: int, folder: Path, every: float, max_bytes: int | None, staircase: bool = False
) -> int:
    """T(n, d pieces) by blocks, with its checkpoint in ``folder``; ``staircase``: the
    cells by rows with a step (the right half a row behind: other states at every op)."""
    from excover.tiling.cell_frontier import count_partitions
    from excover.tiling.symmetric_dissections import square_program

    started = time.process_time()

    def tick(done: int, ops: int, states: int) -> None:
        if done % n == 0:
            print(
                f"row {done // n}/{n}: {states:,} states, {time.process_time() - started:.0f} s",
                flush=True,
            )

    found = count_partitions(
        square_program(n, twin=staircase),
        n * n // d,
        blocks=True,
        max_bytes=max_bytes,
        tick=tick,
        checkpoint=folder / f"T-{n}-{d}.blocks{'-staircase' if staircase else ''}",
        checkpoint_every=every,
    )
    print(
        f"T({n}, {d} pieces) = {found} by blocks{', by rows with a step' if staircase else ''}"
        f" ({time.process_time() - started:.1f} s of CPU in this run)",
        flush=True,
    )
    return found


class _Stop(Exception):
    """Raised by the tick to stop the first rows' count (its layer is then saved)."""


def apart(n: int, d: int, folder: Path, parts: int, rows: int, max_bytes: int | None) -> int:
    """T(n, d pieces) by the older core, its layer after ``rows`` rows cut into
    ``parts`` parts counted one by one (a ledger in ``folder``)."""
    from excover.atomic import replacing, write_whole
    from excover.tiling import _dissections as core
    from excover.tiling.resume import Resume
    from excover.zdd import memory

    size = n * n // d
    bound = memory.default_bound() if max_bytes is None else max_bytes
    started = time.process_time()
    head = 16 + 8 * core.HEADER_WORDS
    layer = folder / f"T-{n}-{d}.apart-layer"
    ledger_path = folder / f"T-{n}-{d}.apart.json"
    ledger = json.loads(ledger_path.read_text()) if ledger_path.exists() else {}
    if ledger.get("parts") not in (None, parts) or ledger.get("rows") not in (None, rows):
        sys.exit(f"{ledger_path} was made with other --parts or --split-at")
    ledger.update(n=n, pieces=d, size=size, parts=parts, rows=rows)
    ledger.setdefault("counts", {})
    if not all(
        (folder / f"T-{n}-{d}.apart-{k}").exists() or str(k) in ledger["counts"]
        for k in range(parts)
    ):

        def tick(done: int, cells: int, states: int) -> None:
            print(
                f"cell {done}/{cells}: {states:,} states, {time.process_time() - started:.0f} s",
                flush=True,
            )
            if done == rows * n:
                raise _Stop

        try:
            core.count_dissections(
                n, n, size, bound, tick, save=lambda: replacing(layer), every=1e9
            )
            sys.exit("the count ended before the rows to split at")
        except _Stop:
            pass
        data = layer.read_bytes()
        words = struct.unpack("=6Q", data[16:head])
        records = [
            struct.unpack("=3Q", data[head + 24 * i : head + 24 * i + 24]) for i in range(words[4])
        ]
        for k in range(parts):
            mine = records[k::parts]
            top = [words[0], words[1], words[2], words[3], len(mine)]
            sealed = core.checksum(top, mine)
            body = b"".join(struct.pack("=3Q", *r) for r in mine)
            write_whole(
                folder / f"T-{n}-{d}.apart-{k}", data[:16] + struct.pack("=6Q", *top, sealed) + body
            )
        print(
            f"layer of {words[4]:,} states after {words[3]} cells cut into {parts} parts",
            flush=True,
        )
        layer.unlink()
    for k in range(parts):
        if str(k) in ledger["counts"]:
            continue
        path = folder / f"T-{n}-{d}.apart-{k}"
        words = struct.unpack("=6Q", path.read_bytes()[16:head])
        peak = [0]

        def heard(done: int, cells: int, states: int, peak: list[int] = peak) -> None:
            peak[0] = max(peak[0], states)

        part_started = time.process_time()
        count, _ = core.count_dissections(
            n,
            n,
            size,
            bound,
            heard,
            resume=Resume.of(path, words[3], words[4], words[5]),
        )
        ledger["counts"][str(k)] = str(count)
        ledger.setdefault("peaks", {})[str(k)] = peak[0]
        ledger.setdefault("seconds", {})[str(k)] = round(time.process_time() - part_started, 1)
        write_whole(ledger_path, json.dumps(ledger, indent=1) + "\n")
        path.unlink()
        print(
            f"part {k + 1}/{parts}: {count:,} ({peak[0]:,} states at most,"
            f" {time.process_time() - part_started:.0f} s)",
            flush=True,
        )
    total = sum(int(c) for c in ledger["counts"].values())
    print(f"T({n}, {d} pieces) = {total} by the older core in {parts} parts", flush=True)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("pieces", type=int)
    parser.add_argument("route", choices=["blocks", "apart"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--every", type=float, default=600.0, help="seconds between checkpoints")
    parser.add_argument("--parts", type=int, default=16)
    parser.add_argument("--split-at", type=int, default=3, help="rows counted before the cut")
    parser.add_argument("--max-bytes", type=int, default=None)
    parser.add_argument(
        "--staircase",
        action="store_true",
        help="blocks: the cells by rows with a step (another sweep: a second route)",
    )
    args = parser.parse_args()
    if (args.n * args.n) % args.pieces:
        sys.exit(f"{args.pieces} does not divide {args.n * args.n}")
    args.folder.mkdir(parents=True, exist_ok=True)
    print(
        f"# started {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())},"
        f" load {os.getloadavg()[0]:.1f}, {' '.join(sys.argv)}",
        flush=True,
    )
    if args.route == "blocks":
        blocks(args.n, args.pieces, args.folder, args.every, args.max_bytes, args.staircase)
    else:
        apart(args.n, args.pieces, args.folder, args.parts, args.split_at, args.max_bytes)


if __name__ == "__main__":
    main()
