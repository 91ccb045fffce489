"""The PettingZoo AEC environment: one hand of Stud, Stud Hi/Lo or Razz per episode.

Agent ``player_s`` sits in seat ``s`` (seat 0 is the dealer's left). Each
episode is one hand from the table's starting stacks; the seat to act is
``agent_selection``; every agent's reward is its chips won or lost, in big
bets, given when the hand ends, when every agent terminates. Actions are the
five indices of :mod:`stud.env.actions`; an index the mask does not allow
raises :class:`~stud.game.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, overload

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from stud.cards import Card
from stud.env.layout import Layout, MaskArray
from stud.envcore import Core
from stud.envcore.offsets import ACTION_COUNT
from stud.envcore.protocol import AgentIterable, Protocol
from stud.game import (
    MAX_SEATS,
    Action,
    Hand,
    IllegalActionError,
    TableConfig,
    variant,
)

Observation = dict[str, np.ndarray]
Info = dict[str, Any]

OBSERVATION_MODES = ("dict", "flat")


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


class StudEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Seven Card Stud, Stud Hi/Lo or Razz for 2 to 8 agents (PettingZoo AEC API).

    ``StudEnv("razz", players=2)`` plays 2/5/20/40 (ante, bring-in, small
    and big bet) with 100 big bets each; ``config=TableConfig(...)`` gives
    any table the engine accepts instead (stakes, stacks, burn cards, the
    heads-up cap, rake). ``observation="dict"`` gives named arrays,
    ``"flat"`` PettingZoo's ``{"observation": vector, "action_mask": mask}``.
    ``perfect_recall=True`` adds every action of the hand, in order (the
    ``history`` of docs/rl.md), so no two betting histories look alike.
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
        perfect_recall: bool = False,
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
        self.perfect_recall = bool(perfect_recall)
        n = config.seats
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._core = Core(config, self.possible_agents, self.perfect_recall)
        history = self._core.history
        slots = 0 if history is None else history.slots
        total = sum(config.stacks)
        layouts = {agent: Layout(total, config.big_bet, slots) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: layout.dict_space
            if observation == "dict"
            else spaces.Dict({"observation": layout.flat_space, "action_mask": layout.mask_space})
            for agent, layout in layouts.items()
        }
        self.action_spaces = {
            agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents
        }
        self._rng: np.random.Generator | None = None
        self.hand: Hand | None = None
        """The hand being played (the engine's own object: read it, do not act on it)."""
        self.agents: list[str] = []
        self._protocol = Protocol(
            self.__dict__, self._core, self.possible_agents, observation == "flat"
        )
        self._bind_compiled_methods()

    # ------------------------------------------------------------------ cloning

    def __getstate__(self) -> dict[str, Any]:
        """What pickle and copy.deepcopy keep: the options, the hand, the decks' generator, the
        AEC state; the clone rebuilds its observation buffers from the hand's events."""
        return {
            "config": self.config,
            "observation": self.observation_mode,
            "perfect_recall": self.perfect_recall,
            "render_mode": self.render_mode,
            "rng": self._rng,
            "hand": self.hand,
            "protocol": self._protocol.snapshot(),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        StudEnv.__init__(
            self,
            config=state["config"],
            observation=state["observation"],
            perfect_recall=state["perfect_recall"],
            render_mode=state["render_mode"],
        )
        self._rng = state["rng"]
        self.hand = state["hand"]
        self._protocol.resume(self.hand, state["protocol"])

    def __copy__(self) -> StudEnv:
        """A clone that plays on alone (two environments never share a hand): a deep copy."""
        return copy.deepcopy(self)

    def _bind_compiled_methods(self) -> None:
        """Let ``env.step`` and ``env.last`` be the compiled methods themselves.

        The class's methods only delegate to :class:`Protocol`; an instance
        attribute of the same name (the bound compiled method) is found first,
        which saves a Python call on every step. A subclass that overrides a
        method keeps its own.
        """
        for name in ("step", "last", "observe"):
            if getattr(type(self), name) is getattr(StudEnv, name):
                self.__dict__[name] = getattr(self._protocol, name)

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
        self.hand = Hand(self.config, deck=deck)
        self._protocol.deal(self.hand)

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        """Yield ``agent_selection`` while there are agents (PettingZoo's loop, compiled)."""
        return AgentIterable(self.__dict__, max_iter)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an index the mask allows) for ``agent_selection``.

        An index the mask does not allow raises IllegalActionError and changes
        nothing; once the hand is over each agent steps once with None.
        """
        self._protocol.step(action)

    # ------------------------------------------------------------------ observing

    def observe(self, agent: str) -> Observation:
        """What ``agent`` may see now (see docs/rl.md), with its action mask."""
        return self._protocol.observe(agent)

    @overload
    def last(
        self, observe: Literal[True] = True
    ) -> tuple[Observation, float, bool, bool, Info]: ...
    @overload
    def last(self, observe: Literal[False]) -> tuple[None, float, bool, bool, Info]: ...
    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Info]:
        """The selected agent's observation, reward so far, termination, truncation, info."""
        return self._protocol.last(observe)

    def action_mask(self, agent: str) -> MaskArray:
        """``agent``'s action mask now (shared and read-only: copy it to write to it)."""
        return self._core.mask_of(self.possible_agents.index(agent))

    def legal_actions(self) -> list[tuple[int, Action]]:
        """The selected agent's legal indices with the engine action each stands for."""
        return [(i, a) for i, a in enumerate(self._core.by_index) if a is not None]

    def action_index(self, action: Action) -> int:
        """The index of the engine ``action`` (one of the legal ones) for ``step``."""
        for index, legal in enumerate(self._core.by_index):
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
