"""An OpenSpiel policy over :mod:`stud.spiel`'s games, seated as a stud bot.

The bot follows its hand from its seat's view (:class:`stud.bots.PolicyBot`
does that), builds the OpenSpiel state at that point
(:meth:`StudState.following`: the seat's information state is the real
one, the other seats' hidden cards unknown) and plays the action the policy
gives the most probability (or draws one, seeded, with ``sample=True``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from stud.bots import BotError, PolicyBot
from stud.game import Action, HandView
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
        self._follower = PolicyBot(lambda observation, mask: 0, game.code, perfect_recall=True)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        """The policy's action for this seat; BotError if it gives no legal action weight."""
        seat = view.viewer
        if seat is None:
            raise ValueError("an OpenSpiel policy bot plays a seat: it got a spectator's view")
        core = self._follower.follow(view)
        hand = core.hand
        if hand is None or core.acting != seat:
            raise BotError(f"OpenSpiel policy bot was asked to act for seat {seat} out of turn")
        state = StudState.following(self.game, hand, core.records())
        probabilities = self.policy.action_probabilities(state, seat)
        indices = [i for i, p in probabilities.items() if p > 0 and core.by_index[i] is not None]
        if not indices:
            raise BotError(f"the OpenSpiel policy gives no legal action weight: {probabilities}")
        if self.sample:
            weights = np.array([probabilities[i] for i in indices], dtype=np.float64)
            index = int(self._rng.choice(indices, p=weights / weights.sum()))
        else:
            index = max(indices, key=lambda i: probabilities[i])
        chosen = core.by_index[index]
        for action in legal:
            if action == chosen:
                return action
        raise BotError(f"the table's legal actions {list(legal)} do not hold {chosen}")


def policy_bot(
    policy: Any, game: StudGame, *, sample: bool = False, seed: int | None = None
) -> SpielBot:
    """``policy`` (an OpenSpiel policy of ``game``, e.g. CFR's average) as a stud bot."""
    return SpielBot(policy, game, sample=sample, seed=seed)
