"""Every reader of outside input, fuzzed: it either reads the input or raises an
ExcoverError, never another exception, never a hang.

The inputs are random text built from each format's own vocabulary (so that the fuzzer
reaches deep into the parser, not just its first check), mutations of valid inputs, and
raw bytes. Readers: Knuth's DLX text, the .cmb language, sudoku puzzles, killer cages and
jigsaw regions, the three nonogram formats (.non in each of its dialects), DIMACS, Knuth's
SAT format, board and pieces files, saved ZDDs, count checkpoints and BurrTools .xmpuzzle
files (read, then turned into an exact cover problem).
The .cmb language has a grammar-driven fuzzer of its own (test_lang_fuzz.py).
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excover import ExactCover, ExcoverError, Family, nonogram
from excover.burr.xmpuzzle import parse_xmpuzzle
from excover.formats.dlx import parse_dlx_bytes
from excover.lang import parse
from excover.parallel.checkpoint import Checkpoint
from excover.puzzles import sudoku
from excover.puzzles.sudoku import killer
from excover.puzzles.sudoku.files import read_puzzles
from excover.sat.cnf import CNF
from excover.tiling import Tiling

FUZZ = settings(
    max_examples=examples(200),
    # Milliseconds. Readers take a few milliseconds on these inputs: one that takes
    # seconds is quadratic or worse and fails here, while a machine busy with other work
    # (a thousandfold margin) does not. A true hang is shown by faulthandler_timeout.
    deadline=10_000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def text_of(vocabulary: list[str]) -> st.SearchStrategy[str]:
    """Random text made of a format's tokens, separators and a few stray characters."""
    token = st.one_of(
        st.sampled_from(vocabulary),
        st.sampled_from([" ", " ", "\n", "\n", "\t", ":", "|", ",", "#", '"', "\x00", "é"]),
        st.integers(-3, 2**65).map(str),
        st.text(max_size=3),
    )
    return st.lists(token, max_size=40).map("".join)


def mutations(valid: str) -> st.SearchStrategy[str]:
    """``valid`` with a slice cut out, repeated, or replaced by random characters."""
    n = len(valid)

    def mutate(start: int, stop: int, insert: str, repeat: bool) -> str:
        start, stop = sorted((start, stop))
        middle = valid[start:stop] * 2 if repeat else insert
        return valid[:start] + middle + valid[stop:]

    return st.builds(
        mutate, st.integers(0, n), st.integers(0, n), st.text(max_size=6), st.booleans()
    )


def reads(reader: Callable[[], object]) -> None:
    """Run a reader: a result or an ExcoverError are both fine."""
    with contextlib.suppress(ExcoverError):
        reader()


DLX = "| a comment\nA B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n"


@FUZZ
@given(st.one_of(text_of(["A", "B", "1:2|", "2|", "x:", "| ", "|\n"]), mutations(DLX)))
def test_dlx_text(text: str) -> None:
    reads(lambda: ExactCover.from_dlx(text).count(method="search", max_nodes=10_000))


@FUZZ
@given(st.binary(max_size=200))
def test_dlx_bytes(data: bytes) -> None:
    reads(lambda: parse_dlx_bytes(data, "<fuzz>", ExactCover))


CMB = "pattern b = {**$**}\ntiles t = [{**} ~sym]\nproblem p = b t\ncount dlx p\n"


@FUZZ
@given(st.one_of(mutations(CMB), text_of(["pattern", "{*", "}", "$", "~sym", "include"])))
def test_cmb_programs(text: str) -> None:
    reads(lambda: parse(text, "<fuzz>"))


SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@FUZZ
@given(st.one_of(mutations(SUDOKU), text_of(["123456789", ".", "0", "|", "+-", "A"])))
def test_sudoku_puzzles(text: str) -> None:
    reads(lambda: read_puzzles(text, source="<fuzz>"))
    reads(lambda: sudoku.classify(text))


@FUZZ
@given(
    st.one_of(
        mutations("11: r1c1 r1c2 r2c1\n7: r1c3 r1c4\n"), text_of(["r1c1", "r9c9", "r0c", ": "])
    )
)
def test_killer_cages(text: str) -> None:
    reads(lambda: killer.read_cages(text, 9, "<fuzz>"))


@FUZZ
@given(st.one_of(mutations("AABB" * 2 + "CCDD" * 2), text_of(["A", "B", "C", "D"])))
def test_jigsaw_regions(regions: str) -> None:
    reads(lambda: sudoku.solve("." * 16, regions=regions))


NON = "width 3\nheight 2\nrows\n1,1\n3\ncolumns\n2\n1\n2\ngoal 101111\n"
# the colour dialects of .non: mikix/nonogram-db's chars, Nonny's names, Simpson's comments
NON_COLOUR = (
    "# comment\ncolor a #ff0000\ncolor b #0000ff\nwidth 3\nheight 2\nrows\n1a,2b\n1b\n\n"
    'columns\n1a\n1b\n2b\ngoal "abb00b"\n'
)
NONNY = (
    "width 3\nheight 2\ncolor red FF0000 #\ncolor green 50C878 0\ncolor background FFFFFF\n"
    "rows\nred 1 green: 1\n0\ncolumns\nred 1\ngreen 1\n0\n"
)
TEXT = "1 1\n3\n\n2\n1\n2\n"
XML = (
    '<?xml version="1.0"?><puzzleset><puzzle><clues type="columns"><line><count>2</count>'
    '</line><line><count>1</count></line></clues><clues type="rows"><line><count>1</count>'
    "</line><line><count>2</count></line></clues></puzzle></puzzleset>"
)


