"""The studio bounded (issue #61): a hostile import is stopped by its child's memory or
time limit with a clean message while the server, its own memory small, answers Cancel
and other requests; an import's unexpected failure is a clean 400; a run's id stays
valid until the run is reported; a deeply nested body is refused; Ctrl-C stops the
server promptly while a page listens to a count; a child whose server vanished ends
without a traceback. The server runs as a real ``excover studio`` process where its
memory or its signals are measured."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from starlette.testclient import TestClient

from excover.studio.app import create_app
from excover.studio.imports import imported
from excover.studio.limits import IMPORT_SECONDS, Limits
from excover.tiling import pentominoes

PORT = 8765
TOKEN = "test-token-0123456789"
ADDRESS = f"http://127.0.0.1:{PORT}"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

#: 3.8 KB that ask for 1.6 GB: a hundred frames of 16,777,216 cells, all kept.
GREEDY = "".join(f"pattern p{k} = constant 4096x4096 true\n" for k in range(100))
#: The same, slower: each frame kept is the result of four operations on such frames.
HOARD = "pattern a = constant 4096x4096 true\n" + "".join(
    f"pattern p{k} = a - a - a - a - a\n" for k in range(100)
)
#: Little memory, much time: each line works through 10 frames of 16,777,216 cells.
#: A program that takes seconds of work but little memory (15,000 quarter turns of a small
#: frame: well within the language's budget, which bounds memory, not time).
SLOW = "pattern a = constant 64x64 true\n" + "pattern a = apply Rot90 a\n" * 15000


def long_count() -> dict[str, Any]:
    """The 8x8 board, the 12 pentominoes at most once and monominoes at will: weeks."""
    pieces = [
        {"name": name, "cells": shape.ascii().splitlines(), "count": "0..1"}
        for name, shape in pentominoes().items()
    ]
    pieces.append({"name": "M1", "cells": ["*"], "count": "any"})
    return {"board": ["*" * 8] * 8, "pieces": pieces}


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A studio whose children have 512 MiB; its imports have the default time (their
    tests are not about it, and on a loaded machine a child may wait seconds for a CPU)."""
    app = create_app(TOKEN, PORT, limits=Limits(512 << 20))
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as test_client:
        yield test_client


# ----- a real server -----


