"""The command line's door to a Dask cluster, ``--dask ADDRESS`` of every command that
takes one (``count``, ``sequence``, ``disassemble``, ``design``): :func:`connect_dask`,
imported only when a cluster is asked for."""

from __future__ import annotations

from excover.errors import UsageError

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CONNECT_SECONDS", "connect_dask"]

#: Seconds to wait for the Dask scheduler of ``--dask``.
CONNECT_SECONDS = 10


def connect_dask(address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or a UsageError saying why not."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--dask needs Dask: pip install 'excover[dask]'") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
