"""Properties over many random hands: views never leak a hidden card; a Hypothesis
state machine checks chips, legality and termination under random legal and illegal play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from stud.cards import Card, Deck
from stud.game import (
    RAZZ,
    STUD,
    STUD8,
    Action,
    ActionKind,
    CardBurned,
    CardsDealt,
    CommunityCard,
    Hand,
    HandShown,
    HandView,
    IllegalActionError,
    PotAwarded,
    TableConfig,
)

K = ActionKind
GAMES = (STUD, STUD8, RAZZ)


def random_config(rng: random.Random) -> TableConfig:
    players = rng.randint(2, 8)
    small = rng.choice((2, 4, 10))
    return TableConfig(
        game=rng.choice(GAMES),
        ante=rng.choice((0, 1, small // 2)),
        bring_in=rng.randint(1, small),
        small_bet=small,
        big_bet=rng.choice((2 * small, small + 1)),
        stacks=tuple(rng.randint(1, 60 * small) for _ in range(players)),
        burn_cards=rng.random() < 0.5,
        lift_cap_heads_up=rng.random() < 0.3,
        short_all_in_rule=rng.random() < 0.8,
    )


def cards_in_view(view: HandView) -> set[int]:
    """Every card a view holds, anywhere: seats, community, events."""
    out: set[int] = set()
    for seat in view.seats:
        out.update(c for c in seat.down + seat.up if c is not None)
    if view.community is not None:
        out.add(view.community)
    for event in view.events:
        if isinstance(event, CardsDealt):
            out.update(c for c in event.down + event.up if c is not None)
        elif isinstance(event, CardBurned | CommunityCard) and event.card is not None:
            out.add(event.card)
        elif isinstance(event, HandShown | PotAwarded):
            out.update(c for c in event.cards if c is not None)
    return out


def hidden_from(hand: Hand, viewer: int | None) -> set[int]:
    """The cards ``viewer`` must not see now: others' unshown down cards, and burns."""
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    hidden = {
        c
        for s in range(hand.config.seats)
        if s != viewer and s not in shown
        for c in hand.down_cards(s)
        if c is not None
    }
    hidden.update(e.card for e in hand.events if isinstance(e, CardBurned) and e.card is not None)
    return hidden


def check_views(hand: Hand, as_json: bool) -> None:
    for viewer in (None, *range(hand.config.seats)):
        view = hand.view(viewer)
        leaked = cards_in_view(view) & hidden_from(hand, viewer)
        assert not leaked, f"viewer {viewer} sees {[str(Card(c)) for c in leaked]}"
        if viewer is not None:
            assert view.seats[viewer].down == hand.down_cards(viewer)
        if as_json:
            text = json.dumps(view.to_dict())
            for card in hidden_from(hand, viewer):
                assert f'"{Card(card)}"' not in text


@pytest.mark.slow
def test_no_view_ever_holds_a_hidden_card() -> None:
    rng = random.Random(2024)
    sizes: set[tuple[str, int]] = set()
    for number in range(1500):
        config = random_config(rng)
        sizes.add((config.game.code, config.seats))
        hand = Hand(config, deck=Deck(seed=number))
        check_views(hand, as_json=number % 50 == 0)
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
            if rng.random() < 0.3:
                check_views(hand, as_json=False)
        check_views(hand, as_json=number % 10 == 0)
    assert {game for game, _ in sizes} == {"stud", "stud8", "razz"}
    assert {n for _, n in sizes} == set(range(2, 9))


@pytest.mark.slow
def test_no_view_ever_holds_a_hidden_card_many_more() -> None:
    rng = random.Random(7)
    for number in range(6000):
        hand = Hand(random_config(rng), deck=Deck(seed=number + 100_000))
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
            check_views(hand, as_json=False)


def snapshot(hand: Hand) -> tuple[Any, ...]:
    return (hand.events, hand.stacks, hand.bets, hand.committed, hand.to_act, hand.live)


class HandMachine(RuleBasedStateMachine):
    """Random legal and illegal actions over random tables, hand after hand."""

    hand: Hand
    total: int
    actions: int

    def _deal(self, config: TableConfig, seed: int) -> None:
        self.hand = Hand(config, deck=Deck(seed=seed))
        self.total = sum(config.stacks)
        self.actions = 0

    @initialize(seed=st.integers(0, 2**32 - 1))
    def start(self, seed: int) -> None:
        self._deal(random_config(random.Random(seed)), seed)

    @precondition(lambda self: not self.hand.is_over)
    @rule(pick=st.integers(0, 10))
    def legal(self, pick: int) -> None:
        legal = self.hand.legal_actions()
        assert legal, "a hand in progress has a seat to act with legal actions"
        action = legal[pick % len(legal)]
        events = self.hand.act(action)
        assert events, "an accepted action produces events"
        self.actions += 1

    @precondition(lambda self: not self.hand.is_over)
    @rule(
        kind=st.sampled_from(list(ActionKind)),
        to=st.one_of(st.none(), st.integers(-5, 400)),
        seat=st.one_of(st.none(), st.integers(-1, 9)),
    )
    def maybe_illegal(self, kind: ActionKind, to: int | None, seat: int | None) -> None:
        hand = self.hand
        actor = hand.to_act
        legal = hand.legal_actions()
        amounts = [a.to for a in legal if a.kind is kind]
        allowed = (seat is None or seat == actor) and (
            (to is None and len(amounts) == 1) or (to is not None and to in amounts)
        )
        before = snapshot(hand)
        if allowed:
            hand.act(kind, to, seat=seat)
            self.actions += 1
        else:
            with pytest.raises(IllegalActionError):
                hand.act(kind, to, seat=seat)
            assert snapshot(hand) == before

    @precondition(lambda self: self.hand.is_over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_hand(self, seed: int) -> None:
        result = self.hand.result
        assert result is not None
        stacks = [s for s in result.stacks if s > 0]
        config = self.hand.config
        if len(stacks) < 2:
            config = random_config(random.Random(seed))
        else:
            config = config.with_stacks(stacks)
        self._deal(config, seed)

    @invariant()
    def chips_are_conserved(self) -> None:
        hand = self.hand
        if hand.is_over:
            result = hand.result
            assert result is not None
            assert sum(result.stacks) + result.rake == self.total
            assert all(s >= 0 for s in result.stacks)
        else:
            assert sum(hand.stacks) + hand.pot == self.total
            assert all(s >= 0 for s in hand.stacks)

    @invariant()
    def every_hand_ends(self) -> None:
        # A bet and three raises on five streets among eight seats is far below this.
        assert self.actions < 250
        hand = self.hand
        assert hand.is_over == (hand.to_act is None)
        if not hand.is_over:
            assert hand.legal_actions()
            assert all(isinstance(a, Action) for a in hand.legal_actions())


HandMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_hand_state_machine = pytest.mark.slow(HandMachine.TestCase)
