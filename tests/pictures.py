"""Reading PNG screenshots in tests: the pixels of a PNG file decoded here (zlib and the
PNG row filters), so the browser tests need no image library."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["Image", "read_png"]

Image = npt.NDArray[np.uint8]


def read_png(path: Path) -> Image:
    """The pixels of an 8-bit, non-interlaced RGB or RGBA PNG file, as (rows, columns, 3)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, [], b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        tag = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if tag == b"IHDR":
            header = body
        elif tag == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "an unexpected PNG layout"
    channels = 3 if colour == 2 else 4
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), dtype=np.uint8)
    raw = raw.reshape(height, stride + 1)
    pixels = np.zeros((height, stride), dtype=np.int64)
    previous = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind, line = int(raw[y, 0]), raw[y, 1:].astype(np.int64)
        if kind == 0:
            row = line
        elif kind == 2:
            row = (line + previous) % 256
        elif kind == 1:
            row = line.reshape(width, channels).cumsum(axis=0).reshape(stride) % 256
        else:
            row = _sequential(kind, line, previous, channels)
        pixels[y] = row
        previous = row
    return pixels.reshape(height, width, channels)[:, :, :3].astype(np.uint8)


def _sequential(
    kind: int, line: npt.NDArray[np.int64], up: npt.NDArray[np.int64], step: int
) -> npt.NDArray[np.int64]:
    """Undo the Average (3) and Paeth (4) filters of one row, byte by byte."""
    out = [0] * len(line)
    above = up.tolist()
    for i, value in enumerate(line.tolist()):
        left = out[i - step] if i >= step else 0
        corner = above[i - step] if i >= step else 0
        if kind == 3:
            predicted = (left + above[i]) // 2
        else:
            guess = left + above[i] - corner
            distances = (abs(guess - left), abs(guess - above[i]), abs(guess - corner))
            predicted = (left, above[i], corner)[distances.index(min(distances))]
        out[i] = (value + predicted) % 256
    return np.array(out, dtype=np.int64)
