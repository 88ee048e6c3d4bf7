"""One name per class: no two modules of ``src/excover`` define a public class of one name.

Each module is parsed (never imported) and its top-level classes whose names do not start
with ``_`` are collected; a name defined in two modules is a clash, reported with both
modules, so that a reader (and ``grep``) always knows which class a name means.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "excover"


def public_classes() -> dict[str, list[str]]:
    """Each public top-level class name, with the modules defining it (paths under
    ``src/excover``)."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found[node.name].append(path.relative_to(SOURCE).as_posix())
    return found


def test_the_source_is_found() -> None:
    classes = public_classes()
    assert "ExactCover" in classes and "Family" in classes


def test_each_public_class_name_is_defined_in_one_module() -> None:
    clashes = {name: where for name, where in public_classes().items() if len(where) > 1}
    lines = [f"{name}: {', '.join(where)}" for name, where in sorted(clashes.items())]
    assert not clashes, "public class names defined in more than one module:\n" + "\n".join(lines)
