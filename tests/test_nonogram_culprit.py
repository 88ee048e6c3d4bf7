"""The culprit search of large puzzles (:mod:`excover.nonogram.culprit`) and the
core's support for it (``given`` cells, ``deepest_order``), checked against the plain
search's full list of pictures on small random puzzles."""

from __future__ import annotations

import random
import time
from collections.abc import Generator

import pytest

from excover import nonogram
from excover.nonogram import _core as _nonogram
from excover.nonogram import culprit as nonogram_culprit
from excover.nonogram import sat as nonogram_sat
from excover.nonogram import search as nonogram_search
from excover.nonogram.culprit import CulpritSearch
from excover.nonogram.model import Puzzle


def _grids(puzzle: Puzzle) -> list[bytes]:
    """Every picture of ``puzzle``, as cell bytes, by the plain depth-first search."""
    return [
        bytes(2 if cell == "#" else 1 for row in picture for cell in row)
        for picture in nonogram.solutions(puzzle, method="propagate")
    ]


def _agrees(grid: bytes, given: bytes) -> bool:
    return all(value == 3 or grid[v] == value for v, value in enumerate(given))


@pytest.mark.parametrize("seed", range(12))
def test_a_guess_from_given_cells_finds_a_picture_with_them_or_proves_there_is_none(
    seed: int,
) -> None:
    """A complete decimation from ``given`` cells (some of a picture, some flipped)
    answers SOLUTION with a picture that keeps them exactly when one exists, EXHAUSTED
    otherwise; its deepest state's order lists each decided cell once, the given first."""
    rng = random.Random(seed)
    puzzle = nonogram.generate(9, 9, rng.uniform(0.4, 0.6), rng)
    pictures = _grids(puzzle)
    cells = puzzle.height * puzzle.width
    for _ in range(6):
        base = rng.choice(pictures)
        chosen = rng.sample(range(cells), rng.randint(1, 25))
        given = bytearray(b"\x03" * cells)
        for v in chosen:
            given[v] = base[v] if rng.random() < 0.8 else 3 - base[v]
        solver = nonogram_search.core(puzzle)
        assert solver.deepest_order() is None
        status = solver.guess(-1.0, 20, 0.05, -1, given=bytes(given))
        expected = any(_agrees(picture, bytes(given)) for picture in pictures)
        assert status == (_nonogram.SOLUTION if expected else _nonogram.EXHAUSTED)
        if expected:
            grid = solver.grid_bytes()
            assert grid in pictures and _agrees(grid, bytes(given))
            order = solver.deepest_order()
            deepest = solver.deepest_guess()
            assert order is not None and deepest is not None
            assert len(order) == len(set(order))
            assert set(order) == {v for v in range(cells) if deepest[v] != 3}
            assert set(order[: len(chosen)]) == set(chosen)


def test_given_longer_than_the_grid_is_refused() -> None:
    solver = nonogram_search.core(nonogram.generate(5, 5, 0.5, random.Random(1)))
    with pytest.raises(ValueError, match="given has 26 cells"):
        solver.guess(-1.0, given=b"\x03" * 26)


def _advance_until_answer(search: CulpritSearch, slices: int = 400) -> bytes | None:
    for _ in range(slices):
        answer = search.advance(time.monotonic() + 0.05)
        if answer is not None or search.refuted:
            return answer
    raise AssertionError("the culprit search neither answered nor gave up")


def _open_puzzle(rng: random.Random, size: int) -> tuple[Puzzle, bytes]:
    """A random puzzle that probing at the root leaves partly open, and that root."""
    while True:
        puzzle = nonogram.generate(size, size, 0.5, rng)
        root = nonogram_search.core(puzzle)
        root.probe_only()
        if root.grid_bytes().count(3) >= 20:
            return puzzle, root.grid_bytes()


