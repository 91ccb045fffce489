"""Trained policies as bots: a callable from (observation, mask) to an action index, seated.

:func:`from_policy` wraps any ``policy(observation, mask) -> index`` (a torch
module's forward, a Stable-Baselines3 model through :func:`sb3_policy`, a
NumPy network) as a :class:`~stud.bots.Bot`, so
``stud gauntlet``, ``stud sim`` and the card room play it like the shipped
bots. The observation is the one :mod:`stud.env` gives that seat, written by
the environment's own core (:class:`stud.envcore.Core`), not a second encoder.

A bot gets only its seat's :class:`~stud.game.HandView`, so the bot keeps a
hand of its own built from that view: the cards it may see (its own down
cards, every up card; the others' down cards stay unknown, which the
encoder never reads) and the actions in order. The core follows that hand as
the environment's follows the real one, so the observation is the same.
Rules the view does not state (the heads-up cap, the short all-in rule)
come from ``rules``; a table whose legal actions differ from the bot's own
hand is refused with :class:`~stud.bots.BotError`, never played on guesses.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from stud.bots.base import BotError
from stud.game import (
    Acted,
    Action,
    CardsDealt,
    Event,
    Hand,
    HandStarted,
    HandView,
    TableConfig,
    variant,
)

if TYPE_CHECKING:
    from stud.envcore import Core

Policy = Callable[[Any, np.ndarray], Any]
"""``policy(observation, mask) -> index``: the observation as :mod:`stud.env` gives it."""

OBSERVATIONS = ("dict", "flat")


class _ViewCards:
    """The card source of the bot's own hand: the cards its view showed, None where hidden."""

    def __init__(self, seats: int) -> None:
        self.cards: list[list[int | None]] = [[] for _ in range(seats)]
        self._used = [0] * seats
        self.community_card: int | None = None

    def for_seat(self, seat: int) -> int | None:
        cards = self.cards[seat]
        index = self._used[seat]
        self._used[seat] = index + 1
        return cards[index] if index < len(cards) else None

    def burn(self) -> int | None:
        return None

    def community(self) -> int | None:
        return self.community_card


class PolicyBot:
    """A bot that asks ``policy`` with its seat's observation as :mod:`stud.env` encodes it.

    ``observation`` and ``perfect_recall`` are the environment's options the
    policy was trained with (``"dict"`` or ``"flat"``); ``rules`` are
    :class:`TableConfig` options the view does not carry (e.g.
    ``lift_cap_heads_up=True``).
    """

    def __init__(
        self,
        policy: Policy,
        game: str | None = None,
        *,
        observation: str = "dict",
        perfect_recall: bool = False,
        rules: dict[str, Any] | None = None,
    ) -> None:
        if not callable(policy):
            raise ValueError(f"a policy is a callable (observation, mask) -> index, not {policy!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be 'dict' or 'flat', not {observation!r}")
        self.policy = policy
        self.game = game
        self.observation = observation
        self.perfect_recall = bool(perfect_recall)
        self.rules = dict(rules or {})
        self._variant = None if game is None else variant(game)
        self._core: Core | None = None
        self._hand: Hand | None = None
        self._cards = _ViewCards(0)
        self._seen: tuple[Event, ...] = ()
        """The view's events the bot's own hand has taken in."""
        self._followed = 0

    # ------------------------------------------------------------------ choosing

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        """The action ``policy`` picks from this seat's observation; BotError for an illegal one."""
        seat = view.viewer
        if seat is None:
            raise ValueError("a policy bot plays a seat: it got a spectator's view")
        core = self.follow(view)
        if core.acting != seat:
            raise BotError(f"{self._name()} was asked to act for seat {seat} out of turn")
        mask = core.mask_of(seat).copy()
        observation = core.named(seat) if self.observation == "dict" else core.flat(seat)
        observation["action_mask"] = mask.copy()
        index = _index(self.policy(observation, mask), self._name())
        chosen = core.by_index[index] if 0 <= index < len(core.by_index) else None
        if chosen is None:
            legal_indices = [i for i, a in enumerate(core.by_index) if a is not None]
            raise BotError(
                f"{self._name()} chose action index {index!r}, which the mask does not allow; "
                f"legal indices now: {legal_indices}"
            )
        for action in legal:
            if action == chosen:
                return action
        raise BotError(
            f"{self._name()}: the table's legal actions {list(legal)} differ from those of its "
            f"rules ({chosen} is not among them); give the table's rules with rules=..."
        )

    def _name(self) -> str:
        return f"policy {getattr(self.policy, '__name__', type(self.policy).__name__)}"

    # ------------------------------------------------------------------ following

    def follow(self, view: HandView) -> Core:
        """The bot's core brought up to ``view``: a new hand when the view shows another one.

        Its ``hand`` is the bot's own hand (the view's cards, None where
        hidden), which adapters use to rebuild the seat's state elsewhere
        (:func:`stud.spiel.policy_bot`).

        The view's events up to those already followed must be the same (a
        later view of the same hand); any other view starts the bot's hand afresh.
        """
        events = view.events
        if not events or not isinstance(events[0], HandStarted):
            raise ValueError("a policy bot needs the hand's events from its start in the view")
        followed = self._followed
        if self._hand is None or events[:followed] != self._seen:
            self._new_hand(events[0])
            followed = 0
        new = events[followed:]
        cards = self._cards
        for event in new:  # every card shown so far, before the actions that deal them
            if isinstance(event, CardsDealt):
                cards.cards[event.seat].extend(event.down + event.up)
        cards.community_card = view.community
        core = self._core
        assert core is not None
        if self._hand is None:  # the hand deals 3rd street as it starts: its cards are in
            self._hand = Hand(core.config, cards=cards)
            core.start(self._hand)
        for event in new:
            if isinstance(event, Acted):
                self._replay(core, event)
        self._seen = events
        self._followed = len(events)
        return core

    def _new_hand(self, start: HandStarted) -> None:
        """Get ready to deal a hand of the bot's own at the table ``start`` describes."""
        game = variant(start.game)
        if self._variant is not None and game is not self._variant:
            raise BotError(f"{self._name()} plays {self._variant.code}, not {start.game}")
        config = TableConfig(
            game=game,
            ante=start.ante,
            bring_in=start.bring_in,
            small_bet=start.small_bet,
            big_bet=start.big_bet,
            stacks=start.stacks,
            **self.rules,
        )
        from stud.envcore import Core  # the encoder: loaded when a policy bot first plays

        core = self._core
        if core is None or core.config != config:
            self._core = Core(config, perfect_recall=self.perfect_recall)
        self._cards = _ViewCards(config.seats)
        self._hand = None
        self._seen = ()
        self._followed = 0

    def _replay(self, core: Core, event: Acted) -> None:
        """Play ``event`` (an action the view shows) on the bot's own hand, by its index."""
        for index, action in enumerate(core.by_index):
            if action is not None and action.kind is event.kind and action.to == event.to:
                if core.acting != event.seat:
                    break
                core.play(index)
                return
        raise BotError(
            f"{self._name()} cannot follow the hand: seat {event.seat}'s {event.kind.value} "
            f"to {event.to} is not legal under its rules {self.rules or '(the defaults)'}"
        )


