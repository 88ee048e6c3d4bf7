"""Running a checked ``.cmb`` program: declarations, commands and their output.

The text output follows combine's formats::

    P : (DLX) N solutions                 count (ZDD, SAT or AUTO for the other methods;
                                          "... solutions up to symmetry" with the option)
    problem "P" has no solution           solve, when there is none
    N solutions found for problem "P"     all, after the solutions
    SVG written in file "F"               solve ... svg "F"
    EMC size is R rows x C columns, with P primary columns      debug on
    P solutions counted in 0.012345s      timing on (count)
    "P" solved in 0.012345s               timing on (solve, all)

Every command also appends a record (a dict) to :attr:`Interpreter.results`, the
``--json`` output of ``excover run``. The first error stops the program: nothing after it
runs.

An interpreter given a ``deadline`` stops there: a count hands the time left to the
API's ``timeout=`` and, stopped by it or by Ctrl-C, records what it counted so far
(``complete`` false, ``stopped_by``, ``count``: the solutions found so far, a lower bound
on the total, None when the method found none one by one) before the stop propagates
(:class:`~excover.deadlines.TimeUp`, ``KeyboardInterrupt``); every other statement runs
under an alarm (:func:`excover.deadlines.alarm`, raising
:class:`~excover.deadlines.TimeUp`), which also backs up a count's own deadline
:data:`ALARM_GRACE` seconds later.

What a program may do is bounded by :class:`~excover.lang.sandbox.Permissions`: before
its first statement runs, every file it would write and every outside solver it would run
is checked, and a refusal stops it there (each write is checked again when it happens).
What it makes is bounded by :mod:`excover.lang.limits`: every pattern, tile, problem
and record of an interpreter is charged to one :class:`~excover.lang.limits.Budget`
before it is made.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from excover.atomic import write_whole
from excover.deadlines import TimeUp, alarm
from excover.errors import LimitReached
from excover.lang import syntax as s
from excover.lang.errors import LangError, Pos
from excover.lang.evaluate import (
    DeclaredProblem,
    TileDef,
    build_problem,
    draw,
    evaluate,
    evaluate_layers,
    joined_tiles,
    located,
    used_at,
)
from excover.lang.limits import RECORD_CELL_BYTES, Budget
from excover.lang.parser import Program
from excover.lang.sandbox import SAFE, Permissions, resolve_write
from excover.names import METHOD_TRAITS
from excover.numbers import to_decimal
from excover.solving import ExactCover

if TYPE_CHECKING:
    from excover.counting.outcome import Outcome
    from excover.problem import SearchOptions
    from excover.tiling import Tiling, TilingSolution
    from excover.tiling.tile import Shape

__all__ = ["Interpreter"]

#: How combine's result lines name each method (``search`` was its ``dlx``).
_LABELS = {"search": "DLX", "zdd": "ZDD", "sat": "SAT", "auto": "AUTO"}

#: Seconds past the deadline at which the alarm stops a count that did not stop at its
#: own deadline (a count that does keeps what it counted so far).
ALARM_GRACE = 1.0

#: The statements :meth:`Interpreter.declare` runs.
_DECLARATIONS = (s.PatternDecl, s.Pattern3Decl, s.TilesDecl, s.ProblemDecl, s.Switch)


class Interpreter:
    """Runs programs, writing results to ``out`` (and ZDD sizes and warnings to ``err``).

    With ``quiet`` nothing is written to ``out`` and the results are only recorded in
    :attr:`results` (how ``excover run --json`` works). ``debug`` and ``timing`` are the
    initial states of the ``debug`` and ``timing`` switches. ``on_build`` is told how
    the building of each problem's placements goes: its name, the tile orientations
    placed, and their number (for a progress bar). ``on_record`` is given each command's
    record as it is made (how ``excover run`` names on stderr the engine or route of each
    count). ``permissions`` are what the programs
    may do beyond the safe default (see :mod:`excover.lang.sandbox`). ``deadline`` (a
    ``time.monotonic()`` instant; None: no limit) bounds the run of the programs'
    statements (see the module notes).
    """

    def __init__(
        self,
        out: TextIO | None = None,
        err: TextIO | None = None,
        *,
        debug: bool = False,
        timing: bool = False,
        quiet: bool = False,
        on_build: Callable[[str, int, int], None] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
        permissions: Permissions = SAFE,
        deadline: float | None = None,
    ) -> None:
        self.out = sys.stdout if out is None else out
        self.err = sys.stderr if err is None else err
        self.debug = debug
        self.timing = timing
        self.quiet = quiet
        self.on_build = on_build
        self.on_record = on_record
        self.permissions = permissions
        self.deadline = deadline
        #: Where programs may write: set for each program by :meth:`run`.
        self._write_roots = permissions.write_roots(os.getcwd())
        #: The real paths of the files written so far, which a program may write again.
        self._written: set[str] = set()
        self.results: list[dict[str, Any]] = []
        self.patterns: dict[str, Shape] = {}
        self.patterns3: dict[str, Shape] = {}
        self.tiles: dict[str, list[TileDef]] = {}
        self.tiles3: dict[str, list[TileDef]] = {}
        self.problems: dict[str, DeclaredProblem] = {}
        self.problems3: dict[str, DeclaredProblem] = {}
        #: What the values made so far are estimated to take (see excover.lang.limits).
        self.budget = Budget()

    # ----- running -----

    def run(self, program: Program) -> bool:
        """Run every statement in order; False when ``exit`` stopped the program. A
        statement the permissions refuse stops the program before its first statement."""
        self._write_roots = self.permissions.write_roots(program.folder)
        for statement in program.statements:
            self._vet(statement)
        for warning in program.warnings:
            print(warning, file=self.err)
        for statement in program.statements:
            if isinstance(statement, s.Exit):
                self._say("exit")
                self._record(statement.pos, "exit")
                return False
            try:
                with alarm(self._alarm_time(statement)):
                    self.execute(statement)
            except RecursionError:
                raise LangError("this statement is nested too deeply", statement.pos) from None
            self.out.flush()
        return True

    def _alarm_time(self, statement: s.Statement) -> float | None:
        """The seconds after which the alarm stops ``statement`` (None: never; a count
        sets its own alarm, which leaves it time to record its stop: :meth:`_count`)."""
        if self.deadline is None or isinstance(statement, s.Count):
            return None
        return max(0.0, self.deadline - time.monotonic())

    def _count_alarm(self, algo: s.Algo) -> float | None:
        """The seconds after which the alarm stops a count by ``algo`` (None: never): a
        count that stops at the deadline itself (all but a ZDD's) gets
        :data:`ALARM_GRACE` more."""
        if self.deadline is None:
            return None
        grace = 0.0 if METHOD_TRAITS[algo.name].family else ALARM_GRACE
        return max(0.0, self.deadline - time.monotonic()) + grace

    def _options(self) -> SearchOptions:
        """The API's ``timeout=`` for the time left before the deadline (none: none)."""
        if self.deadline is None:
            return {}
        return {"timeout": max(0.0, self.deadline - time.monotonic())}

    def declare(self, program: Program) -> str | None:
        """Run the program's declarations (patterns, tiles, problems, flags), not its
        commands, up to an ``exit``; the name of the last problem declared, or None."""
        last = None
        for statement in program.statements:
            if isinstance(statement, s.Exit):
                break
            if isinstance(statement, _DECLARATIONS):
                try:
                    self.execute(statement)
                except RecursionError:
                    raise LangError("this statement is nested too deeply", statement.pos) from None
                if isinstance(statement, s.ProblemDecl):
                    last = statement.name
        return last

    def execute(self, st: s.Statement) -> None:
        """Run one statement."""
        if isinstance(st, s.PatternDecl):
            self.patterns[st.name] = evaluate(st.expr, self.patterns, self.budget)
        elif isinstance(st, s.Pattern3Decl):
            with located(st.pos):
                self.patterns3[st.name] = evaluate_layers(
                    st.layers, self.patterns, self.budget, st.grid
                )
        elif isinstance(st, s.TilesDecl):
            table = self.tiles3 if st.three_d else self.tiles
            patterns = self.patterns3 if st.three_d else self.patterns
            table[st.name] = joined_tiles(st.tiles, patterns, table, self.budget)
        elif isinstance(st, s.ProblemDecl):
            self._problem(st)
        elif isinstance(st, s.Assert):
            self._assert(st)
        elif isinstance(st, s.Switch):
            setattr(self, st.flag, st.on)
        elif isinstance(st, s.Print):
            self._print(st)
        elif isinstance(st, s.Dimacs):
            self._dimacs(st)
        elif isinstance(st, s.Solve | s.All | s.Count):
            self._check_solver(st.algo)
            problem = (self.problems3 if st.three_d else self.problems)[st.name]
            with located(st.algo.pos if METHOD_TRAITS[st.algo.name].solver else st.pos):
                if isinstance(st, s.Count):
                    self._count(st, problem)
                elif isinstance(st, s.Solve):
                    self._solve(st, problem)
                elif isinstance(st, s.All):
                    self._all(st, problem)

    # ----- permissions -----

    def _vet(self, st: s.Statement) -> None:
        """Refuse a statement that would do what the permissions do not allow."""
        if isinstance(st, s.Solve | s.All | s.Count):
            self._check_solver(st.algo)
        if isinstance(st, s.Dimacs):
            self._target(st.path, st.pos)
        if isinstance(st, s.Solve) and st.svg is not None:
            self._target(st.svg, st.pos)

    def _check_solver(self, algo: s.Algo) -> None:
        """Refuse an outside solver program unless allowed."""
        from excover.lang.external import runs_program

        if algo.solver is not None and runs_program(algo.solver):
            self.permissions.check_external(algo.solver, algo.pos)

    def _target(self, path: str, pos: Pos) -> str:
        """The real path a statement at ``pos`` may write ``path`` at, or a refusal."""
        return resolve_write(
            path,
            self._write_roots,
            pos,
            created=self._written,
            overwrite=self.permissions.overwrite,
        )

    def _say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out)

    def _say_time(self, done: str, seconds: float) -> None:
        """With ``timing on``: what was ``done``, and in how many seconds."""
        if self.timing:
            self._say(f"{done} in {seconds:.6f}s")

    def _record_run(
        self,
        statement: str,
        st: s.Solve | s.All | s.Count,
        problem: DeclaredProblem,
        seconds: float,
        **fields: Any,
    ) -> None:
        """Record the run of ``st``, a ``statement``, on ``problem``: the problem, the
        method, ``fields`` and the seconds it took."""
        self._record(
            st.pos, statement, problem=problem.name, method=st.algo.name, **fields, seconds=seconds
        )

    def _record(self, pos: Pos, statement: str, **fields: Any) -> None:
        record = {"statement": statement, "file": pos.source.name, "line": pos.line, **fields}
        self.results.append(record)
        if self.on_record is not None:
            self.out.flush()  # the command's own output first
            self.on_record(record)

    # ----- declarations -----

    def _problem(self, st: s.ProblemDecl) -> None:
        patterns = self.patterns3 if st.three_d else self.patterns
        board = evaluate(st.board, patterns, self.budget)
        if st.three_d and not board.grid.solid:
            raise LangError("the board of a 3D problem must be a 3D pattern", st.board.pos)
        lists = self.tiles3 if st.three_d else self.tiles
        if isinstance(st.tiles, s.Var):
            defs = used_at(lists[st.tiles.name], st.tiles.pos)
        else:
            defs = joined_tiles(st.tiles, patterns, lists, self.budget)
        report = None if self.on_build is None else functools.partial(self.on_build, st.name)
        problem = build_problem(
            st.name, st.pos, board, defs, st.interchangeable, report, self.budget
        )
        (self.problems3 if st.three_d else self.problems)[st.name] = problem

    def _assert(self, st: s.Assert) -> None:
        condition = st.condition
        if condition.left is None or condition.right is None:
            holds = condition.value
        else:
            left = evaluate(condition.left, self.patterns, self.budget)
            holds = left == evaluate(condition.right, self.patterns, self.budget)
        self._record(st.pos, "assert", holds=holds)
        if not holds:
            raise LangError("assertion failed", condition.pos)

    # ----- commands -----

    def _find(self, name: str) -> DeclaredProblem:
        return self.problems[name] if name in self.problems else self.problems3[name]

    def _print(self, st: s.Print) -> None:
        problem = self._find(st.name)
        board = draw(problem.board)
        lines = [f'problem "{problem.name}"', board]
        tiles = []
        for tile, name in zip(problem.tiles, problem.names, strict=True):
            options = tile.options()
            group = ", ".join(g.name for g in tile.shape.grid.symmetries(tile.shape.coords()))
            picture = draw(tile.shape)
            lines += [f'tile "{name}"' + (f" {options}" if options else ""), picture]
            lines.append(f"{{ {group} }}")
            tiles.append({"name": name, "options": options, "pattern": picture})
        text = "\n".join(lines)
        self.budget.charge(len(text), f"the picture of problem {problem.name!r}", st.pos)
        self._say(text)
        self._record(st.pos, "print", problem=problem.name, board=board, tiles=tiles)

    def _dimacs(self, st: s.Dimacs) -> None:
        problem = self._find(st.name)
        cover = self.cover(problem)
        target = self._target(st.path, st.pos)
        with located(st.pos):
            try:
                cover.write_dimacs(target)
            except OSError as exc:
                raise LangError(f"cannot write {st.path}: {exc.strerror or exc}", st.pos) from None
        self._written.add(target)
        self._record(st.pos, "dimacs", problem=problem.name, path=st.path)

    def cover(self, problem: DeclaredProblem) -> ExactCover:
        """The exact cover problem of a problem; when a tile that must be used is larger
        than the board, one whose only item is that tile's, which no option covers (its
        SAT encoding is the empty clause: no tiling, as count and solve say)."""
        if problem.tiling is not None:
            return problem.tiling.problem
        return ExactCover(primary=[str(problem.blocked)])

    def _emc_size(self, problem: DeclaredProblem) -> None:
        if self.debug and problem.tiling is not None:
            p = problem.tiling.problem
            self._say(
                f"EMC size is {p.n_options} rows x {p.n_items} columns, "
                f"with {p.n_primary} primary columns"
            )

    def _count(self, st: s.Count, problem: DeclaredProblem) -> None:
        self._emc_size(problem)
        start = time.perf_counter()
        tiling = problem.tiling
        algo = st.algo
        traits = METHOD_TRAITS[algo.name]
        how: dict[str, Any] = {"engine": None, "route": None, "symmetry": None}
        outcome: Outcome | None = None
        try:
            # the alarm is off again when a stop is recorded below
            with alarm(self._count_alarm(algo)):
                if tiling is None:
                    number = 0
                elif tiling.obstruction is not None:  # no search can succeed: say why at once
                    number = 0
                    self.out.flush()
                    print(f"{problem.name}: no tiling: {tiling.obstruction}", file=self.err)
                elif traits.solver:
                    from excover.sat.solve import DEFAULT_SOLVER

                    how["engine"] = algo.solver or DEFAULT_SOLVER
                    if st.up_to_symmetry:
                        self._default_solver(algo)
                        number = tiling.count(algo.name, up_to_symmetry=True, **self._options())
                    else:
                        outcome = self._counted(tiling, algo, False)
                        number = self._number(outcome)
                elif st.up_to_symmetry:
                    number = tiling.count(algo.name, up_to_symmetry=True, **self._options())
                elif traits.family and self.debug:
                    how["engine"] = "dxz"
                    family = tiling.problem.zdd()  # options come in DXZ's order: no renaming
                    number = family.count()
                    self.out.flush()
                    print(f"ZDD has size {family.size}", file=self.err)
                else:
                    outcome = self._counted(tiling, algo, st.break_symmetry)
                    how.update(_how(outcome, traits.family))
                    number = self._number(outcome)
        except (LimitReached, TimeUp, KeyboardInterrupt) as stop:
            counted: int | None = None
            if outcome is not None and not st.up_to_symmetry:
                counted = outcome.count  # classes are no sum of solutions found, nor a ZDD's
            stopped_by = "interrupt" if isinstance(stop, KeyboardInterrupt) else "timeout"
            self._record_run(
                "count",
                st,
                problem,
                time.perf_counter() - start,
                **how,
                up_to_symmetry=st.up_to_symmetry,
                count=counted,
                complete=False,
                stopped_by=stopped_by,
            )
            if isinstance(stop, LimitReached):  # not an error of the program's: time is up
                raise TimeUp from stop
            raise
        seconds = time.perf_counter() - start
        classes = " up to symmetry" if st.up_to_symmetry else ""
        shown = to_decimal(number)
        self._say(f"{problem.name} : ({_LABELS[algo.name]}) {shown} solutions{classes}")
        self._say_time(f"{problem.name} solutions counted", seconds)
        self._record_run(
            "count", st, problem, seconds, **how, up_to_symmetry=st.up_to_symmetry, count=number
        )

    def _counted(self, tiling: Tiling, algo: s.Algo, break_symmetry: bool) -> Outcome:
        """The count of ``tiling`` by ``algo``, through the orchestrator: within the
        interpreter's deadline, breaking the board's symmetry by default when asked
        (:meth:`Tiling.total <excover.tiling.Tiling.total>`, once a plain search has not
        finished the count; a count so short is counted again the plain way, so that
        its record names the route that counted it)."""
        from excover.solving import orchestrate
        from excover.solving.request import Request

        request = Request(
            algo.name,
            solver=algo.solver,
            deadline=self.deadline,
            symmetry=None if break_symmetry else False,
            totals=tiling.total,
            scout_answers=False,
            note_ctrl_c=False,
        )
        return orchestrate.count(tiling.problem, request)

    @staticmethod
    def _number(outcome: Outcome) -> int:
        """The count of a run, or the stop that cut it short raised (a limit, Ctrl-C),
        after :meth:`_count` has kept what it found."""
        if outcome.error is not None:
            raise outcome.error
        assert outcome.count is not None
        return outcome.count

    def _default_solver(self, algo: s.Algo) -> None:
        if algo.solver not in (None, "", "cadical"):
            raise LangError(
                'counting up to symmetry with sat uses the default solver; write sat "cadical"',
                algo.pos,
            )

    def _solve(self, st: s.Solve, problem: DeclaredProblem) -> None:
        self._emc_size(problem)
        start = time.perf_counter()
        found = next(self._solutions(problem, st.algo, False, 1), None)
        seconds = time.perf_counter() - start
        record: dict[str, Any] = {"engine": _lister(problem, st.algo, False)}
        if found is None:
            self._say(f'problem "{problem.name}" has no solution')
            self._record_run("solve", st, problem, seconds, **record, solution=None)
            return
        self._say_time(f'"{problem.name}" solved', seconds)
        if st.svg is not None:
            target = self._target(st.svg, st.pos)
            picture = found.exploded_svg() if st.three_d else found.svg()
            try:
                write_whole(target, picture, follow_links=True)
            except OSError as exc:
                raise LangError(f"cannot write {st.svg}: {exc.strerror or exc}", st.pos) from None
            self._written.add(target)
            self._say(f'SVG written in file "{st.svg}"')
            record["svg"] = st.svg
        else:
            self._say(found.ascii() + "\n")
        solution = self._solution(found, st.pos)
        self._record_run("solve", st, problem, seconds, **record, solution=solution)

    def _all(self, st: s.All, problem: DeclaredProblem) -> None:
        self._emc_size(problem)
        start = time.perf_counter()
        listed = []
        number = 0
        for found in self._solutions(problem, st.algo, st.up_to_symmetry, None):
            number += 1
            listed.append(self._solution(found, st.pos))
            self._say(listed[-1]["ascii"] + "\n")
        seconds = time.perf_counter() - start
        self._say(f'{number} solutions found for problem "{problem.name}"')
        self._say_time(f'"{problem.name}" solved', seconds)
        self._record_run(
            "all",
            st,
            problem,
            seconds,
            engine=_lister(problem, st.algo, st.up_to_symmetry),
            up_to_symmetry=st.up_to_symmetry,
            count=number,
            solutions=listed,
        )

    def _solution(self, found: TilingSolution, pos: Pos) -> dict[str, Any]:
        """A tiling as JSON, for the record of the command at ``pos``: each placement's
        tile and cells, and the picture (charged to the budget: ``all`` may list many)."""
        cells = sum(len(placement.cells) for placement in found.placements)
        picture = found.ascii()
        cost = cells * RECORD_CELL_BYTES + len(picture)
        self.budget.charge(cost, "the record of one more solution", pos)
        placements = [
            {"tile": placement.tile.name, "cells": [list(cell) for cell in placement.cells]}
            for placement in found.placements
        ]
        return {"placements": placements, "ascii": picture}

    def _solutions(
        self, problem: DeclaredProblem, algo: s.Algo, up_to_symmetry: bool, limit: int | None
    ) -> Iterator[TilingSolution]:
        """The tilings found by ``algo`` (one per symmetry class when asked)."""
        tiling = problem.tiling
        if tiling is None:
            return
        if not METHOD_TRAITS[algo.name].solver:
            yield from tiling.solutions(algo.name, limit, up_to_symmetry=up_to_symmetry)
            return
        if limit == 1:
            solution = _first_by_sat(tiling.problem, algo.solver)
            if solution is not None:
                yield tiling.decode(solution)
            return
        found = tiling.problem.solutions(method=algo.name, limit=None, solver=algo.solver)
        if up_to_symmetry:
            found = tiling.representatives(found)
        for number, solution in enumerate(found):
            if limit is not None and number >= limit:
                return
            yield tiling.decode(solution)


