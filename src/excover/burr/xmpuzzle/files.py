"""Reading and writing BurrTools' ``.xmpuzzle`` files.

An ``.xmpuzzle`` file is XML, usually gzip-compressed (BurrTools writes it so; a file
starting with gzip's magic bytes ``1f 8b`` is decompressed, any other is read as plain
XML). The layout, as BurrTools writes it::

    <puzzle version="2">
     <gridType type="0"/>
     <colors><color red="255" green="0" blue="0"/></colors>
     <shapes>
      <voxel x="3" y="2" z="1" name="L" type="0">###_#_</voxel>  (one per shape)
     </shapes>
     <problems>
      <problem name="P" state="2" assemblies="7" solutions="3" time="0">
       <shapes><shape id="0" count="2"/><shape id="1" min="0" max="3"/></shapes>
       <result id="2"/>
       <bitmap><pair piece="0" result="0"/></bitmap>       (colour constraints)
       <solutions>
        <solution asmNum="0" solNum="0">
         <assembly>0 0 0 0 3 1 0 5</assembly>              (x y z t a piece, x: unplaced)
         <separation>
          <pieces count="2">0 1</pieces>
          <state><dx>0 3</dx><dy>0 1</dy><dz>0 0</dz></state>   (one a move, and the start)
          <separation type="removed">...</separation>
          <separation type="left">...</separation>
         </separation>                                      (or <separationInfo>1 0 0</...>)
        </solution>
       </solutions>
      </problem>
     </problems>
     <comment/>
    </puzzle>

Voxel text: ``#`` filled, ``+`` variable, ``_`` empty, each optionally followed by its
colour number. Elements BurrTools does not know are skipped, as BurrTools skips them, and
so is an interrupted search's state. The solutions stored with a problem are read and
written (:class:`~excover.burr.xmpuzzle.model.Solution`: the placements of the
assembly, and the separation tree or its summary); a separation tree is read (and its
errors found) when a solution's ``separation`` is first asked for (disassembling a
puzzle never asks).
Every error is a :class:`~excover.FormatError` naming the file and the line.
"""

from __future__ import annotations

import gzip
import os
import re
import struct
import zlib
from collections.abc import Iterable, Iterator
from functools import partial

from excover.atomic import write_whole
from excover.burr.xmpuzzle.model import (
    BurrProblem,
    BurrPuzzle,
    BurrShape,
    Deferred,
    Part,
    Placement,
    Solution,
    StoredSeparation,
    Voxel,
)
from excover.errors import FormatError, UsageError
from excover.formats.xmltree import Element, parse

__all__ = ["format_xmpuzzle", "parse_xmpuzzle", "read_xmpuzzle", "write_xmpuzzle"]

#: The most bytes a compressed file may expand to (a guard against gzip bombs; the
#: largest public puzzles are well under a megabyte). Multiple gzip members are not read.
MAX_XML_BYTES = 256 * 1024 * 1024
#: The most voxels one shape may have.
MAX_VOXELS = 10_000_000
_GZIP_MAGIC = b"\x1f\x8b"
_VOXEL = re.compile(r"([#+_])([0-9]*)")
_STATES = re.compile(r"[#+_]*")
_NUMBER = re.compile(r"[0-9]{1,9}")
_INTEGER = re.compile(r"-?[0-9]{1,9}")
#: Whitespace-separated integers, checked in one match.
_INTEGERS = re.compile(r"\s*(?:-?[0-9]{1,9}(?:\s+|\Z))*")
#: An assembly's text of well-formed placements: ``x`` or four integers each.
_ASSEMBLY = re.compile(r"\s*(?:(?:x|-?[0-9]{1,9}(?:\s+-?[0-9]{1,9}){3})(?:\s+|\Z))*")


#: The elements a file is read without: the stored separation trees, most of a solved
#: file's elements, read when a solution's ``separation`` is asked for.
_UNREAD = frozenset({"separation"})