@FUZZ
@given(
    st.sampled_from(["non", "text", "xml"]),
    st.one_of(
        mutations(NON),
        mutations(NON_COLOUR),
        mutations(NONNY),
        mutations(TEXT),
        mutations(XML),
        text_of(["rows", "<line>", "0", "1"]),
        text_of(["rows\n", "columns\n", "width 2\n", "color red FF0000 r\n", "red ", "black "]),
    ),
)
def test_nonogram_formats(format: str, text: str) -> None:
    reads(lambda: nonogram.classify(nonogram.loads(text, format, "<fuzz>")))


DIMACS = "c a comment\np cnf 3 2\n1 -2 0\n2 3 -1 0\n"


@FUZZ
@given(st.one_of(mutations(DIMACS), text_of(["p cnf", "0", "-1", "c", "%"])))
def test_dimacs(text: str) -> None:
    reads(lambda: CNF.from_dimacs(text, "<fuzz>"))


KNUTH = ExactCover.from_dlx("a b c | x\na x\nb c x:red\na b\nc\n").to_cnf("seqcounter").to_knuth()


@FUZZ
@given(
    st.one_of(
        mutations(KNUTH),
        mutations("~ a comment\nx2 x3 ~x4\nx1 ~x3\n"),
        text_of(["~", "~ ", "~ excover ", "options", "variables", "_0", "a.1", "x"]),
    )
)
def test_knuth_sat_format(text: str) -> None:
    def read() -> None:
        cnf = CNF.from_knuth(text, "<fuzz>")
        CNF.from_knuth(cnf.to_knuth(), "<again>")

    reads(read)


BOARD = "###\n#.#\n###\n"
PIECES = "L: [[0,0],[1,0],[1,1]]\n[[0,0],[0,1]]\n"


@FUZZ
@given(
    st.one_of(mutations(BOARD), text_of(["#", ".", " "])),
    st.one_of(mutations(PIECES), text_of(["[", "]", "[0,1]", ",", "L:", "# c"])),
)
def test_board_and_pieces(board: str, pieces: str) -> None:
    reads(lambda: Tiling.from_text(board, pieces, multiplicity="maybe").count())


def _saved_family() -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.zdd"
        Family.from_sets([{0, 1}, {2}, {1, 3}]).save(path)
        return path.read_text()


@FUZZ
@given(st.one_of(mutations(_saved_family()), st.binary(max_size=80).map(repr)))
def test_saved_families(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.zdd"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        reads(lambda: Family.load(path))


QUEENS6 = ExactCover.from_dlx(
    "r0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6\n"
    + "".join(f"r{r} c{c} a{r + c} b{r - c + 3}\n" for r in range(4) for c in range(4))
)


def _checkpoint() -> str:
    from excover.parallel.checkpoint import fingerprint
    from excover.parallel.subproblems import split

    state = Checkpoint(None, fingerprint(QUEENS6), "search", split(QUEENS6, tasks=4))
    state.done[0] = (1, 5)
    return json.dumps(state.as_dict())


@FUZZ
@given(mutations(_checkpoint()))
def test_checkpoints(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.json"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        reads(lambda: Checkpoint.load(path, QUEENS6, "search"))


XMPUZZLE = (
    '<?xml version="1.0"?>\n<puzzle version="2">\n <gridType type="0"/>\n'
    ' <colors><color red="1" green="2" blue="3"/></colors>\n <shapes>\n'
    '  <voxel x="2" y="1" z="1" type="0">#1#</voxel>\n'
    '  <voxel x="2" y="2" z="1" name="box" type="0">##1+#</voxel>\n </shapes>\n'
    ' <problems>\n  <problem name="p" state="2" assemblies="1" maxHoles="1">\n'
    '   <shapes><shape id="0" min="0" max="2"/></shapes>\n   <result id="1"/>\n'
    '   <bitmap><pair piece="0" result="0"/></bitmap>\n  </problem>\n </problems>\n'
    " <comment/>\n</puzzle>\n"
)


def _xmpuzzle(data: bytes) -> None:
    puzzle = parse_xmpuzzle(data, "<fuzz>")
    for number in range(len(puzzle.problems)):
        ExactCover.from_burrtools(puzzle, number).count(method="search", max_nodes=10_000)


@FUZZ
@given(
    st.one_of(
        mutations(XMPUZZLE),
        text_of(["<voxel", "</voxel>", "#", "+", "_", '="', "<shape", "<problem", "id"]),
    )
)
def test_xmpuzzle_text(text: str) -> None:
    reads(lambda: _xmpuzzle(text.encode("utf-8", "surrogateescape")))


@FUZZ
@given(st.binary(max_size=200).map(lambda b: b"\x1f\x8b" + b))
def test_xmpuzzle_bytes(data: bytes) -> None:
    reads(lambda: _xmpuzzle(data))
