"""How far the long counts of benchmarks/data/records/ have got, read from their ledgers.

For each ledger ``ID-N.json`` (excover's checkpoint of ``excover sequence ID N
--checkpoint``) or ``ID-N-ENGINE.json`` (of ``excover count FILE --engine ENGINE
--checkpoint`` on the file ``excover sequence ID N --write-dlx FILE`` writes), loaded and
checked as a resumed run would load it (the problem rebuilt, the checksum and the
subproblems verified): the subproblems counted, the solutions so far, the share of the
estimated search done (by the subproblems' estimated sizes, which are rough: Knuth's
probes), the seconds the runs have spent, and the time left at that pace. Nothing is
counted.

    python benchmarks/records_status.py [LEDGER ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from excover import ExactCover
from excover.parallel.checkpoint import Checkpoint
from excover.sequences import problem

FOLDER = Path(__file__).resolve().parent / "data" / "records"


def status(path: Path) -> str:
    """One line on the ledger at ``path``, named ``ID-N.json`` or ``ID-N-ENGINE.json``."""
    sequence, n, *engine = path.stem.split("-")
    cover = problem(sequence, int(n))
    if engine:  # counted from the term's DLX file, whose problem is read back from it
        cover = ExactCover.from_dlx(cover.to_dlx())
    state = Checkpoint.load(path, cover, "search")
    if state is None:
        return f"{path.name}: no ledger"
    share = state.done_size() / state.total_size() if state.total_size() else 0.0
    left = state.seconds * (1 - share) / share if share else float("inf")
    verdict = f"{sequence}({n}) = {state.count:,}" if state.complete else "running"
    return (
        f"{path.name}: {len(state.done)} of {len(state.subproblems)} subproblems, "
        f"{state.count:,} solutions, {100 * share:.1f} % of the estimated search, "
        f"{state.seconds:,.0f} s so far, about {left:,.0f} s left at that pace: {verdict}"
    )


def main() -> int:
    paths = [Path(arg) for arg in sys.argv[1:]] or sorted(FOLDER.glob("*-*.json"))
    for path in paths:
        print(status(path), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
