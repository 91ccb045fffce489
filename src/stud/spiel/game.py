"""The engine as OpenSpiel games: ``python_stud``, ``python_stud8`` and ``python_razz``.

Importing :mod:`stud.spiel` registers them, so ``pyspiel.load_game("python_razz")``
(with parameters ``players``, ``ante``, ``bring_in``, ``small_bet``,
``big_bet``, ``stack``) plays the project's engine: no second copy of the rules.

- **Chance** deals every card: one chance node per card, uniform over the
  cards not yet dealt, in the order the engine asks for them (3rd street as
  the hand starts, then each street when the action that ends the last one
  is played). How many cards an action deals is found by playing it on a
  copy of the hand first, so the engine alone decides.
- **Actions** are :mod:`stud.env`'s five indices (fold, check/call,
  bring-in, complete/bet/raise, the double bet of R7), legal as its mask says.
- **Returns** are chips won or lost in big bets (the environment's reward).
- **Information state**: the string is the seat's own view of every event
  so far, in order (its down cards, every up card, every action); the tensor
  is the environment's perfect-recall observation (``perfect_recall=True``).
  **Observation**: the string is the seat's view of the table now, the
  tensor the environment's compact observation. Both tensors come from the
  environment's encoder (:class:`stud.envcore.Core`), which reads a seat's
  own down cards and nobody else's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from stud.cards import Card
from stud.envcore import Core
from stud.envcore.history import history_slots
from stud.envcore.offsets import ACTION_COUNT, SIZE
from stud.game import (
    MAX_SEATS,
    MIN_SEATS,
    CardBurned,
    CardsDealt,
    CommunityCard,
    Event,
    Hand,
    TableConfig,
)

ACTION_NAMES = ("fold", "check/call", "bring-in", "wager", "double wager")
"""Each action index's name (those of :mod:`stud.env.actions`)."""

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "ante": 2,
    "bring_in": 5,
    "small_bet": 20,
    "big_bet": 40,
    "stack": 4000,
}
"""The games' parameters: the table of :mod:`stud.env`'s defaults (100 big bets each)."""

DECK = 52
GAMES = {"python_stud": "stud", "python_stud8": "stud8", "python_razz": "razz"}
"""Each OpenSpiel name and the engine's game code it plays."""
_LONG = {"stud": "Seven Card Stud", "stud8": "Stud Hi/Lo", "razz": "Razz"}


