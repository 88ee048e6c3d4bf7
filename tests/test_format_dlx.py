"""Knuth's DLX text format: parsing, writing, exact round trips, every FormatError.

Knuth's files are checked against a count made directly from their lines and tokens; the
round trips use random problems with odd names, colors, multiplicities and secondary items.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from excover import ExactCover, FormatError, ProblemError, UsageError

KNUTH = sorted((Path(__file__).parent / "data" / "knuth").glob("*.dlx"))

EXAMPLE = """\
| a small problem, with every feature of the format

  a 0:2|b 3|c | x y
a x:red
| a comment between options
b x:red y

  b   c
"""


def test_parse_every_feature() -> None:
    problem = ExactCover.from_dlx(EXAMPLE)
    assert problem.primary_items == ("a", "b", "c")
    assert problem.secondary_items == ("x", "y")
    assert [problem.multiplicity(item) for item in "abc"] == [(1, 1), (0, 2), (3, 3)]
    assert [problem.option_items(k) for k in range(problem.n_options)] == [
        ["a", "x:red"],
        ["b", "x:red", "y"],
        ["b", "c"],
    ]


def test_write_every_feature() -> None:
    problem = ExactCover(primary=["a", "b", "c", "d"], secondary=["x"])
    problem.set_multiplicity("b", 0, 2)
    problem.set_multiplicity("c", 3, 3)
    problem.set_multiplicity("d", 1, 4)
    problem.add_option(["a", "x:red"])
    problem.add_option(["d", "b", "x"])
    assert problem.to_dlx() == "a 0:2|b 3|c 1:4|d | x\na x:red\nd b x\n"


def test_write_without_secondary_items() -> None:
    problem = ExactCover(primary=["a", "b"])
    problem.add_option(["a"])
    assert problem.to_dlx() == "a b\na\n"
    assert ExactCover(primary=["a"]).to_dlx() == "a\n"


def test_a_problem_without_primary_items_cannot_be_written() -> None:
    for problem in (ExactCover(), ExactCover(secondary=["x"])):
        with pytest.raises(ProblemError, match="primary"):
            problem.to_dlx()


def test_windows_line_ends_and_a_lone_bar_at_the_end() -> None:
    problem = ExactCover.from_dlx("| comment\r\na b |\r\na\r\nb\r\n")
    assert problem.items == ("a", "b")
    assert problem.n_secondary == 0
    assert problem.n_options == 2


# ----- Knuth's files -----


def independent_count(path: Path) -> tuple[int, int, int, list[list[str]]]:
    """Primary and secondary items, options and option tokens, read straight off the
    file's lines: comment lines start with ``|`` after blanks, the first other line holds
    the items with a lone ``|`` between the two kinds."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    data = [line.split() for line in lines if not line.lstrip().startswith("|")]
    items = data[0]
    bar = items.index("|") if "|" in items else len(items)
    return bar, len(items[bar + 1 :]), len(data) - 1, data[1:]


@pytest.mark.parametrize("path", KNUTH, ids=[path.name for path in KNUTH])
def test_knuth_files(path: Path) -> None:
    problem = ExactCover.read(path)
    n_primary, n_secondary, n_options, options = independent_count(path)
    assert (problem.n_primary, problem.n_secondary) == (n_primary, n_secondary)
    assert problem.n_options == n_options
    assert [problem.option_items(k) for k in range(n_options)] == options
    assert len(problem.engine_input().node_item) == sum(map(len, options))
    assert ExactCover.from_dlx(problem.to_dlx()) == problem
    assert ExactCover.read(str(path)) == problem


def test_knuth_files_are_present() -> None:
    assert {"queens8.dlx", "pento3x20.dlx", "scott-pfix.dlx"} <= {p.name for p in KNUTH}


# ----- round trips -----

NAME_CHARS = st.characters(
    blacklist_categories=("Z", "C"), blacklist_characters=":|"
) | st.sampled_from("0123456789abc")
names = st.text(NAME_CHARS, min_size=1, max_size=4).filter(lambda s: s.split() == [s])


@st.composite
def problems(draw: st.DrawFn) -> ExactCover:
    """A random problem: odd item and color names, multiplicities, colored secondaries."""
    all_names = draw(st.lists(names, min_size=1, max_size=8, unique=True))
    n_primary = draw(st.integers(1, len(all_names)))
    primary, secondary = all_names[:n_primary], all_names[n_primary:]
    problem = ExactCover(primary, secondary)
    for item in draw(st.lists(st.sampled_from(primary), unique=True)):
        lo = draw(st.integers(0, 12))
        problem.set_multiplicity(item, lo, draw(st.integers(max(lo, 1), 12)))
    colors = st.none() | st.sampled_from(["r", "g", "1", "Ω"]) | names
    for _ in range(draw(st.integers(0, 6))):
        chosen = draw(st.lists(st.sampled_from(primary), min_size=1, unique=True))
        if secondary:
            uses = draw(st.lists(st.sampled_from(secondary), unique=True))
            chosen += [item if (c := draw(colors)) is None else f"{item}:{c}" for item in uses]
        problem.add_option(draw(st.permutations(chosen)))
    return problem


@given(problems())
def test_round_trip_is_exact(problem: ExactCover) -> None:
    text = problem.to_dlx()
    again = ExactCover.from_dlx(text)
    assert again == problem
    assert again.to_dlx() == text


