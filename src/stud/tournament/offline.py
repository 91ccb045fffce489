"""A whole bot tournament offline: the real tables and hands, a made-up clock, no waiting.

Bots act the instant their turn comes, so every table's hand is played out at
the moment it is dealt, and the clock then jumps to the next thing due (the
pause between hands, standing for how long a hand takes). That makes the
tables play in step, which is what the balancing rules assume at their
strictest: once every table has finished its hand, tables differ by at most one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final

from stud.bots import Bot, ask, make_bot
from stud.table import Effect, Event, Out
from stud.table.engine import EngineHand
from stud.tournament.histories import hand_histories
from stud.tournament.places import Finish
from stud.tournament.settings import Kind, TournamentSettings
from stud.tournament.state import RUNNING, TableOut, TourneyOut
from stud.tournament.structure import Structure
from stud.tournament.tournament import Tournament

CLOCK_ZERO: Final = datetime(2026, 1, 1, 12, 0, 0)
"""When an offline tournament's made-up clock starts, for the hands' time stamps."""

Watch = Callable[[Tournament, list[TourneyOut], float], None]
"""Called with the tournament and what each call returned, and the clock (tests check here)."""


@dataclass(frozen=True, slots=True)
class OfflineResult:
    """The finished tournament, each entrant's bot, and the hands dealt."""

    tournament: Tournament
    bots: dict[int, str]
    hands: int

    def finishes(self) -> list[Finish]:
        return self.tournament.finishes()

    def summary(self) -> dict[str, Any]:
        """Places and prizes, and by bot kind: players, average place, paid places, net."""
        t = self.tournament
        s = t.settings
        names = {e.id: e.name for e in t.entrants.values()}
        places = [
            {"place": f.place, "name": names[f.account_id], "bot": self.bots[f.account_id],
             "prize": f.prize}
            for f in self.finishes()
        ]  # fmt: skip
        kinds: dict[str, list[dict[str, Any]]] = {}
        for row in places:
            kinds.setdefault(str(row["bot"]), []).append(row)
        cost = s.buy_in + s.fee
        by_bot = [
            {
                "bot": kind,
                "players": len(rows),
                "average_place": sum(r["place"] for r in rows) / len(rows),
                "in_the_money": sum(1 for r in rows if r["prize"]),
                "prizes": sum(r["prize"] for r in rows),
                "net": sum(r["prize"] for r in rows) - cost * len(rows),
            }
            for kind, rows in sorted(kinds.items())
        ]
        return {
            "game": s.game,
            "entrants": len(t.entrants),
            "hands": self.hands,
            "buy_in": s.buy_in,
            "fee": s.fee,
            "prize_pool": t.pool,
            "levels": t.level_shown,
            "places": places,
            "bots": by_bot,
        }


class HistoryWriter:
    """Watches an offline tournament and keeps every hand as PokerStars text and PHH.

    A hand's closing lines (who finished the tournament in it) may come after the
    hand: in hand-for-hand play the round's busts are placed when every table has
    finished. So the texts are written when first asked for, once the play is over.
    """

    def __init__(self, settings: TournamentSettings) -> None:
        self.settings = settings
        self._hands: list[tuple[TableOut, float]] = []
        self._placings: dict[tuple[int, int], list[list[int | None]]] = {}
        self._texts: tuple[list[str], list[str]] | None = None

    def __call__(self, tournament: Tournament, outs: list[TourneyOut], now: float) -> None:
        for out in outs:
            if isinstance(out, Event) and out.kind == "placings":
                self._placings[(out.data["table"], out.data["hand"])] = out.data["placings"]
            elif isinstance(out, TableOut) and _is_finish(out.item):
                self._hands.append((out, now))
        self._texts = None

    def _write(self) -> tuple[list[str], list[str]]:
        if self._texts is None:
            phhs: list[str] = []
            texts: list[str] = []
            for hand_id, (out, now) in enumerate(self._hands, start=1):
                time = CLOCK_ZERO + timedelta(seconds=now)
                closing = self._placings.get((out.table, out.item.data["number"]), [])
                phh, text = hand_histories(self.settings, out, hand_id, time=time, placings=closing)
                phhs.append(f"[{hand_id}]\n{phh}")
                texts.append(text)
            self._texts = (texts, phhs)
        return self._texts

    @property
    def pokerstars(self) -> list[str]:
        """Every hand as PokerStars text, in the order they finished."""
        return self._write()[0]

    @property
    def phh(self) -> list[str]:
        """Every hand as a PHH section (``[N]`` then the fields)."""
        return self._write()[1]

    def save(self, folder: Path) -> list[Path]:
        """Write ``tournament-ID.txt`` (PokerStars) and ``tournament-ID.phhs``; their paths."""
        folder.mkdir(parents=True, exist_ok=True)
        stem = folder / f"tournament-{self.settings.id}"
        text = stem.with_suffix(".txt")
        text.write_text("\n\n\n\n".join(self.pokerstars) + "\n", encoding="utf-8")
        phh = stem.with_suffix(".phhs")
        phh.write_text("\n".join(self.phh), encoding="utf-8")
        return [text, phh]


