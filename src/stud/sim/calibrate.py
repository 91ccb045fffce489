"""Where a bot wins and loses: a heads-up duplicate match with every decision logged.

The tool that found the strong bot's leaks (issue 18). For each decision of
either bot it records the situation (street, and whether it opens, posts
the bring-in, faces a completion, a bet or a raise) and the action taken, so
action frequencies can be compared with pot odds; for each hand, on which
street and how it ended (a fold by either side, or the showdown) and what
the hero won there. For a hero that exposes the values it weighed
(``last_choices``, as :class:`stud.bots.StrongBot` does), each chosen
action's predicted value is set beside what it really won from that point
on (the hand's net result plus what the bot had already put in): a model
that overrates an action shows a negative bias there.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from stud.bots import Bot, observe, play_hand
from stud.bots.seen import read_view
from stud.cards import Deck
from stud.game import Acted, Action, ActionKind, Hand, HandView, StreetStarted
from stud.sim.duplicate import MatchConfig
from stud.sim.run import make_players, session_seeds


def situation(view: HandView, legal: Sequence[Action]) -> str:
    """The decision's situation: ``"3-bring-in"``, ``"5-vs-bet"``, ``"3-vs-raise"`` and so on."""
    seen = read_view(view)
    if seen.street == 3:
        if any(a.kind is ActionKind.BRING_IN for a in legal):
            return "3-bring-in"
        if seen.wagers == 0:
            return "3-open"
        facing = "complete" if seen.wagers == 1 else "raise"
        return f"3-{'bring-in-' if seen.my_line.brought_in else ''}vs-{facing}"
    if seen.to_call == 0:
        return f"{seen.street}-open"
    return f"{seen.street}-vs-{'bet' if seen.wagers == 1 else 'raise'}"


@dataclass(slots=True)
class Tally:
    """A running mean of predicted and realized chips, with the realized spread."""

    count: int = 0
    predicted: float = 0.0
    realized: float = 0.0
    squares: float = 0.0

    def add(self, predicted: float, realized: float) -> None:
        self.count += 1
        self.predicted += predicted
        self.realized += realized
        self.squares += realized * realized

    @property
    def bias(self) -> float:
        """Realized minus predicted, on average: negative where the model overrates."""
        return (self.realized - self.predicted) / max(self.count, 1)

    @property
    def error(self) -> float:
        """Two standard errors of the realized mean."""
        if self.count < 2:
            return math.inf
        mean = self.realized / self.count
        variance = max(0.0, self.squares / self.count - mean * mean)
        return 2.0 * math.sqrt(variance / self.count)


@dataclass(slots=True)
class Calibration:
    """What a match showed: frequencies, hand endings, predicted against realized values."""

    hero: str
    villain: str
    hands: int = 0
    hero_bb: list[float] = field(default_factory=list)
    """The hero's big bets per deal (the mean of its two plays)."""
    actions: dict[str, Counter[tuple[str, str]]] = field(default_factory=dict)
    """Per side (``"hero"``, ``"villain"``): counts of (situation, action kind)."""
    endings: Counter[tuple[int, str]] = field(default_factory=Counter)
    ending_bb: dict[tuple[int, str], float] = field(default_factory=dict)
    """Per ending, the hero's big bets won in those hands."""
    values: dict[tuple[str, str], Tally] = field(default_factory=dict)


class _Logged:
    """A bot whose every decision is logged into a :class:`Calibration`."""

    def __init__(self, bot: Bot, side: str, log: Calibration, pending: list[_Pending]) -> None:
        self.bot = bot
        self.side = side
        self.log = log
        self.pending = pending

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        observe(self.bot, view, players)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        where = situation(view, legal)
        self.log.actions.setdefault(self.side, Counter())[(where, action.kind.name)] += 1
        choices = getattr(self.bot, "last_choices", ())
        if self.side == "hero" and choices and view.viewer is not None:
            value = next((c.value for c in choices if c.action == action), None)
            if value is not None:
                stack = view.seats[view.viewer].stack
                self.pending.append(_Pending(where, action.kind.name, value, stack))
        return action


@dataclass(frozen=True, slots=True)
class _Pending:
    situation: str
    action: str
    predicted: float
    stack: int


