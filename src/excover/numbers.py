"""Exact decimal text for integers of any size, whatever the interpreter's limit.

Counts are exact integers of any size (the tilings of a big board have thousands of
digits), but CPython refuses to turn an integer of more than 4,300 digits into decimal
text or back (``ValueError: Exceeds the limit ...``; :func:`sys.set_int_max_str_digits`,
a guard against slow quadratic conversions of untrusted input). ``str(n)``,
``f"{n:,}"``, ``json.dumps(n)``, ``int(text)`` and ``json.loads(text)`` all hit it.
A library must not lift that limit: it is the whole process's setting, and its user's.

So every count that leaves excover goes through the functions here, which convert any
size without touching the limit: the number is cut by ``divmod`` with powers of ten into
pieces of at most :data:`PIECE` digits, fewer than the lowest limit Python accepts (640),
and the pieces are converted by ``str`` and ``int`` (and joined back with the same powers
for reading). Cutting in halves keeps the cost that of one ``str`` of the whole number
(quadratic, as ``str`` is in CPython 3.11) rather than one division per piece.

This module imports nothing from excover, so that any module may use it.
"""

from __future__ import annotations

__all__ = [
    "PIECE",
    "abbreviated",
    "byte_size",
    "from_decimal",
    "grouped",
    "json_count",
    "to_decimal",
]

#: The most digits converted by one ``str`` or ``int`` call: below 640, the lowest value
#: ``sys.set_int_max_str_digits`` accepts, so the conversions work under any limit.
PIECE = 512

#: An integer below ``10**PIECE`` has at most this many bits (``10**PIECE > 2**1700``).
_PIECE_BITS = 1700

#: Counts at or above this are written as decimal strings in JSON: readers that hold
#: numbers as doubles (JavaScript's among them) would round them.
_JSON_EXACT = 2**53


def to_decimal(number: int) -> str:
    """The decimal text of ``number`` (as ``str(number)``), for any size."""
    if number < 0:
        return "-" + to_decimal(-number)
    if number.bit_length() <= _PIECE_BITS:
        return str(number)
    powers = _powers(number.bit_length() * 30103 // 100000 + 1)  # log10(2) < 0.30103
    return _digits(number, powers, len(powers) - 1, pad=False)


def _powers(digits: int) -> list[int]:
    """``[10**PIECE, 10**(2*PIECE), 10**(4*PIECE), ...]`` up to the first whose square
    has at least ``digits`` digits: every number of ``digits`` digits is below it."""
    powers = [10**PIECE]
    while 2 ** len(powers) * PIECE < digits:
        powers.append(powers[-1] * powers[-1])
    return powers


def _digits(number: int, powers: list[int], level: int, pad: bool) -> str:
    """The decimal text of ``number < powers[level] ** 2``, zero-padded to the full
    width of that bound (``2 ** (level + 1) * PIECE`` digits) when ``pad``."""
    if level < 0:
        text = str(number)  # number < 10**PIECE: within any limit
        return text.zfill(PIECE) if pad else text
    high, low = divmod(number, powers[level])
    if not high and not pad:
        return _digits(low, powers, level - 1, pad=False)
    return _digits(high, powers, level - 1, pad) + _digits(low, powers, level - 1, pad=True)


def from_decimal(text: str) -> int:
    """The integer written in decimal in ``text`` (an optional sign, then ASCII digits
    only), for any size; ValueError, naming the text, for anything else."""
    digits = text[1:] if text[:1] in ("-", "+") else text
    if not (digits.isascii() and digits.isdigit()):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"not a decimal integer: {shown!r}")
    value = _value(digits, _powers(len(digits)))
    return -value if text[:1] == "-" else value


def _value(digits: str, powers: list[int]) -> int:
    """The integer of the ASCII digit string ``digits``: its low ``2**k * PIECE`` digits
    (the largest such block shorter than the string) and its high ones, read apart."""
    if len(digits) <= PIECE:
        return int(digits)
    level = 0
    while 2 ** (level + 1) * PIECE < len(digits):
        level += 1
    cut = len(digits) - 2**level * PIECE
    return _value(digits[:cut], powers) * powers[level] + _value(digits[cut:], powers)


def grouped(number: int) -> str:
    """``number`` with a comma between groups of three digits (as ``f"{number:,}"``),
    for any size."""
    text = to_decimal(abs(number))
    head = len(text) % 3 or 3
    groups = [text[:head], *(text[at : at + 3] for at in range(head, len(text), 3))]
    return ("-" if number < 0 else "") + ",".join(groups)


def abbreviated(number: int, significant: int = 4) -> str:
    """``number`` short enough for a progress bar, for any size: with commas up to
    :data:`_SHORT` digits (``123,456``), else rounded to ``significant`` digits in
    scientific notation (``3.642e+333``), found without writing out all its digits."""
    size = abs(number)
    if size < 10**_SHORT:
        return f"{number:,}"
    exponent = _magnitude(size)
    shift = exponent + 1 - significant  # the digits dropped, but one kept to round by
    lead = (size // 10 ** (shift - 1) + 5) // 10
    if lead == 10**significant:  # 9.9996e+N rounds up to 1.000e+(N+1)
        lead //= 10
        exponent += 1
    mantissa = str(lead)
    sign = "-" if number < 0 else ""
    return f"{sign}{mantissa[0]}.{mantissa[1:]}e+{exponent}"


#: The most digits :func:`abbreviated` writes out in full.
_SHORT = 15


def _magnitude(number: int) -> int:
    """The exponent of the leading digit of ``number > 0``: ``len(str(number)) - 1``."""
    exponent = (number.bit_length() - 1) * 30102999566 // 10**11  # log10(2) > 0.30102999566
    while 10 ** (exponent + 1) <= number:
        exponent += 1
    return exponent


def json_count(number: int) -> int | str:
    """A count for JSON: the int itself, or its decimal text when a double could not
    hold it exactly (``json.dumps`` of the int would also fail beyond the limit)."""
    return number if -_JSON_EXACT < number < _JSON_EXACT else to_decimal(number)


#: The binary units of :func:`byte_size`, each 1024 times the one before.
_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def byte_size(number: int) -> str:
    """A number of bytes for people: ``512 bytes``, ``1.5 GiB`` (binary units, one
    decimal once past bytes)."""
    if number < 1024:
        return f"{number} bytes"
    unit = 0
    value = float(number)
    while value >= 1024 and unit < len(_UNITS) - 1:
        value /= 1024
        unit += 1
    return f"{value:.1f} {_UNITS[unit]}"
