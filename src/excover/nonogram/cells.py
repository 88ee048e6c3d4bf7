"""The picture vocabulary every nonogram module shares, below all of them: how a picture
shows a black and a white cell, and what a clue is. (:mod:`excover.nonogram.model`
gives these names to its users too; :mod:`excover.nonogram.draw` takes them from here,
so that drawing needs nothing of the model.)"""

from __future__ import annotations

__all__ = ["BLACK", "WHITE", "Clue"]

#: A clue: the lengths of a line's black blocks, in order.
Clue = tuple[int, ...]

#: How pictures show a black and a white cell.
BLACK = "#"
WHITE = "."
