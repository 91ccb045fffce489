"""The equity notation: each player's known cards, street by street.

A hand is written ``DOWN | UP`` or, on 7th street, ``DOWN | UP | RIVER``:

* ``DOWN``: the two down cards of 3rd street; ``??`` is a card you do not
  know, and down cards left out are unknown too (``?? | Kh`` and ``| Kh`` are
  ``?? ?? | Kh``);
* ``UP``: the up cards in dealing order, one to four (3rd to 6th street);
* ``RIVER``: the 7th-street down card (a card or ``??``), only after four up
  cards.

Cards may be run together (``As2d``) or separated by spaces or commas. Dead
cards are a plain list in which ``??`` is a card out of play nobody saw (it
counts for the deck size, rule R12, but not for the odds).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stud.cards import Card, card_words

DOWN_CARDS = 2
MAX_UP_CARDS = 4
UNKNOWN = "??"
STREET_NAMES = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def tokens(text: str) -> list[Card | None]:
    """Split ``"As 2d ??"`` or ``"As2d??"`` into cards, with None for each ``??``."""
    return [None if w == UNKNOWN else Card.parse(w) for w in card_words(text, unknown=UNKNOWN)]


@dataclass(frozen=True)
class Hand:
    """One player's cards as seen: down, up and (on 7th street) the river card.

    ``None`` is an unknown card. The cards still to come are not stored: they
    follow from the street the table is on.
    """

    down: tuple[Card | None, ...]
    up: tuple[Card | None, ...]
    river: tuple[Card | None, ...] = ()

    def __post_init__(self) -> None:
        if len(self.down) != DOWN_CARDS:
            raise ValueError(f"a hand has {DOWN_CARDS} down cards, not {len(self.down)}")
        if not 1 <= len(self.up) <= MAX_UP_CARDS:
            raise ValueError(f"a hand has 1 to {MAX_UP_CARDS} up cards, not {len(self.up)}")
        if len(self.river) > 1:
            raise ValueError("a hand has one 7th-street down card at most")
        if self.river and len(self.up) != MAX_UP_CARDS:
            raise ValueError(
                f"a 7th-street card needs {MAX_UP_CARDS} up cards before it, not {len(self.up)}"
            )
        seen: set[int] = set()
        for card in self.known:
            if card in seen:
                raise ValueError(f"card {card} appears twice in one hand")
            seen.add(card)

    @property
    def street(self) -> int:
        """The street the hand is on: 3 (three cards) to 7 (seven)."""
        return DOWN_CARDS + len(self.up) + len(self.river)

    @property
    def known(self) -> list[Card]:
        """The cards known, down and up."""
        return [c for c in (*self.down, *self.up, *self.river) if c is not None]

    @property
    def unknown(self) -> int:
        """How many dealt cards are unknown (``??``)."""
        return sum(c is None for c in (*self.down, *self.up, *self.river))

    def __str__(self) -> str:
        def show(cards: Iterable[Card | None]) -> str:
            return " ".join(UNKNOWN if c is None else str(c) for c in cards)

        text = f"{show(self.down)} | {show(self.up)}"
        return f"{text} | {show(self.river)}" if self.river else text


def parse_hand(text: str) -> Hand:
    """Parse ``"As 2d | 3c"``, ``"?? | Kh"`` or ``"As 2d | 3c 4h 5s 6d | 7c"``."""
    sections = text.split("|")
    if len(sections) < 2:
        raise ValueError(
            f"hand {text!r}: write the down cards, '|', then the up cards, like 'As 2d | 3c'"
        )
    if len(sections) > 3:
        raise ValueError(f"hand {text!r}: at most three sections, DOWN | UP | RIVER")
    try:
        down = tokens(sections[0])
        up = tokens(sections[1])
        river = tokens(sections[2]) if len(sections) == 3 else []
    except ValueError as error:
        raise ValueError(f"hand {text!r}: {error}") from None
    if len(down) > DOWN_CARDS:
        raise ValueError(f"hand {text!r}: {len(down)} down cards, at most {DOWN_CARDS}")
    if not up:
        raise ValueError(f"hand {text!r}: no up cards after '|' (every hand has a door card)")
    if len(up) > MAX_UP_CARDS:
        raise ValueError(f"hand {text!r}: {len(up)} up cards, at most {MAX_UP_CARDS} (6th street)")
    if len(sections) == 3 and len(river) != 1:
        raise ValueError(
            f"hand {text!r}: the 7th-street section holds one card (or ??), not {len(river)}"
        )
    if river and len(up) != MAX_UP_CARDS:
        raise ValueError(
            f"hand {text!r}: a 7th-street card comes after {MAX_UP_CARDS} up cards, not {len(up)}"
        )
    down += [None] * (DOWN_CARDS - len(down))
    try:
        return Hand(tuple(down), tuple(up), tuple(river))
    except ValueError as error:
        raise ValueError(f"hand {text!r}: {error}") from None


def parse_dead(text: str | Iterable[str | int] | None) -> tuple[list[Card], int]:
    """Parse dead cards: the known ones, and how many ``??`` (unseen) there are."""
    if text is None:
        return [], 0
    items: list[Card | None] = []
    if isinstance(text, str):
        items = tokens(text)
    else:
        for item in text:
            if isinstance(item, int):
                items.append(Card(item))
            else:
                items.extend(tokens(item))
    known = [c for c in items if c is not None]
    return known, len(items) - len(known)


def as_hand(player: str | Hand) -> Hand:
    return player if isinstance(player, Hand) else parse_hand(player)


def check_distinct(named: Sequence[tuple[str, Iterable[Card]]]) -> None:
    """Raise ValueError naming a card that two places (or one place twice) hold."""
    owner: dict[int, str] = {}
    for name, cards in named:
        for card in cards:
            if card in owner and owner[card] == name:
                raise ValueError(f"card {card} appears twice in {name}")
            if card in owner:
                raise ValueError(f"card {card} appears twice: {owner[card]} and {name}")
            owner[card] = name


def check_streets(hands: Sequence[Hand]) -> int:
    """All players are on one street (each street deals every player a card); return it."""
    streets = [h.street for h in hands]
    if len(set(streets)) > 1:
        shown = ", ".join(f"player {i + 1} on {STREET_NAMES[s]}" for i, s in enumerate(streets))
        raise ValueError(f"players are on different streets: {shown}")
    return streets[0]
