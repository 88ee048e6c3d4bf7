"""The shared flags: each spelt, typed and explained once, taken or refused by every
command that searches.

Each subcommand builds its parser from the helpers here (``add_input``, ``add_method``,
``add_limits``, ``add_workers``, ``add_progress``, ``add_json``, ``add_svg``,
``add_flag``) and adds only its own flags. The search flags are one table,
:data:`SEARCH_FLAGS`: the same flag has the same spelling, type, default and meaning on
every command that searches, which takes it or refuses it with its reason
(:func:`add_refused`: still parsed, then refused before the command runs). A flag that
does not apply to the combination given is refused by :func:`refuse` (exit status 2,
saying why), never ignored.
"""

from __future__ import annotations

import argparse

from excover.cli import argtypes
from excover.documents import SCHEMA_VERSION
from excover.errors import UsageError
from excover.names import ENGINES as ENGINES
from excover.names import METHOD_ALIASES
from excover.names import METHODS as METHODS

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: A parser or an argument group: either takes the shared flags.
Container = argparse._ActionsContainer


class Flag:
    """A search flag shared by every command that searches: how it is spelt, its
    argparse keywords (type, metavar, action), and its ``meaning``, the sentence every
    command's help starts with (a command adds only what is its own after a ``;``)."""

    def __init__(self, options: tuple[str, ...], meaning: str, **keywords: Any) -> None:
        self.options = options
        self.meaning = meaning
        self.keywords = keywords

    @property
    def spelling(self) -> list[str]:
        """Every option string of the flag (``--progress`` and ``--no-progress``)."""
        if self.keywords.get("action") is argparse.BooleanOptionalAction:
            return [*self.options, *(f"--no-{option[2:]}" for option in self.options)]
        return list(self.options)


#: The search flags: the same spelling and meaning on every command that searches
#: (``count``, ``solve``, ``estimate``, ``queens``, ``sudoku``, ``nonogram``, ``run``),
#: which takes each of them or refuses it with its reason (:func:`add_refused`).
#: tests/test_cli_flags.py walks every parser against this table.
SEARCH_FLAGS: dict[str, Flag] = {
    "method": Flag(
        ("--method",),
        "the solving method; auto (the default, as in the API) takes the one that suits the "
        "problem and stderr names the one that ran",
        default="auto",
    ),
    "engine": Flag(
        ("--engine",),
        "the engine of a compiled search (--method search or auto): dlx = dancing links "
        "(Knuth's statistics exactly); bits = the bit-parallel engine (several times faster, "
        "the same search tree); cells = dancing cells (sparse sets; no multiplicities); auto "
        "= the one that suits the problem (the default)",
        choices=ENGINES,
    ),
    "workers": Flag(
        ("--workers",),
        "count on N processes, the problem cut into parts whose counts add up (the total is "
        "exact, the same for any N); at most 8 per CPU of the machine",
        type=argtypes.workers_count,
        metavar="N",
    ),
    "stats": Flag(
        ("--stats",),
        "print the statistics of the run on stderr: solutions, nodes, updates, time, "
        "algorithm, engine, heuristic, search (complete or what stopped it), and per method "
        "amo, group order, workers, subproblems, puzzles, done; nodes and updates are "
        "followed by their definition in the engine or route that ran (every figure: "
        "docs/cli.md, Statistics)",
        action="store_true",
    ),
    "up_to_symmetry": Flag(
        ("--up-to-symmetry",),
        "take solutions that a symmetry of the problem maps onto each other as one (its "
        "automorphism group, found automatically; needs excover[symmetry])",
        action="store_true",
    ),
    "break_symmetry": Flag(
        ("--break-symmetry",),
        "count (or list) every solution by a symmetry-broken search: one branch per class "
        "at the top of the tree, the rest by the symmetries. A count of every solution does "
        "so by default under a group known without a search (a BurrTools puzzle's, the "
        "queens'); --break-symmetry finds the automorphism group first (needs "
        "excover[symmetry]), --no-break-symmetry never breaks it; the count is the same",
        action=argparse.BooleanOptionalAction,
    ),
    "timeout": Flag(
        ("--timeout",),
        "stop once this many seconds (wall clock) have passed since the command started, the "
        "result so far printed and marked partial (exit status 1)",
        type=argtypes.seconds,
        metavar="SECONDS",
    ),
    "limit": Flag(
        ("--limit",),
        "stop after N solutions: a listing prints at most N (exit status 0), a count stops "
        "at N and is marked partial (exit status 1)",
        type=argtypes.positive_int,
        metavar="N",
    ),
    "max_nodes": Flag(
        ("--max-nodes",),
        "stop after N nodes of the search tree, the result so far printed and marked partial "
        "(exit status 1)",
        type=argtypes.non_negative_int,
        metavar="N",
    ),
    "progress": Flag(
        ("--progress",),
        "show a progress bar (tqdm) on stderr once a run has lasted a second, or never "
        "(default: only when stderr is a terminal)",
        action=argparse.BooleanOptionalAction,
    ),
    "preprocess": Flag(
        ("--preprocess",),
        "shrink the problem before the search, as Knuth's DLX-PRE: options that can be in "
        "no solution and redundant items removed, the solutions the same; --stats says "
        "what it removed. By default only count --method auto does it, on its own, once "
        "its search projects a long count (it pays on large searches only); "
        "--no-preprocess stops that too",
        action=argparse.BooleanOptionalAction,
    ),
    "quiet": Flag(
        ("--quiet",),
        "say nothing on stderr about how the run went (the method, engine and route that "
        "ran); errors, warnings and the mark of a partial result are still printed",
        action="store_true",
    ),
    "json": Flag(
        ("--json",),
        f"print one JSON document (schema version {SCHEMA_VERSION}, the same for every command: "
        "see 'excover schema')",
        action="store_true",
    ),
}


