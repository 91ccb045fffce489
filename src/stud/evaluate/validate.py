"""Input checks shared by the evaluators: a clear ValueError beats a wrong answer."""

from __future__ import annotations

from collections.abc import Sequence

from stud.cards import DECK_SIZE, Card


def checked_cards(cards: Sequence[int], sizes: tuple[int, ...] = (5, 6, 7)) -> tuple[int, ...]:
    """The cards as plain ints, or ValueError naming the wrong count, a non-card or a repeat."""
    try:
        count = len(cards)
    except TypeError:
        raise ValueError(f"expected a sequence of cards, got {type(cards).__name__}") from None
    if count not in sizes:
        allowed = ", ".join(str(n) for n in sizes[:-1]) + f" or {sizes[-1]}"
        raise ValueError(f"expected {allowed} cards, got {count}")
    out: list[int] = []
    seen: set[int] = set()
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
            raise ValueError(f"not a card: {card!r} (cards are ints 0..51)")
        value = int(card)
        if value in seen:
            raise ValueError(f"card {Card(value)} appears more than once")
        seen.add(value)
        out.append(value)
    return tuple(out)
