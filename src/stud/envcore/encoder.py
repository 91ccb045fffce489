"""Observations kept up to date event by event, so each one costs a few copies.

The table's public state lives in preallocated buffers that the engine's
events update in place: the seat rows (one per seat, in seat order), the
table part, and one private part per seat (its down cards and position).
A seat's observation is its private part, the turn piece (what calling costs
and each legal index's amount: the acting seat's, given by the caller, or
zeros), the rows from its own seat round to the seat on its right (two
slices), zero rows for absent seats and the table part: memoryviews prepared
once, so writing an observation is one ``bytearray.join`` of them and one
copy over the vector's bytes (cheaper than a copy per piece, and several
times cheaper than ``numpy.concatenate``); :mod:`stud.envcore.recycle`
provides the vectors. Buffers are ``array.array`` written through float32
memoryviews, one per seat row (a memoryview item write is a few times
cheaper than ``array.__setitem__``, which parses its argument with a format
string).

Privacy: the event handlers read no down card. A seat's down cards enter
only its own private part, from the engine's ``Hand.down_cards(seat)`` (what
``Hand.view(seat)`` shows that seat of itself); shown hands at the showdown
and burn cards are not encoded at all.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from stud.envcore.offsets import (
    AGGRESSOR,
    ALL_IN,
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
    PUBLIC,
    ROW,
    SEATS,
    SIZE,
    STACK,
    STREET,
    TABLE,
    TO_CALL,
    UP,
    WAGERS,
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

# Action kinds are compared by identity: an enum's hash is computed in Python, slowly.
_CALL: Final = ActionKind.CALL
_CHECK: Final = ActionKind.CHECK
_FOLD: Final = ActionKind.FOLD
_BRING_IN: Final = ActionKind.BRING_IN  # every other kind is a complete, bet or raise
# The betting-record column of each kind (see BETTING_FEATURES).
_CALLS: Final = BETTING_FEATURES.index("call")
_CHECKS: Final = BETTING_FEATURES.index("check")
_FOLDS: Final = BETTING_FEATURES.index("fold")
_BRING_INS: Final = BETTING_FEATURES.index("bring_in")
_WAGERED: Final = BETTING_FEATURES.index("wager")
_PER_STREET: Final = len(BETTING_FEATURES)
# Table-part offsets relative to its own buffer (Final: C constants, not global lookups).
_POT: Final = POT - TABLE
_LEVEL: Final = LEVEL - TABLE
_WAGER_COUNT: Final = WAGERS - TABLE
_CAPPED: Final = CAPPED - TABLE
_DOUBLE: Final = DOUBLE_BET - TABLE
_STREET: Final = STREET - TABLE
_COMMUNITY: Final = COMMUNITY - TABLE
# The event classes, held in C statics: a bare imported name is a dict lookup each time.
_ACTED: Final = Acted
_CARDS_DEALT: Final = CardsDealt
_ANTE_POSTED: Final = AntePosted
_STREET_STARTED: Final = StreetStarted
_UNCALLED_BET_RETURNED: Final = UncalledBetReturned
_BETTING_CAPPED: Final = BettingCapped
_DOUBLE_BET_ALLOWED: Final = DoubleBetAllowed
_COMMUNITY_CARD: Final = CommunityCard
_HAND_ENDED: Final = HandEnded


FloatArray = npt.NDArray[np.float32]

_empty: Final = np.empty
_join: Final = bytearray().join
_FLOAT32: Final = np.dtype(np.float32)
OWN: Final = TO_CALL
"""Length of a seat's own part kept here: its down cards and position."""
NO_TURN: Final = bytes(4 * (SEATS - TO_CALL))
"""The turn piece of a seat whose turn it is not: nothing to call, no amounts."""


def _buffer(size: int) -> array[float]:
    """A zeroed float32 buffer."""
    return array("f", bytes(4 * size))


def _floats(buffer: array[float]) -> memoryview[float]:
    """A float32 view of ``buffer`` for item writes."""
    return memoryview(buffer).cast("B").cast("f")


