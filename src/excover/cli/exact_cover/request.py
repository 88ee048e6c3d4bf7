"""What a count or a listing of one exact cover problem asks for, read off the flags once:
:class:`CoverRequest`.

``count`` and ``solve`` read their Namespace into one as they start
(:meth:`CoverRequest.read`), and so do the domains whose commands count or list an exact
cover the same way (``queens``, ``sudoku``, ``sequence``), each fixing what is its own
(the one placement ``queens`` prints by default, the method of a term); everything below
takes it (:func:`~excover.cli.exact_cover.commands.count_problem`,
:mod:`~excover.cli.exact_cover.solving`, :mod:`~excover.cli.exact_cover.symmetry`,
:mod:`~excover.cli.exact_cover.parallel`). The fields are named as the flags' ``dest``,
with the same defaults (None or False: not given), so that
:func:`excover.cli.flags.refuse` refuses a flag of a request as it refuses one of the
Namespace, with the same message.
"""

from __future__ import annotations

from excover.cli.exact_cover.task_flags import CHECKPOINT_EVERY, SPLIT_AFTER
from excover.cli.options import RunOptions, run_fields

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    import argparse
    from typing import Any, Self

__all__ = ["CoverRequest"]


class CoverRequest(RunOptions):
    """A count or a listing of one exact cover problem, as the command line asks for it:
    the run's :class:`~excover.cli.options.RunOptions` and

    - the method and its options: ``method`` (``auto`` by default), ``heuristic``,
      ``seed``, ``engine``, ``route``, ``solver``, ``amo``, ``preprocess``;
    - the bounds: ``limit``, ``max_nodes``, ``max_memory`` (and the run's ``deadline``);
    - the symmetry: ``up_to_symmetry``, ``break_symmetry`` (None: a count breaks the
      group its problem declares by default; False: ``--no-break-symmetry``);
    - a count by subproblems: ``workers``, ``tasks``, ``checkpoint``,
      ``checkpoint_every``, ``dask``, ``task_timeout``, ``split_after``."""

    method: str = "auto"
    heuristic: str | None = None
    seed: int | None = None
    engine: str | None = None
    route: str | None = None
    solver: str | None = None
    amo: str | None = None
    preprocess: bool | None = None
    limit: int | None = None
    max_nodes: int | None = None
    max_memory: int | None = None
    up_to_symmetry: bool = False
    break_symmetry: bool | None = None
    workers: int | None = None
    tasks: int | None = None
    checkpoint: str | None = None
    checkpoint_every: float = CHECKPOINT_EVERY
    dask: str | None = None
    task_timeout: float | None = None
    split_after: float = SPLIT_AFTER

    @classmethod
    def read(cls, args: argparse.Namespace, command: str | None = None, **fixed: Any) -> Self:
        """The request of the flags ``args`` (a flag the command does not have takes its
        default, as ``excover count`` has it), with the fields ``fixed`` set by the
        command itself (a method it alone runs, a limit of its own)."""
        fields = run_fields(args, command)
        for name in CoverRequest._fields[len(RunOptions._fields) :]:
            if hasattr(args, name):
                fields[name] = getattr(args, name)
        fields.update(fixed)
        return cls(**fields)

    def but(self, **changes: Any) -> Self:
        """A copy of this request with ``changes`` (the same run: the same deadline)."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, **changes)
        return copy

    @property
    def symmetric(self) -> bool:
        """Whether a symmetry flag asks for a symmetric run (``--up-to-symmetry``,
        ``--break-symmetry``)."""
        return bool(self.up_to_symmetry or self.break_symmetry)

    @property
    def uses_tasks(self) -> bool:
        """Whether the flags ask for a count by subproblems (``--workers``, ``--tasks``,
        ``--checkpoint``, ``--dask``)."""
        return (
            self.workers is not None
            or self.tasks is not None
            or self.checkpoint is not None
            or self.dask is not None
        )
