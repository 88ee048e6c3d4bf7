"""Issue 81, item 5, on the command line: ``excover count BOARD --pieces`` breaks the
board's group by default (as a ``.cmb`` count and the studio do) with the same count as
the plain one, and says so; ``--no-break-symmetry`` counts the plain way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from excover.main import main
from excover.solving import registry

PENTOMINOES = """\
F: [[0,1],[0,2],[1,0],[1,1],[2,1]]
I: [[0,0],[1,0],[2,0],[3,0],[4,0]]
L: [[0,0],[1,0],[2,0],[3,0],[3,1]]
N: [[0,1],[1,1],[2,0],[2,1],[3,0]]
P: [[0,0],[0,1],[1,0],[1,1],[2,0]]
T: [[0,0],[0,1],[0,2],[1,1],[2,1]]
U: [[0,0],[0,2],[1,0],[1,1],[1,2]]
V: [[0,0],[1,0],[2,0],[2,1],[2,2]]
W: [[0,0],[1,0],[1,1],[2,1],[2,2]]
X: [[0,1],[1,0],[1,1],[1,2],[2,1]]
Y: [[0,1],[1,0],[1,1],[2,1],[3,1]]
Z: [[0,0],[0,1],[1,1],[2,1],[2,2]]
"""

SCOTT = "########\n########\n########\n###..###\n###..###\n########\n########\n########\n"

#: Small pieces for small boards, used once each, filled up with monominoes to the
#: board's area (the equal dominoes and monominoes are exchanged: their exchanges join
#: the board's group).
SMALL = [
    ("S", "[[0,0],[0,1],[1,0],[1,1]]", 4),
    ("L", "[[0,0],[1,0],[1,1]]", 3),
    ("I", "[[0,0],[0,1],[0,2]]", 3),
    ("D", "[[0,0],[0,1]]", 2),
    ("E", "[[0,0],[1,0]]", 2),
]


def small_pieces(area: int) -> str:
    """Pieces of :data:`SMALL` and monominoes whose cells add up to ``area``."""
    lines = []
    for name, cells, size in SMALL:
        if size <= area:
            lines.append(f"{name}: {cells}")
            area -= size
    lines += [f"M{number}: [[0,0]]" for number in range(area)]
    return "\n".join(lines) + "\n"


def count(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """The count ``excover count ARGV`` prints, and its stderr."""
    assert main(["count", *argv]) == 0
    out, err = capsys.readouterr()
    return int(out.split()[0]), err


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("board", "expected"),
    [(("#" * 10 + "\n") * 6, 9356), (SCOTT, 520)],
    ids=["6x10", "scott"],
)
def test_a_board_count_breaks_its_group_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, board: str, expected: int
) -> None:
    """The default count equals the plain one and ``--break-symmetry``'s, and its
    method line names the board's group and the flag that counts without it."""
    b = write(tmp_path, "board.txt", board)
    p = write(tmp_path, "pieces.txt", PENTOMINOES)
    found, err = count(capsys, b, "--pieces", p)
    assert found == expected
    assert "symmetry: board group of order" in err
    assert "--no-break-symmetry counts without it" in err
    plain, err = count(capsys, b, "--pieces", p, "--no-break-symmetry")
    assert plain == expected
    assert "symmetry" not in err
    broken, _ = count(capsys, b, "--pieces", p, "--break-symmetry")
    assert broken == expected


