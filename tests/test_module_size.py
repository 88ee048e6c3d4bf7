"""No Python module of the package is over :data:`MOST_LINES` lines (issue #59): a module
that grows past it is split by job, as ``excover.cli.commands`` was into
``excover.cli.problem_input`` and ``excover.cli.report``."""

from __future__ import annotations

from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "excover"

#: The most lines a module of the package may have.
MOST_LINES = 800


def test_no_module_is_over_the_limit() -> None:
    sizes = {
        path.relative_to(SOURCE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in SOURCE.rglob("*.py")
    }
    assert len(sizes) > 100  # the package's modules were found
    too_long = {name: lines for name, lines in sizes.items() if lines > MOST_LINES}
    assert too_long == {}
