"""The engine's API: configuration checks, refused actions, events as JSON, views, replays, rake."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from typing import Any

import pytest

from stud.cards import Card, Deck
from stud.game import (
    RAZZ,
    STUD,
    STUD8,
    Acted,
    Action,
    ActionKind,
    ActorTrusted,
    CardBurned,
    Event,
    Hand,
    HandMucked,
    HandShown,
    IllegalActionError,
    PotAwarded,
    ScriptedCards,
    TableConfig,
    event_from_dict,
    variant,
)

K = ActionKind


def config(**overrides: Any) -> TableConfig:
    base: dict[str, Any] = dict(
        game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(100, 100, 100)
    )
    base.update(overrides)
    return TableConfig(**base)


# configuration -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"bring_in": 5}, r"bring_in \(5\) cannot be above the small bet \(4\)"),
        ({"big_bet": 4}, r"big_bet \(4\) must be above the small bet \(4\)"),
        ({"big_bet": 3}, "must be above the small bet"),
        ({"stacks": (100,) * 9}, "seats 2 to 8 players, not 9"),
        ({"stacks": (100,)}, "not 1"),
        ({"stacks": (100, -5)}, "stack of seat 1 cannot be negative"),
        ({"stacks": (100, 0)}, "seat 1 has no chips"),
        ({"stacks": (100, 2.5)}, "whole number of chips"),
        ({"stacks": "100"}, "sequence of chip counts"),
        ({"ante": -1}, "ante cannot be negative"),
        ({"bring_in": 0}, "bring_in cannot be below 1"),
        ({"small_bet": True}, "whole number"),
        ({"rake_percent": 100}, "below 100"),
        ({"rake_percent": -1}, "at least 0"),
        ({"rake_cap": -1}, "rake_cap cannot be negative"),
        ({"game": "holdem"}, "unknown game 'holdem'"),
        ({"burn_cards": "yes"}, "burn_cards must be True or False"),
    ],
)
def test_impossible_configs_are_refused_clearly(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config(**overrides)


def test_config_accepts_names_and_exact_percentages() -> None:
    cfg = config(game="razz", rake_percent=0.07, stacks=[5, 6])
    assert cfg.game is RAZZ
    assert cfg.rake_percent == Fraction(7, 100)
    assert cfg.stacks == (5, 6) and cfg.seats == 2
    assert variant("F7S/8") is STUD8
    assert cfg.with_stacks((7, 8, 9)).stacks == (7, 8, 9)
    assert config(bring_in=4).bring_in == 4  # a bring-in of a full small bet is allowed


def test_bring_in_equal_to_the_small_bet_is_a_completion() -> None:
    hand = Hand(config(bring_in=4), cards=ScriptedCards(["As Ks 2c", "Ad Kd 9c", "Ah Kh 8c"]))
    assert [(a.kind, a.to) for a in hand.legal_actions()] == [(K.COMPLETE, 4)]


# refused actions --------------------------------------------------------------------


def snapshot(hand: Hand) -> tuple[Any, ...]:
    return (
        hand.events,
        hand.stacks,
        hand.bets,
        hand.committed,
        hand.to_act,
        hand.live,
        tuple(hand.legal_actions()),
    )


def started() -> Hand:
    hand = Hand(config(), cards=ScriptedCards(["As Ks 2c", "Ad Kd 9c", "Ah Kh 8c"]))
    hand.act("bring-in")  # seat 0
    hand.act("fold")  # seat 1
    return hand


@pytest.mark.parametrize(
    ("attempt", "message"),
    [
        (lambda h: h.act("call", seat=0), "it is seat 2's turn, not seat 0's"),
        (lambda h: h.act("call", seat=1), "seat 1 is not in the hand: it folded"),
        (lambda h: h.act("call", seat=9), "seat 9 does not exist"),
        (lambda h: h.act("complete", 8), "cannot complete to 8: the legal amount is 4"),
        (lambda h: h.act("check"), "cannot check: it faces 2 to call"),
        (lambda h: h.act("bet"), "cannot bet here; it may complete"),
        (lambda h: h.act("bring-in"), "bring-in is posted only to open 3rd street"),
        (lambda h: h.act("dance"), "unknown action 'dance'"),
        (lambda h: h.act(Action(K.CALL, 2), 4), "two amounts given"),
        (lambda h: h.act(Action(K.CALL, 2, seat=2), seat=0), "two seats given"),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(attempt: Any, message: str) -> None:
    hand = started()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=message):
        attempt(hand)
    assert snapshot(hand) == before
    assert issubclass(IllegalActionError, ValueError)


def test_an_all_in_seat_and_a_finished_hand_refuse_actions() -> None:
    hand = Hand(
        config(stacks=(100, 3, 100)), cards=ScriptedCards(["As Ks 2c", "Ad Kd 9c", "Ah Kh 8c"])
    )
    hand.act("bring-in")
    hand.act("call")  # seat 1 all-in for 2
    with pytest.raises(IllegalActionError, match="seat 1 is all-in"):
        hand.act("call", seat=1)
    hand.act("fold")  # seat 2: seat 1 is all-in, so the cards run out to the showdown
    assert hand.is_over and hand.to_act is None and hand.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.act("check")


def test_actions_by_kind_object_or_dict() -> None:
    hand = Hand(config(), deck=Deck(seed=1))
    seat = hand.to_act
    assert seat is not None
    events = hand.act(ActionKind.BRING_IN)
    assert isinstance(events[0], Acted) and events[0].seat == seat
    action = hand.legal_actions()[1]
    assert Action.from_dict(json.loads(json.dumps(action.to_dict()))) == action
    hand.act(Action(action.kind, action.to))  # without the seat: the seat to act
    assert str(Action(K.RAISE, 8, 2)) == "seat 2 raise to 8"


# events -----------------------------------------------------------------------------


def random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    players = rng.randint(2, 8)
    cfg = TableConfig(
        game=rng.choice((STUD, STUD8, RAZZ)),
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        stacks=tuple(rng.randint(1, 150) for _ in range(players)),
        burn_cards=rng.random() < 0.5,
    )
    hand = Hand(cfg, deck=Deck(seed=seed))
    while not hand.is_over:
        hand.act(rng.choice(hand.legal_actions()))
    return hand


def test_events_round_trip_through_json() -> None:
    seen: set[str] = set()
    for seed in range(150):
        for event in random_hand(seed).events:
            data = json.loads(json.dumps(event.to_dict()))
            assert event_from_dict(data) == event
            seen.add(data["type"])
    assert {"ante", "dealt", "action", "pots", "award", "show", "uncalled", "burn"} <= seen
    with pytest.raises(ValueError, match="unknown event type"):
        event_from_dict({"type": "nope"})


def test_event_dict_shape() -> None:
    hand = Hand(config(), cards=ScriptedCards(["As Ks 2c", "Ad Kd 9c", "Ah Kh 8c"]))
    dealt = [e.to_dict() for e in hand.events if e.TYPE == "dealt"]
    assert dealt[0] == {"type": "dealt", "seat": 0, "street": 3, "down": ["As", "Ks"], "up": ["2c"]}
    hand.act("complete")
    assert hand.events[-1].to_dict() == {
        "type": "action",
        "seat": 0,
        "kind": "complete",
        "amount": 4,
        "to": 4,
        "by": 4,
        "all_in": False,
    }


# views ------------------------------------------------------------------------------


def test_views_hide_down_cards_until_shown_and_muck_forever() -> None:
    cards = ["2c 3c 9d Kd 9s 2h 3h", "5c 6c 8h 8s Qs Qh 4h", "7c 9c Ah Js As Jc 5h"]
    hand = Hand(config(burn_cards=True), cards=ScriptedCards(cards, burns=["Tc", "Td", "Th", "Ts"]))
    me = hand.view(1)
    assert me.seats[1].down == (Card.parse("5c"), Card.parse("6c"))
    assert me.seats[0].down == (None, None) and me.seats[2].down == (None, None)
    assert hand.view(None).seats[1].down == (None, None)
    assert me.legal_actions and hand.view(0).legal_actions == ()  # seat 1 (8♥) brings in
    while not hand.is_over:
        kinds = {a.kind: a for a in hand.legal_actions()}
        if hand.street == 7 and hand.to_act == 2 and K.BET in kinds:
            hand.act(kinds[K.BET])
        else:
            hand.act(kinds.get(K.CHECK) or kinds.get(K.CALL) or kinds[K.BRING_IN])
    shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
    mucked = {e.seat for e in hand.events if isinstance(e, HandMucked)}
    assert shown == {2} and mucked == {0, 1}
    for viewer in (None, 0, 1):
        view = hand.view(viewer)
        assert view.seats[2].down == hand.down_cards(2)
        if viewer != 0:
            assert view.seats[0].down == (None, None, None)
        text = json.dumps(view.to_dict())
        for burn in ("Tc", "Td", "Th", "Ts"):
            assert f'"{burn}"' not in text
    assert any(isinstance(e, CardBurned) and e.card for e in hand.events)
    with pytest.raises(ValueError, match="does not exist"):
        hand.view(3)


# replays ----------------------------------------------------------------------------


def test_unknown_door_cards_trust_the_recorded_bring_in() -> None:
    hand = Hand(config(), cards=ScriptedCards(["?? ?? ??", "Ad Kd 9c", "?? ?? ??"]))
    assert hand.to_act is None and not hand.is_over
    assert hand.possible_actors == (0, 1, 2)
    assert hand.legal_actions() == []
    assert [a.kind for a in hand.legal_actions(2)] == [K.BRING_IN, K.COMPLETE]
    with pytest.raises(IllegalActionError, match="name the seat"):
        hand.act("bring-in")
    events = hand.act("bring-in", seat=2)
    assert isinstance(events[0], ActorTrusted) and events[0].seat == 2
    assert "door card" in events[0].reason
    assert hand.to_act == 0


def test_unknown_hands_at_the_showdown_are_taken_as_mucked() -> None:
    cards = ["2c 3c 9d Kd 9s 2h 3h", "?? ?? 8h 8s Qs Qh ??", "7c 9c Ah Js As Jc 5h"]
    hand = Hand(config(), cards=ScriptedCards(cards))
    while not hand.is_over:
        kinds = {a.kind: a for a in hand.legal_actions()}
        hand.act(kinds.get(K.CHECK) or kinds.get(K.CALL) or kinds[K.BRING_IN])
    assert [e.seat for e in hand.events if isinstance(e, HandMucked)] == [1]
    assert [(e.seat, e.amount) for e in hand.events if isinstance(e, PotAwarded)] == [(2, 9)]


def test_forced_rake_and_percentage_rake() -> None:
    cards = ScriptedCards(["2c 3c 9d Kd 9s 2h 3h", "7c 9c Ah Js As Jc 5h"])
    cfg = config(stacks=(1000, 1000), ante=10, bring_in=20, small_bet=40, big_bet=80)
    hand = Hand(cfg, cards=cards, rake=5)
    while not hand.is_over:
        kinds = {a.kind: a for a in hand.legal_actions()}
        hand.act(kinds.get(K.CHECK) or kinds.get(K.CALL) or kinds[K.BRING_IN])
    assert hand.result is not None and hand.result.rake == 5
    assert hand.result.stacks == (970, 1025)  # pot 60, rake 5
    raked = config(
        stacks=(1000, 1000),
        ante=10,
        bring_in=20,
        small_bet=40,
        big_bet=80,
        rake_percent=5,
        rake_cap=2,
    )
    hand = Hand(raked, cards=ScriptedCards(["2c 3c 9d Kd 9s 2h 3h", "7c 9c Ah Js As Jc 5h"]))
    while not hand.is_over:
        kinds = {a.kind: a for a in hand.legal_actions()}
        hand.act(kinds.get(K.CHECK) or kinds.get(K.CALL) or kinds[K.BRING_IN])
    assert hand.result is not None and hand.result.rake == 2  # 5% of 60 is 3, capped at 2
    # A hand that ends on 3rd street pays no rake unless the table says so.
    for third, rake in ((False, 0), (True, 1)):  # the antes: 5% of 20
        table = raked.with_stacks((1000, 1000))
        table = TableConfig(**{**_fields(table), "rake_third_street": third})
        hand = Hand(table, cards=ScriptedCards(["2c 3c 9d", "7c 9c Ah"]))
        hand.act("bring-in")
        hand.act("fold")
        assert hand.result is not None and hand.result.rake == rake


def _fields(cfg: TableConfig) -> dict[str, Any]:
    return {name: getattr(cfg, name) for name in cfg.__dataclass_fields__}


def test_play_is_deterministic_for_a_seeded_deck() -> None:
    def dump(hand: Hand) -> list[Event]:
        return list(hand.events)

    assert dump(random_hand(42)) == dump(random_hand(42))


def _side_pot_hand(rake: Any = None) -> tuple[Hand, random.Random]:
    """Seat 0 (30 chips) all in wins the main pot; seat 2 wins the side pot."""
    table = config(stacks=(30, 100, 100))
    return Hand(table, deck=Deck(seed=5), rake=rake), random.Random(5)


def _play_to_the_end(hand: Hand, rng: random.Random) -> None:
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal[-1] if rng.random() < 0.5 else legal[min(1, len(legal) - 1)])


def test_a_rake_for_each_pot_comes_out_of_that_pot() -> None:
    hand, rng = _side_pot_hand()
    _play_to_the_end(hand, rng)
    assert hand.result is not None
    assert [(p.amount, p.seats) for p in hand.result.pots] == [(90, (0, 1, 2)), (62, (1, 2))]
    assert hand.result.stacks == (90, 39, 101)
    # Main pot first, a total moves the side pot's share of the rake onto seat 0.
    hand, rng = _side_pot_hand(rake=5)
    _play_to_the_end(hand, rng)
    assert hand.result is not None and [p.rake for p in hand.result.pots] == [5, 0]
    assert hand.result.stacks == (85, 39, 101)
    # Pot by pot, each winner pays the rake of the pot they win.
    hand, rng = _side_pot_hand(rake=(3, 2))
    _play_to_the_end(hand, rng)
    assert hand.result is not None and [p.rake for p in hand.result.pots] == [3, 2]
    assert hand.result.rake == 5
    assert hand.result.stacks == (87, 39, 99)
    awards = [(e.pot, e.seat, e.amount) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(0, 0, 87), (1, 2, 60)]


@pytest.mark.parametrize(
    ("rake", "message"),
    [
        ((3,), r"for 1 pot\(s\), but the hand formed 2"),
        ((3, 2, 1), r"for 3 pot"),
        ((3, 63), "rake of 63 does not fit"),
    ],
)
def test_a_rake_per_pot_that_does_not_fit_is_refused_and_changes_nothing(
    rake: tuple[int, ...], message: str
) -> None:
    hand, rng = _side_pot_hand(rake=rake)

    def state() -> tuple[Any, ...]:
        return (list(hand.events), hand.to_act, hand.stacks, hand.committed, hand.legal_actions())

    while True:
        legal = hand.legal_actions()
        action = legal[-1] if rng.random() < 0.5 else legal[min(1, len(legal) - 1)]
        before = state()
        try:
            hand.act(action)
        except ValueError as refused:
            assert not isinstance(refused, IllegalActionError)
            assert re.search(message, str(refused))
            break
    # The last action is undone: the same seat is to act with the same chips, and
    # trying it again is refused the same way.
    assert not hand.is_over and hand.result is None
    assert state() == before
    with pytest.raises(ValueError, match=message):
        hand.act(action)
    assert state() == before


@pytest.mark.parametrize("rake", [-1, (3, -1), (), "3", (1.5,), True])
def test_a_forced_rake_must_be_whole_chips(rake: Any) -> None:
    with pytest.raises(ValueError, match="forced rake"):
        _side_pot_hand(rake=rake)


def test_a_deck_given_as_52_card_ints_deals_in_that_order() -> None:
    order = list(range(51, -1, -1))
    hand = Hand(config(stacks=(100, 100)), deck=order)
    assert hand.down_cards(0) == (51, 49) and hand.up_cards(0) == (47,)
    assert hand.down_cards(1) == (50, 48) and hand.up_cards(1) == (46,)
    assert all(type(c) is int for c in hand.down_cards(0) + hand.up_cards(1))
    # Any int type works (a NumPy shuffle's ints too); the hand deals plain ints.
    numpy = pytest.importorskip("numpy")
    hand = Hand(config(stacks=(100, 100)), deck=numpy.arange(52, dtype=numpy.int64))
    assert hand.down_cards(0) == (0, 2) and all(type(c) is int for c in hand.down_cards(0))


@pytest.mark.parametrize(
    "deck",
    [
        list(range(51)),
        [*range(51), 0],
        [*range(51), 52],
        [*range(51), -1],
        [float(c) for c in range(52)],
        [str(c) for c in range(52)],
        "As Kd",
        52,
    ],
)
def test_a_deck_that_is_not_the_52_cards_once_is_refused(deck: Any) -> None:
    with pytest.raises(ValueError, match=r"52 card ints 0\.\.51, each once"):
        Hand(config(stacks=(100, 100)), deck=deck)
