"""The gauntlet: a bot against each gauntlet opponent, duplicate, heads-up and six-handed.

For each opponent, one duplicate match heads-up and one six-handed (three
seats each, alternating), each deal played from both sides
(:mod:`stud.sim.duplicate`). The summary gives the bot's big bets per 100
hands per seat with 95% intervals. ``reference`` adds, for chosen opponents
(the maniac and the nit, say), what every other gauntlet bot earns against
them heads-up: the yardstick "at least what the best gauntlet bot earns".
Beside each raw figure, the luck-adjusted one (:mod:`stud.sim.luck`) and its
variance reduction. Sessions are the unit of work and of record
(:mod:`stud.sim.results`): one pool plays them all, and a results file keeps
each as it ends, so a run resumes, grows, or is reported later.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stud.bots import GAUNTLET, parse_bots
from stud.sim.duplicate import MatchConfig
from stud.sim.results import (
    Pooled,
    SessionRecord,
    append_record,
    code_version,
    latest,
    load_records,
    match_key,
    play_session_record,
    pool,
)
from stud.sim.run import DEFAULT_STAKES, Stakes
from stud.sim.stats import Rate, rate_cell, variance_reduction
from stud.sim.workers import Progress, Workers, run_tasks


@dataclass(frozen=True, slots=True)
class Row:
    """One match of the gauntlet: the opponent, the table size, the bot's rate per seat."""

    opponent: str
    seats: int
    rate: Rate
    chips: int
    """Net chips of every player over the whole match: 0 when chips are conserved."""
    adjusted: Rate | None = None
    """The same less the luck of the cards (:mod:`stud.sim.luck`): unbiased, narrower."""

    @property
    def reduction(self) -> float | None:
        """The variance of the raw estimate over the adjusted one's, at the same hands."""
        return variance_reduction(self.rate, self.adjusted)

    def to_dict(self) -> dict[str, Any]:
        out = {"opponent": self.opponent, "seats": self.seats, **self.rate.to_dict()}
        if self.adjusted is not None:
            out["adjusted"] = self.adjusted.to_dict()
            reduction = self.reduction
            out["variance_reduction"] = None if reduction is None else round(reduction, 3)
        return out


@dataclass(frozen=True, slots=True)
class Gauntlet:
    """A bot's gauntlet: one row per (opponent, table size), and any reference rows."""

    game: str
    bot: str
    deals: int
    rows: tuple[Row, ...]
    reference: tuple[Row, ...] = ()
    """Other gauntlet bots (``rate``) against the chosen opponents (``opponent``), heads-up."""
    played: int = 0
    """Hands played by this run (the rest came from the results file)."""
    cpu: float = 0.0
    """CPU seconds those hands took, wherever they were played."""
    reused: int = field(default=0)
    """Hands taken from the results file instead of being played again."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bot": self.bot,
            "deals": self.deals,
            "rows": [r.to_dict() for r in self.rows],
            "reference": [r.to_dict() for r in self.reference],
            "played_hands": self.played,
            "reused_hands": self.reused,
            "cpu_seconds": round(self.cpu, 2),
        }


def _row(opponent: str, seats: int, pooled: Pooled) -> Row:
    return Row(opponent, seats, pooled.rate, pooled.chips, pooled.adjusted)


def gauntlet_matches(
    game: str,
    bot: str,
    opponents: Sequence[str],
    deals: int,
    seats: Sequence[int],
    seed: int,
    stakes: Stakes,
    reference: Sequence[str],
    luck: bool,
) -> tuple[list[MatchConfig], list[MatchConfig]]:
    """The gauntlet's matches (the bot against each opponent) and its reference matches."""
    rows = [
        MatchConfig(game, bot, opponent, deals, size, seed, stakes, luck=luck)
        for opponent in opponents
        for size in seats
    ]
    extra = [
        MatchConfig(game, other, target, deals, 2, seed, stakes, luck=luck)
        for target in reference
        for other in GAUNTLET
        if other != target
    ]
    return rows, extra


def run_gauntlet(
    game: str,
    bot: str = "strong",
    opponents: Sequence[str] = GAUNTLET,
    *,
    deals: int = 1000,
    seats: Sequence[int] = (2, 6),
    seed: int = 0,
    stakes: Stakes = DEFAULT_STAKES,
    workers: int | Workers = 1,
    reference: Sequence[str] = (),
    progress: Progress | None = None,
    out: Path | None = None,
    luck: bool = True,
) -> Gauntlet:
    """Play ``bot`` against every opponent at every table size; ``progress`` hears deals done.

    Every session of every match is one task for one pool of ``workers``
    processes, or for Ray (:class:`stud.sim.workers.Workers`). With ``out``,
    each finished session is appended to that results file
    (:mod:`stud.sim.results`) and sessions already there are reused, not
    played again: a run resumes, or grows, where it stopped.
    """
    rows, extra = gauntlet_matches(game, bot, opponents, deals, seats, seed, stakes,
                                   reference, luck)  # fmt: skip
    have = latest(load_records(out)) if out is not None else {}
    found: dict[tuple[Any, int], SessionRecord] = {}
    tasks: list[tuple[MatchConfig, int, int]] = []
    for config in [*rows, *extra]:
        key = match_key(config)
        for start, count in config.sessions():
            old = have.get((key, start))
            if old is not None and old.deals == count:
                found[(key, start)] = old
            else:  # not played yet, or only a longer session (moments have no prefix)
                tasks.append((config, start, count))
    reused = sum(r.hands for r in found.values())
    if progress is not None and found:
        progress(sum(r.deals for r in found.values()))

    def save(i: int, record: SessionRecord) -> None:
        found[(match_key(tasks[i][0]), tasks[i][1])] = record
        if out is not None:
            append_record(out, record)

    played = run_tasks(play_session_record, tasks, workers, progress, done=save)

    def pooled(config: MatchConfig) -> Pooled:
        key = match_key(config)
        return pool(found[(key, start)] for start, _ in config.sessions())

    return Gauntlet(
        MatchConfig(game, bot, bot, 1).game,
        parse_bots(bot)[0],
        deals,
        tuple(_row(c.villain, c.seats, pooled(c)) for c in rows),
        tuple(_row(c.villain, c.seats, pooled(c)) for c in extra),
        played=sum(r.hands for r in played),
        cpu=sum(r.cpu for r in played),
        reused=reused,
    )


