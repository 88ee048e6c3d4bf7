"""The new terms of benchmarks/data/records/ and the docs' records page (issue #58).

A term enters ``terms.json`` once two routes agree on it. These tests hold the file to
that and to its evidence: every route of a term gives its value, a ledger named by a
route loads as a resumed run would load it (the problem rebuilt from today's code, its
checksum and subproblems checked) and is complete, with the term as its total, and the
records page of the docs shows each term with its value and each route's CPU time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from excover.parallel.checkpoint import Checkpoint
from excover.sequences import problem

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "benchmarks" / "data" / "records"
PAGE = ROOT / "docs" / "records.md"
TERMS: list[dict[str, Any]] = json.loads((RECORDS / "terms.json").read_text())


def ledgers(entry: dict[str, Any]) -> list[Path]:
    """The ledgers (``ID-N.json``) that the routes of ``entry`` name."""
    names = {name for route in entry["routes"] for name in re.findall(r"\S+\.json", route["route"])}
    return [RECORDS / name for name in sorted(names)]


def test_every_term_is_agreed_by_two_routes() -> None:
    assert TERMS, "terms.json lists no term"
    for entry in TERMS:
        routes = entry["routes"]
        assert len(routes) >= 2, entry["sequence"]
        assert len({route["route"] for route in routes}) == len(routes)
        assert {route["value"] for route in routes} == {entry["value"]}
        assert all(route["cpu_seconds"] > 0 for route in routes)


@pytest.mark.parametrize("entry", TERMS, ids=lambda e: f"{e['sequence']}({e['n']})")
def test_a_term_is_the_total_of_its_complete_ledger(entry: dict[str, Any]) -> None:
    paths = ledgers(entry)
    assert paths, "no route of the term keeps a ledger"
    for path in paths:
        state = Checkpoint.load(path, problem(entry["sequence"], entry["n"]), "search")
        assert state is not None, path
        assert state.complete, path
        assert len(state.done) == len(state.subproblems)
        assert state.count == int(entry["value"])


def test_the_records_page_shows_every_term_and_route() -> None:
    page = PAGE.read_text()
    for entry in TERMS:
        sequence, n = entry["sequence"], entry["n"]
        assert f"[{sequence}](https://oeis.org/{sequence})({n})" in page
        assert f"**{int(entry['value']):,}**" in page
        for route in entry["routes"]:
            assert f"{round(route['cpu_seconds']):,} s" in page, route["route"]


@pytest.mark.slow
def test_the_half_turn_ledger_of_a328020_9_holds_the_problem_the_code_builds() -> None:
    """A328020(9)'s largest part besides the dissections, the tilings the half turn fixes,
    was counted by subproblems with a ledger (benchmarks/data/records/A328020-9/): the
    ledger loads on the quotient problem today's code builds for the half turn, is
    complete, and totals the figure the records page gives."""
    from excover.sequences.polyominoes import square_by_ominoes
    from excover.symmetry.chain import is_identity
    from excover.symmetry.fixed import Quotient, elements_of

    cover = square_by_ominoes(9)
    others = [g for g in elements_of(cover.symmetries(), "A328020") if not is_identity(g)]
    # the half turn: the one other symmetry of order 2 that commutes with every one (the
    # centre of the square's group), found by what it is, not by where a listing puts it
    half_turn = [
        g for g in others if is_identity(g[g]) and all(np.array_equal(g[h], h[g]) for h in others)
    ]
    assert len(half_turn) == 1
    quotient = Quotient(cover, half_turn[0])
    state = Checkpoint.load(RECORDS / "A328020-9" / "fixed-4.json", quotient.exact_cover, "search")
    assert state is not None and state.complete
    assert state.count == 21_693_885
    assert "21,693,885" in PAGE.read_text()
