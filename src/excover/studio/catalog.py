"""The pieces the studio's page offers, by family: the polyominoes of 1 to 6 cells from
the tiling library's catalog (:mod:`excover.tiling.catalog`), each with a name that is
distinct across families, so a design may mix them (the tetromino I is ``I4``, the
pentomino I is ``I``)."""

from __future__ import annotations

from functools import cache
from typing import Any

from excover.tiling import Pattern, pentominoes, polyominoes, tetrominoes

__all__ = ["families"]


def _rows(pattern: Pattern) -> list[str]:
    return pattern.ascii().splitlines()


def _numbered(prefix: str, patterns: list[Pattern]) -> dict[str, Pattern]:
    return {f"{prefix}{number}": p for number, p in enumerate(patterns, 1)}


@cache
def families() -> list[dict[str, Any]]:
    """The families, smallest pieces first: ``[{"name": "pentominoes", "pieces": [{"name":
    "F", "cells": [...]}, ...]}, ...]``, the cells as ASCII art rows, top row first."""
    named = [
        ("monomino and domino", {"M1": polyominoes(1)[0], "D2": polyominoes(2)[0]}),
        ("trominoes", _numbered("Tr", polyominoes(3))),
        ("tetrominoes", {f"{letter}4": p for letter, p in tetrominoes().items()}),
        ("pentominoes", pentominoes()),
        ("hexominoes", _numbered("H", polyominoes(6))),
    ]
    return [
        {"name": family, "pieces": [{"name": n, "cells": _rows(p)} for n, p in pieces.items()]}
        for family, pieces in named
    ]
