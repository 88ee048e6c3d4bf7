"""The command line's toolkit: what every ``excover`` command is built from, and nothing
of any one command.

- the parser and the shared flags, their argparse types and their refusals
  (:mod:`~excover.cli.parser`, :mod:`~excover.cli.flags`, :mod:`~excover.cli.argtypes`);
- what a run reads of its flags once, at the edge (:mod:`~excover.cli.options`:
  :class:`~excover.cli.options.RunOptions`, handed down instead of the Namespace);
- the files a command reads and writes (:mod:`~excover.cli.files`), what kind of input a
  file looks like (:mod:`~excover.cli.kinds`), the alarm of ``--timeout``
  (:mod:`~excover.cli.clock`), a Dask cluster (:mod:`~excover.cli.cluster`);
- the output: progress bars (:mod:`~excover.cli.progress`), exit statuses and the lines
  on stderr (:mod:`~excover.cli.status`), the end of a count or a listing
  (:mod:`~excover.cli.report`), what its figures mean (:mod:`~excover.cli.outcome`); the
  ``--json`` documents are :mod:`excover.documents`' (shared with the studio).

:mod:`excover.cli.common` is one import for them all. The commands over one exact cover
problem (``count``, ``solve``, ``dimacs``, ``estimate``, ``schema``) are the subpackage
:mod:`excover.cli.exact_cover`, built on this toolkit like the domains' commands
(:mod:`excover.lang.cli`, :mod:`excover.puzzles.cli`, ...); no toolkit module imports it
(tests/test_architecture.py), and this package imports no domain, so a domain's command
can import it (docs/architecture.md, the layers); :mod:`excover.main` puts them all
together.
"""
