"""A mixed table, duplicate: several styles at one table, each deal played from every seat.

A gauntlet match (:mod:`stud.sim.duplicate`) puts one bot against one
opponent. A card room's table holds several styles at once, and the question
there is whether a bot earns more per seat than each of the others *at that
table* (where the weak players' chips go to whoever takes them best). Here
the line-up is any list of bots (``strong, tag, strong, nit, strong,
maniac``); every deal is played once per seat from the same deck, the
players moved one seat on each time, so every player holds every seat's
cards once and the luck of the cards cancels across the line-up. A bot's
result is its chips per seat it holds per hand (its players averaged); the
margin between two bots is taken deal by deal, so its interval is the one of
the difference, not two intervals added. Luck-adjusted figures as in the
gauntlet (:mod:`stud.sim.luck`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stud.bots import parse_bots
from stud.game import TableConfig, variant
from stud.sim.duplicate import LuckArray, NetArray, SessionPlay, play_rotations
from stud.sim.run import DEFAULT_STAKES, SESSION, Stakes, spans
from stud.sim.stats import Moments, Rate, rate_cell
from stud.sim.workers import Progress, Workers, run_sessions


@dataclass(frozen=True, slots=True)
class RingConfig:
    """One mixed table: the game, the line-up in seat order, how many deals."""

    game: str
    players: tuple[str, ...]
    deals: int
    seed: int = 0
    stakes: Stakes = DEFAULT_STAKES
    stack_big_bets: int = 100
    luck: bool = True
    """Also measure each hand's luck of the cards, for the luck-adjusted estimate."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", variant(self.game).code)
        object.__setattr__(self, "players", tuple(parse_bots(",".join(self.players))))
        if not 2 <= len(self.players) <= 8:
            raise ValueError(f"a table seats 2 to 8 players, not {len(self.players)}")
        if len(set(self.players)) < 2:
            raise ValueError("a mixed table needs at least two different bots")
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        self.table()

    @property
    def session(self) -> int:
        """Deals the same bots play together: about as many hands as a gauntlet session."""
        return max(1, SESSION // len(self.players))

    @property
    def bots(self) -> tuple[str, ...]:
        """Each bot of the line-up once, in the order it first sits."""
        return tuple(dict.fromkeys(self.players))

    def table(self) -> TableConfig:
        return self.stakes.table(self.game, self.stack_big_bets, len(self.players))

    def sessions(self) -> list[tuple[int, int]]:
        """(first deal, deal count) of every session, in order."""
        return spans(self.deals, self.session)


def play_ring_session(
    config: RingConfig, start: int, count: int, progress: Progress | None = None
) -> SessionPlay:
    """Deals ``start`` .. ``start + count - 1``, each played once with every player in each seat."""
    return play_rotations(
        config.game, config.table(), config.players, config.seed, start, count,
        len(config.players), luck=config.luck, progress=progress,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class RingResult:
    """Every hand's net chips (and luck), shape (deals, plays, players), with the settings."""

    config: RingConfig
    net: NetArray
    luck: LuckArray | None = None

    @property
    def hands(self) -> int:
        return int(self.net.shape[0] * self.net.shape[1])

    @property
    def chips(self) -> int:
        """Net chips of every player over every hand: 0 when chips are conserved."""
        return int(self.net.sum())

    def per_deal(self, bot: str, adjusted: bool = False) -> npt.NDArray[np.float64]:
        """A bot's big bets per hand per seat it holds, each deal's mean over its plays."""
        columns = [p for p, name in enumerate(self.config.players) if name == bot]
        if not columns:
            raise ValueError(f"{bot!r} does not sit at this table ({', '.join(self.config.bots)})")
        chips = self.net[:, :, columns].astype(np.float64)
        if adjusted:
            if self.luck is None:
                raise ValueError("this table was played without measuring luck")
            chips = chips - self.luck[:, :, columns]
        per_deal: npt.NDArray[np.float64] = chips.mean(axis=(1, 2)) / self.config.stakes.big_bet
        return per_deal

    def rate(self, bot: str, adjusted: bool = False) -> Rate:
        """A bot's big bets per 100 hands per seat it holds, interval over deals."""
        per_deal = self.per_deal(bot, adjusted)
        seats = self.config.players.count(bot)
        total = float(per_deal.sum()) * self.net.shape[1] * seats
        return Moments.of(per_deal).rate(bot, bot, self.hands, total)

    def margin(self, bot: str, other: str, adjusted: bool = False) -> Rate:
        """``bot``'s rate per seat less ``other``'s, deal by deal: the difference's interval."""
        difference = self.per_deal(bot, adjusted) - self.per_deal(other, adjusted)
        total = float(difference.sum()) * self.net.shape[1]
        return Moments.of(difference).rate(f"{bot} - {other}", bot, self.hands, total)


def play_ring(
    config: RingConfig, workers: int | Workers = 1, progress: Progress | None = None
) -> RingResult:
    """Play the whole table on ``workers`` processes or Ray; the same result wherever played.

    ``progress`` hears how many more deals are done.
    """
    parts = run_sessions(play_ring_session, config, config.sessions(), workers, progress)
    return RingResult(config, *SessionPlay.joined(parts))


def ring_table(result: RingResult, hero: str | None = None) -> str:
    """Markdown: each bot's rate per seat, raw and luck-adjusted, and ``hero``'s margin over it."""
    config = result.config
    adjusted = result.luck is not None
    head = ["bot", "seats", "bb/100 per seat (95% CI)"]
    if adjusted:
        head.append("luck-adjusted")
    if hero is not None:
        head.append(f"{hero} minus it" + (" (adjusted)" if adjusted else ""))
    lines = [
        f"{config.game}: a mixed table of {len(config.players)} ({', '.join(config.players)}), "
        f"duplicate, {config.deals:,} deals (x{len(config.players)} hands, every player in "
        "every seat); * = significant at 95%",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for bot in config.bots:
        cells = [bot, str(config.players.count(bot)), rate_cell(result.rate(bot))]
        if adjusted:
            cells.append(rate_cell(result.rate(bot, adjusted=True)))
        if hero is not None:
            cells.append("" if bot == hero else rate_cell(result.margin(hero, bot, adjusted)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