class _Reader:
    """Builds the model from the element tree, every error located."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, node: Element, message: str) -> FormatError:
        return FormatError(message, source=self.source, line=node.line)

    def number(self, node: Element, name: str, default: int | None = None) -> int:
        value = node.attributes.get(name)
        if value is None or value == "":
            if default is None:
                raise self.fail(node, f"<{node.tag}> needs the attribute {name}")
            return default
        if not _NUMBER.fullmatch(value.strip()):
            raise self.fail(node, f"<{node.tag}> {name}={value!r} is not a number")
        return int(value)

    def puzzle(self, root: Element) -> BurrPuzzle:
        if root.tag != "puzzle":
            raise self.fail(root, f"the root element is <{root.tag}>, not <puzzle>")
        version = self.number(root, "version")
        if version not in (1, 2):
            raise self.fail(root, f"puzzle version {version}: BurrTools files are 1 or 2")
        grid_node = root.first("gridType")
        grid = 0 if grid_node is None else self.number(grid_node, "type")
        colors = tuple(self.color(c) for group in root.all("colors") for c in group.all("color"))
        shapes = tuple(self.shape(v) for group in root.all("shapes") for v in group.all("voxel"))
        listed = [p for group in root.all("problems") for p in group.all("problem")]
        problems = tuple(self.problem(p, len(shapes)) for p in listed)
        comment = root.first("comment")
        return BurrPuzzle(
            shapes,
            problems,
            grid,
            colors,
            comment="" if comment is None else comment.text,
            comment_popup=comment is not None and "popup" in comment.attributes,
            source=self.source,
        )

    def color(self, node: Element) -> tuple[int, int, int]:
        """A colour's red, green and blue (BurrTools keeps the low 8 bits of each)."""
        red, green, blue = (self.number(node, name, 0) & 255 for name in ("red", "green", "blue"))
        return red, green, blue

    def shape(self, node: Element) -> BurrShape:
        size = (self.number(node, "x"), self.number(node, "y"), self.number(node, "z"))
        count = size[0] * size[1] * size[2]
        if count > MAX_VOXELS:
            raise self.fail(node, f"a shape of {count} voxels is larger than {MAX_VOXELS}")
        if self.number(node, "type") != 0:
            raise self.fail(node, "unknown voxel type (BurrTools knows type 0)")
        text = "".join(node.text.split())
        if not text:  # BurrTools reads an empty text as an empty space
            text = "_" * count
        colors: tuple[int, ...] = ()
        if _STATES.fullmatch(text):  # no colours: the text is the states
            states = text
        else:
            states, colors = self.colored_voxels(node, text)
        if len(states) != count:
            box = "x".join(str(v) for v in size)
            raise self.fail(node, f"the voxel text has {len(states)} voxels for a {box} space")
        hotspot = (
            self.number(node, "hx", 0),
            self.number(node, "hy", 0),
            self.number(node, "hz", 0),
        )
        return BurrShape(
            size,
            states,
            colors,
            node.attributes.get("name", ""),
            self.number(node, "weight", 1),
            hotspot,
        )

    def colored_voxels(self, node: Element, text: str) -> tuple[str, tuple[int, ...]]:
        """The states and colours of a voxel text with colour numbers, read at once on
        its bytes (a shape may have a million voxels)."""
        import numpy as np  # imported here: a puzzle without colours is read without it

        codes = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
        state = np.isin(codes, np.frombuffer(b"#+_", dtype=np.uint8))
        digit = (codes >= ord("0")) & (codes <= ord("9"))
        if not text.isascii() or not state[0] or not (state | digit).all():
            raise self.fail(node, self.fault(text))
        starts = np.flatnonzero(state)
        ends = np.append(starts[1:], len(codes))
        lengths = ends - starts - 1
        power = np.repeat(ends, ends - starts) - 1 - np.arange(len(codes))
        values = np.where(digit, codes.astype(np.int64) - ord("0"), 0)
        numbers = np.add.reduceat(values * 10 ** np.minimum(power, 3), starts)
        colors = np.where(lengths > 3, 64, numbers)
        over = np.flatnonzero(colors > 63)
        if len(over):
            k = int(over[0])
            digits = text[starts[k] + 1 : ends[k]]
            raise self.fail(node, f"voxel {k}: colour {digits} is over 63")
        return codes[state].tobytes().decode("ascii"), tuple(colors.tolist())

    @staticmethod
    def fault(text: str) -> str:
        """What is wrong with a voxel text holding a character that is neither a state
        nor a digit, or starting with a digit: the first voxel at fault."""
        position = 0
        number = 0
        for match in _VOXEL.finditer(text):
            if match.start() != position:
                break
            digits = match.group(2)
            if len(digits) > 3 or (digits and int(digits) > 63):
                return f"voxel {number}: colour {digits} is over 63"
            position = match.end()
            number += 1
        return f"voxel {number}: unknown character {text[position]!r} in voxel text"

    def problem(self, node: Element, n_shapes: int) -> BurrProblem:
        parts = tuple(
            self.part(s, n_shapes) for group in node.all("shapes") for s in group.all("shape")
        )
        result_node = node.first("result")
        if result_node is None:
            raise self.fail(node, "the problem has no <result>")
        result = self.number(result_node, "id")
        if result >= n_shapes:
            raise self.fail(result_node, f"the result is shape {result}, of {n_shapes} shapes")
        pairs = frozenset(
            (self.number(p, "piece"), self.number(p, "result"))
            for bitmap in node.all("bitmap")
            for p in bitmap.all("pair")
        )
        state = self.number(node, "state", 0)
        solved = state != 0
        holes = node.attributes.get("maxHoles")
        n_pieces = sum(part.hi for part in parts)
        stored = tuple(
            self.solution(s, n_pieces)
            for group in node.all("solutions")
            for s in group.all("solution")
        )
        return BurrProblem(
            parts,
            result,
            node.attributes.get("name", ""),
            pairs,
            None if holes is None else self.number(node, "maxHoles"),
            state,
            self.number(node, "assemblies") if solved and "assemblies" in node.attributes else None,
            self.number(node, "solutions") if solved and "solutions" in node.attributes else None,
            self.number(node, "time") if solved and "time" in node.attributes else None,
            stored,
        )

    def integers(self, node: Element, count: int | None = None) -> list[int]:
        """The whitespace-separated integers of an element's text (``count`` of them)."""
        words = node.text.split()
        checked = _INTEGERS.fullmatch(node.text) is not None  # else each word is
        bad = None if checked else next((w for w in words if not _INTEGER.fullmatch(w)), None)
        if bad is not None:
            raise self.fail(node, f"<{node.tag}> holds {bad!r}, not a number")
        if count is not None and len(words) != count:
            raise self.fail(node, f"<{node.tag}> holds {len(words)} numbers, not {count}")
        return [int(w) for w in words]

    def solution(self, node: Element, n_pieces: int) -> Solution:
        assembly = node.first("assembly")
        if assembly is None:
            raise self.fail(node, "a <solution> without an <assembly>")
        words = assembly.text.split()
        checked = _ASSEMBLY.fullmatch(assembly.text) is not None  # else each word is
        placements: list[Placement | None] = []
        k = 0
        while k < len(words):
            if words[k] == "x":
                placements.append(None)
                k += 1
                continue
            values = words[k : k + 4]
            if not checked and (len(values) < 4 or not all(map(_INTEGER.fullmatch, values))):
                raise self.fail(assembly, f"placement {len(placements)} is not 'x y z t'")
            placements.append((int(values[0]), int(values[1]), int(values[2]), int(values[3])))
            k += 4
        if len(placements) != n_pieces:
            raise self.fail(
                assembly, f"the assembly places {len(placements)} pieces, not {n_pieces}"
            )
        placed = [p for p, where in enumerate(placements) if where is not None]
        tree = node.first("separation")
        info = node.first("separationInfo")
        asm = node.attributes.get("asmNum")
        sol = node.attributes.get("solNum")
        return Solution(
            tuple(placements),
            None if tree is None else Deferred(partial(self.stored_tree, tree, len(placed))),
            () if info is None else tuple(self.integers(info)),
            None if asm is None else self.number(node, "asmNum"),
            None if sol is None else self.number(node, "solNum"),
            node.line,
        )

    def stored_tree(self, node: Element, count: int) -> StoredSeparation:
        """A solution's ``<separation>`` of ``count`` pieces, left unread with the file
        (see :func:`_tree`), read now."""
        return self.separation(node.read(self.source), count)

    def separation(self, node: Element, count: int) -> StoredSeparation:
        """A ``<separation>`` of ``count`` pieces, its parts' separations read too."""
        pieces_node = node.first("pieces")
        if pieces_node is None:
            raise self.fail(node, "a <separation> without <pieces>")
        if self.number(pieces_node, "count") != count:
            raise self.fail(pieces_node, f"the separation should have {count} pieces")
        pieces = tuple(self.integers(pieces_node, count))
        states: list[tuple[Voxel, ...]] = []
        for state in node.all("state"):
            axes = []
            for name in ("dx", "dy", "dz"):
                found = state.first(name)
                if found is None:
                    raise self.fail(state, f"a <state> without <{name}>")
                axes.append(self.integers(found, count))
            states.append(tuple((x, y, z) for x, y, z in zip(*axes, strict=True)))
        if not states:
            raise self.fail(node, "a <separation> without a <state>")
        parts: dict[str, StoredSeparation] = {}
        removed = sum(any(abs(c) > 10_000 for c in where) for where in states[-1])
        for sub in node.all("separation"):
            kind = sub.attributes.get("type", "")
            if kind not in ("left", "removed") or kind in parts:
                raise self.fail(sub, f"a second or unknown sub-separation type {kind!r}")
            parts[kind] = self.separation(sub, removed if kind == "removed" else count - removed)
        return StoredSeparation(
            pieces, tuple(states), parts.get("left"), parts.get("removed"), node.line
        )

    def part(self, node: Element, n_shapes: int) -> Part:
        shape = self.number(node, "id")
        if shape >= n_shapes:
            raise self.fail(node, f"piece shape {shape} does not exist ({n_shapes} shapes)")
        if "count" in node.attributes:
            lo = hi = self.number(node, "count")
        elif "min" in node.attributes and "max" in node.attributes:
            lo, hi = self.number(node, "min"), self.number(node, "max")
            if lo > hi:
                raise self.fail(node, f"shape {shape}: min {lo} is over max {hi}")
        else:
            lo = hi = 1
        if hi > 65535:
            raise self.fail(node, f"shape {shape}: a count of {hi} is over 65535")
        group = self.number(node, "group", 0)
        listed = [(self.number(g, "group"), self.number(g, "count")) for g in node.all("group")]
        groups = ((group, hi),) if group else tuple(listed)
        return Part(shape, lo, hi, groups)


