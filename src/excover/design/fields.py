"""Declarations of design searches: a TOML file a user edits, or the flags of the command
line, read field by field with errors that say where.

A declaration file (read with the standard library's :mod:`tomllib`) names the kind of
design at its top (``kind = "packing"``), the kind's own fields beside it, the goal in a
``[goal]`` table and, optionally, how to run in a ``[run]`` table (workers, ledger, ...):
:data:`excover.design.cli.EXAMPLE` is one, shown by ``excover design --help``.

:class:`Table` reads one table: each field is taken once, with its type and range
checked (:meth:`Table.integer`, :meth:`Table.choice`, ...), and :meth:`Table.done`
refuses the fields nobody took, naming the known ones. Every error is a
:class:`~excover.design.errors.DeclarationError` naming the field, with the file and
line the field was written on (found by :func:`locate`), or as the flag that gave it
when the declaration comes from the command line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from excover.design.errors import DeclarationError, DesignError

__all__ = ["Declaration", "Table", "locate", "parse_declaration", "read_declaration"]

#: A value never given (a field without a default is required).
_REQUIRED: Any = object()

#: The tables of a declaration file besides the kind's own fields.
SECTIONS = ("goal", "run")

_TABLE_LINE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]")
_KEY_LINE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def locate(text: str) -> dict[str, int]:
    """The line (from 1) of each key of a TOML text, as ``key`` at the top and
    ``table.key`` within ``[table]``: enough to point at a field (keys written on one
    line each, as a declaration's are)."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = _TABLE_LINE.match(line)
        if header:
            table = header.group(1)
            lines.setdefault(table, number)
            continue
        key = _KEY_LINE.match(line)
        if key:
            lines.setdefault(f"{table}.{key.group(1)}" if table else key.group(1), number)
    return lines


class Table:
    """The fields of one table of a declaration, read one by one (see the module notes).

    ``values`` are the fields given; ``source`` names where they come from (a file,
    ``<command line>``, ``<api>``); ``lines`` locate them (:func:`locate`); ``prefix`` is
    the table's name in errors (``goal.``); ``flags`` names each field by the flag that
    gives it on the command line (``--pieces``; ``names`` overrides a flag's spelling)."""

    def __init__(
        self,
        values: Mapping[str, Any],
        source: str = "<api>",
        *,
        lines: Mapping[str, int] | None = None,
        prefix: str = "",
        flags: bool = False,
        names: Mapping[str, str] | None = None,
    ) -> None:
        if not isinstance(values, Mapping):
            raise DeclarationError(prefix.rstrip(".") or "declaration", "must be a table")
        self.values = dict(values)
        self.source = source
        self.lines = dict(lines or {})
        self.prefix = prefix
        self.flags = flags
        self.names = dict(names or {})
        self._taken: set[str] = set()

    # ----- naming -----

    def name(self, field: str) -> str:
        """How errors call ``field``: ``pieces``, ``goal.top``, or its flag ``--top``."""
        if self.flags:
            return self.names.get(field, "--" + field.replace("_", "-"))
        return self.prefix + field

    def error(
        self, field: str, message: str, kind: type[DeclarationError] = DeclarationError
    ) -> DeclarationError:
        """The error of ``field`` (of class ``kind``), located where it was written."""
        line = None if self.flags else self.lines.get(self.prefix + field)
        return kind(self.name(field), message, self.source, line)

    # ----- taking fields -----

    def has(self, field: str) -> bool:
        """Whether ``field`` was given."""
        return self.values.get(field) is not None

    def raw(self, field: str, default: Any = _REQUIRED) -> Any:
        """The value of ``field`` as given (``default`` when absent; required when no
        default is given)."""
        self._taken.add(field)
        value = self.values.get(field)
        if value is None:
            if default is _REQUIRED:
                raise self.error(field, "is required")
            return default
        return value

    def integer(
        self, field: str, default: Any = _REQUIRED, *, least: int = 0, most: int | None = None
    ) -> Any:
        """A whole number ``least <= n <= most`` (``default``, which may be None, when
        absent)."""
        span = f">= {least}" if most is None else f"from {least} to {most}"
        return self._checked(
            field,
            default,
            lambda value: (
                not isinstance(value, bool)
                and isinstance(value, int)
                and least <= value
                and (most is None or value <= most)
            ),
            f"a whole number {span}",
        )

    def number(self, field: str, default: Any = _REQUIRED) -> Any:
        """A number >= 0 (seconds)."""
        return self._checked(
            field,
            default,
            lambda value: (
                not isinstance(value, bool) and isinstance(value, int | float) and value >= 0
            ),
            "a number >= 0",
        )

    def boolean(self, field: str, default: bool) -> bool:
        """``true`` or ``false``."""
        return bool(
            self._checked(field, default, lambda value: isinstance(value, bool), "true or false")
        )

    def text(self, field: str, default: Any = _REQUIRED) -> Any:
        """A non-empty string."""
        return self._checked(
            field,
            default,
            lambda value: isinstance(value, str) and bool(value.strip()),
            "a non-empty string",
        )

    def choice(self, field: str, choices: Iterable[str], default: Any = _REQUIRED) -> Any:
        """One of ``choices`` (a string)."""
        known = list(choices)
        return self._checked(
            field, default, lambda value: value in known, f"one of {', '.join(known)}"
        )

    def _checked(self, field: str, default: Any, fits: Callable[[Any], bool], wanted: str) -> Any:
        """Take ``field``: its value when ``fits`` accepts it, else the error "must be
        ``wanted``, not ..."; ``default`` when absent (an error when it is required)."""
        if not self._given(field, default):
            return default
        value = self.values[field]
        if not fits(value):
            raise self.error(field, f"must be {wanted}, not {value!r}")
        return value

    def _given(self, field: str, default: Any) -> bool:
        """Take ``field``: True when it was given, False when absent and ``default``
        stands for it (an error when it is required)."""
        self._taken.add(field)
        if self.values.get(field) is not None:
            return True
        if default is _REQUIRED:
            raise self.error(field, "is required")
        return False

    def done(self) -> None:
        """Refuse the fields given that nobody took, naming those that are known."""
        for field in self.values:
            if field not in self._taken:
                known = ", ".join(sorted(self._taken)) or "none"
                raise self.error(field, f"is not a field here (the fields: {known})")


@dataclass
class Declaration:
    """A design search as declared: the ``kind`` of design, the kind's ``fields``, the
    ``goal`` and the ``run`` settings (each a :class:`Table`), and the ``source`` that
    declared them."""

    kind: str
    fields: Table
    goal: Table
    run: Table
    source: str


def parse_declaration(text: str, source: str = "<string>") -> Declaration:
    """The declaration written in the TOML ``text`` (``source`` names it in errors)."""
    import tomllib

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DesignError(f"{source}: not a TOML declaration: {exc}") from None
    lines = locate(text)
    top = Table(document, source, lines=lines)
    kind = top.text("kind")
    tables = {}
    for section in SECTIONS:
        value = document.get(section, {})
        if not isinstance(value, Mapping):
            raise top.error(section, f"must be a table ([{section}]), not {value!r}")
        tables[section] = Table(value, source, lines=lines, prefix=f"{section}.")
    fields = {key: value for key, value in document.items() if key not in ("kind", *SECTIONS)}
    return Declaration(
        kind, Table(fields, source, lines=lines), tables["goal"], tables["run"], source
    )


def read_declaration(path: str | Path) -> Declaration:
    """The declaration of the TOML file ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise DesignError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise DesignError(f"{path}: not a text file (a TOML declaration is UTF-8)") from None
    return parse_declaration(text, str(path))
