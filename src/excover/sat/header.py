"""The exact cover problem a formula carries in its header, for both of its formats.

A formula excover writes (DIMACS, :mod:`excover.sat.cnf`; Knuth's SAT format,
:mod:`excover.sat.knuth`) lists the problem it encodes in comments after a tag of its
format: one ``items`` line, then one ``option K`` line per option, numbered from 1, as in
Knuth's DLX format. :func:`problem_comments` writes them and :class:`ProblemLines` reads
them back, so that :meth:`excover.ExactCover.from_cnf` rebuilds the problem.
"""

from __future__ import annotations

from excover.errors import FormatError

__all__ = ["ProblemLines", "problem_comments"]


def problem_comments(problem_text: str, tag: str) -> list[str]:
    """The header lines that carry ``problem_text`` (the problem in Knuth's DLX format),
    each after ``tag``."""
    lines = problem_text.splitlines()
    return [f"{tag}items {lines[0]}"] + [
        f"{tag}option {k} {line}" for k, line in enumerate(lines[1:], start=1)
    ]


class ProblemLines:
    """The problem's lines as a reader meets them in a header (``items`` first, then the
    options in order), errors located in ``source``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: list[str] = []

    def take(self, key: str, rest: str, number: int) -> bool:
        """Take header line ``number`` (``key`` and the ``rest`` after it) when it is one of
        the problem's; False when it is not."""
        if key == "items":
            self.lines = [rest]
        elif key == "option":
            index, _, items = rest.partition(" ")
            if not self.lines or index != str(len(self.lines)):
                raise FormatError(
                    f"option line {index!r} out of order", source=self.source, line=number
                )
            self.lines.append(items)
        else:
            return False
        return True

    def text(self, n_options: int) -> str | None:
        """The problem in Knuth's DLX format (None when the header carries none), which
        must have the formula's ``n_options`` options."""
        if not self.lines:
            return None
        if len(self.lines) - 1 != n_options:
            raise FormatError(
                f"the header lists {len(self.lines) - 1} options, not {n_options}",
                source=self.source,
            )
        return "\n".join(self.lines) + "\n"
