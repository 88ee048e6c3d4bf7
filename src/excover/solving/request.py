"""What a front end asks of one solving run (:class:`Request`), in its own terms.

The command line reads it off its flags, a ``.cmb`` program off its statement, the studio
off its settings, the API off its keyword arguments; :mod:`excover.solving.orchestrate`
runs it and answers with an :class:`~excover.counting.outcome.Outcome`. A ``Request`` is
the method's request (:class:`~excover.counting.request.MethodRequest`: the method and
its options, the limits, the progress bar), which the orchestrator hands to the method's
runner once it has done the operations around it, and the composites that ask for those
operations: preprocessing, a symmetry, subproblems on workers; :class:`Events` are what
the run tells its front end as it goes.
"""

from __future__ import annotations

from excover.counting.request import MethodRequest, NoBar, no_bar

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Mapping
    from pathlib import Path
    from typing import Any

    from excover.counting.request import TreeSizer
    from excover.parallel.checkpoint import Checkpoint
    from excover.problem import Problem
    from excover.solving.orchestrate import Total
    from excover.symmetry import Group

__all__ = ["Events", "NoBar", "Request", "api_request", "no_bar"]


class Events:
    """What a run tells its front end as it goes (the command line prints it on stderr,
    the studio sends it to its page); each does nothing here, and a front end overrides
    those it shows. While a default count goes by a smaller problem times a factor
    (:class:`Total`), ``factor`` is that factor: every count told is of the smaller
    problem, and stands for ``factor`` times as many solutions."""

    factor = 1

    def group_found(self, group: Group, seconds: float) -> None:
        """The group a symmetric run asked for was found by a search (the
        automorphisms), in ``seconds``."""

    def say(self, text: str) -> None:
        """A note for the user: a checkpoint's lock waited for, a damaged checkpoint set
        aside, a split that made fewer subproblems than asked."""

    def resumed(self, path: Path | None, state: Checkpoint, parts: int | None) -> None:
        """A count by subproblems goes on from the checkpoint ``path``: ``state`` holds
        what earlier runs counted (``parts``: the subproblems, when known)."""

    def advance(self, count: int, share: float | None, left: float | None, **detail: Any) -> None:
        """A count that may run long (``split_above``) goes on: ``count`` solutions so
        far, the ``share`` of its work done and the seconds ``left`` (None: unknown);
        by subproblems, ``detail`` says how many are ``done`` of the ``total``, whether
        it is ``complete``, ``resumed`` from a checkpoint and ``saved`` to one, and the
        ``seconds_before`` of earlier runs."""

    def estimated(self, solutions: float, seconds: float) -> None:
        """Knuth's estimate of a count that may run long: its ``solutions`` and the
        ``seconds`` of the whole count, made before it goes on."""


#: The events of a run nobody follows.
_QUIET = Events()


class Request(MethodRequest):
    """One run a front end asks for: the method's part (see
    :class:`~excover.counting.request.MethodRequest`) and the operations around it.

    ``symmetry``: None, the default: a count of every solution by a method that
    searches breaks the group known without a search (``totals(method, deadline)``'s
    :class:`~excover.solving.orchestrate.Total`, by default the group the problem
    declares) once a plain search has not finished it within
    :data:`~excover.solving.registry.SCOUT_NODES` nodes (a count that did is the
    scout's, when ``scout_answers``, else counted again the plain way);
    False: never; True: the problem's group (declared, else its automorphisms, found by
    a search); or a :class:`~excover.symmetry.Group` or generators: every solution
    counted (or listed) by a symmetry-broken search under that group.
    ``up_to_symmetry``: classes of solutions under it instead. ``preprocess`` True: the
    problem is preprocessed first (no symmetry then). ``workers``, ``executor``,
    ``tasks``: the problem cut into subproblems, counted on workers; with a
    ``checkpoint`` (a file, or True: an automatic one, or no file on a cluster) they are
    kept in it as they finish, saved every ``checkpoint_every`` seconds, a second run
    waiting for the file's lock when ``checkpoint_wait`` (None: when the file was named),
    a cluster's tasks taken for hung after ``task_timeout`` and cut for idle workers
    after ``split_after`` seconds (:mod:`excover.solving.checkpointed`). With
    ``split_above`` (seconds), a count that may run long goes as one search, is
    estimated, and is cut into subproblems only when estimated longer than that, kept
    in the file ``checkpoints(problem)`` names (the studio's counts). ``alarm``: the work
    that has no deadline of its own (finding a group, counting on workers) runs under
    the alarm (:func:`excover.deadlines.alarm`, the main thread's), as a command does.
    ``group_method``: the method of the searches under a group (None: the request's;
    the command line's are one search). ``events`` hears how the run goes. Its bars
    size the trees of the searches whose engine does not tell the share walked by
    Knuth's probes (:class:`excover.solving.progress.TreeSize`); its runs note Ctrl-C
    (``note_ctrl_c``) unless told otherwise."""

    symmetry: object = None
    up_to_symmetry: bool = False
    workers: int | None = None
    executor: object | None = None
    tasks: int | None = None
    checkpoint: str | os.PathLike[str] | bool | None = None
    checkpoint_every: float = 30.0
    checkpoint_wait: bool | None = None
    task_timeout: float | None = None
    split_after: float | None = None
    split_above: float | None = None
    checkpoints: Callable[[Problem], Path | None] | None = None
    totals: Callable[[str, float | None], Total | None] | None = None
    scout_answers: bool = True
    alarm: bool = False
    group_method: str | None = None
    events: Events = _QUIET
    note_ctrl_c: bool = True

    def size_tree(self, problem: Problem) -> TreeSizer | None:
        """Knuth's probes of the search tree of ``problem``, made as the search goes on."""
        from excover.solving.progress import TreeSize

        return TreeSize(problem)

    @property
    def symmetric(self) -> bool:
        """Whether a symmetry is asked for (classes, or a group given or to be found)."""
        return self.up_to_symmetry or (self.symmetry is not None and self.symmetry is not False)

    @property
    def parallel(self) -> bool:
        """Whether the problem is to be cut into subproblems on workers."""
        return (
            self.workers is not None
            or self.executor is not None
            or self.tasks is not None
            or self.checkpoint is not None
        )


def api_request(
    method: str,
    options: Mapping[str, Any],
    operation: str,
    solver: str | None = None,
    amo: str | None = None,
    limit: int | None = None,
    preprocess: bool | None = None,
    **composites: Any,
) -> Request:
    """The orchestrator's request of an API call of ``operation`` (``count``,
    ``solutions``, ``first``) by ``method`` with the search ``options``, checked as the
    method checks them (:func:`excover.counting.methods.request_of`), and the
    ``composites`` it asks for: the API's runs let Ctrl-C raise where it lands and set
    no alarm (the caller may be on any thread)."""
    from excover.counting.methods import request_of

    made = Request(method, note_ctrl_c=False, **composites)
    request_of(
        method, {**options, "solver": solver, "amo": amo}, operation, limit, preprocess, made
    )
    return made
