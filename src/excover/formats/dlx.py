"""Knuth's DLX text format: the input of his programs DLX1, DLX2 and DLX3.

The format is line based. Blank lines are skipped, and so are comment lines: those whose
first non-blank character is ``|``. The first other line is the *item line*: the names of
the primary items, then a lone ``|``, then the names of the secondary items (the ``|`` and
the secondary items may be left out). A primary item may carry a multiplicity (DLX3):
``lo:hi|name`` asks that it be covered between ``lo`` and ``hi`` times, ``n|name`` exactly
``n`` times. Every following line is an option: item names separated by blanks, written
``name:color`` for a colored secondary item (DLX2). For example::

    | a small problem
    a 0:2|b | x y
    a x:red
    b x:red y
    a b

Writing produces the same layout, without comments and with each multiplicity in its
shortest form, so that reading what was written gives back an equal problem and writing
is a fixpoint. Names cannot contain ``|``, ``:`` or blanks, which the model enforces; a
problem without primary items has no item line and cannot be written.
"""

from __future__ import annotations

import os

from excover.atomic import write_whole
from excover.errors import FormatError, ProblemError, UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TypeVar

    from excover.problem import Problem

    P = TypeVar("P", bound=Problem)

__all__ = ["format_dlx", "parse_dlx", "parse_dlx_bytes", "read_dlx", "write_dlx"]

#: The UTF-8 byte-order mark, skipped at the start of the input (as the "utf-8-sig" codec
#: does, whose module a read would otherwise load).
_BOM = b"\xef\xbb\xbf"

#: The most digits of a bound in a multiplicity prefix: short enough to convert safely.
_BOUND_DIGITS = 10


def parse_dlx(text: str, source: str, factory: type[P]) -> P:
    """The problem written in ``text``, built by ``factory`` (Problem or a subclass).

    Every error is a :class:`~excover.FormatError` carrying ``source`` and the 1-based
    number of the line at fault.
    """
    if not isinstance(text, str):
        raise UsageError(f"DLX text must be a str, not {type(text).__name__}")
    problem: P | None = None
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        tokens = line.split()
        if not tokens or tokens[0][0] == "|":
            continue
        try:
            if problem is None:
                problem = _from_item_line(tokens, factory)
            else:
                problem._add(tokens, "in option")
        except ProblemError as error:
            raise FormatError(error.message, source=source, line=number) from None
    if problem is None:
        raise FormatError(
            "no item line: the input holds only comments and blank lines",
            source=source,
            line=max(1, len(lines) - (lines[-1] == "")),
        )
    return problem


def _from_item_line(tokens: list[str], factory: type[P]) -> P:
    """An empty problem with the items (and multiplicities) of the item line ``tokens``."""
    primary: list[str] = []
    secondary: list[str] = []
    bounds: list[tuple[str, int, int]] = []
    names = primary
    for token in _separated(tokens):
        if token == "|":
            if names is secondary:
                raise ProblemError("'|' twice in the item line")
            names = secondary
            continue
        if "|" in token:
            prefix, _, token = token.partition("|")
            if names is secondary:
                raise ProblemError(f"multiplicity {prefix!r} on secondary item {token!r}")
            low, colon, high = prefix.partition(":")
            if not _bound(low) or (colon and not _bound(high)):
                raise ProblemError(
                    f"bad multiplicity {prefix!r} on item {token!r}: write lo:hi|name or n|name"
                )
            lo = int(low)
            bounds.append((token, lo, int(high) if colon else lo))
        names.append(token)
    problem = factory(primary, secondary)
    for name, lo, hi in bounds:
        problem.set_multiplicity(name, lo, hi)
    return problem


def _bound(text: str) -> bool:
    """Whether ``text`` is a bound of a multiplicity prefix (``n`` or ``lo:hi``): 1 to
    :data:`_BOUND_DIGITS` ASCII digits."""
    return 0 < len(text) <= _BOUND_DIGITS and text.isascii() and text.isdigit()


def _separated(tokens: list[str]) -> Iterator[str]:
    """The item line's tokens with a ``|`` that starts a token set apart: Knuth's
    programs read ``a |b`` (and ``1 |a``) as item ``a``, the separator, item ``b``."""
    for token in tokens:
        if token.startswith("|") and len(token) > 1:
            yield "|"
            yield token[1:]
        else:
            yield token


def read_dlx(path: str | os.PathLike[str], factory: type[P]) -> P:
    """The problem in the file ``path`` (UTF-8 text); errors name the file and line."""
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:  # missing, a directory, unreadable: a clear one-line error
        raise UsageError(f"cannot read {os.fspath(path)}: {error.strerror}") from None
    return parse_dlx_bytes(data, os.fspath(path), factory)


def parse_dlx_bytes(data: bytes, source: str, factory: type[P]) -> P:
    """The problem in ``data``, UTF-8 text (a leading byte-order mark is skipped)."""
    data = data.removeprefix(_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FormatError("the input is not UTF-8 text", source=source, line=line) from None
    return parse_dlx(text, source, factory)


def format_dlx(problem: Problem) -> str:
    """The problem in DLX format: the item line, then one line per option."""
    if problem.n_primary == 0:
        raise ProblemError("a problem without primary items cannot be written in DLX format")
    head = [_with_bounds(name, *problem.multiplicity(name)) for name in problem.primary_items]
    if problem.n_secondary:
        head += ["|", *problem.secondary_items]
    lines = [" ".join(head)]
    lines += problem.option_lines()
    return "\n".join(lines) + "\n"


def _with_bounds(name: str, lo: int, hi: int) -> str:
    """A primary item as written on the item line, with its multiplicity if not 1."""
    if lo == hi:
        return name if lo == 1 else f"{lo}|{name}"
    return f"{lo}:{hi}|{name}"


def write_dlx(problem: Problem, path: str | os.PathLike[str]) -> None:
    """Write the problem to the file ``path`` in DLX format (UTF-8, ``\\n`` line ends),
    whole (:func:`excover.atomic.write_whole`)."""
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
    write_whole(path, format_dlx(problem), newline="\n", follow_links=True)
