"""The commands over one exact cover problem: ``excover count``, ``solve``, ``dimacs``,
``estimate`` and ``schema``, built on the command line's toolkit (:mod:`excover.cli`).

- :mod:`~excover.cli.exact_cover.parsers`: their parsers (descriptions, flags, refusals);
- :mod:`~excover.cli.exact_cover.commands`: their runs, and :func:`count_problem`, the
  count of ``count`` for a problem another command built (a puzzle's, a term's);
- :mod:`~excover.cli.exact_cover.request`: :class:`CoverRequest`, the count or listing
  the flags ask for, read once at the edge (a domain builds its own);
- :mod:`~excover.cli.exact_cover.problem_input` (and
  :mod:`~excover.cli.exact_cover.burrtools`): FILE read, a DLX problem, a BurrTools
  puzzle or a board with ``--pieces``;
- :mod:`~excover.cli.exact_cover.solving`: the flags a method cannot honour refused, the
  orchestrator's request made and what it tells printed;
  :mod:`~excover.cli.exact_cover.symmetry` the same with the symmetry flags,
  :mod:`~excover.cli.exact_cover.parallel` by subproblems (their flags:
  :mod:`~excover.cli.exact_cover.task_flags`).

This package imports no domain: ``FILE --pieces`` is read by the board reader that
:mod:`excover.main` hands to the parsers.
"""