def add_flag(parser: Container, name: str, detail: str | None = None, **keywords: Any) -> None:
    """Add the shared flag ``name`` of :data:`SEARCH_FLAGS`, its help the shared meaning
    followed by ``detail`` (what is this command's own); ``keywords`` add to argparse's
    (``choices``, a ``default``)."""
    flag = SEARCH_FLAGS[name]
    help = flag.meaning if detail is None else f"{flag.meaning}; {detail}"
    parser.add_argument(*flag.options, help=help, **{**flag.keywords, **keywords})


class Refused(argparse.Action):
    """A shared flag a command does not take: parsed as everywhere (so that it is spelt
    the same and its value checked the same), then refused before the command runs, by
    :func:`check_refused`, with the reason its help gives."""

    def __init__(self, option_strings: list[str], dest: str, reason: str, **kwargs: Any) -> None:
        self.reason = reason
        if kwargs.get("nargs") is None and kwargs.pop("takes_value", True) is False:
            kwargs["nargs"] = 0
        kwargs.pop("takes_value", None)
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        refused = dict(getattr(namespace, "refused_flags", None) or {})
        refused[option_string or self.option_strings[0]] = self.reason
        namespace.refused_flags = refused
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


def add_refused(parser: argparse.ArgumentParser, reasons: Mapping[str, str]) -> None:
    """Add the shared flags that ``parser``'s command does not take, each refused with
    its reason (``reasons``: flag name to a sentence saying why), in a group of their own
    at the end of the command's help."""
    command = parser.prog.split()[-1]
    group = parser.add_argument_group(f"search flags that {command} does not take")
    for name, reason in reasons.items():
        flag = SEARCH_FLAGS[name]
        parsing = {key: flag.keywords[key] for key in ("type", "metavar") if key in flag.keywords}
        takes_value = "action" not in flag.keywords  # a flag without an action stores a value
        group.add_argument(
            *flag.spelling,
            action=Refused,
            reason=f"does not apply to {command}: {reason}",
            takes_value=takes_value,
            help=f"not taken: {reason}",
            **parsing,
        )


def check_refused(args: argparse.Namespace) -> None:
    """Refuse, before the command runs, a shared flag it does not take (see
    :class:`Refused`), saying why."""
    for option, reason in (getattr(args, "refused_flags", None) or {}).items():
        raise UsageError(f"{option} {reason}")


def add_input(parser: Container, what: str = "the problem") -> None:
    """The positional input: a file, or ``-`` for standard input."""
    parser.add_argument("file", metavar="FILE", help=f"{what}; '-' reads standard input")


