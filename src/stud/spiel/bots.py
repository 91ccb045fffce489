"""An OpenSpiel policy over :mod:`stud.spiel`'s games, seated as a stud bot.

The bot replays its hand from its seat's view at the game's own table (its
small-game options included), builds the OpenSpiel state at that point
(:meth:`StudState.following`: the seat's information state is the real
one, the other seats' hidden cards unknown) and plays the action the policy
gives the most probability (or draws one, seeded, with ``sample=True``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from stud.bots import BotError
from stud.envcore.turns import index_actions
from stud.game import Acted, Action, CardsDealt, Hand, HandStarted, HandView, ScriptedCards
from stud.spiel.game import StudGame, StudState


class SpielBot:
    """A stud bot that asks an OpenSpiel policy (``action_probabilities(state, player)``)."""

    def __init__(
        self, policy: Any, game: StudGame, *, sample: bool = False, seed: int | None = None
    ) -> None:
        self.policy = policy
        self.game = game
        self.sample = sample
        self._rng = np.random.default_rng(seed)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        """The policy's action for this seat; BotError if it gives no legal action weight."""
        seat = view.viewer
        if seat is None:
            raise ValueError("an OpenSpiel policy bot plays a seat: it got a spectator's view")
        state = self._state_at(view)
        hand = state.hand
        if hand is None or hand.to_act != seat:
            raise BotError(f"OpenSpiel policy bot was asked to act for seat {seat} out of turn")
        by_index = index_actions(hand.legal_actions())[0]
        probabilities = self.policy.action_probabilities(state, seat)
        indices = [i for i, p in probabilities.items() if p > 0 and by_index[i] is not None]
        if not indices:
            raise BotError(f"the OpenSpiel policy gives no legal action weight: {probabilities}")
        if self.sample:
            weights = np.array([probabilities[i] for i in indices], dtype=np.float64)
            index = int(self._rng.choice(indices, p=weights / weights.sum()))
        else:
            index = max(indices, key=lambda i: probabilities[i])
        chosen = by_index[index]
        for action in legal:
            if action == chosen:
                return action
        raise BotError(f"the table's legal actions {list(legal)} do not hold {chosen}")

    def _state_at(self, view: HandView) -> StudState:
        """The seat's OpenSpiel state: the view's hand replayed at the game's table."""
        events = view.events
        if not events or not isinstance(events[0], HandStarted):
            raise ValueError("an OpenSpiel policy bot needs the hand's events from its start")
        start = events[0]
        config = self.game.config
        if start.game != config.game.code or len(start.stacks) != config.seats:
            raise BotError(
                f"this bot plays {config.game.code} with {config.seats} seats, not "
                f"{start.game} with {len(start.stacks)}"
            )
        cards: list[list[int | None]] = [[] for _ in start.stacks]
        for event in events:
            if isinstance(event, CardsDealt):
                cards[event.seat].extend(event.down + event.up)
        source = ScriptedCards(cards, community=view.community)
        hand = Hand(config.with_stacks(start.stacks), cards=source)
        records: list[int] = []
        for event in events:
            if not isinstance(event, Acted):
                continue
            by_index = index_actions(hand.legal_actions())[0]
            index = next(
                (
                    i
                    for i, action in enumerate(by_index)
                    if action is not None and action.kind is event.kind and action.to == event.to
                ),
                None,
            )
            if index is None:
                raise BotError(f"{event} is not legal at this bot's table ({config})")
            records += (event.seat, index, hand.street)
            hand.act(by_index[index])  # type: ignore[arg-type]  # found legal just above
        return StudState.following(self.game, hand, records)


def policy_bot(
    policy: Any, game: StudGame, *, sample: bool = False, seed: int | None = None
) -> SpielBot:
    """``policy`` (an OpenSpiel policy of ``game``, e.g. CFR's average) as a stud bot."""
    return SpielBot(policy, game, sample=sample, seed=seed)
