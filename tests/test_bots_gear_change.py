"""The change-of-gear watch: a player's recent decisions tested against his older ones.

:mod:`stud.bots.gear_change` sets a short memory of each player against his
decayed reads; when the two say he plays another game, the reads restart
from the short memory instead of waiting out their half-life. It must call a
switch between a loose gear and a tight one within a few dozen hands, and
never call one against a player who keeps his gear.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pytest

from stud.bots import Bot, play_hand
from stud.bots.gear_change import THRESHOLD, changed_gear, restart, statistic
from stud.bots.gears import GearBot
from stud.bots.player_stats import PlayerStats
from stud.bots.players import PlayerReads
from stud.cards import Deck
from stud.game import Hand, HandView, TableConfig, variant
from test_bots_reads import Folder


def _stats(steals: float, chances: float, folds: float = 0.0, faced: float = 0.0) -> PlayerStats:
    return PlayerStats(steals=steals, steal_chances=chances, folds_third=folds, faced_third=faced)


def test_recent_decisions_like_the_older_ones_call_no_change() -> None:
    recent = _stats(steals=6, chances=20, folds=10, faced=20)
    reads = _stats(steals=30, chances=100, folds=50, faced=100)  # the same rates throughout
    assert statistic(reads, recent) < 1.0
    assert not changed_gear(reads, recent)


def test_a_stealer_turned_nit_is_a_change_of_gear() -> None:
    recent = _stats(steals=1, chances=20, folds=18, faced=20)  # steals 5%, folds 90% ...
    reads = _stats(steals=61, chances=100, folds=38, faced=100)  # ... after 75% and 25%
    assert statistic(reads, recent) > 2 * THRESHOLD
    assert changed_gear(reads, recent)


def test_an_empty_side_tells_nothing() -> None:
    assert statistic(PlayerStats(), _stats(steals=20, chances=20)) == 0.0
    assert statistic(_stats(steals=20, chances=20), PlayerStats()) == 0.0


def test_a_restart_keeps_only_the_recent_counts_and_weighs_down_the_answers() -> None:
    reads = _stats(steals=61, chances=100)
    reads.hands = 500
    reads.faced_at[5] = 30.0
    reads.calibration.add(5, False, 0.3, True)
    recent = _stats(steals=1, chances=20)
    recent.faced_at[5] = 4.0
    restart(reads, recent)
    assert (reads.steals, reads.steal_chances, reads.faced_at[5]) == (1, 20, 4.0)
    assert reads.hands == 500  # the hands dealt are his whole history
    recent.faced_at[5] = 9.0
    assert reads.faced_at[5] == 4.0  # a copy, not the short memory itself
    assert reads.calibration.answers(5) == 1  # weighed down, not dropped


class Reader(Folder):
    """Folds to any wager; reads its opponent with the watch and without it."""

    def __init__(self) -> None:
        self.watched = PlayerReads(half_life=100)
        self.unwatched = PlayerReads(half_life=100, watch=False)

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        self.watched.update(view, players)
        self.unwatched.update(view, players)


def _play(game: str, opponent: GearBot, reader: Reader, deals: range) -> None:
    config = TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000, 4000)
    )
    for n in deals:
        seats: list[Bot] = [opponent, reader] if n % 2 == 0 else [reader, opponent]
        names = ["them", "reader"] if n % 2 == 0 else ["reader", "them"]
        play_hand(Hand(config, deck=Deck(seed=n)), seats, names)


def test_a_loose_player_turned_nit_is_read_as_a_nit_within_a_hundred_hands() -> None:
    shifter = GearBot(seed=3, stretches=(400, 400), loose_first=True, styles=(["loose"], ["nit"]))
    reader = Reader()
    _play("razz", shifter, reader, range(400))
    watched, unwatched = (r.players["them"] for r in (reader.watched, reader.unwatched))
    assert watched.steal_rate > 0.8 and reader.watched.gear_changes == 0
    _play("razz", shifter, reader, range(400, 500))
    assert not shifter.loose  # a tight stretch since hand 401
    assert reader.watched.gear_changes == 1
    # The watched read restarted on the nit (its rates still shrunk towards the population,
    # which heads-up is his whole history, mostly loose) ...
    assert watched.steal_rate < 0.42
    assert unwatched.steal_rate > 0.55  # ... where the half-life alone still reads a stealer


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("style", ["loose", "nit", "tag"])
def test_a_player_who_keeps_his_gear_is_never_restarted(game: str, style: str) -> None:
    steady = GearBot(seed=7, styles=([style], [style]))
    reader = Reader()
    _play(game, steady, reader, range(1500))
    assert reader.watched.gear_changes == 0
