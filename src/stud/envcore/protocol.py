"""PettingZoo's per-step bookkeeping of the environment, compiled: deal, step, last, observe.

An AEC step is mostly bookkeeping: whose turn it is, the reward,
termination, truncation and info dicts, the observation with its mask, and
the end-of-hand steps that retire each agent. :class:`Protocol` does all of
it for :class:`stud.env.aec.StudEnv` in one compiled call per method, so the
environment's Python methods are one-line delegations (and the environment
binds these methods on the instance, skipping even that frame). It imports
no PettingZoo: the environment hands it its instance dict, where
``agent_selection`` is written, and the dicts it makes at each deal are the
environment's own attributes (updated in place, never replaced until the
next deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from stud.envcore.core import OVER, Core
from stud.envcore.offsets import ACTION_COUNT
from stud.game import Hand, IllegalActionError

Info = dict[str, Any]


class Protocol:
    """The AEC state of one environment and the methods that change it each step."""

    def __init__(
        self, state: dict[str, Any], core: Core, agents: Sequence[str], flat: bool
    ) -> None:
        self._state = state
        self._core = core
        self._names = list(agents)
        self._seat_of = {agent: seat for seat, agent in enumerate(agents)}
        self._big = core.config.big_bet
        self._flat = flat
        self._rewards_given = False
        self._dealt = False
        self._zeros = dict.fromkeys(agents, 0.0)  # copied at each deal
        self._falses = dict.fromkeys(agents, False)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self.cumulative: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, Info] = {}

    # ------------------------------------------------------------------ episode

    def deal(self, hand: Hand) -> None:
        """Start ``hand``: fresh dicts for every agent, then the first turn (or the end)."""
        names = self._names
        state = self._state
        self.agents = state["agents"] = names[:]
        self.rewards = state["rewards"] = self._zeros.copy()
        self.cumulative = state["_cumulative_rewards"] = self._zeros.copy()
        self.terminations = state["terminations"] = self._falses.copy()
        self.truncations = state["truncations"] = self._falses.copy()
        self.infos = state["infos"] = {agent: {} for agent in names}
        self._rewards_given = False
        self._dealt = True
        seat = self._core.start(hand)
        if seat < 0:  # every seat all-in from the antes: nothing to decide
            self._end(hand)
        else:
            state["agent_selection"] = names[seat]

    def snapshot(self) -> dict[str, Any]:
        """The AEC state a clone needs besides the hand (see :meth:`resume`)."""
        return {
            "agents": self.agents[:],
            "rewards": self.rewards.copy(),
            "cumulative": self.cumulative.copy(),
            "terminations": self.terminations.copy(),
            "truncations": self.truncations.copy(),
            "infos": {agent: dict(info) for agent, info in self.infos.items()},
            "agent_selection": self._state.get("agent_selection"),
            "rewards_given": self._rewards_given,
            "dealt": self._dealt,
            "records": self._core.records(),
        }

    def resume(self, hand: Hand | None, snapshot: dict[str, Any]) -> None:
        """Take up ``hand`` where another environment's :meth:`snapshot` left it."""
        state = self._state
        self.agents = state["agents"] = list(snapshot["agents"])
        self.rewards = state["rewards"] = dict(snapshot["rewards"])
        self.cumulative = state["_cumulative_rewards"] = dict(snapshot["cumulative"])
        self.terminations = state["terminations"] = dict(snapshot["terminations"])
        self.truncations = state["truncations"] = dict(snapshot["truncations"])
        self.infos = state["infos"] = {a: dict(i) for a, i in snapshot["infos"].items()}
        if snapshot["agent_selection"] is not None:
            state["agent_selection"] = snapshot["agent_selection"]
        self._rewards_given = bool(snapshot["rewards_given"])
        self._dealt = bool(snapshot["dealt"])
        if hand is not None:
            self._core.resume(hand, list(snapshot["records"]))

    def step(self, action: object) -> None:
        """Play ``action`` (an index the mask allows) for ``agent_selection``."""
        core = self._core
        if core.acting < 0:  # no turn being played: before a deal, or the hand is over
            self._step_without_turn(action)
            return
        index = action if type(action) is int else self._index(action)
        seat = core.play(index)  # IllegalActionError for an index the mask does not allow
        if seat >= 0:
            self._state["agent_selection"] = self._names[seat]
        else:
            hand = core.hand
            assert seat == OVER and hand is not None
            self._end(hand)

    def _index(self, action: object) -> int:
        """A NumPy integer, or a 0-d integer array (what a model's predict() returns), as an int.

        IllegalActionError for anything else.
        """
        if isinstance(action, np.integer):
            return int(action)
        if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
            return int(action)
        raise IllegalActionError(
            f"{self._selected()} must act with an index 0 to {ACTION_COUNT - 1}, not {action!r}"
        )

    def _step_without_turn(self, action: object) -> None:
        """``step`` when no seat is to act: retire a finished agent, or say what is wrong."""
        if not self._dealt:
            raise RuntimeError("call reset() to deal a hand before step()")
        agent = self._selected()
        if agent not in self.terminations:
            raise RuntimeError("the hand is over and every agent has left: call reset()")
        if action is not None:
            raise ValueError("the hand is over: the only action now is None")
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self.cumulative[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            self._state["agent_selection"] = agents[0]
        if self._rewards_given:  # a reward is for the step that gave it: clear them once
            self._rewards_given = False
            rewards = self.rewards
            for other in rewards:
                rewards[other] = 0.0

    def _end(self, hand: Hand) -> None:
        """Every agent terminates with its reward: its chips won or lost, in big bets."""
        result = hand.result
        assert result is not None
        big = self._big
        for seat, agent in enumerate(self.agents):
            chips = result.net[seat]
            reward = chips / big
            self.rewards[agent] = reward
            self.cumulative[agent] += reward
            self.terminations[agent] = True
            self.infos[agent] = {"chips": chips}
        self._state["agent_selection"] = self.agents[0]
        self._rewards_given = True

    # ------------------------------------------------------------------ observing

    def _selected(self) -> str:
        agent = self._state.get("agent_selection")
        if not isinstance(agent, str):
            raise RuntimeError("call reset() to deal a hand first")
        return agent

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` may see now, with its action mask (docs/rl.md)."""
        seat = self._seat_of[agent]
        core = self._core
        if self._flat:
            return core.flat(seat)
        return core.named(seat)

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool, Info]:
        """The selected agent's observation, reward so far, termination, truncation, info."""
        agent = self._selected()
        return (
            self.observe(agent) if observe else None,
            self.cumulative[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )


_UNBOUNDED: Final = 1 << 62
"""An ``agent_iter`` bound this large never ends a loop (PettingZoo's default is 2**63)."""


class AgentIterable:
    """What ``StudEnv.agent_iter()`` returns: PettingZoo's ``AECIterable``, compiled.

    Each iteration gives ``agent_selection`` while the environment has agents,
    at most ``max_iter`` times; reading them from the environment's own
    instance dict, like PettingZoo's iterator reads its attributes.
    """

    def __init__(self, state: dict[str, Any], max_iter: int) -> None:
        self._state = state
        self._max_iter = max_iter

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self._state, self._max_iter)


class AgentIterator:
    """One pass of :class:`AgentIterable` (PettingZoo's ``AECIterator``)."""

    def __init__(self, state: dict[str, Any], max_iter: int) -> None:
        self._state = state
        self._left = -1 if max_iter >= _UNBOUNDED else max(max_iter, 0)  # -1: no bound

    def __iter__(self) -> AgentIterator:
        return self

    def __next__(self) -> str:
        state = self._state
        if not state["agents"] or self._left == 0:
            raise StopIteration
        if self._left > 0:
            self._left -= 1
        agent: str = state["agent_selection"]
        return agent
