"""Positions in ``.cmb`` sources and the error every stage of the language raises.

A :class:`Source` holds the text of one file (or of standard input) so that an error can
quote the offending line. A :class:`Pos` is a place in a source, 1-based line and column.
:class:`LangError` prints as ``file:line:column: message``, then the line and a caret under
the column, the form compilers use.

An included file whose name does not end in ``.cmb`` is no program of the user's making
(a program could name ``.bashrc`` in its folder), so an error never quotes it: an error
located in it is reported at the ``include`` that brought it in, without its message
(which could hold a word of the file).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from excover.errors import FormatError

__all__ = ["LangError", "Pos", "Source"]

#: The most characters of a source line an error report quotes.
_WIDTH = 100


@dataclass(frozen=True, eq=False)
class Source:
    """A named program text: a file's path, ``<stdin>`` or ``<string>``.

    ``included_at`` is the ``include`` that brought an included file in; ``quoted`` is
    False for an included file that is not a ``.cmb`` file, whose text errors never show;
    ``catalog`` is True for the text excover generates for ``include "excover:NAME"``,
    whose tiles' errors are located where the program uses them.
    """

    name: str
    text: str = field(repr=False)
    included_at: Pos | None = None
    quoted: bool = True
    catalog: bool = False

    def line(self, number: int) -> str:
        """The text of line ``number`` (1-based), empty past the end. The lines are found
        when asked for, not kept: a text of many short lines would take many times its
        size as a list of strings."""
        start = 0
        for _ in range(number - 1):
            start = self.text.find("\n", start) + 1
            if start == 0:
                return ""
        if number < 1:
            return ""
        end = self.text.find("\n", start)
        return self.text[start : None if end < 0 else end].rstrip("\r")

    def end(self) -> Pos:
        """The position just after the last character."""
        last = self.text[self.text.rfind("\n") + 1 :]
        return Pos(self, self.text.count("\n") + 1, len(last) + 1)


@dataclass(frozen=True)
class Pos:
    """A position in a source: line and column, both counted from 1."""

    source: Source
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.source.name}:{self.line}:{self.column}"

    def __repr__(self) -> str:
        return f"Pos({self})"


class LangError(FormatError):
    """A lexical, syntax, name or run-time error in a ``.cmb`` program, at ``pos``."""

    def __init__(self, message: str, pos: Pos) -> None:
        if not pos.source.quoted:
            message = (
                f"an error at {pos} in an included file that is not a .cmb file "
                "(its text is not shown)"
            )
        while not pos.source.quoted and pos.source.included_at is not None:
            pos = pos.source.included_at
        super().__init__(message, source=pos.source.name, line=pos.line)
        self.pos = pos
        self.column = pos.column

    def __str__(self) -> str:
        return f"{self.pos}: {self.message}"

    def report(self) -> str:
        """The error as a compiler prints it: the first line, then the offending source
        line and a caret under the column (tabs kept so the caret lines up). A source
        with no text (a file that could not be read) has no line to show: the message
        alone, as the other commands say it."""
        if not self.pos.source.text:
            return f"excover: {self.message}"
        text = self.pos.source.line(self.pos.line)
        column = self.pos.column - 1
        if len(text) > _WIDTH:  # a window of the line around the column
            start = max(0, min(column - _WIDTH // 2, len(text) - _WIDTH))
            tail = "..." if start + _WIDTH < len(text) else ""
            head = "..." if start else ""
            text = head + text[start : start + _WIDTH] + tail
            column += len(head) - start
        lead = "".join("\t" if c == "\t" else " " for c in text[:column])
        return f"{self}\n    {text}\n    {lead}^"
