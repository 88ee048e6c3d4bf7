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


#: The square's symmetries other than the identity, as the Burnside ledgers name them.
SYMMETRIES = ("Rot90", "Rot180", "Rot270", "VertRefl", "HorizRefl", "Diag1Refl", "Diag2Refl")

#: Pairs of symmetries conjugate in the square's group: they fix as many tilings.
CONJUGATES = (("Rot90", "Rot270"), ("VertRefl", "HorizRefl"), ("Diag1Refl", "Diag2Refl"))


def burnside_term(sequence: str, n: int, fixed: dict[str, int]) -> int:
    """The term a Burnside ledger's fixed counts give, worked out here from the ledger's
    raw counts (not by the benchmark's code): the classes are the mean of the 8 fixed
    counts; the classes with a symmetry are the classes less the free ones, counted by
    Moebius inversion on the square's subgroup lattice (1 for the trivial group, -1 for
    each of the five of order 2, 2 for each Klein group, 0 for the cyclic group of order
    4 and the whole group)."""
    if sequence == "A145835":
        return fixed["Id"]
    identity = fixed["Id"] if "Id" in fixed else known("A172477", n)
    total = identity + sum(fixed[name] for name in SYMMETRIES)
    assert total % 8 == 0, "the 8 fixed counts do not sum to a multiple of the group's order"
    if sequence in ("A291806", "A328020"):
        return total // 8
    assert sequence == "A291807", sequence
    order_two = ("Rot180", "VertRefl", "HorizRefl", "Diag1Refl", "Diag2Refl")
    free = identity - sum(fixed[name] for name in order_two)
    free += 2 * fixed["axes"] + 2 * fixed["diagonals"]
    assert free % 8 == 0, "the free tilings are not in orbits of 8"
    return total // 8 - free // 8


def known(sequence: str, n: int) -> int:
    """A published term, as :mod:`excover.sequences` holds it."""
    from excover.sequences.known import KNOWN, OFFSET

    return int(KNOWN[sequence][n - OFFSET[sequence]])


def check_burnside_ledger(entry: dict[str, Any], ledger: dict[str, Any]) -> None:
    """A Burnside ledger (benchmarks/a291806.py, a328020.py frontier) holds the fixed
    count of each symmetry, some by a second route under a name with a suffix: every
    second route equals the first, conjugate symmetries fix as many, every subgroup's
    sum divides by its order, and the fixed counts give the term."""
    assert ledger["n"] == entry["n"]
    assert not ledger.get("failures"), ledger.get("failures")
    fixed = {name: int(count["count"]) for name, count in ledger["fixed"].items()}
    for name, value in fixed.items():
        first = name.split(" (")[0]
        assert value == fixed[first], f"{name} disagrees with {first}"
    for one, other in CONJUGATES:
        assert fixed[one] == fixed[other], (one, other)
    assert burnside_term(entry["sequence"], entry["n"], fixed) == int(entry["value"])


def check_parts_ledger(entry: dict[str, Any], ledger: dict[str, Any]) -> None:
    """A ledger of a count in numbered parts (benchmarks/a360773.py: ``parts`` parts by
    states, or ``chunks`` chunks of key sets): of the term's sequence and n, every part
    done once, the parts' counts summing to the term and their CPU times to the route's."""
    assert (ledger["sequence"], ledger["n"]) == (entry["sequence"], entry["n"])
    size: int = ledger["parts"] if "parts" in ledger else ledger["chunks"]
    assert sorted(ledger["done"], key=int) == [str(k) for k in range(size)]
    assert sum(int(part["count"]) for part in ledger["done"].values()) == int(entry["value"])
    route = next(r for r in entry["routes"] if f"/{ledger['route']}.json" in r["route"])
    cpu = sum(part["cpu"] for part in ledger["done"].values())
    assert route["cpu_seconds"] == pytest.approx(cpu, abs=1.0)


def entry_ledgers() -> list[tuple[dict[str, Any], Path]]:
    """Each term with each ledger its routes name."""
    return [(entry, path) for entry in TERMS for path in ledgers(entry)]


@pytest.mark.parametrize(
    ("entry", "path"),
    entry_ledgers(),
    ids=[f"{e['sequence']}({e['n']}):{p.relative_to(RECORDS)}" for e, p in entry_ledgers()],
)
def test_a_term_is_the_total_of_its_complete_ledger(entry: dict[str, Any], path: Path) -> None:
    """A ledger is one of three kinds: the search of the term's whole problem by
    subproblems (complete, the term its total), a Burnside ledger of fixed counts (the
    term worked out from them here), or the search of one fixed count of a Burnside term
    (held by the half turn's slow test below, and equal here to the Burnside ledger's
    count of that symmetry)."""
    data = json.loads(path.read_text())
    if "fixed" in data:
        check_burnside_ledger(entry, data)
        return
    if "route" in data:
        check_parts_ledger(entry, data)
        return
    if path.parent.name != RECORDS.name:
        # a part of a term: one symmetry's fixed count, beside the term's Burnside ledger
        frontier = json.loads((path.parent / "frontier.json").read_text())
        assert data["count"] in {int(c["count"]) for c in frontier["fixed"].values()}
        return
    state = Checkpoint.load(path, problem(entry["sequence"], entry["n"]), "search")
    assert state is not None, path
    assert state.complete, path
    assert len(state.done) == len(state.subproblems)
    assert state.count == int(entry["value"])


def test_every_term_keeps_a_ledger_or_says_why() -> None:
    """Every term of terms.json names a ledger in a route, or is a term whose routes
    are whole counts with their logs (no ledger to resume)."""
    for entry in TERMS:
        if not ledgers(entry):
            assert all(".log" in route["route"] for route in entry["routes"]), entry["sequence"]


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
