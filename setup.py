"""Build the compiled hot loops; everything else is declared in pyproject.toml.

The extensions are compiled in parallel, one job a core (``EXCOVER_BUILD_JOBS=N`` sets
the number; on Linux Cython translates them in parallel too), the largest first so that
the jobs end together. The flags depend on the compiler, found when the build starts:
GCC and Clang get ``-O3`` (``-O1`` for the shared utility module, below), MSVC gets
``/O2``. OpenMP (the threads of the frontier count) is used only when a probe finds that
the compiler and its runtime accept it; otherwise the frontier count builds without it
and runs on one thread. ``EXCOVER_NO_OPENMP=1`` forces the build without it.

Three choices keep ``pip install .`` short (docs/performance.md, "Installing"):

- Cython's utility code (the typed memoryviews' machinery above all: about 2 s of
  ``gcc -O3`` in every module that uses one) is generated and compiled once, in the
  shared module ``excover._cyutility``, instead of once per extension. The hot loops
  index memoryviews inline as before; only the creation of a view goes through it, so
  that module is compiled with ``-O1``, measured as fast as ``-O3``.
- GCC and Clang compile without debug information (``-g0``; Python's own flags say
  ``-g``): the machine code is the same, the compiler does a quarter less work.
  ``EXCOVER_DEBUG_INFO=1`` keeps it, for a debugger.

A ``.pyx`` is translated to C only when its ``.c`` is missing, older than it (or than
this script, which sets Cython's options) or made by another Cython version. Cython's
own test would translate everything again in each new isolated build environment (its
bundled ``.pxd`` files are new there), so that ``pip install .`` followed by
a second install compiled every extension twice; now the second install reuses
the first one's C files and objects.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from Cython.Build import cythonize
from Cython.Utils import file_generated_by_this_cython
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: Optimisation flags by the compiler type setuptools reports.
OPTIMISE = {"msvc": ["/O2"], "unix": ["-O3"], "mingw32": ["-O3"], "cygwin": ["-O3"]}

#: The same for the shared utility module (setup.py's SHARED_UTILITY), which no hot loop
#: calls: it makes memoryviews and converts arguments, where ``-O1`` measured as fast as
#: ``-O3`` (benchmarks/compare_builds.py) and compiles in half the time.
OPTIMISE_SHARED = {"msvc": ["/O2"], "unix": ["-O1"], "mingw32": ["-O1"], "cygwin": ["-O1"]}

#: How each compiler type drops debug information (Python's flags ask for it).
NO_DEBUG_INFO = {"unix": ["-g0"], "mingw32": ["-g0"], "cygwin": ["-g0"]}

#: How each compiler type turns OpenMP on: (compile flags, link flags).
OPENMP = {"msvc": (["/openmp"], []), "unix": (["-fopenmp"], ["-fopenmp"])}

#: The extensions that use OpenMP when it is there.
USES_OPENMP = {"excover.zdd._frontier"}

#: The extensions with a kernel per instruction set, chosen at run time; with
#: ``EXCOVER_NO_SIMD=1`` they are built as MSVC and non-x86 machines build them.
HAS_SIMD_KERNELS = {"excover.puzzles.sudoku._sudoku9"}

_PROBE = """
#include <omp.h>
int main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }
"""


#: How many compilers run at once: one a core (``EXCOVER_BUILD_JOBS`` overrides it).
JOBS = int(os.environ.get("EXCOVER_BUILD_JOBS", "0")) or os.cpu_count() or 1


class BuildExtensions(build_ext):
    """``build_ext`` with flags chosen by compiler, OpenMP only where it works, and the
    extensions compiled in parallel, one a core (``-j`` still sets the number)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

    def build_extensions(self) -> None:
        print(f"excover: compiling {len(self.extensions)} extensions, {self.parallel} at a time")
        kind = self.compiler.compiler_type
        no_debug = NO_DEBUG_INFO.get(kind, [])
        if os.environ.get("EXCOVER_DEBUG_INFO", "") not in ("", "0"):
            no_debug = []
        openmp = self._openmp_flags(kind)
        portable_only = os.environ.get("EXCOVER_NO_SIMD", "") not in ("", "0")
        if portable_only:
            print("excover: the Sudoku core's portable kernel only (EXCOVER_NO_SIMD is set)")
        for extension in self.extensions:
            table = OPTIMISE_SHARED if extension.name == SHARED_UTILITY else OPTIMISE
            optimise = [*table.get(kind, []), *no_debug]
            extension.extra_compile_args = [*optimise, *extension.extra_compile_args]
            if portable_only and extension.name in HAS_SIMD_KERNELS:
                # what MSVC and other processors build: plain C, one kernel
                extension.define_macros.append(("S9_PORTABLE_ONLY", "1"))
            if extension.name in USES_OPENMP and openmp is not None:
                compile_flags, link_flags = openmp
                extension.extra_compile_args += compile_flags
                extension.extra_link_args += link_flags
        # setuptools hands the extensions to its pool of jobs in list order: the longest
        # compiles first, so that the last one to start is short and the jobs end together
        self.extensions.sort(key=_compile_size, reverse=True)
        super().build_extensions()

    def _openmp_flags(self, kind: str) -> tuple[list[str], list[str]] | None:
        """The OpenMP flags of this compiler if a test program builds with them, else None."""
        if os.environ.get("EXCOVER_NO_OPENMP", "") not in ("", "0"):
            print("excover: building without OpenMP (EXCOVER_NO_OPENMP is set)")
            return None
        flags = OPENMP.get(kind)
        if flags is None:
            return None
        compile_flags, link_flags = flags
        with tempfile.TemporaryDirectory() as scratch:
            source = Path(scratch) / "probe_openmp.c"
            source.write_text(_PROBE)
            try:
                objects = self.compiler.compile(
                    [str(source)], output_dir=scratch, extra_postargs=compile_flags
                )
                self.compiler.link_executable(
                    objects, "probe_openmp", output_dir=scratch, extra_postargs=link_flags
                )
            except Exception:  # any failure to compile or link means no usable OpenMP
                print("excover: the compiler has no usable OpenMP; one-thread frontier count")
                return None
        return flags


