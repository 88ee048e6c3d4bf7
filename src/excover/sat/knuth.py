"""Knuth's SAT format, both ways: the input of SAT13 and his other SAT solvers.

The rules, as SAT13's input routine applies them (``sat13.w``, "Input the clause"):

- one clause a line; literals are separated by spaces (only spaces: a tab, or any other
  character outside ASCII 32..126, is an error);
- a literal is a variable name, optionally preceded by ``~`` (negative); a name is one to
  eight characters from ``!`` to ``}`` (ASCII 33..125) and does not begin with ``~``;
- a ``~`` standing alone makes its line always true, so the line is ignored from there
  on; this is how a comment line works (one that begins with ``~ ``);
- a literal repeated in a clause counts once, and a clause holding a literal and its
  negation is always true, ignored (SAT13 says so on stderr); a blank line is ignored;
- variables are numbered in their order of first appearance.

A formula written by excover names its variables after the problem (see
:func:`knuth_names`) and starts with a header of ``~ excover`` comment lines, the same as
the DIMACS one: the number of variables and of options, the encoding, and the problem in
Knuth's DLX format. Read back, such a file gives the same :class:`~excover.sat.CNF`; a
file without that header reads as a formula whose every variable is an option, its
names kept in :attr:`CNF.names`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from excover.errors import FormatError, UsageError
from excover.sat.header import ProblemLines, problem_comments

if TYPE_CHECKING:
    from excover.sat.cnf import CNF
    from excover.sat.pool import Clause

__all__ = [
    "FALSE",
    "MAX_VARIABLES",
    "NAME_LIMIT",
    "format_knuth",
    "knuth_names",
    "parse_knuth",
    "read_model",
]

#: The longest variable name SAT13 reads (its names are held in one 8-byte word).
NAME_LIMIT = 8
#: The most variables excover's names can tell apart (``_9999999``).
MAX_VARIABLES = 10 ** (NAME_LIMIT - 1) - 1
#: The name of the constant false in excover's files: a clause that is empty in the
#: formula is written as the line ``_0`` (Knuth's format has no empty clause: a blank
#: line is ignored), followed once by ``~_0`` so that Knuth's solvers see no model.
FALSE = "_0"

_TAG = "~ excover "
_FIRST, _LAST = "!", "}"  # the characters of a name


def knuth_names(n_vars: int, n_options: int, problem_text: str | None) -> list[str]:
    """The names excover gives to variables ``1..n_vars`` (entry ``k - 1`` for variable k).

    Option variable k is ``STEM.k``, where STEM is the first item of its option (its
    color dropped, characters outside ``!``..``}`` dropped, ``o`` if nothing is left),
    cut so that the name has at most eight characters; auxiliary variable k is ``_k``.
    The number after the last ``.`` (or the ``_``) is the DIMACS variable, so the names
    are unique, and a tile's placements read ``L.3``, ``L.4``, ... in a tiling.
    """
    naming = _Naming(n_vars, n_options, problem_text)
    return [naming.name(k) for k in range(1, n_vars + 1)]


class _Naming:
    """excover's names of one formula's variables, both ways, without listing them all."""

    def __init__(self, n_vars: int, n_options: int, problem_text: str | None) -> None:
        digits = len(str(n_vars))
        if digits + 1 > NAME_LIMIT:
            raise UsageError(
                f"{n_vars} variables are too many for Knuth's {NAME_LIMIT}-character names "
                f"(at most {MAX_VARIABLES})"
            )
        self.room = NAME_LIMIT - 1 - digits
        self.n_vars, self.n_options = n_vars, n_options
        self.lines = problem_text.splitlines()[1:] if problem_text is not None else []

    def name(self, k: int) -> str:
        """The name of variable ``k`` (1..n_vars)."""
        if k > self.n_options:
            return f"_{k}"
        line = self.lines[k - 1] if k <= len(self.lines) else ""
        first = line.split(maxsplit=1)[0] if line.strip() else ""
        stem = "".join(c for c in first.partition(":")[0] if _FIRST <= c <= _LAST) or "o"
        return f"{stem[: self.room]}.{k}"

    def number(self, name: str) -> int | None:
        """The variable named ``name`` (0 for the constant false), None if none is."""
        if name == FALSE:
            return 0
        _, dot, digits = name.rpartition(".") if "." in name else ("", "_", name[1:])
        if not (digits.isdigit() and digits[0] != "0") or (dot == "_" and name[0] != "_"):
            return None
        k = int(digits)
        return k if 1 <= k <= self.n_vars and self.name(k) == name else None


def format_knuth(cnf: CNF) -> str:
    """The formula in Knuth's SAT format: excover's header and names, or the formula's
    own names (:attr:`CNF.names`) when it was read from a file without the header."""
    if cnf.names is not None:
        names, lines = list(cnf.names), []
    else:
        names = knuth_names(cnf.n_vars, cnf.n_options, cnf.problem_text)
        lines = _header(cnf)
    empty = False
    for clause in cnf.clauses:
        if not clause:
            empty = True
        lines.append(" ".join(_literal(names, literal) for literal in clause) or FALSE)
    if empty:
        lines.append("~" + FALSE)
    return "\n".join(lines) + "\n"


def _literal(names: list[str], literal: int) -> str:
    return names[literal - 1] if literal > 0 else "~" + names[-literal - 1]


def _header(cnf: CNF) -> list[str]:
    lines = [
        "~ excover CNF of an exact cover problem, written by excover in Knuth's SAT format",
        "~ names: option variable k is STEM.k (STEM from its first item), auxiliary "
        f"variable k is _k, {FALSE} is false",
        f"{_TAG}variables {cnf.n_vars}",
        f"{_TAG}options {cnf.n_options}",
    ]
    if cnf.amo is not None:
        lines.append(f"{_TAG}amo {cnf.amo}")
    if cnf.problem_text is not None:
        lines += problem_comments(cnf.problem_text, _TAG)
    return lines


def parse_knuth(text: str, source: str, cnf_class: type[CNF]) -> CNF:
    """A formula (of class ``cnf_class``) from text in Knuth's SAT format; errors name the
    line and the literal."""
    return _KnuthReader(source, cnf_class).read(text)


def read_model(cnf: CNF, output: str, source: str = "<solver>") -> list[int] | None:
    """The model in a Knuth solver's answer (``x4 ~x2 x3 ~x1``, SAT13's last stdout
    line), as signed DIMACS literals of ``cnf``; None when the answer is ``~``
    (unsatisfiable). A name the formula does not have is a :class:`FormatError`."""
    tokens = output.split()
    if tokens == ["~"]:
        return None
    number = {name: k for k, name in enumerate(cnf.knuth_names(), 1)}
    model = []
    for token in tokens:
        name = token.removeprefix("~")
        if name == FALSE and cnf.names is None:
            continue
        if name not in number:
            raise FormatError(
                f"the answer names {name!r}, not a variable of the formula", source=source
            )
        model.append(-number[name] if token.startswith("~") else number[name])
    return model


class _KnuthReader:
    """One pass over the lines: excover's header, then clauses of named literals, whose
    names become numbers at the end (by the header's naming, or in order of appearance)."""

    def __init__(self, source: str, cnf_class: type[CNF]) -> None:
        self.source = source
        self.cnf_class = cnf_class
        self.fields: dict[str, str] = {}
        self.problem = ProblemLines(source)
        self.order: dict[str, int] = {}  # name -> order of first appearance
        self.clauses: list[tuple[int, list[tuple[str, bool]]]] = []  # (line, literals)

    def fail(self, message: str, line: int | None) -> FormatError:
        return FormatError(message, source=self.source, line=line)

    def read(self, text: str) -> CNF:
        for number, line in enumerate(text.split("\n"), start=1):
            line = line.removesuffix("\r")
            if line.startswith(_TAG):
                self.header(line[len(_TAG) :], number)
            else:
                literals = self.clause(line, number)
                if literals is not None:
                    self.clauses.append((number, literals))
        return self.finish()

    def header(self, line: str, number: int) -> None:
        key, _, rest = line.partition(" ")
        if self.clauses:
            raise self.fail(f"an '{_TAG}{key}' line after the first clause", number)
        if self.problem.take(key, rest, number):
            return
        if key in ("variables", "options"):
            if not rest.isdigit():
                raise self.fail(f"bad number of {key} {rest!r}", number)
            self.fields[key] = rest
        elif key == "amo":
            self.fields[key] = rest

    def clause(self, line: str, number: int) -> list[tuple[str, bool]] | None:
        """The literals of a clause line as (name, negative), SAT13's way; None for a
        line that is always true (a comment, or a literal with its negation)."""
        literals: dict[str, bool] = {}
        for column, token in _tokens(line):
            if token == "~":  # the rest of the line is ignored
                return None
            bad = next((i for i, c in enumerate(token) if not " " < c <= "~"), None)
            if bad is not None:
                raise self.fail(
                    f"character {token[bad]!r} in literal {token!r} (column {column + bad}): "
                    "Knuth's format allows only spaces and the characters '!' to '~'",
                    number,
                )
            negative = token.startswith("~")
            name = token[1:] if negative else token
            self.check_name(name, token, number)
            self.order.setdefault(name, len(self.order))
            if literals.setdefault(name, negative) != negative:
                always_true = True
                literals.clear()
                break
        else:
            always_true = False
        if always_true or not literals:  # true, or blank (SAT13 ignores both)
            return None
        return list(literals.items())

    def check_name(self, name: str, token: str, number: int) -> None:
        if name.startswith("~"):
            raise self.fail(f"literal {token!r}: a name does not begin with '~'", number)
        if len(name) > NAME_LIMIT:
            raise self.fail(
                f"literal {token!r}: a name has at most {NAME_LIMIT} characters", number
            )
        if "~" in name:
            raise self.fail(
                f"literal {token!r}: a name is made of the characters '!' to '}}'", number
            )

    def finish(self) -> CNF:
        if "options" not in self.fields:  # names in order of first appearance
            names = tuple(self.order)
            number = {name: k for k, name in enumerate(names, 1)}
            clauses = [self.numbered(literals, number.get, line) for line, literals in self.clauses]
            kept = [clause for clause in clauses if clause is not None]
            return self.cnf_class(len(names), kept, len(names), names=names)
        n_options = int(self.fields["options"])
        n_vars = int(self.fields.get("variables", n_options))
        if not n_options <= n_vars <= MAX_VARIABLES:
            raise self.fail(
                f"{n_vars} variables and {n_options} options (excover's names allow "
                f"{n_options} to {MAX_VARIABLES} variables)",
                None,
            )
        text = self.problem.text(n_options)
        naming = _Naming(n_vars, n_options, text)
        clauses = [self.numbered(literals, naming.number, line) for line, literals in self.clauses]
        kept = [clause for clause in clauses if clause is not None]
        return self.cnf_class(n_vars, kept, n_options, self.fields.get("amo"), text)

    def numbered(
        self, literals: list[tuple[str, bool]], number: Callable[[str], int | None], line: int
    ) -> Clause | None:
        """The clause as DIMACS literals; None when it holds ``~_0`` (true)."""
        clause = []
        for name, negative in literals:
            k = number(name)
            if k is None:
                raise self.fail(
                    f"literal {'~' * negative + name!r} is not a variable of this excover "
                    "file (see the names its header gives)",
                    line,
                )
            if k == 0:  # the constant false: dropped from the clause, or the clause true
                if negative:
                    return None
                continue
            clause.append(-k if negative else k)
        return clause


def _tokens(line: str) -> Iterator[tuple[int, str]]:
    """The space-separated tokens of a line with their columns (from 1)."""
    column = 1
    for token in line.split(" "):
        if token:
            yield column, token
        column += len(token) + 1
