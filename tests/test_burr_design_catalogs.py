"""Burr design spaces beyond Cutler's notchable pieces (:mod:`excover.burr.design_catalog`):
the general pieces (any removable cubies), sticks 6 long, the shapes and result of a
BurrTools file, and the designs written as STL; each against an independent route:
Cutler's published count of general pieces, notchable.py's mirror partners, the direct
search of each design's own puzzle, a BurrTools puzzle with ranges counted whole."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from excover.burr import assemblies, disassemble
from excover.burr.design_catalog import burr_result, form, read_catalog
from excover.burr.designs import BurrDesigns
from excover.burr.notchable import catalog
from excover.burr.sixpiece import (
    NOTCHABLE,
    SHAPE,
    STICKS,
    at_length,
    general_pieces,
    notchable_pieces,
)
from excover.burr.xmpuzzle import BurrProblem, BurrPuzzle, BurrShape, Part, write_xmpuzzle
from excover.design import DeclarationError, Goal, LedgerError, search
from excover.main import main

#: Five notchable pieces with unique designs of levels 5.4 and 5 (tests/test_burr_designs).
DEEP = (35, 39, 51, 54, 57)


def _connected(voxels: frozenset[tuple[int, int, int]]) -> bool:
    start = next(iter(voxels))
    seen, todo = {start}, [start]
    while todo:
        x, y, z = todo.pop()
        for step in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            near = (x + step[0], y + step[1], z + step[2])
            if near in voxels and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(voxels)


def test_the_general_pieces_are_cutlers_837() -> None:
    pieces = general_pieces()
    assert len(pieces) == 837  # Cutler's count of the general six-piece burr pieces
    stick = STICKS[0]
    for piece in pieces:
        assert stick - NOTCHABLE <= piece <= stick and _connected(piece)
    forms = {form(piece) for piece in pieces}
    assert len(forms) == 837  # no two the same up to a rotation
    assert {form(piece) for piece in notchable_pieces()} <= forms


def test_mirror_partners_agree_with_the_survey_catalog() -> None:
    filled, optional = burr_result()
    notchable, _ = read_catalog("notchable", filled, optional, "burr")
    assert notchable.mirror == tuple(catalog().mirror)
    general, _ = read_catalog("general", filled, optional, "burr")
    for k, partner in enumerate(general.mirror):
        assert partner is not None and general.mirror[partner] == k


def test_sticks_six_long() -> None:
    shape = at_length(SHAPE, 6)
    assert len(shape) == len(SHAPE) - 6 * 8 and max(max(v) for v in shape) == 5
    filled, optional = burr_result(6)
    assert optional == at_length(NOTCHABLE, 6) and len(optional) == 32
    space = BurrDesigns(catalog="notchable:35,39,51,54,57", length=6)
    long = BurrDesigns(catalog="notchable:35,39,51,54,57")
    assert space.declaration()["length"] == 6 and "length" not in long.declaration()
    design = space.design(98)
    assert design is not None and space.numbers_of(design) == (34, 38, 50, 53, 56, 56)
    voxels = [len(list(p.voxels())) for p in space.puzzle(design).shapes]
    assert voxels[-1] == len(filled | optional)
    assert all(
        short == len(at_length(piece, 6))
        for short, piece in zip(
            voxels, [notchable_pieces()[k] for k in (34, 38, 50, 53, 56)], strict=False
        )
    )


def test_shorter_sticks_keep_the_assemblies_and_block_fewer_moves() -> None:
    """The ends of the sticks hold no notch: every design has the same assemblies at
    both lengths (each counted on its own puzzle); the 6-long burr is the 8-long one
    less some voxels, so every assembly that comes apart at length 8 comes apart at 6,
    and some only at 6 (ends 2 long block moves sideways that ends 1 long do not)."""
    short, long = (BurrDesigns(catalog="notchable:39,51,54,57", length=n) for n in (6, 8))
    every = Goal(solutions=None)
    found = [{f.index: f for f in search(space, every).found} for space in (short, long)]
    assert set(found[1]) < set(found[0])
    for index in range(short.size):
        design = short.design(index)
        if design is None:
            continue
        counts = [sum(1 for _ in assemblies(space.puzzle(design))) for space in (short, long)]
        assert counts[0] == counts[1]
        solutions = [f[index].solutions if index in f else 0 for f in found]
        assert solutions[0] >= solutions[1]
        if index in found[1]:
            assert found[0][index].scores["assemblies"] == counts[0]


def _puzzle_file(
    path: Path, pieces: list[frozenset[tuple[int, int, int]]], result: BurrShape, ranges: int = 1
) -> Path:
    shapes = [BurrShape.from_voxels(p, name=f"p{k}") for k, p in enumerate(pieces)]
    parts = tuple(Part(k, 0, ranges) for k in range(len(pieces)))
    write_xmpuzzle(BurrPuzzle((*shapes, result), (BurrProblem(parts, len(pieces)),)), path)
    return path


def test_a_files_shapes_and_result_search_as_the_catalog_does(tmp_path: Path) -> None:
    """The deep notchable pieces and the holey burr written to a file: searched from
    the file, the same designs, scores and distribution."""
    every = notchable_pieces()
    filled, optional = burr_result()
    path = _puzzle_file(
        tmp_path / "deep.xmpuzzle",
        [every[k - 1] for k in DEEP],
        BurrShape.from_voxels(filled, optional, name="burr"),
    )
    by_file = search(BurrDesigns(catalog=str(path), result=str(path)))
    by_catalog = search(BurrDesigns(catalog="notchable:" + ",".join(map(str, DEEP))))
    assert by_file.distribution == by_catalog.distribution
    names = {f"p{k}": str(number) for k, number in enumerate(DEEP)}
    assert [(" ".join(names[w] for w in f.key.split()), f.scores) for f in by_file.found] == [
        (f.key, f.scores) for f in by_catalog.found
    ]
    some = BurrDesigns(catalog=f"{path}:2,4,5", result=str(path))
    assert some.catalog.labels == ("p1", "p3", "p4")
    assert some.declaration()["catalog"].endswith("deep.xmpuzzle:2,4,5")


def test_a_box_of_any_pieces_agrees_with_its_puzzle_counted_whole(tmp_path: Path) -> None:
    """Tetracubes (all their own mirror images) in a 2x2x4 box: each design's
    assemblies, summed, are those of BurrTools' puzzle in which each shape may be used
    0 to 2 times (its second assembler, counted whole); each design's solutions are its
    assemblies that come apart, taken apart alone."""
    tetracubes = [
        frozenset({(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)}),  # I
        frozenset({(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)}),  # O
        frozenset({(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)}),  # T
        frozenset({(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)}),  # L
        frozenset({(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)}),  # S
        frozenset({(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)}),  # the tripod
    ]
    box = frozenset(itertools.product(range(4), range(2), range(2)))
    path = _puzzle_file(tmp_path / "box.xmpuzzle", tetracubes, BurrShape.from_voxels(box), 2)
    space = BurrDesigns(catalog=str(path), result=str(path), pieces=4, copies=2)
    assert all(m == k for k, m in enumerate(space.catalog.mirror))  # all achiral
    report = search(space, Goal(solutions=None))
    assert report.complete
    from excover.burr.xmpuzzle import read_xmpuzzle

    whole = sum(1 for _ in assemblies(read_xmpuzzle(path)))
    designs = [space.design(i) for i in range(space.size)]
    counts = {}
    for design in designs:
        assert design is not None and design.weight == 1
        found = list(assemblies(space.puzzle(design)))
        counts[design.index] = len(found)
        if found and design.index % 7 == 0:  # a sample taken apart alone
            solved = sum(disassemble(a, complete=False).status == "solved" for a in found)
            reported = {f.index: f for f in report.found}
            assert (reported[design.index].solutions if design.index in reported else 0) == solved
    assert sum(counts.values()) == whole > 0
    listed = [f.scores["assemblies"] for f in report.found]
    assert all(isinstance(n, int) for n in listed)
    assert sum(n for n in listed if isinstance(n, int)) <= whole


def test_bad_catalogs_and_results_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(DeclarationError, match=r"catalog.*'notchable', 'general'"):
        BurrDesigns(catalog="pentominoes")
    with pytest.raises(DeclarationError, match=r"catalog.*no general piece 900.*1 to 837"):
        BurrDesigns(catalog="general:900")
    with pytest.raises(DeclarationError, match=r"length.*6 or 8"):
        BurrDesigns(length=7)
    with pytest.raises(DeclarationError, match=r"catalog.*cannot read"):
        BurrDesigns(catalog=str(tmp_path / "none.xmpuzzle"))
    every = notchable_pieces()
    filled, optional = burr_result()
    twice = _puzzle_file(
        tmp_path / "twice.xmpuzzle",
        [every[0], every[1], every[0]],
        BurrShape.from_voxels(filled, optional),
    )
    with pytest.raises(DeclarationError, match=r"catalog.*is p0 again"):
        BurrDesigns(catalog=str(twice))
    with pytest.raises(DeclarationError, match=r"pieces.*must be 6"):
        BurrDesigns(pieces=5)
    path = _puzzle_file(
        tmp_path / "ok.xmpuzzle", [every[0]], BurrShape.from_voxels(filled, optional)
    )
    with pytest.raises(DeclarationError, match=r"result.*burr.*xmpuzzle"):
        BurrDesigns(result="box.txt")
    from excover.design import Table

    with pytest.raises(DeclarationError, match=r"holes.*file says"):
        BurrDesigns.declared(Table({"result": str(path), "holes": False}))


def test_a_ledger_of_a_file_that_changed_is_refused(tmp_path: Path) -> None:
    every = notchable_pieces()
    filled, optional = burr_result()
    result = BurrShape.from_voxels(filled, optional)
    path = _puzzle_file(tmp_path / "deep.xmpuzzle", [every[k - 1] for k in DEEP], result)
    ledger = tmp_path / "deep.ledger"
    first = search(BurrDesigns(catalog=str(path)), ledger=ledger)
    again = search(BurrDesigns(catalog=str(path)), ledger=ledger)  # resumed: nothing to do
    assert again.designs == first.designs and again.distribution == first.distribution
    _puzzle_file(path, [every[k - 1] for k in DEEP[:4]], result)
    with pytest.raises(LedgerError, match=r"catalog_digest"):
        search(BurrDesigns(catalog=str(path)), ledger=ledger)


def test_designs_written_as_stl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trimesh = pytest.importorskip("trimesh")
    catalog_ = "notchable:35,39,51,54,57"
    status = main(
        [
            *("design", "burrs", "--catalog", catalog_, "--top", "1", "--by", "level"),
            *("--write", str(tmp_path), "--format", "stl", "--no-progress"),
        ]
    )
    assert status == 0
    files = list(tmp_path.glob("design-*.stl"))
    assert len(files) == 1
    bodies = trimesh.load(files[0]).split(only_watertight=False)
    every = notchable_pieces()
    assert all(body.is_watertight for body in bodies)
    assert sorted(round(body.volume) for body in bodies) == sorted(
        1000 * len(every[k - 1]) for k in (35, 39, 51, 54, 57, 57)
    )
    assert "level 5.4" in capsys.readouterr().out