def _tree(xml: bytes, source: str) -> Element:
    """The element tree of ``xml``, each element with its line, the stored separation
    trees left unread (:data:`_UNREAD`).

    BurrTools writes a comment's bytes as it got them and declares no encoding: a file
    that is not UTF-8 (such as ``Prisgon.xmpuzzle``, in Latin-1) is read as Latin-1."""
    try:
        xml.decode("utf-8")
        encoding = None
    except UnicodeDecodeError:
        encoding = "ISO-8859-1"
    return parse(xml, source, encoding=encoding, malformed="not well-formed XML", unread=_UNREAD)


def _decompressed(data: bytes, source: str) -> bytes:
    if not data.startswith(_GZIP_MAGIC):
        return data
    inflater = zlib.decompressobj(wbits=31)
    try:
        xml = inflater.decompress(data, MAX_XML_BYTES + 1)
    except zlib.error as error:
        raise FormatError(f"broken gzip data: {error}", source=source) from None
    if len(xml) > MAX_XML_BYTES:
        raise FormatError(f"the file expands to more than {MAX_XML_BYTES:,} bytes", source=source)
    if not inflater.eof:
        raise FormatError("broken gzip data: the compressed stream is cut short", source=source)
    return xml


def parse_xmpuzzle(data: bytes, source: str = "<xmpuzzle>") -> BurrPuzzle:
    """The puzzle in the bytes of an ``.xmpuzzle`` file (gzip-compressed or plain XML)."""
    if not isinstance(data, bytes | bytearray):
        raise UsageError(f"an .xmpuzzle file is read as bytes, not {type(data).__name__}")
    return _Reader(source).puzzle(_tree(_decompressed(bytes(data), source), source))


