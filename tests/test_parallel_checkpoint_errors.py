"""Broken checkpoints and odd estimates of ``excover count`` by subproblems: checkpoint files with
odd digits or NaN sizes, hand-edited ones, a checkpoint path that cannot be written, and a
progress bar facing an estimate beyond floats. (Damaged files, set aside, and files shared
by several runs: tests/test_checkpoint_sharing.py.)"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from excover.main import main
from excover.parallel import checkpoint
from excover.parallel import run as parallel_run
from excover.solving import checkpointed

QUEENS8 = str(Path(__file__).parent / "data" / "knuth" / "queens8.dlx")


def _sealed(content: dict[str, Any]) -> bytes:
    """``content`` with its checksum made anew, as if a run had written it."""
    content = {key: value for key, value in content.items() if key != "checksum"}
    return json.dumps({**content, "checksum": checkpoint.checksum(content)}).encode()


def test_broken_checkpoint_files_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checkpoints whose checksum holds but whose content is wrong (written so by hand:
    damage would not fix the checksum) are refused, and left where they are."""
    state = tmp_path / "state.json"
    assert main(["count", QUEENS8, "--checkpoint", str(state)]) == 0
    assert capsys.readouterr().out == "92\n"
    good = json.loads(state.read_text())
    first = good["subproblems"][0]
    for text in (
        _sealed({**good, "done": {"\u00b2": [1, 2]}}),
        _sealed({**good, "subproblems": [{**first, "size": math.nan}]}),
        _sealed({**good, "subproblems": [{**first, "size": -1.0}]}),
    ):
        state.write_bytes(text)
        assert main(["count", QUEENS8, "--checkpoint", str(state)]) == 2
        assert str(state) in capsys.readouterr().err
        assert state.read_bytes() == text


def test_an_estimate_beyond_floats_still_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json"
    assert main(["count", QUEENS8, "--checkpoint", str(state), "--timeout", "0"]) == 1
    capsys.readouterr()
    saved = json.loads(state.read_text())
    for sub in saved["subproblems"]:
        sub["size"] = math.inf
    del saved["checksum"]
    saved["checksum"] = checkpoint.checksum(saved)  # as if written so by a run
    state.write_text(json.dumps(saved))
    assert main(["count", QUEENS8, "--checkpoint", str(state), "--progress"]) == 0
    assert capsys.readouterr().out == "92\n"


def test_progress_bar_of_an_infinite_estimate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An estimated tree beyond floats: the bar shows 0% until the count is complete,
    then 100%, never a NaN."""
    import argparse

    from excover.cli import progress
    from excover.parallel.subproblems import Subproblem

    monkeypatch.setattr(progress, "DELAY", 0.0)
    state = checkpoint.Checkpoint(None, "x", "search", [Subproblem((), (), size=math.inf)])
    shown = progress.progress(argparse.Namespace(progress=True), 100, "count", "%")
    bar = checkpointed.TaskBar(shown, math.inf)
    for done in (0.0, 5.0, math.inf):
        bar.draw(done, state)
    drawn = capsys.readouterr().err
    assert " 0%|" in drawn and "nan" not in drawn.lower() and "100%" not in drawn
    state.done[0] = (1, 1)
    bar.close(math.inf, state)
    assert "100%|" in capsys.readouterr().err.split("\r")[-1]


def test_an_unwritable_checkpoint_fails_before_counting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("counted before checking the checkpoint file")

    monkeypatch.setattr(parallel_run, "run_tasks", no_run)
    state = tmp_path / "missing" / "state.json"
    assert main(["count", QUEENS8, "--checkpoint", str(state)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"cannot write checkpoint {state}" in captured.err


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda saved: saved["subproblems"].clear(), "checksum"),
        (lambda saved: saved["subproblems"].append(saved["subproblems"][0]), "checksum"),
        (lambda saved: saved["done"].update({"0": [10**6, 1]}), "checksum"),
    ],
)
def test_a_hand_edited_checkpoint_is_never_summed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, reason: str
) -> None:
    """Emptying the subproblems printed 0 and duplicating them twice the count: a
    checkpoint must prove itself (its checksum). One that does not is set aside with the
    reason (it used to be refused, blocking every later run) and the count starts over."""
    state = tmp_path / "state.json"
    assert main(["count", QUEENS8, "--checkpoint", str(state), "--timeout", "0"]) == 1
    saved = json.loads(state.read_text())
    edit(saved)
    edited = json.dumps(saved)
    state.write_text(edited)
    capsys.readouterr()
    assert main(["count", QUEENS8, "--checkpoint", str(state)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "92\n"
    assert reason in captured.err and "kept aside as" in captured.err
    (aside,) = tmp_path.glob("state.json.damaged-*")
    assert aside.read_text() == edited


@pytest.mark.parametrize("change", ["drop", "repeat", "force"])
def test_a_rewritten_checkpoint_must_still_partition_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    """Even with a checksum made anew, subproblems that do not partition the search tree
    (one left out, one twice, one with other forced options) are refused."""
    state = tmp_path / "state.json"
    assert main(["count", QUEENS8, "--checkpoint", str(state), "--timeout", "0"]) == 1
    saved = json.loads(state.read_text())
    subs = saved["subproblems"]
    if change == "drop":
        subs.pop()
    elif change == "repeat":
        subs.append(dict(subs[0]))
    else:
        subs[0]["forced"] = subs[1]["forced"]
    del saved["checksum"]
    saved["checksum"] = checkpoint.checksum(saved)
    state.write_text(json.dumps(saved))
    capsys.readouterr()
    assert main(["count", QUEENS8, "--checkpoint", str(state)]) == 2
    err = capsys.readouterr().err
    assert "delete it to start over" in err and "checksum" not in err
