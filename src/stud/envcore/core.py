"""One hand played through the environment: the engine acts, the encoder follows, turns indexed.

The whole of a step but PettingZoo's bookkeeping, in one compiled call
(see :mod:`stud.envcore`): :class:`Core` plays an action index on the
engine's hand, brings the observation buffers up to date from the events,
and indexes the next seat's legal actions.
"""

from __future__ import annotations

from typing import Final

from stud.envcore.encoder import NO_TURN, Encoder, FloatArray
from stud.envcore.offsets import ACTION_COUNT
from stud.envcore.turns import EMPTY, NO_MASK, MaskArray, Turns
from stud.game import Acted, Action, Hand

ILLEGAL: Final = -2
"""What :meth:`Core.play` returns for an index the mask does not allow (nothing changed)."""
OVER: Final = -1
"""What :meth:`Core.start` and :meth:`Core.play` return when the hand is over."""


class Core:
    """The hand being played, its observation buffers and the legal actions of the turn."""

    def __init__(self, seats: int, big_bet: int) -> None:
        self.encoder = Encoder(seats, big_bet)
        self._big = big_bet
        self._turns = Turns(big_bet)
        self.hand: Hand | None = None
        self.by_index: tuple[Action | None, ...] = EMPTY
        """The engine action of each index for the seat to act, None where illegal."""
        self.mask: MaskArray = NO_MASK
        """The action mask of the seat to act."""
        self.acting = OVER
        """The seat to act; OVER when none (no hand, or the hand is over)."""
        self.piece = NO_TURN
        """The observation's turn piece of the seat to act (see :meth:`Encoder.observe`)."""
        self._final: FloatArray | None = None
        self._final_given = [False] * seats

    def start(self, hand: Hand) -> int:
        """Follow a new hand from its first events; the seat to act, or OVER."""
        self.hand = hand
        self._final = None
        self.encoder.start(hand)
        return self._next_turn(hand)

    def play(self, index: int) -> int:
        """Play ``index`` for the seat to act: the next seat to act, OVER, or ILLEGAL."""
        hand = self.hand
        if hand is None or not 0 <= index < ACTION_COUNT:
            return ILLEGAL
        chosen = self.by_index[index]
        if chosen is None:
            return ILLEGAL
        events = hand.act(chosen)
        if len(events) == 1 and type(events[0]) is Acted:  # the usual case: no card dealt
            self.encoder.acted(events[0])
        else:
            self.encoder.apply(events, hand)
        return self._next_turn(hand)

    def _next_turn(self, hand: Hand) -> int:
        if hand.is_over:
            self.by_index = EMPTY
            self.mask = NO_MASK
            self.acting = OVER
            self.piece = NO_TURN
            return OVER
        seat = hand.to_act
        assert seat is not None  # a dealt hand always knows whose turn it is
        turn = self._turns.of(hand.legal_actions())
        self.by_index = turn.by_index
        self.mask = turn.mask
        self.acting = seat
        self.piece = turn.piece(self.encoder.bet(seat), self._big)
        return seat

    def observe(self, seat: int) -> FloatArray:
        """``seat``'s observation vector: a new array."""
        if seat == self.acting:
            return self.encoder.observe(seat, self.piece)
        if self.acting == OVER and self.hand is not None:
            return self._final_observation(seat)
        return self.encoder.observe(seat, NO_TURN)

    def _final_observation(self, seat: int) -> FloatArray:
        """``seat``'s observation once the hand is over: a row of one copy made for every seat.

        Each row is handed out once (so each is still a new array, its own
        memory); asked again, the seat gets a copy of its own.
        """
        final = self._final
        given = self._final_given
        if final is None:
            final = self._final = self.encoder.observe_every()
            for other in range(len(given)):
                given[other] = False
        if given[seat]:
            return self.encoder.observe(seat, NO_TURN)
        given[seat] = True
        row: FloatArray = final[seat]
        return row

    def mask_of(self, seat: int) -> MaskArray:
        """``seat``'s action mask (shared, read-only): all 0 unless it is its turn."""
        return self.mask if seat == self.acting else NO_MASK

    def flat(self, seat: int) -> dict[str, FloatArray | MaskArray]:
        """``seat``'s flat observation as PettingZoo has it: the vector and the mask."""
        return {
            "observation": self.observe(seat),
            "action_mask": self.mask if seat == self.acting else NO_MASK,
        }
