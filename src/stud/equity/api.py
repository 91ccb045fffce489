"""``equity(game, players, dead=...)``: each player's share of the pot.

Exact enumeration when the number of run-outs fits ``exact_limit`` (or when
asked), Monte Carlo otherwise; either way the shares are counted exactly per
run-out (see :mod:`stud.equity.showdown`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import sqrt
from typing import Any, Literal

from stud.cards import format_cards
from stud.equity import enumerate as exact
from stud.equity import sample
from stud.equity.deal import Deal, make_deal
from stud.equity.notation import Hand
from stud.equity.runner import Progress, run_tasks
from stud.equity.showdown import Tally, pot_units

Method = Literal["auto", "exact", "sample"]
# Run-outs enumerated exactly by default: a few seconds' work on one core.
EXACT_LIMIT = 40_000_000
DEFAULT_SAMPLES = 1_000_000
# Largest per-player table built for sampling (hands evaluated up front).
TABLE_LIMIT = 1 << 21


@dataclass(frozen=True)
class PlayerEquity:
    """One player's results; counts are over ``runouts``, shares are fractions of the pot."""

    hand: str
    runouts: int
    wins: int  # run-outs taking the pot (or a Stud8 half) alone
    ties: int  # run-outs getting a share only by tying
    share: Fraction  # sum over run-outs of the pot fraction won
    hilo: bool = False
    scoops: int = 0  # Stud8: run-outs taking the whole pot alone
    high_share: Fraction = Fraction(0)  # Stud8: part of ``share`` won with the high hand
    low_share: Fraction = Fraction(0)  # Stud8: part of ``share`` won with the low hand
    stderr: float | None = None  # standard error of ``equity`` when sampled

    @property
    def win(self) -> float:
        return self.wins / self.runouts

    @property
    def tie(self) -> float:
        return self.ties / self.runouts

    @property
    def exact_equity(self) -> Fraction:
        """The expected pot fraction, as a fraction (exact when enumerated)."""
        return self.share / self.runouts

    @property
    def equity(self) -> float:
        return float(self.exact_equity)

    @property
    def high(self) -> float | None:
        return float(self.high_share / self.runouts) if self.hilo else None

    @property
    def low(self) -> float | None:
        return float(self.low_share / self.runouts) if self.hilo else None

    @property
    def scoop(self) -> float | None:
        return self.scoops / self.runouts if self.hilo else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "win": self.win,
            "tie": self.tie,
            "equity": self.equity,
            "wins": self.wins,
            "ties": self.ties,
        }
        if self.hilo:
            out |= {"high": self.high, "low": self.low, "scoop": self.scoop}
            out["scoops"] = self.scoops
        if self.stderr is not None:
            out["stderr"] = self.stderr
        return out


@dataclass(frozen=True)
class EquityResult:
    """Every player's equity and how it was found."""

    game: str
    players: tuple[PlayerEquity, ...]
    method: Literal["exact", "sampled"]
    runouts: int  # run-outs evaluated: all of them (exact) or the samples
    total_runouts: int  # distinct run-outs of the deal
    dead: str
    community: str | None  # the R12 community card, when known
    r12: bool  # a community card replaces the 7th-street cards
    low_runouts: int = 0  # Stud8: run-outs with a qualifying low
    seed: int | None = None

    def __iter__(self) -> Iterator[PlayerEquity]:
        return iter(self.players)

    def __getitem__(self, index: int) -> PlayerEquity:
        return self.players[index]

    def __len__(self) -> int:
        return len(self.players)

    @property
    def low_rate(self) -> float | None:
        """Stud8: the fraction of run-outs in which some low qualifies."""
        return self.low_runouts / self.runouts if self.game == "stud8" else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "method": self.method,
            "runouts": self.runouts,
            "total_runouts": self.total_runouts,
            "dead": self.dead,
            "r12_community": self.r12,
            "community": self.community,
            "players": [p.to_dict() for p in self.players],
        }
        if self.game == "stud8":
            out["low_rate"] = self.low_rate
        if self.seed is not None:
            out["seed"] = self.seed
        return out


def equity(
    game: str,
    players: Sequence[str | Hand],
    dead: str | Iterable[str | int] | None = None,
    *,
    community: str | int | None = None,
    method: Method = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    workers: int = 1,
    exact_limit: int = EXACT_LIMIT,
    progress: Progress | None = None,
) -> EquityResult:
    """Each player's win, tie and equity (Stud8: also high, low, scoop).

    ``players`` are hands in the notation of :mod:`stud.equity.notation`,
    ``dead`` the cards out of play (``??`` for unseen ones), ``community``
    the R12 community card once dealt. ``method="auto"`` enumerates when the
    run-outs number at most ``exact_limit`` and otherwise samples ``samples``
    run-outs from ``seed``; ``workers`` processes share the work, with the
    same result as one.
    """
    deal = make_deal(game, players, dead, community)
    if method not in ("auto", "exact", "sample"):
        raise ValueError(f"unknown method {method!r}: use auto, exact or sample")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    total = deal.runouts
    if method == "exact" or (method == "auto" and total <= exact_limit):
        # Several tasks per worker, so that all of them have work to the end.
        size = min(exact.TASK_RUNOUTS, -(-total // (4 * workers)))
        tasks = exact.plan(deal, size if workers > 1 else exact.TASK_RUNOUTS)
        tally = run_tasks(partial(exact.run, deal), tasks, deal.players, workers, progress)
        if tally.runouts != total:
            raise AssertionError(f"enumerated {tally.runouts} run-outs, expected {total}")
        return _result(deal, tally, "exact", None)
    if seed is None:
        seed = secrets.randbits(32)
    limit = min(TABLE_LIMIT, samples // 2)
    tally = run_tasks(
        partial(sample.run, deal, seed, table_limit=limit),
        sample.plan(samples),
        deal.players,
        workers,
        progress,
    )
    return _result(deal, tally, "sampled", seed)


def _result(
    deal: Deal, tally: Tally, method: Literal["exact", "sampled"], seed: int | None
) -> EquityResult:
    pot = pot_units(deal.players)
    hilo = deal.game == "stud8"
    players = []
    for i, hand in enumerate(deal.hands):
        stderr = None
        if method == "sampled":
            stderr = _stderr(int(tally.units[i]), int(tally.units_sq[i]), tally.runouts, pot)
        players.append(
            PlayerEquity(
                hand=str(hand),
                runouts=tally.runouts,
                wins=int(tally.wins[i]),
                ties=int(tally.ties[i]),
                share=Fraction(int(tally.units[i]), pot),
                hilo=hilo,
                scoops=int(tally.scoops[i]) if hilo else 0,
                high_share=Fraction(int(tally.high_units[i]), pot) if hilo else Fraction(0),
                low_share=Fraction(int(tally.low_units[i]), pot) if hilo else Fraction(0),
                stderr=stderr,
            )
        )
    return EquityResult(
        game=deal.game,
        players=tuple(players),
        method=method,
        runouts=tally.runouts,
        total_runouts=deal.runouts,
        dead=format_cards(deal.dead) + " ??" * deal.unseen_dead,
        community=str(deal.community) if deal.community is not None else None,
        r12=deal.r12,
        low_runouts=tally.low_runouts if hilo else 0,
        seed=seed,
    )


def _stderr(total: int, squares: int, count: int, pot: int) -> float:
    """Standard error of the mean share, from the sum and sum of squares (in pot units)."""
    if count < 2:
        return float("nan")
    mean = Fraction(total, count)
    variance = (Fraction(squares, count) - mean * mean) * Fraction(count, count - 1)
    return sqrt(max(0.0, float(variance)) / count) / pot