def _compile_size(extension: Extension) -> int:
    """How much C the compiler reads for ``extension``, in bytes: its C sources and every
    header of the project they include, as often as included (the Sudoku core includes
    its kernel once per instruction set), a measure of its compile time good enough to
    order the jobs."""
    return sum(_included_size(Path(source), extension.include_dirs) for source in extension.sources)


def _included_size(path: Path, include_dirs: list[str]) -> int:
    """The size of ``path`` and of the project's headers it includes, recursively."""
    if not path.exists():
        return 0
    text = path.read_text(errors="replace")
    size = len(text)
    for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.MULTILINE):
        for folder in [str(path.parent), *include_dirs]:
            if (Path(folder) / name).exists():
                size += _included_size(Path(folder) / name, include_dirs)
                break
    return size


#: The module that holds Cython's utility code for all the others (Cython >= 3.1).
SHARED_UTILITY = "excover._cyutility"

#: Declarations shared by the compiled modules (``_portable.h``, ``_tables.h``, their
#: ``.pxd`` files and the inline helpers of several folders, such as ``_sorting.pxd``).
SHARED_DIR = "src/excover"

#: A ``cimport`` of one of the project's modules (``from excover.zdd._keys cimport same``,
#: ``cimport excover._portable``) and an ``include`` of a part (``include "_driver.pxi"``).
_CIMPORT = re.compile(
    r"^\s*(?:from\s+(excover(?:\.\w+)+)\s+cimport|cimport\s+(excover(?:\.\w+)+))", re.M
)
_INCLUDE = re.compile(r'^\s*include\s+"([^"]+)"', re.M)


def _extension(name: str) -> Extension:
    """The extension ``name`` from its ``.pyx``, depending on the shared C headers, the C
    headers, ``.pxd`` and ``.pxi`` files beside it, and every ``.pxd`` of the project it
    cimports, wherever it is (:func:`_cimported`)."""
    path = "src/" + name.replace(".", "/") + ".pyx"
    beside = Path(path).parent
    return Extension(
        name,
        [path],
        include_dirs=[SHARED_DIR, str(beside)],
        depends=sorted(
            {
                f"{SHARED_DIR}/_portable.h",
                f"{SHARED_DIR}/_tables.h",
                *(str(header) for header in beside.glob("*.h")),
                *(str(shared) for shared in beside.glob("*.pxi")),
                *(str(header) for header in beside.glob("*.pxd")),
                *(str(declared) for declared in _cimported(Path(path))),
            }
        ),
    )