def offline_settings(
    game: str,
    players: int,
    *,
    table_seats: int = 8,
    starting_chips: int = 1500,
    level_hands: int = 10,
    buy_in: int = 100,
    fee: int = 10,
) -> TournamentSettings:
    """A tournament for bots: a Sit & Go if one table holds them all, else a multi-table one.

    Each hand counts as a minute of the clock; levels last ``level_hands`` hands.
    """
    structure = Structure(starting_chips=starting_chips, level_seconds=60.0 * level_hands)
    kind: Kind = "sng" if players <= table_seats else "mtt"
    return TournamentSettings(
        id=1, name=f"{game} bots", game=game, kind=kind, buy_in=buy_in, fee=fee,
        structure=structure, table_seats=players if kind == "sng" else table_seats,
        start_at=None if kind == "sng" else 0.0, pause_between_hands=60.0,
    )  # fmt: skip


def run_offline(
    settings: TournamentSettings,
    bots: Sequence[str],
    players: int,
    *,
    seed: int | None = None,
    watch: Watch | None = None,
    progress: Callable[[int], None] | None = None,
    max_hands: int = 1_000_000,
) -> OfflineResult:
    """Register ``players`` bots (names cycling through ``bots``) and play to a winner.

    ``progress`` gets the number of players out so far after every round of hands.
    """
    if players < 2:
        raise ValueError("a tournament needs at least two players")
    if not bots:
        raise ValueError("name at least one bot")
    tournament = Tournament(settings, seed=seed)
    brains: dict[int, Bot] = {}
    kinds: dict[int, str] = {}
    base = 0 if seed is None else seed * 7919
    now = 0.0

    hands = 0

    def call(outs: list[TourneyOut]) -> None:
        nonlocal hands
        hands += sum(1 for o in outs if isinstance(o, TableOut) and _is_finish(o.item))
        if watch is not None:
            watch(tournament, outs, now)

    for k in range(players):
        name = bots[k % len(bots)]
        account = k + 1
        brains[account] = make_bot(name, None if seed is None else base + account)
        kinds[account] = name
        call(tournament.register(account, f"{name}-{account}", now, bot=True))
    call(tournament.tick(now))
    while tournament.state == RUNNING:
        _play_turns(tournament, brains, now, call)
        if progress is not None:
            progress(tournament.standings.busted)
        if hands > max_hands:
            raise RuntimeError(f"no winner after {max_hands} hands")
        wake = tournament.wakeup()
        if wake is None or tournament.state != RUNNING:
            break
        now = max(now, wake)
        call(tournament.tick(now))
    return OfflineResult(tournament, kinds, hands)


def _is_finish(item: Out) -> bool:
    return isinstance(item, Effect) and item.kind == "hand_finished"


def bot_step(tournament: Tournament, brains: dict[int, Bot], now: float) -> list[TourneyOut] | None:
    """One bot's action at the first table (by number) waiting on one; None if none waits."""
    if tournament.state != RUNNING:
        return None
    for table in tournament.tables.values():
        seat = table.actor_seat
        if seat is None:
            continue
        player = table.seats[seat]
        hand = table.hand
        assert player is not None and player.index is not None
        assert isinstance(hand, EngineHand)
        action = ask(brains[player.id], hand.hand, player.index)
        return tournament.act(player.id, action.kind.value, action.to, table.turn_id, now)
    return None


def _play_turns(
    tournament: Tournament,
    brains: dict[int, Bot],
    now: float,
    call: Callable[[list[TourneyOut]], None],
) -> None:
    """Let the bots act at every table until no hand waits on anyone."""
    while (outs := bot_step(tournament, brains, now)) is not None:
        call(outs)
