"""The survey of holey six-piece burrs of notchable pieces (excover.burr.notchable)
against the general route and the literature.

Three routes count the classes of assemblies of a family of notchable pieces: the
survey's enumeration by stick masks (smallest member of each class under the burr's 24
symmetries), Burnside's lemma over the assemblies counted without listing them, and
excover's general assembler on the family's BurrTools puzzle (which itself agrees with
``burrTxt``). On the whole space, Burnside's count is Cutler's published figure.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from excover.burr import Assembly, assemblies, disassemble
from excover.burr.notchable import (
    assembly_count,
    burnside_count,
    catalog,
    cutler_level,
    first_piece_moves,
    survey_unit,
)
from excover.burr.sixpiece import burr_puzzle, notchable_pieces
from excover.design import DesignError

#: Families closed under mirror images, with assemblies (the most notched pieces, and a
#: few whole ones): 64, 510 and 4,506 classes.
FAMILIES = [(0, 53, 58), (0, 1, 50, 53, 58), (14, 33, 53, 54, 56)]


def test_the_catalog_of_every_stick() -> None:
    cat = catalog()
    assert cat.masks.shape == (6, 147)
    assert cat.symmetries == 24
    assert sorted(set(cat.pieces[0].tolist())) == list(range(59))  # each piece fits a stick
    mirror = cat.mirror
    assert all(mirror[mirror[k]] == k for k in range(59))
    assert sum(mirror[k] != k for k in range(59)) == 44  # 22 chiral pairs
    for s in range(6):  # every piece of a stick holds the stick's other voxels
        assert all(
            len(cat.piece(s, i).voxels) == 20 + int(m).bit_count()
            for i, m in enumerate(cat.masks[s])
        )


@pytest.mark.parametrize("family", FAMILIES)
def test_three_routes_count_the_same_classes(family: tuple[int, ...]) -> None:
    cat = catalog(family)
    listed = sum(len(cat.chunk(first, second)) for first, second in cat.units())
    by_burnside = burnside_count(assembly_count(cat), cat)
    every = notchable_pieces()
    general = sum(1 for _ in assemblies(burr_puzzle([every[k] for k in family], copies=6)))
    assert listed == by_burnside == general > 0


def test_each_class_once_and_by_its_smallest_member() -> None:
    cat = catalog(FAMILIES[1])
    rows = np.concatenate([cat.chunk(f, s) for f, s in cat.units()])
    seen: set[tuple[int, ...]] = set()
    for row in rows:
        images = set()
        for g in range(cat.symmetries):
            image = [0] * 6
            for s in range(6):
                image[int(cat.stick_image[g][s])] = int(cat.mask_image[g][s][row[s]])
            images.add(tuple(image))
        assert tuple(int(x) for x in row) == min(images)
        assert not images & seen
        seen |= images
        filled = [int(cat.masks[s][row[s]]) for s in range(6)]
        assert sum(m.bit_count() for m in filled) == int(np.bitwise_or.reduce(filled)).bit_count()


def test_the_whole_space_is_cutlers_figure() -> None:
    """Cutler's 1987 survey: 13,354,991 essentially different assemblies."""
    assemblies_before_symmetry = assembly_count()
    assert burnside_count(assemblies_before_symmetry) == 13_354_991


def test_the_survey_takes_each_class_apart_as_the_general_route_does() -> None:
    """Whether a class comes apart, and the first number of its level, are the class's
    (a symmetry maps a disassembly of one member onto one of another); the rest of the
    level string is the member's (where separations tie, a turned copy may take the
    other first), and the general route takes BurrTools' member, the survey its own."""
    family = FAMILIES[2]
    cat = catalog(family)
    levels: Counter[str] = Counter()
    stuck = 0
    for first, second in cat.units():
        found = survey_unit(first, second, cat=cat, keep_level=99, keep_total=999)
        levels.update(found.levels)
        stuck += found.stuck + found.partial + found.unknown
    every = notchable_pieces()
    general = [
        disassemble(a, complete=False)
        for a in assemblies(burr_puzzle([every[k] for k in family], copies=6))
    ]
    firsts = Counter[str]()
    for level, classes in levels.items():
        firsts[level.split(".")[0]] += classes
    solved = [r.level or "" for r in general if r.status == "solved"]
    assert Counter(level.split(".")[0] for level in solved) == firsts
    assert sum(r.status != "solved" for r in general) == stuck


def test_a_design_and_its_mirror_image_are_one() -> None:
    cat = catalog()
    row = cat.chunk(*cat.units()[0])[0]
    image = np.zeros(6, dtype=np.int16)
    reflection = 1  # the second symmetry is a reflection (the identity is the first)
    for s in range(6):
        image[cat.stick_image[reflection][s]] = cat.mask_image[reflection][s][row[s]]
    assert cat.design_key(row) == cat.design_key(image)


def test_a_family_without_a_mirror_image_is_refused() -> None:
    with pytest.raises(DesignError, match="piece 5 but not its mirror image, piece 6"):
        catalog((0, 5))
    with pytest.raises(DesignError, match="no notchable piece 59"):
        catalog((59,))


def test_cutlers_level_counts_the_moves_until_a_single_piece_is_out() -> None:
    """Cutler's level is BurrTools' first number where the first separation frees one
    piece, and more where it parts the burr into two groups of pieces."""
    cat = catalog(FAMILIES[2])
    seen = Counter[str]()
    for first, second in cat.units():
        for row in cat.chunk(first, second):
            pieces = cat.assembly(row)
            result = disassemble(Assembly.of_voxels([p.voxels for p in pieces]), complete=False)
            if result.tree is None:
                assert cutler_level(row, cat) is None
                continue
            tree = result.tree
            level = cutler_level(row, cat)
            assert level == first_piece_moves(tree)
            single = 1 in (len(tree.removed_pieces), len(tree.left_pieces))
            assert level >= len(tree.moves)
            assert (level == len(tree.moves)) or not single
            seen["single" if single else "groups"] += 1
    assert seen["single"] and seen["groups"]  # both cases met


def test_the_solid_burrs_are_burrtools_solid_six_piece_burrs() -> None:
    """Every notchable voxel filled: BurrTools' SolidSixPieceBurrs (12,597 assemblies,
    588 classes up to the 24 symmetries, as burrTxt and excover's general route count
    that file: docs/files.md)."""
    solid = assembly_count(solid=True)
    assert solid == 12_597
    assert burnside_count(solid, solid=True) == 588
