"""What a Jupyter notebook shows of excover's objects: small HTML tables and SVG pictures.

IPython shows an object by calling its ``_repr_html_`` (or ``_repr_svg_``) when it has
one. The classes that have one (a problem, a list of solutions, the statistics of a
search, a count and how it was made, a ZDD family) call the functions here, so that
each class's module holds a three-line method and the rendering lives in one place.
(Tilings, tiles, patterns, nonograms and disassemblies draw themselves: their pictures
are their domain's, :mod:`excover.tiling.render` and :mod:`excover.burr.pictures`.)

Three rules hold for every fragment:

- **escaped**: every text that comes from a user (item, color and tile names, a
  route's reason) goes through :func:`html.escape`; item names may be anything
  printable, ``<b>&`` included. The fragments are well-formed XML, so tests parse them.
- **bounded**: at most :data:`ROWS` rows of any table, :data:`NAMES` names in a list,
  :data:`CELL` characters in a cell, then how many more there are; a count of any
  size is shortened past :data:`DIGITS` digits. A problem of a million options shows
  as quickly as one of ten.
- **nothing runs**: a display reads what the object holds (a family's count is a pass
  over its nodes); it never starts a search.

This module sits at the bottom of the package (it imports only :mod:`excover.numbers`):
it reads the objects it draws through the few attributes named in its protocols.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from excover.numbers import abbreviated, grouped

if TYPE_CHECKING:
    from array import array
    from typing import Protocol

    class _Arrays(Protocol):
        @property
        def lo(self) -> array[int]: ...
        @property
        def hi(self) -> array[int]: ...

    class ProblemLike(Protocol):
        """What :func:`problem_html` and :func:`solutions_html` read of a problem."""

        @property
        def primary_items(self) -> tuple[str, ...]: ...
        @property
        def secondary_items(self) -> tuple[str, ...]: ...
        @property
        def color_names(self) -> tuple[str, ...]: ...
        @property
        def n_options(self) -> int: ...
        def option_items(self, option: int) -> list[str]: ...
        def engine_input(self) -> _Arrays: ...
        def declared_symmetries(self) -> list[Any] | None: ...
        def declared_widening(self) -> Any: ...


__all__ = [
    "CELL",
    "DIAGRAM_NODES",
    "DIGITS",
    "MATRIX_ITEMS",
    "NAMES",
    "ROWS",
    "count_text",
    "family_html",
    "problem_html",
    "record_html",
    "solutions_html",
    "zdd_svg",
]

#: The most rows a table shows (options, solutions, members of a family).
ROWS = 8
#: The most names a list of names shows (items, generators' pairs).
NAMES = 24
#: The most characters of one cell (an option's items, a solution's options).
CELL = 160
#: Counts with more digits than this are shown rounded (``3.642e+333``), with their length.
DIGITS = 60
#: A problem with at most this many items shows its rows as a 0/1 matrix; a wider one
#: lists each option's items.
MATRIX_ITEMS = 24
#: The largest ZDD (inner nodes) drawn as a diagram.
DIAGRAM_NODES = 40

_BOX = 'style="font:13px sans-serif;margin:2px 0"'
_CODE = 'style="font-family:monospace"'


def _e(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def _clip(text: str, limit: int = CELL) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis, escaped."""
    return _e(text if len(text) <= limit else text[: limit - 1] + "…")


def count_text(number: int) -> str:
    """A count as a display writes it: with commas (``2,339``), or past :data:`DIGITS`
    digits rounded, with its number of digits (``3.642e+333 (334 digits)``)."""
    text = grouped(number)
    digits = sum(c.isdigit() for c in text)
    if digits <= DIGITS:
        return text
    return f"{abbreviated(number)} ({digits:,} digits)"


def _counted(number: int, noun: str) -> str:
    """``1 option``, ``2,056 options``: a count and its noun, escaped."""
    return f"{count_text(number)} {_e(noun)}{'' if number == 1 else 's'}"