def test_a_forced_route_keeps_the_pinned_tile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--route`` forces a route of auto: the board's group is then used by pinning a
    free tile (the smaller problem counted by that route), as ``Tiling.count`` does."""
    b = write(tmp_path, "board.txt", ("#" * 10 + "\n") * 6)
    p = write(tmp_path, "pieces.txt", PENTOMINOES)
    found, err = count(capsys, b, "--pieces", p, "--route", "bits")
    assert found == 9356
    assert "pinned to one placement per orbit" in err


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    rows=st.integers(2, 4),
    cols=st.integers(2, 5),
    holes=st.sets(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=3),
)
def test_small_boards_count_the_same_either_way(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    rows: int,
    cols: int,
    holes: set[tuple[int, int]],
) -> None:
    """On small boards (the scout made too short to answer, so that the group is
    broken) the default count is the plain count."""
    monkeypatch.setattr(registry, "SCOUT_NODES", 1)
    lines = ["".join("." if (r, c) in holes else "#" for c in range(cols)) for r in range(rows)]
    area = "".join(lines).count("#")
    if area == 0:
        return
    b = write(tmp_path, "board.txt", "\n".join(lines) + "\n")
    p = write(tmp_path, "pieces.txt", small_pieces(area))
    found, _ = count(capsys, b, "--pieces", p)
    plain, _ = count(capsys, b, "--pieces", p, "--no-break-symmetry")
    assert found == plain


def test_a_small_board_is_broken_when_the_scout_does_not_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "SCOUT_NODES", 1)
    b = write(tmp_path, "board.txt", "####\n####\n####\n")
    p = write(tmp_path, "pieces.txt", small_pieces(12))
    plain, _ = count(capsys, b, "--pieces", p, "--no-break-symmetry")
    found, err = count(capsys, b, "--pieces", p)
    assert found == plain > 0
    assert "symmetry: board group of order 4" in err


# ----- excover unique on a board meant to keep holes


def test_unique_on_a_board_with_spare_cells_says_what_it_found(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board larger than its pieces is named as one (not headlined "no solution"), a
    run without proposals says so and why, and a stop by the listing's default bound is
    not called a stop by --limit (no limit was given); a --limit given is named."""
    from excover.tiling import unique

    board = write(tmp_path, "board.txt", "####\n####\n####\n")
    pieces = "L: [[0,0],[1,0],[1,1]]\nD: [[0,0],[0,1]]\nI: [[0,0],[0,1],[0,2]]\nT: [[0,0],[0,1]]\n"
    p = write(tmp_path, "pieces.txt", pieces)
    monkeypatch.setattr(unique, "DEFAULT_LIMIT", 3)
    assert main(["unique", board, "--pieces", p]) == 1
    out, err = capsys.readouterr()
    assert "no solution" not in out
    assert "a board with 2 spare cells: no tiling covers all 12 cells" in out
    assert "no proposal found:" in out
    assert "more than 3 tilings with 2 cells removed" in out
    assert "stopped by the listing's limit of 3 solutions (the default of --limit" in err
    assert "stopped by --limit" not in err
    assert main(["unique", board, "--pieces", p, "--limit", "3"]) == 1
    assert "stopped by --limit" in capsys.readouterr().err
    monkeypatch.setattr(unique, "DEFAULT_LIMIT", 10_000)
    assert main(["unique", board, "--pieces", p]) == 0
    out, err = capsys.readouterr()
    assert "no proposal found:\n  removing 2 cells leaves no puzzle with exactly one" in out
    assert err == ""


# ----- excover estimate: never dearer than the count without saying so


