"""Nonogram files, read and written: plain text, Simpson's ``.non``, webpbn's XML and more.

One module per format family, each with the format's description and its ``read``
and ``write``; this package dispatches by format name (or file suffix, see
:data:`FORMATS`) and imports a family's module only when a file of it is read or
written:

- ``text`` (:mod:`.text`): excover's plain text, row clues, a blank line, column clues;
- ``non`` (:mod:`.non`): Steve Simpson's format;
- ``xml`` (:mod:`.webpbn`): the export format of webpbn.com;
- ``nin`` and ``mk`` (:mod:`.sized`): Jakub Wilk's format (webpbn's survey sample) and
  Olsak's, a size line then the clues;
- ``tcga`` (:mod:`.tcga`): the tournaments' files, many puzzles in one (:func:`read_all`;
  a ``.txt`` file whose first line starts with ``$`` is one);
- ``ini`` (:mod:`.ini`): pynogram's files (a ``.txt`` file that starts with a
  ``[section]`` line is one);
- ``g`` (:mod:`.g`): Olsak's format, with colours.

What they share, :class:`~excover.nonogram.formats._clues.Clues` (clues with their
lines, checked into a puzzle), is in :mod:`._clues`.

Errors are :class:`~excover.FormatError` carrying the file and line (``file:line: ...``):
a bad number, a missing section, a clue that does not fit its line, a colour that the
file does not declare (in every format: ``6x`` is a typo, not a colour of its own).
Rows and columns that disagree on the number of black cells make a well-formed puzzle
without solution.

"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable

from excover.errors import UsageError
from excover.formats.text import read_text
from excover.nonogram.model import Puzzle

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "COLOUR_FORMATS",
    "FORMATS",
    "MANY",
    "dumps",
    "dumps_all",
    "format_for",
    "loads",
    "loads_all",
    "read",
    "read_all",
    "write",
    "write_all",
]

#: The formats, by name, with the file suffixes that select them.
FORMATS = {
    "text": (".txt", ".clues"),
    "non": (".non",),
    "xml": (".xml", ".pbn"),
    "nin": (".nin",),
    "mk": (".mk",),
    "tcga": (".tcga",),
    "ini": (".ini",),
    "g": (".g",),
}

#: The formats whose files hold many puzzles (read them with :func:`read_all`).
MANY = ("tcga",)


def format_for(path: str | os.PathLike[str]) -> str:
    """The format of a file, from its suffix (``text`` for anything unknown)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()  # not pathlib: start-up time
    return next((name for name, suffixes in FORMATS.items() if suffix in suffixes), "text")


def loads(text: str, format: str = "text", source: str = "<string>") -> Puzzle:
    """The puzzle in ``text``, written in ``format`` (``text``, ``non`` or ``xml``);
    ``source`` names the input in error messages."""
    if not isinstance(text, str):
        raise UsageError(f"a nonogram text must be a str, not {type(text).__name__}")
    if format not in _READERS:
        raise UsageError(f"unknown nonogram format {format!r}; choose one of {', '.join(FORMATS)}")
    text = text.removeprefix("\ufeff")  # a byte order mark is no clue
    if format == "text":  # a .txt file may be in pynogram's or the tournaments' format
        format = _sniff(text) or format
    reader: Callable[[str, str], Puzzle] = _function(_READERS[format])
    return reader(text, source)


def dumps(puzzle: Puzzle, format: str = "text") -> str:
    """``puzzle`` as text in ``format`` (the goal picture too, where the format has one)."""
    if not isinstance(puzzle, Puzzle):
        raise UsageError(f"a nonogram Puzzle is needed, not {puzzle!r}")
    if format not in _WRITERS:
        raise UsageError(f"unknown nonogram format {format!r}; choose one of {', '.join(FORMATS)}")
    _check_colours(puzzle, format)
    writer: Callable[[Puzzle], str] = _function(_WRITERS[format])
    return writer(puzzle)


#: The formats that can hold a colour puzzle.
COLOUR_FORMATS = ("text", "non", "xml", "ini", "g")


def _check_colours(puzzle: Puzzle, format: str) -> None:
    """Refuse to write a colour puzzle in a format without colours."""
    if puzzle.palette is not None and format not in COLOUR_FORMATS:
        raise UsageError(
            f"the {format} format has no colours: write a colour puzzle as "
            f"{', '.join(COLOUR_FORMATS)}"
        )


