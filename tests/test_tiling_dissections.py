"""The dissection count (:func:`excover.tiling.count_dissections`): the ways to cut a
rectangle into connected pieces of one size, against the exact cover of the tiling by
every polyomino of that size (any number of times), the published terms of A172477, and
its own symmetry; its bounds and its errors."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import MemoryBoundError, ResourceLimitError, UsageError
from excover.parallel.checkpoint import DamagedCheckpoint
from excover.tiling import Pattern, Tiling, _dissections, count_dissections, polyominoes, tiles


def tilings_by_search(height: int, width: int, size: int) -> int:
    """The tilings of the rectangle by every ``size``-omino, counted by the search."""
    board = Tiling(Pattern.constant(height, width), tiles(polyominoes(size), multiplicity="any"))
    return board.problem.count()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 6))
def test_the_count_is_the_number_of_tilings_by_every_polyomino_of_the_size(
    height: int, width: int, size: int
) -> None:
    """Every rectangle up to 5 x 5 and pieces up to 6 cells: the count equals the
    exact cover's (0 when the area is not a multiple of the size)."""
    expected = tilings_by_search(height, width, size) if height * width % size == 0 else 0
    assert count_dissections(height, width, size) == expected


@pytest.mark.parametrize(("height", "width", "size"), [(6, 3, 3), (4, 6, 4), (6, 5, 5)])
def test_larger_boards_agree_with_the_search(height: int, width: int, size: int) -> None:
    """A few boards past the random ones, both ways round."""
    expected = tilings_by_search(height, width, size)
    assert count_dissections(height, width, size) == expected
    assert count_dissections(width, height, size) == expected


def test_the_square_cut_into_n_pieces_of_n_cells_is_oeis_a172477() -> None:
    """A172477's terms up to n = 6 (de Ruiter, 2010); n = 7 and 8 are in
    benchmarks/data/records/ (4 s and 3 minutes of CPU)."""
    published = [1, 2, 10, 117, 4006, 451206]
    assert [count_dissections(n, n, n) for n in range(1, 7)] == published


def test_strips_and_dominoes_follow_their_formulas() -> None:
    """A 1 x n strip cuts one way into pieces of any size dividing n; dominoes on the
    2 x n board are Fibonacci numbers; the empty board has one dissection."""
    assert [count_dissections(1, 12, k) for k in (1, 2, 3, 4, 5, 6)] == [1, 1, 1, 1, 0, 1]
    fibonacci = [1, 2]
    for _ in range(10):
        fibonacci.append(fibonacci[-1] + fibonacci[-2])
    assert [count_dissections(2, n, 2) for n in range(1, 13)] == fibonacci
    assert count_dissections(0, 5, 3) == 1


def test_the_ticks_follow_the_cells() -> None:
    """``tick`` hears of every cell, in order, with the states of its layer."""
    heard: list[tuple[int, int, int]] = []
    count_dissections(3, 4, 4, tick=lambda done, cells, states: heard.append((done, cells, states)))
    assert [done for done, _, _ in heard] == list(range(1, 13))
    assert all(cells == 12 and states >= 1 for _, cells, states in heard)