def add_method(
    parser: argparse.ArgumentParser,
    choices: tuple[str, ...] = METHODS,
    help: str | None = None,
) -> None:
    """``--method``, default ``auto`` (the API's default); ``help``: what the methods of
    this command are. Among the exact cover methods an old name is still read, with a
    note (:func:`excover.cli.argtypes.method`); ``--help`` shows the new ones."""
    help = (
        help
        or "search: a compiled search (dancing links, bits or cells: --engine); zdd: the ZDD "
        "of all solutions (DXZ, or the frontier count); sat: a SAT encoding"
    )
    if set(choices) <= set(METHODS):  # the exact cover methods, which had other names
        for old, new in METHOD_ALIASES.items():
            help += f"; {old}: the old name of {new}, deprecated"
        add_flag(parser, "method", help, choices=list(choices), type=argtypes.method)
    else:
        add_flag(parser, "method", help, choices=list(choices))


def add_limits(
    parser: argparse.ArgumentParser,
    *,
    limit: bool | str = True,
    timeout: bool = True,
    max_nodes: bool = True,
) -> None:
    """``--limit``, ``--timeout`` and ``--max-nodes``: the bounds of any search (``limit``
    may be the command's own addition to the shared meaning)."""
    if limit:
        add_flag(parser, "limit", None if limit is True else limit)
    if timeout:
        add_flag(parser, "timeout")
    if max_nodes:
        add_flag(parser, "max_nodes")


def add_max_memory(parser: Container) -> None:
    """``--max-memory SIZE``: the memory bound of the ZDD method, the same on every
    command that takes ``--method zdd`` (refused with the other methods, which hold no
    tables that grow with the problem)."""
    parser.add_argument(
        "--max-memory",
        type=argtypes.memory_size,
        metavar="SIZE",
        help="with --method zdd: stop once its tables (the ZDD's nodes, DXZ's memo, the "
        "frontier count's states) would hold more than SIZE bytes (512M, 4G, ...; 0: no "
        "bound), the result so far printed and marked partial (exit status 1); default: "
        "half of the machine's memory",
    )


def add_workers(parser: Container, help: str | None = None) -> None:
    """``--workers N`` (``help``: this command's own addition to the shared meaning)."""
    add_flag(parser, "workers", help)


def add_progress(parser: Container, help: str | None = None) -> None:
    """``--progress`` / ``--no-progress``: a progress bar on stderr (default: when stderr
    is a terminal; ``help``: what the bar shows on this command)."""
    add_flag(parser, "progress", help)


def add_json(parser: Container) -> None:
    """``--json``: one document of the shared schema on stdout."""
    add_flag(parser, "json")


def add_quiet(parser: Container) -> None:
    """``--quiet``: no line on stderr naming the method, engine or route that ran."""
    add_flag(parser, "quiet")


def add_board_flags(parser: Container, pieces: str) -> None:
    """``--pieces PIECES`` (FILE is then a board to tile with them; ``pieces`` is its help)
    and its companions ``--no-reflections`` and ``--multiplicity``."""
    parser.add_argument("--pieces", metavar="PIECES", help=pieces)
    parser.add_argument(
        "--no-reflections",
        action="store_true",
        help="with --pieces: pieces may be rotated, not reflected",
    )
    parser.add_argument(
        "--multiplicity",
        choices=["one", "maybe", "any"],
        help="with --pieces: each piece used exactly once (one, the default), at most once "
        "(maybe) or any number of times (any)",
    )


def add_svg(parser: Container, help: str) -> None:
    """``--svg OUT``: a picture of the result."""
    parser.add_argument("--svg", metavar="OUT", help=help)


def add_write_dlx(parser: Container, what: str) -> None:
    """``--write-dlx FILE``: write the exact cover problem of ``what`` in Knuth's DLX
    format instead of solving it (``excover count FILE`` then counts it)."""
    parser.add_argument(
        "--write-dlx",
        metavar="FILE",
        help=f"write the exact cover problem of {what} to FILE in Knuth's DLX format and stop "
        "(no search: 'excover count FILE' counts it, with any method or --workers)",
    )


def given(values: object, dest: str) -> bool:
    """Whether the optional flag stored at ``dest`` was given (every shared flag has a
    default of None or False): ``values`` are the arguments as parsed, or a typed
    request read from them under the same names (such as
    :class:`~excover.cli.exact_cover.request.CoverRequest`)."""
    value = getattr(values, dest, None)
    return value is not None and value is not False


def refuse(values: object, dest: str, why: str) -> None:
    """Refuse the flag stored at ``dest`` if it was given (in ``values``, as
    :func:`given` reads them): a usage error saying ``why``."""
    if given(values, dest):
        flag = "--" + dest.replace("_", "-")
        raise UsageError(f"{flag} {why}")
