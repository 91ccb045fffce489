"""A 100-player multi-table tournament of bots through the room's real layers, to a winner.

The room's tournament actor runs it as it runs any (bots think in their threads,
every step is stored with the tournament's snapshot in SQLite), on a quick clock:
2-second levels, no pause between hands, bots that act at once. After every step
the test checks that every chip of the field is still in play and, after every
hand, that the table that played it is balanced against the others (within one
player) unless a table is due to break; whenever every table is between hands,
all of them are balanced. At the end: one winner, every place from 1 to 100, the
prizes of the payout table in the winners' balances, and the books at zero.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import Connection, func, select

from stud.server.actors.tournament import TournamentActor
from stud.server.room.desk import TourneyTemplate
from stud.server.room.room import RoomConfig
from stud.server.storage import Database, tourneys
from stud.server.storage import schema as s
from stud.table import Effect
from stud.testing.server import play_room_tournament
from stud.tournament import TableOut, TourneyOut, balanced, prizes, tables_to_break

PLAYERS = 100
SEATS = 8


class Checks:
    """What the observer saw: hands, steps, and the checks it made."""

    def __init__(self) -> None:
        self.hands = 0
        self.steps = 0
        self.balanced_rounds = 0

    def __call__(self, actor: TournamentActor, outs: list[TourneyOut]) -> None:
        t = actor.t
        self.steps += 1
        if t.state in ("running", "finished"):
            chips = len(t.entrants) * t.settings.structure.starting_chips
            assert t.chips_in_play() == chips, "chips are conserved"
        counts = t.head_counts()
        for out in outs:
            if not isinstance(out, TableOut) or not isinstance(out.item, Effect):
                continue
            if out.item.kind != "hand_finished":
                continue
            self.hands += 1
            if out.table in counts and len(counts) > 1 and not tables_to_break(counts, SEATS):
                assert counts[out.table] <= min(counts.values()) + 1, counts
        if t.state == "running" and all(table.hand is None for table in t.tables.values()):
            self.balanced_rounds += 1
            assert balanced(counts, SEATS), counts


@pytest.mark.slow
def test_a_hundred_bots_play_a_tournament_to_its_winner(tmp_path: Path) -> None:
    pytest.importorskip("stud.table.engine")
    db = Database(f"sqlite:///{tmp_path / 'mtt.sqlite3'}")
    config = RoomConfig(
        turn_seconds=5.0, time_bank=1.0, pause_between_hands=0.0, bot_delay=(0.0, 0.0),
        bot_kind="random", default_tables=(), default_tournaments=(), seed=3,
    )  # fmt: skip
    template = TourneyTemplate(
        "century", "Century", "stud", kind="mtt", seats=SEATS, buy_in=50, fee=5,
        level_seconds=2.0, lead=0.5,
    )  # fmt: skip
    checks = Checks()
    actor = asyncio.run(play_room_tournament(db, config, template, PLAYERS, checks))
    t = actor.t
    assert t.state == "finished" and len(t.entrants) == PLAYERS
    finishes = t.finishes()
    # Every entrant placed: 1 to 100, players who bust in one hand with equal chips tied.
    places = sorted(f.place for f in finishes)
    assert len(places) == PLAYERS and places.count(1) == 1
    assert all(p == k + 1 or p == places[k - 1] for k, p in enumerate(places))
    pool = 50 * PLAYERS
    paid = sorted((f.prize for f in finishes if f.prize), reverse=True)
    assert sum(paid) == pool and len(paid) >= len(prizes(pool, PLAYERS))
    winner = next(f.account_id for f in finishes if f.place == 1)
    assert next(f.prize for f in finishes if f.place == 1) == prizes(pool, PLAYERS)[0]

    def books(conn: Connection) -> tuple[int, int, dict[int, int], int]:
        tables = select(s.room_tables.c.id).where(s.room_tables.c.tournament_id == t.settings.id)
        stored = select(func.count()).where(
            s.hands.c.table_id.in_(tables), s.hands.c.status == "finished"
        )
        return (
            db.store.ledger_total(conn),
            tourneys.pool(db.store, conn, t.settings.id),
            tourneys.prizes_paid(conn, t.settings.id),
            int(conn.execute(stored).scalar_one()),
        )

    total, left, prizes_paid, hands = db.read_sync(books)
    assert total == 0 and left == 0
    assert hands == checks.hands > 0  # every hand played is stored
    assert prizes_paid[winner] == paid[0]
    assert sorted(prizes_paid.values(), reverse=True) == paid
    db.close()
