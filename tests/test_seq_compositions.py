"""A145835, A291806, A291807 (the n x n square cut into connected pieces of any sizes,
every cut, up to symmetry, the classes with a symmetry) and A348453 (the square cut into
d pieces of equal area, a triangle): against their published terms, against their exact
covers searched, and against the compositions listed and sorted into classes here by
brute force. The largest published terms (A145835(9..10), A348453's row 7) are slow
tests."""

from __future__ import annotations

import json
from itertools import product

import pytest

from excover import UsageError
from excover.main import main
from excover.sequences import index, position, problem, row, term
from excover.sequences.compositions import MOBIUS, connected_sets, fixed
from excover.sequences.equal_pieces import divisors
from excover.sequences.known import KNOWN

Cell = tuple[int, int]
Composition = tuple[tuple[Cell, ...], ...]


def _compositions(n: int) -> list[Composition]:
    """Every composition of the n x n square, each a sorted tuple of its pieces (sorted
    tuples of cells (row, column)), found by deciding each edge of the grid in or out
    and keeping the edge sets whose every edge left out joins two components: no
    exact cover and no frontier."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    edges = [((r, c), (r + dr, c + dc)) for r, c in cells for dr, dc in ((0, 1), (1, 0))]
    edges = [(a, b) for a, b in edges if b[0] < n and b[1] < n]
    found: set[Composition] = set()
    for chosen in product((False, True), repeat=len(edges)):
        parent = {cell: cell for cell in cells}

        def root(
            x: tuple[int, int], parent: dict[tuple[int, int], tuple[int, int]] = parent
        ) -> tuple[int, int]:
            while parent[x] != x:
                x = parent[x]
            return x

        for (a, b), inside in zip(edges, chosen, strict=True):
            if inside:
                parent[root(a)] = root(b)
        if any(
            not inside and root(a) == root(b) for (a, b), inside in zip(edges, chosen, strict=True)
        ):
            continue  # an edge left out inside a piece: this partition is counted once, all in
        pieces: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for cell in cells:
            pieces.setdefault(root(cell), []).append(cell)
        found.add(tuple(sorted(tuple(sorted(p)) for p in pieces.values())))
    return sorted(found)


def _images(n: int, composition: Composition) -> list[Composition]:
    """The 8 images of ``composition`` under the square's symmetries, the identity first:
    the four turns, then the four turns after a mirror."""
    m = n - 1

    def image(g: int, cell: Cell) -> Cell:
        r, c = cell
        for _ in range(g % 4):
            r, c = c, m - r
        return (r, m - c) if g >= 4 else (r, c)

    return [
        tuple(sorted(tuple(sorted(image(g, cell) for cell in piece)) for piece in composition))
        for g in range(8)
    ]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_three_sequences_count_the_compositions_listed_by_brute_force(n: int) -> None:
    """A145835, A291806 and A291807 at n <= 3 against every composition listed here (every
    set of edges of the grid tried), its class the least of its 8 images and its
    symmetry an image equal to it."""
    listed = _compositions(n)
    classes: dict[Composition, bool] = {}
    for composition in listed:
        images = _images(n, composition)
        classes[min(images)] = any(image == composition for image in images[1:])
    assert term("A145835", n) == len(listed) == KNOWN["A145835"][n - 1]
    assert term("A291806", n) == len(classes) == KNOWN["A291806"][n - 1]
    assert term("A291807", n) == sum(classes.values()) == KNOWN["A291807"][n - 1]


def test_the_published_terms_come_out_by_the_fixed_counts() -> None:
    """Every published term of A291806 and A291807 (to n = 5), and A145835 to n = 8, by
    the frontier counts; the Möbius function's weights sum to 0 over the groups (a
    composition every symmetry fixes is counted 0 times among those with none)."""
    assert sum(MOBIUS.values()) == 0
    for n in range(1, 6):
        found = fixed(n)
        assert found.classes == KNOWN["A291806"][n - 1]
        assert found.symmetric == KNOWN["A291807"][n - 1]
        assert found.fixed["Id"] == KNOWN["A145835"][n - 1]
    assert [term("A145835", n) for n in range(1, 9)] == list(KNOWN["A145835"][:8])


def test_the_new_terms_hold_their_checks() -> None:
    """A291806(6, 7) and A291807(6, 7), not yet published, pass the checks of
    :func:`fixed` (each subgroup's sum divisible by its order, conjugates equal) and
    agree with the published raw counts."""
    for n in (6, 7):
        found = fixed(n)
        assert found.fixed["Id"] == KNOWN["A145835"][n - 1]
        assert 8 * found.classes == sum(found.fixed[g] for g in list(found.fixed)[:8])
        assert 0 < found.symmetric < found.classes


def test_the_exact_covers_count_the_compositions_and_their_classes() -> None:
    """The exact cover of the connected sets: its solutions are A145835's term, its
    classes A291806's, to n = 4 (1,691,690 solutions, 212,987 classes)."""
    assert [len(list(connected_sets(n))) for n in range(1, 5)] == [1, 13, 218, 11506]
    assert len(list(connected_sets(4, size=4))) == 113  # the fixed tetrominoes placed
    for n in (2, 3, 4):
        cover = problem("A145835", n)
        assert cover.count(symmetry=True) == KNOWN["A145835"][n - 1]
        assert problem("A291806", n).count(up_to_symmetry=True) == KNOWN["A291806"][n - 1]
    with pytest.raises(UsageError, match="built for n up to 4"):
        problem("A145835", 5)
    with pytest.raises(UsageError, match="no exact cover"):
        problem("A291807", 3)


def test_a348453_is_a_triangle_read_by_rows() -> None:
    """The rows of the triangle are the divisors of n^2; its terms are numbered as the
    OEIS numbers them; every published term through row 6 and T(8, 2) reproduced; the
    exact covers of row 4 count its terms."""
    assert [len(divisors(n)) for n in range(1, 11)] == [1, 3, 3, 5, 3, 9, 3, 7, 5, 9]
    assert divisors(6) == (1, 2, 3, 4, 6, 9, 12, 18, 36)
    assert position("A348453", 12) == (4, 5) and index("A348453", 8, 2) == 29
    known = KNOWN["A348453"]
    assert [term("A348453", i) for i in range(1, 25)] == list(known[:24])
    assert row("A348453", 4) == (1, 70, 117, 36, 1)
    assert term("A348453", 29) == known[28] == 7157114189
    assert [problem("A348453", index("A348453", 4, k)).count() for k in range(1, 6)] == [
        1,
        70,
        117,
        36,
        1,
    ]
    with pytest.raises(UsageError, match="pieces of up to 10 cells"):
        problem("A348453", index("A348453", 6, 2))
    with pytest.raises(UsageError, match="not a column 6"):
        index("A348453", 4, 6)
    with pytest.raises(UsageError, match="not a triangle"):
        row("A145835", 3)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_prints_a_term_a_row_or_an_entry(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "sequence", "A291807", "5")
    assert (status, out) == (0, "412528\n") and "method compositions, cell frontier" in err
    status, out, _ = run(capsys, "sequence", "A291806", "4", "--json")
    document = json.loads(out)
    assert (status, document["count"]) == (0, 212987)
    assert document["stats"]["fixed"]["Rot90"] == 38
    status, out, _ = run(capsys, "sequence", "A348453", "4")
    assert (status, out) == (0, "1\n70\n117\n36\n1\n")
    status, out, _ = run(capsys, "sequence", "A348453", "6", "3")
    assert (status, out) == (0, "264500\n")
    status, out, _ = run(capsys, "sequence", "A348453", "3", "--json")
    document = json.loads(out)
    assert [r["count"] for r in document["results"]] == [1, 10, 1]
    assert document["results"][1]["input"] == "T(3,2)"


def test_the_command_refuses_what_does_not_apply(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "sequence", "A145835", "4", "2")
    assert (status, out) == (2, "") and "not a triangle" in err
    status, out, err = run(capsys, "sequence", "A348453", "4", "--write-dlx", "x.dlx")
    assert (status, out) == (2, "") and "give its column K" in err
    status, out, err = run(capsys, "sequence", "A348453", "4", "9")
    assert (status, out) == (2, "") and "not a column 9" in err
    status, out, err = run(capsys, "sequence", "A291806", "4", "--workers", "2")
    assert (status, out) == (2, "") and "does not take --workers" in err
    status, out, err = run(capsys, "sequence", "A291807", "3", "--write-dlx", "x.dlx")
    assert (status, out) == (2, "") and "no exact cover" in err


@pytest.mark.slow
def test_the_largest_published_terms() -> None:
    """A145835(9) and (10) (about 5 and 60 s of CPU) and A348453's row 7 (T(7, 2) is
    A172477(7), a few seconds)."""
    assert [term("A145835", n) for n in (9, 10)] == list(KNOWN["A145835"][8:10])
    assert row("A348453", 7) == KNOWN["A348453"][24:27]
