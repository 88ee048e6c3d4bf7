"""Design search: a space of candidate designs searched for those worth making.

excover answers every question about one design; this package searches a *space* of
designs for the ones that meet a goal (exactly one solution, at most N, the top K by a
score), whatever the domain: a domain describes its designs as a
:class:`DesignSpace` (packings: :mod:`excover.tiling.designs`), and the engine here
numbers, evaluates, records and ranks them.

The public names::

    search(space, goal, ledger=..., workers=..., timeout=..., progress=...) -> Report
    Goal                 which designs qualify, and how the best come first
    DesignSpace, Design, Outcome   what a domain provides: candidates, designs, outcomes
    Report, Found, Progress        what a search gives back, and tells as it goes
    Multisets, canonical           numbering multisets of pieces; orbits under a group
    Table, Declaration, parse_declaration, read_declaration   declarations (TOML)
    DesignError, DeclarationError, GoalError, LedgerError     the errors

``docs/design.md`` tells the whole story: the design space, the goal, the ledger, the
command line (``excover design``).
"""

from excover.design.errors import DeclarationError, DesignError, GoalError, LedgerError
from excover.design.fields import Declaration, Table, parse_declaration, read_declaration
from excover.design.goal import Goal
from excover.design.multisets import Multisets, canonical
from excover.design.report import Found, Report
from excover.design.search import Progress, search
from excover.design.space import Design, DesignSpace, Outcome

__all__ = [
    "Declaration",
    "DeclarationError",
    "Design",
    "DesignError",
    "DesignSpace",
    "Found",
    "Goal",
    "GoalError",
    "LedgerError",
    "Multisets",
    "Outcome",
    "Progress",
    "Report",
    "Table",
    "canonical",
    "parse_declaration",
    "read_declaration",
    "search",
]
