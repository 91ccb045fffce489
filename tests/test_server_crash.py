"""kill -9 a real server mid-hand, several times: nothing is lost, on SQLite and PostgreSQL.

After each kill: the finished hands and their chip movements are still there;
the restart voids the hand that was running and every player has back what it
put into it (the chips of a hand in progress reach the ledger only with its
result, so the ledger still holds each stack as the hand found it, and any chip
a pot holds goes back to who put it in); the ledger's total is what it was,
and no chip is left in a pot or on a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from stud.history import write_phh
from stud.history.played import load_played
from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.testing.server import (
    Client,
    ServerProcess,
    ServerSpec,
    hand_factory_args,
)

ARGS = (
    "--turn-seconds", "5", "--time-bank", "1", "--pause", "0.05",
    "--bot-delay", "0.005", "0.02", "--no-default-tables", "--seed", "5",
)  # fmt: skip


def factory_args() -> tuple[str, ...]:
    """The engine when it imports; else the test double (these checks are the server's own)."""
    return hand_factory_args("tests.test_table_double:start_double")


def snapshot(db: Database) -> dict[str, object]:
    store = db.store

    def read(conn: object) -> dict[str, object]:
        from sqlalchemy import Connection

        assert isinstance(conn, Connection)
        hands = conn.execute(
            select(s.hands.c.id, s.hands.c.status, s.hands.c.pot, s.hands.c.played)
        ).all()
        entries = conn.execute(select(s.ledger.c.id, s.ledger.c.amount, s.ledger.c.kind)).all()
        return {
            "finished": {
                int(h.id): (int(h.pot), h.played) for h in hands if h.status == "finished"
            },
            "running": {int(h.id) for h in hands if h.status == "running"},
            "void": {int(h.id) for h in hands if h.status == "void"},
            "entries": {int(e.id): (int(e.amount), str(e.kind)) for e in entries},
            "total": store.ledger_total(conn),
            "holdings": store.holdings(conn),
            "contributions": {
                int(h.id): store.pot_contributions(conn, int(h.id))
                for h in hands
                if h.status == "running"
            },
        }

    return db.read_sync(read)


def wait_for_play(db: Database, finished: int, timeout: float = 180.0) -> None:
    """Until ``finished`` hands are stored and another is running (the timeout bounds a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        state = snapshot(db)
        if len(state["finished"]) >= finished and state["running"]:  # type: ignore[arg-type]
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"no play on the table: {state['finished']} {state['running']}")
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_kill_9_mid_hand_loses_nothing(
    backend: str,
    tmp_path: Path,
    database_factory: Callable[[str], str],
    server_factory: Callable[..., ServerProcess],
) -> None:
    spec = ServerSpec(ARGS + factory_args())
    url = database_factory(backend)
    db = Database(url)
    voided_total = 0
    finished_so_far = 0
    # Each round kills at a different moment: after more finished hands, a little later on.
    for round_number, (more_hands, extra) in enumerate(((1, 0.0), (2, 0.04), (3, 0.15))):
        server = server_factory(spec, url, tmp_path)
        if round_number == 0:
            guest = Client.guest(server.base)
            response = httpx.post(
                server.base + "/api/tables",
                json={"name": "crash", "game": "stud8", "ante": 1, "bring_in": 2,
                      "small_bet": 4, "big_bet": 8, "seats": 6, "bots": 5},
                cookies={"stud_session": guest.cookie or ""},
                timeout=10,
            )  # fmt: skip
            assert response.status_code == 201
        wait_for_play(db, finished_so_far + more_hands)
        time.sleep(extra)
        server.kill()
        before = snapshot(db)
        assert before["finished"], "some hands finished before the kill"
        # Every finished hand is stored as played, and its histories are written from it.
        for _pot, played in before["finished"].values():  # type: ignore[attr-defined]
            assert write_phh(load_played(played)).startswith('variant = "F7S/8"')
        server = server_factory(spec, url, tmp_path)
        recovered = httpx.get(server.base + "/api/health", timeout=5).json()["recovered"]
        server.kill()  # again at once: recovery must already be committed
        after = snapshot(db)
        # Finished hands and every chip movement stay as they were.
        finished_after = after["finished"]
        assert isinstance(finished_after, dict)
        for hand_id, record in before["finished"].items():  # type: ignore[attr-defined]
            assert finished_after[hand_id] == record
        entries_after = after["entries"]
        assert isinstance(entries_after, dict)
        for entry_id, entry in before["entries"].items():  # type: ignore[attr-defined]
            assert entries_after[entry_id] == entry
        # The hand in progress is void and its chips went back to who put them in.
        assert before["running"] <= after["void"]  # type: ignore[operator]
        refunds: dict[int, int] = {}
        for entry_id, (amount, kind) in entries_after.items():
            if entry_id not in before["entries"] and kind == "void_refund":  # type: ignore[operator]
                refunds[entry_id] = amount
        contributions = before["contributions"]
        assert isinstance(contributions, dict)
        expected = sum(sum(c.values()) for c in contributions.values())
        assert sum(a for a in refunds.values() if a > 0) == expected
        voided_total += len(before["running"])  # type: ignore[arg-type]
        finished_so_far = len(finished_after)
        # The books balance and nothing is left in a pot or on a table.
        assert before["total"] == after["total"] == 0
        # Every stack went back to its owner's balance before the tables reopened.
        held = before["holdings"]
        assert isinstance(held, dict)
        assert recovered == {
            "voided": len(before["running"]),  # type: ignore[arg-type]
            "refunded": expected,
            "cashed_out": held["table"] + held["pot"],
        }
        holdings = after["holdings"]
        assert isinstance(holdings, dict)
        assert sum(holdings.values()) == 0
    db.close()
    assert voided_total >= 1, "at least one kill landed mid-hand"
