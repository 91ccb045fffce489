"""Duplicate matches: every deal played from both sides with the same cards, seats rotated.

A match seats a ``hero`` bot and a ``villain`` bot alternately (heads-up:
one each; six-handed: three each, hero, villain, hero, ...). Each deal is
played twice from the same deck: as seated, then with every player moved
one seat on, so each seat's cards are played once by each side. Luck of the
cards cancels between the two plays, which is what makes duplicate results
far less noisy than plain ones. The bots of a session are made once and keep
what they learn of each other (they are told who sits where).

The hero's result is its chips per seat it holds, averaged over the two
plays of a deal; deals are independent, so the 95% interval is the plain one
over deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots import parse_bots
from stud.cards import Deck
from stud.game import TableConfig, variant
from stud.sim.run import (
    DEFAULT_STAKES,
    SESSION,
    Progress,
    Stakes,
    make_players,
    play_seated,
    run_sessions,
    session_seeds,
)
from stud.sim.stats import Rate, rate

PLAYS = 2
"""Each deal is played this many times, the players moved one seat on each time."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """One duplicate match: the game, the two bots, how many seats and deals."""

    game: str
    hero: str
    villain: str
    deals: int
    seats: int = 2
    seed: int = 0
    stakes: Stakes = DEFAULT_STAKES
    stack_big_bets: int = 100
    session: int = SESSION // 2
    """Deals the same bots play together (each deal is two hands)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", variant(self.game).code)
        hero, villain = parse_bots(f"{self.hero},{self.villain}")
        object.__setattr__(self, "hero", hero)
        object.__setattr__(self, "villain", villain)
        if self.seats < 2 or self.seats > 8 or self.seats % 2:
            raise ValueError(f"a duplicate match seats 2, 4, 6 or 8 players, not {self.seats}")
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        if self.session < 1:
            raise ValueError(f"session must be at least 1 deal, not {self.session}")
        self.table()

    @property
    def players(self) -> tuple[str, ...]:
        """Player p's bot: the hero at even p, the villain at odd p."""
        return tuple(self.hero if p % 2 == 0 else self.villain for p in range(self.seats))

    def table(self) -> TableConfig:
        return self.stakes.table(self.game, self.stack_big_bets, self.seats)

    def sessions(self) -> list[tuple[int, int]]:
        size = self.session
        return [(start, min(size, self.deals - start)) for start in range(0, self.deals, size)]


NetArray = npt.NDArray[np.int64]


def play_match_session(
    config: MatchConfig, start: int, count: int, progress: Progress | None = None
) -> NetArray:
    """Deals ``start`` .. ``start + count - 1``: net chips, shape (deals, plays, players)."""
    n = config.seats
    deck_seed, bot_seeds = session_seeds(config.seed, start, n)
    bots = make_players(config.players, bot_seeds)
    table = config.table()
    decks = random.Random(deck_seed)
    out = np.zeros((count, PLAYS, n), dtype=np.int64)
    for i in range(count):
        deal = decks.getrandbits(64)
        for play in range(PLAYS):
            # Player p sits in seat (p + play) % n: each seat's cards go to both sides.
            seats = [(seat - play) % n for seat in range(n)]
            out[i, play] = play_seated(table, Deck(seed=deal), bots, seats)
        if progress is not None:
            progress(1)
    return out


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Every hand's net chips, shape (deals, plays, players), with the match's settings."""

    config: MatchConfig
    net: NetArray

    @property
    def hands(self) -> int:
        return int(self.net.shape[0] * self.net.shape[1])

    def hero_rate(self) -> Rate:
        """The hero's big bets per 100 hands per seat it holds, interval over deals."""
        bb = self.net / self.config.stakes.big_bet
        per_deal = bb[:, :, 0::2].mean(axis=(1, 2))
        found = rate(self.config.hero, self.config.hero, per_deal, 1)
        return Rate(found.label, found.bot, self.hands, found.bb_per_100, found.ci95,
                    float(bb[:, :, 0::2].sum()))  # fmt: skip

    def villain_rate(self) -> Rate:
        """The villain's big bets per 100 hands per seat it holds (the hero's, negated)."""
        bb = self.net / self.config.stakes.big_bet
        per_deal = bb[:, :, 1::2].mean(axis=(1, 2))
        found = rate(self.config.villain, self.config.villain, per_deal, 1)
        return Rate(found.label, found.bot, self.hands, found.bb_per_100, found.ci95,
                    float(bb[:, :, 1::2].sum()))  # fmt: skip


def play_match(
    config: MatchConfig,
    workers: int = 1,
    progress: Progress | None = None,
    *,
    preload: tuple[str, ...] = (),
) -> MatchResult:
    """Play the whole match on ``workers`` processes; the same result whatever their number.

    ``progress`` hears how many more deals are done.
    """
    parts = run_sessions(play_match_session, config, config.sessions(), workers, progress, preload)
    return MatchResult(config, np.concatenate(parts, axis=0))
