"""The command line's shared layer: what every ``excover`` command is built from.

The flags, their checks and the output conventions (:mod:`excover.cli.common`), progress
bars (:mod:`excover.cli.progress`), the outcome of a run (:mod:`excover.cli.outcome`), the
routes of each method (:mod:`excover.cli.solving`, :mod:`excover.cli.sat`,
:mod:`excover.cli.zdd`, :mod:`excover.cli.parallel`, :mod:`excover.cli.symmetry`) and the
commands over an exact cover problem (:mod:`excover.cli.commands`). The domains' commands
(:mod:`excover.lang.cli`, :mod:`excover.puzzles.cli`, :mod:`excover.nonogram.cli`) build on
it, and :mod:`excover.main` puts them all together: this package imports no domain, so a
domain's command can import it (docs/architecture.md, the layers).
"""
