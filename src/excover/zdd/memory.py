"""The memory bound of the ZDD method: how much its tables may hold.

A ZDD count or listing can need more memory than the machine has (the node store, the
DXZ memo, the states of the top-down construction or of the frontier count all grow
with the problem), and a process that asks for too much is killed by the kernel without
a word. So every construction has a bound in bytes, checked where its tables grow (a
doubling, never per node), past which it stops with
:class:`~excover.errors.MemoryBoundError`.

The bound is :data:`SHARE` of the machine's memory (:func:`machine_memory`: the physical
memory, or the limit of the process's control group when that is lower, as in a
container) unless :func:`excover.zdd.configure` set another (``max_bytes``, 0 for no
bound); a :class:`~excover.zdd.Manager` or a call may be given its own. This module
imports nothing compiled, so that a frontier count reads its bound without loading the
node store.
"""

from __future__ import annotations

import os

from excover.errors import UsageError

__all__ = ["SHARE", "checked", "default_bound", "machine_memory", "set_default_bound"]

#: The share of the machine's memory the ZDD method may hold by default.
SHARE = 0.5

#: The files that hold a control group's memory limit (version 2, then version 1).
_CGROUP_LIMITS = (
    "/sys/fs/cgroup/memory.max",
    "/sys/fs/cgroup/memory/memory.limit_in_bytes",
)

#: The bound :func:`excover.zdd.configure` set (None: :data:`SHARE` of the machine's).
_configured: int | None = None


def machine_memory() -> int | None:
    """The bytes of memory this process may use: the machine's physical memory, or its
    control group's limit when that is lower; None when neither can be read."""
    try:
        memory: int | None = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or no such name
        memory = None
    for path in _CGROUP_LIMITS:
        try:
            with open(path, encoding="utf-8") as limit:  # digits or "max" (utf-8: no codec to load)
                text = limit.read().strip()
        except (OSError, ValueError):
            continue
        if text.isdigit() and int(text) > 0:  # "max": no limit
            memory = int(text) if memory is None else min(memory, int(text))
        break
    return memory


def default_bound() -> int:
    """The bound of a construction given none: the one :func:`set_default_bound` set, else
    :data:`SHARE` of :func:`machine_memory` (0, no bound, when that is unknown)."""
    if _configured is not None:
        return _configured
    memory = machine_memory()
    return 0 if memory is None else int(memory * SHARE)


def set_default_bound(max_bytes: int | None) -> None:
    """Make ``max_bytes`` (0: no bound; None: back to :data:`SHARE` of the machine's
    memory) the bound of every construction given none."""
    global _configured
    _configured = None if max_bytes is None else checked(max_bytes)


def checked(max_bytes: int) -> int:
    """``max_bytes`` after checking that it is a bound: a non-negative int (0: none)."""
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise UsageError(f"max_bytes must be a non-negative int (0: no bound), not {max_bytes!r}")
    return max_bytes