def _cimported(source: Path, seen: set[Path] | None = None) -> set[Path]:
    """The project's ``.pxd`` files that ``source`` (a ``.pyx``, ``.pxd`` or ``.pxi``)
    cimports, through the parts it includes and the ``.pxd`` files it cimports too: a
    change to any of them (an inline helper shared across folders) changes its C file."""
    seen = set() if seen is None else seen
    if source in seen or not source.exists():
        return set()
    seen.add(source)
    text = source.read_text(errors="replace")
    found = set()
    for named in _CIMPORT.findall(text):
        declared = Path("src", *"".join(named).split(".")).with_suffix(".pxd")
        if declared.exists():
            found |= {declared, *_cimported(declared, seen)}
    for part in _INCLUDE.findall(text):
        found |= _cimported(source.parent / part, seen)
    return found


def _translated(extension: Extension) -> bool:
    """Whether the extension's C file is there, newer than its Cython sources and this
    script (which sets Cython's options), and made by the Cython that translates now (a
    module and the shared utility module it imports from must come from the same one)."""
    pyx = Path(extension.sources[0])
    c_file = pyx.with_suffix(".c")
    sources = [pyx, Path(__file__), *(Path(d) for d in extension.depends)]
    return (
        c_file.exists()
        and all(c_file.stat().st_mtime >= s.stat().st_mtime for s in sources)
        and file_generated_by_this_cython(str(c_file))
    )


def _with_c_sources(extension: Extension) -> Extension:
    extension.sources = [str(Path(source).with_suffix(".c")) for source in extension.sources]
    return extension


extensions = [
    _extension("excover.engines._links"),
    _extension("excover.engines._bits"),
    _extension("excover.engines._cells"),
    _extension("excover.zdd._store"),
    _extension("excover.zdd._dxz"),
    _extension("excover.zdd._topdown"),
    _extension("excover.zdd._frontier"),
    _extension("excover.counting._components"),
    _extension("excover.preprocess._blocked"),
    _extension("excover.preprocess._items"),
    _extension("excover.puzzles.sudoku._grid"),
    _extension("excover.tiling._dissections"),
    _extension("excover.tiling._cell_frontier"),
    _extension("excover.tiling._rectangles"),
    _extension("excover.puzzles.sudoku._sudoku9"),
    _extension("excover.nonogram._core"),
    _extension("excover.burr._moves"),
    _extension("excover.burr._orbits"),
    _extension("excover.burr.xmpuzzle._cover"),
]

stale = [e for e in extensions if not _translated(e)]
up_to_date = [_with_c_sources(e) for e in extensions if e not in stale]
#: Cython's options, the same for every module and for the shared utility module.
CYTHON_OPTIONS: dict[str, Any] = {
    "include_path": ["src"],
    "shared_utility_qualified_name": SHARED_UTILITY,
    "language_level": 3,
    "compiler_directives": {
        "boundscheck": False,
        "wraparound": False,
        "cdivision": True,
        "initializedcheck": False,
    },
}
setup(
    cmdclass={"build_ext": BuildExtensions},
    # Cython writes the shared module's C file when it is missing or was written by
    # another Cython version, and leaves it alone otherwise (so that it is compiled once).
    ext_modules=cythonize(
        [Extension(SHARED_UTILITY, ["src/" + SHARED_UTILITY.replace(".", "/") + ".c"])],
        **CYTHON_OPTIONS,
    )
    + up_to_date
    + cythonize(
        stale,
        # translated whatever Cython's own test of dates says: _translated judged them
        force=True,
        # Cython's pool of processes re-imports this script where processes are spawned
        # (Windows, macOS): translate in parallel only where they are forked.
        nthreads=JOBS if JOBS > 1 and len(stale) > 1 and sys.platform.startswith("linux") else 0,
        **CYTHON_OPTIONS,
    ),
)
