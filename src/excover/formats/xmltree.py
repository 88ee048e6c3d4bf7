"""An XML document read as a tree of elements that know the line they start on.

The XML formats (BurrTools' ``.xmpuzzle``, webpbn's nonograms) locate their errors at a
line of the file: expat gives each element's line, where the standard library's tree
builder does not. expat never fetches an external entity.
"""

from __future__ import annotations

from excover.errors import FormatError

__all__ = ["Element", "parse"]


class Element:
    """An XML element with the line it starts on, its child elements and its text (a
    plain class: a nonogram's start-up does not import dataclasses)."""

    def __init__(self, tag: str, attributes: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attributes = attributes
        self.line = line
        self.children: list[Element] = []
        self.text = ""

    def all(self, tag: str) -> list[Element]:
        """The children with this tag, in order."""
        return [child for child in self.children if child.tag == tag]

    def first(self, tag: str) -> Element | None:
        """The first child with this tag, or None."""
        found = self.all(tag)
        return found[0] if found else None


def parse(
    data: str | bytes, source: str, *, encoding: str | None = None, malformed: str = "bad XML"
) -> Element:
    """The root element of the XML document ``data`` (bytes in ``encoding``, None: as
    the document declares, else UTF-8). A document that is not well-formed is a
    FormatError ``MALFORMED: what expat says`` at its line; ``source`` names the file."""
    from xml.parsers import expat

    parser = expat.ParserCreate(encoding)
    roots: list[Element] = []
    stack: list[Element] = []
    chunks: list[list[str]] = []  # the text of each open element, joined at its end tag

    def start(tag: str, attributes: dict[str, str]) -> None:
        element = Element(tag, attributes, parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)
        chunks.append([])

    def end(tag: str) -> None:
        stack.pop().text = "".join(chunks.pop())

    def text(chunk: str) -> None:
        if chunks:
            chunks[-1].append(chunk)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        message = expat.errors.messages[error.code] if error.code else str(error)
        raise FormatError(f"{malformed}: {message}", source=source, line=error.lineno) from None
    if not roots:
        raise FormatError("the file holds no XML element", source=source)
    return roots[0]
