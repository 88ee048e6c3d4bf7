"""How many examples a property test draws (importable as ``budget`` from every test
module).

Under CI (the ``ci`` profile of ``conftest.py``, derandomized) each property test draws
the number of examples it asks for, the same ones every run. Outside CI (the ``dev``
profile) each session draws a new seed, so runs explore further between them: a session
draws a quarter of the examples, which keeps the README's test command short, and the
examples of successive runs add up.
"""

from __future__ import annotations

import os

__all__ = ["DEV_SHARE", "examples", "in_ci"]

#: The share of its examples a property test draws outside CI.
DEV_SHARE = 4


def in_ci() -> bool:
    """Whether the suite runs in continuous integration: ``CI`` set to anything but an
    empty string, ``0``, ``false`` or ``no``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def examples(full: int) -> int:
    """The examples to draw of a test that asks for ``full``: all of them under CI, a
    quarter outside it (at least 10, or ``full`` if fewer)."""
    if in_ci():
        return full
    return max(min(full, 10), full // DEV_SHARE)
