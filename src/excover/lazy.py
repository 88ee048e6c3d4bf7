"""Public names a package imports on first use.

``excover`` itself and the packages that every solving call imports keep some public
names in a table (each module, and the names it lends the package, as the package's
``TYPE_CHECKING`` imports say) and import a module only when one of its names is first
asked for, so that ``import excover`` and the command's start-up do not pay for what a
run does not use. :func:`lazy_getattr` makes the package's module ``__getattr__`` from
that table, and :func:`lazy_dir` its ``__dir__``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

__all__ = ["lazy_dir", "lazy_getattr"]


def lazy_getattr(
    package: str, table: Mapping[str, Iterable[str]], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: a name of ``table`` imported from its
    module when first asked for and kept in ``namespace`` (the package's ``globals()``),
    so that later look-ups find it without this function; any other name is an
    AttributeError."""
    home = {name: module for module, names in table.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__


def lazy_dir(
    table: Mapping[str, Iterable[str]], namespace: dict[str, Any]
) -> Callable[[], list[str]]:
    """The module ``__dir__`` of a package whose ``namespace`` (its ``globals()``) holds the
    names imported so far: those and the names of ``table``, sorted."""
    lent = {name for names in table.values() for name in names}

    def __dir__() -> list[str]:
        return sorted({*namespace, *lent})

    return __dir__
