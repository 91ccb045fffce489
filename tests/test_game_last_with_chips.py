"""Betting ends when nobody can bet against the last player with chips (issue 12).

With fewer than two live players holding chips there is no betting (R5): the last player
with chips decides only when facing a wager, and an all-in player wins at most what each
opponent matched (R17).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from stud.cards import Deck
from stud.game import (
    RAZZ,
    STUD,
    STUD8,
    ActionKind,
    Hand,
    IllegalActionError,
    ScriptedCards,
    TableConfig,
)
from stud.history.phh import read_phh
from stud.history.replay import replay

DATA = Path(__file__).parent / "data"
K = ActionKind


def reproduction() -> Hand:
    """The issue's hand, up to p3's fold on 5th street."""
    config = TableConfig(
        game=STUD, ante=1, bring_in=2, small_bet=5, big_bet=10, stacks=(3, 100, 100)
    )
    cards = ScriptedCards(
        [
            "3c 4c 2c 5d 6d 6h 7c",
            "Kd Ks Kh 2d 3d 4h Qc",
            "9d 9h 7s 8d 8h",
        ]
    )
    hand = Hand(config, cards=cards)
    for seat, kind, to in [
        (0, K.BRING_IN, 2),
        (1, K.COMPLETE, 5),
        (2, K.CALL, 5),
        (1, K.BET, 5),
        (2, K.CALL, 5),
        (2, K.FOLD, None),
    ]:
        assert hand.to_act == seat
        hand.act(kind, to)
    return hand


def test_the_last_player_with_chips_gets_no_turn_and_takes_back_the_side_pot() -> None:
    hand = reproduction()
    assert hand.is_over
    result = hand.result
    assert result is not None
    assert [p.amount for p in result.pots] == [9, 16]
    assert result.pots[1].seats == (1,)
    assert result.stacks == (9, 105, 89)  # p1's straight wins only the main pot


def test_the_record_replays_to_the_right_stacks() -> None:
    record = read_phh((DATA / "last_with_chips.phh").read_text())
    report = replay(record)
    assert report.ok, report.text()
    assert report.matched is True
    assert report.stacks == (9, 105, 89)


def test_a_record_where_the_last_player_with_chips_folds_is_refused() -> None:
    record = read_phh((DATA / "last_with_chips_folds.phh").read_text())
    report = replay(record)
    assert not report.ok
    assert any("Bob fold on street 5" in p for p in report.problems), report.problems


def test_the_last_player_with_chips_still_answers_an_all_in_wager() -> None:
    """Facing a short all-in raise, the last player with chips may call or fold, not raise."""
    config = TableConfig(
        game=STUD, ante=0, bring_in=2, small_bet=5, big_bet=10, stacks=(100, 7, 100)
    )
    cards = ScriptedCards(
        [
            "Ad Ac As",
            "3c 4c 2c 5d 6d 6h 7c",
            "Kd Ks Kh 2d 3d 4h Qc",
        ]
    )
    hand = Hand(config, cards=cards)
    hand.act(K.BRING_IN, 2)
    hand.act(K.COMPLETE, 5)
    hand.act(K.FOLD)
    hand.act(K.RAISE, 7)  # all-in, a short raise
    assert hand.to_act == 2
    assert {a.kind for a in hand.legal_actions()} == {K.FOLD, K.CALL}
    with pytest.raises(IllegalActionError):
        hand.act(K.CHECK)
    hand.act(K.CALL)
    assert hand.is_over  # nobody left to bet against: the cards run out
    result = hand.result
    assert result is not None
    assert sum(result.stacks) == 207


# ---------------------------------------------------------------- properties over random hands


def short_stack_config(rng: random.Random) -> TableConfig:
    players = rng.randint(2, 8)
    small = rng.choice((2, 4, 10))
    return TableConfig(
        game=rng.choice((STUD, STUD8, RAZZ)),
        ante=rng.choice((0, 1, small // 2)),
        bring_in=rng.randint(1, small),
        small_bet=small,
        big_bet=2 * small,
        stacks=tuple(
            rng.randint(1, 4 * small) if rng.random() < 0.6 else rng.randint(1, 40 * small)
            for _ in range(players)
        ),
        burn_cards=rng.random() < 0.5,
        short_all_in_rule=rng.random() < 0.8,
    )


def play_random(seed: int) -> tuple[Hand, list[str]]:
    """A random hand with short stacks; the reasons any decision was wrongly offered."""
    rng = random.Random(seed)
    config = short_stack_config(rng)
    hand = Hand(config, deck=Deck(seed=seed))
    wrong: list[str] = []
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        others_with_chips = [
            s for s in range(len(config.stacks)) if s != seat and hand.live[s] and hand.stacks[s]
        ]
        if not others_with_chips and hand.to_call(seat) == 0:
            wrong.append(f"seat {seat} offered a turn with nobody to bet against")
        legal = hand.legal_actions()
        hand.act(rng.choice(legal))
    return hand, wrong


def matched_limit(committed: tuple[int, ...], seat: int) -> int:
    """The most ``seat`` may collect: what each player put in, up to ``seat``'s own amount."""
    mine = committed[seat]
    return sum(min(c, mine) for c in committed)


@pytest.mark.parametrize("block", range(4))
def test_nobody_collects_more_than_the_contributors_matched(block: int) -> None:
    for seed in range(block * 1500, (block + 1) * 1500):
        hand, wrong = play_random(seed)
        assert not wrong, f"seed {seed}: {wrong}"
        result = hand.result
        assert result is not None
        committed = hand.committed
        start = hand.config.stacks
        assert sum(result.stacks) + result.rake == sum(start), f"seed {seed}: chips not conserved"
        for seat in range(len(start)):
            collected = result.stacks[seat] - start[seat] + committed[seat]
            assert collected <= matched_limit(committed, seat), (
                f"seed {seed}: seat {seat} collected {collected} from {committed}"
            )
