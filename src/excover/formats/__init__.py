"""Text formats of exact cover problems, read and written.

One module per format, each a pair of plain functions (parse/format, read/write) that
:class:`~excover.ExactCover` calls from its methods of the same name:

    dlx   Knuth's DLX1/DLX2/DLX3 input format (items, options, colors, multiplicities)

and ``text``, the one way every front door reads a text file (clear errors for a missing
or non-UTF-8 file), and ``xmltree``, the XML formats' element tree whose elements know
their lines.
"""

__all__: list[str] = []
