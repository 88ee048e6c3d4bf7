"""The JSON documents of results: one schema (``schema.json`` beside this module, version
:data:`SCHEMA_VERSION`) for every ``--json`` document of the command line and for what
the studio sends of a run, a document built whole (:func:`document`) or streamed entry by
entry as a run finds them (:class:`JsonStream`).

It stands at the bottom of the house (it imports only :mod:`excover.numbers`): the
command line's toolkit (:mod:`excover.cli`) and the studio each print its documents, and
neither owns it.
"""

from __future__ import annotations

from excover.numbers import json_count

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import IO, Any

__all__ = ["SCHEMA_VERSION", "JsonStream", "document", "exact", "schema"]

#: The version of the JSON documents printed by ``--json`` (``schema.json``).
SCHEMA_VERSION = 1


def exact(number: int) -> int | str:
    """A count for JSON: an int, or a decimal string when a double could not hold it
    (:func:`excover.numbers.json_count`: any size)."""
    return json_count(number)


def document(
    command: str,
    method: str | None,
    engine: str | None,
    stopped_by: str | None,
    **fields: Any,
) -> dict[str, Any]:
    """A JSON document of the shared schema: its envelope, then ``fields``."""
    head = {
        "schema": SCHEMA_VERSION,
        "command": command,
        "method": method,
        "engine": engine,
        "complete": stopped_by is None,
        "stopped_by": stopped_by,
    }
    if "count" in fields and isinstance(fields["count"], int):
        fields["count"] = exact(fields["count"])
    return {**head, **fields}


class JsonStream:
    """One JSON document whose list ``key`` is written entry by entry, as entries come
    (so ``--json`` streams too); :meth:`close` ends it with the envelope and ``fields``."""

    def __init__(self, out: IO[str], command: str, key: str = "solutions") -> None:
        import json  # here, not at the top: a run without --json spares the import

        self.out = out
        self.count = 0
        out.write(json.dumps({"schema": SCHEMA_VERSION, "command": command})[:-1])
        out.write(f", {json.dumps(key)}: [")
        out.flush()  # a reader sees at once that the run has started

    def add(self, entry: Any) -> None:
        """Write one entry of the list."""
        import json

        self.count += 1
        self.out.write(("," if self.count > 1 else "") + "\n" + json.dumps(entry))
        self.out.flush()

    def close(
        self, method: str | None, engine: str | None, stopped_by: str | None, **fields: Any
    ) -> None:
        """End the list and the document."""
        import json

        tail = document("", method, engine, stopped_by, **fields)
        del tail["schema"], tail["command"]
        self.out.write(f"\n], {json.dumps(tail)[1:]}\n")
        self.out.flush()


def schema() -> Mapping[str, Any]:
    """The JSON Schema of the documents (``excover schema`` prints it), shipped in the
    package."""
    import json
    from importlib.resources import files

    text = files("excover.documents").joinpath("schema.json").read_text(encoding="utf-8")
    result: Mapping[str, Any] = json.loads(text)
    return result