def read(path: str | os.PathLike[str], format: str | None = None) -> Puzzle:
    """The puzzle in the file ``path`` (UTF-8); the format comes from the suffix unless
    given (see :data:`FORMATS`)."""
    text, source = read_text(path)
    return loads(text, format_for(path) if format is None else format, source)


def write(puzzle: Puzzle, path: str | os.PathLike[str], format: str | None = None) -> None:
    """Write ``puzzle`` to the file ``path``, in the format its suffix names unless given."""
    _write_file(path, lambda chosen: dumps(puzzle, chosen), format)


def _write_file(
    path: str | os.PathLike[str], text_in: Callable[[str], str], format: str | None
) -> None:
    """Write ``text_in(format)`` to ``path``, the format its suffix names unless given,
    whole (:func:`excover.atomic.write_whole`); failures are usage errors."""
    from excover.atomic import write_whole  # on use: a solving run writes no file

    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
    text = text_in(format_for(path) if format is None else format)
    try:
        write_whole(path, text, newline="\n", follow_links=True)
    except OSError as error:
        raise UsageError(f"cannot write {os.fspath(path)}: {error.strerror}") from None


def loads_all(text: str, format: str = "text", source: str = "<string>") -> list[Puzzle]:
    """Every puzzle in ``text``: the many of a ``tcga`` file (a ``text`` file that starts
    with a ``$`` line is one), or the one of any other format."""
    if not isinstance(text, str):
        raise UsageError(f"a nonogram text must be a str, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    if format == "text":
        format = _sniff(text) or format
    if format in MANY:
        from excover.nonogram.formats import tcga

        return [clues.puzzle(end) for clues, _, end in tcga.puzzles(text, source)]
    return [loads(text, format, source)]


def read_all(path: str | os.PathLike[str], format: str | None = None) -> list[Puzzle]:
    """Every puzzle in the file ``path`` (see :func:`loads_all`)."""
    text, source = read_text(path)
    return loads_all(text, format_for(path) if format is None else format, source)


def dumps_all(puzzles: Iterable[Puzzle], format: str = "tcga") -> str:
    """``puzzles`` as one text: a ``tcga`` file of all of them (labelled by their titles
    when these are single words, else by their rank from 1), or any format's text of
    a single puzzle."""
    given = list(puzzles)
    if format not in MANY:
        if len(given) != 1:
            raise UsageError(f"a {format} file holds one puzzle, not {len(given)}")
        return dumps(given[0], format)
    for puzzle in given:
        if not isinstance(puzzle, Puzzle):
            raise UsageError(f"a nonogram Puzzle is needed, not {puzzle!r}")
        _check_colours(puzzle, format)
    from excover.nonogram.formats import tcga

    return "".join(tcga.write(puzzle, rank) for rank, puzzle in enumerate(given, start=1))


def write_all(
    puzzles: Iterable[Puzzle], path: str | os.PathLike[str], format: str | None = None
) -> None:
    """Write ``puzzles`` to the file ``path`` (see :func:`dumps_all`); the format comes
    from the suffix unless given."""
    given = list(puzzles)
    _write_file(path, lambda chosen: dumps_all(given, chosen), format)


def _sniff(text: str) -> str | None:
    """The format of a ``.txt`` file that is not excover's plain text: ``tcga`` when
    its first line starts with ``$``, ``ini`` when it is a ``[section]``."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("$"):
            return "tcga"
        if line.startswith("[") and line.endswith("]"):
            return "ini"
        return None
    return None


#: Each format's reader and writer, as ``module:function`` of this package.
_READERS = {
    "text": "text:read",
    "non": "non:read",
    "xml": "webpbn:read",
    "nin": "sized:read_nin",
    "mk": "sized:read_mk",
    "tcga": "tcga:read",
    "ini": "ini:read",
    "g": "g:read",
}
_WRITERS = {
    "text": "text:write",
    "non": "non:write",
    "xml": "webpbn:write",
    "nin": "sized:write_nin",
    "mk": "sized:write_mk",
    "tcga": "tcga:write",
    "ini": "ini:write",
    "g": "g:write",
}


def _function(spec: str) -> Any:
    """The function ``module:name`` of this package, its module imported on first use
    (reading a file of one format loads no other format's code)."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
