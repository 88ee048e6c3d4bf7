"""Design search: a space of candidate designs searched for those worth making.

excover answers every question about one design; this package searches a *space* of
designs for the ones that meet a goal (exactly one solution, at most N, the top K by a
score), whatever the domain: a domain describes its designs as a
:class:`DesignSpace` (packings: :mod:`excover.tiling.designs`), and the engine here
numbers, evaluates, records and ranks them.

The public names::

    search(space, goal, ledger=..., workers=..., executor=..., timeout=..., progress=...)
    Goal                 which designs qualify, and how the best come first
    DesignSpace, Design, Evaluation   what a domain provides: candidates, designs, evaluations
    Report, Found, SearchProgress  what a search gives back, and tells as it goes
    Multisets, canonical           numbering multisets of pieces; orbits under a group
    Table, Declaration, parse_declaration, read_declaration   declarations (TOML)
    DesignError, DeclarationError, GoalError, LedgerError     the errors

``docs/design.md`` tells the whole story: the design space, the goal, the ledger, the
command line (``excover design``).
"""

from excover.lazy import lazy_dir, lazy_getattr

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from excover.design.errors import DeclarationError, DesignError, GoalError, LedgerError
    from excover.design.fields import Declaration, Table, parse_declaration, read_declaration
    from excover.design.goal import Goal, Score
    from excover.design.multisets import Multisets, canonical
    from excover.design.report import Found, Report
    from excover.design.searching import SearchProgress, search
    from excover.design.space import Design, DesignSpace, Evaluation

__all__ = [
    "Declaration",
    "DeclarationError",
    "Design",
    "DesignError",
    "DesignSpace",
    "Evaluation",
    "Found",
    "Goal",
    "GoalError",
    "LedgerError",
    "Multisets",
    "Report",
    "Score",
    "SearchProgress",
    "Table",
    "canonical",
    "parse_declaration",
    "read_declaration",
    "search",
]

#: The public names, imported on first use (so that building the command's parser,
#: which imports :mod:`excover.design.cli`, costs no ledger, pool or search), by the
#: module each lives in. No module is named as a public name (a module imported is an
#: attribute of its package, and would hide the name).
_LAZY = {
    "excover.design.errors": ["DeclarationError", "DesignError", "GoalError", "LedgerError"],
    "excover.design.fields": ["Declaration", "Table", "parse_declaration", "read_declaration"],
    "excover.design.goal": ["Goal", "Score"],
    "excover.design.multisets": ["Multisets", "canonical"],
    "excover.design.report": ["Found", "Report"],
    "excover.design.searching": ["SearchProgress", "search"],
    "excover.design.space": ["Design", "DesignSpace", "Evaluation"],
}

__getattr__ = lazy_getattr(__name__, _LAZY, globals())
__dir__ = lazy_dir(_LAZY, globals())
