"""Bots against bots, many hands: sessions seeded apart, spread over processes or Ray.

Hands are cut into sessions of ``SimConfig.session`` hands (a sitting at one
table): the bots of a session are made once and keep what they learn of
each other from hand to hand, as at a real table. A session's seeds come
from the run's seed and the session's first hand alone, so a run gives the
same hands and the same results whatever the number of workers. Each hand
starts from fresh stacks, and players move one seat to the left every hand,
so each sits in every seat (dealer's left first, ...) equally often:
position is fair. Bots that observe (:class:`stud.bots.base.Observer`) are
told who sits where, so their reads follow a player, not a seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from stud.bots import Bot, make_bot, parse_bots, play_hand
from stud.cards import Deck
from stud.game import Hand, TableConfig, variant
from stud.sim.workers import Progress, Workers, run_sessions

CHUNK = 250
"""Hands between two progress reports of a session played in this process."""

SESSION = 2000
"""Hands per session by default: long enough for reads to matter, short enough to spread."""

NetArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Stakes:
    """Ante, bring-in, small bet and big bet, in chips."""

    ante: int = 2
    bring_in: int = 5
    small_bet: int = 20
    big_bet: int = 40

    @classmethod
    def parse(cls, text: str) -> Stakes:
        """``"2/5/20/40"`` (ante/bring-in/small/big); ValueError otherwise."""
        parts = text.replace(",", "/").split("/")
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) != 4:
            raise ValueError(f"stakes {text!r}: write ANTE/BRING-IN/SMALL/BIG, e.g. 2/5/20/40")
        return cls(*numbers)

    def __str__(self) -> str:
        return f"{self.ante}/{self.bring_in}/{self.small_bet}/{self.big_bet}"

    def table(self, game: str, stack_big_bets: int, seats: int) -> TableConfig:
        """A table of ``game`` at these stakes, every seat with ``stack_big_bets`` big bets."""
        return TableConfig(
            game=variant(game),
            ante=self.ante,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            stacks=(stack_big_bets * self.big_bet,) * seats,
        )


DEFAULT_STAKES = Stakes()
"""2/5/20/40."""


@dataclass(frozen=True, slots=True)
class SimConfig:
    """One simulation: the game, the bots in their starting seats, how many hands."""

    game: str
    bots: tuple[str, ...]
    hands: int
    seed: int = 0
    stakes: Stakes = Stakes()
    stack_big_bets: int = 100
    """Every player starts every hand with this many big bets (deep: all-ins are rare)."""
    session: int = SESSION
    """Hands the same bots play together, keeping what they learn of each other."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", variant(self.game).code)
        object.__setattr__(self, "bots", tuple(parse_bots(",".join(self.bots))))
        if not 2 <= len(self.bots) <= 8:
            raise ValueError(f"a stud table seats 2 to 8 players, not {len(self.bots)}")
        if self.hands < 1:
            raise ValueError(f"hands must be at least 1, not {self.hands}")
        if self.stack_big_bets < 1:
            raise ValueError("stack_big_bets must be at least 1")
        if self.session < 1:
            raise ValueError(f"session must be at least 1 hand, not {self.session}")
        self.table()  # fail now on impossible stakes, not in a worker

    def table(self) -> TableConfig:
        return self.stakes.table(self.game, self.stack_big_bets, len(self.bots))

    def sessions(self) -> list[tuple[int, int]]:
        """(first hand, hand count) of every session, in order."""
        return spans(self.hands, self.session)


def spans(total: int, size: int) -> list[tuple[int, int]]:
    """``total`` items cut into runs of ``size`` (the last may be shorter): (first, count) each."""
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def session_seeds(seed: int, start: int, players: int) -> tuple[int, list[int]]:
    """The deck seed and one seed per player for the session starting at hand ``start``."""
    sequence = np.random.SeedSequence([seed, start])
    words = sequence.generate_state(players + 1, dtype=np.uint64)
    return int(words[0]), [int(w) for w in words[1:]]


def make_players(names: Sequence[str], seeds: Sequence[int]) -> list[Bot]:
    """One bot per name, each with its seed."""
    return [make_bot(name, seed) for name, seed in zip(names, seeds, strict=True)]


def play_seated(
    table: TableConfig, deck: Deck, bots: Sequence[Bot], seats: Sequence[int]
) -> list[int]:
    """Play one hand with player ``seats[s]`` in seat ``s``; each player's net chips, by player.

    Observing bots are told who sits where (the players' numbers), so their
    reads follow a player from seat to seat.
    """
    hand = seated_hand(table, deck, bots, seats)
    assert hand.result is not None
    return by_player(hand.result.net, seats)


def seated_hand(table: TableConfig, deck: Deck, bots: Sequence[Bot], seats: Sequence[int]) -> Hand:
    """Play one hand with player ``seats[s]`` in seat ``s``; the finished hand."""
    hand = Hand(table, deck=deck)
    play_hand(hand, [bots[p] for p in seats], seats)
    return hand


N = TypeVar("N", int, float)


def by_player(by_seat: Sequence[N], seats: Sequence[int]) -> list[N]:
    """Values by seat rearranged by player (player ``seats[s]`` sat in seat ``s``)."""
    out = list(by_seat)
    for seat, player in enumerate(seats):
        out[player] = by_seat[seat]
    return out


def play_session(
    config: SimConfig, start: int, count: int, progress: Progress | None = None
) -> NetArray:
    """Play hands ``start`` .. ``start + count - 1`` with one set of bots; net chips per hand.

    ``progress`` (in this process only) hears every :data:`CHUNK` hands.
    """
    players = len(config.bots)
    deck_seed, bot_seeds = session_seeds(config.seed, start, players)
    bots = make_players(config.bots, bot_seeds)
    table = config.table()
    shuffler = random.Random(deck_seed)
    out = np.zeros((count, players), dtype=np.int64)
    reported = 0
    for i in range(count):
        shift = (start + i) % players
        # Player p sits in seat (p + shift) % players; seat 0 is the dealer's left.
        seats = [(seat - shift) % players for seat in range(players)]
        out[i] = play_seated(table, Deck(rng=shuffler), bots, seats)
        if progress is not None and (i + 1 - reported >= CHUNK or i + 1 == count):
            progress(i + 1 - reported)
            reported = i + 1
    return out


@dataclass(frozen=True, slots=True)
class SimResult:
    """Every hand's net result per player (chips), in hand order, with the run's settings."""

    config: SimConfig
    net: NetArray
    """Shape (hands, players): player p's chips won or lost in each hand."""


def simulate(
    config: SimConfig,
    workers: int | Workers = 1,
    progress: Progress | None = None,
    *,
    preload: Sequence[str] = (),
) -> SimResult:
    """Play the whole run, on ``workers`` processes (1: in this one) or on Ray (:class:`Workers`).

    ``preload`` names modules every worker imports first: a module that adds
    its bots to :data:`stud.bots.registry.BOTS` makes them playable there.
    """
    parts = run_sessions(play_session, config, config.sessions(), workers, progress, preload)
    return SimResult(config, np.concatenate(parts, axis=0))
