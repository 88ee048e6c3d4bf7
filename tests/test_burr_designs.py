"""Six-piece burr designs (:mod:`excover.burr.designs`) against independent truth: on
small families of notchable pieces every multiset of six, taken without the mirror
reduction, the area rejection or the early exit, is assembled and taken apart directly,
and the search must agree (each design standing for its mirror image, its weight the
multisets it stands for); the designs' assemblies and solutions are those of Cutler's
survey enumeration (:mod:`excover.burr.notchable`, another route), each unique design's
assemblies a plain exact cover count of its own puzzle, its level that of its solution
taken apart alone; and ``excover design burrs`` runs, resumes from its ledger, writes
solved ``.xmpuzzle`` files and refuses bad input with exit status 2."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from excover import ExactCover, ExcoverError
from excover.burr import Disassembly, assemblies, disassemble
from excover.burr.designs import BurrDesigns, design_puzzle, level_score
from excover.burr.notchable import catalog, survey_unit
from excover.burr.sixpiece import SHAPE, notchable_pieces
from excover.burr.xmpuzzle import read_xmpuzzle
from excover.design import DeclarationError, DesignError, Goal, search
from excover.main import main

ROOT = Path(__file__).resolve().parent.parent
#: A family closed under mirror images (pieces 55 and 57 a mirror pair; from 0 it is
#: (14, 33, 53, 54, 56) of tests/test_burr_notchable.py): 210 multisets, one unique.
FAMILY = "notchable:15,34,54,55,57"
#: A family with deeper unique designs (levels 5.4 and 5), not closed under mirrors.
DEEP = "notchable:35,39,51,54,57"


def _plain(pieces: tuple[int, ...]) -> list[Disassembly]:
    """Every assembly of a design's own puzzle taken apart as BurrTools does."""
    return [disassemble(a, complete=False) for a in assemblies(design_puzzle(pieces))]


@pytest.fixture(scope="module")
def brute() -> dict[tuple[int, ...], tuple[int, int]]:
    """Each multiset of six pieces of the family (its pieces' numbers from 0), with its
    assemblies and solutions: no reduction, no rejection, no early exit."""
    numbers = BurrDesigns(FAMILY).numbers
    found = {}
    for chosen in itertools.combinations_with_replacement(numbers, 6):
        results = _plain(chosen)
        found[chosen] = (len(results), sum(r.status == "solved" for r in results))
    return found


def _pieces_at(space: BurrDesigns, index: int) -> tuple[int, ...]:
    """The pieces (numbers from 0) of the design at ``index``."""
    design = space.design(index)
    assert design is not None
    return space.numbers_of(design)


def _mirror_image(chosen: tuple[int, ...]) -> tuple[int, ...]:
    mirror = catalog().mirror
    return tuple(sorted(mirror[k] for k in chosen))


def _bucket(count: int) -> str:
    return str(count) if count <= 1 else "2+"