class Encoder:
    """The observation buffers of one table, updated from each action's events."""

    def __init__(self, seats: int, big_bet: int) -> None:
        self.seats = seats
        self._big = big_bet
        self._rows = _buffer(seats * ROW)
        self._table = _buffer(PUBLIC)
        self._owns = _buffer(seats * OWN)  # every seat's own part, end to end
        # Writes go through these float32 views of the same memory.
        self._t = _floats(self._table)
        owns = _floats(self._owns)
        self._o = [owns[seat * OWN : (seat + 1) * OWN] for seat in range(seats)]
        rows = _floats(self._rows)
        self._row = [rows[seat * ROW : (seat + 1) * ROW] for seat in range(seats)]
        """Each seat's row: its writes use small indices (no int is allocated for one)."""
        # Each seat's observation is these pieces end to end: its own part, the
        # turn piece (set by write), its relative seat rows (itself to the last
        # seat, then the first seats up to its right), zero rows for absent
        # seats, the table part: one bytearray.join copies them all.
        absent = bytes(4 * (TABLE - SEATS - seats * ROW))
        self._parts: list[list[bytes | memoryview[float]]] = [
            [
                self._o[seat],
                NO_TURN,
                rows[seat * ROW :],
                rows[: seat * ROW],
                absent,
                self._t,
            ]
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
        self._antes = -1  # events up to 3rd street, known after the first hand
        self._fresh: tuple[array[float], array[float], array[float], list[int], list[int], int] = (
            array("f"),
            array("f"),
            array("f"),
            [],
            [],
            0,
        )

    # ------------------------------------------------------------------ writing

    def _seat(self, seat: int, column: int, value: float) -> None:
        self._row[seat][column] = value

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
            antes = next(i for i, e in enumerate(events) if type(e) is _STREET_STARTED)
            self._clear(hand)
            self.apply(events[:antes], hand)
            self._antes = antes
            self._fresh = (
                array("f", self._rows),
                array("f", self._table),
                array("f", self._owns),
                self._stack[:],
                self._committed[:],
                self._pot,
            )
        else:
            rows, table, own, stack, committed, pot = self._fresh
            self._rows[:] = rows
            self._table[:] = table
            self._owns[:] = own
            self._stack[:] = stack
            self._committed[:] = committed
            self._pot = pot
            for seat in range(self.seats):
                self._live[seat] = True
                self._bet[seat] = 0
            self._level = self._wagers = 0
            self._aggressor = -1
            self._street = 3
        self.apply(events[antes:], hand)

    def _clear(self, hand: Hand) -> None:
        """Every buffer as before the antes of the first hand."""
        self._rows[:] = _buffer(len(self._rows))
        self._table[:] = _buffer(PUBLIC)
        self._owns[:] = _buffer(len(self._owns))
        for seat in range(self.seats):
            self._o[seat][POSITION + seat] = 1.0
        self._pot = self._level = self._wagers = 0
        self._aggressor = -1
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
            if kind is _ACTED:
                acted = cast(Acted, event)
                self.acted(acted.seat, acted.kind, acted.to)
            elif kind is _CARDS_DEALT:
                self._dealt(cast(CardsDealt, event), hand)
            elif kind is _ANTE_POSTED:
                self._ante(cast(AntePosted, event))
            elif kind is _STREET_STARTED:
                self._new_street(cast(StreetStarted, event).street)
            elif kind is _UNCALLED_BET_RETURNED:
                self._returned(cast(UncalledBetReturned, event))
            elif kind is _BETTING_CAPPED:
                self._t[_CAPPED] = 1.0
            elif kind is _DOUBLE_BET_ALLOWED:
                self._t[_DOUBLE] = 1.0
            elif kind is _COMMUNITY_CARD:
                card = cast(CommunityCard, event).card
                if card is not None:
                    self._t[_COMMUNITY + card] = 1.0
            elif kind is _HAND_ENDED:
                self._clear_bets()
                for seat, stack in enumerate(cast(HandEnded, event).stacks):
                    self._set_stack(seat, stack)

    def acted(self, seat: int, kind: ActionKind, to: int) -> None:
        """Apply one action of ``seat``: its kind and the street total it brought the seat to.

        What most actions cause alone (an Acted event). The chips it put in
        are ``to`` less the seat's wager on the street so far (the engine's
        ``Action.to`` is that total: for a call the level called, or the
        all-in total), so the caller may pass the fields of the action it
        played (native values) instead of reading them off the event.
        """
        row = self._row[seat]
        big = self._big
        amount = 0 if kind is _FOLD or kind is _CHECK else to - self._bet[seat]
        if amount:
            stack = self._stack[seat] - amount
            self._stack[seat] = stack
            row[STACK] = stack / big
            if stack == 0:
                row[ALL_IN] = 1.0
            committed = self._committed[seat] + amount
            self._committed[seat] = committed
            row[COMMITTED] = committed / big
            self._bet[seat] = to
            row[BET] = to / big
            self._pot += amount
            self._t[_POT] = self._pot / big
        record = BETTING + (self._street - 3) * _PER_STREET
        if kind is _CALL:
            record += _CALLS
        elif kind is _CHECK:
            record += _CHECKS
        elif kind is _FOLD:
            record += _FOLDS
            self._live[seat] = False
            row[LIVE] = 0.0
        else:  # the bring-in, or a complete, bet or raise: a new level
            self._level = to
            table = self._t
            table[_LEVEL] = to / big
            if kind is _BRING_IN:
                record += _BRING_INS
            else:
                record += _WAGERED
                self._wagers += 1
                table[_WAGER_COUNT] = float(self._wagers)
                if self._aggressor >= 0:
                    self._row[self._aggressor][AGGRESSOR] = 0.0
                self._aggressor = seat
                row[AGGRESSOR] = 1.0
        row[record] += 1.0

    def _dealt(self, event: CardsDealt, hand: Hand) -> None:
        seat = event.seat
        row = self._row[seat]
        for card in event.up:
            if card is not None:
                row[UP + card] = 1.0
        street = event.street
        if street == 3 or street == 7:
            # The seat's own down cards, from the engine, into its own part only.
            own = self._o[seat]
            for card in hand.down_cards(seat):
                if card is not None:
                    own[card] = 1.0

    def _ante(self, event: AntePosted) -> None:
        seat = event.seat
        self._committed[seat] += event.amount
        self._seat(seat, COMMITTED, self._committed[seat] / self._big)
        self._set_stack(seat, self._stack[seat] - event.amount)
        self._pot += event.amount
        self._t[_POT] = self._pot / self._big

    def _returned(self, event: UncalledBetReturned) -> None:
        seat = event.seat
        self._committed[seat] -= event.amount
        self._seat(seat, COMMITTED, self._committed[seat] / self._big)
        self._set_stack(seat, self._stack[seat] + event.amount)
        self._pot -= event.amount
        self._t[_POT] = self._pot / self._big

    def _clear_bets(self) -> None:
        for seat in range(self.seats):
            if self._bet[seat]:
                self._bet[seat] = 0
                self._seat(seat, BET, 0.0)

    def _new_street(self, street: int) -> None:
        self._clear_bets()
        table = self._t
        table[_STREET + self._street - 3] = 0.0
        table[_STREET + street - 3] = 1.0
        self._street = street
        self._level = self._wagers = 0
        table[_LEVEL] = table[_WAGER_COUNT] = table[_CAPPED] = table[_DOUBLE] = 0.0
        if self._aggressor >= 0:
            self._seat(self._aggressor, AGGRESSOR, 0.0)
            self._aggressor = -1

    # ------------------------------------------------------------------ reading

    def bet(self, seat: int) -> int:
        """``seat``'s wager on this street (what it has toward a call)."""
        return self._bet[seat]

    def observe(self, seat: int, turn: bytes = NO_TURN) -> FloatArray:
        """``seat``'s observation: a new flat array (see :mod:`stud.env.layout`).

        ``turn`` is its turn piece: from :meth:`stud.envcore.turns.Turn.piece`
        when it is to act, else :data:`NO_TURN`.
        """
        flat: FloatArray = _empty(SIZE, _FLOAT32)
        self.write(seat, turn, flat.data.cast("B"))
        return flat

    def write(self, seat: int, turn: bytes, memory: memoryview[int]) -> None:
        """Write ``seat``'s observation over ``memory`` (the bytes of a flat vector, all of it).

        One join of its pieces and one copy: cheaper than a copy per piece.
        """
        parts = self._parts[seat]
        parts[1] = turn
        memory[:] = _join(parts)
