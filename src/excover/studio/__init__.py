"""The designer's studio: a local web application to design, solve and export tiling
puzzles (``excover studio``).

- :mod:`excover.studio.design`: a design (board and pieces), read from the page's JSON
  and from ``.cmb`` programs, turned into a tiling and written as a program;
- :mod:`excover.studio.catalog`: the pieces the page offers;
- :mod:`excover.studio.child`, :mod:`excover.studio.limits`: the child processes that do
  a user's work, bounded in memory (and an import in time), waited on without blocking;
- :mod:`excover.studio.imports`: ``.cmb`` programs read in such a child;
- :mod:`excover.studio.burrtools`: BurrTools ``.xmpuzzle`` files read, shown, assembled
  and played, each step in such a child;
- :mod:`excover.studio.jobs`: runs in child processes, cancelled by killing them;
- :mod:`excover.studio.app`: the Starlette application, its requests guarded and bounded
  by :mod:`excover.studio.web` (token, origin and size checks);
- :mod:`excover.studio.cli`: the ``excover studio`` command (served by uvicorn);
- ``static/``: the page, plain HTML, CSS and JavaScript (nothing fetched from the net).

The web framework and server come with the ``studio`` extra; the rest of excover never
imports this package.
"""
