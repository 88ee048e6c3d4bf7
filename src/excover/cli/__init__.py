"""The command line's shared layer: what every ``excover`` command is built from. The flags,
their checks and the output conventions (:mod:`excover.cli.common`), progress bars
(:mod:`excover.cli.progress`), what the figures of a run mean (:mod:`excover.cli.outcome`),
the requests a command makes of the orchestrator (:mod:`excover.cli.solving`; by
subproblems, :mod:`excover.cli.parallel`; with symmetry, :mod:`excover.cli.symmetry`) and
the commands over an exact cover problem (:mod:`excover.cli.commands`; their input,
:mod:`excover.cli.problem_input`; the end of a run, :mod:`excover.cli.report`). The domains'
commands (:mod:`excover.lang.cli`, :mod:`excover.puzzles.cli`, :mod:`excover.nonogram.cli`)
build on it, and :mod:`excover.main` puts them all together: this package imports no
domain, so a domain's command can import it (docs/architecture.md, the layers).
"""
