"""The command line's door to BurrTools files: ``excover count FILE.xmpuzzle`` and
``excover solve FILE.xmpuzzle`` read one problem of the file (``--problem N``, from 0 in
the file's order as BurrTools' ``burrTxt -o``; the first by default) and say on stderr
which problem runs when the file has several, and the count BurrTools stored for it, with
what each counts: excover every assembly (symmetric ones separately), BurrTools the
classes of assemblies under the result's symmetries (``--up-to-symmetry``)."""

from __future__ import annotations

import sys

from excover.burr.xmpuzzle import parse_xmpuzzle
from excover.solving import ExactCover

__all__ = ["read_cover"]

#: What a stored count of a problem whose piece counts are ranges counts: an older
#: BurrTools counted classes under the result's rotations alone there (docs/files.md).
_RANGES = (
    "its piece counts are ranges, for which a file solved by an older BurrTools may store "
    "more: that one identified mirror images only without ranges, its classes under the "
    "rotations alone (SolidSixPieceBurrs stores 1,063 where today's BurrTools and "
    "--up-to-symmetry find 588: docs/files.md)"
)


def read_cover(
    data: bytes, source: str, number: int | None, up_to_symmetry: bool = False
) -> ExactCover:
    """The exact cover problem of problem ``number`` (None: the first) of the puzzle in
    ``data``, read from ``source``; ``up_to_symmetry``: the command counts classes as
    BurrTools does (the note then says so instead of how to)."""
    puzzle = parse_xmpuzzle(data, source)
    chosen = 0 if number is None else number
    cover = ExactCover.from_burrtools(puzzle, chosen)
    problem = puzzle.problems[chosen]
    notes = []
    if len(puzzle.problems) > 1:
        notes.append(
            f"{problem.label(chosen)} of {len(puzzle.problems)}"
            + (" (--problem N picks another)" if number is None else "")
        )
    if problem.assemblies is not None and problem.state == 2:
        stored = f"BurrTools' count of assemblies, stored in the file: {problem.assemblies}"
        ranges = f"; {_RANGES}" if any(part.lo < part.hi for part in problem.parts) else ""
        if up_to_symmetry:
            notes.append(
                f"{stored} (both count classes of assemblies under the symmetries{ranges})"
            )
        else:
            notes.append(
                f"{stored} (BurrTools counts one assembly per class under the result's "
                "symmetries; excover counts every assembly, symmetric ones separately: "
                f"--up-to-symmetry counts as BurrTools does{ranges})"
            )
    if notes:
        print(f"excover: {source}: {'; '.join(notes)}", file=sys.stderr)
    return cover
