"""The sequences of :mod:`excover.sequences` against their published terms (OEIS, in
:mod:`excover.sequences.known`), and against an independent count: a plain recursive
tiler in this file for the rectangle family's small squares, and the plain search (no
symmetry) beside the symmetry-broken one. The larger known terms are reproduced by
``benchmarks/sequences.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from excover import UsageError
from excover.main import main
from excover.sequences import SEQUENCES, problem, term
from excover.sequences.known import KNOWN, OFFSET
from excover.sequences.rectangles import RULES

#: The terms checked here, by sequence: the first ones, each counted in milliseconds.
SMALL = {
    "A360498": 6,
    "A360725": 6,
    "A360499": 5,
    "A360256": 5,
    "A360804": 5,
    "A360773": 4,
    "A328020": 6,
    "A172477": 6,
    "A145835": 7,
    "A291806": 5,
    "A291807": 5,
    "A348453": 24,  # rows 1 to 6 (tests/test_seq_compositions.py has more)
}


def test_every_sequence_has_its_published_terms_and_a_small_range() -> None:
    assert set(SEQUENCES) == set(KNOWN) == set(SMALL)


@pytest.mark.parametrize("sequence", sorted(SMALL))
def test_the_first_terms_are_the_published_ones(sequence: str) -> None:
    first = OFFSET[sequence]
    computed = [term(sequence, n) for n in range(first, SMALL[sequence] + 1)]
    assert computed == list(KNOWN[sequence][: len(computed)])


def _brute_tilings(n: int, squares: bool, key: str) -> int:
    """The tilings of the n x n square by rectangles (squares too when ``squares``), no
    two sharing a key (``"pair"``: {h, w}; ``"oriented"``: h x w; ``"area"``), counted
    by filling the first empty cell in every way: no exact cover anywhere."""
    filled = [[False] * n for _ in range(n)]

    def keyed(h: int, w: int) -> object:
        return {"pair": (min(h, w), max(h, w)), "oriented": (h, w), "area": h * w}[key]

    def fill(used: frozenset[object]) -> int:
        empty = next(((r, c) for r in range(n) for c in range(n) if not filled[r][c]), None)
        if empty is None:
            return 1
        r, c = empty
        total = 0
        for h in range(1, n - r + 1):
            for w in range(1, n - c + 1):
                if (h == w and not squares) or keyed(h, w) in used:
                    continue
                cells = [(r + i, c + j) for i in range(h) for j in range(w)]
                if any(filled[i][j] for i, j in cells):
                    continue
                for i, j in cells:
                    filled[i][j] = True
                total += fill(used | {keyed(h, w)})
                for i, j in cells:
                    filled[i][j] = False
        return total

    return fill(frozenset())


@pytest.mark.parametrize(
    ("sequence", "squares", "key"),
    [
        ("A360498", False, "pair"),
        ("A360725", False, "oriented"),
        ("A360499", True, "pair"),
        ("A360256", True, "oriented"),
        ("A360804", True, "area"),
    ],
)
def test_the_rectangle_rules_count_as_a_plain_tiler_does(
    sequence: str, squares: bool, key: str
) -> None:
    """Each rule as the model states it (squares or not, and its key) against a tiler that
    knows nothing of exact covers, for n = 1..4; and the model's rule is the one named."""
    assert RULES[sequence].squares == squares
    for n in range(1, 5):
        assert term(sequence, n) == _brute_tilings(n, squares, key), (sequence, n)


@pytest.mark.parametrize("sequence", sorted(RULES))
def test_the_symmetry_broken_count_is_the_plain_one(sequence: str) -> None:
    cover = problem(sequence, 5)
    assert cover.count(method="search") == cover.count(symmetry=True) == KNOWN[sequence][4]


def test_a328020_counts_the_classes_of_the_tilings_under_the_square_symmetries() -> None:
    """a(3) and a(4) against the tilings listed and sorted into classes here: each tiling
    as the set of its pieces' cells, a class by the smallest of its 8 images."""
    for n in (3, 4):
        cover = problem("A328020", n)
        cells = [
            frozenset(tuple(map(int, item.split(","))) for item in cover.option_items(k))
            for k in range(cover.n_options)
        ]

        def images(x: int, y: int, m: int = n - 1) -> list[tuple[int, int]]:
            turns = [(x, y), (m - y, x), (m - x, m - y), (y, m - x)]
            return [*turns, *((m - a, b) for a, b in turns)]

        classes = set()
        for solution in cover.solutions():
            pieces = [cells[k] for k in solution]
            classes.add(
                min(
                    tuple(sorted(tuple(sorted(images(*c)[g] for c in piece)) for piece in pieces))
                    for g in range(8)
                )
            )
        assert term("A328020", n) == len(classes) == KNOWN["A328020"][n - 1]


def test_term_refuses_what_is_not_a_term() -> None:
    with pytest.raises(UsageError, match="unknown sequence 'A000045'"):
        term("A000045", 3)
    with pytest.raises(UsageError, match="positive integer"):
        term("A360498", 0)
    assert term("a360498", 4) == 12  # any case


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_prints_the_term_alone_on_its_last_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "sequence", "A360498", "6")
    assert (status, out.splitlines()[-1]) == (0, "3620")
    assert "method rectangle states, state merge" in err
    # --workers asks for the symmetry-broken search, on that many processes
    status, out, err = run(capsys, "sequence", "A360498", "6", "--workers", "1")
    assert (status, out.splitlines()[-1]) == (0, "3620")
    assert "symmetry-broken search under a group of order 8" in err
    status, out, err = run(capsys, "sequence", "A328020", "5", "--json")
    document = json.loads(out)
    assert (status, document["command"], document["count"]) == (0, "sequence", 515)
    assert (document["method"], document["engine"]) == ("dissections", "cell frontier")
    assert document["stats"]["dissections"] == KNOWN["A172477"][4]