class Server:
    """An ``excover studio`` process, its address and token."""

    def __init__(self, *flags: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "excover", "studio", "--no-browser", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.fullmatch(r"excover studio: (http://127\.0\.0\.1:\d+/)\?token=(\S+)\n", line)
        assert found is not None, line + self.process.stderr.read()  # type: ignore[union-attr]
        self.base, self.token = found.groups()

    def request(
        self, method: str, path: str, body: bytes | None = None, timeout: float = 120
    ) -> tuple[int, Any]:
        """The status and the JSON (or text) of one request."""
        url = f"{self.base}{path.lstrip('/')}"
        headers = {"X-Studio-Token": self.token}
        call = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(call, timeout=timeout) as response:
                status, data = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        try:
            return status, json.loads(data)
        except ValueError:
            return status, data.decode()

    def start_count(self) -> tuple[str, list[dict[str, Any]], threading.Thread]:
        """A long count started, its events read in a thread into a list; returns once
        the run has said something (its child works)."""
        body = json.dumps({"design": long_count(), "task": "count"}).encode()
        status, answer = self.request("POST", "/api/jobs", body)
        assert status == 200, answer
        key = answer["id"]
        found: list[dict[str, Any]] = []
        url = f"{self.base}api/jobs/{key}/events?token={self.token}"

        def read() -> None:
            with urllib.request.urlopen(url, timeout=300) as stream:
                for line in stream:
                    if line.startswith(b"data: "):
                        found.append(json.loads(line[6:]))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        deadline = time.monotonic() + 60
        while not any(event["type"] != "tick" for event in found):
            assert time.monotonic() < deadline, "the count never started"
            time.sleep(0.05)
        return key, found, reader

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate(timeout=60)


class PeakRss:
    """The highest resident memory of a process, sampled in a thread."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.peak = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._done.wait(0.02):
            try:
                self.peak = max(self.peak, self.process.memory_info().rss)
            except psutil.Error:
                return

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak


@pytest.mark.slow  # a server of its own and an import of seconds
def test_a_hostile_import_is_stopped_while_the_server_answers() -> None:
    server = Server("--memory-limit", "384")
    try:
        rss = PeakRss(server.process.pid)
        key, found, reader = server.start_count()
        answer: list[tuple[int, Any, float]] = []

        def upload() -> None:
            status, body = server.request("POST", "/api/import", HOARD.encode())
            answer.append((status, body, time.monotonic()))

        before = {child.pid for child in psutil.Process(server.process.pid).children()}
        importer = threading.Thread(target=upload)
        importer.start()
        working = time.monotonic() + 120
        while not any(  # the import's child has started and taken memory
            child.pid not in before and child.memory_info().rss > 80 << 20
            for child in psutil.Process(server.process.pid).children()
        ):
            assert time.monotonic() < working and importer.is_alive(), answer
            time.sleep(0.02)
        status, cancelled = server.request("POST", f"/api/jobs/{key}/cancel", timeout=30)
        assert status == 200 and cancelled["cancelled"]
        assert server.request("GET", "/api/catalog", timeout=30)[0] == 200
        answered = time.monotonic()
        importer.join(120)
        reader.join(30)
        peak = rss.stop()
        ((status, body, ended),) = answer
        assert status == 400
        message = body["error"]["message"]
        assert "the import stopped: it needed more than 384 MiB of memory" in message
        assert "Traceback" not in json.dumps(body)
        assert answered < ended  # Cancel and the catalog answered while the import ran
        assert found[-1]["type"] == "cancelled"
        assert peak < 1 << 30, f"the server held {peak / 2**20:.0f} MiB"
        assert server.request("GET", "/api/initial")[0] == 200  # and it goes on
    finally:
        server.close()


@pytest.mark.slow  # a server process and a count of its own
def test_ctrl_c_stops_the_server_while_a_page_listens_to_a_count() -> None:
    server = Server()
    try:
        _, found, reader = server.start_count()
        children = psutil.Process(server.process.pid).children(recursive=True)
        assert children
        sent = time.monotonic()
        server.process.send_signal(signal.SIGINT)
        server.process.wait(60)
        stopped = time.monotonic() - sent
        reader.join(30)
        assert server.process.returncode == 130
        assert stopped < 15  # a generous bound: the stop takes about a tick
        assert found[-1]["type"] == "cancelled"
        _, alive = psutil.wait_procs(children, timeout=30)
        assert not [child for child in alive if child.status() != psutil.STATUS_ZOMBIE]
    finally:
        server.close()


# ----- the same bounds, in process -----


def test_an_import_past_its_time_is_stopped() -> None:
    """A slow import is stopped at its 0.5 s, and the server goes on: its next import,
    a fine one, comes back. That one has the default time: on a loaded machine its child
    may wait longer than 0.5 s for a CPU."""
    limits = Limits(512 << 20, 0.5)
    app = create_app(TOKEN, PORT, limits=limits)
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as client:
        response = client.post("/api/import", content=SLOW.encode())
        assert response.status_code == 400
        message = response.json()["error"]["message"]
        assert "the import stopped: it took more than 0.5 s" in message
        limits.seconds = IMPORT_SECONDS  # the studio reads its limits at each import
        fine = client.post("/api/import", content=b"pattern a = {**}\nproblem p = a [a ~one]\n")
        assert fine.status_code == 200 and fine.json()["design"]["board"] == ["**"]


def test_a_nul_byte_in_an_imported_path_is_a_clean_error(client: TestClient) -> None:
    for path in ('"a\0b.cmb"', '"excover:\0"'):
        response = client.post("/api/import", content=f"include {path}\n".encode())
        assert response.status_code == 400, response.text
        assert response.json()["error"]["message"]
        assert "Traceback" not in response.text
    assert client.get("/api/catalog").status_code == 200


class Outbox:
    """A child's outbox kept in a list."""

    memory_message = "out of memory"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, event: dict[str, Any]) -> None:
        self.sent.append(event)

    def close(self) -> None:
        pass


def test_an_unexpected_failure_of_an_import_is_said_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import excover.studio.program

    def broken(*args: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(excover.studio.program, "from_cmb", broken)
    outbox = Outbox()
    imported("pattern a = {*}\n", "upload.cmb", None, outbox)  # type: ignore[arg-type]
    ready, event = outbox.sent
    assert ready == {"type": "ready"}
    assert event == {
        "type": "error",
        "message": "the import failed (KeyError: 'surprise'): please report it",
    }


def test_a_located_error_comes_back_from_the_child(client: TestClient) -> None:
    response = client.post("/api/import", content=b"pattern a = {**}\nproblem p = a [b ~one]\n")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["line"], error["column"]) == (2, 16)
    assert error["message"] == "unbound pattern 'b'"
    assert error["report"] == (
        "upload.cmb:2:16: unbound pattern 'b'\n    problem p = a [b ~one]\n" + " " * 19 + "^"
    )


