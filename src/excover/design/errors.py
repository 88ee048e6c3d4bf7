"""The errors of a design search: each names what is wrong and where.

:class:`DesignError` is the family (a :class:`~excover.errors.UsageError`, so the command
line reports it with exit status 2). :class:`DeclarationError` names the field of a
declaration at fault, and the file and line when the declaration was read from one
(``run.toml:4: pieces: must be a whole number >= 1, not 'eight'``), or the flag that
gave it on the command line; :class:`GoalError` is one in the goal. :class:`LedgerError`
names the ledger file and what in it cannot be used.
"""

from __future__ import annotations

from excover.errors import UsageError

__all__ = ["DeclarationError", "DesignError", "GoalError", "LedgerError"]


class DesignError(UsageError):
    """A design search was asked for something it cannot do."""


class DeclarationError(DesignError):
    """A field of a design declaration is missing, unknown or has a bad value.

    ``field`` is the field's name (``goal.top`` for one of a table), ``source`` the file
    (or ``<command line>``, ``<api>``) and ``line`` its line there when known."""

    def __init__(
        self, field: str, message: str, source: str | None = None, line: int | None = None
    ) -> None:
        self.field = field
        self.message = message
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(f"{where}{field}: {message}")


class GoalError(DeclarationError):
    """A field of the goal is bad (or names a score the design space does not have)."""


class LedgerError(DesignError):
    """A ledger file cannot be used: damaged, of another search, or in use."""
