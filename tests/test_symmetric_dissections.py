"""The dissections of the square fixed by its symmetries, counted by a frontier on the
quotient board (:mod:`excover.tiling.symmetric_dissections`, over
:mod:`excover.tiling.cell_frontier`), against a brute force that lists every partition
of the board into connected blocks and finds each one's stabilizer
(benchmarks/a291806.py); Burnside's sums and the conjugate symmetries; the classes with
a nontrivial symmetry by Möbius inversion (benchmarks/_burnside.py) against the brute
force's; the second routes (another domain or sweep, the square folded onto a plain
board); the count by blocks against the count by pieces apart and the older core;
checkpoints and errors. Small boards only: the whole file runs in seconds."""

from __future__ import annotations

import importlib
import struct
from pathlib import Path
from types import ModuleType

import pytest

from excover import ResourceLimitError, UsageError
from excover.parallel.checkpoint import DamagedCheckpoint
from excover.tiling import D4_SUBGROUPS, count_dissections
from excover.tiling.cell_frontier import count_partitions, quotient_program
from excover.tiling.symmetric_dissections import (
    FOLDABLE,
    GROUPS,
    SYMMETRIES,
    count_fixed_dissections,
    fixed_counts,
    folded_program,
    group_of,
    square_program,
)

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """benchmarks/a291806.py as a module: its brute force (every partition of the square
    listed, each one's stabilizer found) and, through it, benchmarks/_burnside.py."""
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCHMARKS))
        return importlib.import_module("a291806")


def test_the_brute_force_lists_the_published_compositions(bench: ModuleType) -> None:
    """A145835(1..4), A291806(1..4) and A172477(4), A348453's T(4, 2): the brute force is
    right."""
    assert [len(bench.partitions(n, n)) for n in range(1, 5)] == [1, 12, 1434, 1691690]
    assert [bench.brute_force(n)["classes"] for n in range(1, 5)] == [1, 5, 216, 212987]
    assert len(bench.partitions(4, 4, 4)) == 117
    assert len(bench.partitions(4, 4, 8)) == 70


CASES = [(n, None) for n in range(1, 5)] + [(4, 2), (4, 4), (4, 8), (5, 5)]


@pytest.mark.parametrize(("n", "size"), CASES)
def test_each_symmetry_and_group_fixes_what_the_brute_force_finds(
    bench: ModuleType, n: int, size: int | None
) -> None:
    """Every symmetry of the square and every abelian group of them (the Klein groups of
    both axes and both diagonals too), with and without a size: the frontier count
    equals the brute force's, and so do the second routes (the quarter turns and the
    half turn and the Klein groups on other domains, the identity by rows with a step)."""
    found = bench.brute_force(n, size)
    for name in (*SYMMETRIES, *GROUPS):
        assert count_fixed_dissections(n, name, size) == found[name], name
    for name in ("Id", "Rot90", "Rot180", "axes", "diagonals"):
        assert count_fixed_dissections(n, name, size, twin=True) == found[name], name


@pytest.mark.parametrize("n", range(1, 5))
def test_the_classes_with_a_symmetry_are_the_brute_forces(bench: ModuleType, n: int) -> None:
    """A291806(n) by Burnside's mean and A291807(n) (the classes with a nontrivial
    symmetry) by Möbius inversion over the subgroups of D4, from the frontier's fixed
    counts: the classes the brute force finds (1, 5, 216, 212,987 and 1, 5, 67, 3,000)."""
    burnside = importlib.import_module("_burnside")
    fixed = {name: count_fixed_dissections(n, name) for name in (*SYMMETRIES, "axes", "diagonals")}
    found = bench.brute_force(n)
    assert burnside.classes(fixed["Id"], fixed) == found["classes"]
    assert burnside.symmetric_classes(fixed["Id"], fixed) == found["symmetric classes"]
    assert [found["symmetric classes"], found["classes"]] == [
        [1, 1],
        [5, 5],
        [67, 216],
        [3000, 212987],
    ][n - 1]


@pytest.mark.parametrize("n", range(1, 10))
def test_the_folded_square_fixes_as_many(n: int) -> None:
    """The mirrors through cells (the diagonals; the axes of odd n) fold the square onto
    a plain board whose compositions are the fixed ones."""
    for name in ("Diag1Refl", "Diag2Refl", "VertRefl", "HorizRefl", "axes", "diagonals"):
        if FOLDABLE[group_of(name)] or n % 2:
            assert count_partitions(folded_program(n, name)) == count_fixed_dissections(n, name)
        else:
            with pytest.raises(UsageError, match="does not fold"):
                folded_program(n, name)


