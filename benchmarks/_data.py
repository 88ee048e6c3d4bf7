"""Where the benchmarks find their inputs: the data shipped in the repository's ``tests/data``.

``KNUTH_DATA`` holds Knuth's DLX inputs with DLX1's statistics (``MANIFEST.md``);
``COMBINE_DATA`` holds the shapes of combine's examples with their counts (``INDEX.md``).
``require`` stops a benchmark with an error, never with a figure, when an input is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["COMBINE_DATA", "KNUTH_DATA", "require"]

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
KNUTH_DATA = DATA / "knuth"
COMBINE_DATA = DATA / "combine"


def require(path: Path) -> Path:
    """``path`` itself if it exists; otherwise the benchmark stops with exit status 2."""
    if not path.exists():
        sys.exit(f"benchmark input missing: {path}")
    return path