@given(problems())
def test_round_trip_keeps_everything_visible(problem: ExactCover) -> None:
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again.primary_items == problem.primary_items
    assert again.secondary_items == problem.secondary_items
    for item in problem.primary_items:
        assert again.multiplicity(item) == problem.multiplicity(item)
    assert [again.option_items(k) for k in range(again.n_options)] == [
        problem.option_items(k) for k in range(problem.n_options)
    ]


@given(problems())
def test_option_lines_join_each_options_items(problem: ExactCover) -> None:
    assert problem.option_lines() == [
        " ".join(problem.option_items(k)) for k in range(problem.n_options)
    ]


def test_writing_a_file_read_with_comments_is_a_fixpoint() -> None:
    once = ExactCover.from_dlx(EXAMPLE).to_dlx()
    assert ExactCover.from_dlx(once).to_dlx() == once
    assert not any(line.lstrip().startswith("|") for line in once.splitlines())


# ----- every FormatError, with its line -----


@pytest.mark.parametrize(
    ("text", "line", "culprits"),
    [
        ("| c\n\na b | x\na\nb c\n", 5, ["unknown item 'c'"]),
        ("a b | x\na\n\n| c\n\nr9 a\n", 6, ["unknown item 'r9'"]),
        ("a b | x\na b a\n", 2, ["'a'", "twice"]),
        ("a b | x\na x x:red\n", 2, ["'x'", "twice"]),
        ("a b | x\na:red\n", 2, ["primary", "'a'"]),
        ("a b | x\na\nx\n", 3, ["no primary item"]),
        ("a b | x\na x:\n", 2, ["color ''", "'x'"]),
        ("a b | x\na x:r:g\n", 2, ["color 'r:g'"]),
        ("a b | x\na x|r\n", 2, ["unknown item 'x|r'"]),
        ("| comment\na b a\n", 2, ["duplicate", "'a'"]),
        ("a b | a\n", 1, ["duplicate", "'a'"]),
        ("a b:c\n", 1, ["'b:c'"]),
        ("a b | x | y\n", 1, ["'|' twice"]),
        ("a b | x |\n", 1, ["'|' twice"]),
        ("a x|b\n", 1, ["multiplicity 'x'", "'b'"]),
        ("a 1:|b\n", 1, ["multiplicity '1:'", "'b'"]),
        ("a :2|b\n", 1, ["multiplicity ':2'"]),
        ("a 1:2:3|b\n", 1, ["multiplicity '1:2:3'"]),
        ("a -1|b\n", 1, ["multiplicity '-1'"]),
        ("a \u00b2|b\n", 1, ["multiplicity '\u00b2'"]),  # digits, but not ASCII ones
        ("a 1:\u0662|b\n", 1, ["multiplicity '1:\u0662'"]),
        ("a 2|\n", 1, ["''"]),
        ("a 1|2|b\n", 1, ["'2|b'"]),
        ("a 3:2|b\n", 1, ["3..2", "'b'"]),
        ("a 0|b\n", 1, ["0..0", "'b'"]),
        ("a 99999999999|b\n", 1, ["multiplicity '99999999999'"]),
        ("a 9999999999|b\n", 1, ["9999999999..9999999999", "'b'"]),
        ("a | 2|x\n", 1, ["secondary", "'x'"]),
        ("a | 1:2|x\n", 1, ["secondary", "'x'"]),
        ("", 1, ["no item line"]),
        ("| only\n  | comments\n\n", 3, ["no item line"]),
        ("\n\n   ", 3, ["no item line"]),
    ],
)
def test_format_errors_give_source_and_line(text: str, line: int, culprits: list[str]) -> None:
    with pytest.raises(FormatError) as caught:
        ExactCover.from_dlx(text, source="test.dlx")
    error = caught.value
    assert (error.source, error.line) == ("test.dlx", line)
    message = str(error)
    assert message.startswith(f"test.dlx:{line}: ")
    for culprit in culprits:
        assert culprit in message


def test_the_default_source_is_named() -> None:
    with pytest.raises(FormatError, match=r"^<string>:2: unknown item 'q'"):
        ExactCover.from_dlx("a\nq\n")


def test_text_must_be_a_string() -> None:
    with pytest.raises(UsageError, match="bytes"):
        ExactCover.from_dlx(b"a\na\n")  # type: ignore[arg-type]


# ----- files -----


def test_write_then_read(tmp_path: Path) -> None:
    problem = ExactCover.from_dlx(EXAMPLE)
    path = tmp_path / "small.dlx"
    problem.write(path)
    assert path.read_bytes() == problem.to_dlx().encode()
    assert ExactCover.read(path) == problem
    problem.write(str(path))
    assert ExactCover.read(str(path)) == problem


def test_read_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.dlx"
    path.write_text("| items\na b\na\nb c\n")
    with pytest.raises(FormatError) as caught:
        ExactCover.read(path)
    assert (caught.value.source, caught.value.line) == (str(path), 4)
    assert str(caught.value) == f"{path}:4: unknown item 'c' in option"


def test_read_rejects_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "binary.dlx"
    path.write_bytes(b"a b\na\n\xff\xfe b\n")
    with pytest.raises(FormatError, match="UTF-8") as caught:
        ExactCover.read(path)
    assert caught.value.line == 3


def test_read_skips_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.dlx"
    path.write_bytes(b"\xef\xbb\xbf| comment\na\na\n")
    assert ExactCover.read(path) == ExactCover.from_dlx("a\na\n")


def test_paths_must_be_paths() -> None:
    with pytest.raises(UsageError, match="path"):
        ExactCover.read(3)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="path"):
        ExactCover(primary=1).write(None)  # type: ignore[arg-type]