def test_a328020s_own_route_is_burnsides_lemma_over_the_search_and_the_dissections(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The route A328020 takes (the dissections counted from the cells, plus the tilings
    each other symmetry fixes) gives the classes the search of its exact cover counts;
    its parts are in --stats."""
    from excover.sequences.polyominoes import classes_by_dissections

    for n in range(1, 6):
        found = classes_by_dissections(n)
        assert found.classes == problem("A328020", n).count(up_to_symmetry=True)
        assert found.dissections == KNOWN["A172477"][n - 1]
        assert found.classes * (len(found.fixed) + 1) == found.dissections + sum(found.fixed)
    status, out, err = run(capsys, "sequence", "A328020", "6", "--stats")
    assert (status, out) == (0, "56734\n")
    assert "dissections: 451,206" in err or "dissections: 451206" in err


def test_a_route_of_its_own_stops_at_its_timeout_and_refuses_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--timeout ends the route with no partial count (exit status 1); --workers and
    --progress are refused (it runs on one process)."""
    status, out, err = run(capsys, "sequence", "A172477", "8", "--timeout", "0.5")
    assert (status, out) == (1, "") and "stopped by --timeout (no partial count)" in err
    status, out, err = run(capsys, "sequence", "A328020", "4", "--workers", "2")
    assert (status, out) == (2, "") and "does not take --workers" in err


def test_a_checkpointed_count_resumes_to_the_same_term(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--checkpoint counts every tiling by subproblems, without symmetry; the same
    command run again takes the finished subproblems from the file."""
    ledger = tmp_path / "ledger.json"
    argv = ["sequence", "A360804", "5", "--checkpoint", str(ledger), "--tasks", "8"]
    status, out, _ = run(capsys, *argv)
    assert (status, out) == (0, "2401\n") and ledger.exists()
    status, out, err = run(capsys, *argv)
    assert (status, out) == (0, "2401\n") and f"resuming from {ledger}" in err


def test_the_command_refuses_what_it_cannot_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "sequence", "A328020", "4", "--checkpoint", str(tmp_path / "x"))
    assert (status, out) == (2, "") and "A328020 counts classes" in err
    status, out, err = run(capsys, "sequence", "A1", "3")
    assert (status, out) == (2, "") and "unknown sequence 'A1'" in err
    status, out, err = run(capsys, "sequence", "A360498", "4", "--limit", "2")
    assert (status, out) == (2, "") and "a term is a whole count" in err


def test_the_light_parser_is_the_whole_parsers_sequence_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``excover sequence`` builds its own parser alone (start-up); it reads the same."""
    from excover.main import build_parser

    helps = []
    for only in (None, "sequence"):
        with pytest.raises(SystemExit):
            build_parser(only).parse_args(["sequence", "--help"])
        helps.append(capsys.readouterr().out)
    assert helps[0] == helps[1] and "usage: excover sequence" in helps[0]


def test_write_dlx_writes_the_term_for_excover_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "a360725-5.dlx"
    status, printed, err = run(capsys, "sequence", "A360725", "5", "--write-dlx", str(out))
    assert (status, printed) == (0, "") and str(out) in err
    assert run(capsys, "count", str(out), "--method", "zdd")[:2] == (0, "1056\n")


RECORDS = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "records"


@pytest.mark.parametrize("ledger", sorted(RECORDS.glob("A*-*.json")), ids=lambda path: path.stem)
def test_the_long_counts_ledgers_hold_the_problem_the_model_builds(ledger: Path) -> None:
    """A ledger of benchmarks/data/records resumes only on the problem it was started
    on: a change to a model that would strand a long count fails here first. A ledger
    named ID-N-ENGINE (a count of the term's DLX file on another engine) holds the
    same problem: the DLX file is the model's problem written out."""
    from excover import ExactCover
    from excover.formats.dlx import read_dlx
    from excover.parallel.checkpoint import fingerprint

    sequence, n, *engine = ledger.stem.split("-")
    held = json.loads(ledger.read_text())["problem"]
    assert fingerprint(problem(sequence, int(n))) == held
    if engine:
        written = read_dlx(RECORDS / f"{sequence}-{n}.dlx", ExactCover)
        assert fingerprint(written) == held


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    ("program", "sequences"),
    [
        ("shannon_rectangles.cmb", ["A360498", "A360725", "A360499", "A360256"]),
        ("square_pentominoes.cmb", ["A328020"]),
    ],
)
def test_the_cmb_programs_of_the_gallery_count_the_published_fifth_terms(
    program: str, sequences: list[str]
) -> None:
    """The `.cmb` versions of the sequences say the rules in the tiling language (tiles
    used at most once, turned or not) and count, at n = 5, the terms the OEIS publishes:
    the language's own tiler against the published data, not against the Python models."""
    import io

    from excover.lang import Interpreter, parse_file

    out = io.StringIO()
    Interpreter(out, io.StringIO()).run(parse_file(str(EXAMPLES / program)))
    counts = [
        int(line.split(") ")[1].split()[0])
        for line in out.getvalue().splitlines()
        if " solutions" in line and " : (" in line
    ]
    expected = [KNOWN[sequence][5 - OFFSET[sequence]] for sequence in sequences]
    assert counts[: len(expected)] == expected
