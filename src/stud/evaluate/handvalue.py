"""The full result of an evaluation: value, the five cards used, and the words."""

from __future__ import annotations

from dataclasses import dataclass

from stud.cards import Card


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's value (bigger is better), its five cards in display order and its description.

    ``category`` is e.g. ``"full house"`` for high hands, ``"low"`` (no pair) or
    ``"pair"`` for ace-to-five lows.
    """

    value: int
    cards: tuple[Card, ...]
    description: str
    category: str

    def __str__(self) -> str:
        return f"{self.description} [{' '.join(str(c) for c in self.cards)}]"