def test_a_memory_bound_stops_the_count() -> None:
    """Past ``max_bytes`` the count raises MemoryBoundError (an ExcoverError)."""
    with pytest.raises(MemoryBoundError, match="dissection count"):
        count_dissections(7, 7, 7, max_bytes=1 << 20)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((11, 12, 4), "11 cells across"),
        ((8, 8, 32), "at most 31"),
        ((10, 20, 20), "states of 135 bits"),
        ((4, 4, 0), "size must be an integer of at least 1"),
        ((True, 4, 2), "height must be an integer"),
        ((4, -1, 2), "width must be an integer of at least 0"),
    ],
)
def test_bad_arguments_are_usage_errors(arguments: tuple[int, int, int], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        count_dissections(*arguments)


class _Stop(Exception):
    """Raised by a tick to stop a count part way."""


def stop_at(cell: int) -> Callable[[int, int, int], None]:
    """A tick that stops the count (raises _Stop) once ``cell`` cells or more are done."""

    def tick(done: int, cells: int, states: int) -> None:
        if done >= cell:
            raise _Stop

    return tick


def test_a_count_stopped_part_way_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    """A count stopped after some cells (an exception from ``tick``) leaves the states
    of the last cell done in its checkpoint; the same call resumes from that cell and
    gives the whole count; run again, it starts from the finished file's last layer."""
    ledger = tmp_path / "seven.dissections"
    whole = count_dissections(6, 7, 7)
    with pytest.raises(_Stop):
        count_dissections(6, 7, 7, checkpoint=ledger, tick=stop_at(20))
    assert sorted(tmp_path.iterdir()) == [ledger]  # no temporary file, no lock left
    heard: list[int] = []
    found = count_dissections(
        6, 7, 7, checkpoint=ledger, tick=lambda done, cells, states: heard.append(done)
    )
    assert found == whole and heard[0] == 21 and heard[-1] == 42
    heard.clear()
    assert (
        count_dissections(6, 7, 7, checkpoint=ledger, tick=lambda *a: heard.append(a[0])) == whole
    )
    assert heard == []  # nothing left to do


def test_checkpoints_are_written_every_so_often(tmp_path: Path) -> None:
    """With ``checkpoint_every=0`` the file holds the states after every cell: a copy
    taken at some cell resumes to the same count."""
    ledger = tmp_path / "count.bin"
    copies: list[bytes] = []

    def tick(done: int, cells: int, states: int) -> None:
        if ledger.exists():
            copies.append(ledger.read_bytes())

    whole = count_dissections(5, 6, 5, checkpoint=ledger, checkpoint_every=0, tick=tick)
    assert len(copies) >= 20
    middle = tmp_path / "middle.bin"
    middle.write_bytes(copies[len(copies) // 2])
    assert count_dissections(5, 6, 5, checkpoint=middle) == whole == 27950


def test_a_checkpoint_of_another_board_or_damaged_is_refused(tmp_path: Path) -> None:
    ledger = tmp_path / "four.bin"
    count_dissections(4, 4, 4, checkpoint=ledger)
    with pytest.raises(UsageError, match="4 x 4 board cut into pieces of 4 cells, not 6 x 4"):
        count_dissections(6, 4, 4, checkpoint=ledger)
    data = bytearray(ledger.read_bytes())
    data[-3] ^= 0xFF  # a count changed
    ledger.write_bytes(bytes(data))
    with pytest.raises(DamagedCheckpoint, match="damaged"):
        count_dissections(4, 4, 4, checkpoint=ledger)
    ledger.write_bytes(bytes(data[:-24]))  # a state cut off
    with pytest.raises(DamagedCheckpoint, match="damaged"):
        count_dissections(4, 4, 4, checkpoint=ledger)
    ledger.write_bytes(b"not a checkpoint")
    with pytest.raises(DamagedCheckpoint):
        count_dissections(4, 4, 4, checkpoint=ledger)


def test_a_count_stopped_inside_a_cell_resumes_from_the_cell_before(tmp_path: Path) -> None:
    """The memory bound stops the count while a cell's states are being made: the
    checkpoint then holds the states of the cell before, and a resumed count without
    the bound gives the whole count."""
    ledger = tmp_path / "six.bin"
    with pytest.raises(MemoryBoundError):
        count_dissections(6, 6, 6, checkpoint=ledger, max_bytes=300_000)
    heard: list[int] = []
    found = count_dissections(6, 6, 6, checkpoint=ledger, tick=lambda *a: heard.append(a[0]))
    assert found == 451206 and 1 < heard[0] <= 36


@pytest.mark.parametrize(
    ("height", "width", "size", "bound", "expected"),
    [(5, 6, 5, 52_000, 27950), (6, 6, 6, 1_020_000, 451206)],
)
def test_a_count_stopped_making_the_table_of_a_new_layer_resumes_after_the_layer_done(
    tmp_path: Path, height: int, width: int, size: int, bound: int, expected: int
) -> None:
    """These bounds stop the count where a cell is done and the table of the next one
    is made: the checkpoint holds the layer of the cell done, labelled so (not as the
    layer before, which a resumed count would go through twice, to a count of 0)."""
    ledger = tmp_path / "layer.bin"
    with pytest.raises(MemoryBoundError):
        count_dissections(height, width, size, checkpoint=ledger, max_bytes=bound)
    assert count_dissections(height, width, size, checkpoint=ledger) == expected


@pytest.mark.parametrize(("height", "width", "size", "cells"), [(5, 6, 5, 24), (10, 10, 2, 15)])
def test_every_layer_of_a_count_is_taken_back_by_its_reader(
    tmp_path: Path, height: int, width: int, size: int, cells: int
) -> None:
    """A checkpoint taken after any of the first ``cells`` cells holds keys that the
    reader's check takes as states (10 across: as many pieces as a key holds after the
    first row): each resumes, and goes on to its next cell (where a tick stops it)."""
    ledger = tmp_path / "count.bin"
    copies: list[bytes] = []

    def tick(done: int, total: int, states: int) -> None:
        if ledger.exists():
            copies.append(ledger.read_bytes())
        if done == cells:
            raise _Stop

    with pytest.raises(_Stop):
        count_dissections(height, width, size, checkpoint=ledger, checkpoint_every=0, tick=tick)
    assert len(copies) == cells - 1  # the first cell's is written after its tick
    layer = tmp_path / "layer.bin"
    for copy in copies:
        layer.write_bytes(copy)
        with pytest.raises(_Stop):
            count_dissections(height, width, size, checkpoint=layer, tick=stop_at(1))


Records = list[tuple[int, int, int]]


def read_checkpoint(path: Path) -> tuple[bytes, list[int], Records]:
    """The magic, the header's words and the records (a key's low and high words and its
    count) of the checkpoint ``path``."""
    data = path.read_bytes()
    end = 16 + 8 * _dissections.HEADER_WORDS
    words = list(struct.unpack(f"={_dissections.HEADER_WORDS}Q", data[16:end]))
    records = [tuple(r) for r in struct.iter_unpack("=3Q", data[end:])]
    return data[:16], words, records


def write_checkpoint(path: Path, magic: bytes, words: list[int], records: Records) -> None:
    """Write a checkpoint of these parts as they are (its checksum ``words[5]``)."""
    body = b"".join(struct.pack("=3Q", *record) for record in records)
    path.write_bytes(magic + struct.pack(f"={len(words)}Q", *words) + body)


def stopped(path: Path) -> tuple[bytes, list[int], Records]:
    """The checkpoint of the 5 x 6 board into pieces of 5 cells stopped after 15 cells."""
    with pytest.raises(_Stop):
        count_dissections(5, 6, 5, checkpoint=path, tick=stop_at(15))
    return read_checkpoint(path)


def test_a_checkpoint_with_two_counts_swapped_is_refused(tmp_path: Path) -> None:
    """The checksum mixes each record's words: two counts swapped between records (which
    a sum of terms linear in each word kept) change it."""
    ledger = tmp_path / "swapped.bin"
    magic, words, records = stopped(ledger)
    first = records[0]
    other = next(k for k, record in enumerate(records) if record[2] != first[2])
    records[0] = (*first[:2], records[other][2])
    records[other] = (*records[other][:2], first[2])
    write_checkpoint(ledger, magic, words, records)
    with pytest.raises(DamagedCheckpoint, match="damaged"):
        count_dissections(5, 6, 5, checkpoint=ledger)


def test_a_checkpoint_with_its_cells_done_changed_is_refused(tmp_path: Path) -> None:
    """The checksum covers the header: the states said to be after another cell are
    refused (resumed, they would be taken for another layer's)."""
    ledger = tmp_path / "done.bin"
    magic, words, records = stopped(ledger)
    words[3] -= 1
    write_checkpoint(ledger, magic, words, records)
    with pytest.raises(DamagedCheckpoint, match="damaged"):
        count_dissections(5, 6, 5, checkpoint=ledger)


def test_a_checkpoint_of_an_older_version_is_refused_as_such(tmp_path: Path) -> None:
    """A file of the first format (whose checksum the count no longer computes) is
    refused, saying so."""
    ledger = tmp_path / "old.bin"
    _, words, records = stopped(ledger)
    write_checkpoint(ledger, b"excover-dissect1", words, records)
    with pytest.raises(DamagedCheckpoint, match=r"older version of excover.*move it aside"):
        count_dissections(5, 6, 5, checkpoint=ledger)


def key(labels: tuple[int, ...], sizes: tuple[int, ...], pairs: int = 0) -> int:
    """A key of the 4 x 4 board into pieces of 4 cells: a label in 4 bits for each cell
    of the frontier, then a size in 3 bits for each piece, then the pairs' bits."""
    made = sum(label << 4 * k for k, label in enumerate(labels))
    made |= sum(cells << 16 + 3 * k for k, cells in enumerate(sizes))
    return made | pairs << 28


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(key((15, 0, 0, 0), (1,)), id="label past the count's arrays"),
        pytest.param(key((2, 2, 1, 1), (2, 2)), id="pieces out of the frontier's order"),
        pytest.param(key((1, 0, 3, 3), (1, 2, 2)), id="a piece number skipped"),
        pytest.param(key((1, 1, 2, 2), (2, 0)), id="a piece of no cells"),
        pytest.param(key((1, 1, 2, 2), (2, 5)), id="a piece past the size"),
        pytest.param(key((1, 1, 1, 1), (4, 1)), id="a size of no piece"),
        pytest.param(key((1, 1, 2, 2), (1, 1), pairs=0b10), id="a pair with no piece"),
        pytest.param(key((1, 1, 1, 1), (4,)) | 1 << 34, id="a bit past the pairs"),
        pytest.param(key((1, 1, 1, 1), (4,)) | 1 << 100, id="a bit of the high word"),
    ],
)
def test_a_checkpoint_whose_key_is_not_a_state_is_refused(tmp_path: Path, bad: int) -> None:
    """A file of the right checksum and a key that the count could not have made (which
    could make the count write past its arrays) is refused."""
    ledger = tmp_path / "bad.bin"
    records = [(bad & (1 << 64) - 1, bad >> 64, 1)]
    words = [4, 4, 4, 4, 1]
    write_checkpoint(
        ledger, _dissections.MAGIC, [*words, _dissections.checksum(words, records)], records
    )
    with pytest.raises(DamagedCheckpoint, match="damaged"):
        count_dissections(4, 4, 4, checkpoint=ledger)


def test_a_checkpoint_sealed_by_the_tests_checksum_is_taken(tmp_path: Path) -> None:
    """The checksum the tests seal their files with is the count's: a file rewritten
    with it (from the count's own) resumes, and so does a key made by hand by the helper
    of the refused keys (a state the count makes)."""
    ledger = tmp_path / "resealed.bin"
    magic, words, records = stopped(ledger)
    write_checkpoint(ledger, magic, [*words[:5], _dissections.checksum(words, records)], records)
    assert count_dissections(5, 6, 5, checkpoint=ledger) == 27950
    # after the first row of the 4 x 4 board, two pieces of 2 cells: 21 of the 117
    # dissections into tetrominoes cut the first row into two pieces' halves (listed
    # by a search of all of them)
    records = [(key((1, 1, 2, 2), (2, 2)), 0, 1)]
    words = [4, 4, 4, 4, 1]
    write_checkpoint(ledger, magic, [*words, _dissections.checksum(words, records)], records)
    assert count_dissections(4, 4, 4, checkpoint=ledger) == 21


@pytest.mark.parametrize("height", [429_496_730, 2**31])
def test_a_board_of_2_to_the_31_cells_or_more_is_refused(height: int) -> None:
    """Past :data:`MAX_CELLS` the count refuses the board (rather than counting a board
    whose cells overflowed a C int: 429,496,730 x 10 was taken for 4 cells)."""
    with pytest.raises(UsageError, match=f"has {height * 10:,} cells"):
        count_dissections(height, 10, 2)
    with pytest.raises(ValueError, match="cells"):
        _dissections.count_dissections(height, 10, 2)


def test_an_overflow_error_of_a_tick_goes_through_as_it_is() -> None:
    """Only a count past 2**64 is a ResourceLimitError; an OverflowError raised by a
    tick is the caller's own and reaches it unchanged."""

    def tick(done: int, cells: int, states: int) -> None:
        raise OverflowError("the tick's own")

    with pytest.raises(OverflowError, match="the tick's own"):
        count_dissections(3, 4, 4, tick=tick)
    with pytest.raises(ResourceLimitError, match=r"passed 2\*\*64"):
        count_dissections(17, 10, 2)  # 10 x 17 has more than 2**64 domino tilings


def on_disk(path: Path) -> tuple[int, int]:
    """What tells a file rewritten (moved into place anew) from the same file."""
    stat = path.stat()
    return stat.st_ino, stat.st_mtime_ns


def test_a_finished_count_run_again_leaves_its_checkpoint_alone(tmp_path: Path) -> None:
    """Nothing was decided: the file already holds the last layer, and is not rewritten."""
    ledger = tmp_path / "done.bin"
    whole = count_dissections(5, 6, 5, checkpoint=ledger)
    was = on_disk(ledger)
    assert count_dissections(5, 6, 5, checkpoint=ledger) == whole
    assert on_disk(ledger) == was


def test_a_count_stopped_again_before_a_new_layer_leaves_its_checkpoint_alone(
    tmp_path: Path,
) -> None:
    """Resumed under the bound that stopped it, the count stops at the same cell before
    it is done: the checkpoint already holds the layer it has, and is not rewritten."""
    ledger = tmp_path / "bound.bin"
    with pytest.raises(MemoryBoundError):
        count_dissections(6, 6, 6, checkpoint=ledger, max_bytes=300_000)
    was = on_disk(ledger)
    with pytest.raises(MemoryBoundError):
        count_dissections(6, 6, 6, checkpoint=ledger, max_bytes=300_000)
    assert on_disk(ledger) == was
