"""A360773(n) by two routes, each in parts saved to a ledger: the long runs behind a new term.

A360773(n) counts the tilings of the 2n x 2n square by rectangles of distinct dimension
pairs whose perimeters sum to its area (excover.sequences.rectangles). The routes:

- ``states``: the count by states with the perimeter left to make in each state
  (``count_rectangle_tilings(..., perimeter=(2n)^2)``), run in ``--parts`` parts (part k
  starts from every m-th orbit of the corner choices; the parts add up to the whole),
  each part's count, states and CPU time saved as it finishes;
- ``sets``: the sum, over the *key sets* (the sets of dimension pairs whose areas sum to
  (2n)^2 and whose h + w sum to (2n)^2 / 2, listed by ``key_sets``), of the tilings of
  the square by exactly those rectangles, each pair once either way up, counted by
  states with no perimeter target (the set's area fills the square, so every rectangle
  of the set is used and the perimeters sum to the area); the sets in ``--chunks``
  chunks, each chunk's count saved as it finishes;
- ``check``: a sample of the key sets (every ``len // sample``-th), each counted twice,
  by states and by a search of its exact cover (a primary item per cell and per pair),
  which must agree: the per-set count of ``sets`` against another engine.

    python benchmarks/a360773.py 6 states DIR/states.json --parts 400
    python benchmarks/a360773.py 6 sets DIR/sets.json --chunks 400
    python benchmarks/a360773.py 6 check DIR/check.json --sample 300

Run again, a route resumes from its ledger (the parts or chunks done are skipped); a
ledger of other parameters is refused. The last line is the term once every part is
done. Ctrl-C stops it between parts, the part under way lost.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SEQUENCE = "A360773"


def _load(path: Path, header: dict[str, Any]) -> dict[str, Any]:
    """The ledger at ``path`` (a new one with ``header`` if there is none); exit with a
    message if its header is not ``header``."""
    if path.exists():
        ledger: dict[str, Any] = json.loads(path.read_text())
        theirs = {key: ledger.get(key) for key in header}
        if theirs != header:
            sys.exit(f"{path}: a ledger of {theirs}, not {header}: another file, or delete it")
        return ledger
    return {**header, "done": {}}


def _save(path: Path, ledger: dict[str, Any]) -> None:
    """Write the ledger whole, then rename it over the old one (never half written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    spare = path.with_suffix(path.suffix + ".tmp")
    spare.write_text(json.dumps(ledger, indent=1, sort_keys=True) + "\n")
    os.replace(spare, path)


def _run(
    path: Path,
    header: dict[str, Any],
    units: int,
    count: Callable[[int], dict[str, Any]],
) -> int | None:
    """Count the ``units`` parts of a route not yet in its ledger, each saved as it
    finishes (``count(k)``: a record with ``count`` and ``cpu``); the total once all are
    done, else None."""
    ledger = _load(path, header)
    done = ledger["done"]
    print(f"# {header}: {len(done)} of {units} done before this run", flush=True)
    for k in range(units):
        if str(k) in done:
            continue
        started = time.process_time()
        record = count(k)
        record["cpu"] = round(time.process_time() - started, 3)
        done[str(k)] = record
        _save(path, ledger)
        print(f"{k} {json.dumps(record, sort_keys=True)}", flush=True)
    if len(done) < units:
        return None
    total = sum(int(record["count"]) for record in done.values())
    cpu = sum(record["cpu"] for record in done.values())
    print(f"# CPU of the parts, all runs: {cpu:.1f} s", flush=True)
    return total


def states(n: int, path: Path, parts: int) -> int | None:
    """Route ``states``: the count by states with the perimeter target, in parts."""
    from excover.sequences.rectangles import shapes, side
    from excover.tiling import count_rectangle_tilings

    size = side(SEQUENCE, n)
    rule = shapes(SEQUENCE, n)

    def part(k: int) -> dict[str, Any]:
        merged = 0

        def heard(done: int, cells: int, states: int) -> None:
            nonlocal merged
            merged += states

        found = count_rectangle_tilings(
            size, size, rule, perimeter=size * size, part=(k, parts), tick=heard
        )
        return {"count": str(found), "states": merged}

    header = {"sequence": SEQUENCE, "n": n, "route": "states", "parts": parts}
    return _run(path, header, parts, part)


def _sets(n: int) -> tuple[list[list[str]], str]:
    """The key sets of the n-th term, and a digest of them (the ledger's check that a
    resumed run cuts the same sets)."""
    from excover.sequences.rectangles import key_sets

    listed = list(key_sets(SEQUENCE, n))
    digest = hashlib.sha256("\n".join(" ".join(s) for s in listed).encode()).hexdigest()[:16]
    return listed, digest


def _rule_of(chosen: list[str], n: int) -> dict[tuple[int, int], str]:
    """The rectangles of a key set, each pair either way up."""
    from excover.sequences.rectangles import shapes

    held = set(chosen)
    return {shape: key for shape, key in shapes(SEQUENCE, n).items() if key in held}


def _chunk(listed: list[list[str]], chunks: int, k: int) -> Iterator[list[str]]:
    """Chunk k of ``chunks``: the sets k, k + chunks, k + 2 chunks, ... (dealt in turn,
    so that each chunk holds large and small sets alike)."""
    return iter(listed[k::chunks])


def sets(n: int, path: Path, chunks: int) -> int | None:
    """Route ``sets``: the tilings of each key set, counted by states, added up."""
    from excover.sequences.rectangles import side
    from excover.tiling import count_rectangle_tilings

    size = side(SEQUENCE, n)
    listed, digest = _sets(n)
    print(f"# {len(listed):,} key sets, digest {digest}", flush=True)

    def chunk(k: int) -> dict[str, Any]:
        found = tiled = 0
        held = 0
        for chosen in _chunk(listed, chunks, k):
            count = count_rectangle_tilings(size, size, _rule_of(chosen, n))
            found += count
            tiled += count > 0
            held += 1
        return {"count": str(found), "sets": held, "sets_tiled": tiled}

    header = {
        "sequence": SEQUENCE,
        "n": n,
        "route": "sets",
        "chunks": chunks,
        "key_sets": len(listed),
        "digest": digest,
    }
    return _run(path, header, chunks, chunk)


def check(n: int, path: Path, sample: int) -> int | None:
    """Route ``check``: a sample of the key sets, each counted by states and by a search
    of its exact cover; exits on a disagreement. Its total is the sample's, not a term."""
    from excover import ExactCover
    from excover.sequences.rectangles import side
    from excover.tiling import count_rectangle_tilings

    size = side(SEQUENCE, n)
    listed, digest = _sets(n)
    step = max(1, len(listed) // sample)

    def searched(chosen: list[str]) -> int:
        rule = _rule_of(chosen, n)
        cells = [f"{r},{c}" for r in range(size) for c in range(size)]
        cover = ExactCover(primary=[*cells, *chosen])
        for (h, w), key in rule.items():
            for top in range(size - h + 1):
                for left in range(size - w + 1):
                    covered = [
                        f"{r},{c}" for r in range(top, top + h) for c in range(left, left + w)
                    ]
                    cover.add_option([*covered, key])
        return cover.count(method="search", engine="bits")

    def one(k: int) -> dict[str, Any]:
        chosen = listed[k * step]
        started = time.process_time()
        by_states = count_rectangle_tilings(size, size, _rule_of(chosen, n))
        middle = time.process_time()
        by_search = searched(chosen)
        if by_states != by_search:
            sys.exit(f"key set {k * step} {chosen}: {by_states} by states, {by_search} by search")
        return {
            "count": str(by_states),
            "set": " ".join(chosen),
            "states_cpu": round(middle - started, 3),
            "search_cpu": round(time.process_time() - middle, 3),
        }

    header = {"sequence": SEQUENCE, "n": n, "route": "check", "sample": sample, "digest": digest}
    return _run(path, header, min(sample, len(listed)), one)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("route", choices=["states", "sets", "check"])
    parser.add_argument("ledger", type=Path)
    parser.add_argument("--parts", type=int, default=400, help="route states: its parts")
    parser.add_argument("--chunks", type=int, default=400, help="route sets: its chunks")
    parser.add_argument("--sample", type=int, default=300, help="route check: the sets")
    args = parser.parse_args()
    print(f"# started {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    if args.route == "states":
        total = states(args.n, args.ledger, args.parts)
    elif args.route == "sets":
        total = sets(args.n, args.ledger, args.chunks)
    else:
        total = check(args.n, args.ledger, args.sample)
    if total is None:
        sys.exit("stopped before every part was done: run again to resume")
    label = "the sample's tilings" if args.route == "check" else f"{SEQUENCE}({args.n})"
    print(f"{label} = {total}")


if __name__ == "__main__":
    main()
