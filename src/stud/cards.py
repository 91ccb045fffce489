"""Cards, ranks, suits and the deck.

A card is a small int, ``rank * 4 + suit``: ranks 0..12 are deuce..ace and
suits 0..3 are clubs, diamonds, hearts, spades (the bring-in suit order of
rules.md R3, lowest first). So ``0`` is ``2c`` and ``51`` is ``As``, and the
int order of two cards is their bring-in order in Stud. Hot paths use the
ints; :class:`Card` is an ``int`` subclass that parses and prints for people.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
RANK_NAMES: Final = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS: Final = tuple("Sixes" if n == "Six" else n + "s" for n in RANK_NAMES)
SUIT_SYMBOLS: Final = "♣♦♥♠"
DECK_SIZE: Final = 52


class Card(int):
    """One card: an int in 0..51 that prints as ``As``, ``Td``, ``2c``."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= int(value) < DECK_SIZE:
            raise ValueError(f"card index {value!r} is not in 0..51")
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of rank index 0..12 (deuce..ace) and suit index 0..3 (c, d, h, s)."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise ValueError(f"no card of rank {rank!r} and suit {suit!r}")
        return cls(rank * 4 + suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``As``, ``td`` or ``10h``; raise ValueError naming the token."""
        token = text.strip()
        body = token[:-1]
        if body == "10":
            body = "T"
        if len(token) < 2 or len(body) != 1:
            raise ValueError(f"bad card {text!r}: expected a rank and a suit, like 'As' or 'Td'")
        rank = RANKS.find(body.upper())
        suit = SUITS.find(token[-1].lower())
        if rank < 0:
            raise ValueError(f"bad card {text!r}: unknown rank {body!r} (use one of {RANKS})")
        if suit < 0:
            raise ValueError(f"bad card {text!r}: unknown suit {token[-1]!r} (use one of {SUITS})")
        return cls(rank * 4 + suit)

    @property
    def rank(self) -> int:
        """Rank index, 0 (deuce) to 12 (ace)."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index, 0 (clubs) to 3 (spades)."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``A♠``."""
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]


def card_words(text: str, *, unknown: str | None = None) -> list[str]:
    """Split ``"As Kd 2c"``, ``"As,Kd"`` or ``"AsKd2c"`` into one word a card (``10h`` too).

    ``unknown`` (such as ``"??"``) is a word of its own wherever it stands. A
    piece too short to be a card raises ValueError naming it.
    """
    pieces: list[str] = []
    for word in text.replace(",", " ").split():
        pos = 0
        while pos < len(word):
            if unknown and word.startswith(unknown, pos):
                step = len(unknown)
            else:
                step = 3 if word.startswith("10", pos) else 2
            piece = word[pos : pos + step]
            if len(piece) < 2:
                raise ValueError(f"bad card {piece!r} in {word!r}: a card is a rank and a suit")
            pieces.append(piece)
            pos += step
    return pieces


def parse_cards(text: str | Iterable[str | int], *, distinct: bool = True) -> list[Card]:
    """Parse ``"As Kd 2c"``, ``"AsKd2c"`` or an iterable of tokens/ints into cards.

    With ``distinct`` (the default) a repeated card raises ValueError naming it.
    """
    cards: list[Card]
    if isinstance(text, str):
        cards = [Card.parse(piece) for piece in card_words(text)]
    else:
        cards = [Card(item) if isinstance(item, int) else Card.parse(item) for item in text]
    if distinct:
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise ValueError(f"card {card} appears more than once")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    """Print cards as ``As Kd 2c``."""
    return sep.join(str(Card(c)) for c in cards)


def full_deck() -> list[Card]:
    """All 52 cards in index order (2c first, As last)."""
    return [Card(i) for i in range(DECK_SIZE)]


class Deck:
    """A shuffled deck that deals from the top.

    ``Deck(seed=7)`` is reproducible (for tests and replays); ``Deck()`` shuffles
    with the operating system's CSPRNG. Both use Python's unbiased Fisher-Yates
    ``shuffle``. ``Deck.stacked(cards)`` deals the given cards in order first.
    """

    __slots__ = ("_cards", "_next")

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        if rng is None:
            rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
        cards = list(range(DECK_SIZE))
        rng.shuffle(cards)
        self._cards: list[int] = cards
        self._next = 0

    @classmethod
    def stacked(cls, top: Sequence[int | str] | str, seed: int | None = 0) -> Deck:
        """A deck whose first cards are ``top`` (in dealing order); the rest follow shuffled."""
        wanted = parse_cards(top)
        taken = set(wanted)
        deck = cls(seed)
        rest = [c for c in deck._cards if c not in taken]
        deck._cards = [int(c) for c in wanted] + rest
        return deck

    def deal(self) -> Card:
        """Take the top card; ValueError if the deck is empty."""
        if self._next >= DECK_SIZE:
            raise ValueError("the deck is empty")
        card = self._cards[self._next]
        self._next += 1
        return Card(card)

    def deal_many(self, count: int) -> list[Card]:
        return [self.deal() for _ in range(count)]

    @property
    def remaining(self) -> int:
        return DECK_SIZE - self._next

    def peek_remaining(self) -> list[Card]:
        """The undealt cards in dealing order (for tests and replays only)."""
        return [Card(c) for c in self._cards[self._next :]]

    def __len__(self) -> int:
        return self.remaining
