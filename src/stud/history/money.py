"""Amounts: ints in the smallest unit inside, decimal text outside.

A record keeps every amount as an int (cents, or tournament chips) so that
sums are exact; ``decimals`` says where the point goes when a format prints
the amount in the currency's main unit.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Final

SYMBOLS: Final = {"$": "USD", "€": "EUR", "£": "GBP"}
CURRENCY_SYMBOLS: Final = {code: symbol for symbol, code in SYMBOLS.items()}


def to_units(text: str | int | Decimal, decimals: int) -> int:
    """``"0.04"`` with 2 decimals is 4; raise ValueError for text that is not an exact amount."""
    try:
        value = Decimal(text.replace(",", "")) if isinstance(text, str) else Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{text!r} is not an amount") from None
    scaled = value.scaleb(decimals)
    if scaled != scaled.to_integral_value() or scaled < 0:
        raise ValueError(f"{text!r} is not a whole number of 1/{10**decimals} units")
    return int(scaled)


def to_decimal(units: int, decimals: int) -> Decimal:
    """The amount in the main unit, e.g. 4 cents as ``Decimal('0.04')``."""
    return Decimal(units).scaleb(-decimals) if decimals else Decimal(units)


def fraction_digits(value: Decimal) -> int:
    """How many digits a number needs after the point (``0.50`` needs 1)."""
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def plain(units: int, decimals: int) -> str:
    """Whole amounts bare (``$1``, ``$3318``), others with cents (``$1.60``), as PokerStars does."""
    if decimals == 0:
        return str(units)
    whole, part = divmod(units, 10**decimals)
    if part == 0:
        return str(whole)
    return f"{whole}.{part:0{decimals}d}"
