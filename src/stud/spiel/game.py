"""The engine as OpenSpiel games: ``python_stud``, ``python_stud8``, ``python_razz`` and more.

Importing :mod:`stud.spiel` registers them, so ``pyspiel.load_game("python_razz")``
(with parameters ``players``, ``ante``, ``bring_in``, ``small_bet``,
``big_bet``, ``stack`` and the engine's small-game options ``down_cards``,
``last_street``, ``deck``) plays the project's engine: no second copy of the
rules. ``python_razz_small`` is a small game of the family (SMALL_DEFAULTS).

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
  is the environment's perfect-recall observation (``perfect_recall=True``)
  followed by the street of every seat's up cards (:func:`up_streets`).
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
from stud.envcore.turns import index_actions
from stud.game import (
    MAX_SEATS,
    MIN_SEATS,
    Action,
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
    "down_cards": 2,
    "last_street": 7,
    "deck": "",
}
"""The games' parameters: the table of :mod:`stud.env`'s defaults (100 big bets each).

``down_cards``, ``last_street`` and ``deck`` (cards as text, ``""`` for all 52)
are the engine's small-game options (:class:`stud.game.TableConfig`)."""

SMALL_DEFAULTS: dict[str, Any] = {
    **DEFAULTS,
    "ante": 1,
    "bring_in": 1,
    "small_bet": 2,
    "big_bet": 4,
    "stack": 6,
    "down_cards": 1,
    "last_street": 4,
    "deck": "Ac 2c 3c 4c 5c 6c 7c",
}
"""``python_razz_small``: heads-up three-card Razz (docs/rl.md, *A small game*)."""

DECK = 52
UP_STREETS = 4
"""Up cards come on 3rd (the door card) to 6th street."""
UP_STREETS_SIZE = MAX_SEATS * UP_STREETS * DECK
"""The information-state tensor's last part: every seat's up card of each street."""
GAMES = {"python_stud": "stud", "python_stud8": "stud8", "python_razz": "razz"}
"""Each OpenSpiel name and the engine's game code it plays."""
SMALL_GAMES = {"python_razz_small": "razz"}
"""The small games (the same engine with SMALL_DEFAULTS), each OpenSpiel name and its code."""
_LONG = {"stud": "Seven Card Stud", "stud8": "Stud Hi/Lo", "razz": "Razz"}


def _game_type(short_name: str, game: str, defaults: dict[str, Any]) -> pyspiel.GameType:
    small = " (small game)" if defaults is SMALL_DEFAULTS else ""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {_LONG[game]}{small} (stud engine)",
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
        parameter_specification=defaults,
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
        down_cards=int(params["down_cards"]),
        last_street=int(params["last_street"]),
        deck_cards=str(params["deck"]) or None,
    )


