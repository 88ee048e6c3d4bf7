"""DXZ's share of its tree walked, replayed on the count's own search nodes.

Counts each problem by DXZ in-process, in slices of :data:`SLICE` search nodes (as the
count's progress bar reads it), and keeps at each slice where the search is
(``Dxz.places``), its memo hits and the subproblems its memo holds so far. Then replays
three shares on a clock where time is the search nodes entered (the meter's own model: a
share that grows with the nodes makes a true time left), each through
:class:`excover.parallel.progress.Meter`: Knuth's equal shares, the options of the top
levels weighed by the probes' sizes (:class:`excover.zdd.weighed.Share` with no hits),
and that share turned into a share of the work by the memo's reuse so far
(:func:`excover.zdd.weighed.memo_share`, what ``excover count --method zdd`` shows). For
each it prints the worst factor between the time left and the truth from 10% of the run
on (where the truth is at least a second of a run stretched to :data:`SECONDS`), and
where in the run it was. No timing is involved, so the figures do not depend on the
machine's load: ideas on the share can be judged here before
``benchmarks/progress_truth.py`` times them.

    PYTHONPATH=src python benchmarks/dxz_share_replay.py [FILE.dlx ...]

Without files: Scott's puzzle and the 13 queens (``tests/data/knuth``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from excover import ExactCover
from excover.parallel.progress import Meter
from excover.zdd import Manager, _dxz, dxz, weighed

KNUTH = Path(__file__).resolve().parent.parent / "tests" / "data" / "knuth"
#: Search nodes between two readings (the progress bar's slice).
SLICE = 20_000
#: The length the replayed run is stretched to (seconds), against which a truth under a
#: second is not judged, as in ``progress_truth.py``.
SECONDS = 10.0
#: The share of a run before which a time left is not judged.
FROM = 0.10

#: One reading: search nodes so far, where the search is, memo hits and entries so far.
Reading = tuple[int, list[tuple[int, int]], int, int]


def readings(problem: ExactCover) -> tuple[list[Reading], int]:
    """The readings of a DXZ count of ``problem``, every :data:`SLICE` search nodes, and
    its search nodes in all."""
    run = dxz.Run(problem, Manager())
    seen: list[Reading] = []
    while True:
        probe = run.run(run.nodes + SLICE)
        if probe.family is not None:
            return seen, probe.nodes
        places = run._search.places()
        assert isinstance(places, list)
        seen.append((probe.nodes, places, probe.hits, run.memo))


def worst(seen: list[Reading], total: int, share: Callable[[Reading], float]) -> str:
    """The worst factor of the meter's time left against the truth from :data:`FROM` of
    the run on, with the share ``share`` gives at each reading, and where it was."""
    now = [0.0]
    meter = Meter(clock=lambda: now[0])
    factor, at = 1.0, None
    for reading in seen:
        nodes = reading[0]
        now[0] = SECONDS * nodes / total
        meter.note(share(reading))
        left, truth = meter.left(), SECONDS * (total - nodes) / total
        if left is None or nodes < FROM * total or truth < 1.0:
            continue
        ratio = max(left, 0.01) / truth
        if max(ratio, 1 / ratio) > factor:
            factor, at = max(ratio, 1 / ratio), nodes / total
    return "-" if at is None else f"{factor:.2f}x at {at:.0%}"


def shares(problem: ExactCover) -> list[Callable[[Reading], float]]:
    """The three shares replayed (see the module notes), each with its own probes (the
    same: their seeds are fixed), as a share never goes back."""
    prober = _dxz.Dxz(dxz.Run(problem, Manager())._arrays)
    walked, memo = (weighed.Share(lambda *probes: prober.child_sizes((), *probes)) for _ in "ab")
    return [
        lambda r: weighed.share_of(r[1], lambda prefix: None),
        lambda r: walked.of(r[1]),
        lambda r: memo.of(r[1], r[2] / max(r[3], 1)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="DLX files (default: Scott, queens13)")
    args = parser.parse_args()
    files = args.files or [KNUTH / "scott.dlx", KNUTH / "queens13.dlx"]
    print(f"{'problem':16} {'nodes':>9} {'reuse':>6} {'knuth':>14} {'weighed':>14} {'memo':>14}")
    for path in files:
        problem = ExactCover.read(path)
        seen, total = readings(problem)
        reuse = seen[-1][2] / max(seen[-1][3], 1) if seen else 0.0
        factors = " ".join(f"{worst(seen, total, share):>14}" for share in shares(problem))
        print(f"{path.stem:16} {total:9} {reuse:6.3f} {factors}", flush=True)


if __name__ == "__main__":
    main()
