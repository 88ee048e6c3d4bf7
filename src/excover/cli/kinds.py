"""What kind of input a file looks like, for the commands that are given another's.

A user who runs ``excover run`` on a DLX problem or ``excover nonogram`` on a ``.cmb``
program gets a parse error from the wrong reader; these helpers recognise the inputs of
the other commands (from the file's name and its first line, never by parsing it) so that
the error can say what the file looks like and which command reads it.
"""

from __future__ import annotations

__all__ = ["looks_like_cmb", "other_kind"]

#: The words a .cmb program's statements start with (:mod:`excover.lang`).
_CMB_WORDS = frozenset(
    (
        *("pattern", "pattern3", "tiles", "tiles3", "problem", "problem3", "include"),
        *("count", "count3", "solve", "solve3", "all", "all3", "print", "assert"),
        *("dimacs", "debug", "timing", "exit"),
    )
)

#: The most bytes of a file read to recognise it.
_HEAD = 4096


def _first_line(data: bytes, comment: str) -> str:
    """The first line of ``data`` that is neither blank nor a ``comment`` line."""
    for line in data.decode("utf-8", "replace").splitlines():
        text = line.split(comment, 1)[0].strip() if comment else line.strip()
        if text:
            return text
    return ""


def looks_like_cmb(data: bytes) -> bool:
    """Whether a text reads as a .cmb program: its first line that is neither blank nor a
    comment ('#' in a program) starts with a statement's word."""
    words = _first_line(data, "#").split()
    return bool(words) and words[0] in _CMB_WORDS


def _looks_like_dlx(data: bytes) -> bool:
    """Whether a text reads as a problem in Knuth's DLX format: its first line that is
    not blank is a '|' comment or names items around a '|'."""
    first = _first_line(data, "")
    return first.startswith("|") or (" | " in f" {first} " and not looks_like_cmb(data))


def other_kind(path: str, reader: str) -> str | None:
    """When the file ``path`` looks like the input of another command than ``reader``
    (``run``, ``count``, ``nonogram``), what it looks like and which command reads it;
    None when it looks like nothing else (or cannot be read: the reader says why)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_HEAD)
    except OSError:
        return None
    name = path.lower()
    problem = f"'excover count {path}' counts it, 'excover solve {path}' lists its solutions"
    if reader != "count":
        if name.endswith(".xmpuzzle") or data.startswith(b"\x1f\x8b"):
            return f"{path} looks like a BurrTools puzzle (.xmpuzzle): {problem}"
        if name.endswith(".dlx") or _looks_like_dlx(data):
            return f"{path} looks like an exact cover problem in Knuth's DLX format: {problem}"
    if reader != "run" and (name.endswith(".cmb") or looks_like_cmb(data)):
        return f"{path} looks like a .cmb program: 'excover run {path}' runs it"
    return None