def _index(answer: object, name: str) -> int:
    """A policy's answer (int, NumPy integer, 0-d or one-element array) as an int; else BotError."""
    if isinstance(answer, np.ndarray) and answer.size == 1 and answer.dtype.kind in "iu":
        return int(answer.reshape(()))
    if isinstance(answer, int | np.integer) and not isinstance(answer, bool):
        return int(answer)
    item = getattr(answer, "item", None)  # a one-element torch tensor
    if callable(item) and getattr(answer, "numel", lambda: 0)() == 1:
        value = item()
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    raise BotError(f"{name} answered {answer!r}: a policy returns an action index 0 to 4")


def from_policy(
    policy: Policy,
    game: str | None = None,
    *,
    observation: str = "dict",
    perfect_recall: bool = False,
    rules: dict[str, Any] | None = None,
) -> PolicyBot:
    """``policy(observation, mask) -> index`` as a bot for ``game`` (see :class:`PolicyBot`).

    ``game`` (``"razz"``, ...) is the game the policy was trained for: the bot
    refuses to play another (None: any game).

    >>> import numpy as np
    >>> from stud.bots import from_policy, make_bot, play_hand
    >>> from stud.cards import Deck
    >>> from stud.game import Hand, TableConfig
    >>> first_legal = lambda observation, mask: int(np.flatnonzero(mask)[0])
    >>> bot = from_policy(first_legal, game="razz")
    >>> config = TableConfig(game="razz", ante=2, bring_in=5, small_bet=20, big_bet=40,
    ...                      stacks=(4000, 4000))
    >>> hand = Hand(config, deck=Deck(seed=3))
    >>> _ = play_hand(hand, [bot, make_bot("random", seed=1)])
    >>> hand.is_over
    True
    """
    return PolicyBot(
        policy, game, observation=observation, perfect_recall=perfect_recall, rules=rules
    )


def sb3_policy(model: Any, deterministic: bool = True) -> Policy:
    """A Stable-Baselines3 model's ``predict`` as a policy (masked if the model takes masks)."""
    predict = model.predict
    masked = "action_masks" in inspect.signature(predict).parameters

    def policy(observation: Any, mask: np.ndarray) -> Any:
        if masked:
            action, _ = predict(observation, deterministic=deterministic, action_masks=mask)
        else:
            action, _ = predict(observation, deterministic=deterministic)
        return action

    policy.__name__ = type(model).__name__
    return policy


def load_factory(name: str) -> Callable[[int | None], Any]:
    """The bot maker named ``"package.module:factory"`` (imported); ValueError if there is none."""
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"a bot from code is named module.path:factory, not {name!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"bot {name!r}: cannot import {module_name}: {error}") from error
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"bot {name!r}: {module_name} has no callable {attribute}")
    return factory  # type: ignore[no-any-return]
