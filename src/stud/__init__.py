"""Stud: Seven Card Stud, Stud Hi/Lo and Razz in Python."""

from stud.cards import Card, Deck, format_cards, parse_cards

__all__ = ["Card", "Deck", "format_cards", "parse_cards"]
__version__ = "0.1.0"