def test_the_search_agrees_with_every_multiset_taken_apart(
    brute: dict[tuple[int, ...], tuple[int, int]],
) -> None:
    space = BurrDesigns(FAMILY)
    assert space.size == len(brute) == 210
    designs = [d for d in (space.design(i) for i in range(space.size)) if d is not None]
    assert sum(d.weight for d in designs) == space.size  # each multiset stood for once
    by_pieces = {space.numbers_of(d): d for d in designs}
    for chosen, (_, solutions) in brute.items():
        image = _mirror_image(chosen)
        assert brute[image][1] == solutions  # a mirror image has the same solutions
        design = by_pieces.get(min(chosen, image))
        assert design is not None and design.weight == (1 if image == chosen else 2)

    every = search(space, Goal(solutions=None))  # each design's solutions, exact
    assert every.complete and every.designs == len(designs)
    every_piece = notchable_pieces()
    rejected = [c for c in brute if sum(len(every_piece[k]) for k in c) > len(SHAPE)]
    assert every.rejected == {"area": sum(1 for c in rejected if c <= _mirror_image(c))}
    assert all(brute[chosen] == (0, 0) for chosen in rejected)
    with_solutions = {_pieces_at(space, f.index): f for f in every.found}
    assert sum(f.weight for f in every.found) == sum(1 for _, s in brute.values() if s)
    for chosen, (assembled, solutions) in brute.items():
        if chosen > _mirror_image(chosen):
            continue
        if solutions:
            found = with_solutions[chosen]
            assert found.solutions == solutions
            assert found.scores["assemblies"] == assembled
        else:
            assert chosen not in with_solutions

    unique = search(space)  # exactly one solution: the search stops at a second
    representatives = {c: s for c, (_, s) in brute.items() if c <= _mirror_image(c)}
    assert unique.distribution == dict(Counter(_bucket(s) for s in representatives.values()))
    assert {f.key for f in unique.found} == {
        " ".join(str(k + 1) for k in c) for c, s in representatives.items() if s == 1
    }
    assert sum(f.weight for f in unique.found) == sum(1 for _, s in brute.values() if s == 1)
    assert [f.key for f in unique.found] == ["34 34 34 54 55 57"]


def test_the_designs_are_those_of_cutlers_survey_enumeration() -> None:
    """Cutler's enumeration (every assembly of the family's pieces once up to the burr's
    24 symmetries, taken apart by its own batch) grouped by design: the same
    assemblies and solutions as each design's own puzzle."""
    space = BurrDesigns(FAMILY)
    cat = catalog(space.numbers)
    classes: Counter[tuple[int, ...]] = Counter()
    solved: Counter[tuple[int, ...]] = Counter()
    for first, second in cat.units():
        for row in cat.chunk(first, second):
            classes[cat.design_key(row)] += 1
        unit = survey_unit(first, second, cat=cat, keep_level=0, keep_total=0)
        for row, _, _ in unit.candidates:
            solved[cat.design_key(np.array(row))] += 1
    report = search(space, Goal(solutions=None))
    found = {_pieces_at(space, f.index): f for f in report.found}
    assert set(found) == set(solved)
    for key, design in found.items():
        assert (design.solutions, design.scores["assemblies"]) == (solved[key], classes[key])


@pytest.mark.parametrize("family", [FAMILY, DEEP])
def test_each_unique_design_checked_on_its_own_puzzle(family: str) -> None:
    """A plain exact cover count of the design's puzzle gives its assemblies; exactly
    one of them comes apart, and its level and moves, taken apart alone, are the
    report's."""
    space = BurrDesigns(family)
    report = search(space, Goal(top=10, by="level"))
    assert report.found
    for pieces, scores in ((_pieces_at(space, f.index), f.scores) for f in report.found):
        puzzle = design_puzzle(pieces)
        count = ExactCover.from_burrtools(puzzle).count(up_to_symmetry=True)
        assert scores["assemblies"] == count
        solved = [
            r
            for r in (disassemble(a, complete=False) for a in assemblies(puzzle))
            if r.status == "solved"
        ]
        assert len(solved) == 1
        assert scores["level"] == level_score(solved[0])
        assert scores["moves"] == solved[0].total


def test_levels_rank_as_burrtools_reads_them() -> None:
    """The deepest first: 5.4 before 5 (a level after its extensions, highest first),
    ties broken by index; the level is the string's numbers."""
    space = BurrDesigns(DEEP)
    report = search(space, Goal(top=3, by="level"))
    keys = [(f.key, f.scores["level"], f.scores["moves"]) for f in report.found]
    assert keys == [
        ("35 39 51 54 57 57", (5, 4), 12),
        ("39 51 51 54 57 57", (5,), 9),
        ("35 51 51 51 54 54", (1, 2), 6),
    ]
    assert report.qualifying == 5