def test_a_run_past_its_memory_stops_with_a_message() -> None:
    """The 35 hexominoes at will on a 64x64 board: a million placements, past 256 MiB."""
    from excover.tiling import polyominoes

    pieces = [
        {"name": f"H{number}", "cells": shape.ascii().splitlines(), "count": "any"}
        for number, shape in enumerate(polyominoes(6), 1)
    ]
    app = create_app(TOKEN, PORT, limits=Limits(256 << 20))
    with TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN}) as client:
        body = {"design": {"board": ["*" * 64] * 64, "pieces": pieces}, "task": "first"}
        key = client.post("/api/jobs", json=body).json()["id"]
        last = client.get(f"/api/jobs/{key}/events").text.strip().split("\n\n")[-1]
        event = json.loads(last.removeprefix("data: "))
        assert event["type"] == "error"
        assert event["message"].startswith("the run stopped: it needed more than 256 MiB")


def test_fifty_runs_started_keep_their_ids(client: TestClient) -> None:
    body = {"design": long_count(), "task": "first"}
    keys = [client.post("/api/jobs", json=body).json()["id"] for _ in range(50)]
    assert len(set(keys)) == 50
    for key in keys:
        assert client.get(f"/api/listings/{key}").status_code == 200
        assert client.post(f"/api/jobs/{key}/cancel").status_code == 200
    for key in keys:
        response = client.get(f"/api/jobs/{key}/events")
        assert response.status_code == 200
        assert '"type": "cancelled"' in response.text
    assert client.get(f"/api/jobs/{keys[0]}/events").status_code == 404  # reported: gone


def test_a_deeply_nested_body_is_refused(client: TestClient) -> None:
    depth = 100_000
    for path in ("/api/jobs", "/api/export", "/api/isometric"):
        response = client.post(path, content=b"[" * depth + b"]" * depth)
        assert response.status_code == 400
        assert "nested too deeply" in response.json()["error"]["message"]


# ----- a child whose server vanished -----

PARENT = """
import asyncio, json, sys, time
from excover.studio.jobs import StudioRun
from excover.studio.limits import Limits
from excover.studio.runs import Settings

async def main():
    job = StudioRun(json.loads(sys.argv[1]), "count", Settings(), Limits())
    await job.start()
    while (await job.next_event(1.0)) is None:
        pass
    print(job._child._process.pid, flush=True)
    time.sleep(600)

asyncio.run(main())
"""


def test_a_child_whose_server_vanished_ends_without_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    with open(log, "w") as stderr:
        parent = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(PARENT), json.dumps(long_count())],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=ENV,
        )
    try:
        assert parent.stdout is not None
        child = psutil.Process(int(parent.stdout.readline()))
        parent.kill()
        parent.wait(30)
        deadline = time.monotonic() + 30
        while child.is_running() and child.status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline, "the orphan goes on"
            time.sleep(0.05)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(30)
    text = log.read_text()
    assert "Traceback" not in text and "BrokenPipe" not in text, text


def test_the_file_given_on_the_command_line_is_bounded_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from excover.main import main

    program = tmp_path / "greedy.cmb"
    program.write_text(GREEDY)
    assert main(["studio", str(program), "--no-browser", "--memory-limit", "256"]) == 2
    said = capsys.readouterr().err
    assert f"{program}: the import stopped: it needed more than 256 MiB of memory" in said
    assert main(["studio", "--no-browser", "--memory-limit", "10"]) == 2
    assert "--memory-limit 10: give 256 to" in capsys.readouterr().err
    assert main(["studio", "--no-browser", "--import-timeout", "0"]) == 2


def test_the_server_keeps_the_tiling_of_one_list_at_a_time(client: TestClient) -> None:
    pieces = [
        {"name": name, "cells": shape.ascii().splitlines()} for name, shape in pentominoes().items()
    ]
    body = {"design": {"board": ["*" * 20] * 3, "pieces": pieces}, "task": "first"}
    keys = [client.post("/api/jobs", json=body).json()["id"] for _ in range(2)]
    studio = client.app.state.studio  # type: ignore[attr-defined]
    for key in keys:
        assert '"type": "result"' in client.get(f"/api/jobs/{key}/events").text
    for shown, other in (keys, keys[::-1]):
        page = client.get(f"/api/listings/{shown}").json()
        assert page["total"] == 1 and page["solutions"][0]["ascii"]
        assert studio.listings[shown]._tiling is not None
        assert studio.listings[other]._tiling is None
