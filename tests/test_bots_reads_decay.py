"""Reads that follow the player in front of them: with a half-life, recent hands weigh more.

A :class:`PlayerReads` with a ``half_life`` weighs every count of a player by
half each time he has been dealt that many more hands, so after he changes
gear his read moves to the new style within a few hundred hands; without one
nothing decays and a read pools his whole history. The strong bot reads with
:data:`stud.bots.players.HALF_LIFE`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pytest

from stud.bots import Bot, StrongBot, play_hand
from stud.bots.gears import GearBot
from stud.bots.player_stats import PlayerStats
from stud.bots.players import HALF_LIFE, PlayerReads
from stud.cards import Deck
from stud.game import Hand, HandView, TableConfig, variant
from test_bots_reads import Folder


def test_decay_weighs_every_count_and_leaves_the_hands_dealt() -> None:
    stats = PlayerStats(hands=10, steal_chances=10, steals=10)
    stats.faced_at[4] = 6
    stats.folds_board[17] = 2
    before = stats.steal_rate
    stats.decay(0.5)
    assert (stats.hands, stats.steal_chances, stats.steals) == (10, 5.0, 5.0)
    assert stats.faced_at[4] == 3.0 and stats.folds_board[17] == 1.0
    assert 0.30 < stats.steal_rate < before  # less evidence: nearer the prior


class Reader(Folder):
    """Folds to any wager, else checks or posts; reads its opponent with and without a
    half-life."""

    def __init__(self, recent: PlayerReads) -> None:
        self.recent = recent
        self.pooled = PlayerReads(half_life=None)

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        self.recent.update(view, players)
        self.pooled.update(view, players)


def _play(shifter: GearBot, reader: Reader, deals: range) -> None:
    config = TableConfig(
        game=variant("razz"), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000, 4000)
    )
    for n in deals:
        seats: list[Bot] = [shifter, reader] if n % 2 == 0 else [reader, shifter]
        names = ["shifter", "reader"] if n % 2 == 0 else ["reader", "shifter"]
        play_hand(Hand(config, deck=Deck(seed=n)), seats, names)


def test_a_read_with_a_half_life_moves_to_a_new_style_within_a_few_hundred_hands() -> None:
    shifter = GearBot(seed=2, stretches=(400, 400), loose_first=True, styles=(["loose"], ["nit"]))
    reader = Reader(PlayerReads(half_life=100))
    _play(shifter, reader, range(400))
    recent, pooled = (r.players["shifter"] for r in (reader.recent, reader.pooled))
    assert shifter.loose and recent.steal_rate > 0.8 and pooled.steal_rate > 0.8
    _play(shifter, reader, range(400, 650))
    assert not shifter.loose  # a tight stretch since hand 401
    assert recent.steal_rate < 0.35  # the read follows him ...
    assert pooled.steal_rate > 0.5  # ... where one that never forgets is still a stealer's


def test_the_strong_bots_reads_follow_a_nit_turned_stealer_within_a_few_hundred_hands() -> None:
    """The bot's own reads, as it makes them (its half-life, shrunk to the population)."""
    shifter = GearBot(seed=5, stretches=(500, 500), loose_first=False, styles=(["loose"], ["nit"]))
    reader = Reader(StrongBot(seed=1).reads)
    _play(shifter, reader, range(500))
    recent, pooled = (r.players["shifter"] for r in (reader.recent, reader.pooled))
    assert not shifter.loose and recent.steal_rate < 0.25
    _play(shifter, reader, range(500, 800))
    assert shifter.loose  # a loose stretch since hand 501
    assert recent.steal_rate > 0.75  # the read follows him ...
    assert pooled.steal_rate < 0.6  # ... where one that never forgets is half a nit still


@pytest.mark.parametrize("half_life", [None, 300.0])
def test_the_strong_bot_reads_with_the_half_life_it_is_given(half_life: float | None) -> None:
    assert StrongBot(seed=1, half_life=half_life).reads.half_life == half_life
    assert StrongBot(seed=1).reads.half_life == HALF_LIFE
