"""The ledger of a design search: a search stopped anywhere (an injected error, Ctrl-C,
a timeout, ranges run apart, workers) resumes from it to the report an unbroken run
gives, evaluating no design twice; a torn last line is ignored, a damaged one or a
ledger of another search refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from excover.design import Design, Evaluation, Goal, LedgerError, Report, Score, search
from excover.design.ledger import Ledger
from excover.tiling.designs import PackingSpace

BOX: dict[str, Any] = {"board": "5x2x2", "catalog": "pentacubes", "pieces": 4}
#: A range of the box's candidates with unique designs, quick to search.
STOP = 1500


class Injected(Exception):
    """The fault a test injects into an evaluation."""


class Fragile(PackingSpace):
    """A packing space that notes every design it evaluates and, at its ``fail_at``-th
    evaluation, raises ``fault`` instead (an injected stop)."""

    def __init__(self, fail_at: int | None = None, fault: type[BaseException] = Injected) -> None:
        super().__init__(**BOX)
        self.fail_at = fail_at
        self.fault = fault
        self.evaluated: list[int] = []

    def evaluate(
        self, design: Design, goal: Goal, beat: Score | None, deadline: float | None
    ) -> Evaluation:
        if len(self.evaluated) == self.fail_at:
            raise self.fault()
        self.evaluated.append(design.index)
        return super().evaluate(design, goal, beat, deadline)


def figures(report: Report) -> dict[str, Any]:
    """What a report says of the designs (not of the run that made it)."""
    found = report.as_dict()
    for key in ("elapsed", "seconds", "resumed", "ledger", "workers"):
        del found[key]
    return found


@pytest.fixture(scope="module")
def reference() -> Report:
    return search(PackingSpace(**BOX), stop=STOP)


@pytest.mark.parametrize("fail_at", [0, 1, 37, 300])
def test_a_search_stopped_by_an_error_resumes_to_the_same_report(
    tmp_path: Path, reference: Report, fail_at: int
) -> None:
    ledger = tmp_path / "run.ledger"
    first = Fragile(fail_at)
    with pytest.raises(Injected):
        search(first, ledger=ledger, stop=STOP)
    assert len(first.evaluated) == fail_at
    second = Fragile()
    report = search(second, ledger=ledger, stop=STOP)
    assert figures(report) == figures(reference)
    assert report.resumed == fail_at
    assert not set(first.evaluated) & set(second.evaluated)  # none evaluated twice
    designs = {i for i in range(STOP) if second.design(i) is not None}
    assert set(first.evaluated) | set(second.evaluated) == designs


def test_ctrl_c_ends_the_run_with_its_report_and_the_ledger_resumes(
    tmp_path: Path, reference: Report
) -> None:
    ledger = tmp_path / "run.ledger"
    first = Fragile(200, KeyboardInterrupt)
    stopped = search(first, ledger=ledger, stop=STOP)
    assert stopped.stopped_by == "interrupt" and not stopped.complete
    assert stopped.designs == 200
    second = Fragile()
    report = search(second, ledger=ledger, stop=STOP)
    assert figures(report) == figures(reference) and report.stopped_by is None
    assert len(second.evaluated) == reference.designs - 200


def test_a_torn_last_line_is_ignored_and_cut_off(tmp_path: Path, reference: Report) -> None:
    ledger = tmp_path / "run.ledger"
    first = Fragile(250)
    with pytest.raises(Injected):
        search(first, ledger=ledger, stop=STOP)
    whole = ledger.read_bytes()
    ledger.write_bytes(whole + b'{"from": 1400, "to": 1410, "outco')  # killed mid-write
    second = Fragile()
    report = search(second, ledger=ledger, stop=STOP)
    assert figures(report) == figures(reference)
    assert len(second.evaluated) == reference.designs - 250
    lines = ledger.read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(json.loads(line) for line in lines[:-1])


def test_ranges_run_apart_into_one_ledger_make_the_whole_report(
    tmp_path: Path, reference: Report
) -> None:
    ledger = tmp_path / "run.ledger"
    low = search(PackingSpace(**BOX), ledger=ledger, start=0, stop=500)
    high = search(PackingSpace(**BOX), ledger=ledger, start=1000, stop=STOP)
    assert low.complete and high.complete and (low.start, high.stop) == (0, STOP)
    middle = Fragile()
    report = search(middle, ledger=ledger, stop=STOP)
    assert figures(report) == figures(reference)
    assert set(middle.evaluated) <= set(range(500, 1000))
    assert report.resumed == low.designs + high.designs


def test_a_timeout_keeps_what_was_done(tmp_path: Path, reference: Report) -> None:
    ledger = tmp_path / "run.ledger"
    stopped = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, timeout=0)
    assert stopped.stopped_by == "timeout" and not stopped.complete
    report = search(PackingSpace(**BOX), ledger=ledger, stop=STOP)
    assert figures(report) == figures(reference)


def test_workers_give_the_same_report_and_a_ledger_another_run_takes_whole(
    tmp_path: Path, reference: Report
) -> None:
    ledger = tmp_path / "run.ledger"
    on_two = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, workers=2)
    assert figures(on_two) == figures(reference) and on_two.workers == 2
    untouched = Fragile(fail_at=0)  # any evaluation would raise
    again = search(untouched, ledger=ledger, stop=STOP)
    assert figures(again) == figures(reference) and again.resumed == reference.designs


def test_workers_stopped_by_a_timeout_resume(tmp_path: Path, reference: Report) -> None:
    ledger = tmp_path / "run.ledger"
    stopped = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, workers=2, timeout=0.3)
    assert stopped.stopped_by in ("timeout", None)  # a quick machine may finish
    report = search(PackingSpace(**BOX), ledger=ledger, stop=STOP, workers=2)
    assert figures(report) == figures(reference)


def test_a_top_k_resumes_to_the_same_ranking(tmp_path: Path) -> None:
    goal = Goal(top=5, by="nodes")
    whole = search(PackingSpace(**BOX), goal, stop=STOP)
    assert [f.scores["nodes"] for f in whole.found] == sorted(
        (f.scores["nodes"] for f in whole.found), reverse=True
    )
    ledger = tmp_path / "run.ledger"
    with pytest.raises(Injected):
        search(Fragile(300), goal, ledger=ledger, stop=STOP)
    report = search(Fragile(), goal, ledger=ledger, stop=STOP)
    assert figures(report) == figures(whole) and len(report.found) == 5


def test_a_damaged_line_is_refused_with_its_number(tmp_path: Path) -> None:
    ledger = tmp_path / "run.ledger"
    search(PackingSpace(**BOX), ledger=ledger, stop=300)
    lines = ledger.read_text().split("\n")
    lines.insert(1, "not json")
    ledger.write_text("\n".join(lines))
    with pytest.raises(LedgerError, match=r"run\.ledger:2: damaged line"):
        search(PackingSpace(**BOX), ledger=ledger, stop=300)


def test_a_ledger_of_another_search_is_refused_naming_what_differs(tmp_path: Path) -> None:
    ledger = tmp_path / "run.ledger"
    search(PackingSpace(**BOX), ledger=ledger, stop=10)
    with pytest.raises(LedgerError, match=r"its goal\.solutions is 1, this one's 2"):
        search(PackingSpace(**BOX), Goal(solutions=2), ledger=ledger, stop=10)
    with pytest.raises(LedgerError, match=r"its space\.pieces is 4, this one's 3"):
        search(PackingSpace(**{**BOX, "pieces": 3}), ledger=ledger, stop=10)
    ledger.write_text("hello\n")
    with pytest.raises(LedgerError, match="not a design ledger"):
        search(PackingSpace(**BOX), ledger=ledger, stop=10)


def test_a_ledger_in_use_is_refused(tmp_path: Path) -> None:
    ledger = tmp_path / "run.ledger"
    space = PackingSpace(**BOX)
    header = {"kind": "packing", "space": space.declaration(), "size": space.size}
    header["goal"] = Goal().as_dict()
    with Ledger(ledger, header), pytest.raises(LedgerError, match="is in use by process"):
        search(space, ledger=ledger, stop=10)