def report_gauntlet(
    records: Sequence[SessionRecord], game: str, bot: str, code: str | None = None
) -> Gauntlet:
    """The table of every session in a results file for ``game`` and ``bot``, seeds pooled.

    Rows: ``bot`` against each opponent at each table size; reference rows:
    any other hero's heads-up matches in the file. A session present twice
    (the same seed and first deal) counts once, its longest record. Only the
    records of ``code`` (:func:`stud.sim.results.code_version`, this code by
    default) count: another version of the bots measured something else.
    """
    game = MatchConfig(game, bot, bot, 1).game
    bot = parse_bots(bot)[0]
    code = code_version() if code is None else code
    groups: dict[tuple[str, str, int, str], list[SessionRecord]] = {}
    mine = (r for r in records if r.game == game and r.code == code)
    for record in latest(mine).values():
        if record.hero == bot or record.seats == 2:
            key = (record.hero, record.villain, record.seats, record.stakes)
            groups.setdefault(key, []).append(record)
    rows = [
        _row(villain, seats, pool(group))
        for (hero, villain, seats, _), group in groups.items()
        if hero == bot
    ]
    extra = [
        _row(villain, seats, pool(group))
        for (hero, villain, seats, _), group in groups.items()
        if hero != bot
    ]
    deals = {r.rate.hands // 2 for r in rows}
    return Gauntlet(game, bot, deals.pop() if len(deals) == 1 else 0,
                    tuple(sorted(rows, key=_order)), tuple(sorted(extra, key=_order)))  # fmt: skip


def _order(row: Row) -> tuple[int, str, int]:
    known = GAUNTLET.index(row.opponent) if row.opponent in GAUNTLET else len(GAUNTLET)
    return known, row.opponent, row.seats


def _adjusted(row: Row) -> str:
    if row.adjusted is None:
        return "(not measured)"
    reduction = row.reduction
    factor = f" ×{reduction:.1f}" if reduction is not None else ""
    return f"{rate_cell(row.adjusted)}{factor}"


def _size(seats: int) -> str:
    return "heads-up" if seats == 2 else f"{seats}-handed"


def gauntlet_table(gauntlet: Gauntlet) -> str:
    """The summary as a Markdown table: one row per opponent, two columns per table size.

    For each size the raw duplicate figure and, beside it, the luck-adjusted
    one with its variance reduction (×: how many times fewer hands the same
    interval needs).
    """
    sizes = sorted({r.seats for r in gauntlet.rows})
    by = {(r.opponent, r.seats): r for r in gauntlet.rows}
    opponents = list(dict.fromkeys(r.opponent for r in gauntlet.rows))
    uneven = gauntlet.deals == 0
    head = " | ".join(f"{_size(s)} bb/100 (95% CI) | {_size(s)} luck-adjusted" for s in sizes)
    deals = "deals vary (h: hands)" if uneven else f"{gauntlet.deals:,} deals (x2 hands)"
    lines = [
        f"{gauntlet.game}: {gauntlet.bot} against the gauntlet, duplicate, {deals} per match; "
        "* = significant at 95%; luck-adjusted: less the luck of the cards (unbiased), "
        "× its variance reduction",
        "",
        f"| opponent | {head} |",
        "|---|" + "---|---|" * len(sizes),
    ]
    for opponent in opponents:
        cells = []
        for size in sizes:
            row = by.get((opponent, size))
            cells += [rate_cell(row.rate, uneven), _adjusted(row)] if row else ["", ""]
        lines.append(f"| {opponent} | {' | '.join(cells)} |")
    if gauntlet.reference:
        lines += ["", "reference, heads-up: the gauntlet bots against each other", ""]
        lines += ["| bot | against | bb/100 (95% CI) | luck-adjusted |", "|---|---|---|---|"]
        for row in gauntlet.reference:
            lines.append(
                f"| {row.rate.label} | {row.opponent} | {rate_cell(row.rate, uneven)} "
                f"| {_adjusted(row)} |"
            )
    return "\n".join(lines)