def calibrate(config: MatchConfig) -> Calibration:
    """Play ``config`` heads-up (duplicate, one process) with every decision logged."""
    if config.seats != 2:
        raise ValueError("calibration plays heads-up matches only")
    log = Calibration(config.hero, config.villain)
    table = config.table()
    big = config.stakes.big_bet
    pending: list[_Pending] = []
    for start, count in config.sessions():
        deck_seed, bot_seeds = session_seeds(config.seed, start, 2)
        made = make_players(config.players, bot_seeds)
        players = [
            _Logged(made[0], "hero", log, pending),
            _Logged(made[1], "villain", log, pending),
        ]
        decks = random.Random(deck_seed)
        for _ in range(count):
            deal = decks.getrandbits(64)
            total = 0.0
            for play in range(2):
                seats = [(seat - play) % 2 for seat in range(2)]
                hand = Hand(table, deck=Deck(seed=deal))
                events = play_hand(hand, [players[p] for p in seats], seats)
                result = hand.result
                assert result is not None
                hero = seats.index(0)
                net = result.net[hero]
                for item in pending:
                    realized = net + (table.stacks[hero] - item.stack)
                    tally = log.values.setdefault((item.situation, item.action), Tally())
                    tally.add(item.predicted, realized)
                pending.clear()
                key = _ending(events, hero)
                log.endings[key] += 1
                log.ending_bb[key] = log.ending_bb.get(key, 0.0) + net / big
                total += net / big
                log.hands += 1
            log.hero_bb.append(total / 2)
    return log


def _ending(events: Sequence[object], hero: int) -> tuple[int, str]:
    """The street a hand ended on, and how: ``hero folds``, ``villain folds`` or ``showdown``."""
    street = 3
    last: Acted | None = None
    for event in events:
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, Acted):
            last = event
    if last is not None and last.kind is ActionKind.FOLD:
        return street, "hero folds" if last.seat == hero else "villain folds"
    return street, "showdown"


def calibration_report(log: Calibration, *, least: int = 20) -> str:
    """The calibration as text: result, endings, frequencies, predicted against realized."""
    n = len(log.hero_bb)
    mean = sum(log.hero_bb) / max(n, 1)
    spread = math.sqrt(sum((x - mean) ** 2 for x in log.hero_bb) / max(n - 1, 1))
    ci95 = 196 * spread / math.sqrt(max(n, 1))
    lines = [
        f"{log.hero} vs {log.villain}: {100 * mean:+.2f} ± {ci95:.2f}"
        f" bb/100 over {log.hands:,} hands (duplicate, heads-up)",
        "",
        "hands ending on each street, and what the hero won there (bb/100 of all hands):",
    ]
    for key in sorted(log.endings):
        share = log.endings[key] / max(log.hands, 1)
        won = 100 * log.ending_bb[key] / max(log.hands, 1)
        lines.append(f"  {key[0]} {key[1]:14} {log.endings[key]:7,} {share:6.1%} {won:+8.2f}")
    for side, name in (("hero", log.hero), ("villain", log.villain)):
        lines += ["", f"{name}'s actions by situation:"]
        counts = log.actions.get(side, Counter())
        for where in sorted({w for w, _ in counts}):
            kinds = {k: c for (w, k), c in counts.items() if w == where}
            total = sum(kinds.values())
            shares = " ".join(f"{k.lower()} {c / total:.0%}" for k, c in sorted(kinds.items()))
            lines.append(f"  {where:22} {total:6,}  {shares}")
    if log.values:
        lines += ["", f"{log.hero}'s chosen actions: predicted and realized chips (±2 s.e.)"]
        for (where, kind), tally in sorted(log.values.items()):
            if tally.count < least or kind == ActionKind.FOLD.name:
                continue
            lines.append(
                f"  {where:22} {kind.lower():9} {tally.count:6,}"
                f"  predicted {tally.predicted / tally.count:+8.1f}"
                f"  realized {tally.realized / tally.count:+8.1f} ± {tally.error:6.1f}"
                f"  bias {tally.bias:+7.1f}"
            )
    return "\n".join(lines)