def read_xmpuzzle(path: str | os.PathLike[str]) -> BurrPuzzle:
    """The puzzle in the file ``path``."""
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
    source = os.fspath(path)
    try:
        with open(source, "rb") as file:
            data = file.read()
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror}") from None
    return parse_xmpuzzle(data, source)


# --------------------------------------------------------------------------- writing


def _attributes(pairs: list[tuple[str, object]]) -> str:
    # imported when writing: xml.sax.saxutils imports urllib.request, which reading
    # (every command on an .xmpuzzle file) never needs
    from xml.sax.saxutils import quoteattr

    return "".join(f" {name}={quoteattr(str(value))}" for name, value in pairs)


def _shape_xml(shape: BurrShape) -> str:
    pairs: list[tuple[str, object]] = [
        ("x", shape.size[0]),
        ("y", shape.size[1]),
        ("z", shape.size[2]),
    ]
    pairs += [
        (axis, value)
        for axis, value in zip(("hx", "hy", "hz"), shape.hotspot, strict=True)
        if value
    ]
    if shape.weight != 1:
        pairs.append(("weight", shape.weight))
    if shape.name:
        pairs.append(("name", shape.name))
    pairs.append(("type", 0))
    return f"  <voxel{_attributes(pairs)}>{shape.text()}</voxel>\n"


