"""Random nonograms: clues read off random pictures, for tests and benchmarks.

Each cell of the picture is black with probability ``density``, independently. Such
puzzles always have a solution (the picture), but often several, and many cannot be
finished by line solving alone: a mix that exercises every part of a solver (the
benchmark set of the nonogram literature is made the same way, at 50% black).
"""

from __future__ import annotations

import random

from excover.errors import UsageError
from excover.nonogram.model import BLACK, WHITE, Puzzle

__all__ = ["generate", "random_picture"]


def random_picture(
    height: int, width: int, density: float = 0.5, rng: random.Random | None = None
) -> tuple[str, ...]:
    """A ``height`` x ``width`` picture, each cell black with probability ``density``."""
    for name, value in (("height", height), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UsageError(f"{name} must be a positive integer, not {value!r}")
    if isinstance(density, bool) or not isinstance(density, int | float) or not 0 <= density <= 1:
        raise UsageError(f"density must be a number from 0 to 1, not {density!r}")
    if rng is not None and not isinstance(rng, random.Random):
        raise UsageError(f"rng must be a random.Random or None, not {rng!r}")
    draw = (rng or random.Random()).random
    return tuple(
        "".join(BLACK if draw() < density else WHITE for _ in range(width)) for _ in range(height)
    )


def generate(
    height: int,
    width: int,
    density: float = 0.5,
    rng: random.Random | None = None,
    *,
    unique: bool = False,
    difficulty: str | None = None,
    attempts: int = 1000,
) -> Puzzle:
    """A random puzzle: the clues of :func:`random_picture`, which becomes its goal.

    ``unique=True`` draws pictures until their clues have no other picture;
    ``difficulty`` (``"line"``, ``"probe"`` or ``"search"``, see
    :func:`excover.nonogram.rate`) also asks for that level exactly, and implies
    ``unique``. After ``attempts`` pictures without success, :class:`~excover.UsageError`
    says so (a 5x5 puzzle that needs search may not exist)."""
    from excover.nonogram.rating import LEVELS, rate

    if difficulty is not None and difficulty not in LEVELS:
        raise UsageError(
            f"difficulty must be one of {', '.join(LEVELS)} or None, not {difficulty!r}"
        )
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise UsageError(f"attempts must be a positive integer, not {attempts!r}")
    rng = rng or random.Random()
    for _ in range(attempts):
        puzzle = Puzzle.from_picture(random_picture(height, width, density, rng))
        if not unique and difficulty is None:
            return puzzle
        rating = rate(puzzle)
        if rating.status == "unique" and difficulty in (None, rating.level):
            return puzzle
    wanted = "unique" if difficulty is None else f"unique and rated {difficulty!r}"
    raise UsageError(f"no {wanted} {height}x{width} puzzle in {attempts} random pictures")
