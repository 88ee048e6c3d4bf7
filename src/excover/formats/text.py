"""Reading a text file for a parser: the text and the name to put in error messages.

Every front door that reads a file (ASCII-art patterns, nonogram clues, DIMACS formulas)
goes through :func:`read_text`, so a missing file or one that is not UTF-8 gives the same
:class:`~excover.ExcoverError` everywhere instead of an ``OSError`` or a
``UnicodeDecodeError``.
"""

from __future__ import annotations

import os

from excover.errors import FormatError, UsageError

__all__ = ["read_text"]


def read_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The text of the UTF-8 file ``path`` and its name.

    A path of the wrong type or a file that cannot be read raises
    :class:`~excover.UsageError`; a file that is not UTF-8,
    :class:`~excover.FormatError` naming it.
    """
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"a path must be a str or os.PathLike, not {path!r}")
    source = os.fspath(path)
    try:
        with open(source, encoding="utf-8-sig") as file:  # not pathlib: start-up time
            return file.read(), source
    except UnicodeDecodeError:
        raise FormatError("the input is not UTF-8 text", source=source) from None
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror}") from None