def _part_xml(part: Part) -> str:
    pairs: list[tuple[str, object]] = [("id", part.shape)]
    pairs += [("count", part.lo)] if part.lo == part.hi else [("min", part.lo), ("max", part.hi)]
    groups = [g for g in part.groups if g[0] != 0]
    if len(part.groups) == 1 and part.groups[0][1] == part.hi:
        if groups:
            pairs.append(("group", groups[0][0]))
        return f"    <shape{_attributes(pairs)}/>\n"
    if not groups:
        return f"    <shape{_attributes(pairs)}/>\n"
    inner = "".join(f'     <group group="{g}" count="{c}"/>\n' for g, c in groups)
    return f"    <shape{_attributes(pairs)}>\n{inner}    </shape>\n"


def _problem_xml(problem: BurrProblem, deadline: float | None = None) -> Iterator[str]:
    """A problem's XML, in pieces: the stored solutions one at a time (each checks
    ``deadline``, see :func:`write_xmpuzzle`)."""
    pairs: list[tuple[str, object]] = [("name", problem.name)] if problem.name else []
    state = problem.state if problem.assemblies is not None else 0
    pairs.append(("state", state))
    if state:
        pairs += [
            ("assemblies", problem.assemblies or 0),
            ("solutions", problem.solutions or 0),
            ("time", problem.time or 0),
        ]
    if problem.max_holes is not None:
        pairs.append(("maxHoles", problem.max_holes))
    parts = "".join(_part_xml(part) for part in problem.parts)
    bitmap = "".join(
        f'    <pair piece="{p}" result="{r}"/>\n' for p, r in sorted(problem.color_pairs)
    )
    yield (
        f"  <problem{_attributes(pairs)}>\n   <shapes>\n{parts}   </shapes>\n"
        f'   <result id="{problem.result}"/>\n'
        + (f"   <bitmap>\n{bitmap}   </bitmap>\n" if bitmap else "   <bitmap/>\n")
    )
    if problem.stored:
        from excover.deadlines import check  # here: reading a file never needs it

        yield "   <solutions>\n"
        for solution in problem.stored:
            check(deadline)
            yield _solution_xml(solution)
        yield "   </solutions>\n"
    yield "  </problem>\n"


def _numbers(values: Iterable[int]) -> str:
    return " ".join(map(str, values))


def _solution_xml(solution: Solution) -> str:
    pairs: list[tuple[str, object]] = []
    if solution.assembly_number is not None:
        pairs.append(("asmNum", solution.assembly_number))
    # the separation as the solution holds it: one made when asked for is not kept
    separation = solution.__dict__["_separation"]
    if isinstance(separation, Deferred):
        separation = separation.read()
    if solution.solution_number is not None and (separation or solution.info):
        pairs.append(("solNum", solution.solution_number))
    placements = " ".join("x" if p is None else _numbers(p) for p in solution.placements)
    text = [f"    <solution{_attributes(pairs)}>\n     <assembly>{placements}</assembly>\n"]
    if separation is not None:
        _separation_xml(separation, "", 5, text)
    elif solution.info:
        text.append(f"     <separationInfo>{_numbers(solution.info)}</separationInfo>\n")
    text.append("    </solution>\n")
    return "".join(text)