def _lister(problem: DeclaredProblem, algo: s.Algo, up_to_symmetry: bool) -> str | None:
    """The engine that lists ``problem``'s tilings by ``algo`` (as :meth:`_solutions`
    runs it): the search engine ``auto`` picks for search and auto, DXZ for zdd, the solver
    for sat; None where no search runs (no tiling) or the symmetry's search chooses."""
    tiling = problem.tiling
    if tiling is None or tiling.obstruction is not None or up_to_symmetry:
        return None
    traits = METHOD_TRAITS[algo.name]
    if traits.solver:
        from excover.sat.solve import DEFAULT_SOLVER

        return algo.solver or DEFAULT_SOLVER
    if traits.family:
        return "dxz"
    from excover.engines import pick_engine

    return pick_engine(tiling.problem)


def _first_by_sat(problem: ExactCover, solver: str | None) -> list[int] | None:
    """A solution found by a SAT solver: one of python-sat, ``ext:COMMAND``, or else a
    command on the PATH run in combine's convention (:mod:`excover.lang.external`)."""
    from excover.errors import UsageError
    from excover.lang.external import is_command, solve_with_command
    from excover.sat.solve import known_solver, solver_names

    if solver is None or known_solver(solver):
        return problem.first(method="sat", solver=solver)
    if not is_command(solver):
        raise UsageError(
            f"unknown SAT solver {solver!r}; choose one of {', '.join(solver_names())}, "
            f"or a command on the PATH (none is {solver!r})"
        )
    return solve_with_command(problem, solver)


def _how(outcome: Outcome, family: bool) -> dict[str, Any]:
    """How a count ran, for its record: the symmetry it broke (the board's note), the
    search engine that counted, or the route the choice took and why (a family's count
    is recorded as DXZ's, as combine names it)."""
    how: dict[str, Any] = {}
    total = getattr(outcome, "total", None)
    if total is not None:
        how["symmetry"] = total.note
    elif family:
        how["engine"] = "dxz"
    elif outcome.route is not None:
        how["route"] = {"name": outcome.route["name"], "reason": outcome.route["reason"]}
    else:
        how["engine"] = outcome.stats.get("engine")
    return how
