"""Disassembling at scale: on worker processes, resumed from a checkpoint after Ctrl-C,
and the six-piece burr designs these runs are tried on.

The designs are holey six-piece burrs made of a few of the notchable pieces
(:mod:`excover.burr.sixpiece`), each usable three times: a few dozen to a few hundred
assemblies, some of which come apart at various levels and some not. A run on two
processes, and a run interrupted by SIGINT then resumed from its checkpoint, must print
what one uninterrupted run on one process prints, byte for byte.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from excover.burr import assemblies
from excover.burr.pool import disassemble_many
from excover.burr.sixpiece import NOTCHABLE, SHAPE, STICKS, burr_puzzle, notchable_pieces
from excover.burr.xmpuzzle import write_xmpuzzle
from excover.main import main

Voxel = tuple[int, int, int]


def _design(tmp_path: Path, picks: Sequence[int], name: str) -> Path:
    pieces = notchable_pieces()
    path = tmp_path / f"{name}.xmpuzzle"
    write_xmpuzzle(burr_puzzle([pieces[k] for k in picks], copies=3), path)
    return path


#: A few dozen assemblies (76), 58 of which come apart, at levels up to 5.
SMALL = (5, 54, 55)
#: Some hundreds (532).
LARGER = (5, 23, 54, 58)


def test_the_notchable_pieces_are_cutlers_59() -> None:
    pieces = notchable_pieces()
    assert len(pieces) == 59  # Bill Cutler's count of the notchable pieces
    assert len(SHAPE) == 152 and len(NOTCHABLE) == 32
    stick = STICKS[0]
    assert pieces[0] == stick  # the piece without notches
    for piece in pieces:
        assert piece <= stick and stick - piece <= NOTCHABLE
    # each notchable voxel lies in two sticks, or in three at the very centre
    through = sorted(sum(v in s for s in STICKS) for v in NOTCHABLE)
    assert through == [2] * 24 + [3] * 8


def test_two_workers_find_what_one_finds(tmp_path: Path) -> None:
    path = _design(tmp_path, SMALL, "small")
    from excover.burr.xmpuzzle import read_xmpuzzle

    found = list(assemblies(read_xmpuzzle(path)))
    assert 20 <= len(found) <= 200
    alone = dict(disassemble_many(found))
    shared = dict(disassemble_many(found, workers=2))
    assert sorted(shared) == list(range(len(found)))
    assert shared == alone
    statuses = {result.status for result in alone.values()}
    assert statuses == {"solved", "stuck"}  # a design worth the test


def test_an_executor_finds_what_one_process_finds(tmp_path: Path) -> None:
    """The tasks go to any concurrent.futures executor (a Dask Client's included, below)."""
    from concurrent.futures import ThreadPoolExecutor

    from excover.burr.xmpuzzle import read_xmpuzzle

    found = list(assemblies(read_xmpuzzle(_design(tmp_path, SMALL, "small"))))
    alone = dict(disassemble_many(found))
    with ThreadPoolExecutor(2) as threads:
        shared = dict(disassemble_many(found, workers=2, executor=threads, skip={0, 5}))
        assert shared == {k: r for k, r in alone.items() if k not in (0, 5)}
        runs = disassemble_many(found, executor=threads)
        first = next(runs)
        runs.close()  # the tasks not started are cancelled, the executor left running
        assert first[1] == alone[first[0]]
        assert threads.submit(len, found).result() == len(found)


@pytest.mark.slow
def test_a_dask_cluster_disassembles_what_one_process_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dask ADDRESS`` on a local cluster of two worker processes prints what one
    process prints, byte for byte (a real cluster starts in seconds: -m slow)."""
    pytest.importorskip("distributed")
    from faults import local_cluster

    path = str(_design(tmp_path, SMALL, "small"))
    one = _run(capsys, path, "--json", "--moves")
    with local_cluster(2) as client:
        address = str(client.scheduler_info()["address"])
        cluster = _run(capsys, path, "--json", "--moves", "--dask", address)
        assert cluster[:2] == one[:2], cluster[2]
        checkpoint = tmp_path / "run.json"
        saved = _run(capsys, path, "--json", "--dask", address, "--checkpoint", str(checkpoint))
        assert saved[0] == 0 and len(json.loads(checkpoint.read_text())["done"]) == 76
    assert json.loads(one[1])["assemblies"] == 76


def test_dask_does_not_go_with_workers_or_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from excover.cli import cluster as parallel_cli

    path = str(_design(tmp_path, SMALL, "small"))
    monkeypatch.setattr(parallel_cli, "CONNECT_SECONDS", 1)
    status, out, err = _run(capsys, path, "--dask", "tcp://127.0.0.1:9")
    assert (status, out) == (2, "") and "cannot reach the Dask scheduler" in err
    status, out, err = _run(capsys, path, "--dask", "tcp://127.0.0.1:1", "--workers", "2")
    assert (status, out) == (2, "") and "--workers does not go with --dask" in err
    status, out, err = _run(capsys, path, "--check", "--dask", "tcp://127.0.0.1:1")
    assert (status, out) == (2, "") and "--check disassembles nothing" in err


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["disassemble", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_on_two_workers_prints_what_one_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_design(tmp_path, SMALL, "small"))
    one = _run(capsys, path, "--json", "--moves")
    two = _run(capsys, path, "--json", "--moves", "--workers", "2", "--progress")
    assert (one[0], two[0]) == (0, 0)
    assert one[1] == two[1]
    document = json.loads(one[1])
    assert document["assemblies"] == 76 and document["levels"]
    text_one = _run(capsys, path, "--moves")
    text_two = _run(capsys, path, "--moves", "--workers", "2")
    assert text_one[1] == text_two[1]
    status, out, err = _run(capsys, path, "--workers", "2", "--timeout", "0")
    assert status == 1 and "assemblies: " in out and "stopped by --timeout" in err


def test_a_checkpoint_resumes_and_refuses_another_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_design(tmp_path, SMALL, "small"))
    other = str(_design(tmp_path, LARGER, "larger"))
    checkpoint = tmp_path / "run.json"
    whole = _run(capsys, path, "--json")
    first = _run(capsys, path, "--json", "--checkpoint", str(checkpoint))
    assert first[:2] == whole[:2]
    kept = json.loads(checkpoint.read_text())
    assert len(kept["done"]) == 76
    again = _run(capsys, path, "--json", "--checkpoint", str(checkpoint))
    assert again[:2] == whole[:2] and "resuming from" in again[2]
    assert "(76 assemblies disassembled by earlier runs" in again[2]
    status, out, err = _run(capsys, other, "--checkpoint", str(checkpoint))
    assert (status, out) == (2, "") and "another puzzle file" in err
    status, out, err = _run(capsys, path, "--greedy", "--checkpoint", str(checkpoint))
    assert (status, out) == (2, "") and "other settings" in err
    status, out, err = _run(capsys, path, "--problem", "1", "--checkpoint", str(checkpoint))
    assert status == 2
    status, out, err = _run(capsys, path, "--check", "--checkpoint", str(checkpoint))
    assert (status, out) == (2, "") and "--check disassembles nothing" in err
    checkpoint.write_text(checkpoint.read_text().replace('"stuck"', '"solved"', 1))
    repaired = _run(capsys, path, "--json", "--checkpoint", str(checkpoint))
    assert repaired[:2] == whole[:2] and "damaged" in repaired[2]
    assert list(tmp_path.glob("run.json.damaged-*"))


@pytest.mark.slow  # a parallel run of seconds, interrupted and resumed
def test_a_run_interrupted_by_ctrl_c_resumes_to_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(_design(tmp_path, LARGER, "larger"))
    checkpoint = tmp_path / "run.json"
    command = [sys.executable, "-m", "excover", "disassemble", path, "--json", "--moves"]
    saving = ["--checkpoint", str(checkpoint), "--checkpoint-every", "0", "--workers", "2"]
    run = subprocess.Popen(
        [*command, *saving], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    done = 0
    ends = time.monotonic() + 60
    while done == 0 and run.poll() is None and time.monotonic() < ends:
        time.sleep(0.01)
        try:
            done = len(json.loads(checkpoint.read_text())["done"])
        except (OSError, ValueError):
            continue
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "excover: interrupted; the result is partial" in err
    partial = json.loads(out)
    assert partial["complete"] is False and partial["stopped_by"] == "interrupt"
    kept = len(json.loads(checkpoint.read_text())["done"])
    assert 0 < kept < 532
    resumed = subprocess.run(
        [*command, "--checkpoint", str(checkpoint)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming from {checkpoint} ({kept} assemblies disassembled" in resumed.stderr
    whole = _run(capsys, path, "--json", "--moves")
    assert resumed.stdout == whole[1]


def test_the_assembly_standing_for_its_symmetry_class_is_the_smallest_of_its_orbit() -> None:
    """Each assembly is the one of its orbit under the result's symmetries with the
    smallest sorted list of options (docs/burr.md, "Which assembly of a symmetry
    class"): the choice matters, as the members of an orbit share the first number of
    their level (a breadth-first minimum) but not always the later stages."""
    from excover.burr import disassemble
    from excover.burr.assembly import assembly_of, cover_of

    pieces = notchable_pieces()
    puzzle = burr_puzzle([pieces[k] for k in SMALL], copies=3)
    cover = cover_of(puzzle, 0)
    symmetries = [p.tolist() for p in cover.symmetries().option_elements()]
    assert len(symmetries) > 1
    found = list(assemblies(puzzle))
    assert [a.options for a in found] == [a.options for a in assemblies(puzzle)]
    orbits = []
    for assembly in found:
        orbit = {tuple(sorted(g[o] for o in assembly.options)) for g in symmetries}
        assert assembly.options == min(orbit)
        orbits.append(sorted(orbit))
    results = [disassemble(a, complete=False) for a in found]
    differ = 0
    for result, members_options in zip(results, orbits, strict=True):
        if result.level is None or "." not in result.level:  # the levels with later stages
            continue
        members = [
            disassemble(assembly_of(puzzle, 0, cover, m), complete=False) for m in members_options
        ]
        assert all(m.status == "solved" for m in members)
        first = {str(m.level).split(".")[0] for m in members}
        assert first == {result.level.split(".")[0]}
        assert members[0].level == result.level
        differ += len({m.level for m in members}) > 1
    assert differ > 0


@pytest.mark.parametrize("pinned", [False, True], ids=["burr", "soma"])
def test_the_plain_listing_and_the_symmetry_broken_search_give_the_same_assemblies(
    monkeypatch: pytest.MonkeyPatch, pinned: bool
) -> None:
    """A problem whose plain search (a piece pinned when one can be: the Soma cube's
    pieces are used once each, a six-piece burr's up to three times) ends within
    ``PLAIN_NODES`` nodes keeps the smallest member of each orbit it meets; a larger one
    takes the symmetry-broken search: both give the same assemblies, one per orbit (as
    many as the count up to symmetry), in an order of their own."""
    from excover.burr import assembly
    from excover.burr.xmpuzzle.from_patterns import design
    from excover.tiling import Pattern3, soma_pieces

    if pinned:
        puzzle = design(Pattern3.constant(3, 3, 3, True), soma_pieces())
    else:
        pieces = notchable_pieces()
        puzzle = burr_puzzle([pieces[k] for k in SMALL], copies=3)
    cover = assembly.cover_of(puzzle, 0)
    generators = cover.declared_symmetries() or []
    orbits = assembly._Orbits(generators, cover.n_items, cover.n_options)  # type: ignore[arg-type]
    kept = assembly._pinned(cover, generators, orbits)[1]  # type: ignore[arg-type]
    assert (len(kept) < cover.n_options) == pinned
    plain = [a.options for a in assemblies(puzzle)]
    monkeypatch.setattr(assembly, "PLAIN_NODES", 1)
    broken = [a.options for a in assemblies(puzzle)]
    assert sorted(plain) == sorted(broken)
    assert len(set(plain)) == len(plain) == cover.count(up_to_symmetry=True)


def test_each_assembly_listed_is_the_smallest_member_of_its_orbit() -> None:
    """Each assembly of the plain listing (its orbits' smallest members found by the
    compiled pass) is the smallest of its orbit under every symmetry of the problem, its
    sorted options compared with the option of BurrTools' symmetry breaker first."""
    from excover.burr import assembly
    from excover.burr.xmpuzzle.cover import breaker, kind_name
    from excover.burr.xmpuzzle.from_patterns import design
    from excover.tiling import Pattern3, soma_pieces

    puzzle = design(Pattern3.constant(3, 3, 3, True), soma_pieces())
    cover = assembly.cover_of(puzzle, 0)
    first = breaker(puzzle, 0)
    assert first is not None
    kind = cover.items.index(kind_name(puzzle, puzzle.problems[0].parts[first].shape))
    breaking = {k for k in range(cover.n_options) if cover.items[kind] in cover.option_items(k)}

    def key(options: Sequence[int]) -> list[tuple[bool, int]]:
        return sorted((o not in breaking, o) for o in options)

    whole = [a.options for a in assemblies(puzzle)]
    symmetries = [p.tolist() for p in cover.symmetries().option_elements()]
    assert len(symmetries) == 48  # the rotations, and mirrors: the pieces have partners
    for options in whole:
        best = min((sorted(g[o] for o in options) for g in symmetries), key=key)
        assert list(options) == best


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_compiled_smallest_members_agree_with_an_oracle(data: st.DataObject) -> None:
    """:func:`excover.burr._orbits.smallest_members` on random permutations and random
    solutions of mixed lengths: the smallest sorted image of each solution, each first
    met once, in order, padded."""
    import numpy as np

    from excover.burr._orbits import smallest_members

    n = data.draw(st.integers(1, 12))
    others = data.draw(st.lists(st.permutations(list(range(n))), max_size=4))
    elements = [list(range(n)), *others]
    solutions = data.draw(
        st.lists(st.lists(st.integers(0, n - 1), max_size=n, unique=True), max_size=30)
    )
    expected: dict[tuple[int, ...], None] = {}
    for solution in solutions:
        expected.setdefault(min(tuple(sorted(g[o] for o in solution)) for g in elements))
    starts = np.cumsum([0] + [len(s) for s in solutions], dtype=np.int64)
    flat = np.array([o for s in solutions for o in s], dtype=np.int64)
    table, lengths = smallest_members(np.array(elements, dtype=np.int64), flat, starts, n)
    rows = table.tolist()
    assert [tuple(r[:k]) for r, k in zip(rows, lengths.tolist(), strict=True)] == list(expected)
    assert all(value == n for r, k in zip(rows, lengths.tolist(), strict=True) for value in r[k:])


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_compiled_decoding_agrees_with_an_oracle(data: st.DataObject) -> None:
    """:func:`excover.burr._orbits.decoded` on random rows: each row's options as a
    tuple, and the pieces of the options with a rank (not holes), ordered by rank."""
    import numpy as np

    from excover.burr._orbits import decoded

    n = data.draw(st.integers(1, 10))
    rank = data.draw(st.permutations(list(range(n))))
    holes = data.draw(st.sets(st.integers(0, n - 1)))
    rank = [-1 if o in holes else r for o, r in enumerate(rank)]
    rows = data.draw(st.lists(st.lists(st.integers(0, n - 1), max_size=n, unique=True)))
    width = max((len(r) for r in rows), default=0)
    table = np.full((len(rows), width), n, dtype=np.int64)
    for k, row in enumerate(rows):
        table[k, : len(row)] = row
    lengths = np.array([len(r) for r in rows], dtype=np.int64)
    pieces = [f"piece {o}" for o in range(n)]
    found = decoded(
        table, lengths, np.array(rank, dtype=np.int64), pieces, "groups", 1, lambda *a: a
    )
    for row, (placed, groups, options, grid) in zip(rows, found, strict=True):
        assert options == tuple(row) and (groups, grid) == ("groups", 1)
        assert placed == tuple(pieces[o] for o in sorted(row, key=rank.__getitem__) if rank[o] >= 0)