def _separation_xml(separation: StoredSeparation, kind: str, depth: int, text: list[str]) -> None:
    """A separation as BurrTools writes it, added to ``text``: the pieces, the states,
    then the removed part's separation and the left part's."""
    pad = " " * depth
    kind_attribute = f' type="{kind}"' if kind else ""
    pieces = separation.pieces
    text.append(
        f"{pad}<separation{kind_attribute}>\n"
        f'{pad} <pieces count="{len(pieces)}">{_numbers(pieces)}</pieces>\n'
    )
    for state in separation.states:
        xs, ys, zs = zip(*state, strict=True) if state else ((), (), ())
        text.append(
            f"{pad} <state>\n{pad}  <dx>{_numbers(xs)}</dx>\n{pad}  <dy>{_numbers(ys)}</dy>\n"
            f"{pad}  <dz>{_numbers(zs)}</dz>\n{pad} </state>\n"
        )
    if separation.removed is not None:
        _separation_xml(separation.removed, "removed", depth + 1, text)
    if separation.left is not None:
        _separation_xml(separation.left, "left", depth + 1, text)
    text.append(f"{pad}</separation>\n")


def _xml(puzzle: BurrPuzzle, deadline: float | None = None) -> Iterator[str]:
    """The XML text of ``puzzle`` in pieces (a stored solution each, at most), as
    :func:`format_xmpuzzle` joins them."""
    from xml.sax.saxutils import escape  # see _attributes

    colors = "".join(f'  <color red="{r}" green="{g}" blue="{b}"/>\n' for r, g, b in puzzle.colors)
    shapes = "".join(_shape_xml(shape) for shape in puzzle.shapes)
    popup = ' popup=""' if puzzle.comment_popup else ""
    comment = (
        f"<comment{popup}>{escape(puzzle.comment)}</comment>" if puzzle.comment else "<comment/>"
    )
    yield (
        '<?xml version="1.0"?>\n<puzzle version="2">\n'
        f' <gridType type="{puzzle.grid}"/>\n'
        + (f" <colors>\n{colors} </colors>\n" if colors else " <colors/>\n")
        + (f" <shapes>\n{shapes} </shapes>\n" if shapes else " <shapes/>\n")
    )
    if puzzle.problems:
        yield " <problems>\n"
        for problem in puzzle.problems:
            yield from _problem_xml(problem, deadline)
        yield " </problems>\n"
    else:
        yield " <problems/>\n"
    yield f" {comment}\n</puzzle>\n"


def format_xmpuzzle(puzzle: BurrPuzzle) -> str:
    """The XML text of ``puzzle``, laid out as BurrTools writes its files (a solved
    problem keeps its counts and its stored solutions)."""
    return "".join(_xml(puzzle))


def _gzipped(pieces: Iterable[str]) -> bytes:
    """The text ``pieces`` encoded and compressed as one gzip member, as
    ``gzip.compress(text, mtime=0)`` compresses the whole, a piece at a time (the text
    of a file of many solutions is never held whole)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)  # deflate, framed below
    packed = [_GZIP_HEADER]
    crc = size = 0
    for piece in pieces:
        data = piece.encode("utf-8")
        crc = zlib.crc32(data, crc)
        size += len(data)
        packed.append(packer.compress(data))
    packed.append(packer.flush())
    packed.append(struct.pack("<LL", crc, size & 0xFFFFFFFF))
    return b"".join(packed)


#: The header gzip gives a member compressed at level 9 with no time and no name.
_GZIP_HEADER = gzip.compress(b"", mtime=0)[:10]


def write_xmpuzzle(
    puzzle: BurrPuzzle,
    path: str | os.PathLike[str],
    compress: bool = True,
    deadline: float | None = None,
) -> None:
    """Write ``puzzle`` to ``path``, gzip-compressed as BurrTools writes (``compress``
    False: plain XML, which BurrTools reads as well). The file is written whole
    (:func:`excover.atomic.write_whole`): a puzzle saved over its own file is the old one
    or the new one, whatever stops the write. The text is made and compressed a stored
    solution at a time; past ``deadline`` (a ``time.monotonic()`` instant) it stops with
    :class:`~excover.LimitReached` (``"timeout"``) and writes nothing, as Ctrl-C does."""
    pieces = _xml(puzzle, deadline)
    data = _gzipped(pieces) if compress else "".join(pieces).encode("utf-8")
    try:
        write_whole(path, data, follow_links=True)
    except OSError as error:
        raise UsageError(f"cannot write {os.fspath(path)}: {error.strerror}") from None
