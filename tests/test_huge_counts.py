"""Counts of more than 4,300 digits leave excover exact, by every route.

CPython refuses to write an integer of more than 4,300 digits in decimal or to read one
back (``sys.set_int_max_str_digits``), and excover must not lift that limit for the whole
process: :mod:`excover.numbers` converts any size without it. Here the conversions are
checked against ``str`` and ``int`` (the limit lifted inside the test only), and a count
of 20,000 digits is taken through each route that can reach it: the API's ``zdd`` and
``auto`` counts, ``excover count`` in text, ``--stats`` and ``--json``, a ``.cmb``
program's ``count`` (text and JSON), ganak's answer from its child process, a checkpoint
written and resumed on worker processes, and the reprs of the results.

The problem: ``N`` independent primary items with three one-item options each, whose
count is ``3**N``; ``N = 41916`` is the smallest with 20,000 digits.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from excover import ExactCover, Stats
from excover.main import main
from excover.numbers import abbreviated, from_decimal, grouped, json_count, to_decimal
from excover.parallel.checkpoint import Checkpoint, fingerprint
from excover.parallel.subproblems import Subproblem

#: Independent items of the big problem: 3**N has 20,000 digits.
N = 41916

#: The lowest limit Python accepts for ``sys.set_int_max_str_digits`` (0: no limit).
LOWEST_LIMIT = 640

_T = TypeVar("_T")


def under_limit(limit: int, call: Callable[[], _T]) -> _T:
    """``call()`` with the interpreter's digit limit set to ``limit``, restored after."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(limit)
    try:
        return call()
    finally:
        sys.set_int_max_str_digits(before)


def reference(number: int) -> str:
    """``str(number)``, the limit lifted for this call only."""
    return under_limit(0, lambda: str(number))


def dlx_text(items: int) -> str:
    """The big problem in Knuth's DLX format."""
    names = [f"i{k}" for k in range(items)]
    return " ".join(names) + "\n" + "".join(f"{name}\n" * 3 for name in names)


@pytest.fixture(scope="module")
def expected() -> int:
    count: int = 3**N
    return count


@pytest.fixture(scope="module")
def problem_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("huge") / "three.dlx"
    path.write_text(dlx_text(N))
    return path


@pytest.fixture(scope="module")
def problem() -> ExactCover:
    return ExactCover.from_dlx(dlx_text(N))


@pytest.fixture(autouse=True)
def _limit_untouched() -> Iterator[None]:
    """No route may change the interpreter's limit behind its caller's back."""
    before = sys.get_int_max_str_digits()
    yield
    assert sys.get_int_max_str_digits() == before


# --------------------------------------------------------------------------- conversions


#: Integers of up to 3,000 digits, of every length (Hypothesis alone favours small ones),
#: some with long runs of zeros inside (``* 10**k + low``): the pieces' zero padding.
numbers = st.builds(
    lambda high, zeros, low, negative: (-1 if negative else 1) * (high * 10**zeros + low),
    st.integers(min_value=0, max_value=1500).flatmap(lambda d: st.integers(0, 10**d)),
    st.integers(min_value=0, max_value=1500),
    st.integers(min_value=0, max_value=999),
    st.booleans(),
)


@given(numbers)
def test_decimal_text_round_trips_under_the_lowest_limit(number: int) -> None:
    text = reference(number)
    assert under_limit(LOWEST_LIMIT, lambda: to_decimal(number)) == text
    assert under_limit(LOWEST_LIMIT, lambda: from_decimal(text)) == number
    assert under_limit(LOWEST_LIMIT, lambda: grouped(number)) == under_limit(
        0, lambda: f"{number:,}"
    )


@given(numbers, st.integers(min_value=1, max_value=40))
def test_leading_zeros_and_signs_are_read(number: int, zeros: int) -> None:
    number = abs(number)
    text = reference(number)
    assert from_decimal("0" * zeros + text) == number
    assert from_decimal("+" + text) == number
    assert from_decimal("-" + text) == -number


