"""Random programs, valid and broken, never crash the .cmb interpreter: each one either
runs or stops with an ExcoverError (a LangError, located in the program)."""

from __future__ import annotations

import contextlib
import io
import tempfile

from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excover import ExcoverError
from excover.lang import Interpreter, LangError, parse

NAMES = ["a", "b", "p", "t", "c"]

ART = st.sampled_from(["{*}", "{**}", "{*$*}", "{**$*.}", "{}", "{.}", "hex{* *}", "triangle{**}"])
DIM = st.builds(lambda w, h: f"{w}x{h}", st.integers(0, 3), st.integers(0, 3))
NAME = st.sampled_from(NAMES)
ISO = st.sampled_from(["Id", "Rot90", "Rot180", "Rot270", "VertRefl", "Diag1Refl"])
BOOL = st.sampled_from(["true", "false"])
OPTIONS = st.lists(
    st.sampled_from(["~one", "~maybe", "~sym", "~rot", "~2", "~1..2", "~0..", "~3..1"]),
    max_size=2,
).map(" ".join)


def expressions() -> st.SearchStrategy[str]:
    leaves = st.one_of(ART, NAME, st.builds(lambda d, b: f"constant {d} {b}", DIM, BOOL))

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.builds(
                lambda x, o, y: f"{x} {o} {y}",
                inner,
                st.sampled_from(["-", "&&", "||", "^"]),
                inner,
            ),
            st.builds(
                lambda o, x, y: f"{o} {x} {y}",
                st.sampled_from(["union", "inter", "diff", "xor"]),
                inner,
                inner,
            ),
            st.builds(lambda i, x: f"apply {i} {x}", ISO, inner),
            st.builds(lambda a, b, x: f"crop {a} {b} {x}", DIM, DIM, inner),
            st.builds(lambda x, d, b: f"set {x} {d} {b}", inner, DIM, BOOL),
            st.builds(lambda x, d: f"shift {x} {d}", inner, DIM),
            st.builds(lambda x, d: f"resize {x} {d}", inner, DIM),
            inner.map(lambda x: f"({x})"),
        )

    return st.recursive(leaves, grow, max_leaves=4)


EXPR = expressions()
TILE = st.builds(lambda e, o: f"{e} {o}", EXPR, OPTIONS)
TILES = st.lists(TILE, min_size=0, max_size=3).map(lambda ts: "[" + ", ".join(ts) + "]")
ALGO = st.sampled_from(["dlx", "zdd", "auto", 'sat "cadical"', "fast"])
SUFFIX = st.sampled_from(["", " ~up_to_symmetry"])

COMMAND = st.sampled_from(["count", "all", "count3", "all3"])
OUTPUT = st.sampled_from(["ascii", 'svg "s.svg"'])
SWITCH = st.sampled_from(
    ["debug on", "timing on", "debug off", "exit", "assert true", 'include "x.cmb"']
)
INTERCHANGEABLE = st.sampled_from(["", " ~interchangeable"])

STATEMENT = st.one_of(
    st.builds(lambda n, e: f"pattern {n} = {e}", NAME, EXPR),
    st.builds(lambda n, es: f"pattern3 {n} = [{', '.join(es)}]", NAME, st.lists(EXPR, max_size=2)),
    st.builds(lambda n, t: f"tiles {n} = {t}", NAME, TILES),
    st.builds(
        lambda n, e, t, i: f"problem {n} = {e} {t}{i}",
        NAME, EXPR, st.one_of(TILES, NAME), INTERCHANGEABLE,
    ),
    st.builds(lambda n, e, t: f"problem3 {n} = {e} {t}", NAME, NAME, st.one_of(TILES, NAME)),
    st.builds(lambda a, b: f"assert {a} = {b}", EXPR, EXPR),
    st.builds(lambda c, a, n, x: f"{c} {a} {n}{x}", COMMAND, ALGO, NAME, SUFFIX),
    st.builds(lambda a, n, o: f"solve {a} {n} {o}", ALGO, NAME, OUTPUT),
    st.builds(lambda n: f"print {n}", NAME),
    st.builds(lambda n: f'dimacs {n} "p.cnf"', NAME),
    SWITCH,
)  # fmt: skip

#: Definitions of every name in every namespace, so random statements mostly run.
PRELUDE = """\
pattern a = {**}
pattern b = {*$*}
pattern c = {*}
pattern t = {*.$**}
pattern p = constant 3x2 true
tiles t = [a ~sym, c ~maybe]
tiles a = [b ~rot ~1..2]
problem p = constant 3x3 true [a ~sym, c]
problem a = p t
pattern3 c = [{**}, {**}]
pattern3 b = [{*}]
tiles3 b = [b]
tiles3 c = [c ~rot]
problem3 c = c [b]
problem3 b = c c
"""

PROGRAM = st.lists(STATEMENT, min_size=1, max_size=6).map("\n".join)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A program with a few characters inserted or deleted somewhere."""
    text = draw(PROGRAM)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = (
                text[:where]
                + draw(st.sampled_from(list('{}[]()"~=-&|^$#x* \n.,3@')))
                + text[where:]
            )
        else:
            text = text[:where] + text[where + 1 :]
    return text


def survives(text: str) -> None:
    """Run ``text``; only an ExcoverError may stop it, and a LangError names a place in it."""
    with tempfile.TemporaryDirectory() as directory, contextlib.chdir(directory):
        try:
            Interpreter(io.StringIO(), io.StringIO()).run(parse(PRELUDE + text, "fuzz.cmb"))
        except LangError as error:
            assert error.pos.source.name == "fuzz.cmb"
            assert 1 <= error.pos.line <= (PRELUDE + text).count("\n") + 1
        except ExcoverError:
            pass


FUZZ = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FUZZ
@given(PROGRAM)
def test_random_programs_run_or_fail_cleanly(text: str) -> None:
    survives(text)


@FUZZ
@given(mutated())
def test_mutated_programs_run_or_fail_cleanly(text: str) -> None:
    survives(text)


@FUZZ
@given(
    st.text(
        alphabet=st.sampled_from(list('pattern{}*.$#"\\~=-&|^()[],x0123 \t\n\ré€\x00')), max_size=60
    )
)
def test_arbitrary_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        parse(text, "fuzz.cmb")
    except LangError as error:
        assert error.pos.source.name == "fuzz.cmb"
        report = error.report()
        assert report.startswith(f"fuzz.cmb:{error.pos.line}:{error.pos.column}: ")
        assert report.endswith("^")
