"""One hand played through the environment: the engine acts, the encoder follows, turns indexed.

The whole of a step but PettingZoo's bookkeeping, in one compiled call
(see :mod:`stud.envcore`): :class:`Core` plays an action index on the
engine's hand, brings the observation buffers up to date from the events,
and indexes the next seat's legal actions. It is also the environment's
fast path without PettingZoo (docs/rl.md, *Speed*): start a hand, observe
the seat to act, play an index, until the hand is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from stud.envcore.encoder import Encoder, FloatArray
from stud.envcore.history import History, history_slots
from stud.envcore.offsets import ACTION_COUNT, SIZE, SLOT
from stud.envcore.recycle import FLAT, NAMED, PAIRED, Ring, Slot
from stud.envcore.turns import EMPTY, NO_MASK, MaskArray, Turn, Turns, describe
from stud.game import Acted, Action, Hand, IllegalActionError, TableConfig

OVER: Final = -1
"""What :meth:`Core.start` and :meth:`Core.play` return when the hand is over."""
_ACTED: Final = Acted  # a C static: a bare imported name is a dict lookup each time


class Core:
    """The hand being played at one table, its observation buffers and the turn's legal actions.

    ``Core(config)`` follows hands of that table (``start``), each seat's
    observation kept up to date as indices are played (``play``); ``names``
    (``player_0``, … in the environment) name the seats in error messages.
    ``perfect_recall=True`` adds every action of the hand, in order, after
    the compact observation (:mod:`stud.envcore.history`).
    """

    def __init__(
        self,
        config: TableConfig,
        names: Sequence[str] | None = None,
        perfect_recall: bool = False,
    ) -> None:
        seats = config.seats
        self.config = config
        self.seats = seats
        self._names = list(names) if names is not None else [f"seat {s}" for s in range(seats)]
        if len(self._names) != seats:
            raise ValueError(f"{len(self._names)} names for {seats} seats")
        self.encoder = Encoder(seats, config.big_bet)
        self.history: History | None = (
            History(seats, history_slots(config)) if perfect_recall else None
        )
        """The perfect-recall history (None for the compact observation alone)."""
        self.size = SIZE if self.history is None else SIZE + self.history.slots * SLOT
        """The length of an observation vector."""
        self._turns = Turns()
        self.hand: Hand | None = None
        self.by_index: tuple[Action | None, ...] = EMPTY
        """The engine action of each index for the seat to act, None where illegal."""
        self._turn: Turn | None = None
        """The seat to act's turn (None when none is to act)."""
        self.mask: MaskArray = NO_MASK
        """The action mask of the seat to act."""
        self.acting = OVER
        """The seat to act; OVER when none (no hand, or the hand is over)."""
        self._rings: list[Ring | None] = [None, None, None]
        """The observation rings by kind (FLAT, NAMED, PAIRED), made when first used."""

    def start(self, hand: Hand) -> int:
        """Follow a new hand of this table from its first events; the seat to act, or OVER."""
        if self.history is not None:
            for event in hand.events:
                if type(event) is _ACTED:
                    raise ValueError(
                        "perfect recall follows a hand from its deal: this one has actions"
                    )
        return self.resume(hand, [])

    def resume(self, hand: Hand, records: list[int]) -> int:
        """Follow ``hand`` from where it stands (all its events so far): the seat to act, or OVER.

        What a clone of an environment does; ``records`` are the perfect-recall
        history's actions (:meth:`History.records` of the core that played
        them; ignored without perfect recall).
        """
        config = hand.config
        if config is not self.config and config != self.config:
            raise ValueError("the hand is not played at this table: its TableConfig differs")
        self.hand = hand
        self.encoder.start(hand)
        history = self.history
        if history is not None:
            history.replay(records)
        return self._next_turn(hand)

    def records(self) -> list[int]:
        """The perfect-recall history's actions so far (empty without perfect recall)."""
        history = self.history
        return [] if history is None else history.records()

    def play(self, index: int) -> int:
        """Play ``index`` for the seat to act: the next seat to act, or OVER.

        An index the mask does not allow raises IllegalActionError, which
        names the legal ones, and changes nothing.
        """
        hand = self.hand
        if hand is None or self.acting < 0:
            raise IllegalActionError("no seat is to act: start a hand first")
        if not 0 <= index < ACTION_COUNT:
            raise IllegalActionError(
                f"{self._names[self.acting]} must act with an index 0 to {ACTION_COUNT - 1}, "
                f"not {index!r}"
            )
        chosen = self.by_index[index]
        if chosen is None:
            raise self._illegal(index)
        history = self.history
        if history is not None:
            history.record(self.acting, index, self.encoder.street())
        events = hand.act(chosen)
        if len(events) == 1 and type(events[0]) is _ACTED:  # the usual case: no card dealt
            turn = self._turn
            assert turn is not None  # set with by_index
            kind = turn.kinds[index]
            assert kind is not None  # the index is legal
            self.encoder.acted(self.acting, kind, turn.tos[index])
        else:
            self.encoder.apply(events, hand)
        return self._next_turn(hand)

    def _illegal(self, index: int) -> IllegalActionError:
        """The error for an index in range that the mask does not allow."""
        legal = ", ".join(describe(i, a) for i, a in enumerate(self.by_index) if a is not None)
        return IllegalActionError(
            f"action {describe(index, None)} is not legal for {self._names[self.acting]} now; "
            f"legal: {legal}"
        )

    def _next_turn(self, hand: Hand) -> int:
        if hand.is_over:
            self.by_index = EMPTY
            self._turn = None
            self.mask = NO_MASK
            self.acting = OVER
            self.encoder.no_turn()
            return OVER
        seat = hand.to_act
        assert seat is not None  # a dealt hand always knows whose turn it is
        turn = self._turns.of(hand.legal_actions())
        self.by_index = turn.by_index
        self._turn = turn
        self.mask = turn.mask
        self.acting = seat
        self.encoder.turn(seat, turn.call, turn.tos)
        return seat

    def observe(self, seat: int) -> FloatArray:
        """``seat``'s observation vector, an array nobody else holds (see :mod:`.recycle`)."""
        return self._written(seat, FLAT).flat

    def named(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation in its dict form, with its action mask (docs/rl.md)."""
        named = self._written(seat, NAMED).named
        named["action_mask"] = self.mask_of(seat)
        return named.copy()

    def _written(self, seat: int, kind: int) -> Slot:
        """A free slot of the ``kind`` ring with ``seat``'s observation written over it."""
        ring = self._rings[kind]
        if ring is None:
            ring = self._rings[kind] = Ring(kind, self.size)
        slot = ring.take()
        self._write(seat, slot)
        return slot

    def _write(self, seat: int, slot: Slot) -> None:
        if not 0 <= seat < self.seats:
            raise ValueError(
                f"seat {seat!r} does not exist: this table has seats 0 to {self.seats - 1}"
            )
        history = self.history
        if history is None:
            self.encoder.write(seat, slot.memory)
        else:
            self.encoder.write(seat, slot.head)
            history.write(seat, slot.tail)

    def mask_of(self, seat: int) -> MaskArray:
        """``seat``'s action mask (shared, read-only): all 0 unless it is its turn."""
        return self.mask if seat == self.acting else NO_MASK

    def flat(self, seat: int) -> dict[str, FloatArray | MaskArray]:
        """``seat``'s flat observation as PettingZoo has it: the vector and the mask.

        The dict is reused like the vector (see :mod:`.recycle`): a new one
        only when the caller kept the last one handed out from its slot.
        """
        pair = self._written(seat, PAIRED).pair
        pair["action_mask"] = self.mask_of(seat)
        return pair
