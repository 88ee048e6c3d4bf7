"""The ``.cmb`` description language of combine: tiling problems in ASCII art.

A program declares patterns, tile lists and problems, then counts, solves or lists the
tilings. Parsing (with lark) checks the whole program, included files too, before any
statement runs::

    from excover.lang import Interpreter, parse, parse_file

    program = parse('''
    pattern domino = {**}
    problem p = constant 8x8 true [domino ~sym]
    count zdd p
    ''')
    Interpreter().run(program)        # prints: p : (ZDD) 12988816 solutions

Errors of every stage are :class:`LangError` (an :class:`~excover.FormatError`), located
at a line and column; :meth:`LangError.report` adds the line and a caret. The language is
described in the README ("The .cmb language") and in :mod:`excover.lang.grammar`.

A program is harmless by default: :class:`Permissions` (given to :func:`parse_file`,
:func:`parse` and :class:`Interpreter`) lifts its restrictions on the files it reads and
writes and on running outside programs (see :mod:`excover.lang.sandbox`).
"""

from typing import TYPE_CHECKING

from excover.lazy import lazy_getattr

if TYPE_CHECKING:
    from excover.lang.errors import LangError, Pos, Source
    from excover.lang.interp import Interpreter
    from excover.lang.parser import Program, parse, parse_file
    from excover.lang.sandbox import Permissions

__all__ = [
    "Interpreter",
    "LangError",
    "Permissions",
    "Pos",
    "Program",
    "Source",
    "parse",
    "parse_file",
]

#: Names loaded on first use: the parser brings in lark, the interpreter the tiling
#: library, and ``excover --help`` needs neither (nor the errors' dataclasses).
_LAZY = {
    "excover.lang.errors": ["LangError", "Pos", "Source"],
    "excover.lang.interp": ["Interpreter"],
    "excover.lang.sandbox": ["Permissions"],
    "excover.lang.parser": ["Program", "parse", "parse_file"],
}


__getattr__ = lazy_getattr(__name__, _LAZY, globals())
