"""The long-standing path of the nonogram API: ``from excover.puzzles import nonogram``.

Nonograms live in their own package, :mod:`excover.nonogram`; this module re-exports its
public names (the very same objects, each taken on first use, as the package itself does)
so that scripts written against this path keep running. New code imports
``from excover import nonogram``.
"""

from __future__ import annotations

from excover.nonogram import __all__ as __all__

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

    from excover.nonogram import *  # noqa: F403  (the same names, for type checkers)


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import excover.nonogram

    value = getattr(excover.nonogram, name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