@pytest.mark.parametrize("digits", [20_000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_conversions_at_twenty_thousand_and_two_hundred_thousand_digits(digits: int) -> None:
    """Powers of ten and their neighbours (runs of 9s and 0s), and a number with every
    digit: the pieces must be padded with zeros exactly."""
    for number in (10**digits, 10**digits - 1, 10 ** (digits - 1) + 1, 7 ** (digits * 6 // 5)):
        text = reference(number)
        assert to_decimal(number) == text
        assert from_decimal(text) == number


@pytest.mark.parametrize("text", ["", "-", "+", "1e5", "12 ", " 12", "1_000", "٣", "0x10", "1.0"])
def test_anything_but_decimal_digits_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a decimal integer"):
        from_decimal(text)


def test_abbreviated_rounds_to_four_significant_digits() -> None:
    assert abbreviated(123_456) == "123,456"
    assert abbreviated(10**15 - 1) == "999,999,999,999,999"
    assert abbreviated(10**15) == "1.000e+15"
    assert abbreviated(99_995 * 10**20) == "1.000e+25"  # 9.9995e+24 rounds up a decade
    assert abbreviated(-123_449 * 10**30) == "-1.234e+35"
    text = reference(3**N)
    lead = str((int(text[:5]) + 5) // 10)  # four digits, rounded half up
    assert abbreviated(3**N) == f"{lead[0]}.{lead[1:4]}e+{len(text) - 1}"


def test_json_counts_are_numbers_while_a_double_holds_them() -> None:
    assert json_count(2**53 - 1) == 2**53 - 1
    assert json_count(2**53) == "9007199254740992"
    assert json_count(-(2**53)) == "-9007199254740992"


# --------------------------------------------------------------------------- the API


# specific methods: those that count twenty thousand digits in time (no search does)
@pytest.mark.parametrize("method", ["zdd", "auto"])
def test_the_api_counts_twenty_thousand_digits(
    problem: ExactCover, expected: int, method: str
) -> None:
    assert problem.count(method=method) == expected


def test_reprs_of_huge_results(problem: ExactCover, expected: int) -> None:
    family = problem.zdd()
    assert f"<Family: {reference(expected)} sets," in repr(family)
    assert f"solutions={reference(expected)}," in repr(Stats(solutions=expected))


# --------------------------------------------------------------------------- the command


def test_count_prints_the_exact_count(
    problem_file: Path, expected: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["count", str(problem_file), "--stats"]) == 0
    out, err = capsys.readouterr()
    assert out == reference(expected) + "\n"
    assert f"solutions: {reference(expected)}\n" in err


# specific methods: those that count twenty thousand digits in time (no search does)
@pytest.mark.parametrize("method", ["zdd", "auto"])
def test_count_json_holds_the_exact_count(
    problem_file: Path, expected: int, method: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["count", str(problem_file), "--method", method, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["count"] == reference(expected)
    assert from_decimal(document["stats"]["solutions"]) == expected


@pytest.mark.parametrize(
    "method",
    ["zdd", pytest.param("auto", marks=pytest.mark.slow)],  # auto: its race, seconds
)
def test_a_cmb_program_counts_twenty_thousand_digits(
    tmp_path: Path, expected: int, method: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three distinct monominoes on a board of N cells: 3**N tilings."""
    program = tmp_path / "three.cmb"
    program.write_text(
        f"problem p = constant {N // 2}x2 true [{{*}}, {{*}}, {{*}}]\ncount {method} p\n"
    )
    assert main(["run", str(program)]) == 0
    label = method.upper()
    assert capsys.readouterr().out == f"p : ({label}) {reference(expected)} solutions\n"
    assert main(["run", str(program), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert from_decimal(result["count"]) == expected


@pytest.mark.slow  # a ganak count of seconds
def test_ganak_hands_back_twenty_thousand_digits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ganak counts the subsets of M options of one item covered 0 to M times: 2**M.
    (ganak takes minutes on the independent items of the other tests.)"""
    options = 66_436  # 2**66436 has 20,000 digits
    path = tmp_path / "subsets.dlx"
    path.write_text(f"0:{options}|a\n" + "a\n" * options)
    argv = ["count", str(path), "--method", "sat", "--solver", "ganak"]
    assert main(argv) == 0
    assert capsys.readouterr().out == reference(2**options) + "\n"
    assert main([*argv, "--json"]) == 0
    assert from_decimal(json.loads(capsys.readouterr().out)["count"]) == 2**options


# --------------------------------------------------------------------------- checkpoints


@pytest.mark.slow  # a count of 20,000 digits, twice
def test_a_checkpoint_with_a_huge_partial_count_is_saved_and_resumed(
    tmp_path: Path,
    problem: ExactCover,
    problem_file: Path,
    expected: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first item's three options cut the problem in three; the first third counted
    (3**(N-1) solutions) is saved, read back from the file, and the run that resumes
    from it counts the other two on two worker processes (their counts come back
    through the process pool), reports it in its JSON progress lines and prints it
    whole."""
    from excover.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)  # the bar of this short run, at once
    path = tmp_path / "state.json"
    thirds = [Subproblem((option,), path=(option,)) for option in range(3)]
    state = Checkpoint(path, fingerprint(problem), "zdd", thirds)
    small, _ = thirds[0].reduce(problem)
    partial = small.count(method="zdd")
    state.done[0] = (partial, 0)
    state.save()
    saved = json.loads(path.read_text())
    assert from_decimal(saved["done"]["0"][0]) == partial == 3 ** (N - 1)
    loaded = Checkpoint.load(path, problem, "zdd")
    assert loaded is not None and loaded.done == {0: (partial, 0)}

    argv = ["count", str(problem_file), "--method", "zdd", "--checkpoint", str(path)]
    assert main([*argv, "--workers", "2", "--json", "--progress"]) == 0
    out, err = capsys.readouterr()
    # with --json, the progress goes to stderr as JSON lines: the last one has it all
    events = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert events and events[-1]["type"] == "progress"
    assert events[-1]["subproblems"] == "3/3" and events[-1]["solutions"] == reference(expected)
    assert f"(1 of 3 subproblems counted by earlier runs: {abbreviated(partial)} solutions" in err
    document = json.loads(out)
    assert document["count"] == reference(expected)
    assert document["stats"]["resumed"] == 1 and document["stats"]["done"] == 3
    final = json.loads(path.read_text())
    assert sum(from_decimal(total) for total, _ in final["done"].values()) == expected
    assert from_decimal(final["count"]) == expected
    assert main(argv) == 0  # every subproblem done: the count from the file alone
    assert capsys.readouterr().out == reference(expected) + "\n"


@pytest.mark.slow  # probes of a 200-level tree
def test_an_estimate_beyond_a_double_is_valid_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """40**200 solutions outgrow a double: the text says inf, the JSON says null (JSON has
    no infinity), and the document passes the schema."""
    import jsonschema

    from excover.cli import common

    path = tmp_path / "wide.dlx"
    names = [f"i{k}" for k in range(200)]
    path.write_text(" ".join(names) + "\n" + "".join(f"{name}\n" * 40 for name in names))
    assert main(["estimate", str(path), "--samples", "2", "--json"]) == 0
    text = capsys.readouterr().out
    document = json.loads(text, parse_constant=lambda name: pytest.fail(f"JSON has {name}"))
    jsonschema.validate(document, common.schema())
    assert document["estimate"]["solutions"] is None
    assert main(["estimate", str(path), "--samples", "2"]) == 0
    assert "inf" in capsys.readouterr().out
