"""A CNF formula built from an exact cover problem, and the DIMACS format both ways
(Knuth's SAT format, the other way to write it, is in :mod:`excover.sat.knuth`).

Variables ``1..n_options`` are the options of the problem (variable ``k`` is option
``k - 1``); any further variables are auxiliary, introduced by the encodings. A model of
the formula, from any solver, decodes into a solution by reading the option variables
alone, so the option variables are also the *projection set*: two models that agree on
them are the same solution, and a projected model counter counts solutions.

The DIMACS text starts with a comment header that keeps everything needed to decode a
model away from Python: the number of option variables, the encoding, and the problem
itself in Knuth's DLX format, one ``c excover`` line per line of it (so
``c excover option k ...`` lists the items of variable k). When auxiliary variables are
present a ``c p show 1 2 ... 0`` line gives the projection set in the form of the model
counting competition, read by projected counters such as ganak and d4::

    c excover CNF of an exact cover problem, written by excover
    c variables 1..3 are the options (variable k is option k-1); 4..5 are auxiliary
    c excover options 3
    c excover amo seqcounter
    c excover items a b | x
    c excover option 1 a x
    ...
    c p show 1 2 3 0
    p cnf 5 9
    1 2 0
    ...
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from excover.atomic import write_whole
from excover.errors import FormatError, UsageError
from excover.problem import Problem
from excover.sat.header import ProblemLines, problem_comments
from excover.sat.pool import Clause

__all__ = ["CNF"]

_TAG = "c excover "


@dataclass(eq=True)
class CNF:
    """A formula in conjunctive normal form whose first ``n_options`` variables are the
    options of an exact cover problem.

    ``clauses`` are lists of non-zero literals over variables ``1..n_vars``; ``amo`` names
    the at-most-one encoding that wrote them (None when unknown); ``problem_text`` is the
    problem in Knuth's DLX format when known (None for a formula read from a DIMACS file
    without excover's header, or for a problem without primary items).
    """

    n_vars: int
    clauses: list[Clause]
    n_options: int
    amo: str | None = None
    problem_text: str | None = field(default=None, repr=False)
    names: tuple[str, ...] | None = field(default=None, repr=False)

    @property
    def projection(self) -> range:
        """The option variables: the projection set of the formula."""
        return range(1, self.n_options + 1)

    @property
    def n_clauses(self) -> int:
        """The number of clauses."""
        return len(self.clauses)

    def problem(self) -> Problem | None:
        """The problem this formula encodes, rebuilt from its DLX text (None if unknown),
        as data; :meth:`excover.ExactCover.from_cnf` rebuilds it as a problem to solve."""
        if self.problem_text is None:
            return None
        from excover.formats.dlx import parse_dlx

        return parse_dlx(self.problem_text, "<the CNF's header>", Problem)

    def decode(self, model: Iterable[int]) -> list[int]:
        """The options chosen by a model (signed literals; missing variables are false),
        as sorted option indices. The result is not checked: see
        :func:`excover.sat.solve.checked`."""
        n = self.n_options
        return sorted({literal - 1 for literal in model if 0 < literal <= n})

    # ----- DIMACS -----

    def to_dimacs(self) -> str:
        """The formula as DIMACS CNF text, with excover's comment header."""
        extra = self.n_vars - self.n_options
        lines = ["c excover CNF of an exact cover problem, written by excover"]
        span = f"1..{self.n_options}" if self.n_options else "none"
        aux = f"{self.n_options + 1}..{self.n_vars} are auxiliary" if extra else "no others"
        lines.append(f"c variables {span} are the options (variable k is option k-1); {aux}")
        lines.append(f"{_TAG}options {self.n_options}")
        if self.amo is not None:
            lines.append(f"{_TAG}amo {self.amo}")
        if self.problem_text is not None:
            lines += problem_comments(self.problem_text, _TAG)
        if extra:
            lines.append(f"c p show {' '.join(map(str, self.projection))} 0")
        lines.append(f"p cnf {self.n_vars} {len(self.clauses)}")
        lines += [" ".join(map(str, [*clause, 0])) for clause in self.clauses]
        return "\n".join(lines) + "\n"

    def write_dimacs(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dimacs` to the file ``path``."""
        self.write(path, self.to_dimacs())

    def write(self, path: str | os.PathLike[str], text: str) -> None:
        """Write ``text`` (this formula in some format) to the file ``path`` (whole:
        :func:`excover.atomic.write_whole`)."""
        if not isinstance(path, str | os.PathLike):
            raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
        write_whole(path, text, newline="\n", follow_links=True)

    @classmethod
    def from_dimacs(cls, text: str, source: str = "<string>") -> CNF:
        """A formula from DIMACS CNF text. With excover's header the option variables and
        the problem come back; without it every variable counts as an option."""
        return _DimacsReader(source).read(text)

    @classmethod
    def read_dimacs(cls, path: str | os.PathLike[str]) -> CNF:
        """A formula from a DIMACS CNF file (UTF-8); errors name the file and line."""
        from excover.formats.text import read_text

        return cls.from_dimacs(*read_text(path))

    # ----- Knuth's SAT format (SAT13 and his other solvers): see excover.sat.knuth -----

    def knuth_names(self) -> list[str]:
        """The name of each variable in Knuth's format (entry ``k - 1`` for variable k)."""
        from excover.sat.knuth import knuth_names

        if self.names is not None:
            return list(self.names)
        return knuth_names(self.n_vars, self.n_options, self.problem_text)

    def to_knuth(self) -> str:
        """The formula in Knuth's SAT format, with excover's header and names."""
        from excover.sat.knuth import format_knuth

        return format_knuth(self)

    def write_knuth(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_knuth` to the file ``path``."""
        self.write(path, self.to_knuth())

    @classmethod
    def from_knuth(cls, text: str, source: str = "<string>") -> CNF:
        """A formula from text in Knuth's SAT format. With excover's header the option
        variables and the problem come back; without it every variable is an option,
        numbered in order of first appearance, and :attr:`names` keeps the names."""
        from excover.sat.knuth import parse_knuth

        return parse_knuth(text, source, cls)

    @classmethod
    def read_knuth(cls, path: str | os.PathLike[str]) -> CNF:
        """A formula from a file in Knuth's SAT format; errors name the file, the line
        and the literal."""
        from excover.formats.text import read_text

        return cls.from_knuth(*read_text(path))

    def knuth_model(self, answer: str) -> list[int] | None:
        """The model in a Knuth solver's answer (SAT13's stdout: literals such as
        ``L.3 ~_9``, or ``~`` when unsatisfiable) as signed variables, or None."""
        from excover.sat.knuth import read_model

        return read_model(self, answer)


class _DimacsReader:
    """One pass over DIMACS text: header comments, the ``p cnf`` line, the clauses."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.n_options: int | None = None
        self.amo: str | None = None
        self.problem = ProblemLines(source)
        self.header: tuple[int, int] | None = None
        self.clauses: list[Clause] = []
        self.pending: Clause = []

    def fail(self, message: str, line: int | None) -> FormatError:
        return FormatError(message, source=self.source, line=line)

    def read(self, text: str) -> CNF:
        number = 0
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("%"):  # the end marker of some old benchmark files
                break
            if stripped.startswith("c"):
                self.comment(stripped, number)
            elif stripped.startswith("p"):
                self.problem_line(stripped, number)
            elif stripped:
                self.clause_line(stripped, number)
        return self.finish(number)

    def comment(self, line: str, number: int) -> None:
        if not line.startswith(_TAG):
            return
        key, _, rest = line[len(_TAG) :].partition(" ")
        if key == "options":
            try:
                self.n_options = int(rest)
            except ValueError:
                raise self.fail(f"bad number of options {rest!r}", number) from None
        elif key == "amo":
            self.amo = rest
        else:
            self.problem.take(key, rest, number)

    def problem_line(self, line: str, number: int) -> None:
        fields = line.split()
        if self.header is not None:
            raise self.fail("a second 'p' line", number)
        if len(fields) != 4 or fields[1] != "cnf" or not all(f.isdigit() for f in fields[2:]):
            raise self.fail(f"expected 'p cnf VARIABLES CLAUSES', not {line!r}", number)
        self.header = (int(fields[2]), int(fields[3]))

    def clause_line(self, line: str, number: int) -> None:
        if self.header is None:
            raise self.fail("a clause before the 'p cnf' line", number)
        n_vars = self.header[0]
        for token in line.split():
            try:
                literal = int(token)
            except ValueError:
                raise self.fail(f"bad literal {token!r}", number) from None
            if literal == 0:
                self.clauses.append(self.pending)
                self.pending = []
            elif abs(literal) > n_vars:
                raise self.fail(f"literal {literal} out of range (p cnf says {n_vars})", number)
            else:
                self.pending.append(literal)

    def finish(self, number: int) -> CNF:
        if self.header is None:
            raise self.fail("no 'p cnf' line", number)
        if self.pending:
            raise self.fail("the last clause is not ended by 0", number)
        n_vars, n_clauses = self.header
        if len(self.clauses) != n_clauses:
            raise self.fail(
                f"'p cnf' announces {n_clauses} clauses, found {len(self.clauses)}", None
            )
        n_options = n_vars if self.n_options is None else self.n_options
        if not 0 <= n_options <= n_vars:
            raise self.fail(f"{n_options} options but only {n_vars} variables", number)
        return CNF(n_vars, self.clauses, n_options, self.amo, self.problem.text(n_options))
