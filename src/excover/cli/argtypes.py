"""The argparse types of the shared flags: solving methods, whole numbers, amounts of
memory, numbers of worker processes and seconds, each refused with a message that says
what it should be.
"""

from __future__ import annotations

import argparse
import sys


def method(text: str) -> str:
    """An argparse type: a solving method, an old name (deprecated) read as the method it
    is now (:func:`excover.names.canonical_method`), with a note on stderr that says so."""
    from excover.names import canonical_method

    name = canonical_method(text)
    if name != text:
        print(
            f"excover: --method {text} is now --method {name} (the old name is deprecated)",
            file=sys.stderr,
        )
    return name


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of at least 0."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, not {text!r}")
    return value


#: The units of :func:`memory_size`: powers of 1024 (``K``, ``KB`` and ``KiB`` alike).
_SIZE_UNITS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4}


def memory_size(text: str) -> int:
    """An argparse type: an amount of memory, a number of bytes or one followed by ``K``,
    ``M``, ``G`` or ``T`` (powers of 1024; ``B``, ``iB`` and lower case allowed:
    ``512M``, ``1.5GiB``, ``2g``); ``0`` for no bound."""
    body = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = body[-1:] if body[-1:] in _SIZE_UNITS else ""
    number = body[: len(body) - len(unit)].strip()
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an amount of memory: {text!r} (say 512M, 2G, or a number of bytes)"
        ) from None
    size = value * 1024 ** _SIZE_UNITS[unit]
    if not 0 <= size < 2**63:  # also rejects nan and inf
        raise argparse.ArgumentTypeError(f"must be a non-negative amount, not {text!r}")
    return int(size)


def workers_count(text: str) -> int:
    """An argparse type: a number of worker processes, from 1 to
    :func:`excover.parallel.workers.most_workers` (a few per CPU of the machine)."""
    value = positive_int(text)
    from excover.parallel.workers import WORKERS_PER_CPU, most_workers

    most = most_workers()
    if value > most:
        raise argparse.ArgumentTypeError(
            f"must be at most {most} ({WORKERS_PER_CPU} per CPU of this machine), not {text}: "
            "more processes than CPUs only share them; to count on more machines, give "
            "'excover count' a Dask cluster (--dask ADDRESS)"
        )
    return value


def seconds(text: str) -> float:
    """An argparse type: a finite, non-negative number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value < 1e9:  # also rejects nan and inf
        raise argparse.ArgumentTypeError(f"must be a non-negative number, not {text!r}")
    return value
