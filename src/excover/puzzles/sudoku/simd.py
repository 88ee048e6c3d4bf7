"""Which instruction set the compiled 9x9 Sudoku core runs with, chosen at run time.

The core (:mod:`excover.puzzles.sudoku._sudoku9`) holds one copy of its search per instruction
set: ``portable`` (plain C, SSE2 on x86-64), and on x86 built with GCC or Clang ``sse4``
(SSE4.1 and POPCNT), ``avx2`` (AVX2, BMI1/2) and ``avx512`` (AVX-512 F, BW and VL). All
give the same answers; on import the widest one the CPU runs is used, so that one build
(or wheel) runs everywhere at its best.

The environment variable ``EXCOVER_SIMD`` forces one of them
(``EXCOVER_SIMD=portable|sse4|avx2|avx512``); an unknown name, or a kernel the CPU
cannot run, is refused with a :class:`~excover.UsageError` when the core is first used,
never silently replaced by another. :func:`simd_kernel` names the kernel in use (also
``excover.simd_kernel()``, and ``excover --version``).
"""

from __future__ import annotations

import os
from types import ModuleType

from excover.errors import UsageError

__all__ = [
    "ENVIRONMENT",
    "KERNELS",
    "available_kernels",
    "core",
    "kernel_for",
    "simd_kernel",
    "use_kernel",
]

#: The environment variable that forces a kernel.
ENVIRONMENT = "EXCOVER_SIMD"

#: Every kernel's name, narrowest first (those of a build may be fewer: see
#: :func:`available_kernels`).
KERNELS = ("portable", "sse4", "avx2", "avx512")

_chosen: ModuleType | None = None


def available_kernels() -> tuple[str, ...]:
    """The kernels this build has and this CPU runs, narrowest first."""
    from excover.puzzles.sudoku import _sudoku9

    return _sudoku9.supported()


def kernel_for(value: str | None) -> str:
    """The kernel that ``EXCOVER_SIMD=value`` asks for (unset or empty: the widest this
    CPU runs). Raises :class:`~excover.UsageError` for a name not in :data:`KERNELS` or
    a kernel this CPU (or this build) cannot run, naming the ones it can."""
    from excover.puzzles.sudoku import _sudoku9

    runs = _sudoku9.supported()
    name = (value or "").strip().lower()
    if not name:
        return _sudoku9.best()
    if name not in KERNELS:
        raise UsageError(
            f"{ENVIRONMENT}={value!r} is not a kernel: use one of {', '.join(KERNELS)} "
            f"(this CPU runs {', '.join(runs)})"
        )
    if name not in runs:
        raise UsageError(
            f"{ENVIRONMENT}={name}: this CPU (or this build) cannot run the {name} kernel; "
            f"it runs {', '.join(runs)}"
        )
    return name


def core() -> ModuleType:
    """The compiled core, its kernel chosen by ``EXCOVER_SIMD`` (read on the first call).
    Raises :class:`~excover.UsageError` at every call while that value is refused."""
    global _chosen
    if _chosen is None:
        from excover.puzzles.sudoku import _sudoku9

        _sudoku9.select(kernel_for(os.environ.get(ENVIRONMENT)))
        _chosen = _sudoku9
    return _chosen


def simd_kernel() -> str:
    """The name of the kernel the Sudoku core runs with: one of :data:`KERNELS`."""
    kernel: str = core().kernel()
    return kernel


def use_kernel(name: str) -> None:
    """Makes ``name`` the kernel of the Sudoku core from now on, in this process (the
    tests and the benchmark compare the kernels this way); refused as ``EXCOVER_SIMD``
    would refuse it."""
    core().select(kernel_for(name))
