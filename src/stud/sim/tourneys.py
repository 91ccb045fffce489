"""Many bot tournaments: each one a task, seeded apart, results pooled by bot kind.

A tournament study (does a bot finish better than another, over thousands
of tournaments?) is cut into tournaments, tournament ``k`` seeded with
``seed + k`` alone, so the study gives the same places whether its
tournaments are played here, on local processes or on Ray
(:mod:`stud.sim.workers`). Each task returns its tournaments' summaries
(:meth:`stud.tournament.offline.OfflineResult.summary`), small enough to
send back from a remote node.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stud.bots import parse_bots
from stud.sim.run import spans
from stud.sim.stats import Z95, Moments
from stud.sim.workers import Progress, Workers, run_tasks
from stud.tournament.offline import offline_settings, run_offline
from stud.tournament.settings import TournamentSettings


@dataclass(frozen=True, slots=True)
class TourneyStudy:
    """``tournaments`` tournaments alike but for their seeds: the bots, the field, the structure."""

    game: str
    players: int
    bots: tuple[str, ...]
    tournaments: int = 1
    seed: int = 0
    table_seats: int = 8
    starting_chips: int = 1500
    level_hands: int = 10
    buy_in: int = 100
    fee: int = 10
    batch: int = 1
    """Tournaments per task: one holds hundreds of hands, far above a task's cost on Ray."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", tuple(parse_bots(",".join(self.bots))))
        if not self.bots:
            raise ValueError("--bots names no bot")
        if self.players < 2:
            raise ValueError(f"--players must be at least 2, not {self.players}")
        if self.tournaments < 1:
            raise ValueError(f"--tournaments must be at least 1, not {self.tournaments}")
        if self.batch < 1:
            raise ValueError(f"a task holds at least one tournament, not {self.batch}")
        self.settings()

    def settings(self) -> TournamentSettings:
        return offline_settings(
            self.game, self.players, table_seats=self.table_seats,
            starting_chips=self.starting_chips, level_hands=self.level_hands,
            buy_in=self.buy_in, fee=self.fee,
        )  # fmt: skip

    def seed_of(self, k: int) -> int:
        """Tournament ``k``'s seed: the study's seed plus ``k`` (tournament 0 is ``--seed``'s)."""
        return self.seed + k

    def batches(self) -> list[tuple[int, int]]:
        """(first tournament, count) of every task, in order."""
        return spans(self.tournaments, self.batch)


def play_tourneys(
    study: TourneyStudy, start: int, count: int, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Tournaments ``start`` .. ``start + count - 1``: each one's summary, with its seed.

    ``progress`` (in this process only) hears how many more players are out.
    """
    out = []
    for k in range(start, start + count):
        told = 0

        def busted(now_out: int) -> None:
            nonlocal told
            if progress is not None and now_out > told:
                progress(now_out - told)
                told = now_out

        seed = study.seed_of(k)
        result = run_offline(study.settings(), study.bots, study.players, seed=seed,
                             progress=busted)  # fmt: skip
        busted(study.players - 1)
        out.append({"seed": seed, **result.summary()})
    return out


def play_study(
    study: TourneyStudy, workers: int | Workers = 1, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Every tournament's summary, in order; ``progress`` hears players out."""
    tasks = [(study, start, count) for start, count in study.batches()]
    parts = run_tasks(play_tourneys, tasks, workers, progress, unit=study.players - 1)
    return [summary for part in parts for summary in part]


def pooled(study: TourneyStudy, summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The study by bot kind: entries, average place, paid places, prizes, net per entry (CI).

    A tournament is one draw of each kind's net per entry; the 95% interval
    is over tournaments (none below two).
    """
    kinds: dict[str, dict[str, Any]] = {}
    for summary in summaries:
        for row in summary["bots"]:
            blank = {"players": 0, "places": 0, "in_the_money": 0, "prizes": 0, "net": 0}
            kind = kinds.setdefault(row["bot"], blank | {"draws": Moments()})
            kind["players"] += row["players"]
            kind["places"] += row["average_place"] * row["players"]
            kind["in_the_money"] += row["in_the_money"]
            kind["prizes"] += row["prizes"]
            kind["net"] += row["net"]
            per_entry = float(row["net"]) / row["players"]
            kind["draws"] += Moments(1, per_entry, per_entry**2)
    by_bot = []
    for name, kind in sorted(kinds.items()):
        draws: Moments = kind["draws"]
        half = Z95 * math.sqrt(draws.variance / draws.count) if draws.count >= 2 else None
        by_bot.append({
            "bot": name, "players": kind["players"],
            "average_place": kind["places"] / kind["players"],
            "in_the_money": kind["in_the_money"], "prizes": kind["prizes"], "net": kind["net"],
            "net_per_entry": draws.mean, "net_per_entry_ci95": half,
        })  # fmt: skip
    return {
        "game": study.settings().game,
        "tournaments": len(summaries),
        "entrants": study.players,
        "seed": study.seed,
        "hands": sum(s["hands"] for s in summaries),
        "buy_in": study.buy_in,
        "fee": study.fee,
        "bots": by_bot,
        "runs": [
            {
                "seed": s["seed"],
                "hands": s["hands"],
                "levels": s["levels"],
                "winner": s["places"][0]["bot"],
            }
            for s in summaries
        ],
    }
