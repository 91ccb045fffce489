"""Where a hand's cards come from: a shuffled deck, or the cards a record states.

The engine asks for each card as it deals it (a seat's card, a burn, the
community card). :class:`DeckCards` deals them off a :class:`stud.cards.Deck`
in table order; :class:`ScriptedCards` hands out the cards a hand history
names for each seat, ``None`` where the record hides a card (``??``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Protocol

from stud.cards import DECK_SIZE, Card, Deck


class CardSource(Protocol):
    """What the engine needs from a card source."""

    def for_seat(self, seat: int) -> int | None:
        """The next card dealt to ``seat``; ``None`` if unknown."""
        ...

    def burn(self) -> int | None:
        """The next burn card; ``None`` if unknown."""
        ...

    def community(self) -> int | None:
        """The community card of R12; ``None`` if unknown."""
        ...


_ALL_CARDS = frozenset(range(DECK_SIZE))


class DeckCards:
    """Deals every card off one deck, top first, in the order the table deals them.

    The deck is a :class:`stud.cards.Deck`, or all 52 card ints in dealing
    order (a shuffle done elsewhere, e.g. by a simulation: no ``Card``
    objects are made, so dealing costs next to nothing).
    """

    __slots__ = ("next_card", "remaining")

    def __init__(self, deck: Deck | Sequence[int], short: tuple[int, ...] | None = None) -> None:
        if short is not None:
            self._deal_short(deck, short)
            return
        if isinstance(deck, Deck):
            self.next_card: Callable[[], int] = deck.deal
            self.remaining = deck.remaining
            return
        try:
            # bytes() takes ints 0..255 only (no floats, no strings), in C; dealing
            # from it then gives plain ints whatever int type the caller used.
            order = bytes(deck.tolist() if hasattr(deck, "tolist") else deck)  # NumPy: values
        except (TypeError, ValueError):
            order = b""
        if len(order) != DECK_SIZE or set(order) != _ALL_CARDS:
            raise ValueError("a deck given as cards must be the 52 card ints 0..51, each once")
        self.next_card = iter(order).__next__
        self.remaining = DECK_SIZE

    def _deal_short(self, deck: Deck | Sequence[int], short: tuple[int, ...]) -> None:
        """Deal a short deck (``TableConfig.deck_cards``): a Deck's order kept to those cards,
        or a sequence that is exactly those cards in dealing order."""
        if isinstance(deck, Deck):
            wanted = frozenset(short)
            order = bytes(int(c) for c in deck.peek_remaining() if c in wanted)
        else:
            try:
                order = bytes(deck.tolist() if hasattr(deck, "tolist") else deck)
            except (TypeError, ValueError):
                order = b""
            if len(order) != len(short) or sorted(order) != list(short):
                raise ValueError(
                    f"a deck given as cards must be the table's {len(short)} deck_cards, each once"
                )
        self.next_card = iter(order).__next__
        self.remaining = len(order)

    def copy(self) -> DeckCards:
        """A copy at the same place in the same deck (the deck copied: each deals on alone)."""
        clone = DeckCards.__new__(DeckCards)
        clone.remaining = self.remaining
        dealer = self.next_card.__self__  # type: ignore[attr-defined]
        if isinstance(dealer, Deck):
            clone.next_card = copy.copy(dealer).deal
        else:  # an iterator over the deck's bytes, rebuilt at the same place
            _, (order,), place = dealer.__reduce__()
            cards = iter(order)
            cards.__setstate__(place)
            clone.next_card = cards.__next__
        return clone

    def for_seat(self, seat: int) -> int | None:
        return self.next_card()

    def burn(self) -> int | None:
        return self.next_card()

    def community(self) -> int | None:
        return self.next_card()


def _card(value: int | str | None) -> int | None:
    if value is None or value == "??":
        return None
    return int(Card(value)) if isinstance(value, int) else int(Card.parse(value))


def _seat_cards(cards: str | Sequence[int | str | None]) -> list[int | None]:
    if isinstance(cards, str):
        return [_card(token) for token in cards.replace(",", " ").split()]
    return [_card(c) for c in cards]


class ScriptedCards:
    """The cards a record gives: each seat's cards in the order dealt, ``None`` when hidden.

    ``seats[i]`` lists seat ``i``'s cards as dealt: down, down, up (3rd street),
    up, up, up, then down (7th), as ints, text (``"As"``) or ``None``/``"??"``,
    or as one string (``"?? ?? Kd 7c"``); a list that runs out deals unknown
    cards. ``community`` is the R12 card and ``burns`` the burn cards, if the
    record has them. Known cards must be distinct.
    """

    __slots__ = ("_burns", "_community", "_seats", "_used")

    def __init__(
        self,
        seats: Sequence[str | Sequence[int | str | None]],
        community: int | str | None = None,
        burns: Sequence[int | str | None] = (),
    ) -> None:
        self._seats = [_seat_cards(cards) for cards in seats]
        self._community = _card(community)
        self._burns = [_card(c) for c in burns]
        known = [c for cards in self._seats for c in cards if c is not None]
        known += [c for c in self._burns if c is not None]
        if self._community is not None:
            known.append(self._community)
        seen: set[int] = set()
        for c in known:
            if c in seen:
                raise ValueError(f"card {Card(c)} is given more than once")
            seen.add(c)
        if len(known) > DECK_SIZE:
            raise ValueError("more than 52 cards given")
        self._used = [0] * len(self._seats)

    def for_seat(self, seat: int) -> int | None:
        if seat >= len(self._seats):
            return None
        cards = self._seats[seat]
        index = self._used[seat]
        self._used[seat] = index + 1
        return cards[index] if index < len(cards) else None

    def burn(self) -> int | None:
        return self._burns.pop(0) if self._burns else None

    def community(self) -> int | None:
        return self._community
