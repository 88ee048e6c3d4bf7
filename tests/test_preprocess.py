"""Preprocessing (:mod:`excover.preprocess`) keeps the solutions exactly.

The reduced problem's solutions, mapped back to the original options, are checked against
the brute-force oracle of :mod:`builders` (every subset of options tried against the
definition) on random instances, plain, with secondary items and with colors; counts by
every method agree with it; the rules' own effects (blocked options, twin and idle items,
forced options) are checked on small problems worked by hand, and on Knuth's files
against the counts of his MANIFEST.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from budget import examples
from builders import KNUTH_DATA, Instance, Kind, instances
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excover import ExactCover, UsageError
from excover.cli import common
from excover.main import main
from excover.names import METHODS
from excover.preprocess import preprocess

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: The kinds of problem preprocessing works on (multiplicities are left as they are).
REDUCED_KINDS: tuple[Kind, ...] = ("X", "XCC")

FAST = settings(
    max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _mapped_solutions(instance: Instance, budget: int | None = None) -> list[frozenset[int]]:
    """The solutions of the reduced problem of ``instance``, as sets of its options."""
    problem = instance.build()
    reduced = preprocess(problem) if budget is None else preprocess(problem, budget=budget)
    found = [frozenset(reduced.original(s)) for s in reduced.problem.solutions()]
    for solution in found:
        assert problem.is_solution(solution)
    return found


@FAST
@given(instances("X", max_options=11))
def test_plain_solutions_are_kept_exactly(instance: Instance) -> None:
    found = _mapped_solutions(instance)
    assert len(found) == len(set(found))  # no solution twice
    assert set(found) == instance.all_covers()


@FAST
@given(instances("XCC", max_options=11))
def test_colored_solutions_are_kept_exactly(instance: Instance) -> None:
    found = _mapped_solutions(instance)
    assert len(found) == len(set(found))
    assert set(found) == instance.all_covers()


@st.composite
def larger_problems(draw: st.DrawFn) -> ExactCover:
    """Problems of up to 40 options over up to 8 primary and 4 secondary items (some
    colored), too many options for the brute force but enough for several rounds of
    removals, twins and witnesses that go stale."""
    n_primary = draw(st.integers(2, 8))
    n_secondary = draw(st.integers(0, 4))
    problem = ExactCover(n_primary, n_secondary)
    for _ in range(draw(st.integers(0, 40))):
        primary = draw(st.sets(st.integers(0, n_primary - 1), min_size=1, max_size=3))
        secondary = (
            draw(st.sets(st.integers(n_primary, n_primary + n_secondary - 1)))
            if n_secondary
            else set()
        )
        colors = [draw(st.sampled_from(["", ":r", ":g"])) for _ in secondary]
        problem.add_option(
            [str(i) for i in primary]
            + [f"{i}{color}" for i, color in zip(sorted(secondary), colors, strict=True)]
        )
    return problem


@FAST
@given(larger_problems())
def test_larger_problems_keep_their_solutions(problem: ExactCover) -> None:
    """Against dancing links on the original problem."""
    reduced = preprocess(problem)
    found = [frozenset(reduced.original(s)) for s in reduced.problem.solutions("search")]
    assert len(found) == len(set(found))
    assert set(found) == {frozenset(s) for s in problem.solutions("search")}


@FAST
@given(instances("XCC", max_options=8))
def test_a_budget_stops_early_and_stays_exact(instance: Instance) -> None:
    """No budget at all: no round runs, nothing is removed but items, still exact."""
    reduced = preprocess(instance.build(), budget=0)
    assert reduced.stats.rounds == 0
    assert reduced.stats.options_removed == 0
    assert reduced.stats.complete is (instance.build().n_options == 0)
    assert set(_mapped_solutions(instance, budget=0)) == instance.all_covers()


@settings(max_examples=examples(40), deadline=None)
@given(instances("XCC", max_options=9))
def test_counts_agree_across_methods(instance: Instance) -> None:
    problem = instance.build()
    expected = len(instance.all_covers())
    for method in METHODS:
        assert problem.count(method, preprocess=True) == expected, method
    assert sorted(map(sorted, problem.solutions(preprocess=True))) == sorted(
        map(sorted, instance.all_covers())
    )
    first = problem.first(preprocess=True)
    assert (first is None) == (expected == 0)
    assert first is None or frozenset(first) in instance.all_covers()


@settings(max_examples=examples(40), deadline=None)
@given(instances("MCC", max_options=8))
def test_multiplicities_are_left_alone(instance: Instance) -> None:
    problem = instance.build()
    reduced = preprocess(problem)
    assert reduced.stats.skipped == "multiplicities"
    assert reduced.problem == problem
    assert problem.count(preprocess=True) == len(instance.all_covers())


def test_a_blocked_option_goes_its_twin_item_and_the_forced_options_are_named() -> None:
    """x has one option, {x, y}: it is forced, {y, z} blocks x and goes, y is then x's
    twin and is dropped, and z is left with {z} alone, forced too."""
    problem = ExactCover(["x", "y", "z"])
    for option in (["x", "y"], ["y", "z"], ["z"]):
        problem.add_option(option)
    reduced = preprocess(problem)
    assert reduced.problem.primary_items == ("x", "z")
    assert reduced.options == (0, 2)
    assert reduced.stats.forced == (0, 2)
    assert (reduced.stats.options_removed, reduced.stats.items_removed) == (1, 1)
    assert [reduced.original(s) for s in reduced.problem.solutions()] == [[0, 2]]


def test_idle_secondary_items_are_dropped_and_busy_ones_kept() -> None:
    """s is in one option; t always has color red; u is only in options of a; v and w
    are twins that can make two options incompatible: the first, v, stays."""
    problem = ExactCover(["a", "b"], ["s", "t", "u", "v", "w"])
    for option in (
        ["a", "s", "t:red", "u", "w", "v"],
        ["a", "u", "w:blue", "v:blue"],
        ["b", "t:red", "w", "v"],
        ["b", "t:red"],
        ["a"],
    ):
        problem.add_option(option)
    reduced = preprocess(problem)
    assert reduced.problem.secondary_items == ("v",)
    assert reduced.problem.n_options == 5
    expected = {frozenset(s) for s in problem.solutions()}
    assert {frozenset(reduced.original(s)) for s in reduced.problem.solutions()} == expected


def test_an_item_without_options_leaves_no_option_and_no_solution() -> None:
    problem = ExactCover(["a", "b", "c"])
    problem.add_option(["a"])
    problem.add_option(["b"])
    reduced = preprocess(problem)
    assert reduced.problem.n_options == 0
    assert reduced.problem.n_primary == 1
    assert reduced.problem.count() == 0 == problem.count(preprocess=True)


@pytest.mark.parametrize("budget", [-1, 1.5, True, "10"])
def test_a_bad_budget_is_a_usage_error(budget: object) -> None:
    problem = ExactCover(["a"])
    problem.add_option(["a"])
    with pytest.raises(UsageError, match="budget must be a non-negative int"):
        preprocess(problem, budget=budget)  # type: ignore[arg-type]


def test_preprocess_refuses_a_symmetry() -> None:
    problem = ExactCover(["a"])
    problem.add_option(["a"])
    with pytest.raises(UsageError, match="preprocess does not combine with symmetry"):
        problem.count(preprocess=True, up_to_symmetry=True)


#: What Knuth's DLX-PRE (dlx-pre.w of his CWEB sources, built from ascherer/cwebtest and
#: run on these files on 2026-11-25) removes: options, and its rounds. Its options left
#: were the very options left here, on these files and on the XCC form of heart.non.
DLX_PRE = {"scott-pfix": (145, 2), "pento3x20": (150, 3)}


@pytest.mark.parametrize(("name", "count"), [("scott-pfix", 65), ("pento3x20", 8)])
def test_knuth_files_keep_their_counts(name: str, count: int) -> None:
    """The counts of Knuth's MANIFEST, with the options DLX-PRE removes removed (pieces
    that cut a cell off at the board's edge)."""
    problem = ExactCover.read(KNUTH_DATA / f"{name}.dlx")
    reduced = preprocess(problem)
    assert (reduced.stats.options_removed, reduced.stats.rounds) == DLX_PRE[name]
    assert reduced.stats.complete
    assert reduced.problem.count("search") == count == problem.count(preprocess=True)


