"""Reading a ``.cmb`` program away from the server: one bounded child per import.

An import runs a user's declarations (:func:`excover.studio.program.from_cmb`), which
may ask for any amount of memory and time: a few kilobytes of program can name
gigabytes of patterns. So it happens in a child process
(:class:`~excover.studio.child.Child`) whose address space is bounded and which is
killed past its time, both as :class:`~excover.studio.limits.Limits` say; the server
waits for its answer without holding a thread. The time limit counts from the child's
word that it is ready (started, the language loaded). Its answer is the design's JSON,
or an error: a located error of the language, sent as its parts and raised here as the same
:class:`~excover.lang.LangError` (line, column, the line quoted), or a one-line
message. Everything else, the memory bound, the time limit, an unexpected exception in
the child or a child that died, is raised as :class:`ImportFailed` with a clean message:
never a traceback, and the server goes on.
"""

from __future__ import annotations

from typing import Any

from excover.errors import ExcoverError, UsageError
from excover.lang.errors import LangError, Pos, Source
from excover.studio.child import Child, Outbox, answer
from excover.studio.design import StudioDesign
from excover.studio.limits import Limits

__all__ = ["MAX_IMPORTS_WAITING", "ImportFailed", "import_design", "imported"]

Event = dict[str, Any]

#: Imports (and the burr workshop's edits, made as imports are) run one at a time; at
#: most this many more wait for their turn.
MAX_IMPORTS_WAITING = 4
#: The most characters of an unexpected error's text that a message quotes.
_QUOTED = 200


class ImportFailed(UsageError):
    """An import stopped by a limit (memory, time) or by an unexpected failure."""


def imported(text: str, source: str, folder: str | None, news: Outbox) -> None:
    """The child's work: the design of the program ``text`` (named ``source``, its includes
    under ``folder``), or the error, sent through ``news``."""
    from excover.lang.grammar import parser
    from excover.studio.program import from_cmb

    parser()  # built before the time limit counts: it takes a moment, whatever the program
    news.send({"type": "ready"})
    event: Event | None = None
    try:
        event = {"type": "design", "design": from_cmb(text, source, folder).to_json()}
    except LangError as error:
        event = {
            "type": "lang_error",
            "message": error.message,
            "source": error.pos.source.name,
            "line": error.pos.line,
            "column": error.pos.column,
            "text": error.pos.source.line(error.pos.line),
        }
    except ExcoverError as error:
        event = {"type": "error", "message": str(error)}
    except MemoryError:
        pass  # said below, once the frames holding the memory are gone
    except RecursionError:
        event = {"type": "error", "message": "the import stopped: the program nests too deeply"}
    except Exception as error:  # a bug: said in one line, never a traceback
        said = f"{type(error).__name__}: {error}"[:_QUOTED]
        event = {"type": "error", "message": f"the import failed ({said}): please report it"}
    news.send(event or {"type": "error", "message": news.memory_message})
    news.close()


async def import_design(
    text: str, source: str, folder: str | None, limits: Limits, running: set[Child] | None = None
) -> StudioDesign:
    """The design of the program ``text`` (see :func:`excover.studio.program.from_cmb`),
    read in a child within ``limits``; the child is in ``running`` while it lives (the
    server kills them when it stops). Raises :class:`~excover.lang.LangError` for an
    error of the program, :class:`ImportFailed` when a limit or a failure stopped it."""
    child = Child(imported, (text, source, folder), "the import", limits)
    too_long = (
        f"the import stopped: it took more than {limits.seconds:g} s "
        "(excover studio --import-timeout)"
    )
    event = await answer(child, limits.seconds, too_long, ImportFailed, running)
    if event["type"] == "lang_error":
        lines = "\n" * (event["line"] - 1) + event["text"]
        pos = Pos(Source(event["source"], lines), event["line"], event["column"])
        raise LangError(event["message"], pos)
    if event["type"] == "error":
        raise ImportFailed(event["message"])
    return StudioDesign.from_json(event["design"])