@pytest.mark.parametrize("seed", range(6))
def test_the_culprit_search_from_a_wrong_state_finds_a_picture_that_keeps_the_trusted(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given a wrong deepest state (a picture with some open cells flipped, in a random
    order) and decimations that stop at their first dead end, the search bisects with
    Kissat, and its answer is a picture that keeps every literal it came to trust
    (small puzzles' satisfiable prefixes are solved at once: the answer comes from the
    bisection or from a decimation after a culprit)."""
    rng = random.Random(seed)
    puzzle, root = _open_puzzle(rng, 14)
    picture = rng.choice(_grids(puzzle))
    open_cells = [v for v in range(len(root)) if root[v] == 3]
    rng.shuffle(open_cells)
    flipped = set(open_cells[len(open_cells) // 3 :: 5])
    wrong = [(v + 1 if (picture[v] == 2) != (v in flipped) else -(v + 1)) for v in open_cells]
    monkeypatch.setattr(nonogram_culprit, "DECIMATION_FAILURES", 0)
    monkeypatch.setattr(nonogram_culprit, "CALL_SECONDS", 5.0)
    states = iter([wrong])

    class FromWrongState(CulpritSearch):
        """Its first decimation stops at once, its deepest state the wrong one."""

        def _decimate(self, decimation: _nonogram.Core) -> Generator[None, None, int]:
            if self.culprits == 0:
                return _nonogram.NODE_LIMIT
            return (yield from super()._decimate(decimation))

        def _deepest_literals(self, decimation: _nonogram.Core) -> list[int]:
            first = next(states, None)
            return first if first is not None else super()._deepest_literals(decimation)

    formula = nonogram_sat.encode_order(puzzle).clauses
    search = FromWrongState(puzzle, formula, root)
    search.trusted = []
    try:
        answer = _advance_until_answer(search)
    finally:
        search.close()
    assert answer is not None and not search.refuted and search.kissat_runs >= 1
    assert puzzle.is_solution(nonogram_search.picture(answer, puzzle.width))
    assert all((answer[abs(lit) - 1] == 2) == (lit > 0) for lit in search.trusted)


#: How many literals after the first wrong one the weak Kissat of :func:`_walk` needs
#: to refute a prefix.
_SHOWS_LATER = 3


def _walk(seed: int) -> bool:
    """One culprit search of :func:`test_the_culprit_search_walks_back_...`: whether
    it walked back (trusted fewer literals after a culprit than before)."""
    rng = random.Random(seed)
    puzzle, root = _open_puzzle(rng, 10)
    pictures = _grids(puzzle)
    open_cells = [v for v in range(len(root)) if root[v] == 3]
    long_prefix = len(open_cells) // 2

    def has_picture(literals: list[int]) -> bytes | None:
        return next(
            (g for g in pictures if all((g[abs(lit) - 1] == 2) == (lit > 0) for lit in literals)),
            None,
        )

    class WeakKissat(CulpritSearch):
        """Decimations that stop at once, on a wrong state; no probing; a Kissat that
        refutes a prefix when it holds :data:`_SHOWS_LATER` literals after its first
        wrong one, and finds a picture on long prefixes only."""

        def _decimate(self, decimation: _nonogram.Core) -> Generator[None, None, int]:
            return _nonogram.NODE_LIMIT
            yield None

        def _deepest_literals(self, decimation: _nonogram.Core) -> list[int]:
            known = {abs(lit) - 1 for lit in self.trusted}
            picture = rng.choice(pictures)
            rest = [v for v in open_cells if v not in known]
            rng.shuffle(rest)
            return [v + 1 if (picture[v] == 2) != (rng.random() < 0.3) else -(v + 1) for v in rest]

        def _refute(self, literals: list[int]) -> Generator[None, None, bool | bytes]:
            self.kissat_runs += 1
            picture = has_picture(literals)
            if picture is not None:
                return picture if len(literals) >= long_prefix else False
            wrong = next(k for k in range(len(literals) + 1) if not has_picture(literals[:k]))
            return len(literals) - wrong >= _SHOWS_LATER
            yield None

        def _probing_refutes(self, literals: list[int]) -> bool:
            return False

    search = WeakKissat(puzzle, nonogram_sat.encode_order(puzzle).clauses, root)
    walked_back = False
    answer = None
    for _ in range(5000):
        before = len(search.trusted)
        answer = search.advance(time.monotonic())  # a slice per round: checked each
        if answer is not None or search.refuted:
            break
        walked_back = walked_back or len(search.trusted) < before
        for j in search.flipped:
            assert has_picture([*search.trusted[:j], -search.trusted[j]]) is None
    assert answer is not None and not search.refuted
    assert answer in pictures
    assert all((answer[abs(lit) - 1] == 2) == (lit > 0) for lit in search.trusted)
    return walked_back


def test_the_culprit_search_walks_back_without_trusting_a_refuted_value_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a Kissat that refutes a wrong prefix only some literals after its first
    wrong one, and finds pictures only on long prefixes (short ones are "not refuted in
    time"), no probing, and deepest states that are pictures with some cells flipped,
    the search walks back over culprits whose both values are refuted: after every
    culprit, each opposite it trusted (``flipped``) is one no picture has under the
    trusted literals before it; and it ends with a picture that keeps every trusted
    literal. Some of the searches do walk back."""
    monkeypatch.setattr(nonogram_culprit, "DECIMATION_FAILURES", 0)
    assert any([_walk(seed) for seed in range(10)])


def test_the_culprit_search_never_answers_a_puzzle_with_no_picture() -> None:
    """Puzzles with no picture that probing at the root does not refute: the search
    gives up (``refuted``) and never offers a picture."""
    rng = random.Random(7)
    tried = 0
    while tried < 3:
        puzzle = nonogram.generate(6, 6, 0.5, rng)
        rows = list(puzzle.rows)
        row = rng.randrange(len(rows))
        rows[row] = tuple(rng.sample(range(1, 3), 1))
        broken = Puzzle(tuple(rows), puzzle.cols)
        root = nonogram_search.core(broken)
        if not root.probe_only() or _grids(broken):
            continue
        tried += 1
        formula = nonogram_sat.encode_order(broken).clauses
        search = CulpritSearch(broken, formula, root.grid_bytes())
        try:
            assert _advance_until_answer(search) is None
        finally:
            search.close()
        assert search.refuted


@pytest.mark.parametrize("seed", range(8))
def test_the_hybrid_route_with_the_culprit_search_agrees_with_plain_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The large puzzles' culprit search, brought to small ones (at every size, with
    decimations meeting dead ends at once): the hybrid route finds the same pictures as
    the plain search, and its proofs that there is no other hold."""
    rng = random.Random(seed)
    puzzle = nonogram.generate(12, 12, rng.uniform(0.3, 0.7), rng)
    plain = nonogram.count(puzzle, limit=3, method="propagate")
    monkeypatch.setattr(nonogram_search, "DFS_NODES", 0)
    monkeypatch.setattr(nonogram_search, "FIRST_SLICE", 0.001)
    monkeypatch.setattr(nonogram_search, "CULPRIT_CELLS", 0)
    monkeypatch.setattr(nonogram_search, "LARGE_GUESS_CELLS", 0)
    monkeypatch.setattr(nonogram_culprit, "DECIMATION_FAILURES", 0)
    pictures = list(nonogram.solutions(puzzle, limit=3))
    assert len(pictures) == len({tuple(picture) for picture in pictures}) == plain
    assert all(puzzle.is_solution(picture) for picture in pictures)