def _game_type(short_name: str, game: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {_LONG[game]} (stud engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_SEATS,
        min_num_players=MIN_SEATS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def table_of(game: str, params: dict[str, Any]) -> TableConfig:
    """The engine's table for ``game`` with the OpenSpiel parameters ``params``."""
    players = int(params["players"])
    return TableConfig(
        game=game,
        ante=int(params["ante"]),
        bring_in=int(params["bring_in"]),
        small_bet=int(params["small_bet"]),
        big_bet=int(params["big_bet"]),
        stacks=(int(params["stack"]),) * players,
    )


class StudGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One of the three games at one table (its parameters)."""

    code = "stud"
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULTS, **(params or {})}
        self.config = table_of(self.code, merged)  # ValueError: the engine's words
        config = self.config
        players = config.seats
        big = config.big_bet
        stack = max(config.stacks)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=DECK,
            num_players=players,
            min_utility=-stack / big,
            max_utility=stack * (players - 1) / big,
            utility_sum=0.0,
            max_game_length=DECK + history_slots(config),
        )
        super().__init__(self.game_type, info, merged)

    def new_initial_state(self) -> StudState:
        """A hand about to be dealt: its first nodes are chance's."""
        return StudState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        """The observer of an information state (perfect recall) or of an observation."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.config, recall)


class _Dealt:
    """The card source of a state's hand: the cards chance chose, in the order they are asked for.

    A probe (a source with ``spare`` cards) deals the cards nobody chose yet,
    so playing an action on a copy of the hand tells how many cards it deals.
    """

    def __init__(self, cards: list[int], spare: list[int] | None = None) -> None:
        self.cards = cards
        self.spare = spare
        self.used = 0

    def _next(self) -> int | None:
        index = self.used
        self.used += 1
        if index < len(self.cards):
            return self.cards[index]
        if self.spare is not None and self.spare:
            return self.spare.pop()
        return None

    def for_seat(self, seat: int) -> int | None:
        return self._next()

    def burn(self) -> int | None:
        return self._next()

    def community(self) -> int | None:
        return self._next()


def _source(hand: Hand) -> _Dealt:
    """The card source of a state's hand (the engine keeps it as ``_src``; a copy has its own)."""
    source = hand._src
    assert isinstance(source, _Dealt)
    return source


class _Follower:
    """A state's :class:`Core`, which copies and pickles as its hand and its history's records.

    (The core's native buffers do not pickle: a copy rebuilds them from the hand's events.)
    """

    def __init__(self, config: TableConfig, hand: Hand | None, records: list[int]) -> None:
        self.config = config
        self.core = Core(config, perfect_recall=True)
        if hand is not None:
            self.core.resume(hand, records)

    def __reduce__(self) -> tuple[object, ...]:
        return (_Follower, (self.config, self.core.hand, self.core.records()))


def _cards_in(events: list[Event] | tuple[Event, ...]) -> int:
    """How many cards ``events`` deal (to seats, burnt, the community card)."""
    count = 0
    for event in events:
        if isinstance(event, CardsDealt):
            count += len(event.down) + len(event.up)
        elif isinstance(event, CardBurned | CommunityCard):
            count += 1
    return count


class StudState(pyspiel.State):  # type: ignore[misc]
    """A hand of the engine as an OpenSpiel state (see the module's docstring)."""

    def __init__(self, game: StudGame) -> None:
        super().__init__(game)
        self.config = game.config
        self._early: list[int] = []
        """The cards chosen before the hand is dealt (then the hand's source holds them)."""
        self._follower = _Follower(self.config, None, [])
        self._waiting = -1
        """The action index waiting for its cards (-1: the deal of 3rd street)."""
        self._needed = self._deal_size()
        """Cards chance must choose before the hand goes on (0: none)."""

    @property
    def cards(self) -> list[int]:
        """The cards chance has chosen, in the order dealt (the list the hand's source reads)."""
        return self._early if self.hand is None else _source(self.hand).cards

    @property
    def hand(self) -> Hand | None:
        """The engine's hand (None until chance dealt 3rd street)."""
        return self._follower.core.hand

    @property
    def core(self) -> Core:
        """The environment's core following the hand (perfect recall: both tensors)."""
        return self._follower.core

    @classmethod
    def following(cls, game: StudGame, hand: Hand, records: list[int]) -> StudState:
        """A state at ``hand`` as it stands (perfect-recall ``records`` of its actions).

        What a bot does with its own hand built from its seat's view
        (:func:`stud.spiel.policy_bot`): the seat's information state is
        the same as in the real hand, whose hidden cards it does not know.
        """
        state = cls(game)
        state._early = []
        state._needed = 0
        state._follower = _Follower(game.config, hand.copy(), records)
        return state

    # ------------------------------------------------------------------ chance

    def _deal_size(self) -> int:
        """The cards the hand deals as it starts (3rd street; more if it runs out at once)."""
        probe = Hand(self.config, cards=_Dealt([], list(range(DECK))))
        return _cards_in(probe.events)

    def _cards_for(self, index: int) -> int:
        """The cards playing ``index`` deals (0 when it ends no street), found on a copy."""
        hand = self.hand
        action = self.core.by_index[index]
        assert hand is not None and action is not None
        probe = hand.copy()
        dealt = set(self.cards)
        _source(probe).spare = [card for card in range(DECK) if card not in dealt]
        return _cards_in(probe.act(action))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not dealt yet, each as likely."""
        dealt = set(self.cards)
        left = [card for card in range(DECK) if card not in dealt]
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    # ------------------------------------------------------------------ the game

    def current_player(self) -> int:
        if self._needed:
            return int(pyspiel.PlayerId.CHANCE)
        if self.hand is None or self.hand.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.core.acting

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.core.acting or self._needed:
            return []
        return [int(i) for i in np.flatnonzero(self.core.mask)]

    def _apply_action(self, action: int) -> None:
        if self._needed:
            if action in self.cards or not 0 <= action < DECK:
                raise ValueError(f"card {action} is not in the deck now")
            self.cards.append(int(action))
            self._needed -= 1
            if self._needed == 0:
                self._go_on()
            return
        needed = self._cards_for(action)
        self._waiting = action
        self._needed = needed
        if needed == 0:
            self._go_on()

    def _go_on(self) -> None:
        """Play what waited for its cards: the deal, or an action."""
        if self._waiting < 0:
            self.core.start(Hand(self.config, cards=_Dealt(self._early)))
        else:
            self.core.play(self._waiting)
        self._waiting = -1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action)}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return not self._needed and self.hand is not None and self.hand.is_over

    def returns(self) -> list[float]:
        hand = self.hand
        if hand is None or hand.result is None or self._needed:
            return [0.0] * self.config.seats
        big = self.config.big_bet
        return [net / big for net in hand.result.net]

    def __str__(self) -> str:
        hand = self.hand
        if hand is None:
            return f"dealing: {' '.join(str(Card(c)) for c in self.cards)}"
        return "\n".join(repr(event) for event in hand.events)

    # ------------------------------------------------------------------ what a seat sees

    def information_string(self, player: int) -> str:
        """Every event so far as ``player``'s seat sees it, in order (perfect recall)."""
        hand = self.hand
        if hand is None:
            return f"p{player}"
        return "\n".join([f"p{player}", *(repr(e) for e in hand.view(player).events)])

    def observation_string(self, player: int) -> str:
        """The table now as ``player``'s seat sees it (no history)."""
        hand = self.hand
        if hand is None:
            return f"p{player}"
        view = hand.view(player)
        seats = " | ".join(
            f"s{s.seat} {s.stack}/{s.bet}/{s.committed}{'' if s.live else ' out'} "
            f"{_cards(s.down)} {_cards(s.up)}"
            for s in view.seats
        )
        return (
            f"p{player} street {view.street} pot {view.pot} level {view.level} "
            f"to act {view.to_act} community {_cards((view.community,))} || {seats}"
        )

    def tensor(self, player: int, recall: bool) -> np.ndarray:
        """The environment's observation of ``player`` (with its history for ``recall``)."""
        if self.hand is None:
            return np.zeros(self.core.size if recall else SIZE, np.float32)
        vector = self.core.observe(player)
        return vector if recall else vector[:SIZE]


def _cards(cards: tuple[int | None, ...]) -> str:
    return "".join("??" if c is None else str(Card(c)) for c in cards) or "-"


class Observer:
    """OpenSpiel's observer: a seat's information state (``recall``) or observation."""

    def __init__(self, config: TableConfig, recall: bool) -> None:
        self.recall = recall
        size = Core(config, perfect_recall=True).size if recall else SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StudState, player: int) -> None:
        self.tensor[:] = state.tensor(player, self.recall)

    def string_from(self, state: StudState, player: int) -> str:
        if self.recall:
            return state.information_string(player)
        return state.observation_string(player)


def _register(name: str, code: str) -> None:
    """Register ``name``: a :class:`StudGame` of ``code``'s game."""
    game_type = _game_type(name, code)
    game_class = type(
        f"{code.capitalize()}Game", (StudGame,), {"code": code, "game_type": game_type}
    )
    pyspiel.register_game(game_type, game_class)


for _name, _code in GAMES.items():
    _register(_name, _code)
