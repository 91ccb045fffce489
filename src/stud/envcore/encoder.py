"""Observations written incrementally, event by event, so each one costs a single copy.

Every seat's whole observation vector is kept written in one native buffer
(a ``librt.vecs`` ``vec[i32]`` holding float32 bit patterns, which compiled
code writes without making a Python object): an engine event changes only
the numbers it touches (a seat's stack, bet and betting record, the pot, a
dealt card), in each seat's vector at that seat's relative row, and the turn
piece (what calling costs and each legal index's amount) sits in the acting
seat's vector only while it is to act. Handing out an observation is then one
copy of that seat's 3,200 bytes (:meth:`Encoder.write`; the vectors come from
:mod:`stud.envcore.recycle`). Nothing is rebuilt: a new hand clears only what
the last one wrote.

Numbers are chips in big bets (``chips / big_bet``, rounded to float32 as
NumPy does) and counts; their float32 bits come from a table made once per
table (with a slower exact conversion for a number past it).

Privacy: the event handlers read no down card. A seat's down cards enter
only its own vector, from the engine's ``Hand.down_cards(seat)`` (what
``Hand.view(seat)`` shows that seat of itself); shown hands at the showdown
and burn cards are not encoded at all.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Final, cast

import numpy as np
import numpy.typing as npt
from librt.vecs import vec
from mypy_extensions import i32, i64

from stud.envcore.offsets import (
    ACTION_COUNT,
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
    ROW,
    SEATS,
    SIZE,
    STACK,
    STREET,
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
# The betting-record column of each kind (see BETTING_FEATURES), and a seat's record length.
_CALLS: Final = BETTING_FEATURES.index("call")
_CHECKS: Final = BETTING_FEATURES.index("check")
_FOLDS: Final = BETTING_FEATURES.index("fold")
_BRING_INS: Final = BETTING_FEATURES.index("bring_in")
_WAGERED: Final = BETTING_FEATURES.index("wager")
_PER_STREET: Final = len(BETTING_FEATURES)
_RECORD: Final = ROW - BETTING
_STRIDE: Final = SIZE - ROW
"""From one observer's row of a seat to the next observer's (see Encoder._row)."""
assert ACTION_COUNT == 5  # Encoder.turn writes the five amounts one by one
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

ONE: Final = 0x3F800000
"""The float32 bits of 1.0 (those of 0.0 are 0)."""
CHIP_TABLE_LIMIT: Final = 1 << 18
"""Chip counts up to this many have their float32 bits in a table (1 MiB at most)."""
COUNT_TABLE: Final = 256
"""Counts below this have their float32 bits in a table."""
_CARDS_KEPT: Final = 64
"""Room for the cards one hand writes in one list (52 cards, the 7th street's down cards again)."""

_empty: Final = np.empty
_FLOAT32: Final = np.dtype(np.float32)
_F32: Final = struct.Struct("=f")
_I32: Final = struct.Struct("=i")


def float32_bits(value: float) -> int:
    """The bits of ``value`` rounded to float32, as a signed 32-bit int (the slow exact way)."""
    bits: int = _I32.unpack(_F32.pack(value))[0]
    return bits


def _bit_table(values: npt.NDArray[np.float64]) -> vec[i32]:
    """Each of ``values`` rounded to float32, as bits (NumPy rounds as a float32 store does)."""
    bits: list[int] = values.astype(np.float32).view(np.int32).tolist()
    return vec[i32](bits)


class Encoder:
    """Every seat's observation of one table, kept written as each action's events arrive."""

    def __init__(self, seats: int, big_bet: int) -> None:
        self.seats = seats
        self._n: i64 = seats
        self._big = big_bet
        self._obs = vec[i32]([0] * (seats * SIZE))
        """Seat s's observation is values s * SIZE to (s + 1) * SIZE, as float32 bits."""
        buffer = memoryview(self._obs).cast("B")
        self._views: list[memoryview[int]] = [
            buffer[seat * SIZE * 4 : (seat + 1) * SIZE * 4] for seat in range(seats)
        ]
        """Each seat's observation as bytes: one copy writes it out."""
        # The layout's numbers as native ints (an imported constant is converted at each use).
        self._size: i64 = SIZE
        self._end: i64 = seats * SIZE
        self._row_length: i64 = ROW
        self._rows_at: i64 = SEATS
        self._stride: i64 = _STRIDE
        self._wrap: i64 = seats * ROW
        self._chip_limit: i64 = 0
        self._chip_bits = vec[i32]()
        self._counts_bits = _bit_table(np.arange(COUNT_TABLE, dtype=np.float64))
        self._stack = vec[i64]([0] * seats)
        self._bet = vec[i64]([0] * seats)
        self._committed = vec[i64]([0] * seats)
        self._live = vec[i64]([1] * seats)
        self._counts = vec[i64]([0] * (seats * _RECORD))
        """Each seat's betting record (see BETTING_FEATURES), street by street."""
        self._counted = vec[i64]([0] * (seats * _RECORD))
        self._counted_count: i64 = 0
        """The records counted this hand (their index in ``_counts``), to clear at the next."""
        self._up = vec[i64]([0] * _CARDS_KEPT)
        self._up_count: i64 = 0
        """The up cards written this hand (seat * 52 + card), to clear at the next."""
        self._down = vec[i64]([0] * _CARDS_KEPT)
        self._down_count: i64 = 0
        """The down cards written this hand (seat * 52 + card), each in its seat's vector only."""
        self._community: i64 = -1
        self._pot: i64 = 0
        self._level: i64 = 0
        self._wagers: i64 = 0
        self._street: i64 = 3
        self._aggressor: i64 = -1
        self._turn: i64 = -1
        """The seat whose vector holds the turn piece (-1: none)."""
        self._started = False
        for seat in range(seats):
            self._obs[seat * SIZE + POSITION + seat] = ONE
            self._row(seat, PRESENT, ONE)

    # ------------------------------------------------------------------ writing

    def _row(self, seat: i64, column: i64, bits: i32) -> None:
        """Set ``column`` of ``seat``'s row in every seat's vector.

        Observer o sees seat s in row (s - o) mod n, so the value sits at
        o * (SIZE - ROW) + s * ROW + SEATS + column for the observers up to
        s, and n * ROW further for the others: two runs of one stride.
        """
        obs = self._obs
        stride = self._stride
        index = seat * self._row_length + self._rows_at + column
        end = index + (seat + 1) * stride
        while index < end:
            obs[index] = bits
            index += stride
        index = end + self._wrap
        end = self._end
        while index < end:
            obs[index] = bits
            index += stride

    def _table(self, offset: i64, bits: i32) -> None:
        """Set the value at ``offset`` of the table part in every seat's vector."""
        obs = self._obs
        size = self._size
        index = offset
        end = self._end
        while index < end:
            obs[index] = bits
            index += size

    def _chips(self, chips: i64) -> i32:
        """The float32 bits of ``chips`` in big bets."""
        if 0 <= chips <= self._chip_limit:
            return self._chip_bits[chips]
        return i32(float32_bits(chips / self._big))

    def _count(self, count: i64) -> i32:
        """The float32 bits of a count."""
        if 0 <= count < COUNT_TABLE:
            return self._counts_bits[count]
        return i32(float32_bits(float(count)))

    def _set_stack(self, seat: i64, stack: i64) -> None:
        self._stack[seat] = stack
        self._row(seat, STACK, self._chips(stack))
        self._row(seat, ALL_IN, ONE if stack == 0 and self._live[seat] else 0)

    def _chip_table(self, chips: int) -> None:
        """The float32 bits of every chip count up to ``chips`` (the table's), made once."""
        limit = min(chips, CHIP_TABLE_LIMIT)
        if limit > self._chip_limit:
            values = np.arange(limit + 1, dtype=np.float64) / self._big
            self._chip_bits = _bit_table(values)
            self._chip_limit = limit

    def start(self, hand: Hand) -> None:
        """Clear what the last hand wrote, then apply the new hand's first events.

        Its first events are the antes and 3rd street, up to the first action.
        """
        stacks = hand.config.stacks
        if not self._started:
            self._chip_table(sum(stacks))
            self._started = True
        self._clear()
        for seat in range(self._n):
            self._live[seat] = 1
            self._row(seat, LIVE, ONE)
            self._committed[seat] = 0
            self._row(seat, COMMITTED, 0)
            self._set_stack(seat, stacks[seat])
        self.apply(hand.events, hand)

    def _clear(self) -> None:
        """Undo everything the last hand wrote but the seats' chips and flags (set next)."""
        obs = self._obs
        counts = self._counts
        for index in range(self._counted_count):
            record = self._counted[index]
            counts[record] = 0
            self._row(record // _RECORD, BETTING + record % _RECORD, 0)
        self._counted_count = 0
        for index in range(self._up_count):
            card = self._up[index]
            self._row(card // 52, UP + card % 52, 0)
        for index in range(self._down_count):
            card = self._down[index]
            obs[card // 52 * SIZE + card % 52] = 0
        self._up_count = self._down_count = 0
        self.no_turn()
        if self._community >= 0:
            self._table(COMMUNITY + self._community, 0)
            self._community = -1
        self._table(STREET + self._street - 3, 0)
        self._street = 3
        self._clear_bets()
        self._clear_street()
        self._pot = 0
        self._table(POT, 0)

    def apply(self, events: Iterable[Event], hand: Hand) -> None:
        """Bring the vectors up to date with ``events`` (what one action caused)."""
        for event in events:
            kind = type(event)
            if kind is _ACTED:
                acted = cast(Acted, event)
                self.acted(acted.seat, acted.kind, acted.to)
            elif kind is _CARDS_DEALT:
                self._dealt(cast(CardsDealt, event), hand)
            elif kind is _ANTE_POSTED:
                ante = cast(AntePosted, event)
                self._put_in(ante.seat, ante.amount)
            elif kind is _STREET_STARTED:
                self._new_street(cast(StreetStarted, event).street)
            elif kind is _UNCALLED_BET_RETURNED:
                returned = cast(UncalledBetReturned, event)
                self._put_in(returned.seat, -returned.amount)
            elif kind is _BETTING_CAPPED:
                self._table(CAPPED, ONE)
            elif kind is _DOUBLE_BET_ALLOWED:
                self._table(DOUBLE_BET, ONE)
            elif kind is _COMMUNITY_CARD:
                card = cast(CommunityCard, event).card
                if card is not None:
                    self._community = card
                    self._table(COMMUNITY + card, ONE)
            elif kind is _HAND_ENDED:
                self._clear_bets()
                for seat, stack in enumerate(cast(HandEnded, event).stacks):
                    self._set_stack(seat, stack)

    def acted(self, seat: i64, kind: ActionKind, to: i64) -> None:
        """Apply one action of ``seat``: its kind and the street total it brought the seat to.

        What most actions cause alone (an Acted event). The chips it put in
        are ``to`` less the seat's wager on the street so far (the engine's
        ``Action.to`` is that total: for a call the level called, or the
        all-in total), so the caller may pass the fields of the action it
        played (native values) instead of reading them off the event.
        """
        amount = 0 if kind is _FOLD or kind is _CHECK else to - self._bet[seat]
        if amount:
            stack = self._stack[seat] - amount
            self._stack[seat] = stack
            self._row(seat, STACK, self._chips(stack))
            if stack == 0:
                self._row(seat, ALL_IN, ONE)
            committed = self._committed[seat] + amount
            self._committed[seat] = committed
            self._row(seat, COMMITTED, self._chips(committed))
            self._bet[seat] = to
            self._row(seat, BET, self._chips(to))
            self._pot += amount
            self._table(POT, self._chips(self._pot))
        record = (self._street - 3) * _PER_STREET
        if kind is _CALL:
            record += _CALLS
        elif kind is _CHECK:
            record += _CHECKS
        elif kind is _FOLD:
            record += _FOLDS
            self._live[seat] = 0
            self._row(seat, LIVE, 0)
        else:  # the bring-in, or a complete, bet or raise: a new level
            self._level = to
            self._table(LEVEL, self._chips(to))
            if kind is _BRING_IN:
                record += _BRING_INS
            else:
                record += _WAGERED
                self._wagers += 1
                self._table(WAGERS, self._count(self._wagers))
                if self._aggressor >= 0:
                    self._row(self._aggressor, AGGRESSOR, 0)
                self._aggressor = seat
                self._row(seat, AGGRESSOR, ONE)
        index = seat * _RECORD + record
        count = self._counts[index] + 1
        self._counts[index] = count
        if count == 1:
            self._counted[self._counted_count] = index
            self._counted_count += 1
        self._row(seat, BETTING + record, self._count(count))

    def _dealt(self, event: CardsDealt, hand: Hand) -> None:
        seat: i64 = event.seat
        for card in event.up:
            if card is not None:
                self._row(seat, UP + card, ONE)
                self._up[self._up_count] = seat * 52 + card
                self._up_count += 1
        street = self._street  # cards are dealt after their street starts
        if street == 3 or street == 7:
            # The seat's own down cards, from the engine, into its own vector only.
            own = seat * SIZE
            for card in hand.down_cards(seat):
                if card is not None:
                    self._obs[own + card] = ONE
                    self._down[self._down_count] = seat * 52 + card
                    self._down_count += 1

    def _put_in(self, seat: i64, amount: i64) -> None:
        """An ante posted (or, negative, an uncalled bet returned): stack, committed, pot."""
        committed = self._committed[seat] + amount
        self._committed[seat] = committed
        self._row(seat, COMMITTED, self._chips(committed))
        self._set_stack(seat, self._stack[seat] - amount)
        self._pot += amount
        self._table(POT, self._chips(self._pot))

    def _clear_bets(self) -> None:
        for seat in range(self._n):
            if self._bet[seat]:
                self._bet[seat] = 0
                self._row(seat, BET, 0)

    def _clear_street(self) -> None:
        """No level, wager, cap, double bet or aggressor: as a street starts."""
        self._level = self._wagers = 0
        self._table(LEVEL, 0)
        self._table(WAGERS, 0)
        self._table(CAPPED, 0)
        self._table(DOUBLE_BET, 0)
        if self._aggressor >= 0:
            self._row(self._aggressor, AGGRESSOR, 0)
            self._aggressor = -1

    def _new_street(self, street: i64) -> None:
        self._clear_bets()
        self._table(STREET + self._street - 3, 0)
        self._table(STREET + street - 3, ONE)
        self._street = street
        self._clear_street()

    def turn(self, seat: i64, call: i64, tos: tuple[int, ...]) -> None:
        """``seat`` is to act: what calling costs it and each index's street total (0: illegal).

        ``call`` is the street total a call brings it to (0 if it cannot
        call); the piece leaves the previous acting seat's vector.
        """
        self.no_turn()
        own = seat * SIZE
        bet = self._bet[seat]
        obs = self._obs
        obs[own + TO_CALL] = self._chips(call - bet) if call > bet else 0
        amounts = own + AMOUNTS  # one line per index: constant indices read the tuple natively
        obs[amounts] = self._chips(tos[0])
        obs[amounts + 1] = self._chips(tos[1])
        obs[amounts + 2] = self._chips(tos[2])
        obs[amounts + 3] = self._chips(tos[3])
        obs[amounts + 4] = self._chips(tos[4])
        self._turn = seat

    def no_turn(self) -> None:
        """No seat is to act: the turn piece is zero in every vector."""
        seat = self._turn
        if seat >= 0:
            obs = self._obs
            start = seat * SIZE + TO_CALL
            for index in range(start, seat * SIZE + SEATS):
                obs[index] = 0
            self._turn = -1

    # ------------------------------------------------------------------ reading

    def street(self) -> int:
        """The street being played (3 to 7)."""
        return self._street

    def bet(self, seat: int) -> int:
        """``seat``'s wager on this street (what it has toward a call)."""
        return self._bet[seat]

    def observe(self, seat: int) -> FloatArray:
        """``seat``'s observation: a new flat array (see :mod:`stud.env.layout`)."""
        flat: FloatArray = _empty(SIZE, _FLOAT32)
        self.write(seat, flat.data.cast("B"))
        return flat

    def write(self, seat: int, memory: memoryview[int]) -> None:
        """Write ``seat``'s observation over ``memory`` (the bytes of a flat vector, all of it)."""
        memory[:] = self._views[seat]
