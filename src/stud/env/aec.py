"""The PettingZoo AEC environment: one hand of Stud, Stud Hi/Lo or Razz per episode.

Agent ``player_s`` sits in seat ``s`` (seat 0 is the dealer's left). Each
episode is one hand from the table's starting stacks; the seat to act is
``agent_selection``; every agent's reward is its chips won or lost, in big
bets, given when the hand ends, when every agent terminates. Actions are the
five indices of :mod:`stud.env.actions`; an index the mask does not allow
raises :class:`~stud.game.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, overload

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stud.cards import Card
from stud.env.actions import EMPTY, MASKS, Turns, describe
from stud.env.encoder import Encoder
from stud.env.layout import ACTION_COUNT, Layout, MaskArray, views
from stud.game import (
    MAX_SEATS,
    Acted,
    Action,
    Hand,
    IllegalActionError,
    TableConfig,
    variant,
)

Observation = dict[str, np.ndarray]
Info = dict[str, Any]

OBSERVATION_MODES = ("dict", "flat")
_NO_MASK = MASKS[0]


def _stacks(stacks: int | Sequence[int], players: int) -> tuple[int, ...]:
    if isinstance(stacks, int):
        return (stacks,) * players
    out = tuple(stacks)
    if len(out) != players:
        raise ValueError(f"{len(out)} stacks given for {players} players")
    return out


def table_config(
    game: str = "stud",
    players: int = 2,
    *,
    ante: int = 2,
    bring_in: int = 5,
    small_bet: int = 20,
    big_bet: int = 40,
    stacks: int | Sequence[int] = 4000,
) -> TableConfig:
    """The :class:`TableConfig` the environment's keyword options describe (checked here)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number, not {players!r}")
    if not 2 <= players <= MAX_SEATS:
        raise ValueError(f"a stud table seats 2 to {MAX_SEATS} players, not {players}")
    return TableConfig(
        game=variant(game),
        ante=ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        stacks=_stacks(stacks, players),
    )


def _index(agent: str, action: object) -> int:
    """An action given as a NumPy integer as an int; IllegalActionError for anything else."""
    if isinstance(action, np.integer):
        return int(action)
    raise IllegalActionError(
        f"{agent} must act with an index 0 to {ACTION_COUNT - 1}, not {action!r}"
    )


class StudEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Seven Card Stud, Stud Hi/Lo or Razz for 2 to 8 agents (PettingZoo AEC API).

    ``StudEnv("razz", players=2)`` plays 2/5/20/40 (ante, bring-in, small
    and big bet) with 100 big bets each; ``config=TableConfig(...)`` gives
    any table the engine accepts instead (stakes, stacks, burn cards, the
    heads-up cap, rake). ``observation="dict"`` gives named arrays,
    ``"flat"`` PettingZoo's ``{"observation": vector, "action_mask": mask}``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "stud_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "stud",
        players: int = 2,
        *,
        ante: int = 2,
        bring_in: int = 5,
        small_bet: int = 20,
        big_bet: int = 40,
        stacks: int | Sequence[int] = 4000,
        config: TableConfig | None = None,
        observation: str = "dict",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if config is None:
            config = table_config(
                game,
                players,
                ante=ante,
                bring_in=bring_in,
                small_bet=small_bet,
                big_bet=big_bet,
                stacks=stacks,
            )
        if observation not in OBSERVATION_MODES:
            raise ValueError(f"observation must be 'dict' or 'flat', not {observation!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.config = config
        self.render_mode = render_mode
        self.observation_mode = observation
        self._flat = observation == "flat"
        n = config.seats
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        total = sum(config.stacks)
        layouts = {agent: Layout(total, config.big_bet) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: layout.dict_space
            if observation == "dict"
            else spaces.Dict({"observation": layout.flat_space, "action_mask": layout.mask_space})
            for agent, layout in layouts.items()
        }
        self.action_spaces = {
            agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents
        }
        self._encoder = Encoder(n, config.big_bet)
        self._turns = Turns(config.big_bet)
        self._rng: np.random.Generator | None = None
        self._by_index: Sequence[Action | None] = EMPTY
        self._mask = MASKS[0]
        self._acting = -1
        self._rewards_given = False
        self.hand: Hand | None = None
        """The hand being played (the engine's own object: read it, do not act on it)."""
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``seed`` makes this and every later hand reproducible."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        deck = self._rng.permutation(52).tolist()
        hand = self.hand = Hand(self.config, deck=deck)
        agents = self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        self._encoder.start(hand)
        if hand.is_over:  # every seat all-in from the antes: nothing to decide
            self._end(hand)
        else:
            self._next_turn(hand)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an index the mask allows) for ``agent_selection``."""
        if self._acting < 0:  # no turn being played: before reset(), or the hand is over
            self._step_without_turn(action)
            return
        index = action if type(action) is int else _index(self.agent_selection, action)
        chosen = self._by_index[index] if 0 <= index < ACTION_COUNT else None
        if chosen is None:
            raise self._illegal(index, action)
        hand = self.hand
        assert hand is not None  # a seat is acting
        events = hand.act(chosen)
        if len(events) == 1 and type(events[0]) is Acted:  # the usual case: no card dealt
            self._encoder.acted(events[0])
        else:
            self._encoder.apply(events, hand)
        if hand.is_over:
            self._end(hand)
        else:
            self._next_turn(hand)

    def _step_without_turn(self, action: object) -> None:
        """``step`` when no seat is to act: retire a finished agent, or say what is wrong."""
        if self.hand is None:
            raise RuntimeError("call reset() to deal a hand before step()")
        if self.agent_selection not in self.terminations:
            raise RuntimeError("the hand is over and every agent has left: call reset()")
        self._was_dead_step(action)

    def _illegal(self, index: int, action: object) -> IllegalActionError:
        """The error for an index out of range, or one the mask does not allow."""
        agent = self.agent_selection
        if not 0 <= index < ACTION_COUNT:
            return IllegalActionError(
                f"{agent} must act with an index 0 to {ACTION_COUNT - 1}, not {action!r}"
            )
        legal = ", ".join(describe(i, a) for i, a in enumerate(self._by_index) if a)
        return IllegalActionError(
            f"action {describe(index, None)} is not legal for {agent} now; legal: {legal}"
        )

    def _next_turn(self, hand: Hand) -> None:
        seat = hand.to_act
        assert seat is not None  # a dealt hand always knows whose turn it is
        turn = self._turns.of(hand.legal_actions())
        self._by_index = turn.by_index
        self._mask = turn.mask
        self._acting = seat
        self._encoder.set_turn(seat, turn.amounts, turn.call)
        self.agent_selection = self.possible_agents[seat]

    def _end(self, hand: Hand) -> None:
        result = hand.result
        assert result is not None
        self._by_index = EMPTY
        self._mask = MASKS[0]
        self._acting = -1
        self._encoder.clear_turn()
        big = self.config.big_bet
        for seat, agent in enumerate(self.agents):
            reward = result.net[seat] / big
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
            self.terminations[agent] = True
            self.infos[agent] = {"chips": result.net[seat]}
        self.agent_selection = self.agents[0]
        self._rewards_given = True

    def _was_dead_step(self, action: object) -> None:
        """Retire the selected agent once the hand is over (every agent is then done)."""
        if action is not None:
            raise ValueError("the hand is over: the only action now is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        if self._rewards_given:  # a reward is for the step that gave it: clear them once
            self._rewards_given = False
            for other in self.rewards:
                self.rewards[other] = 0.0

    # ------------------------------------------------------------------ observing

    def observe(self, agent: str) -> Observation:
        """What ``agent`` may see now (see docs/rl.md), with its action mask."""
        seat = self._seat_of[agent]
        flat = self._encoder.observe(seat)
        mask: MaskArray = self._mask if seat == self._acting else _NO_MASK  # read-only
        if self._flat:
            return {"observation": flat, "action_mask": mask}
        out: Observation = views(flat)
        out["action_mask"] = mask
        return out

    @overload
    def last(
        self, observe: Literal[True] = True
    ) -> tuple[Observation, float, bool, bool, Info]: ...
    @overload
    def last(self, observe: Literal[False]) -> tuple[None, float, bool, bool, Info]: ...
    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Info]:
        """The selected agent's observation, reward so far, termination, truncation, info."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def legal_actions(self) -> list[tuple[int, Action]]:
        """The selected agent's legal indices with the engine action each stands for."""
        return [(i, a) for i, a in enumerate(self._by_index) if a is not None]

    def action_index(self, action: Action) -> int:
        """The index of the engine ``action`` (one of the legal ones) for ``step``."""
        for index, legal in enumerate(self._by_index):
            if legal is not None and legal.kind == action.kind and legal.to == action.to:
                return index
        raise IllegalActionError(f"{action} is not legal now")

    # ------------------------------------------------------------------ showing

    def render(self) -> str | None:
        """The table as everyone sees it (up cards, stacks, the pot): text for ``ansi``."""
        if self.render_mode is None or self.hand is None:
            return None
        view = self.hand.view(None)  # the spectator's view: no down card at all
        lines = [f"{self.config.game.name}, street {view.street}, pot {view.pot}"]
        for seat in view.seats:
            up = " ".join(str(Card(c)) for c in seat.up if c is not None)
            state = "folded" if not seat.live else ("all-in" if seat.all_in else "")
            turn = " <- to act" if view.to_act == seat.seat else ""
            lines.append(
                f"  player_{seat.seat}: stack {seat.stack:>6} bet {seat.bet:>5}  "
                f"[{' '.join(['??'] * len(seat.down))}] {up} {state}{turn}".rstrip()
            )
        if view.community is not None:
            lines.append(f"  community card: {Card(view.community)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""
