"""The model's port to the engines: where the package plugs in its :class:`Solving`.

:class:`~excover.ExactCover` is read by every engine, so it lives below them and imports
none of them; its solving methods ask :func:`solving` for the object that does their work
(:class:`excover.solving.Solving`). The package's ``__init__`` plugs that object in when
excover is first imported, which Python does before it runs any excover module: by the time
a problem exists, the port is plugged. (Dependency inversion: the model names the
interface it needs, the layer above provides it.)
"""

from __future__ import annotations

from excover.errors import ExcoverError

TYPE_CHECKING = False  # typing is for type checkers: importing it costs each run ~6 ms
if TYPE_CHECKING:
    from excover.solving import Solving

__all__ = ["plug", "solving"]

_plugged: Solving | None = None


def plug(routes: Solving) -> None:
    """Make ``routes`` do the work of the model's solving methods."""
    global _plugged
    _plugged = routes


def solving() -> Solving:
    """The object plugged in by :func:`plug` (excover's ``__init__`` plugs it first)."""
    if _plugged is None:
        raise ExcoverError("excover.port is unplugged: import excover before solving")
    return _plugged
