"""``stud admin`` on a room's database with no room running: roles, grants (the ledger still
sums to zero, never below zero), bans, mutes, the audit log, finding accounts, an account's
ledger, a request queued for a room that is not running; and the schema's upgrade of a
database made before accounts had roles."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from stud.cli import main
from stud.cli.admin import parse_when
from stud.server.storage import Database, resolve_url
from stud.server.storage import moderation as desk_db


@pytest.fixture(params=["sqlite", "postgres"])
def room_db(
    request: pytest.FixtureRequest, database_factory: Callable[[str], str]
) -> Iterator[tuple[str, Database]]:
    """A room's database (its URL) with two people (alice: 1,000 chips; bob: none), on
    SQLite and on PostgreSQL."""
    url = resolve_url(database_factory(request.param))
    db = Database(url)
    db.create_schema()
    store = db.store

    def people(conn: object) -> None:
        alice = store.create_account(conn, "alice", "user")  # type: ignore[arg-type]
        store.grant(conn, alice.id, 1000)  # type: ignore[arg-type]
        store.create_account(conn, "bob", "user")  # type: ignore[arg-type]

    db.write_sync(people)
    yield url, db
    db.close()


def admin(url: str, *args: str) -> int:
    return main(["admin", "--database-url", url, *args])


def member(db: Database, name: str) -> desk_db.Member:
    found = db.read_sync(lambda c: desk_db.member_by_name(c, name))
    assert found is not None
    return found


def test_grants_move_chips_from_the_house_and_never_below_zero(
    room_db: tuple[str, Database], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, db = room_db
    store = db.store
    alice = member(db, "alice").id
    assert admin(folder, "grant", "alice", "500", "--reason", "prize of the week") == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 1500
    assert admin(folder, "grant", "ALICE", "-1500", "--reason", "chips sold") == 0
    assert db.read_sync(lambda c: store.balance(c, alice)) == 0
    # Below zero: refused, nothing changes, nothing audited.
    before = db.read_sync(lambda c: desk_db.audit_log(c))
    assert admin(folder, "grant", "alice", "-1", "--reason", "one more") == 1
    assert "below_zero" in capsys.readouterr().out
    assert db.read_sync(lambda c: store.balance(c, alice)) == 0
    assert db.read_sync(lambda c: desk_db.audit_log(c)) == before
    # Nobody of that name, no amount, no reason: refused.
    assert admin(folder, "grant", "carol", "5", "--reason", "x") == 1
    assert "no_account" in capsys.readouterr().out
    assert admin(folder, "grant", "bob", "0", "--reason", "x") == 1
    assert admin(folder, "grant", "bob", "5", "--reason", "  ") == 1
    assert "no_reason" in capsys.readouterr().out
    assert db.read_sync(store.ledger_total) == 0
    assert db.read_sync(lambda c: store.balance(c, member(db, "bob").id)) == 0
    rows = db.read_sync(lambda c: desk_db.audit_log(c))
    assert [(r["action"], r["target"], r["detail"]["amount"]) for r in rows] == [
        ("grant", "alice", -1500),
        ("grant", "alice", 500),
    ]
    assert rows[1]["reason"] == "prize of the week" and rows[1]["actor"].startswith("console:")
    assert admin(folder, "ledger", "alice") == 0
    out = capsys.readouterr().out
    assert "alice: balance 0" in out and "admin_grant" in out and "+500" in out


@pytest.mark.slow
def test_roles_bans_and_mutes_are_written_and_audited(
    room_db: tuple[str, Database], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, db = room_db
    assert member(db, "bob").role == "player"
    assert admin(folder, "make-moderator", "bob") == 0
    assert admin(folder, "make-admin", "alice") == 0
    assert (member(db, "bob").role, member(db, "alice").role) == ("moderator", "admin")
    assert admin(folder, "make-player", "bob") == 0
    assert member(db, "bob").role == "player"
    capsys.readouterr()
    # A ban for good ends the account's sessions.
    bob = member(db, "bob").id
    db.write_sync(lambda c: db.store.create_session(c, bob, "token", 3600))
    assert admin(folder, "ban", "bob", "--reason", "collusion") == 0
    assert db.read_sync(lambda c: db.store.session_account(c, "token")) is None
    now = time.time()
    found = member(db, "bob")
    assert found.banned(now) and found.banned_until is None
    assert found.banned_reason == "collusion"
    assert admin(folder, "unban", "bob") == 0
    assert not member(db, "bob").banned(now)
    # A ban until a time: it is over then; a time in the past is refused.
    assert admin(folder, "ban", "bob", "--reason", "abuse", "--until", "2h") == 0
    until = member(db, "bob").banned_until
    assert (
        until is not None
        and member(db, "bob").banned(now)
        and not member(db, "bob").banned(until + 1)
    )
    assert admin(folder, "ban", "bob", "--reason", "x", "--until", "2001-01-01") == 1
    assert "bad_until" in capsys.readouterr().out
    assert admin(folder, "mute", "alice", "--minutes", "30", "--reason", "spam") == 0
    muted = member(db, "alice")
    assert muted.muted(now) and not muted.muted(now + 31 * 60)
    assert admin(folder, "mute", "alice", "--minutes", "0") == 0
    assert not member(db, "alice").muted(now)
    actions = [r["action"] for r in db.read_sync(lambda c: desk_db.audit_log(c))]
    assert actions == ["unmute", "mute", "ban", "unban", "ban", "role", "role", "role"]
    capsys.readouterr()
    assert admin(folder, "accounts", "--search", "BO") == 0
    out = capsys.readouterr().out
    assert "bob" in out and "banned" in out and "alice" not in out
    assert admin(folder, "audit") == 0
    assert "collusion" in capsys.readouterr().out


def test_a_table_request_waits_for_a_running_room(
    room_db: tuple[str, Database], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, db = room_db
    assert admin(folder, "--wait", "0.3", "close-table", "7") == 3
    assert "queued" in capsys.readouterr().out
    assert db.read_sync(desk_db.pending)[0][1:] == ("close_table", 7)
    assert db.read_sync(lambda c: desk_db.audit_log(c))[0]["action"] == "close_table"


def test_until_is_a_duration_or_a_date() -> None:
    assert parse_when("30m", now=1000.0) == 1000.0 + 1800
    assert parse_when("2w", now=0.0) == 14 * 86400
    assert parse_when("2030-01-31T18:00") == parse_when("2030-01-31T18:00+00:00")
    with pytest.raises(ValueError, match="--until"):
        parse_when("next tuesday")


def test_an_older_database_gets_roles_when_upgraded(tmp_path: Path) -> None:
    url = resolve_url(None, tmp_path)
    old = Database(url)
    with old.engine.begin() as conn:
        conn.execute(
            text(
                "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name VARCHAR(64) NOT NULL UNIQUE, "
                "name_key VARCHAR(128), password_hash VARCHAR(255), kind VARCHAR(16) NOT NULL, "
                "created_at FLOAT NOT NULL, language VARCHAR(16))"
            )
        )
        conn.execute(
            text("INSERT INTO accounts (name, kind, created_at) VALUES ('old', 'user', 0)")
        )
    old.close()
    db = Database(url)
    db.create_schema()
    try:
        found = member(db, "old")
        assert (found.role, found.banned_reason, found.muted_until) == ("player", None, None)
    finally:
        db.close()
