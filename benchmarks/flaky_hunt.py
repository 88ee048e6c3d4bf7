"""The README's test command run again and again on one fresh clone, to find the tests
that fail by chance (issue #80: 0 failures in 20 consecutive runs, two of them beside
two busy processes).

The hunt clones the repository's current commit into a new folder, makes a virtual
environment there and installs the checkout as the README says (``pip install
--group test .``, which brings pytest-randomly: every run puts the tests in a new order, its
seed printed in pytest's header and kept). Then it runs ``python -m
pytest`` ``--runs`` times, the last ``--busy-runs`` of them beside ``--busy`` processes
that keep a core each busy. Each run is one line of a ledger (JSON lines: the commit,
the run's number, its seed, whether it ran beside busy processes, the load average
before and after, its seconds, the counts pytest printed and the tests that failed), so
a hunt stopped (Ctrl-C, a session that ends) goes on where it stopped when run again
with the same ledger: the runs of the same commit already in it count.

    python benchmarks/flaky_hunt.py [--runs 20] [--busy-runs 2] [--busy 2]
        [--ledger benchmarks/data/flaky/ledger.jsonl] [--folder DIR]

``--folder`` keeps the clone and its environment there (default: a new temporary
folder, removed at the end), so that a resumed hunt need not install again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "benchmarks" / "data" / "flaky" / "ledger.jsonl"


def commit() -> str:
    """The commit of the repository the hunt tests."""
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def prepared(folder: Path, head: str) -> Path:
    """A clone of ``head`` in ``folder`` with its environment, installed as the README
    says (made once: a folder already holding the clone of ``head`` is reused). Returns
    the environment's Python."""
    clone = folder / "excover"
    python = folder / "venv" / "bin" / "python"
    made = folder / "installed"
    if made.exists() and made.read_text() == head:
        return python
    shutil.rmtree(clone, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", head], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--group", "test", "."],
        cwd=clone,
        check=True,
    )
    made.write_text(head)
    return python


@contextmanager
def busy(processes: int) -> Iterator[None]:
    """``processes`` processes that keep a core busy each, for the block."""
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)
    ]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def run_once(python: Path, clone: Path, number: int, beside: int, head: str) -> dict[str, Any]:
    """One run of the README's test command; its line of the ledger."""
    before = os.getloadavg()[0]
    started = time.monotonic()
    with busy(beside):
        done = subprocess.run(
            [str(python), "-m", "pytest", "-p", "no:cacheprovider"],
            cwd=clone,
            capture_output=True,
            text=True,
        )
    seconds = time.monotonic() - started
    out = done.stdout
    seed = re.search(r"--randomly-seed=(\d+)", out)
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    failed = sorted(set(re.findall(r"^(?:FAILED|ERROR) (\S+)", out, re.MULTILINE)))
    return {
        "commit": head,
        "run": number,
        "seed": int(seed[1]) if seed else None,
        "busy": beside,
        "load_before": round(before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "seconds": round(seconds, 1),
        "status": done.returncode,
        "summary": summary,
        "failed": failed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--busy-runs", type=int, default=2)
    parser.add_argument("--busy", type=int, default=2)
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args()
    head = commit()
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    lines = args.ledger.read_text().splitlines() if args.ledger.exists() else []
    done = [json.loads(line) for line in lines if line.strip()]
    done = [line for line in done if line["commit"] == head]
    folder = args.folder or Path(tempfile.mkdtemp(prefix="flaky-hunt-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        python = prepared(folder, head)
        for number in range(len(done) + 1, args.runs + 1):
            beside = args.busy if number > args.runs - args.busy_runs else 0
            line = run_once(python, folder / "excover", number, beside, head)
            with args.ledger.open("a", encoding="utf-8") as ledger:
                ledger.write(json.dumps(line) + "\n")
            done.append(line)
            print(
                f"run {number}/{args.runs} (seed {line['seed']}, {beside} busy, load "
                f"{line['load_before']}): {line['summary']} in {line['seconds']} s"
                + (f"; FAILED {', '.join(line['failed'])}" if line["failed"] else ""),
                flush=True,
            )
    finally:
        if args.folder is None:
            shutil.rmtree(folder, ignore_errors=True)
    failing = [line for line in done if line["status"] != 0]
    print(f"{len(done)} runs of {head[:10]}, {len(failing)} with a failure")


if __name__ == "__main__":
    main()
