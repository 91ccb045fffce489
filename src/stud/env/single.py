"""One seat against the project's bots, as a Gymnasium environment (one hand per episode).

The learner's observation, actions and reward are those of :class:`StudEnv`;
the other seats are bots (``random``, ``station``, ``strong`` or any object
with ``choose(view, legal)``), each asked through :func:`stud.bots.ask`, so a
bot sees its own seat's view of the engine and nothing more. ``seed`` fixes
the decks, the learner's seats and the bots' choices.

An action the mask does not allow raises by default; ``illegal_action``
chooses PettingZoo's classic alternatives instead (end the episode with a
penalty, or play a random legal action), which checkers that play unmasked
actions (Gymnasium's and Stable-Baselines3's ``check_env``) need.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from stud.bots import Bot, ask, make_bot
from stud.env.aec import Observation, StudEnv
from stud.env.layout import MaskArray
from stud.game import IllegalActionError

ILLEGAL_ACTIONS = ("raise", "penalize", "random_legal")
"""What ``SingleSeatEnv(illegal_action=...)`` does with an action the mask does not allow."""


class SingleSeatEnv(gymnasium.Env[Observation, np.int64]):
    """A Gymnasium environment: the learner plays one seat, bots the others.

    ``SingleSeatEnv("razz", opponents=["random"])`` is heads-up Razz against
    the random bot. ``seat`` pins the learner's seat; by default it is drawn
    each hand, so the learner plays every position. Keyword options are
    :class:`StudEnv`'s (stakes, stacks, ``config``, ``observation``,
    ``perfect_recall``).

    ``illegal_action`` is what an action the mask does not allow does:
    ``"raise"`` (IllegalActionError, nothing changes), ``"penalize"`` (the
    episode ends at once with the reward ``illegal_reward``, by default
    minus the learner's whole stack in big bets, the most a hand can lose,
    so an illegal action never pays), or ``"random_legal"`` (a legal action
    drawn from the environment's seeded generator is played instead). Either
    way ``info["illegal_action"]`` is True for that step.
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012  # Gymnasium's convention

    def __init__(
        self,
        game: str = "razz",
        opponents: Sequence[str | Bot] = ("random",),
        *,
        seat: int | None = None,
        illegal_action: str = "raise",
        illegal_reward: float | None = None,
        **options: Any,
    ) -> None:
        illegal_action = illegal_action.replace(" ", "_")  # "random legal" reads the same
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                f"not {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        if isinstance(opponents, str):
            raise ValueError("opponents is a list of bots, e.g. ['random'] or ['strong', 'random']")
        self.table = StudEnv(game, len(opponents) + 1, **options)
        """The table, a :class:`StudEnv` (its ``hand`` is the hand being played)."""
        config = self.table.config
        if config.seats != len(opponents) + 1:
            raise ValueError(f"{len(opponents)} opponents for a table of {config.seats} seats")
        if seat is not None and not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < config.seats
        ):
            raise ValueError(f"seat must be 0 to {config.seats - 1} or None, not {seat!r}")
        for opponent in opponents:
            if isinstance(opponent, str):
                make_bot(opponent)  # an unknown name fails here, not at the first hand
            elif not isinstance(opponent, Bot):
                raise ValueError(f"{opponent!r} is neither a bot's name nor a bot")
        self.illegal_reward = (
            -max(config.stacks) / config.big_bet if illegal_reward is None else illegal_reward
        )
        """The reward of an illegal action under ``illegal_action="penalize"``."""
        self._forfeited = False
        self.render_mode = self.table.render_mode
        self._opponents = tuple(opponents)
        self._fixed_seat = seat
        self.seat = 0 if seat is None else seat
        """The learner's seat in the current hand."""
        self.observation_space = self.table.observation_space("player_0")
        self.action_space = spaces.Discrete(5)
        self._bots: list[Bot] = []
        self._seed_bots(None)

    def _seed_bots(self, seed: int | None) -> None:
        words: list[int | None]
        if seed is None:
            words = [None] * len(self._opponents)
        else:
            state = np.random.SeedSequence(seed).generate_state(len(self._opponents))
            words = [int(w) for w in state]
        self._bots = [
            make_bot(o, w) if isinstance(o, str) else o
            for o, w in zip(self._opponents, words, strict=True)
        ]

    # ------------------------------------------------------------------ episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a hand and let the bots act until it is the learner's turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed_bots(seed)
        table_seed = int(self.np_random.integers(2**63)) if seed is not None else None
        self.table.reset(seed=table_seed)
        self._forfeited = False
        while True:
            if self._fixed_seat is None:
                self.seat = int(self.np_random.integers(self.table.config.seats))
            self._play_bots()
            if not self._over():
                return self._observation(), {}
            self.table.reset()  # the learner never had a decision (all-in): deal again

    def step(
        self, action: int | np.integer[Any] | np.ndarray[Any, Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' until its next turn or the end of the hand.

        ``action`` is an index: an int, a NumPy integer or a 0-d integer array.
        """
        if self._over():
            raise RuntimeError("the hand is over: call reset() for the next one")
        index = _index(action)
        info: dict[str, Any] = {}
        mask = self.table.action_mask(self._agent)
        if not (0 <= index < len(mask) and mask[index]):
            if self.illegal_action == "penalize":
                self._forfeited = True
                return (
                    self._observation(),
                    self.illegal_reward,
                    True,
                    False,
                    {"illegal_action": True},
                )
            if self.illegal_action == "random_legal":
                index = int(self.np_random.choice(np.flatnonzero(mask)))
                info["illegal_action"] = True
        self.table.step(index)  # "raise": IllegalActionError for an index the mask does not allow
        self._play_bots()
        observation = self._observation()
        if self._over():
            hand = self.table.hand
            assert hand is not None and hand.result is not None
            chips = hand.result.net[self.seat]
            info["chips"] = chips
            return observation, chips / self.table.config.big_bet, True, False, info
        return observation, 0.0, False, False, info

    def action_masks(self) -> MaskArray:
        """The legal actions now, a new array (the method MaskablePPO-style learners ask for)."""
        mask = self.table.action_mask(self._agent).copy()
        if self._forfeited:
            mask[:] = 0
        return mask

    def __copy__(self) -> SingleSeatEnv:
        """A clone that plays on alone (it never shares the table's hand): a deep copy."""
        return copy.deepcopy(self)

    def render(self) -> str | None:
        """The table as everyone sees it (``ansi``: returned as text)."""
        return self.table.render()

    # ------------------------------------------------------------------ inside

    @property
    def _agent(self) -> str:
        return f"player_{self.seat}"

    def _observation(self) -> Observation:
        """The learner's observation, with a mask of its own (the table's masks are shared)."""
        observation = self.table.observe(self._agent)
        observation["action_mask"] = self.action_masks()
        return observation

    def _over(self) -> bool:
        hand = self.table.hand
        return hand is None or hand.is_over or self._forfeited

    def _play_bots(self) -> None:
        """Let the bots act, each from its own seat's view, until the learner's turn or the end."""
        table = self.table
        hand = table.hand
        assert hand is not None
        while not hand.is_over and hand.to_act != self.seat:
            seat = hand.to_act
            assert seat is not None
            bot = self._bots[(seat - self.seat - 1) % table.config.seats]
            table.step(table.action_index(ask(bot, hand, seat)))


def _index(action: object) -> int:
    """An action index given as an int, a NumPy integer or a 0-d integer array, as an int."""
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return int(action)
    raise IllegalActionError(f"an action is an index 0 to 4, not {action!r}")
