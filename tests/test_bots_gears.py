"""The shifter changes gear: loose and tight stretches in turn, of lengths drawn anew each time.

It is the gauntlet's test of reads that must follow a player who changes his
play (:mod:`stud.bots.gears`): its stretches alternate between a loose style
and a tight one, their lengths vary within the bounds it is given, the same
seed plays the same schedule, and its loose stretches steal where its tight
ones fold.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import pairwise

from stud.bots import Bot, StationBot, make_bot, play_hand
from stud.bots.gears import LOOSE_STYLES, TIGHT_STYLES, GearBot
from stud.bots.players import PlayerReads
from stud.cards import Deck
from stud.game import Hand, HandView, TableConfig, variant


def _config(game: str = "razz") -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000, 4000)
    )


class Watcher(StationBot):
    """A calling station that reads the shifter, apart in its loose and its tight stretches."""

    def __init__(self, shifter: GearBot) -> None:
        super().__init__()
        self.shifter = shifter
        self.reads = {True: PlayerReads(), False: PlayerReads()}

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        self.reads[self.shifter.loose].update(view, players)


def _play(shifter: GearBot, hands: int, opponent: Bot | None = None) -> None:
    other = opponent if opponent is not None else StationBot()
    for n in range(hands):
        seats: list[Bot] = [shifter, other] if n % 2 == 0 else [other, shifter]
        names = ["shifter", "other"] if n % 2 == 0 else ["other", "shifter"]
        play_hand(Hand(_config(), deck=Deck(seed=n)), seats, names)


def test_stretches_alternate_gears_with_lengths_drawn_within_the_bounds() -> None:
    shifter = GearBot(seed=3, stretches=(5, 20))
    _play(shifter, 120)
    assert shifter.hands == 120
    starts = [start for start, _ in shifter.stretches]
    gears = [style in LOOSE_STYLES for _, style in shifter.stretches]
    assert starts[0] == 1 and len(starts) >= 7
    assert all(a != b for a, b in pairwise(gears))  # loose, tight, ...
    assert all(style in (*LOOSE_STYLES, *TIGHT_STYLES) for _, style in shifter.stretches)
    lengths = [b - a for a, b in pairwise(starts)]
    assert all(5 <= length <= 20 for length in lengths)
    assert len(set(lengths)) >= 3  # not one fixed period


def test_the_same_seed_plays_the_same_schedule() -> None:
    first, again, other = (GearBot(seed=s, stretches=(5, 20)) for s in (5, 5, 6))
    for shifter in (first, again, other):
        _play(shifter, 50)
    assert first.stretches == again.stretches
    assert first.stretches != other.stretches


def test_it_steals_in_its_loose_stretches_and_hardly_in_its_tight_ones() -> None:
    shifter = GearBot(seed=7, stretches=(40, 80), loose_first=True)
    watcher = Watcher(shifter)
    _play(shifter, 240, watcher)
    loose, tight = (watcher.reads[gear].players["shifter"] for gear in (True, False))
    assert loose.steal_chances >= 40 and tight.steal_chances >= 40
    assert loose.steals / loose.steal_chances > 0.9
    assert tight.steals / tight.steal_chances < 0.35


def test_the_shifter_is_a_registered_bot() -> None:
    assert isinstance(make_bot("shifter", 1), GearBot)
