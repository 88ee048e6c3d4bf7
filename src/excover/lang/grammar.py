"""The grammar of ``.cmb`` programs, for lark's LALR(1) parser.

Lexical rules (combine's): blanks are free, ``#`` starts a comment to the end of the
line, identifiers are a letter then letters, digits and ``_``; keywords are reserved and
case-sensitive; ``INTxINT`` is one token (a size or a cell); strings are ``"..."`` with
``\\"`` and ``\\\\``, and may span lines; ``{...}`` is an ASCII-art pattern. Extensions:
``hex{...}`` and ``triangle{...}`` patterns (``hex`` and ``triangle`` stay usable as
names), 3D patterns of BurrTools' solid grids (``pattern3 p = sphere [...]``: the grid's
name, checked by the parser, stays usable as a name too), and options ``~word`` or
``~N``/``~LO..HI``/``~LO..`` checked by the parser.

Precedence, as in combine: the infix operators ``- && || ^`` share one level and
associate to the left; they bind tighter than the prefix forms ``union inter diff xor
apply crop``, whose last operand extends as far to the right as it can. So
``a - union b c - d`` is ``a - (union b (c - d))``. Extension: tile lists join with
``+``, lists written out and names of tile lists (``pentominoes + [O4 ~one]``).

The terminals of long texts (strings and drawings) are written as runs of one character
class between their escapes or comments, never as a group repeated once a character:
Python's ``re`` keeps a backtracking mark for each repetition of a group, some 250
bytes a character, where a run of a class takes none.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark

__all__ = ["EXPRESSION_STARTS", "GRAMMAR", "KEYWORDS", "STATEMENT_KEYWORDS", "parser"]

#: Reserved words, by the terminal lark gives them.
KEYWORDS = {
    word.upper(): word
    for word in [
        "pattern",
        "pattern3",
        "tiles",
        "tiles3",
        "problem",
        "problem3",
        "constant",
        "false",
        "true",
        "set",
        "shift",
        "crop",
        "resize",
        "apply",
        "exit",
        "include",
        "assert",
        "diff",
        "union",
        "xor",
        "inter",
        "ascii",
        "svg",
        "print",
        "all",
        "all3",
        "solve",
        "solve3",
        "count",
        "count3",
        "dimacs",
        "debug",
        "timing",
        "on",
        "off",
        "dlx",
        "zdd",
        "sat",
        "Id",
        "Rot90",
        "Rot180",
        "Rot270",
        "VertRefl",
        "HorizRefl",
        "Diag1Refl",
        "Diag2Refl",
    ]
}

#: The keywords that start a statement.
STATEMENT_KEYWORDS = frozenset(
    [
        "PATTERN",
        "PATTERN3",
        "TILES",
        "TILES3",
        "PROBLEM",
        "PROBLEM3",
        "ASSERT",
        "PRINT",
        "SOLVE",
        "SOLVE3",
        "ALL",
        "ALL3",
        "COUNT",
        "COUNT3",
        "DIMACS",
        "DEBUG",
        "TIMING",
        "EXIT",
        "INCLUDE",
    ]
)

#: The tokens that start an expression.
EXPRESSION_STARTS = frozenset(
    [
        "LPAR",
        "NAME",
        "ART",
        "HEXART",
        "TRIART",
        "CONSTANT",
        "SET",
        "SHIFT",
        "RESIZE",
        "UNION",
        "INTER",
        "DIFF",
        "XOR",
        "APPLY",
        "CROP",
    ]
)

_KEYWORD_TERMINALS = "\n".join(f'{name}: "{word}"' for name, word in KEYWORDS.items())

GRAMMAR = (
    r"""
start: _statement*

_statement: pattern | pattern3 | tiles | problem | assert_ | print_ | solve | all_
          | count | dimacs | flag | exit_ | include

pattern: PATTERN NAME EQUAL expr
pattern3: PATTERN3 NAME EQUAL [NAME] LSQB [expr (COMMA expr)*] RSQB
tiles: (TILES | TILES3) NAME EQUAL tile_sum
problem: (PROBLEM | PROBLEM3) NAME EQUAL expr tile_sum TILDE*
assert_: ASSERT (bool | expr EQUAL expr)
print_: PRINT NAME
solve: (SOLVE | SOLVE3) algo NAME (ASCII | SVG STRING)
all_: (ALL | ALL3) algo NAME TILDE*
count: (COUNT | COUNT3) algo NAME TILDE*
dimacs: DIMACS NAME STRING
flag: (DEBUG | TIMING) (ON | OFF)
exit_: EXIT
include: INCLUDE STRING

algo: DLX | ZDD | SAT STRING | NAME

tile_sum: (tile_list | NAME) (PLUS (tile_list | NAME))*
tile_list: LSQB [tile (COMMA tile)*] RSQB
tile: expr TILDE*

?expr: chain
     | prefix
     | chain infix prefix -> binary

?chain: atom
      | chain infix atom -> binary

!infix: MINUS | AMPAMP | BARBAR | HAT

prefix: (UNION | INTER | DIFF | XOR) expr expr -> prefix_binary
      | APPLY isometry expr -> apply
      | CROP DIM DIM expr -> crop

?atom: LPAR expr RPAR -> paren
     | NAME -> var
     | ART -> art
     | HEXART -> art
     | TRIART -> art
     | CONSTANT DIM bool -> constant
     | SET expr DIM bool -> set_cell
     | SHIFT expr DIM -> shift
     | RESIZE expr DIM -> resize

isometry: ID | ROT90 | ROT180 | ROT270 | VERTREFL | HORIZREFL | DIAG1REFL | DIAG2REFL
bool: TRUE | FALSE

NAME: /[A-Za-z][A-Za-z0-9_]*/
DIM.2: /[0-9]+x[0-9]+/
STRING: /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/
ART: /\{[^}#]*(?:#[^\n]*[^}#]*)*\}/
HEXART.3: /hex[ \t]*\{[^}#]*(?:#[^\n]*[^}#]*)*\}/
TRIART.3: /triangle[ \t]*\{[^}#]*(?:#[^\n]*[^}#]*)*\}/
TILDE: /~[A-Za-z0-9_.]+/
EQUAL: "="
LSQB: "["
RSQB: "]"
LPAR: "("
RPAR: ")"
COMMA: ","
MINUS: "-"
PLUS: "+"
AMPAMP: "&&"
BARBAR: "||"
HAT: "^"
COMMENT: /#[^\n]*/
%ignore COMMENT
%ignore /[ \t\r\n\f]+/
"""
    + _KEYWORD_TERMINALS
    + "\n"
)


@functools.cache
def parser() -> Lark:
    """The LALR(1) parser, built on first use (lark is imported only then)."""
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr", lexer="basic", propagate_positions=True)
