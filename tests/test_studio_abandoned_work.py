"""No work of the studio outlives the one who asked for it (issue #80): a run whose page
stops saying that it follows it is cancelled, a run past the studio's longest run time
is stopped (by its child, else by the server), and an import or a disassembly whose
client disconnects is stopped; each time the place it held goes to the next request.

Time is the test's: the studio's clock is a :class:`Clock` that moves when the test says
(or a bound is tiny), and each change of state is polled for with a generous upper wait,
so that a busy machine delays the test but never fails it. A client going away is driven
through the application's ASGI interface (Starlette's test client disconnects only after
the answer)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.applications import Starlette
from starlette.testclient import TestClient
from test_studio_api import ADDRESS, PORT, TOKEN, events, pentomino_design, start
from test_studio_disassembly import maze_design, solved
from test_studio_limits import long_count

from excover.studio.app import GONE, MAX_DISASSEMBLING, Studio, create_app
from excover.studio.child import STARTUP_SECONDS
from excover.studio.limits import Limits

#: The most seconds a test waits for a change of state it has caused.
WAIT = 120.0


class Clock:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def until(done: Callable[[], bool], what: str) -> None:
    """Wait (at most :data:`WAIT` seconds) until ``done()``."""
    end = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < end, what
        time.sleep(0.02)


def studio_of(client: TestClient) -> Studio:
    studio: Studio = client.app.state.studio  # type: ignore[attr-defined]
    return studio


@pytest.fixture
def clock() -> Clock:
    return Clock()


def client_of(limits: Limits, clock: Callable[[], float] = time.monotonic) -> TestClient:
    app = create_app(TOKEN, PORT, limits=limits, clock=clock)
    return TestClient(app, base_url=ADDRESS, headers={"X-Studio-Token": TOKEN})


def followed(client: TestClient, key: str) -> tuple[list[dict[str, Any]], threading.Thread]:
    """The events of run ``key``, read in a thread into a list (as the page's stream is
    read), once its child runs."""
    found: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: found.extend(events(client, key)), daemon=True)
    reader.start()
    studio = studio_of(client)
    until(lambda: key in studio.jobs and studio.jobs[key].alive, "the run never started")
    return found, reader


# ----- runs -----


def test_a_run_its_page_stops_following_is_cancelled_and_gives_up_its_place(
    clock: Clock,
) -> None:
    with client_of(Limits(abandon_seconds=60), clock) as client:
        studio = studio_of(client)
        key = start(client, long_count(), "count")
        found, reader = followed(client, key)
        job = studio.jobs[key]
        process = job._child._process
        assert process is not None
        clock.now += 59
        assert client.post(f"/api/jobs/{key}/alive").json() == {"alive": True}
        clock.now += 59  # followed 59 s ago: it goes on
        assert studio._overdue(job) is None and job.alive
        clock.now += 2  # 61 s without a word from its page
        until(lambda: key not in studio.jobs, "the run was not forgotten")
        until(lambda: not process.is_alive(), "the run's child goes on")
        reader.join(WAIT)
        assert not reader.is_alive()
        assert found[-1]["type"] == "cancelled"
        assert found[-1]["message"] == "no page followed the run for 60 s"
        assert client.post(f"/api/jobs/{key}/alive").status_code == 404
        assert events(client, start(client, pentomino_design(20, 3), "first"))[-1]["found"]


def test_a_run_past_the_longest_run_time_is_stopped_by_the_server(clock: Clock) -> None:
    """The child stops itself at the longest run time (its own clock); one that does not
    (here the studio's clock runs ahead of it) is killed, with its start-up time to
    spare."""
    limits = Limits(run_seconds=3600, abandon_seconds=10**9)
    with client_of(limits, clock) as client:
        studio = studio_of(client)
        key = start(client, long_count(), "count")
        found, reader = followed(client, key)
        clock.now += 3600 + STARTUP_SECONDS - 1
        assert studio._overdue(studio.jobs[key]) is None
        clock.now += 2
        until(lambda: key not in studio.jobs, "the run was not stopped")
        reader.join(WAIT)
        assert found[-1]["type"] == "cancelled"
        assert "took more than 3600 s, the studio's longest run time" in found[-1]["message"]


@pytest.mark.parametrize("seconds", [None, 1000, 0.2])
def test_a_run_stops_at_the_longest_run_time_whatever_its_own_limit(
    seconds: float | None,
) -> None:
    """The count runs for weeks: without a time limit, or with a longer one, the
    studio's longest run time stops it and the result says so; a shorter limit of its
    own stops it first."""
    with client_of(Limits(run_seconds=0.5, abandon_seconds=10**9)) as client:
        settings = {} if seconds is None else {"seconds": seconds}
        result = events(client, start(client, long_count(), "count", **settings))[-1]
        assert (result["type"], result["stopped_by"]) == ("result", "timeout")
        assert result.get("maximum") == (0.5 if seconds != 0.2 else None)


# ----- requests whose client goes away -----


def loose_cubes_design() -> dict[str, Any]:
    """A closed box (floor, walls, ceiling: one piece) around 20 loose cubes in a layer of
    25 cells: the disassembler explores their slides for tens of seconds."""
    full = ["*******"] * 7
    ring = ["*******", *["*.....*"] * 5, "*******"]
    middle = ["*******", *["*******"] * 4, "*.....*", "*******"]
    return {
        "grid": "cube",
        "board": [full, middle, full],
        "pieces": [
            {"name": "box", "cells": [full, ring, full], "symmetry": "rotations"},
            {"name": "cube", "cells": [["*"]], "count": "20"},
        ],
    }


async def abandoned(
    app: Starlette, requests: list[tuple[str, bytes]], started: Callable[[], bool]
) -> list[int]:
    """Send each of ``requests`` (a path, a body) to ``app`` through its ASGI interface,
    their clients disconnecting once ``started()`` says their work is under way; the
    statuses answered."""
    gone = asyncio.Event()
    statuses: list[int] = []

    async def call(path: str, body: bytes) -> None:
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop()
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        headers = [
            (b"host", f"127.0.0.1:{PORT}".encode()),
            (b"x-studio-token", TOKEN.encode()),
            (b"content-length", str(len(body)).encode()),
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", PORT),
        }
        await app(scope, receive, send)

    calls = asyncio.gather(*(call(path, body) for path, body in requests))
    end = time.monotonic() + WAIT
    while not started():
        assert not calls.done(), f"answered before their clients went: {statuses}"
        assert time.monotonic() < end, "the work never started"
        await asyncio.sleep(0.02)
    gone.set()
    await asyncio.wait_for(calls, WAIT)
    return statuses


def test_disassemblies_whose_clients_went_away_give_up_their_places() -> None:
    """Both places of the disassemblies taken by requests whose clients then go away:
    both children are killed at once, and the next request is answered."""
    with client_of(Limits()) as client:
        studio = studio_of(client)
        key = solved(client, loose_cubes_design())
        path = f"/api/listings/{key}/0/disassemble"
        body = json.dumps({"seconds": 3600}).encode()

        def both_going() -> bool:
            if sum(child.alive for child in studio.disassemblies) < MAX_DISASSEMBLING:
                return False
            assert client.post(path, json={}).status_code == 429  # no place left
            return True

        app: Starlette = client.app  # type: ignore[assignment]
        requests = [(path, body)] * MAX_DISASSEMBLING
        children = studio.disassemblies
        assert asyncio.run(abandoned(app, requests, both_going)) == [GONE] * MAX_DISASSEMBLING
        assert studio.disassembling == 0 and not children
        maze = solved(client, maze_design())
        answer = client.post(f"/api/listings/{maze}/0/disassemble", json={})
        assert answer.status_code == 200 and answer.json()["status"] == "solved"


def test_an_import_whose_client_went_away_stops() -> None:
    """A program of seconds of work (36,000 quarter turns) whose client goes away: its
    child is killed, and the next import has its turn at once."""
    program = "pattern a = constant 64x64 true\n" + "pattern a = apply Rot90 a\n" * 36000
    with client_of(Limits(seconds=600)) as client:
        studio = studio_of(client)
        app: Starlette = client.app  # type: ignore[assignment]

        def going() -> bool:
            return any(child.alive for child in studio.imports)

        statuses = asyncio.run(abandoned(app, [("/api/import", program.encode())], going))
        assert statuses == [GONE]
        assert not studio.imports and studio.importers == 0
        answer = client.post("/api/import", content="pattern a = {**}\nproblem p = a [a]\n")
        assert answer.status_code == 200, answer.text


def test_a_disassembly_stops_at_the_longest_run_time_whatever_its_own_limit() -> None:
    with client_of(Limits(run_seconds=1)) as client:
        key = solved(client, loose_cubes_design())
        answer = client.post(f"/api/listings/{key}/0/disassemble", json={"seconds": 3600})
        found = answer.json()
        assert (answer.status_code, found["status"]) == (200, "unknown"), found
        assert "time" in found["reason"]


def test_the_longest_run_time_is_a_positive_number_of_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from excover.main import main

    for given in ("0", "-1", "nan", "1e12"):
        assert main(["studio", "--no-browser", "--max-run-time", given]) == 2
        assert f"--max-run-time {float(given):g}: give more than 0" in capsys.readouterr().err


@pytest.fixture(autouse=True)
def _no_leftover_children() -> Iterator[None]:
    """The children a test made are gone by its end (the studio reaps what it kills)."""
    import multiprocessing

    before = set(multiprocessing.active_children())
    yield
    end = time.monotonic() + WAIT
    while set(multiprocessing.active_children()) - before:
        assert time.monotonic() < end, "a child outlived its test"
        time.sleep(0.05)
