"""The SAT back end: exact cover problems as CNF formulas, solved by real SAT solvers.

``to_cnf`` writes a problem as clauses over one variable per option (plus the auxiliary
variables of the chosen at-most-one encoding), :class:`CNF` holds the formula and reads
and writes DIMACS, and ``first``, ``solutions`` and ``count`` solve it with a PySAT
solver, an external solver command, or the ganak model counter. The methods
``ExactCover.to_cnf``, ``write_dimacs`` and ``method="sat"`` lead here.
"""

from excover.sat.amo import AMO_ENCODINGS
from excover.sat.cnf import CNF
from excover.sat.encode import to_cnf
from excover.sat.solve import DEFAULT_SOLVER, checked, count, first, solutions

__all__ = [
    "AMO_ENCODINGS",
    "CNF",
    "DEFAULT_SOLVER",
    "checked",
    "count",
    "first",
    "solutions",
    "to_cnf",
]
