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

Beside it, with ``luck=True`` (the default), every hand's luck of the cards
(:mod:`stud.sim.luck`) is measured: ``net - luck`` is an estimate with the
same expectation and, in these matches, a third to a half of the variance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots import parse_bots
from stud.cards import Deck
from stud.game import TableConfig, variant
from stud.sim.luck import hand_luck
from stud.sim.run import (
    DEFAULT_STAKES,
    SESSION,
    Stakes,
    by_player,
    make_players,
    seated_hand,
    session_seeds,
    spans,
)
from stud.sim.stats import Moments, Rate
from stud.sim.workers import Progress, Workers, run_sessions

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
    luck: bool = True
    """Also measure each hand's luck of the cards, for the luck-adjusted estimate."""

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
        """(first deal, deal count) of every session, in order."""
        return spans(self.deals, self.session)


NetArray = npt.NDArray[np.int64]
LuckArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class SessionPlay:
    """One session's hands: net chips and luck, shape (deals, plays, players) each."""

    net: NetArray
    luck: LuckArray | None

    @staticmethod
    def joined(parts: Sequence[SessionPlay]) -> tuple[NetArray, LuckArray | None]:
        """The sessions' hands in order: net chips, and luck if every session measured it."""
        net = np.concatenate([p.net for p in parts], axis=0)
        lucks = [p.luck for p in parts if p.luck is not None]
        luck = np.concatenate(lucks, axis=0) if lucks and len(lucks) == len(parts) else None
        return net, luck


def play_match_session(
    config: MatchConfig, start: int, count: int, progress: Progress | None = None
) -> SessionPlay:
    """Deals ``start`` .. ``start + count - 1``: net chips (and luck) per deal, play and player."""
    return play_rotations(
        config.game, config.table(), config.players, config.seed, start, count, PLAYS,
        luck=config.luck, progress=progress,
    )  # fmt: skip


def play_rotations(
    game: str,
    table: TableConfig,
    players: Sequence[str],
    seed: int,
    start: int,
    count: int,
    plays: int,
    *,
    luck: bool = True,
    progress: Progress | None = None,
) -> SessionPlay:
    """One session's deals, each played ``plays`` times with every player moved one seat on.

    The bots are made once for the session (so they keep their reads), from
    seeds of the run's seed and the session's first deal alone: the same
    deals and results whatever the number of workers.
    """
    n = len(players)
    deck_seed, bot_seeds = session_seeds(seed, start, n)
    bots = make_players(players, bot_seeds)
    decks = random.Random(deck_seed)
    out = np.zeros((count, plays, n), dtype=np.int64)
    lucks = np.zeros((count, plays, n)) if luck else None
    for i in range(count):
        deal = decks.getrandbits(64)
        for play in range(plays):
            # Player p sits in seat (p + play) % n: each seat's cards go to every side.
            seats = [(seat - play) % n for seat in range(n)]
            hand = seated_hand(table, Deck(seed=deal), bots, seats)
            assert hand.result is not None
            out[i, play] = by_player(hand.result.net, seats)
            if lucks is not None:
                lucks[i, play] = by_player(list(hand_luck(game, hand.events)), seats)
        if progress is not None:
            progress(1)
    return SessionPlay(out, lucks)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Every hand's net chips (and luck), shape (deals, plays, players), with the settings."""

    config: MatchConfig
    net: NetArray
    luck: LuckArray | None = None

    @property
    def hands(self) -> int:
        return int(self.net.shape[0] * self.net.shape[1])

    def per_deal(self, side: int, adjusted: bool = False) -> npt.NDArray[np.float64]:
        """A side's big bets per hand per seat, each deal's mean (side 0: hero, 1: villain)."""
        chips = self.net.astype(np.float64)
        if adjusted:
            if self.luck is None:
                raise ValueError("this match was played without measuring luck")
            chips = chips - self.luck
        per_deal: npt.NDArray[np.float64] = chips[:, :, side::2].mean(axis=(1, 2))
        return per_deal / self.config.stakes.big_bet

    def _rate(self, side: int, adjusted: bool) -> Rate:
        name = self.config.hero if side == 0 else self.config.villain
        bb = self.net[:, :, side::2] / self.config.stakes.big_bet
        found = Moments.of(self.per_deal(side, adjusted))
        return found.rate(name, name, self.hands, float(bb.sum()))

    def hero_rate(self) -> Rate:
        """The hero's big bets per 100 hands per seat it holds, interval over deals."""
        return self._rate(0, False)

    def villain_rate(self) -> Rate:
        """The villain's big bets per 100 hands per seat it holds (the hero's, negated)."""
        return self._rate(1, False)

    def hero_adjusted(self) -> Rate:
        """The hero's luck-adjusted rate: the same expectation, a narrower interval."""
        return self._rate(0, True)


def play_match(
    config: MatchConfig,
    workers: int | Workers = 1,
    progress: Progress | None = None,
    *,
    preload: tuple[str, ...] = (),
) -> MatchResult:
    """Play the whole match on ``workers`` processes or Ray; the same result wherever played.

    ``progress`` hears how many more deals are done.
    """
    parts = run_sessions(play_match_session, config, config.sessions(), workers, progress, preload)
    return MatchResult(config, *SessionPlay.joined(parts))
