"""The fill colours of pictures: one per tile or piece, and shades of them for the faces
of solids seen at an angle."""

from __future__ import annotations

import colorsys

__all__ = ["shade", "tile_colour"]

#: Twelve soft fills far apart in hue and lightness, for the first twelve tiles (a full
#: pentomino set tells its pieces apart at a glance).
_PALETTE = (
    "#e8837c",
    "#7fb3e6",
    "#f2cf6b",
    "#8fd18a",
    "#b894dd",
    "#f4a75e",
    "#6fcdc4",
    "#e991c8",
    "#b9c76a",
    "#9aa3e8",
    "#d9b08c",
    "#a8dcf0",
)


def tile_colour(number: int) -> str:
    """A fill colour for tile ``number``: a fixed palette for the first twelve tiles,
    then hues spread by the golden angle with alternating lightness."""
    if 0 <= number < len(_PALETTE):
        return _PALETTE[number]
    hue = (number * 0.381966) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.62 + 0.12 * (number % 2), 0.62)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def shade(colour: str, amount: float) -> str:
    """``colour`` (``#rrggbb``) mixed with white (``amount`` > 0) or black (< 0) in the
    proportion ``abs(amount)``: the lit and shadowed faces of a solid of that colour."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    target = 255 if amount > 0 else 0
    mixed = [round(c + (target - c) * abs(amount)) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in mixed)