def test_a_mirror_image_outside_the_catalog_leaves_a_design_alone() -> None:
    space = BurrDesigns(DEEP)  # 57's mirror image (55) is not in the family
    designs = [space.design(i) for i in range(space.size)]
    assert all(d is not None and d.weight == 1 for d in designs)


def test_solid_burrs_need_every_voxel() -> None:
    space = BurrDesigns(FAMILY, holes=False)
    report = search(space, Goal(solutions=None))
    assert report.qualifying == 0
    assert space.describe().endswith("in the solid six-piece burr")
    assert space.declaration()["holes"] is False


def test_bad_fields_are_clear_errors() -> None:
    cases = [
        ({"catalog": "notchable:1,60"}, "catalog", "no notchable piece 60"),
        ({"catalog": "notchable:0"}, "catalog", "no notchable piece 0"),
        ({"catalog": "notchable:3,x"}, "catalog", "'x' is not a piece number"),
        ({"catalog": "notchable:3,3"}, "catalog", "piece 3 is named twice"),
        ({"catalog": "pentominoes"}, "catalog", "must be 'notchable'"),
        ({"pieces": 5}, "pieces", "must be 6"),
        ({"copies": 0}, "copies", "whole number >= 1"),
        ({"catalog": "notchable:1,2", "copies": 2}, "copies", "6 pieces cannot be chosen"),
        ({"holes": "yes"}, "holes", "true or false"),
    ]
    for fields, field, message in cases:
        with pytest.raises(DeclarationError, match=message) as caught:
            BurrDesigns(**fields)  # type: ignore[arg-type]
        assert caught.value.field == field
        assert isinstance(caught.value, ExcoverError)
    with pytest.raises(DesignError, match="up to the burr's symmetries"):
        search(BurrDesigns(FAMILY), Goal(up_to_symmetry=False))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["design", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_line_runs_resumes_and_writes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ledger = tmp_path / "burrs.jsonl"
    argv = ["burrs", "--catalog", FAMILY, "--goal", "unique", "--ledger", str(ledger)]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "searched: 130 designs in 210 candidates\n" in out
    assert "1. 34 34 34 54 55 57  (1 solution, level 3, moves 7, assemblies 4)" in out
    assert "level 3 in 7 moves" in out
    lines = ledger.read_text().splitlines()
    status, again, _ = run(capsys, *argv, "--write", str(tmp_path / "out"))
    assert status == 0
    assert "130 of them from the ledger" in again
    assert ledger.read_text().splitlines() == lines  # nothing searched again
    puzzle = read_xmpuzzle(str(tmp_path / "out" / "design-140.xmpuzzle"))
    problem = puzzle.problems[0]
    assert (problem.assemblies, problem.solutions, len(problem.stored)) == (4, 1, 1)
    status, out, _ = run(capsys, "burrs", "--catalog", FAMILY, "--no-holes", "--json")
    assert status == 0 and json.loads(out)["qualifying"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--catalog", "notchable:3,99"], "--catalog: no notchable piece 99"),
        (["--pieces", "4"], "--pieces: must be 6"),
        (["--catalog", FAMILY, "--copies", "0"], "--copies"),
        (["--catalog", FAMILY, "--write", "x", "--format", "svg"], "written as xmpuzzle"),
    ],
)
def test_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    try:
        status, _, err = run(capsys, "burrs", *argv)
    except SystemExit as stop:  # argparse refuses --copies 0 itself
        status, err = int(str(stop.code)), capsys.readouterr().err
    assert status == 2
    assert message in err


def test_the_example_declaration_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # its ledger is written where it runs
    example = ROOT / "examples" / "design_burr.toml"
    status, out, _ = run(capsys, str(example), "--range", "0:150", "--json")
    assert status == 0
    document = json.loads(out)
    assert document["kind"] == "burrs" and document["candidates"] == 150
    assert (tmp_path / "design_burr.ledger").exists()
