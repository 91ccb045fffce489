"""Observations kept up to date event by event, so each one costs a few copies.

The table's public state lives in preallocated buffers that the engine's
events update in place: the seat rows (one per seat, in seat order), the
table part, and one private part per seat. A seat's observation is its own
part, the rows from its own seat round to the seat on its right (two slices),
zero rows for absent seats and the table part: each piece is a memoryview
prepared once, so an observation is one ``bytearray.join`` of them (a single
copy into fresh memory, several times cheaper than ``numpy.concatenate``)
wrapped by ``numpy.frombuffer``. Buffers are ``array.array``: cheap item
writes.

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


_join = bytearray().join
_frombuffer = np.frombuffer
_FLOAT32 = np.dtype(np.float32)
_NO_TURN = array("f", bytes(4 * (SEATS - TO_CALL)))


def _buffer(size: int) -> array[float]:
    """A zeroed float32 buffer."""
    return array("f", bytes(4 * size))


class Encoder:
    """The observation buffers of one table, updated from each action's events."""

    def __init__(self, seats: int, big_bet: int) -> None:
        self.seats = seats
        self._big = big_bet
        self._rows = _buffer(seats * ROW)
        self._table = _buffer(PUBLIC)
        self._own = [_buffer(PRIVATE) for _ in range(seats)]
        rows = memoryview(self._rows)
        absent = bytes(4 * (TABLE - SEATS - seats * ROW))
        table = memoryview(self._table)
        # Each seat's observation is these pieces end to end: its own part, its
        # relative seat rows (itself to the last seat, then the first seats up
        # to its right), zero rows for absent seats, the table part.
        self._parts = [
            (
                memoryview(self._own[seat]),
                rows[seat * ROW :],
                rows[: seat * ROW],
                absent,
                table,
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
        self._rows[seat * ROW + column] = value

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
                array("f", self._rows),
                array("f", self._table),
                [array("f", own) for own in self._own],
                self._stack[:],
                self._committed[:],
                self._pot,
            )
        else:
            rows, table, own, stack, committed, pot = self._fresh
            self._rows[:] = rows
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
        self._rows[:] = _buffer(len(self._rows))
        self._table[:] = _buffer(PUBLIC)
        for seat, own in enumerate(self._own):
            own[:] = _buffer(PRIVATE)
            own[POSITION + seat] = 1.0
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
        rows = self._rows
        i = seat * ROW
        big = self._big
        amount = event.amount
        if amount:
            stack = self._stack[seat] - amount
            self._stack[seat] = stack
            rows[i + STACK] = stack / big
            if stack == 0:
                rows[i + ALL_IN] = 1.0
            committed = self._committed[seat] + amount
            self._committed[seat] = committed
            rows[i + COMMITTED] = committed / big
            self._bet[seat] = event.to
            rows[i + BET] = event.to / big
            self._pot += amount
            self._table[_POT] = self._pot / big
        rows[i + BETTING + (self._street - 3) * _PER_STREET + _COLUMN[kind]] += 1.0
        if kind is _FOLD:
            self._live[seat] = False
            rows[i + LIVE] = 0.0
        elif kind in _LEVELS:
            self._level = event.to
            self._table[_LEVEL] = event.to / big
            if kind in _WAGERS:
                self._wagers += 1
                self._table[_WAGER_COUNT] = self._wagers
                if self._aggressor >= 0:
                    rows[self._aggressor * ROW + AGGRESSOR] = 0.0
                self._aggressor = seat
                rows[i + AGGRESSOR] = 1.0

    def _dealt(self, event: CardsDealt, hand: Hand) -> None:
        seat = event.seat
        for card in event.up:
            if card is not None:
                self._rows[seat * ROW + UP + card] = 1.0
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
        return _frombuffer(_join(self._parts[seat]), _FLOAT32)