@pytest.mark.parametrize("cheap_count", [True, False])
def test_estimate_counts_when_the_count_is_cheaper(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cheap_count: bool,
) -> None:
    """When the first estimate prices the count below the probes, the figures are the
    count's, exact, and the output says why; otherwise they are the probes' as before
    (the same seed, the same figures). The price of the probes is fixed here, so that the
    choice does not depend on the machine's speed."""
    from excover.cli.exact_cover import commands
    from excover.tiling import Tiling

    board = ("#" * 10 + "\n") * 6
    b = write(tmp_path, "board.txt", board)
    p = write(tmp_path, "pieces.txt", PENTOMINOES)
    price = float("inf") if cheap_count else 0.0
    monkeypatch.setattr(commands, "_probes_cost", lambda spent, first, samples: price)
    assert main(["estimate", b, "--pieces", p, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    estimate = document["estimate"]
    if cheap_count:
        assert estimate["exact"] is True and estimate["solutions"] == 9356
        assert main(["estimate", b, "--pieces", p]) == 0
        out = capsys.readouterr().out
        assert "solutions: 9,356\n" in out and "the tree was counted instead of probed" in out
    else:
        problem = Tiling.from_text(board, PENTOMINOES).problem
        assert estimate["exact"] is False
        assert estimate["solutions"] == problem.estimate(1000, seed=0).solutions


def test_few_samples_are_the_first_estimate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No more probes than the first estimate's: that estimate, never a count."""
    from excover.tiling import Tiling

    board = ("#" * 10 + "\n") * 6
    b = write(tmp_path, "board.txt", board)
    p = write(tmp_path, "pieces.txt", PENTOMINOES)
    assert main(["estimate", b, "--pieces", p, "--samples", "50", "--json"]) == 0
    estimate = json.loads(capsys.readouterr().out)["estimate"]
    problem = Tiling.from_text(board, PENTOMINOES).problem
    assert estimate["exact"] is False
    assert estimate["solutions"] == problem.estimate(50, seed=0).solutions


@pytest.mark.parametrize("dear", [True, False])
def test_estimate_with_samples_notes_probes_as_dear_as_the_count(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    dear: bool,
) -> None:
    """``--samples N`` runs its probes as asked, and when they cost at least
    :data:`~excover.cli.exact_cover.commands.COSTLY_SHARE` of the count they estimate,
    one note on stderr says so with both figures (the share is fixed here, so that the
    note does not depend on the machine's speed); ``--quiet`` leaves it out."""
    from excover.cli.exact_cover import commands

    board = ("#" * 10 + "\n") * 6
    b = write(tmp_path, "board.txt", board)
    p = write(tmp_path, "pieces.txt", PENTOMINOES)
    monkeypatch.setattr(commands, "COSTLY_SHARE", 0.0 if dear else float("inf"))
    assert main(["estimate", b, "--pieces", p, "--samples", "50"]) == 0
    captured = capsys.readouterr()
    assert "random samples" in captured.out  # the probes ran, as asked
    notes = [line for line in captured.err.splitlines() if "excover: note: the 50 probes" in line]
    assert len(notes) == (1 if dear else 0)
    if dear:
        assert "times the" in notes[0] and "they give a count" in notes[0]
        assert main(["estimate", b, "--pieces", p, "--samples", "50", "--quiet"]) == 0
        assert "note:" not in capsys.readouterr().err


def test_estimate_note_on_dear_probes_gives_the_figures() -> None:
    """The note's figures: the probes' seconds, their ratio to the count's estimated
    seconds, and the tree's nodes; none for an exact estimate or cheap probes."""
    from excover.cli.exact_cover.commands import _costly_probes
    from excover.parallel.probes import Estimate

    guess = Estimate(1_830_921.0, 12_750.0, 1e8, 5e4, 2.9, 1000)
    note = _costly_probes(guess, 2.7)
    assert note is not None
    assert "the 1000 probes took 2.7 s, 0.93 times the 2.9 s" in note
    assert "about 1,830,921 nodes" in note
    assert _costly_probes(guess, 1.0) is None  # under half the count's time
    exact = Estimate(1_857_370, 12_597, 95_792_807, 0.0, 0.6, 0, exact=True)
    assert _costly_probes(exact, 5.0) is None


def test_a_stored_count_of_ranged_pieces_is_explained(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A BurrTools problem whose piece counts are ranges says, beside its stored count,
    that an older BurrTools stored more for such problems (SolidSixPieceBurrs' 1,063
    against 588); one without ranges does not."""
    data = Path(__file__).parent / "data" / "burrtools"
    assert main(["count", str(data / "variable.xmpuzzle"), "--up-to-symmetry"]) == 0
    err = capsys.readouterr().err
    assert "stored in the file: 26" in err
    assert "its piece counts are ranges" in err and "stores 1,063" in err
    assert main(["count", str(data / "rotations.xmpuzzle")]) == 0
    err = capsys.readouterr().err
    assert "stored in the file: 15" in err and "its piece counts are ranges" not in err


# ----- excover solve --stl --gap


@pytest.mark.parametrize("gap", [None, 0.3, 0.0])
def test_solve_writes_a_solution_as_stl_one_body_a_piece(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, gap: float | None
) -> None:
    """``--stl OUT`` writes the first tiling, each piece its own closed body of five
    10 mm cells, its faces moved in by half the gap (0.2 mm by default), so that a
    reader of the file finds the 12 bodies apart; with ``--gap 0`` the pieces touch
    and a reader merging equal points no longer does."""
    trimesh = pytest.importorskip("trimesh")
    b = write(tmp_path, "board.txt", ("#" * 10 + "\n") * 6)
    p = write(tmp_path, "pieces.txt", PENTOMINOES)
    out = tmp_path / "solution.stl"
    flags = [] if gap is None else ["--gap", str(gap)]
    assert main(["solve", b, "--pieces", p, "--limit", "1", "--stl", str(out), *flags]) == 0
    err = capsys.readouterr().err
    assert f"solution 1 written in {out}" in err
    bodies = trimesh.load(str(out)).split(only_watertight=False)
    if gap == 0.0:
        assert len(bodies) != 12 and "apart" not in err
        return
    assert len(bodies) == 12 and all(body.is_watertight for body in bodies)
    assert all(4000 < body.volume < 5000 for body in bodies)
    assert f"{0.2 if gap is None else gap:g} mm apart" in err


def test_stl_and_gap_are_refused_where_they_do_not_apply(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    b = write(tmp_path, "board.txt", "##\n")
    p = write(tmp_path, "pieces.txt", "D: [[0,0],[0,1]]\n")
    assert main(["solve", b, "--pieces", p, "--gap", "0.2"]) == 2
    assert "--gap goes with --stl" in capsys.readouterr().err
    assert main(["solve", b, "--pieces", p, "--stl", str(tmp_path / "x.stl"), "--gap", "3"]) == 2
    assert "--gap must be at least 0 and under 2.5" in capsys.readouterr().err
    dlx = write(tmp_path, "p.dlx", "| a\na\n")
    assert main(["solve", dlx, "--stl", str(tmp_path / "x.stl")]) == 2
    assert "is not a board with --pieces" in capsys.readouterr().err


def test_a_run_on_workers_short_of_cores_says_the_cpu_time_it_got(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A count on 2 workers that got under one core's worth of CPU time says so on
    stderr, with that time; one that got its cores, a run on one worker and --quiet
    say nothing (issue 81 item 4: where the machine gives less than two cores)."""
    from excover.cli.options import RunOptions
    from excover.cli.status import say_cpu

    monkeypatch.setattr("os.cpu_count", lambda: 2)
    short = {"cpu_seconds": 2.19, "cores": 0.91, "cores_asked": 2}
    say_cpu(RunOptions("count"), short)
    note = capsys.readouterr().err
    assert "2.19 s of CPU time" in note and "0.91 of the 2 cores" in note
    for run, stats in (
        (RunOptions("count"), {"cpu_seconds": 4.0, "cores": 1.95, "cores_asked": 2}),
        (RunOptions("count"), {"cpu_seconds": 1.0, "cores": 0.9, "cores_asked": 1}),
        (RunOptions("count", quiet=True), short),
        (RunOptions("count"), {"seconds": 1.0}),
    ):
        say_cpu(run, stats)
        assert capsys.readouterr().err == ""