def _value(value: object) -> str:
    """A statistic as text: counts by :func:`count_text`, seconds to four figures."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    if isinstance(value, int):
        return count_text(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _more(shown: int, total: int, noun: str) -> str:
    """``… and 12 more options`` when ``total`` exceeds ``shown``, else nothing."""
    if total <= shown:
        return ""
    return _note(f"… and {count_text(total - shown)} more {_e(noun)}")


def _names(names: Sequence[str]) -> str:
    """At most :data:`NAMES` names, escaped, then how many more."""
    shown = ", ".join(_clip(name, 40) for name in names[:NAMES])
    if len(names) > NAMES:
        shown += f", … ({count_text(len(names) - NAMES)} more)"
    return shown


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], align: str = "left") -> str:
    """A table of cells already escaped, each aligned ``align`` (a notebook's style
    sheet sets its own alignment on every cell: only the cell's own style overrides it)."""
    cell = f' style="text-align:{align};vertical-align:top"'
    top = "".join(f"<th{cell}>{text}</th>" for text in head)
    body = "".join(
        "<tr>" + "".join(f"<td{cell}>{text}</td>" for text in row) + "</tr>" for row in rows
    )
    thead = f"<thead><tr>{top}</tr></thead>" if head else ""
    return f"<table>{thead}<tbody>{body}</tbody></table>"


def _note(text: str) -> str:
    """A line of text (escaped by the caller) under or above a table."""
    return f"<div {_BOX}>{text}</div>"


def _pairs(pairs: Iterable[tuple[str, object]]) -> str:
    """A two-column table of names (escaped here) and values (:func:`_value`)."""
    return _table((), ((f"<b>{_e(name)}</b>", _e(_value(value))) for name, value in pairs))


def _div(kind: str, title: str, *parts: str) -> str:
    """The fragment's frame: a class naming it, a title (escaped by the caller)."""
    body = "".join(parts)
    return f'<div class="excover-{kind}"><div {_BOX}><b>{title}</b></div>{body}</div>'


# ----- a problem -----


def problem_html(problem: ProblemLike, kind: str = "ExactCover") -> str:
    """A problem as a summary and its first rows: the items, primary and secondary,
    the multiplicities that are not 1, the colors, the declared symmetries, then the
    first :data:`ROWS` options, as a 0/1 matrix when there are at most
    :data:`MATRIX_ITEMS` items, else each option's items."""
    primary, secondary = problem.primary_items, problem.secondary_items
    n_options = problem.n_options
    title = (
        f"{_e(kind)}: {_counted(len(primary), 'primary item')}, "
        f"{_counted(len(secondary), 'secondary item')}, {_counted(n_options, 'option')}"
    )
    facts = [("primary items", _names(primary) or "none")]
    if secondary:
        facts.append(("secondary items", _names(secondary)))
    arrays = problem.engine_input()
    bounded = [
        (name, lo, hi)
        for name, lo, hi in zip(primary, arrays.lo, arrays.hi, strict=True)
        if (lo, hi) != (1, 1)
    ]
    if bounded:
        shown = ", ".join(f"{_clip(name, 40)}: {lo}..{hi}" for name, lo, hi in bounded[:NAMES])
        if len(bounded) > NAMES:
            shown += f", … ({count_text(len(bounded) - NAMES)} more)"
        facts.append(("multiplicities", shown))
    if problem.color_names:
        facts.append(("colors", _names(problem.color_names)))
    declared = problem.declared_symmetries()
    if declared is not None:
        facts.append(("declared symmetries", _symmetries(declared, problem.declared_widening())))
    summary = _table((), ((f"<b>{name}</b>", text) for name, text in facts))
    rows = min(ROWS, n_options)
    if not rows:
        options = _note("no options")
    elif len(primary) + len(secondary) <= MATRIX_ITEMS:
        options = _matrix(problem, rows)
    else:
        options = _table(
            ("option", "items"),
            ((str(k), _clip(" ".join(problem.option_items(k)))) for k in range(rows)),
        )
    return _div("problem", title, summary, options, _more(rows, n_options, "options"))


def _matrix(problem: ProblemLike, rows: int) -> str:
    """The first ``rows`` options as rows of the 0/1 matrix, one column per item (a
    colored secondary item shows its color); the secondary columns after a bar."""
    primary, secondary = problem.primary_items, problem.secondary_items
    column = {name: k for k, name in enumerate(primary + secondary)}
    head = [
        "option",
        *(_e(name) for name in primary),
        *(f"<i>{_e(name)}</i>" for name in secondary),
    ]
    body = []
    for k in range(rows):
        cells = [""] * len(column)
        for item in problem.option_items(k):
            name, _, color = item.partition(":")
            cells[column[name]] = _e(color) if color else "1"
        body.append([str(k), *cells])
    table = _table(head, body, "center")
    return table + (_note("secondary items in italics") if secondary else "")


def _symmetries(generators: Sequence[object], widening: object) -> str:
    """The declared generators, each in a few words (at most :data:`ROWS` of them)."""
    parts = [_generator(g) for g in generators[:ROWS]]
    text = _counted(len(generators), "generator")
    if parts:
        text += ": " + "; ".join(parts)
    if len(generators) > ROWS:
        text += f"; … ({len(generators) - ROWS} more)"
    if widening is not None:
        options = getattr(widening, "options", ())
        text += f"; widened on a sub-problem of {count_text(len(options))} options"
    return text


def _generator(generator: object) -> str:
    """One declared generator in a few words: an item mapping by its first pairs, an
    option permutation or an automorphism by how many options it moves."""
    if isinstance(generator, Mapping):
        pairs = [f"{_clip(str(a), 40)}→{_clip(str(b), 40)}" for a, b in generator.items()]
        shown = ", ".join(pairs[:6]) + (", …" if len(pairs) > 6 else "")
        return f"items {shown}" if pairs else "the identity"
    options = getattr(generator, "options", generator)
    if isinstance(options, Iterable):
        moved = sum(1 for k, image in enumerate(options) if int(image) != k)
        return f"moves {count_text(moved)} options"
    return _clip(repr(generator), 60)


# ----- solutions -----


def solutions_html(problem: ProblemLike, solutions: Sequence[Sequence[int]]) -> str:
    """A list of solutions: how many, then the first :data:`ROWS`, each as its option
    numbers and those options' items (one option a line, at most :data:`ROWS` of them)."""
    title = _counted(len(solutions), "solution")
    rows = []
    for number, solution in enumerate(solutions[:ROWS]):
        options = [int(k) for k in solution]
        lines = [_clip(" ".join(problem.option_items(k))) for k in options[:ROWS]]
        if len(options) > ROWS:
            lines.append(f"… ({len(options) - ROWS} more options)")
        rows.append(
            (
                str(number),
                _clip(" ".join(map(str, options))),
                f"<div {_CODE}>" + "<br/>".join(lines) + "</div>",
            )
        )
    table = _table(("#", "options", "their items"), rows) if rows else ""
    return _div("solutions", title, table, _more(len(rows), len(solutions), "solutions"))


# ----- statistics, counts -----


def record_html(
    kind: str,
    title: str,
    facts: Iterable[tuple[str, object]],
    work: Mapping[str, Mapping[str, object]] | None = None,
) -> str:
    """A result as its facts (name, value: a statistics table), under ``title`` (text,
    escaped here); ``work``: what each route did (its seconds, nodes, steps), a table
    of at most :data:`ROWS` routes."""
    parts = [_pairs(facts)]
    if work:
        names = list(work)[:ROWS]
        columns = list(dict.fromkeys(key for name in names for key in work[name]))
        parts.append(_note("what each route did"))
        parts.append(
            _table(
                ("route", *(_e(c) for c in columns)),
                ((_e(name), *(_e(_value(work[name].get(c))) for c in columns)) for name in names),
                "right",
            )
        )
        parts.append(_more(len(names), len(work), "routes"))
    return _div(kind, _e(title), *parts)


# ----- ZDD families -----


def family_html(
    count: int, size: int, members: Iterator[frozenset[int]], diagram: str | None
) -> str:
    """A family of sets: how many sets and ZDD nodes, the first :data:`ROWS` sets (in
    the family's order of iteration) and, for a small ZDD, its diagram beside them."""
    title = f"Family: {_counted(count, 'set')}, {_counted(size, 'node')}"
    shown = [sorted(member) for member in itertools.islice(members, ROWS)]
    rows = [
        (
            "{"
            + _clip(", ".join(map(str, member[:NAMES])) + (", …" if len(member) > NAMES else ""))
            + "}",
        )
        for member in shown
    ]
    table = _table(("first sets" if count > len(shown) else "sets",), rows) if rows else ""
    if not count:
        table = _note("the empty family ∅")
    listing = f"<div>{table}{_more(len(shown), count, 'sets')}</div>"
    if diagram is None:
        return _div("family", title, listing)
    side = '<div style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start">'
    return _div("family", title, side, listing, f"<div>{diagram}</div></div>")


def zdd_svg(root: int, nodes: Sequence[tuple[int, int, int, int]]) -> str:
    """The diagram of a ZDD given its ``root`` and its inner nodes as ``(node, var, lo,
    hi)`` (node numbers: 0 and 1 the terminals ∅ and {∅}): one row per variable, the
    smallest on top, the terminals at the bottom; hi edges solid, lo edges dashed (as
    :meth:`excover.Family.to_dot` draws them). Within a row, nodes in the order a
    depth-first walk from the root meets them, lo edge first."""
    triple = {node: (var, lo, hi) for node, var, lo, hi in nodes}
    seen: dict[int, None] = {}  # in order of meeting
    stack = [root]
    while stack:  # depth first, lo before hi: the order nodes take within their rows
        node = stack.pop()
        if node in seen:
            continue
        seen[node] = None
        if node in triple:
            _, lo, hi = triple[node]
            stack += [hi, lo]
    variables = sorted({triple[node][0] for node in seen if node in triple})
    rows: list[list[int]] = [[] for _ in range(len(variables) + 1)]
    level = {var: k for k, var in enumerate(variables)}
    for node in seen:
        rows[level[triple[node][0]] if node in triple else len(variables)].append(node)
    rows[-1].sort()
    gap, height, radius = 44, 52, 14
    width = gap * max(len(row) for row in rows) + gap
    place: dict[int, tuple[float, float]] = {}
    for k, row in enumerate(rows):
        left = (width - gap * len(row)) / 2 + gap / 2
        for j, node in enumerate(row):
            place[node] = (left + gap * j, radius + 8 + height * k)
    lines, shapes = [], []
    for node in seen:
        x, y = place[node]
        if node not in triple:
            shapes.append(
                f'<rect x="{x - 11:.1f}" y="{y - 11:.1f}" width="22" height="22" '
                f'fill="#eee" stroke="#333"/><text x="{x:.1f}" y="{y + 5:.1f}">{node}</text>'
            )
            continue
        var, lo, hi = triple[node]
        for child, dash, side in ((lo, ' stroke-dasharray="4 3"', -1), (hi, "", 1)):
            cx, cy = place[child]
            # an edge past a row, or beside its twin, bends: lo to the left, hi to the
            # right, by more the more rows it skips, so that it misses the nodes between
            bend = side * 0.4 * (cy - y - height) + (side * 8 if lo == hi else 0)
            mx, my = (x + cx) / 2 + bend, (y + radius + cy - 11) / 2
            lines.append(
                f'<path d="M{x:.1f},{y + radius:.1f} Q{mx:.1f},{my:.1f} {cx:.1f},{cy - 11:.1f}" '
                f'fill="none" stroke="#555"{dash}/>'
            )
        shapes.append(
            f'<circle class="zdd-node" cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="#fff" '
            f'stroke="#333"/><text x="{x:.1f}" y="{y + 5:.1f}">{var}</text>'
        )
    total_height = height * (len(rows) - 1) + 2 * radius + 16
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total_height}" '
        f'viewBox="0 0 {width} {total_height}" font-family="sans-serif" font-size="13" '
        f'text-anchor="middle">' + "".join(lines) + "".join(shapes) + "</svg>"
    )
