"""Every shipped bot returns one of its legal actions, in any reachable state of any game."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stud.bots import BOTS, Bot, BotError, ask, make_bot, play_hand
from stud.cards import Deck
from stud.game import Action, ActionKind, Hand, HandView, TableConfig, variant

GAMES = ("stud", "stud8", "razz")


def _config(game: str, seats: int, stack: int) -> TableConfig:
    """A small-stakes table: ante 1, bring-in 2, bets 4 and 8."""
    return TableConfig(
        game=variant(game), ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(stack,) * seats
    )


@st.composite
def states(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    """A hand of a random game and table, driven to a random point by random legal actions."""
    game = draw(st.sampled_from(GAMES))
    seats = draw(st.integers(2, 8))
    small = draw(st.sampled_from([2, 4, 10]))
    ante = draw(st.integers(0, small // 2))
    bring_in = draw(st.integers(1, small))
    # Short stacks make all-ins, side pots and short wagers reachable.
    stacks = tuple(draw(st.integers(1, 40 * small)) for _ in range(seats))
    config = TableConfig(
        game=variant(game),
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=2 * small,
        stacks=stacks,
        lift_cap_heads_up=draw(st.booleans()),
    )
    seed = draw(st.integers(0, 2**32 - 1))
    hand = Hand(config, deck=Deck(seed=seed))
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 40))):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.act(legal[rng.randrange(len(legal))])
    return hand, rng


@pytest.mark.slow
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(states(), st.sampled_from(sorted(BOTS)), st.integers(0, 2**32 - 1))
def test_bots_return_a_legal_action(
    state: tuple[Hand, random.Random], name: str, seed: int
) -> None:
    hand, _ = state
    if hand.is_over:
        return
    seat = hand.to_act
    assert seat is not None
    legal = hand.legal_actions()
    choice = make_bot(name, seed).choose(hand.view(seat), tuple(legal))
    assert choice in legal
    hand.act(choice)  # and the engine takes it


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 5, 8])
def test_bots_play_whole_hands_of_every_game(game: str, players: int) -> None:
    names = sorted(BOTS)
    config = _config(game, players, 60)
    for seed in range(12):
        hand = Hand(config, deck=Deck(seed=seed))
        bots = [make_bot(names[(seat + seed) % len(names)], seed + seat) for seat in range(players)]
        play_hand(hand, bots)
        assert hand.is_over
        assert hand.result is not None and sum(hand.result.stacks) == 60 * players


def test_station_never_folds_or_raises() -> None:
    config = _config("stud", 4, 200)
    station = make_bot("station")
    seen = 0
    for seed in range(30):
        hand = Hand(config, deck=Deck(seed=seed))
        rng = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            if hand.to_act == 0:
                choice = ask(station, hand)
                assert choice.kind not in (ActionKind.FOLD, ActionKind.RAISE, ActionKind.BET)
                if choice.kind is ActionKind.COMPLETE:  # only when nothing cheaper is legal
                    assert all(a.kind is ActionKind.COMPLETE for a in legal)
                seen += 1
                hand.act(choice)
            else:
                hand.act(legal[rng.randrange(len(legal))])
    assert seen > 30


def test_random_bot_covers_every_legal_action() -> None:
    config = _config("razz", 3, 99)
    hand = Hand(config, deck=Deck(seed=4))
    hand.act("bring-in")
    legal = hand.legal_actions()
    bot = make_bot("random", 1)
    picks = [bot.choose(hand.view(hand.to_act), tuple(legal)) for _ in range(300)]
    counts = {a: picks.count(a) for a in legal}
    assert set(counts) == set(legal)
    assert all(60 <= c <= 140 for c in counts.values())  # about 100 each of 3


def test_ask_rejects_an_illegal_choice() -> None:
    class Cheater:
        def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
            return Action(ActionKind.RAISE, 10_000, view.viewer)

    config = _config("stud", 2, 50)
    hand = Hand(config, deck=Deck(seed=1))
    cheater: Bot = Cheater()
    assert isinstance(cheater, Bot)
    with pytest.raises(BotError):
        ask(cheater, hand)


def test_unknown_bot_name() -> None:
    with pytest.raises(ValueError, match="unknown bot 'shark'"):
        make_bot("shark")
