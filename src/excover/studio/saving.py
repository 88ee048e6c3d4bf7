"""Saving a BurrTools puzzle of the studio: the file as BurrTools writes it
(:func:`gzipped`), the name it is offered under, and a problem saved solved by an
assemble run (:class:`Hardest`, :func:`saved`), as BurrTools saves a problem it solved.
The burr workshop (:mod:`excover.studio.workshop`) saves with these, and the assemble
run (:mod:`excover.studio.burrtools`) makes its solved file with them."""

from __future__ import annotations

import gzip
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from excover.burr import Disassembly
    from excover.burr.xmpuzzle import BurrPuzzle

__all__ = ["KEEP", "Hardest", "gzipped", "saved", "xmpuzzle_name"]

#: The solutions stored in a saved file, the hardest (BurrTools' "Limit", 100).
KEEP = 100


def gzipped(data: bytes) -> bytes:
    """An ``.xmpuzzle`` file's bytes as BurrTools writes them: gzip-compressed (a plain
    XML file compressed, a compressed one as it is)."""
    return data if data.startswith(b"\x1f\x8b") else gzip.compress(data, 9, mtime=0)


def xmpuzzle_name(name: str) -> str:
    """The name a saved file is offered under: the puzzle's, ending in ``.xmpuzzle``."""
    stem = name.rsplit(".", 1)[0] if name.lower().endswith((".xmpuzzle", ".xml")) else name
    return f"{stem or 'puzzle'}.xmpuzzle"


class Hardest:
    """The hardest :data:`KEEP` solutions of an assemble run, kept as they are found (a
    run of many solutions holds no more), and how many there are: BurrTools' order
    (:meth:`~excover.burr.Disassembly.sort_key`; of equals, the one found later)."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.count = 0
        self._heap: list[tuple[tuple[int, ...], int, int, Disassembly]] = []

    def add(self, index: int, result: Disassembly) -> None:
        """Solution ``result`` (the assembly numbered ``index`` from 0)."""
        import heapq

        entry = (tuple(result.sort_key()), index, self.count, result)
        self.count += 1
        if len(self._heap) < self.keep:
            heapq.heappush(self._heap, entry)
        elif entry[:2] > self._heap[0][:2]:
            heapq.heapreplace(self._heap, entry)

    def solutions(self) -> list[tuple[int, int, Disassembly]]:
        """The solutions kept, the easiest first: ``(assembly index, solution number,
        disassembly)``, as BurrTools stores them."""
        return [(index, number, result) for _, index, number, result in sorted(self._heap)]


def saved(puzzle: BurrPuzzle, problem: int, hardest: Hardest, found: int, complete: bool) -> bytes:
    """The file of ``puzzle`` with ``problem`` solved by an assemble run, as BurrTools
    saves a problem it solved (:func:`excover.burr.stored.solved_puzzle` does the same
    from every solution): ``found`` assemblies (all of them when ``complete``, else
    BurrTools' state of an interrupted search), ``hardest.count`` solutions, the hardest
    stored with their separations; gzip-compressed as BurrTools writes."""
    from excover.burr.stored import stored_solution
    from excover.burr.xmpuzzle import format_xmpuzzle

    stored = tuple(
        stored_solution(puzzle, problem, result, index, number)
        for index, number, result in hardest.solutions()
    )
    spec = replace(
        puzzle.problems[problem],
        state=2 if complete else 1,
        assemblies=found,
        solutions=hardest.count,
        time=0,
        stored=stored,
    )
    problems = list(puzzle.problems)
    problems[problem] = spec
    solved = replace(puzzle, problems=tuple(problems))
    return gzipped(format_xmpuzzle(solved).encode("utf-8"))
