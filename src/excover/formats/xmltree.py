"""An XML document read as a tree of elements that know the line they start on.

The XML formats (BurrTools' ``.xmpuzzle``, webpbn's nonograms) locate their errors at a
line of the file: expat gives each element's line, where the standard library's tree
builder does not. expat never fetches an external entity.

Elements of the tags a caller names ``unread`` are kept without their content (a solved
BurrTools file's stored separation trees, most of its elements, which only some
commands read): expat still checks them, and :meth:`Element.read` reads one later.
"""

from __future__ import annotations

from excover.errors import FormatError

__all__ = ["Element", "parse"]


class Element:
    """An XML element with the line it starts on, its child elements and its text (a
    plain class: a nonogram's start-up does not import dataclasses). An element left
    unread (see :func:`parse`) has neither yet: ``unread`` holds the document's bytes,
    where the element starts and ends in them, and their encoding."""

    def __init__(self, tag: str, attributes: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attributes = attributes
        self.line = line
        self.children: list[Element] = []
        self.text = ""
        self.unread: tuple[bytes, int, int, str | None] | None = None

    def all(self, tag: str) -> list[Element]:
        """The children with this tag, in order."""
        return [child for child in self.children if child.tag == tag]

    def first(self, tag: str) -> Element | None:
        """The first child with this tag, or None."""
        found = self.all(tag)
        return found[0] if found else None

    def read(self, source: str) -> Element:
        """The element with its content, lines as in the whole document (itself when it
        was read with the document)."""
        if self.unread is None:
            return self
        data, start, end, encoding = self.unread
        return parse(data[start:end], source, encoding=encoding, first_line=self.line)


def parse(
    data: str | bytes,
    source: str,
    *,
    encoding: str | None = None,
    malformed: str = "bad XML",
    unread: frozenset[str] = frozenset(),
    first_line: int = 1,
) -> Element:
    """The root element of the XML document ``data`` (bytes in ``encoding``, None: as
    the document declares, else UTF-8). A document that is not well-formed is a
    FormatError ``MALFORMED: what expat says`` at its line; ``source`` names the file.
    Elements whose tag is in ``unread`` (the root excepted; when ``data`` is bytes) are
    left unread: :meth:`Element.read` reads them. ``first_line`` is the line ``data``
    starts on."""
    from xml.parsers import expat

    parser = expat.ParserCreate(encoding)
    roots: list[Element] = []
    stack: list[Element] = []
    chunks: list[list[str]] = []  # the text of each open element, joined at its end tag
    raw = data if isinstance(data, bytes) else b""  # where unread elements are kept
    held: list[tuple[Element, int]] = []  # the element being left unread, where it starts
    skipped = 0  # the depth inside it
    lines = first_line - 1

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal skipped
        element = Element(tag, attributes, parser.CurrentLineNumber + lines)
        (stack[-1].children if stack else roots).append(element)
        if tag in unread and stack and raw:
            held.append((element, parser.CurrentByteIndex))
            skipped = 1
            # inside it only the depth is kept, by handlers that do nothing else, and
            # its text is not handed over at all
            parser.StartElementHandler = start_inside
            parser.EndElementHandler = end_inside
            parser.CharacterDataHandler = None
            return
        stack.append(element)
        chunks.append([])

    def start_inside(tag: str, attributes: dict[str, str]) -> None:
        nonlocal skipped
        skipped += 1

    def end_inside(tag: str) -> None:
        nonlocal skipped
        skipped -= 1
        if not skipped:  # its end: at its end tag, or just past an empty element
            element, begin = held.pop()
            at = parser.CurrentByteIndex
            close = raw.index(b">", at) + 1 if raw.startswith(b"</", at) else at
            element.unread = (raw, begin, close, encoding)
            parser.StartElementHandler = start
            parser.EndElementHandler = end
            parser.CharacterDataHandler = text

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
        line = error.lineno + lines
        raise FormatError(f"{malformed}: {message}", source=source, line=line) from None
    if not roots:
        raise FormatError("the file holds no XML element", source=source)
    return roots[0]
