"""A tournament as it stands, and what can be read from it: entrants, tables, levels, chips.

:class:`TournamentState` holds a tournament's fields and answers questions
about them (the prize pool, the level in play, who is still in, the next time
something is due); :class:`~stud.tournament.tournament.Tournament` extends it
with what changes them, and :mod:`~stud.tournament.views` makes its views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stud.table import Effect, Event, Out, Player, Table
from stud.tournament.payouts import paid_places, prizes
from stud.tournament.places import Bust, Finish, Standings
from stud.tournament.settings import TournamentSettings
from stud.tournament.structure import Level

REGISTERING = "registering"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"


@dataclass(slots=True)
class TableOut:
    """A table's event or effect, with the table's number and the level of its hand."""

    table: int
    item: Out
    level: int


TourneyOut = TableOut | Event | Effect


@dataclass(slots=True)
class Entrant:
    """A registered player (a person or a bot) and their money in the tournament."""

    id: int
    name: str
    bot: bool
    registered_at: float
    buy_in: int
    fee: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "bot": self.bot,
            "registered_at": self.registered_at, "buy_in": self.buy_in, "fee": self.fee,
        }  # fmt: skip


class TournamentState:
    """A tournament's entrants, tables, clock and standings (see the module docstring)."""

    def __init__(self, settings: TournamentSettings, *, seed: int | None = None) -> None:
        self.settings = settings
        self.seed = seed
        self.state = REGISTERING
        self.entrants: dict[int, Entrant] = {}
        self.standings = Standings()
        self.tables: dict[int, Table] = {}
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self.level_shown = 0
        self.registration_open = True
        self.final_table = False
        self.paid: set[int] = set()
        self.next_table = 1
        self.hand_levels: dict[int, int] = {}
        self.round_active = False
        """A hand-for-hand round is being played (see :meth:`hand_for_hand`)."""
        self.rounds_played = 0
        self.round_busts: list[tuple[int, int, list[dict[str, Any]], list[Bust]]] = []
        """Busts of the round so far: (table, hand number, the hand's players, busts)."""

    # -- queries ---------------------------------------------------------------------------

    @property
    def pool(self) -> int:
        """The prize pool: every entrant's buy-in (the fees are the house's)."""
        return sum(e.buy_in for e in self.entrants.values())

    @property
    def late_registration(self) -> bool:
        return self.state == RUNNING and self.registration_open

    def level_number(self, now: float) -> int:
        if self.started_at is None:
            return 1
        return self.settings.structure.number_at(now - self.started_at)

    def level(self, now: float) -> Level:
        return self.settings.structure.level(self.level_number(now))

    def level_ends_at(self, now: float) -> float | None:
        if self.started_at is None:
            return None
        return self.started_at + self.settings.structure.ends_at(self.level_number(now))

    def registration_closes_at(self) -> float | None:
        """When late registration ends (None: it ends at the start, or the start is not set)."""
        s = self.settings
        if s.kind != "mtt" or s.late_levels == 0 or s.start_at is None:
            return None
        return (self.started_at or s.start_at) + s.structure.ends_at(s.late_levels)

    def table_of(self, account_id: int) -> int | None:
        for table_id, table in self.tables.items():
            if table.seat_of(account_id) is not None:
                return table_id
        return None

    def chips(self, account_id: int) -> int:
        """A player's chips at the start of their hand in progress, else now (0 when out)."""
        table_id = self.table_of(account_id)
        if table_id is None:
            if self.state == REGISTERING and account_id in self.entrants:
                return self.settings.structure.starting_chips
            return 0
        table = self.tables[table_id]
        seat = table.seat_of(account_id)
        assert seat is not None
        player = table.seats[seat]
        assert player is not None
        return _settled_stack(table, player)

    def alive(self) -> list[int]:
        """Entrants still in (seated), once the tournament runs."""
        return [p.id for t in self.tables.values() for _, p in t.players()]

    def chips_in_play(self) -> int:
        """Every chip in the tournament: stacks and what is in the pots of hands in progress."""
        total = 0
        for table in self.tables.values():
            committed = table.hand.committed() if table.hand is not None else []
            for _, player in table.players():
                total += player.stack
                if player.index is not None:
                    total += committed[player.index]
        return total

    def head_counts(self) -> dict[int, int]:
        return {t: len(table.players()) for t, table in self.tables.items()}

    def finishes(self) -> list[Finish]:
        """The places decided so far (and their prizes), best first."""
        if not self.entrants:
            return []
        return self.standings.finishes(len(self.entrants), self.pool)

    def payouts(self) -> list[int]:
        """The prize of each paid place for the field as it stands."""
        return prizes(self.pool, max(1, len(self.entrants)))

    def wakeup(self) -> float | None:
        """The next time :meth:`tick` has something to do."""
        times: list[float] = []
        if self.state == REGISTERING and self.settings.start_at is not None:
            times.append(self.settings.start_at)
        if self.state == RUNNING:
            holding = self.hand_for_hand()
            busy = any(t.hand is not None for t in self.tables.values())
            due = [t.next_hand_at for t in self.tables.values() if t.next_hand_at is not None]
            for table in self.tables.values():
                wake = table.wakeup()
                if wake is not None and not (holding and table.hand is None):
                    times.append(wake)
            if holding and not busy and due:
                times.append(max(due))  # hand for hand: the tables deal together
            closes = self.registration_closes_at()
            if self.registration_open and closes is not None:
                times.append(closes)
            if self.started_at is not None:  # the next level, to announce it on time
                times.append(self.started_at + self.settings.structure.ends_at(self.level_shown))
        return min(times) if times else None

    def hand_for_hand(self) -> bool:
        """Whether tables play hand for hand: on the money bubble (the next player out is
        the last one unpaid) with more than one table, or while such a round finishes.

        Then no table deals until every table has finished its hand, they deal together,
        and the players who bust in one round are placed as if in one hand.
        """
        if self.state != RUNNING:
            return False
        if self.round_active:
            return True
        if self.registration_open or len(self.tables) < 2:
            return False
        return len(self.alive()) == paid_places(len(self.entrants)) + 1


def _settled_stack(table: Table, player: Player) -> int:
    """A player's chips as of the last finished hand: the start of a hand in progress."""
    if table.hand is not None and player.index is not None:
        return player.start_stack
    return player.stack
