"""Observations kept up to date event by event, so each one costs a few copies.

The table's public state lives in preallocated buffers that the engine's
events update in place: a *ring* of seat rows (every seat's row stored twice,
so any seat's relative view — itself first, then the seats to its left — is
one contiguous slice), the table part, and one private part per seat. An
observation is one ``concatenate`` of a seat's pieces into a new array.
Buffers are ``array.array`` (cheap item writes) shared with NumPy views
(cheap copies).

Privacy: the event handlers read no down card. A seat's down cards enter
only its own private part, from the engine's ``Hand.down_cards(seat)`` (what
``Hand.view(seat)`` shows that seat of itself); shown hands at the showdown
and burn cards are not encoded at all.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

import numpy as np

from stud.env.layout import (
    AGGRESSOR,
    ALL_IN,
    AMOUNTS,
    BET,
    BETTING,
    BETTING_FEATURES,
    CAPPED,
    COMMITTED,
    COMMUNITY,
    DOUBLE_BET,
    LEVEL,
    LIVE,
    POSITION,
    POT,
    PRESENT,
    PRIVATE,
    PUBLIC,
    ROW,
    SEATS,
    STACK,
    STREET,
    TABLE,
    TO_CALL,
    UP,
    WAGERS,
    FloatArray,
)
from stud.game import (
    Acted,
    ActionKind,
    AntePosted,
    BettingCapped,
    CardsDealt,
    CommunityCard,
    DoubleBetAllowed,
    Event,
    Hand,
    HandEnded,
    StreetStarted,
    UncalledBetReturned,
)

_COLUMN = {
    ActionKind.BRING_IN: BETTING_FEATURES.index("bring_in"),
    ActionKind.CHECK: BETTING_FEATURES.index("check"),
    ActionKind.CALL: BETTING_FEATURES.index("call"),
    ActionKind.COMPLETE: BETTING_FEATURES.index("wager"),
    ActionKind.BET: BETTING_FEATURES.index("wager"),
    ActionKind.RAISE: BETTING_FEATURES.index("wager"),
    ActionKind.FOLD: BETTING_FEATURES.index("fold"),
}
_PER_STREET = len(BETTING_FEATURES)
_WAGERS = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
_LEVELS = _WAGERS | {ActionKind.BRING_IN}
_FOLD = ActionKind.FOLD
# Table-part offsets relative to its own buffer.
_POT, _LEVEL, _WAGER_COUNT = POT - TABLE, LEVEL - TABLE, WAGERS - TABLE
_CAPPED, _DOUBLE, _STREET, _COMMUNITY = (
    CAPPED - TABLE,
    DOUBLE_BET - TABLE,
    STREET - TABLE,
    COMMUNITY - TABLE,
)


_concatenate = np.concatenate
_NO_TURN = array("f", bytes(4 * (SEATS - TO_CALL)))


def _buffer(size: int) -> tuple[array[float], FloatArray]:
    """A zeroed float32 buffer for item writes, and a NumPy view of the same memory."""
    items = array("f", bytes(4 * size))
    return items, np.frombuffer(items, dtype=np.float32)


class Encoder:
    """The observation buffers of one table, updated from each action's events."""

    def __init__(self, seats: int, big_bet: int) -> None:
        self.seats = seats
        self._big = big_bet
        self._half = seats * ROW  # the ring's second copy starts here
        self._ring, self._ring_view = _buffer(2 * seats * ROW)
        self._table, self._table_view = _buffer(PUBLIC)
        self._pad = np.zeros(TABLE - SEATS - self._half, dtype=np.float32)  # absent seats
        own = [_buffer(PRIVATE) for _ in range(seats)]
        self._own = [items for items, _ in own]
        self._own_view = [view for _, view in own]
        # Each seat's observation is these pieces end to end: its own part, its
        # relative seat rows (one slice of the ring), zero rows, the table part.
        self._parts = [
            (
                self._own_view[seat],
                self._ring_view[seat * ROW : seat * ROW + self._half],
                self._pad,
                self._table_view,
            )
            for seat in range(seats)
        ]
        self._stack = [0] * seats
        self._bet = [0] * seats
        self._committed = [0] * seats
        self._live = [True] * seats
        self._pot = 0
        self._level = 0
        self._wagers = 0
        self._street = 3
        self._aggressor = -1
        self._turn = -1
        self._antes = -1  # events up to 3rd street, known after the first hand
        self._fresh: tuple[
            array[float], array[float], list[array[float]], list[int], list[int], int
        ] = (array("f"), array("f"), [], [], [], 0)

    # ------------------------------------------------------------------ writing

    def _seat(self, seat: int, column: int, value: float) -> None:
        ring = self._ring
        i = seat * ROW + column
        ring[i] = value
        ring[i + self._half] = value

    def _set_stack(self, seat: int, stack: int) -> None:
        self._stack[seat] = stack
        self._seat(seat, STACK, stack / self._big)
        self._seat(seat, ALL_IN, 1.0 if stack == 0 and self._live[seat] else 0.0)

    def start(self, hand: Hand) -> None:
        """Clear the buffers for a new hand and apply its first events (antes, 3rd street).

        The antes are the same every hand at one table, so the state they leave
        is kept after the first hand and copied back for the next ones.
        """
        events = hand.events
        antes = self._antes
        if antes < 0:
            antes = next(i for i, e in enumerate(events) if type(e) is StreetStarted)
            self._clear(hand)
            self.apply(events[:antes], hand)
            self._antes = antes
            self._fresh = (
                array("f", self._ring),
                array("f", self._table),
                [array("f", own) for own in self._own],
                self._stack[:],
                self._committed[:],
                self._pot,
            )
        else:
            ring, table, own, stack, committed, pot = self._fresh
            self._ring[:] = ring
            self._table[:] = table
            for seat, items in enumerate(self._own):
                items[:] = own[seat]
            self._stack[:] = stack
            self._committed[:] = committed
            self._pot = pot
            for seat in range(self.seats):
                self._live[seat] = True
                self._bet[seat] = 0
            self._level = self._wagers = 0
            self._aggressor = self._turn = -1
            self._street = 3
        self.apply(events[antes:], hand)

    def _clear(self, hand: Hand) -> None:
        """Every buffer as before the antes of the first hand."""
        self._ring_view.fill(0.0)
        self._table_view.fill(0.0)
        for seat, view in enumerate(self._own_view):
            view.fill(0.0)
            self._own[seat][POSITION + seat] = 1.0
        self._pot = self._level = self._wagers = 0
        self._aggressor = self._turn = -1
        self._street = 3
        for seat, stack in enumerate(hand.config.stacks):
            self._live[seat] = True
            self._bet[seat] = self._committed[seat] = 0
            self._seat(seat, PRESENT, 1.0)
            self._seat(seat, LIVE, 1.0)
            self._set_stack(seat, stack)

    def apply(self, events: Iterable[Event], hand: Hand) -> None:
        """Bring the buffers up to date with ``events`` (what one action caused)."""
        for event in events:
            kind = type(event)
            if kind is Acted:
                self.acted(event)  # type: ignore[arg-type]
            elif kind is CardsDealt:
                self._dealt(event, hand)  # type: ignore[arg-type]
            elif kind is AntePosted:
                self._ante(event)  # type: ignore[arg-type]
            elif kind is StreetStarted:
                self._new_street(event.street)  # type: ignore[attr-defined]
            elif kind is UncalledBetReturned:
                self._returned(event)  # type: ignore[arg-type]
            elif kind is BettingCapped:
                self._table[_CAPPED] = 1.0
            elif kind is DoubleBetAllowed:
                self._table[_DOUBLE] = 1.0
            elif kind is CommunityCard:
                card = event.card  # type: ignore[attr-defined]
                if card is not None:
                    self._table[_COMMUNITY + card] = 1.0
            elif kind is HandEnded:
                self._clear_bets()
                for seat, stack in enumerate(event.stacks):  # type: ignore[attr-defined]
                    self._set_stack(seat, stack)

    def acted(self, event: Acted) -> None:
        """Apply one Acted event (what most actions cause alone)."""
        seat = event.seat
        kind = event.kind
        ring = self._ring
        i = seat * ROW
        j = i + self._half
        big = self._big
        amount = event.amount
        if amount:
            stack = self._stack[seat] - amount
            self._stack[seat] = stack
            value = stack / big
            ring[i + STACK] = value
            ring[j + STACK] = value
            if stack == 0:
                ring[i + ALL_IN] = ring[j + ALL_IN] = 1.0
            committed = self._committed[seat] + amount
            self._committed[seat] = committed
            value = committed / big
            ring[i + COMMITTED] = value
            ring[j + COMMITTED] = value
            self._bet[seat] = event.to
            value = event.to / big
            ring[i + BET] = value
            ring[j + BET] = value
            self._pot += amount
            self._table[_POT] = self._pot / big
        column = BETTING + (self._street - 3) * _PER_STREET + _COLUMN[kind]
        ring[i + column] += 1.0
        ring[j + column] += 1.0
        if kind is _FOLD:
            self._live[seat] = False
            ring[i + LIVE] = ring[j + LIVE] = 0.0
        elif kind in _LEVELS:
            self._level = event.to
            self._table[_LEVEL] = event.to / big
            if kind in _WAGERS:
                self._wagers += 1
                self._table[_WAGER_COUNT] = self._wagers
                if self._aggressor >= 0:
                    self._seat(self._aggressor, AGGRESSOR, 0.0)
                self._aggressor = seat
                ring[i + AGGRESSOR] = ring[j + AGGRESSOR] = 1.0

    def _dealt(self, event: CardsDealt, hand: Hand) -> None:
        seat = event.seat
        for card in event.up:
            if card is not None:
                i = seat * ROW + UP + card
                self._ring[i] = self._ring[i + self._half] = 1.0
        if event.street in (3, 7):
            # The seat's own down cards, from the engine, into its own part only.
            own = self._own[seat]
            for card in hand.down_cards(seat):
                if card is not None:
                    own[card] = 1.0

    def _ante(self, event: AntePosted) -> None:
        seat = event.seat
        self._committed[seat] += event.amount
        self._seat(seat, COMMITTED, self._committed[seat] / self._big)
        self._set_stack(seat, self._stack[seat] - event.amount)
        self._pot += event.amount
        self._table[_POT] = self._pot / self._big

    def _returned(self, event: UncalledBetReturned) -> None:
        seat = event.seat
        self._committed[seat] -= event.amount
        self._seat(seat, COMMITTED, self._committed[seat] / self._big)
        self._set_stack(seat, self._stack[seat] + event.amount)
        self._pot -= event.amount
        self._table[_POT] = self._pot / self._big

    def _clear_bets(self) -> None:
        for seat in range(self.seats):
            if self._bet[seat]:
                self._bet[seat] = 0
                self._seat(seat, BET, 0.0)

    def _new_street(self, street: int) -> None:
        self._clear_bets()
        table = self._table
        table[_STREET + self._street - 3] = 0.0
        table[_STREET + street - 3] = 1.0
        self._street = street
        self._level = self._wagers = 0
        table[_LEVEL] = table[_WAGER_COUNT] = table[_CAPPED] = table[_DOUBLE] = 0.0
        if self._aggressor >= 0:
            self._seat(self._aggressor, AGGRESSOR, 0.0)
            self._aggressor = -1

    # ------------------------------------------------------------------ the turn

    def set_turn(self, seat: int, amounts: array[float], call: int) -> None:
        """Show ``seat`` what calling costs it and each legal action's amount (its turn).

        ``amounts`` holds each action's street total in big bets (0 where
        illegal), ``call`` the street total a call brings it to (0: no call).
        """
        previous = self._turn
        if previous >= 0:
            self._own[previous][TO_CALL:SEATS] = _NO_TURN
        own = self._own[seat]
        own[AMOUNTS:SEATS] = amounts
        bet = self._bet[seat]
        own[TO_CALL] = (call - bet) / self._big if call > bet else 0.0
        self._turn = seat

    def clear_turn(self) -> None:
        """No seat's turn (the last actor's amounts are cleared)."""
        seat = self._turn
        if seat >= 0:
            self._own[seat][TO_CALL:SEATS] = _NO_TURN
            self._turn = -1

    # ------------------------------------------------------------------ reading

    def observe(self, seat: int) -> FloatArray:
        """``seat``'s observation: a new flat array (see :mod:`stud.env.layout`)."""
        return _concatenate(self._parts[seat])