def test_a_nonogram_in_xcc_form_loses_what_dlx_pre_removes(tmp_path: Path) -> None:
    """heart.non's exact cover with colors: DLX-PRE removes 73 of its 93 options (in 4
    rounds of its own, which removes options one at a time); here every secondary item
    goes too, and the 20 options left are each forced: the solution."""
    path = tmp_path / "heart.dlx"
    assert (
        main(["nonogram", str(EXAMPLES / "nonograms" / "heart.non"), "--write-dlx", str(path)]) == 0
    )
    problem = ExactCover.read(path)
    reduced = preprocess(problem)
    assert (problem.n_options, reduced.stats.options_removed) == (93, 73)
    assert reduced.problem.n_secondary == 0
    assert sorted(reduced.stats.forced) == sorted(reduced.options)
    assert [sorted(reduced.original(s)) for s in reduced.problem.solutions()] == [
        sorted(s) for s in problem.solutions()
    ]


def test_the_command_line_counts_and_lists_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(KNUTH_DATA / "scott-pfix.dlx")
    assert main(["count", path, "--preprocess", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(common.schema()).validate(document)
    assert document["count"] == 65
    assert (
        document["stats"]["options_removed"]
        == preprocess(ExactCover.read(path)).stats.options_removed
    )
    assert main(["count", path, "--preprocess", "--stats"]) == 0
    out, err = capsys.readouterr()
    assert out == "65\n" and "options removed: 145" in err
    listings = []
    for flag in ("--preprocess", "--no-preprocess"):
        assert main(["solve", str(KNUTH_DATA / "queens8.dlx"), flag]) == 0
        out = capsys.readouterr().out
        listings.append(sorted(out.split("\n\n")))
    assert listings[0] == listings[1]
    assert len(listings[0]) == 92


def test_the_command_line_says_why_it_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An MCC problem: a in 0..2 times, b once; {b}, {a}{b}, {a b}, {a}{a b}."""
    problem = ExactCover(["a", "b"])
    for option in (["a"], ["a", "b"], ["b"]):
        problem.add_option(option)
    problem.set_multiplicity("a", 0, 2)
    path = tmp_path / "mcc.dlx"
    problem.write(path)
    assert main(["count", str(path), "--preprocess", "--stats"]) == 0
    out, err = capsys.readouterr()
    assert out == "4\n"
    assert "preprocess skipped: multiplicities" in err
    assert "options removed: 0" in err


@FAST
@given(st.sampled_from(REDUCED_KINDS).flatmap(lambda kind: instances(kind, max_options=11)))
def test_the_race_preprocesses_to_the_same_count(instance: Instance) -> None:
    """The route choice's own preprocessing (``count(method="auto")``, by default on a
    search that projects a long count), forced on every race by a projection of a
    second before any search step, with the search's scout off: the count is the
    oracle's, and the result says what preprocessing did."""
    from excover.counting import choice, routes

    problem = instance.build()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(choice, "scout_nodes", lambda _: 0)
        patch.setattr(routes, "scout_nodes", lambda _: 0)
        patch.setattr(choice, "rivals_after", lambda _: 0.0)
        patch.setattr(routes.SearchRunner, "remaining", lambda _: 1.0)
        found = choice.count(problem)
    assert found.count == len(instance.all_covers())
    if found.preprocessed is not None:
        removed = found.preprocessed.options_removed + found.preprocessed.items_removed
        assert found.reason.startswith("preprocessed") == (removed > 0)


def test_the_race_preprocesses_a_long_count_and_says_so() -> None:
    """pento5x12 (4,040 tilings, a count some 15 times longer than the time its search
    runs alone before the race): with the thresholds at 0, the race preprocesses it (144
    blocked placements removed) and counts the smaller problem; with
    ``preprocess=False`` it does not."""
    from excover.counting import choice

    problem = ExactCover.read(Path(__file__).parent / "data" / "knuth" / "pento5x12.dlx")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(choice, "PREPROCESS_ABOVE", 0.0)
        patch.setattr(choice, "PREPROCESS_PAYBACK", 0.0)
        found = choice.count(problem)
        kept = choice.count(problem, preprocess=False)
    assert found.count == kept.count == 4040
    assert found.preprocessed is not None and found.preprocessed.options_removed == 144
    assert "144 options and 0 items removed" in found.reason
    assert kept.preprocessed is None and not kept.reason.startswith("preprocessed")


def test_a_search_projected_to_last_forever_gives_the_preprocessing_a_budget_it_takes() -> None:
    """The race gives preprocessing a share of the search's projected time; a projection
    of eons (the links engine's share of a huge tree) once overflowed the compiled
    counter of mems and crashed the count."""
    from excover.counting.choice import _preprocess_budget

    budget = _preprocess_budget(1e300)
    assert 0 < budget < 2**63
    problem = ExactCover.from_dlx("a b c\na b\nb c\nc\na\n")
    assert preprocess(problem, budget=budget).problem.count() == problem.count()
