"""The perfect-recall part of an observation: every action of the hand, in the order played.

The compact observation counts each seat's actions per street, which forgets
their order within a street (two betting sequences can give one observation).
With ``perfect_recall`` each seat's vector goes on with one fixed-size slot
per action of the hand (:data:`~stud.envcore.offsets.HISTORY_FEATURES`: who
acted, relative to the observer, which index, on which street), so two
different public histories never give one observation. Written like the
encoder's vectors: each action sets three values in each seat's slot, a new
hand clears the slots the last one used, and observing is one copy.

The number of slots is a bound on the actions of one hand
(:func:`history_slots`), the same for every capped table of 2 to 8 seats.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import vec
from mypy_extensions import i32, i64

from stud.envcore.offsets import SLOT, SLOT_ACTION, SLOT_STREET
from stud.game import MAX_SEATS, TableConfig

_ONE: Final = 0x3F800000  # the float32 bits of 1.0
_STREETS: Final = 5
_WAGERS_CAPPED: Final = 4
"""R10: a bet and three raises on each street (the completion is the bet)."""


def _bound(seats: int, wagers: int) -> int:
    """Actions a hand of ``seats`` can hold with ``wagers`` full bets and raises over its streets.

    Between two raises of the level each seat acts at most once (a check,
    call or fold matches the level or leaves); the level is raised by a full
    bet or raise (at most ``wagers`` over the hand) or by an all-in (each
    seat once a hand). So a street holds at most ``seats`` actions plus
    ``seats - 1`` after each raise of its level.
    """
    return _STREETS * seats + (wagers + seats) * (seats - 1)


def history_slots(config: TableConfig) -> int:
    """The slots of the history: a bound on the actions of one hand at this table.

    Capped tables (the default, R10) of any size get the eight-seat bound,
    so the layout is the same for 2 to 8 players; a table that lifts the cap
    heads-up bounds the full bets and raises of each street by the largest
    stack over that street's unit (each one raises the level by a unit).
    """
    capped = _bound(MAX_SEATS, _STREETS * _WAGERS_CAPPED)
    if not config.lift_cap_heads_up:
        return capped
    top = max(config.stacks)
    units = (config.small_bet, config.small_bet, config.big_bet, config.big_bet, config.big_bet)
    wagers = sum(top // unit + 1 for unit in units)
    return max(capped, _bound(config.seats, wagers))


class History:
    """Every seat's history slots at one table, written as the actions are played."""

    def __init__(self, seats: int, slots: int) -> None:
        self.seats = seats
        self.slots = slots
        self._n: i64 = seats
        self._length: i64 = slots * SLOT
        self._data = vec[i32]([0] * (seats * slots * SLOT))
        buffer = memoryview(self._data).cast("B")
        length = slots * SLOT * 4
        self._views: list[memoryview[int]] = [
            buffer[seat * length : (seat + 1) * length] for seat in range(seats)
        ]
        """Each seat's history as bytes: one copy writes it out."""
        self._records = vec[i64]([0] * (3 * slots))
        """Each recorded action's seat, index and street: what a clone replays."""
        self.count: i64 = 0
        """The actions recorded this hand (the slots used)."""

    def clear(self) -> None:
        """Forget the last hand's actions (zero the slots it used, in every seat's history)."""
        data = self._data
        used = self.count * SLOT
        base: i64 = 0
        while base < self._n * self._length:
            index = base
            while index < base + used:
                data[index] = 0
                index += 1
            base += self._length
        self.count = 0

    def record(self, seat: i64, index: i64, street: i64) -> None:
        """``seat`` played action ``index`` on ``street`` (3 to 7): the next slot of every seat."""
        slot = self.count
        if slot >= self.slots:
            raise OverflowError(f"more than {self.slots} actions in one hand")
        records = self._records
        records[3 * slot] = seat
        records[3 * slot + 1] = index
        records[3 * slot + 2] = street
        data = self._data
        n = self._n
        base = slot * SLOT
        action = base + SLOT_ACTION + index
        street_at = base + SLOT_STREET + street - 3
        observer: i64 = 0
        while observer < n:
            relative = seat - observer
            if relative < 0:
                relative += n
            data[base + relative] = _ONE
            data[action] = _ONE
            data[street_at] = _ONE
            base += self._length
            action += self._length
            street_at += self._length
            observer += 1
        self.count = slot + 1

    def records(self) -> list[int]:
        """The actions recorded this hand: seat, index and street of each, one after the other."""
        records = self._records
        return [records[i] for i in range(3 * self.count)]

    def replay(self, records: list[int]) -> None:
        """Record again the actions of :meth:`records` (of another history of this table)."""
        self.clear()
        for start in range(0, len(records) - 2, 3):
            self.record(records[start], records[start + 1], records[start + 2])

    def write(self, seat: int, memory: memoryview[int]) -> None:
        """Write ``seat``'s history over ``memory`` (the bytes of the history part, all of it)."""
        memory[:] = self._views[seat]