@pytest.mark.parametrize(("height", "width"), [(1, 5), (2, 3), (3, 2), (3, 4), (4, 3), (2, 6)])
def test_the_plain_count_of_a_rectangle_is_the_brute_forces(
    bench: ModuleType, height: int, width: int
) -> None:
    """Compositions of rectangles, by the plain program of the cells in rows."""
    cells, edges = bench.grid(height, width)
    program = quotient_program(cells, [(cells[a], cells[b], 0) for a, b in edges], [[0]])
    assert count_partitions(program) == len(bench.partitions(height, width))
    for size in range(1, height * width + 1):
        expected = len(bench.partitions(height, width, size)) if height * width % size == 0 else 0
        assert count_partitions(program, size) == expected


@pytest.mark.parametrize(
    ("n", "size"), [(n, None) for n in range(1, 9)] + [(n, n) for n in range(1, 7)]
)
def test_burnsides_sums_divide_and_conjugates_agree(n: int, size: int | None) -> None:
    """Each subgroup's sum of fixed counts divides by its order, and conjugate
    symmetries (the two mirrors in axes, in diagonals, the two quarter turns, counted on
    other domains) fix as many; compositions and n pieces of n cells."""
    fixed = fixed_counts(n, size)
    assert fixed["VertRefl"] == fixed["HorizRefl"]
    assert fixed["Diag1Refl"] == fixed["Diag2Refl"]
    assert fixed["Rot90"] == fixed["Rot270"]
    for name, group in D4_SUBGROUPS.items():
        total = sum(fixed[g.name] for g in group)
        assert total % len(group) == 0, (n, size, name)


def test_the_plain_square_is_a145835_and_a172477() -> None:
    """The plain program: A145835(1..8) (compositions) and A172477(1..6) (n pieces of n
    cells), as the older dissection count gives them."""
    published = [1, 12, 1434, 1691690, 19719299768, 2271230282824746]
    published += [2584855762327078145444, 29068227444022728740767607050]
    assert [count_fixed_dissections(n) for n in range(1, 9)] == published
    assert [count_fixed_dissections(n, "Id", n) for n in range(1, 7)] == [
        count_dissections(n, n, n) for n in range(1, 7)
    ]


@pytest.mark.parametrize(("n", "size"), [(4, 2), (4, 8), (5, 5), (6, 9)])
def test_the_count_by_blocks_agrees(n: int, size: int) -> None:
    """The count by blocks (few large pieces) equals the count by pieces apart and the
    older core."""
    program = square_program(n)
    by_blocks = count_partitions(program, size, blocks=True)
    assert by_blocks == count_partitions(program, size) == count_dissections(n, n, size)


def test_a_checkpoint_resumes_the_count(tmp_path: Path) -> None:
    """A count stopped by its tick keeps its layer; the same call resumes from it."""
    program = square_program(6, "Rot180")
    whole = count_partitions(program)
    path = tmp_path / "count.states"

    def stop(done: int, ops: int, states: int) -> None:
        if done == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_partitions(program, checkpoint=path, tick=stop)
    assert path.exists()
    assert count_partitions(program, checkpoint=path) == whole
    with pytest.raises(UsageError, match="another count"):
        count_partitions(program, 6, checkpoint=path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(DamagedCheckpoint):
        count_partitions(program, checkpoint=path)
    path.write_bytes(b"something else" * 10)
    with pytest.raises(DamagedCheckpoint):
        count_partitions(program, checkpoint=path)


def test_a_checkpoints_header_is_checked(tmp_path: Path) -> None:
    """A file whose size is not its header's is damaged."""
    program = square_program(4)
    path = tmp_path / "c"
    count_partitions(program, checkpoint=path)
    data = path.read_bytes()
    path.write_bytes(data[:-8])
    with pytest.raises(DamagedCheckpoint, match="size"):
        count_partitions(program, checkpoint=path)
    assert struct.unpack("=6Q", data[16:64])[3] == len(program.ops)


def test_counts_past_their_words_are_refused() -> None:
    """A count given one word where it needs two raises ResourceLimitError."""
    program = square_program(8)
    with pytest.raises(ResourceLimitError):
        count_partitions(program, limbs=1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: count_fixed_dissections(0), "positive integer"),
        (lambda: count_fixed_dissections(4, "Rot45"), "unknown symmetry"),
        (lambda: count_fixed_dissections(4, "all"), "not abelian"),
        (lambda: count_fixed_dissections(4, "Id", 0), "positive integer or None"),
        (lambda: count_fixed_dissections(16), "frontier of 16"),
        (lambda: count_partitions(square_program(4, "Rot180"), 4, blocks=True), "plain board"),
        (lambda: quotient_program([1, 2], [(1, 3, 0)], [[0]]), "not a cell"),
        (lambda: quotient_program([1], [], [[0, 1, 2]]), "1, 2 or 4"),
    ],
)
def test_bad_input_is_refused(call: object, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        call()  # type: ignore[operator]


def test_a_size_that_does_not_divide_gives_none() -> None:
    assert count_fixed_dissections(5, "Rot90", 3) == 0
    assert count_fixed_dissections(3, "VertRefl", 2) == 0
