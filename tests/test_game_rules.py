"""One test per rule of rules.md (R1–R18), each on hand-picked cards.

Cards are given per seat in the order dealt — down, down, door, 4th, 5th,
6th, 7th — through ScriptedCards; R12 uses real decks. Stakes are ante 1,
bring-in 2, small bet 4, big bet 8 unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from stud.cards import Card, Deck
from stud.game import (
    RAZZ,
    STUD,
    STUD8,
    Acted,
    ActionKind,
    AntePosted,
    BettingCapped,
    CardBurned,
    CardsDealt,
    CommunityCard,
    DoubleBetAllowed,
    Hand,
    HandMucked,
    HandShown,
    IllegalActionError,
    NoLowHand,
    PotAwarded,
    PotsFormed,
    ScriptedCards,
    ShowdownOrder,
    TableConfig,
    UncalledBetReturned,
    Variant,
)
from stud.game.pots import build_pots, split

K = ActionKind


def make(
    game: Variant,
    seats: Sequence[str],
    *,
    stacks: Sequence[int] | None = None,
    ante: int = 1,
    bring_in: int = 2,
    small: int = 4,
    big: int = 8,
    **options: Any,
) -> Hand:
    config = TableConfig(
        game=game,
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=big,
        stacks=tuple(stacks) if stacks is not None else (200,) * len(seats),
        **options,
    )
    return Hand(config, cards=ScriptedCards(seats))


def legal(hand: Hand) -> list[tuple[str, int]]:
    return [(a.kind.value, a.to) for a in hand.legal_actions()]


def do(hand: Hand, *steps: tuple[int, str] | tuple[int, str, int]) -> None:
    """Apply (seat, kind[, to]) steps, checking each seat is the one to act."""
    for step in steps:
        seat, kind = step[0], step[1]
        to = step[2] if len(step) == 3 else None
        assert hand.to_act == seat, f"expected seat {seat} to act, got {hand.to_act}"
        hand.act(kind, to)


def passive(hand: Hand, until_street: int | None = None) -> None:
    """Check, call or bring in until the hand ends (or reaches ``until_street``)."""
    while not hand.is_over and (until_street is None or hand.street < until_street):
        kinds = {a.kind for a in hand.legal_actions()}
        for kind in (K.CHECK, K.CALL, K.BRING_IN):
            if kind in kinds:
                hand.act(kind)
                break
        else:
            raise AssertionError(f"no passive action among {kinds} (unknown cards?)")


def first_to_act_by_street(hand: Hand, last: int = 7) -> dict[int, int | None]:
    """Check/call down to street ``last``, recording who acts first on each street."""
    first: dict[int, int | None] = {}
    while not hand.is_over and hand.street <= last:
        first.setdefault(hand.street, hand.to_act)
        if hand.street == last:
            break
        passive(hand, hand.street + 1)
    return first


def events_of(hand: Hand, cls: type[Any]) -> list[Any]:
    return [e for e in hand.events if isinstance(e, cls)]


def awards(hand: Hand) -> list[tuple[int, int, int, str]]:
    return [(a.pot, a.seat, a.amount, a.share) for a in events_of(hand, PotAwarded)]


# R1 ---------------------------------------------------------------------------


def test_R1_every_seat_posts_the_ante_before_any_card() -> None:
    hand = make(STUD, ["2c 3d 5h", "Ah Ad As", "Kc Kh 6s"], ante=3)
    kinds = [type(e).__name__ for e in hand.events]
    assert kinds[1:4] == ["AntePosted"] * 3
    assert kinds.index("CardsDealt") > 3
    assert [(e.seat, e.amount, e.all_in) for e in events_of(hand, AntePosted)] == [
        (0, 3, False),
        (1, 3, False),
        (2, 3, False),
    ]
    assert hand.committed == (3, 3, 3)
    assert hand.stacks == (197, 197, 197)


def test_R1_short_ante_is_all_in_and_still_plays_for_the_main_pot() -> None:
    hand = make(
        STUD,
        ["2c 3d 5h 7s 9c Jh 4h", "Ah Ad As Ac Kd Qd Jd", "Kc Kh 6s 8c Tc Qh 3s"],
        stacks=(100, 3, 100),
        ante=5,
    )
    assert [(e.seat, e.amount, e.all_in) for e in events_of(hand, AntePosted)] == [
        (0, 5, False),
        (1, 3, True),
        (2, 5, False),
    ]
    assert len(hand.cards(1)) == 3  # dealt in although all-in
    passive(hand)
    result = hand.result
    assert result is not None
    # Main pot 3 x 3 to the quads; the side pot (2 + 2 + 2 + 2) to the Kings.
    assert [(p.amount, p.seats) for p in result.pots] == [(9, (0, 1, 2)), (8, (0, 2))]
    assert result.stacks == (93, 9, 101)


# R2 ---------------------------------------------------------------------------


def test_R2_third_street_is_two_down_and_one_up() -> None:
    hand = make(RAZZ, ["2c 3d 5h", "Ah Ad As", "Kc Kh 6s"])
    dealt = events_of(hand, CardsDealt)
    assert [(e.seat, e.street, len(e.down), len(e.up)) for e in dealt] == [
        (0, 3, 2, 1),
        (1, 3, 2, 1),
        (2, 3, 2, 1),
    ]
    assert hand.up_cards(2) == (Card.parse("6s"),)
    view = hand.view(1)
    assert view.seats[1].down == (Card.parse("Ah"), Card.parse("Ad"))
    assert view.seats[0].down == (None, None)
    assert view.seats[0].up == (Card.parse("5h"),)


# R3 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doors", "seat"),
    [
        (["2h", "2d", "3c"], 1),  # 2♦ is lower than 2♥
        (["2d", "2h", "3c"], 0),
        (["Ac", "3d", "Kh"], 1),  # the ace is high in Stud
        (["9s", "9c", "9h"], 1),  # clubs lowest
    ],
)
def test_R3_stud_lowest_door_card_brings_in_suits_break_ties(doors: list[str], seat: int) -> None:
    downs = ["Ts Js", "Qs Ks", "Td Jd"]
    for game in (STUD, STUD8):
        hand = make(game, [f"{d} {u}" for d, u in zip(downs, doors, strict=True)])
        assert hand.to_act == seat
        assert legal(hand) == [("bring-in", 2), ("complete", 4)]


@pytest.mark.parametrize(
    ("doors", "seat"),
    [
        (["Qd", "Qh", "5c"], 1),  # Q♥ is higher than Q♦
        (["Qh", "Qd", "5c"], 0),
        (["Ks", "Ac", "Qh"], 0),  # the king is highest in Razz; the ace is low
        (["Ac", "2d", "As"], 1),
    ],
)
def test_R3_razz_highest_door_card_brings_in_suits_break_ties(doors: list[str], seat: int) -> None:
    downs = ["Ts Js", "3s 4s", "Td Jd"]
    hand = make(RAZZ, [f"{d} {u}" for d, u in zip(downs, doors, strict=True)])
    assert hand.to_act == seat


# R4 ---------------------------------------------------------------------------


def test_R4_bring_in_or_complete_then_clockwise() -> None:
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd 9c"])
    assert hand.to_act == 1
    assert legal(hand) == [("bring-in", 2), ("complete", 4)]
    for kind in ("fold", "check", "call", "bet", "raise"):
        with pytest.raises(IllegalActionError):
            hand.act(kind)
    do(hand, (1, "bring-in"))
    assert legal(hand) == [("fold", 0), ("call", 2), ("complete", 4)]
    do(hand, (2, "complete"))  # the round's first full bet
    assert legal(hand) == [("fold", 0), ("call", 4), ("raise", 8)]
    do(hand, (0, "call"))
    # The completion reopens the betting for the bring-in seat.
    assert legal(hand) == [("fold", 0), ("call", 4), ("raise", 8)]
    do(hand, (1, "raise"), (2, "call"), (0, "call"))
    assert hand.street == 4
    assert hand.committed == (9, 9, 9)


def test_R4_bring_in_seat_may_complete_at_once() -> None:
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd 9c"])
    events = hand.act("complete")
    assert isinstance(events[0], Acted) and events[0].kind is K.COMPLETE and events[0].to == 4
    assert legal(hand) == [("fold", 0), ("call", 4), ("raise", 8)]


def test_R4_everyone_calls_the_bring_in_and_the_round_ends() -> None:
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd 9c"])
    do(hand, (1, "bring-in"), (2, "call"), (0, "call"))
    assert hand.street == 4  # the bring-in seat has no option when nobody completes


# R5 ---------------------------------------------------------------------------


def test_R5_all_in_on_the_ante_passes_the_bring_in_clockwise() -> None:
    # Seat 1 holds the lowest door but is all-in from the ante: seat 2 brings in, ace or not.
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd As"], stacks=(50, 1, 50))
    assert hand.to_act == 2
    assert legal(hand) == [("bring-in", 2), ("complete", 4)]
    # Wrapping round the table: the last seat all-in passes to seat 0.
    hand = make(STUD, ["Ts Js Ah", "Qs Ks 9d", "Td Jd 2s"], stacks=(50, 50, 1))
    assert hand.to_act == 0
    hand = make(RAZZ, ["Ts Js 5h", "2s 3s Kd", "Td Jd 2c"], stacks=(50, 1, 50))
    assert hand.to_act == 2


def test_R5_short_bring_in_posts_what_it_has() -> None:
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd 9c"], stacks=(50, 2, 50))
    assert hand.to_act == 1
    assert legal(hand) == [("bring-in", 1)]
    events = hand.act("bring-in")
    assert isinstance(events[0], Acted) and events[0].all_in and events[0].to == 1
    assert legal(hand) == [("fold", 0), ("call", 1), ("complete", 4)]


def test_R5_no_bring_in_when_only_one_seat_has_chips() -> None:
    hand = make(
        STUD,
        ["Ts Js 5h 2c 3c 4c 5c", "Qs Ks 2d Jh 9s 3d 4d", "Td Jd 9c 8c 7c 6h 7h"],
        stacks=(50, 1, 1),
    )
    assert hand.is_over  # nobody to bet against: dealt out to the showdown
    assert not events_of(hand, Acted)
    # Seat 2's straight (Seven to Jack) wins the 3-chip pot.
    assert hand.result is not None and hand.result.stacks == (49, 0, 3)


# R6 ---------------------------------------------------------------------------


def test_R6_best_showing_high_hand_acts_first_each_street() -> None:
    seats = [
        # down down door 4th 5th 6th 7th
        "2c 3c 4d Kd 9s 2h 3h",  # K-4 | K-9-4 | K-9-4-2
        "5c 6c 8h 8s Qs Qh 4h",  # pair of 8s | 8-8-Q | two pair
        "7c 9c Ah Js As Jc 5h",  # A-J | A-A-J | two pair, Aces up
        "Tc Td Kh 2s 3s 6h 6d",  # K-2 | K-3-2 | K-6-3-2
    ]
    hand = make(STUD, seats)
    first = first_to_act_by_street(hand)
    # 3rd: the lowest door (4♦) brings in; 4th: the pair; 5th: the Aces;
    # 6th and 7th: two pair Aces and Jacks beat Queens and Eights.
    assert first == {3: 0, 4: 1, 5: 2, 6: 2, 7: 2}


def test_R6_ties_go_to_the_seat_nearest_the_dealers_left() -> None:
    # Seats 1 and 3 show the same ranks (suits play no part): seat 1 acts first;
    # seat 3 holds the higher suits.
    seats = ["2c 3c 4d 6d", "5c 6c Kd 9d", "7c 8c 5h 7h", "Tc Td Ks 9s"]
    assert first_to_act_by_street(make(STUD, seats), 4)[4] == 1
    seats = ["2c 3c Ks 9s", "5c 6c 4d 6d", "7c 8c Kd 9d", "Tc Td 5h 7h"]
    assert first_to_act_by_street(make(STUD, seats), 4)[4] == 0


def test_R6_straights_and_flushes_do_not_count_on_board() -> None:
    seats = [
        "2c 3c 5h 6h 7h 8h",  # a straight flush shape showing: just 8-high
        "Ac Ad 2d 2s 9s Kd",  # a pair of deuces showing
    ]
    first = first_to_act_by_street(make(STUD, seats), 6)
    assert first[6] == 1


def test_R6_razz_lowest_showing_hand_acts_first_pairs_are_bad() -> None:
    seats = [
        "Kc Qc 9d Ad 5s 5h",  # 9 | A-9 | A-9-5 | A-9-5-5 (a pair)
        "Jc Tc 8h 2s 7s Kh",  # 8 | 8-2 | 8-7-2 | K-8-7-2
        "9c 8c Qs 3d 4d 6h",  # Q | Q-3 | Q-4-3 | Q-6-4-3
    ]
    first = first_to_act_by_street(make(RAZZ, seats), 6)
    # 3rd: the highest door (Q♠) brings in; 4th: 8-2 beats 9-A; 5th: 8-7-2 beats
    # 9-5-A; 6th: the paired seat 0 is worst, Q-6-4-3 beats K-8-7-2.
    assert first == {3: 2, 4: 1, 5: 1, 6: 2}


def test_R6_stud8_orders_boards_high() -> None:
    seats = ["Kc Qc Ad 2d", "Jc Tc 9h 9s"]  # A-2 (a fine low) against a pair of 9s
    assert first_to_act_by_street(make(STUD8, seats), 4)[4] == 1
    assert first_to_act_by_street(make(RAZZ, seats), 4)[4] == 0


def test_R6_an_all_in_best_hand_passes_the_action_clockwise() -> None:
    seats = ["2c 3c 9d 9h", "5c 6c 2d Ks", "7c 8c 5h Qs"]
    hand = make(STUD, seats, stacks=(3, 50, 50))
    do(hand, (1, "bring-in"), (2, "call"), (0, "call"))  # seat 0 calls all-in
    assert hand.street == 4 and hand.to_act == 1


# R7 ---------------------------------------------------------------------------


OPEN_PAIR = ["Ac Kc 2d 7h", "Qs Js 9c 9d", "Ts 8s Jh 4c"]


def _to_fourth(game: Variant) -> Hand:
    hand = make(game, OPEN_PAIR, ante=1, bring_in=2, small=4, big=8)
    do(hand, (0, "bring-in"), (1, "call"), (2, "call"))
    assert hand.street == 4
    return hand


def test_R7_open_pair_on_fourth_allows_a_small_or_big_bet_in_stud() -> None:
    hand = _to_fourth(STUD)
    assert events_of(hand, DoubleBetAllowed)[0].seats == (1,)
    assert hand.to_act == 1
    assert legal(hand) == [("fold", 0), ("check", 0), ("bet", 4), ("bet", 8)]
    with pytest.raises(IllegalActionError, match="say which"):
        hand.act("bet")
    do(hand, (1, "bet", 4))
    # After a small bet, a raise may still be small or big.
    assert legal(hand) == [("fold", 0), ("call", 4), ("raise", 8), ("raise", 12)]
    do(hand, (2, "raise", 12))
    # Once a big bet is made, every later raise is big.
    assert legal(hand) == [("fold", 0), ("call", 12), ("raise", 20)]


def test_R7_big_bet_first_makes_the_street_big() -> None:
    hand = _to_fourth(STUD)
    do(hand, (1, "bet", 8))
    assert legal(hand) == [("fold", 0), ("call", 8), ("raise", 16)]


@pytest.mark.parametrize("game", [STUD8, RAZZ])
def test_R7_no_double_bet_in_stud8_or_razz(game: Variant) -> None:
    hand = make(game, OPEN_PAIR)
    passive(hand, 4)
    assert not events_of(hand, DoubleBetAllowed)
    assert ("bet", 8) not in legal(hand)
    assert ("bet", 4) in legal(hand)
    with pytest.raises(IllegalActionError):
        hand.act("bet", 8)


# R8 ---------------------------------------------------------------------------


def test_R8_small_bet_on_third_and_fourth_big_bet_after() -> None:
    hand = make(RAZZ, ["Kc Qc 9d Ad 5s 5h 2c", "Jc Tc 8h 2s 7s Kh 3c"])
    sizes: dict[int, list[int]] = {}
    while not hand.is_over:
        street = hand.street
        wagers = [a.to for a in hand.legal_actions() if a.kind.is_wager]
        sizes.setdefault(street, wagers)
        passive(hand, street + 1)
    assert sizes == {3: [4], 4: [4], 5: [8], 6: [8], 7: [8]}


# R9 ---------------------------------------------------------------------------


def test_R9_fold_check_bet_call_raise() -> None:
    hand = make(RAZZ, ["Kc Qc 9d Ad", "Jc Tc 8h 2s", "9c 8c Qs 3d"])
    do(hand, (2, "bring-in"), (0, "call"), (1, "call"))
    assert hand.street == 4 and hand.to_act == 1
    # The first player on 4th street may check or bet; fold is allowed at any turn.
    assert legal(hand) == [("fold", 0), ("check", 0), ("bet", 4)]
    with pytest.raises(IllegalActionError, match="no bet to call"):
        hand.act("call")
    do(hand, (1, "check"), (2, "bet"))
    with pytest.raises(IllegalActionError, match="cannot check"):
        hand.act("check")
    assert legal(hand) == [("fold", 0), ("call", 4), ("raise", 8)]
    do(hand, (0, "raise"), (1, "fold"), (2, "call"))
    assert hand.street == 5 and hand.live == (True, False, True)


# R10 --------------------------------------------------------------------------


def test_R10_a_bet_and_three_raises_then_capped() -> None:
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd 9c"])
    do(hand, (1, "complete"), (2, "raise"), (0, "raise"), (1, "raise"))
    assert hand.level == 16
    assert events_of(hand, BettingCapped)[0].street == 3
    assert legal(hand) == [("fold", 0), ("call", 16)]
    with pytest.raises(IllegalActionError, match="capped"):
        hand.act("raise")


def test_R10_cap_kept_heads_up_by_default_and_lifted_by_option() -> None:
    seats = ["Ts Js 5h", "Qs Ks 2d"]
    hand = make(STUD, seats)
    do(hand, (1, "complete"), (0, "raise"), (1, "raise"), (0, "raise"))
    assert legal(hand) == [("fold", 0), ("call", 16)]
    assert events_of(hand, BettingCapped)
    hand = make(STUD, seats, lift_cap_heads_up=True)
    do(hand, (1, "complete"), (0, "raise"), (1, "raise"), (0, "raise"))
    assert not events_of(hand, BettingCapped)
    do(hand, (1, "raise", 20), (0, "raise", 24))
    assert hand.level == 24


def test_R10_a_capped_round_stays_capped_after_a_fold() -> None:
    hand = make(STUD, ["Ts Js 5h", "Qs Ks 2d", "Td Jd 9c"], lift_cap_heads_up=True)
    do(hand, (1, "complete"), (2, "raise"), (0, "raise"), (1, "raise"), (2, "fold"))
    assert legal(hand) == [("fold", 0), ("call", 16)]


# R11 --------------------------------------------------------------------------

# Small bet 10 (half a bet: 5). Seat 0 brings in and completes to 10; seat 1
# goes all-in raising; seat 2 calls; back to seat 0.


def _short(stack_after_ante: int, **options: Any) -> Hand:
    hand = make(
        STUD,
        ["Ts Js 2h", "Qs Ks 9d", "Td Jd 9c"],
        stacks=(200, stack_after_ante + 1, 200),
        bring_in=5,
        small=10,
        big=20,
        **options,
    )
    do(hand, (0, "complete"))
    assert legal(hand)[-1] == ("raise", stack_after_ante)  # all-in for less than 20
    do(hand, (1, "raise"))
    return hand


def test_R11_all_in_under_half_a_bet_does_not_reopen() -> None:
    hand = _short(13)  # raises 3 (< 5)
    # Seat 2 has not acted: it may call 13 or complete the raise to 20.
    assert legal(hand) == [("fold", 0), ("call", 13), ("raise", 20)]
    do(hand, (2, "call"))
    assert legal(hand) == [("fold", 0), ("call", 13)]
    with pytest.raises(IllegalActionError, match="not reopened"):
        hand.act("raise")


def test_R11_all_in_of_half_a_bet_or_more_reopens() -> None:
    hand = _short(16)  # raises 6 (>= 5): a full raise, the next one is to 26
    assert legal(hand) == [("fold", 0), ("call", 16), ("raise", 26)]
    do(hand, (2, "call"))
    assert legal(hand) == [("fold", 0), ("call", 16), ("raise", 26)]
    do(hand, (0, "raise"), (2, "call"))
    assert hand.street == 4


def test_R11_option_off_only_a_full_raise_reopens() -> None:
    hand = _short(16, short_all_in_rule=False)
    assert legal(hand) == [("fold", 0), ("call", 16), ("raise", 20)]
    do(hand, (2, "call"))
    assert legal(hand) == [("fold", 0), ("call", 16)]


def test_R11_short_all_in_bet_may_be_completed() -> None:
    seats = ["Ts Js 2h 3c 4c", "Qs Ks 9d Ah Ad", "Td Jd 5h 6c 7d"]
    hand = make(STUD, seats, stacks=(200, 6, 200))
    do(hand, (0, "bring-in"), (1, "call"), (2, "call"))  # seat 1 has 3 left
    do(hand, (1, "check"), (2, "check"), (0, "check"))  # 4th street
    assert hand.street == 5 and hand.to_act == 1
    assert legal(hand) == [("fold", 0), ("check", 0), ("bet", 3)]
    do(hand, (1, "bet", 3))  # all-in for 3 of a big bet of 8
    # Players yet to act may call the 3 or complete the wager to a full bet.
    assert legal(hand) == [("fold", 0), ("call", 3), ("raise", 8)]
    do(hand, (2, "call"))
    assert legal(hand) == [("fold", 0), ("call", 3), ("raise", 8)]
    do(hand, (0, "raise"))
    # Seat 2 faces a full bet over its call: reopened.
    assert legal(hand) == [("fold", 0), ("call", 8), ("raise", 16)]


def test_R11_no_raise_when_everyone_else_is_all_in() -> None:
    hand = make(STUD, ["Ts Js 2h 3c 4c", "Qs Ks 9d Ah Ad"], stacks=(200, 6))
    do(hand, (0, "bring-in"), (1, "call"), (1, "check"), (0, "check"))
    do(hand, (1, "bet", 3))
    assert legal(hand) == [("fold", 0), ("call", 3)]


# R12 --------------------------------------------------------------------------


def test_R12_community_card_when_eight_reach_seventh_street() -> None:
    deck = Deck(seed=12)
    order = deck.peek_remaining()
    config = TableConfig(game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(500,) * 8)
    hand = Hand(config, deck=deck)
    passive(hand)
    community = events_of(hand, CommunityCard)
    assert len(community) == 1
    # 24 cards on 3rd street, 8 on each of 4th to 6th: the 49th card is shared.
    assert community[0].card == order[48]
    assert not [e for e in events_of(hand, CardsDealt) if e.street == 7]
    assert all(len(hand.cards(s)) == 6 for s in range(8))
    assert hand.view(None).community == order[48]
    result = hand.result
    assert result is not None and sum(result.stacks) == 4000


def test_R12_burn_cards_option() -> None:
    config = TableConfig(
        game=RAZZ,
        ante=1,
        bring_in=2,
        small_bet=4,
        big_bet=8,
        stacks=(500,) * 8,
        burn_cards=True,
    )
    hand = Hand(config, deck=Deck(seed=3))
    passive(hand)
    burns = events_of(hand, CardBurned)
    # Burns before 4th, 5th and 6th; one card left for 7th: shared, no burn.
    assert [b.street for b in burns] == [4, 5, 6]
    assert len(events_of(hand, CommunityCard)) == 1
    # Seven players: 21 + 3 burns + 21 = 45 dealt, 7 left: one each, no burn.
    hand = Hand(config.with_stacks((500,) * 7), deck=Deck(seed=3))
    passive(hand)
    assert [b.street for b in events_of(hand, CardBurned)] == [4, 5, 6]
    assert not events_of(hand, CommunityCard)
    assert all(len(hand.cards(s)) == 7 for s in range(7))
    # The room's default deals no burn cards at all.
    plain = TableConfig(game=RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(500,) * 8)
    hand = Hand(plain, deck=Deck(seed=3))
    passive(hand)
    assert not events_of(hand, CardBurned)
    assert len(events_of(hand, CommunityCard)) == 1


# R13 --------------------------------------------------------------------------

THREE_TO_SHOWDOWN = [
    "2c 3c 9d Kd 9s 2h 3h",
    "5c 6c 8h 8s Qs Qh 4h",
    "7c 9c Ah Js As Jc 5h",
]


def test_R13_last_bettor_shows_first() -> None:
    hand = make(STUD, THREE_TO_SHOWDOWN)
    passive(hand, 7)
    assert hand.to_act == 2
    do(hand, (2, "check"), (0, "bet"), (1, "call"), (2, "call"))
    assert events_of(hand, ShowdownOrder)[0].seats == (0, 1, 2)
    hand = make(STUD, THREE_TO_SHOWDOWN)
    passive(hand, 7)
    do(hand, (2, "check"), (0, "check"), (1, "bet"), (2, "raise"), (0, "call"), (1, "call"))
    assert events_of(hand, ShowdownOrder)[0].seats == (2, 0, 1)


def test_R13_nobody_bet_seat_order_from_seat_zero() -> None:
    hand = make(STUD, THREE_TO_SHOWDOWN)
    passive(hand)
    assert events_of(hand, ShowdownOrder)[0].seats == (0, 1, 2)
    shown = [e.seat for e in hand.events if isinstance(e, HandShown | HandMucked)]
    assert shown == [0, 1, 2]
    # Seat 0 shows (first); seat 1's two pair beats its pair; seat 2's Aces up beat that.
    assert [e.seat for e in events_of(hand, HandShown)] == [0, 1, 2]


def test_R13_a_beaten_hand_is_mucked() -> None:
    hand = make(STUD, THREE_TO_SHOWDOWN)
    passive(hand, 7)
    do(hand, (2, "bet"), (0, "call"), (1, "call"))
    assert events_of(hand, ShowdownOrder)[0].seats == (2, 0, 1)
    assert [e.seat for e in events_of(hand, HandShown)] == [2]
    assert [e.seat for e in events_of(hand, HandMucked)] == [0, 1]
    # A mucked hand never appears in any view.
    for viewer in (None, 2):
        assert hand.view(viewer).seats[0].down == (None, None, None)


# R14 --------------------------------------------------------------------------


def test_R14_stud_best_five_of_seven_high() -> None:
    hand = make(
        STUD,
        [
            "2h 7h 9h Kh 3d 4c Jh",  # a flush, King high
            "5c 6d 7s 8c 9c Ts Ad",  # a straight, Six to Ten
        ],
    )
    passive(hand)
    shown = {e.seat: e.high for e in events_of(hand, HandShown)}
    assert shown[0] == "a flush, King high"
    # Antes 2, bring-in 2 and its call: a pot of 6.
    assert awards(hand) == [(0, 0, 6, "all")]
    assert events_of(hand, PotAwarded)[0].hand == "a flush, King high"


def test_R14_equal_hands_split() -> None:
    hand = make(STUD, ["As Kd Qc Jh 9s 3c 2d", "Ah Kc Qd Js 9h 3d 2c"])
    passive(hand)
    assert sorted(awards(hand)) == [(0, 0, 3, "all"), (0, 1, 3, "all")]


# R15 --------------------------------------------------------------------------


def test_R15_stud8_high_and_low_split() -> None:
    hand = make(
        STUD8,
        [
            "Kh Kd 9h Ks 9c Qc Jd",  # a full house, no low
            "Ac 2d 3h 4s 6c 8d Tc",  # 6,4,3,2,A low
        ],
    )
    passive(hand)
    shown = {e.seat: (e.high, e.low) for e in events_of(hand, HandShown)}
    assert shown[1][1] == "6,4,3,2,A"
    assert shown[0] == ("a full house, Kings full of Nines", None)
    assert sorted(awards(hand)) == [(0, 0, 3, "high"), (0, 1, 3, "low")]


def test_R15_no_qualifying_low_high_takes_all() -> None:
    hand = make(STUD8, ["Kh Kd 9h Ks 9c Qc Jd", "Ac 2d 3h 9s Tc Jc Qh"])
    passive(hand)
    assert len(events_of(hand, NoLowHand)) == 1
    assert awards(hand) == [(0, 0, 6, "all")]


def test_R15_scoop_with_the_wheel() -> None:
    hand = make(STUD8, ["Ac 2d 3h 4s 5c Kd Kh", "Qh Qd Qs 9s 7c Jc 2h"])
    passive(hand)
    # The wheel is a straight, Ace to Five: it beats three Queens and makes the best low.
    assert sorted(awards(hand)) == [(0, 0, 3, "high"), (0, 0, 3, "low")]


def test_R15_quartered_pot() -> None:
    hand = make(
        STUD8,
        [
            "Ac 2d 3h 4s 6c 6d 6h",  # trips and 6,4,3,2,A
            "As 2c 3d 4c 6s Kd Qh",  # 6,4,3,2,A and King high
            "Ks Kh Jd Jc 9s 8s 7s",  # two pair, no low
        ],
        stacks=(200, 200, 200),
    )
    passive(hand)
    # Pot 3 + 3 x 2 = 9 (ante and bring-in): high half 5 to seat 0, low 4 split 2 + 2.
    assert sorted(awards(hand)) == [(0, 0, 2, "low"), (0, 0, 5, "high"), (0, 1, 2, "low")]
    assert hand.result is not None and hand.result.net == (4, -1, -3)


# R16 --------------------------------------------------------------------------


def test_R16_razz_best_low_wins_straights_and_flushes_do_not_count() -> None:
    hand = make(
        RAZZ,
        [
            "Ah 2h 3h 4h 5h Kc Kd",  # 5,4,3,2,A: the suited wheel is the best low
            "Ac 2c 3c 4c 6d 7d 8d",  # 6,4,3,2,A
        ],
    )
    passive(hand)
    shown = {e.seat: e.low for e in events_of(hand, HandShown)}
    assert shown[0] == "5,4,3,2,A"
    assert awards(hand) == [(0, 0, 6, "all")]
    assert events_of(hand, PotAwarded)[0].hand == "5,4,3,2,A"


def test_R16_pairs_count_against_and_equal_lows_split() -> None:
    hand = make(RAZZ, ["Ah Ad 2h 2d 3h 3d Kc", "Ks Qs Js Ts 9h 9c 9d"])
    passive(hand)
    # K,Q,J,T,9 (no pair) beats any paired hand.
    assert awards(hand) == [(0, 1, 6, "all")]
    hand = make(RAZZ, ["Ah 2h 3h 4d 7s Kc Kd", "As 2s 3s 4c 7d Qc Qd"])
    passive(hand)
    assert sorted(awards(hand)) == [(0, 0, 3, "all"), (0, 1, 3, "all")]


# R17 --------------------------------------------------------------------------


def test_R17_side_pots_with_three_all_ins_of_different_sizes() -> None:
    hand = make(
        STUD,
        [
            "As Ah Ad Ac 2h 3h 4h",  # quads: best
            "Ks Kh Kd 7c 8h 9h Th",  # trips: second
            "Qs Qh 7d 7s 2c 3c 4s",  # two pair: third
            "9c 8c 2d 5h Jd Td 3d",  # no pair: worst; lowest door brings in
        ],
        stacks=(21, 41, 61, 300),
        bring_in=5,
        small=20,
        big=40,
    )
    do(hand, (3, "complete"), (0, "call"), (1, "raise"), (2, "raise"), (3, "call"))
    assert hand.is_over
    result = hand.result
    assert result is not None
    assert [(p.amount, p.seats) for p in result.pots] == [
        (84, (0, 1, 2, 3)),
        (60, (1, 2, 3)),
        (40, (2, 3)),
    ]
    assert events_of(hand, PotsFormed)[0].pots == result.pots
    assert awards(hand) == [(0, 0, 84, "all"), (1, 1, 60, "all"), (2, 2, 40, "all")]
    assert result.stacks == (84, 60, 40, 239)


def test_R17_uncalled_bet_returned() -> None:
    hand = make(STUD, ["Ts Js 2h 3c 4c", "Qs Ks 9d Ah Ad"])
    do(hand, (0, "bring-in"), (1, "call"), (1, "check"), (0, "check"))
    do(hand, (1, "bet"), (0, "fold"))
    returned = events_of(hand, UncalledBetReturned)
    assert [(e.seat, e.amount) for e in returned] == [(1, 8)]
    assert hand.result is not None and hand.result.stacks == (197, 203)


def test_R17_short_call_returns_the_excess() -> None:
    hand = make(STUD, ["Ts Js 2h 3c 4c 5h 6h", "Qs Ks 9d Ah Ad 8h 7h"], stacks=(200, 8))
    do(hand, (0, "bring-in"), (1, "call"), (1, "check"), (0, "check"))
    do(hand, (1, "check"), (0, "bet"), (1, "call"))  # seat 1 has only 5 behind
    assert [(e.seat, e.amount) for e in events_of(hand, UncalledBetReturned)] == [(0, 3)]
    assert hand.result is not None and sum(hand.result.stacks) == 208


# R18 --------------------------------------------------------------------------


def fold_on_fourth(hand: Hand, folder: int) -> None:
    """Check/call to 4th street, where ``folder`` folds at its turn; then check down."""
    passive(hand, 4)
    while hand.live[folder]:
        if hand.to_act == folder:
            hand.act("fold")
        else:
            hand.act("check")
    passive(hand)


def test_R18_odd_chip_to_the_highest_card_by_suit_in_stud() -> None:
    # Seat 2 brings in, everyone calls (pot 9), seat 2 folds on 4th: 9 between two equal hands.
    hand = make(STUD, ["As Kd Qc Jh 9s 3c 2d", "Ah Kc Qd Js 9h 3d 2c", "Tc Td 5h 8c"])
    assert hand.to_act == 2
    fold_on_fourth(hand, 2)
    assert sorted(awards(hand)) == [(0, 0, 5, "all"), (0, 1, 4, "all")]  # A♠ is seat 0's


def test_R18_odd_chip_to_the_lowest_card_by_suit_in_razz() -> None:
    hand = make(RAZZ, ["As 2h 3h 4d 7s Kc Kd", "Ac 2s 3s 4c 7d Qc Qd", "Tc Td 5h 8c"])
    assert hand.to_act == 2
    fold_on_fourth(hand, 2)
    assert sorted(awards(hand)) == [(0, 0, 4, "all"), (0, 1, 5, "all")]  # A♣ is seat 1's


def test_R18_stud8_high_half_takes_the_odd_chip() -> None:
    hand = make(STUD8, ["Kh Kd 9h Ks 9c Qc Jd", "Ac 2d 3h 4s 6c 8d Tc", "Ts Td 5h 8s"])
    assert hand.to_act == 1
    fold_on_fourth(hand, 2)
    # Pot 9: the high half 5, the low half 4.
    assert sorted(awards(hand)) == [(0, 0, 5, "high"), (0, 1, 4, "low")]


def test_R18_no_seat_gets_two_odd_chips_from_one_split() -> None:
    seats = [0, 1, 2]
    assert split(11, seats, lambda s: s) == [4, 4, 3]
    assert split(11, seats, lambda s: -s) == [3, 4, 4]
    assert split(12, seats, lambda s: s) == [4, 4, 4]


def test_R17_pot_layers_count_folded_chips() -> None:
    pots = build_pots([10, 30, 30, 25], [True, True, True, False])
    assert [(p.amount, p.seats) for p in pots] == [(40, (0, 1, 2)), (55, (1, 2))]


def test_R13_each_seat_its_own_muck_choice() -> None:
    """A seat that chose to show shows its beaten hand; the others still muck theirs."""
    hand = make(STUD, THREE_TO_SHOWDOWN, muck_losing_hands=(True, False, True))
    passive(hand, 7)
    do(hand, (2, "bet"), (0, "call"), (1, "call"))
    assert [e.seat for e in events_of(hand, HandShown)] == [2, 1]
    assert [e.seat for e in events_of(hand, HandMucked)] == [0]
    assert hand.view(2).seats[0].down == (None, None, None)
    assert None not in hand.view(2).seats[1].down


@pytest.mark.parametrize("choice", [(True, False), (True, False, 1), "no", None])
def test_R13_a_muck_choice_per_seat_is_checked(choice: Any) -> None:
    with pytest.raises(ValueError, match="muck_losing_hands must be True or False"):
        make(STUD, THREE_TO_SHOWDOWN, muck_losing_hands=choice)
