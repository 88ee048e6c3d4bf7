"""The studio under hostile imports (issue #61): the server's peak memory and the time it
takes to answer Cancel and a catalog request while they run.

    python benchmarks/studio_hostile.py [--memory-limit MIB] [--import-timeout S]

Starts ``excover studio --no-browser`` (its defaults, or the flags given) and, for each
of the trial's three cases, starts a count that runs for weeks (its events read as a
page reads them), sends the hostile import(s), and half a second later asks Cancel for
the count, while a thread asks for the catalog every 0.2 s:

- **3.8 KB**: a hundred patterns of 4096x4096 cells, all kept (1.6 GB asked);
- **45 KB x6**: six imports at once of 1,180 such patterns each (19 GB asked each);
- **120 KB**: 1,800 patterns, each the difference of two 4096x4096 frames (30 GB asked).

For each case it prints the imports' answers (status, seconds, message), the time Cancel
took to answer, the slowest catalog answer, the server process's peak resident memory
and the peak of its children's together (sampled every 20 ms with psutil). Last, it
starts another count, sends the server SIGINT (Ctrl-C) while the count's events stream,
and prints the time until the server process has exited. Issue #61's targets: the
server's peak at most 1 GB, Cancel answered within a second, Ctrl-C obeyed within a
second.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psutil

from excover.tiling import pentominoes

FRAME = "constant 4096x4096 true"
#: Seconds between two words of the count's reader that it follows the run (the page's).
FOLLOW_SECONDS = 5.0
CASES = {
    "3.8 KB": ("".join(f"pattern p{k} = {FRAME}\n" for k in range(100)), 1),
    "45 KB x6": ("".join(f"pattern p{k} = {FRAME}\n" for k in range(1180)), 6),
    "120 KB": (
        "".join(f"pattern p{k} = {FRAME} - constant 4096x4096 false\n" for k in range(1800)),
        1,
    ),
}


class Studio:
    """An ``excover studio`` process and the requests it answers."""

    def __init__(self, flags: list[str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "excover", "studio", "--no-browser", *flags],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.fullmatch(r"excover studio: (http://127\.0\.0\.1:\d+/)\?token=(\S+)\n", line)
        if found is None:
            raise SystemExit(f"the studio did not start: {line!r}")
        self.base, self.token = found.groups()

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
        call = urllib.request.Request(
            f"{self.base}{path}", data=body, method=method, headers={"X-Studio-Token": self.token}
        )
        try:
            with urllib.request.urlopen(call, timeout=600) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def long_count(self) -> str:
        """A count of weeks started, its events read in a thread that says every few
        seconds that it follows the run, as the page does (else the studio cancels it a
        minute on); returns its id once it has said something."""
        pieces = [
            {"name": name, "cells": shape.ascii().splitlines(), "count": "0..1"}
            for name, shape in pentominoes().items()
        ]
        pieces.append({"name": "M1", "cells": ["*"], "count": "any"})
        design = {"board": ["*" * 8] * 8, "pieces": pieces}
        _, answer = self.request(
            "POST", "api/jobs", json.dumps({"design": design, "task": "count"}).encode()
        )
        key: str = answer["id"]
        said = threading.Event()

        def read() -> None:
            url = f"{self.base}api/jobs/{key}/events?token={self.token}"
            followed = time.monotonic()
            with urllib.request.urlopen(url, timeout=600) as stream:
                for _ in stream:
                    said.set()
                    if time.monotonic() - followed >= FOLLOW_SECONDS:
                        followed = time.monotonic()
                        self.request("POST", f"api/jobs/{key}/alive")

        threading.Thread(target=read, daemon=True).start()
        said.wait(120)
        return key


class Peaks:
    """The peak resident memory of a process and of its children together."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.server = self.children = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            try:
                self.server = max(self.server, self.process.memory_info().rss)
                total = 0
                for child in self.process.children(recursive=True):
                    with contextlib.suppress(psutil.Error):
                        total += child.memory_info().rss
                self.children = max(self.children, total)
            except psutil.Error:
                return

    def stop(self) -> tuple[int, int]:
        self._done.set()
        self._thread.join()
        return self.server, self.children


def run_case(studio: Studio, program: str, copies: int) -> dict[str, Any]:
    key = studio.long_count()
    peaks = Peaks(studio.process.pid)
    slowest = 0.0
    done = threading.Event()

    def ask_catalog() -> None:
        nonlocal slowest
        while not done.wait(0.2):
            began = time.monotonic()
            studio.request("GET", "api/catalog")
            slowest = max(slowest, time.monotonic() - began)

    def upload() -> tuple[int, float, str]:
        began = time.monotonic()
        status, body = studio.request("POST", "api/import", program.encode())
        message = body.get("error", {}).get("message", "a design") if status != 200 else "ok"
        return status, time.monotonic() - began, message

    asker = threading.Thread(target=ask_catalog, daemon=True)
    asker.start()
    with ThreadPoolExecutor(copies) as pool:
        imports = [pool.submit(upload) for _ in range(copies)]
        time.sleep(0.5)
        began = time.monotonic()
        status, _ = studio.request("POST", f"api/jobs/{key}/cancel")
        cancel = time.monotonic() - began
        answers = [future.result() for future in imports]
    done.set()
    asker.join()
    server, children = peaks.stop()
    return {
        "bytes": len(program.encode()),
        "imports": answers,
        "cancel_status": status,
        "cancel_seconds": round(cancel, 3),
        "slowest_catalog_seconds": round(slowest, 3),
        "server_peak_mib": round(server / 2**20),
        "children_peak_mib": round(children / 2**20),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memory-limit", metavar="MIB", help="passed to excover studio")
    parser.add_argument("--import-timeout", metavar="S", help="passed to excover studio")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    flags = []
    if args.memory_limit:
        flags += ["--memory-limit", args.memory_limit]
    if args.import_timeout:
        flags += ["--import-timeout", args.import_timeout]
    studio = Studio(flags)
    results = {}
    try:
        for name, (program, copies) in CASES.items():
            results[name] = run_case(studio, program, copies)
            if not args.json:
                found = results[name]
                print(
                    f"{name}: {found['bytes']} bytes x{copies}; server peak "
                    f"{found['server_peak_mib']} MiB, children peak "
                    f"{found['children_peak_mib']} MiB; Cancel answered "
                    f"{found['cancel_status']} in {found['cancel_seconds']} s; slowest "
                    f"catalog {found['slowest_catalog_seconds']} s",
                    flush=True,
                )
                for status, seconds, message in found["imports"]:
                    print(f"  import: {status} after {seconds:.1f} s: {message}", flush=True)
        studio.long_count()
        began = time.monotonic()
        studio.process.send_signal(signal.SIGINT)
        studio.process.wait(120)
        stop = round(time.monotonic() - began, 3)
    finally:
        if studio.process.poll() is None:
            studio.process.kill()
        studio.process.wait(60)
    if args.json:
        print(json.dumps({"load": os.getloadavg(), "cases": results, "ctrl_c": stop}, indent=2))
    else:
        print(f"Ctrl-C while a count streams: the server exited after {stop} s")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
