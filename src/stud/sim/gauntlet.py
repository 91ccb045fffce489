"""The gauntlet: a bot against each gauntlet opponent, duplicate, heads-up and six-handed.

For each opponent, one duplicate match heads-up and one six-handed (three
seats each, alternating), each deal played from both sides
(:mod:`stud.sim.duplicate`). The summary gives the bot's big bets per 100
hands per seat with 95% intervals. ``reference`` adds, for chosen opponents
(the maniac and the nit, say), what every other gauntlet bot earns against
them heads-up: the yardstick "at least what the best gauntlet bot earns".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from stud.bots import GAUNTLET
from stud.sim.duplicate import MatchConfig, MatchResult, play_match
from stud.sim.run import DEFAULT_STAKES, Stakes
from stud.sim.stats import Rate

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class Row:
    """One match of the gauntlet: the opponent, the table size, the bot's rate per seat."""

    opponent: str
    seats: int
    rate: Rate
    chips: int
    """Net chips of every player over the whole match: 0 when chips are conserved."""

    def to_dict(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "seats": self.seats, **self.rate.to_dict()}


@dataclass(frozen=True, slots=True)
class Gauntlet:
    """A bot's gauntlet: one row per (opponent, table size), and any reference rows."""

    game: str
    bot: str
    deals: int
    rows: tuple[Row, ...]
    reference: tuple[Row, ...] = ()
    """Other gauntlet bots (``rate``) against the chosen opponents (``opponent``), heads-up."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bot": self.bot,
            "deals": self.deals,
            "rows": [r.to_dict() for r in self.rows],
            "reference": [r.to_dict() for r in self.reference],
        }


def match_row(config: MatchConfig, workers: int, progress: Progress | None) -> Row:
    result: MatchResult = play_match(config, workers, progress)
    return Row(config.villain, config.seats, result.hero_rate(), int(result.net.sum()))


def run_gauntlet(
    game: str,
    bot: str = "strong",
    opponents: Sequence[str] = GAUNTLET,
    *,
    deals: int = 1000,
    seats: Sequence[int] = (2, 6),
    seed: int = 0,
    stakes: Stakes = DEFAULT_STAKES,
    workers: int = 1,
    reference: Sequence[str] = (),
    progress: Progress | None = None,
) -> Gauntlet:
    """Play ``bot`` against every opponent at every table size; ``progress`` hears deals done."""
    rows: list[Row] = []
    for opponent in opponents:
        for size in seats:
            config = MatchConfig(game, bot, opponent, deals, size, seed, stakes)
            rows.append(match_row(config, workers, progress))
    extra: list[Row] = []
    for target in reference:
        for other in GAUNTLET:
            if other == target:
                continue
            config = MatchConfig(game, other, target, deals, 2, seed, stakes)
            extra.append(match_row(config, workers, progress))
    return Gauntlet(MatchConfig(game, bot, bot, 1).game, bot, deals, tuple(rows), tuple(extra))


def _cell(rate: Rate) -> str:
    mark = "*" if rate.significant else " "
    return f"{rate.bb_per_100:+7.2f} ± {rate.ci95:5.2f}{mark}"


def gauntlet_table(gauntlet: Gauntlet) -> str:
    """The summary as a Markdown table: one row per opponent, one column per table size."""
    sizes = sorted({r.seats for r in gauntlet.rows})
    by = {(r.opponent, r.seats): r for r in gauntlet.rows}
    opponents = list(dict.fromkeys(r.opponent for r in gauntlet.rows))
    head = " | ".join(f"{'heads-up' if s == 2 else f'{s}-handed'} bb/100 (95% CI)" for s in sizes)
    lines = [
        f"{gauntlet.game}: {gauntlet.bot} against the gauntlet, duplicate, "
        f"{gauntlet.deals:,} deals (x2 hands) per match; * = significant at 95%",
        "",
        f"| opponent | {head} |",
        "|---|" + "---|" * len(sizes),
    ]
    for opponent in opponents:
        cells = " | ".join(
            _cell(by[(opponent, s)].rate) if (opponent, s) in by else "" for s in sizes
        )
        lines.append(f"| {opponent} | {cells} |")
    if gauntlet.reference:
        lines += ["", "reference, heads-up: the gauntlet bots against each other", ""]
        lines += ["| bot | against | bb/100 (95% CI) |", "|---|---|---|"]
        for row in gauntlet.reference:
            lines.append(f"| {row.rate.label} | {row.opponent} | {_cell(row.rate)} |")
    return "\n".join(lines)