class _Table:
    """What every state of one game shares (the table, its deck): a copy is the table itself."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.deck: tuple[int, ...] = config.deck_cards or tuple(range(DECK))
        """The cards chance deals from (the table's short deck, or all 52)."""
        probe = Hand(config, cards=_Dealt([], list(self.deck)))
        self.deal_size = _cards_in(probe.events)
        """The cards the hand deals as it starts (3rd street; more if it runs out at once)."""
        self.recall_size = Core(config, perfect_recall=True).size + UP_STREETS_SIZE
        """The length of the information-state tensor."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        return self


class StudGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One of the three games at one table (its parameters)."""

    code = "stud"
    defaults: dict[str, Any] = DEFAULTS
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**self.defaults, **(params or {})}
        self.config = table_of(self.code, merged)  # ValueError: the engine's words
        config = self.config
        self.table = _Table(config)
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
            max_game_length=len(self.table.deck) + history_slots(config),
        )
        super().__init__(self.game_type, info, merged)

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards chance deals from."""
        return self.table.deck

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
        return Observer(self.table, recall)


class _Dealt:
    """The card source of a state's hand: the cards chance chose, in the order they are asked for.

    A probe (a source with ``spare`` cards) deals the cards nobody chose yet,
    so playing an action on a copy of the hand tells how many cards it deals.
    """

    def __init__(self, cards: list[int], spare: list[int] | None = None) -> None:
        self.cards = cards
        self.spare = spare
        self.used = 0

    def __deepcopy__(self, memo: dict[int, object]) -> _Dealt:
        clone = _Dealt(self.cards[:], None if self.spare is None else self.spare[:])
        clone.used = self.used
        return clone

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


class _Lazy:
    """A state's :class:`Core`, made when a tensor is asked for; a copy of a state makes its own."""

    def __init__(self) -> None:
        self.core: Core | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Lazy:
        return _Lazy()

    def __reduce__(self) -> tuple[object, ...]:
        return (_Lazy, ())


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
    """A hand of the engine as an OpenSpiel state (see the module's docstring).

    Its fields are the hand, the perfect-recall records of its actions and the
    cards still to deal, so a clone (OpenSpiel deep-copies each field) costs one
    :meth:`Hand.copy`; the environment's core is made only for a tensor.
    """

    def __init__(self, game: StudGame) -> None:
        super().__init__(game)
        self._table = game.table
        self._hand: Hand | None = None
        self._records: list[int] = []
        """The perfect-recall history: seat, index and street of each action played."""
        self._early: list[int] = []
        """The cards chosen before the hand is dealt (then the hand's source holds them)."""
        self._lazy = _Lazy()
        self._waiting = -1
        """The action index waiting for its cards (-1: the deal of 3rd street)."""
        self._needed = self._table.deal_size
        """Cards chance must choose before the hand goes on (0: none)."""

    @property
    def config(self) -> TableConfig:
        """The table the hand is played at."""
        return self._table.config

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards chance deals from."""
        return self._table.deck

    @property
    def cards(self) -> list[int]:
        """The cards chance has chosen, in the order dealt (the list the hand's source reads)."""
        return self._early if self._hand is None else _source(self._hand).cards

    @property
    def hand(self) -> Hand | None:
        """The engine's hand (None until chance dealt 3rd street)."""
        return self._hand

    @property
    def core(self) -> Core:
        """The environment's core at this state (perfect recall), made on first use."""
        lazy = self._lazy
        if lazy.core is None:
            lazy.core = Core(self.config, perfect_recall=True)
            if self._hand is not None:
                lazy.core.resume(self._hand, self._records)
        return lazy.core

    @classmethod
    def following(cls, game: StudGame, hand: Hand, records: list[int]) -> StudState:
        """A state at ``hand`` as it stands (perfect-recall ``records`` of its actions).

        What a bot does with its own hand built from its seat's view
        (:func:`stud.spiel.policy_bot`): the seat's information state is
        the same as in the real hand, whose hidden cards it does not know.
        """
        state = cls(game)
        state._needed = 0
        state._hand = hand.copy()
        state._records = list(records)
        if hand.config != game.config:  # the table's own stacks
            state._table = _Table(hand.config)
        return state

    def _by_index(self) -> list[Action | None]:
        """The engine action of each index for the seat to act (None where illegal)."""
        hand = self._hand
        return [] if hand is None else index_actions(hand.legal_actions())[0]

    # ------------------------------------------------------------------ chance

    def _cards_for(self, action: Action) -> int:
        """The cards playing ``action`` deals (0 when it ends no street), found on a copy."""
        hand = self._hand
        assert hand is not None
        probe = hand.copy()
        dealt = set(self.cards)
        _source(probe).spare = [card for card in self.deck if card not in dealt]
        return _cards_in(probe.act(action))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not dealt yet, each as likely."""
        dealt = set(self.cards)
        left = [card for card in self.deck if card not in dealt]
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    # ------------------------------------------------------------------ the game

    def current_player(self) -> int:
        if self._needed:
            return int(pyspiel.PlayerId.CHANCE)
        hand = self._hand
        if hand is None or hand.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = hand.to_act
        assert seat is not None  # a dealt hand always knows whose turn it is
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if self._needed or self._hand is None or player != self._hand.to_act:
            return []
        return [i for i, action in enumerate(self._by_index()) if action is not None]

    def _apply_action(self, action: int) -> None:
        self._lazy = _Lazy()
        if self._needed:
            if action in self.cards or action not in self.deck:
                raise ValueError(f"card {action} is not in the deck now")
            self.cards.append(int(action))
            self._needed -= 1
            if self._needed == 0:
                self._go_on()
            return
        chosen = self._by_index()[action]
        assert chosen is not None  # OpenSpiel applies legal actions only
        needed = self._cards_for(chosen)
        self._waiting = action
        self._needed = needed
        if needed == 0:
            self._go_on()

    def _go_on(self) -> None:
        """Play what waited for its cards: the deal, or an action."""
        if self._waiting < 0:
            self._hand = Hand(self.config, cards=_Dealt(self._early))
            self._early = []
        else:
            hand = self._hand
            assert hand is not None
            chosen = self._by_index()[self._waiting]
            assert chosen is not None and hand.to_act is not None
            self._records += (hand.to_act, self._waiting, hand.street)
            hand.act(chosen)
        self._waiting = -1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action)}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return not self._needed and self._hand is not None and self._hand.is_over

    def returns(self) -> list[float]:
        hand = self._hand
        if hand is None or hand.result is None or self._needed:
            return [0.0] * self.config.seats
        big = self.config.big_bet
        return [net / big for net in hand.result.net]

    def __str__(self) -> str:
        hand = self._hand
        if hand is None:
            return f"dealing: {' '.join(str(Card(c)) for c in self.cards)}"
        return "\n".join(repr(event) for event in hand.events)

    # ------------------------------------------------------------------ what a seat sees

    def information_string(self, player: int) -> str:
        """Every event so far as ``player``'s seat sees it, in order (perfect recall)."""
        hand = self._hand
        if hand is None:
            return f"p{player}"
        return "\n".join([f"p{player}", *(repr(e) for e in hand.view(player).events)])

    def observation_string(self, player: int) -> str:
        """The table now as ``player``'s seat sees it (no history)."""
        hand = self._hand
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
        """The environment's observation of ``player``; with ``recall``, its history and
        the street of every up card (:func:`up_streets`) after it."""
        hand = self._hand
        if not recall:
            return self.core.observe(player)[:SIZE] if hand else np.zeros(SIZE, np.float32)
        out = np.zeros(self._table.recall_size, np.float32)
        if hand is not None:
            out[:-UP_STREETS_SIZE] = self.core.observe(player)
            up_streets(hand, player, out[-UP_STREETS_SIZE:])
        return out


def up_streets(hand: Hand, player: int, out: np.ndarray) -> None:
    """Write which up card each seat got on which street into ``out`` (8 × 4 × 52, zeroed).

    Row ``k`` is the seat ``k`` places to ``player``'s left (0: the player, as the
    seat rows of the observation), block ``i`` its up card of street ``3 + i``,
    one-hot over the 52 card ints: the observation's ``up`` rows say which cards
    are up, this part says when each came.
    """
    seats = hand.config.seats
    for seat in range(seats):
        row = (seat - player) % seats
        for street, card in enumerate(hand.up_cards(seat)):
            if card is not None:
                out[(row * UP_STREETS + street) * DECK + card] = 1.0


def _cards(cards: tuple[int | None, ...]) -> str:
    return "".join("??" if c is None else str(Card(c)) for c in cards) or "-"


class Observer:
    """OpenSpiel's observer: a seat's information state (``recall``) or observation."""

    def __init__(self, table: _Table, recall: bool) -> None:
        self.recall = recall
        self.tensor = np.zeros(table.recall_size if recall else SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StudState, player: int) -> None:
        self.tensor[:] = state.tensor(player, self.recall)

    def string_from(self, state: StudState, player: int) -> str:
        if self.recall:
            return state.information_string(player)
        return state.observation_string(player)


def _register(name: str, code: str, defaults: dict[str, Any]) -> None:
    """Register ``name``: a :class:`StudGame` of ``code``'s game with ``defaults``."""
    game_type = _game_type(name, code, defaults)
    small = "Small" if defaults is SMALL_DEFAULTS else ""
    game_class = type(
        f"{code.capitalize()}{small}Game",
        (StudGame,),
        {"code": code, "game_type": game_type, "defaults": defaults},
    )
    pyspiel.register_game(game_type, game_class)


for _name, _code in GAMES.items():
    _register(_name, _code, DEFAULTS)
for _name, _code in SMALL_GAMES.items():
    _register(_name, _code, SMALL_DEFAULTS)
