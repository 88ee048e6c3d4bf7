"""What a front end asks of one solving run (:class:`Request`), in its own terms.

The command line reads it off its flags, a ``.cmb`` program off its statement, the studio
off its settings, the API off its keyword arguments; :mod:`excover.solving.orchestrate`
runs it and answers with an :class:`~excover.counting.outcome.Outcome`. A ``Request`` is
the method's request (:class:`~excover.counting.request.MethodRequest`: the method and
its options, the limits, the progress bar), which the orchestrator hands to the method's
runner once it has done the operations around it.
"""

from __future__ import annotations

from excover.counting.request import MethodRequest, NoBar, no_bar

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.counting.request import TreeSizer
    from excover.problem import Problem

__all__ = ["NoBar", "Request", "no_bar"]


class Request(MethodRequest):
    """One run a front end asks for (see :class:`~excover.counting.request.MethodRequest`
    for the method's part). Its bars size the trees of the searches whose engine does not
    tell the share walked by Knuth's probes (:class:`excover.solving.progress.TreeSize`);
    its runs note Ctrl-C (``note_ctrl_c``) unless told otherwise."""

    def __init__(
        self, method: str = "auto", *, note_ctrl_c: bool = True, **method_options: Any
    ) -> None:
        super().__init__(method, note_ctrl_c=note_ctrl_c, **method_options)

    def size_tree(self, problem: Problem) -> TreeSizer | None:
        """Knuth's probes of the search tree of ``problem``, made as the search goes on."""
        from excover.solving.progress import TreeSize

        return TreeSize(problem)
