"""The prior a read shrinks to is the population seen so far; strong seated without observe.

A :class:`PlayerReads` pools every player's counts (its ``population``, never
forgotten) and shrinks each player's rates towards the population's, so a
stranger is first read as the players met so far, not as a fixed sound player.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import test_bots_reads
from stud.bots import Bot, Observer, StrongBot, make_bot, play_hand
from stud.bots.gears import GearBot
from stud.bots.player_stats import PRIOR_STEAL, PlayerStats
from stud.bots.players import PlayerReads
from stud.cards import Deck
from stud.game import Hand, HandView, TableConfig, variant


class Folder(test_bots_reads.Folder):
    """Folds to any wager, else checks or posts; feeds the reads it is given."""

    def __init__(self, *reads: PlayerReads) -> None:
        self.reads = reads

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        for reads in self.reads:
            reads.update(view, players)


def _play(opponent: Bot, name: str, me: Bot, deals: range) -> None:
    config = TableConfig(
        game=variant("razz"), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000, 4000)
    )
    for n in deals:
        seats = [opponent, me] if n % 2 == 0 else [me, opponent]
        names = [name, "me"] if n % 2 == 0 else ["me", name]
        play_hand(Hand(config, deck=Deck(seed=n)), seats, names)


def test_add_sums_every_count_and_leaves_the_hands() -> None:
    one = PlayerStats(hands=3, steal_chances=4, steals=1)
    one.faced_at[5] = 2
    other = PlayerStats(hands=7, steal_chances=6, steals=5)
    other.faced_at[5] = 1
    other.folds_board[9] = 3
    one.add(other)
    assert (one.hands, one.steal_chances, one.steals) == (3, 10, 6)
    assert one.faced_at[5] == 3 and one.folds_board[9] == 3
    assert other.faced_at[5] == 1  # the added counts are left as they were


def test_a_stranger_is_read_as_the_players_met_so_far() -> None:
    pooled, alone = PlayerReads(), PlayerReads(pooled=False)
    me = Folder(pooled, alone)
    _play(make_bot("stealer", 1), "stealer", me, range(300))
    assert pooled.players["stealer"].steal_rate > 0.8
    assert pooled.population.steal_rate > 0.8
    _play(make_bot("nit", 2), "newcomer", me, range(300, 302))
    # Two hands of the newcomer: the pooled read starts from the stealer met so far ...
    assert pooled.players["newcomer"].steal_rate > 0.6
    # ... a read without a population from a sound player's 30%.
    assert alone.players["newcomer"].steal_rate < PRIOR_STEAL + 0.05


def test_strong_own_view_does_not_observe_and_reads_only_its_turns() -> None:
    blind, watching = make_bot("strong-own-view", 3), make_bot("strong", 3)
    assert not isinstance(blind, Observer) and isinstance(watching, Observer)
    for bot in (blind, watching):
        _play(make_bot("stealer", 1), "stealer", bot, range(40))
    inner = blind.bot  # type: ignore[attr-defined]
    assert isinstance(inner, StrongBot) and isinstance(watching, StrongBot)
    # Never told who sits where, it reads by seat; and the folds that end a hand never
    # reach its turns.
    assert all(isinstance(key, tuple) for key in inner.reads.players)
    seen = sum(stats.decisions for stats in inner.reads.players.values())
    shown = watching.reads.players["stealer"].decisions
    assert 0 < seen < shown


def test_the_shifters_schedule_replays_from_its_seed() -> None:
    played = GearBot(seed=11, stretches=(20, 60))
    _play(played, "shifter", Folder(), range(300))
    replayed = GearBot(seed=11, stretches=(20, 60))
    for _ in range(played.hands):
        replayed.next_hand()
    assert played.hands == 300 and replayed.stretches == played.stretches
    assert len(played.stretches) > 4
