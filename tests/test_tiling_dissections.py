"""The dissection count (:func:`excover.tiling.count_dissections`): the ways to cut a
rectangle into connected pieces of one size, against the exact cover of the tiling by
every polyomino of that size (any number of times), the published terms of A172477, and
its own symmetry; its bounds and its errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from excover import MemoryBoundError, UsageError
from excover.tiling import Pattern, Tiling, count_dissections, polyominoes, tiles


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


def test_a_count_stopped_part_way_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    """A count stopped after some cells (an exception from ``tick``) leaves the states
    of the last cell done in its checkpoint; the same call resumes from that cell and
    gives the whole count; run again, it starts from the finished file's last layer."""
    ledger = tmp_path / "seven.dissections"
    whole = count_dissections(6, 7, 7)

    def stop_at(cell: int) -> Callable[[int, int, int], None]:
        def tick(done: int, cells: int, states: int) -> None:
            if done == cell:
                raise _Stop

        return tick

    with pytest.raises(_Stop):
        count_dissections(6, 7, 7, checkpoint=ledger, tick=stop_at(20))
    assert ledger.exists() and not ledger.with_name(ledger.name + ".new").exists()
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
    from excover.parallel.checkpoint import DamagedCheckpoint

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
