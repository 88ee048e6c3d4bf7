"""The design engine alone, on a space of no domain: candidates that stand in another's
orbit, designs rejected before a search, outcomes with scores of several numbers (as a
burr's level), ranked, recorded and resumed, in this process and on workers; the figures
checked against the outcomes computed directly."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from excover.design import Design, DesignSpace, Evaluation, Goal, Score, search
from excover.design.ledger import decode, encode


class Toy(DesignSpace):
    """Candidates 0 to ``size - 1``: every seventh (3, 10, ...) stands in another's
    orbit, every eleventh is rejected at once; a design has ``index % 4`` solutions (up
    to ``most + 1`` counted) and the level ``(index % 5, index % 3)``. It notes the
    ``beat`` each evaluation was given."""

    kind: ClassVar[str] = "toy"
    scores: ClassVar[tuple[str, ...]] = ("solutions", "level")

    def __init__(self, size: int = 300) -> None:
        self._size = size
        self.beats: list[Score | None] = []

    @property
    def size(self) -> int:
        return self._size

    def design(self, index: int) -> Design | None:
        return None if index % 7 == 3 else Design(index, f"toy{index}", 1 + (index % 7 == 4))

    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        self.beats.append(beat)
        index = design.index
        if index % 11 == 0:
            return Evaluation(0, rejected="odd")
        solutions = index % 4
        if goal.solutions is not None and solutions > goal.solutions:
            return Evaluation(goal.solutions + 1, exact=False)
        return Evaluation(solutions, True, {"level": (index % 5, index % 3)})

    def declaration(self) -> dict[str, Any]:
        return {"kind": self.kind, "size": self._size}

    @classmethod
    def from_declaration(cls, declaration: Mapping[str, Any]) -> DesignSpace:
        return cls(declaration["size"])


def expected(size: int, goal: Goal) -> tuple[Counter[str], int, list[tuple[int, tuple[int, int]]]]:
    """The distribution, the designs rejected and the qualifying designs (index, level)
    of the toy space."""
    spread: Counter[str] = Counter()
    rejected = 0
    found = []
    for index in range(size):
        if index % 7 == 3:
            continue
        if index % 11 == 0:
            spread["0"] += 1
            rejected += 1
            continue
        solutions = index % 4
        most = goal.solutions
        if most is not None and solutions > most:
            spread[f"{most + 1}+"] += 1
            continue
        spread[str(solutions)] += 1
        if solutions >= 1:
            found.append((index, (index % 5, index % 3)))
    return spread, rejected, found


@pytest.mark.parametrize("workers", [1, 2])
def test_the_figures_and_the_ranking_by_a_level(tmp_path: Path, workers: int) -> None:
    goal = Goal(solutions=2, top=7, by="level")
    report = search(Toy(), goal, workers=workers, ledger=tmp_path / "toy.ledger")
    spread, rejected, found = expected(300, goal)
    assert report.distribution == dict(spread)
    assert report.rejected == {"odd": rejected}
    assert (report.candidates, report.designs) == (300, 300 - len(range(3, 300, 7)))
    assert report.qualifying == len(found)
    best = sorted(found, key=lambda f: (tuple(-p for p in f[1]), f[0]))[:7]
    assert [(f.index, f.scores["level"]) for f in report.found] == best
    assert [f.weight for f in report.found] == [1 + (i % 7 == 4) for i, _ in best]
    again = search(Toy(), goal, ledger=tmp_path / "toy.ledger")  # all from the ledger
    assert again.resumed == report.designs
    assert [(f.index, f.scores["level"]) for f in again.found] == best


def test_each_evaluation_is_told_the_level_to_beat() -> None:
    space = Toy()
    goal = Goal(solutions=None, top=3, by="level")
    report = search(space, goal)
    assert space.beats[0] is None
    told = [beat for beat in space.beats if isinstance(beat, tuple)]
    assert told and told == sorted(told)  # the third best only rises
    last = report.found[-1].scores["level"]
    assert isinstance(last, tuple) and told[-1] <= last


def test_ledger_entries_keep_every_outcome() -> None:
    for outcome in [
        None,
        Evaluation(0),
        Evaluation(7),
        Evaluation(3, exact=False),
        Evaluation(0, rejected="colouring"),
        Evaluation(1, True, {"nodes": 812}),
        Evaluation(1, True, {"level": (5, 2, 1), "moves": 17}),
    ]:
        assert decode(encode(outcome, True)) == outcome
    assert encode(Evaluation(1, True, {"nodes": 3}), False) == 1
    for bad in [True, -1, "x", "3-", {"solutions": 1}, {"solutions": 1, "exact": 1, "scores": {}}]:
        with pytest.raises(ValueError):
            decode(bad)


def test_each_public_name_is_what_it_names_whatever_is_imported_first() -> None:
    """The package's names are imported on first use: a module imported first (as the
    home of another name) never hides a name of the package."""
    code = (
        "from excover.design import SearchProgress, Report, Goal, search, Multisets\n"
        "import inspect\n"
        "assert inspect.isfunction(search) and inspect.isclass(SearchProgress), search\n"
        "import excover.design as d\n"
        "assert all(not inspect.ismodule(getattr(d, n)) for n in d.__all__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_tuples_of_every_length_rank_number_by_number() -> None:
    """A tuple score ranks as sorted() orders tuples, lowest first, and exactly the
    other way highest first: (5, 4) above (5,) above (4, 9, 9)."""
    scores = [(5,), (4, 9, 9), (5, 4), (6,), (5, 4, 1), (5, 0)]
    low = sorted(scores, key=Goal(order="low").rank)
    high = sorted(scores, key=Goal(order="high").rank)
    assert low == sorted(scores)
    assert high == sorted(scores, reverse=True)
    assert high[:3] == [(6,), (5, 4, 1), (5, 4)]
