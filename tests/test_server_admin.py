"""The operator's desk on a running room (docs/admin.md): every admin endpoint refuses a
player, a guest, no session and another site's page; bans end sessions and vacate seats
with the chips cashed out; mutes refuse chat and say until when; reports reach the queue
with the chat's context; the console's table and tournament requests reach the running
room; tournaments called off before and after the start keep every chip; and an admin's
view of a table shows no hidden card of the hand in progress."""

from __future__ import annotations

import asyncio
import functools
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from stud.cli import main
from stud.server.storage import Database
from stud.server.storage import moderation as desk_db
from stud.server.storage import tourneys as db_tourneys
from stud.testing.server import (
    Client,
    ServerProcess,
    ServerSpec,
    check_no_foreign_down_cards,
    hand_factory_args,
)
from stud.testing.wait import until, wait_until

PASSWORD = "plum-Lantern-61"  # not one of the common passwords a new one may not be

ARGS = (
    "--turn-seconds", "5", "--time-bank", "1", "--pause", "0.2", "--grace", "30",
    "--bot-delay", "0.01", "0.05", "--no-default-tables", "--no-default-tournaments",
    "--seed", "37",
)  # fmt: skip
SERVER = ServerSpec(ARGS + hand_factory_args("tests.test_table_double:start_double"))
HTTP = SimpleNamespace(
    request=functools.partial(httpx.request, timeout=60),
    post=functools.partial(httpx.post, timeout=60),
)
FOREIGN = "https://evil.example"


def jar(client: Client | None) -> dict[str, str]:
    return {} if client is None or client.cookie is None else {"stud_session": client.cookie}


def call(
    server: ServerProcess,
    method: str,
    path: str,
    client: Client | None,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    return httpx.request(
        method,
        server.base + path,
        json=body,
        cookies=jar(client),
        headers=headers or {},
        timeout=60,
    )


def person(server: ServerProcess, name: str) -> Client:
    """A registered account, logged in."""
    response = HTTP.post(server.base + "/api/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client = Client(server.base, response.cookies.get("stud_session"))
    client.account = response.json()
    return client


def console(server: ServerProcess, *args: str) -> int:
    return main(["admin", "--database-url", server.database_url, *args])


def staff(server: ServerProcess, name: str, role: str) -> Client:
    client = person(server, name)
    assert console(server, f"make-{role}", name) == 0
    return client


def make_table(server: ServerProcess, client: Client, **spec: Any) -> int:
    body = {"name": "desk", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
            "big_bet": 8, "seats": 4, "bots": 0, "min_buy_in": 40, "max_buy_in": 400,
            "bot_kind": "station", **spec}  # fmt: skip
    response = call(server, "POST", "/api/tables", client, body)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def books(server: ServerProcess) -> tuple[int, dict[str, int]]:
    db = Database(server.database_url)
    try:
        return db.read_sync(lambda c: (db.store.ledger_total(c), db.store.holdings(c)))
    finally:
        db.close()


def read(server: ServerProcess, op: Any) -> Any:
    db = Database(server.database_url)
    try:
        return db.read_sync(op)
    finally:
        db.close()


ENDPOINTS = (
    ("GET", "/api/admin/overview", None, "staff"),
    ("GET", "/api/admin/tables/999999", None, "staff"),
    ("GET", "/api/admin/accounts?search=a", None, "staff"),
    ("GET", "/api/admin/accounts/nobody/ledger", None, "staff"),
    ("GET", "/api/admin/audit", None, "staff"),
    ("POST", "/api/admin/accounts/nobody/ban", {"reason": "r"}, "staff"),
    ("POST", "/api/admin/accounts/nobody/unban", {"reason": "r"}, "staff"),
    ("POST", "/api/admin/accounts/nobody/mute", {"reason": "r", "minutes": 5}, "staff"),
    ("POST", "/api/admin/reports/999999/resolve", {"reason": "r"}, "staff"),
    ("POST", "/api/admin/accounts/nobody/role", {"reason": "r", "role": "admin"}, "admin"),
    ("POST", "/api/admin/accounts/nobody/grant", {"reason": "r", "amount": 5}, "admin"),
    ("POST", "/api/admin/tables/999999/close", {"reason": "r"}, "admin"),
    ("POST", "/api/admin/tournaments/999999/cancel", {"reason": "r"}, "admin"),
)


def test_every_admin_endpoint_refuses_everyone_else(server: ServerProcess) -> None:
    player = person(server, "deskplayer")
    guest = Client.guest(server.base)
    moderator = staff(server, "deskmod", "moderator")
    admin = staff(server, "deskadmin", "admin")
    openapi = HTTP.request("GET", server.base + "/openapi.json").json()
    listed = {
        (method.upper(), path)
        for path, methods in openapi["paths"].items()
        if path.startswith("/api/admin/")
        for method in methods
    }
    tried = {(m, p.split("?")[0]) for m, p, _, _ in ENDPOINTS}
    assert {(m, p.replace("{table_id}", "999999").replace("{tournament_id}", "999999")
             .replace("{name}", "nobody").replace("{report_id}", "999999"))
            for m, p in listed} == tried  # fmt: skip
    before = books(server)
    for method, path, body, who in ENDPOINTS:
        answer = call(server, method, path, None, body)
        assert (answer.status_code, answer.json()["code"]) == (401, "login_required"), path
        for client in (player, guest):
            answer = call(server, method, path, client, body)
            assert (answer.status_code, answer.json()["code"]) == (403, "staff_only"), path
        for headers in ({"Origin": FOREIGN}, {"Sec-Fetch-Site": "cross-site"}):
            answer = call(server, method, path, admin, body, headers)
            assert (answer.status_code, answer.json()["code"]) == (403, "cross_site"), path
        if who == "admin":
            answer = call(server, method, path, moderator, body)
            assert (answer.status_code, answer.json()["code"]) == (403, "admin_only"), path
        # The admin gets past the door (to an answer about "nobody" or a missing id).
        answer = call(server, method, path, admin, body, {"Origin": server.base})
        assert answer.status_code not in (401, 403), (path, answer.text)
    assert books(server) == before
    me = call(server, "GET", "/api/me", admin).json()
    assert me["role"] == "admin"


def test_grants_over_rest_keep_the_books(server: ServerProcess) -> None:
    admin = staff(server, "grantadmin", "admin")
    player = person(server, "grantee")
    path = "/api/admin/accounts/grantee/grant"
    answer = call(server, "POST", path, admin, {"amount": 2500, "reason": "tournament prize"})
    assert answer.status_code == 200 and answer.json()["balance"] == 12_500, answer.text
    answer = call(server, "POST", path, admin, {"amount": -20_000, "reason": "too much"})
    assert (answer.status_code, answer.json()["code"]) == (409, "below_zero")
    assert answer.json()["params"]["balance"] == 12_500
    answer = call(server, "POST", path, admin, {"amount": -12_500, "reason": "all of it"})
    assert answer.json()["balance"] == 0
    assert call(server, "GET", "/api/me", player).json()["balance"] == 0
    assert books(server)[0] == 0
    ledger = call(server, "GET", "/api/admin/accounts/grantee/ledger", admin).json()["ledger"]
    assert [(line["kind"], line["amount"]) for line in ledger[:2]] == [
        ("admin_grant", -12_500),
        ("admin_grant", 2500),
    ]
    audit = call(server, "GET", "/api/admin/audit", admin).json()["audit"]
    mine = [r for r in audit if r["target"] == "grantee"]
    assert [(r["action"], r["actor"], r["reason"]) for r in mine] == [
        ("grant", "grantadmin", "all of it"),
        ("grant", "grantadmin", "tournament prize"),
    ]
    found = call(server, "GET", "/api/admin/accounts?search=grantee", admin).json()["accounts"]
    assert [(a["name"], a["balance"]) for a in found] == [("grantee", 0)]


def test_a_ban_ends_sessions_and_cashes_the_seat_out(server: ServerProcess) -> None:
    moderator = staff(server, "banmod", "moderator")
    player = person(server, "banned1")
    table = make_table(server, player, bots=2, name="bans")

    async def run() -> None:
        await player.connect()
        await player.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        await player.until(lambda m: m.get("id") == "s", timeout=30)
        await player.until(
            lambda m: m.get("type") == "event" and m["event"]["type"] == "new_hand", timeout=120
        )
        answer = await asyncio.to_thread(
            call, server, "POST", "/api/admin/accounts/banned1/ban", moderator,
            {"reason": "collusion", "minutes": 60},
        )  # fmt: skip
        assert answer.status_code == 200, answer.text
        notice = await player.until(lambda m: m.get("code") == "account_banned", timeout=30)
        assert notice["type"] == "error"
        with pytest.raises(ConnectionClosed):  # the server closed the socket
            await player.recv(timeout=30)

    asyncio.run(run())
    # Not logged in any more, and cannot log in; the stack is back in the balance.
    assert call(server, "GET", "/api/me", player).status_code == 401
    login = HTTP.post(server.base + "/api/login", json={"name": "banned1", "password": PASSWORD})
    assert (login.status_code, login.json()["code"]) == (403, "account_banned")
    assert login.json()["params"]["until"].endswith("UTC")
    account = player.account
    assert account is not None
    db_id = int(account["id"])

    def cashed_out() -> bool:
        return bool(read(server, lambda c: _wallet(c, db_id, "table")) == 0)

    wait_until(cashed_out, "the banned player's seat cashed out", timeout=120)
    balance = read(server, lambda c: _wallet(c, db_id, "cash"))
    assert balance >= 10_000 - 100  # the stack came back (the hand folded, at most 100 lost)
    assert books(server)[0] == 0
    # Lifted: the account logs in again.
    answer = call(server, "POST", "/api/admin/accounts/banned1/unban", moderator, {"reason": "ok"})
    assert answer.status_code == 200
    login = HTTP.post(server.base + "/api/login", json={"name": "banned1", "password": PASSWORD})
    assert login.status_code == 200
    # A moderator may not ban an admin.
    staff(server, "banadmin", "admin")
    answer = call(server, "POST", "/api/admin/accounts/banadmin/ban", moderator, {"reason": "x"})
    assert (answer.status_code, answer.json()["code"]) == (403, "admin_only")


def _wallet(conn: Any, account_id: int, wallet: str) -> int:
    from sqlalchemy import func, select

    from stud.server.storage import schema as s

    query = select(func.coalesce(func.sum(s.ledger.c.amount), 0)).where(
        s.ledger.c.account_id == account_id, s.ledger.c.wallet == wallet
    )
    return int(conn.execute(query).scalar_one())


def test_a_console_ban_reaches_the_running_room(server: ServerProcess) -> None:
    player = person(server, "consban")

    async def run() -> None:
        await player.connect()
        assert await asyncio.to_thread(console, server, "ban", "consban", "--reason", "spam") == 0
        await player.until(lambda m: m.get("code") == "account_banned", timeout=30)

    asyncio.run(run())
    assert call(server, "GET", "/api/me", player).status_code == 401
    assert console(server, "unban", "consban") == 0


def test_mutes_refuse_chat_and_reports_reach_the_queue(server: ServerProcess) -> None:
    moderator = staff(server, "mutemod", "moderator")
    loud = person(server, "loudone")
    witness = person(server, "witness")
    table = make_table(server, witness, name="chatty")

    async def run() -> dict[str, Any]:
        for client in (loud, witness):
            await client.connect()
            await client.send({"type": "watch", "table": table})
        await loud.send({"type": "chat", "table": table, "text": "you all stink", "id": "c1"})
        assert (await loud.until(lambda m: m.get("id") == "c1"))["type"] == "ok"
        said = await witness.until(lambda m: m.get("event", {}).get("type") == "chat")
        report = await asyncio.to_thread(
            call, server, "POST", "/api/reports", witness,
            {"table": str(table), "account_id": said["event"]["account_id"],
             "line": said["event"]["text"], "reason": "insults"},
        )  # fmt: skip
        assert report.status_code == 201, report.text
        muted = await asyncio.to_thread(
            call, server, "POST", "/api/admin/accounts/loudone/mute", moderator,
            {"minutes": 30, "reason": "insults"},
        )  # fmt: skip
        assert muted.status_code == 200, muted.text
        await loud.send({"type": "chat", "table": table, "text": "still here", "id": "c2"})
        refused = await loud.until(lambda m: m.get("id") == "c2")
        assert refused["code"] == "chat_muted" and refused["params"]["until"].endswith("UTC")
        for client in (loud, witness):
            await client.close()
        return dict(report.json())

    report = asyncio.run(run())
    # Nobody reports themselves, nor at a table that is not there.
    mine = {"table": str(table), "account_id": witness.account["id"]}  # type: ignore[index]
    assert call(server, "POST", "/api/reports", witness, mine).status_code == 422
    nowhere = {"table": "999999", "account_id": loud.account["id"]}  # type: ignore[index]
    assert call(server, "POST", "/api/reports", witness, nowhere).json()["code"] == (
        "nothing_to_report"
    )
    assert call(server, "POST", "/api/reports", None, nowhere).status_code == 401
    queue = call(server, "GET", "/api/admin/overview", moderator).json()["reports"]
    (found,) = [r for r in queue if r["id"] == report["report"]]
    assert (found["reporter"], found["account"], found["line"]) == (
        "witness", "loudone", "you all stink"
    )  # fmt: skip
    assert [line["text"] for line in found["context"]] == ["you all stink"]
    path = f"/api/admin/reports/{found['id']}/resolve"
    assert call(server, "POST", path, moderator, {"reason": "muted"}).status_code == 200
    again = call(server, "POST", path, moderator, {"reason": "muted"})
    assert (again.status_code, again.json()["code"]) == (404, "no_report")
    # The console lifts the mute; the next look of the room lets the player chat again.
    assert console(server, "mute", "loudone", "--minutes", "0") == 0

    async def chat_again() -> None:
        await loud.connect()
        await loud.send({"type": "watch", "table": table})

        async def said() -> bool:
            await loud.send({"type": "chat", "table": table, "text": "sorry", "id": "c3"})
            answer = await loud.until(lambda m: m.get("id") == "c3")
            loud.messages.clear()
            return bool(answer["type"] == "ok")

        await until(said, "still muted", 30, 0.5)
        await loud.close()

    asyncio.run(chat_again())


def test_the_console_closes_a_running_table(server: ServerProcess) -> None:
    player = person(server, "closer")
    table = make_table(server, player, bots=2, name="closing")

    async def run() -> None:
        await player.connect()
        await player.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        await player.until(lambda m: m.get("id") == "s", timeout=30)
        status = await asyncio.to_thread(
            console, server, "--wait", "60", "close-table", str(table), "--reason", "maintenance"
        )
        assert status == 0
        await player.until(lambda m: m.get("type") == "table_closed", timeout=120)
        await player.close()

    asyncio.run(run())
    lobby = HTTP.request("GET", server.base + "/api/tables").json()
    assert table not in [t["id"] for t in lobby]
    me = call(server, "GET", "/api/me", player).json()
    assert me["at_tables"] == 0 and me["balance"] > 0
    assert books(server)[0] == 0
    audit = read(server, lambda c: desk_db.audit_log(c))
    assert any(r["action"] == "close_table" and r["target"] == str(table) for r in audit)


def open_sng(server: ServerProcess, client: Client, seats: int) -> int:
    body = {"game": "razz", "seats": seats, "buy_in": 100, "fee": 10, "starting_chips": 300,
            "level_seconds": 60}  # fmt: skip
    response = call(server, "POST", "/api/tournaments", client, body)
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def test_tournaments_called_off_keep_every_chip(server: ServerProcess) -> None:
    admin = staff(server, "tourneyadmin", "admin")
    alice = person(server, "tourneyalice")
    bob = person(server, "tourneybob")
    # Before the start: buy-ins and fees come back.
    waiting = open_sng(server, alice, 4)
    for client in (alice, bob):
        path = f"/api/tournaments/{waiting}/register"
        assert call(server, "POST", path, client).status_code == 200
    assert call(server, "GET", "/api/me", alice).json()["balance"] == 10_000 - 110
    answer = call(
        server, "POST", f"/api/admin/tournaments/{waiting}/cancel", admin, {"reason": "no show"}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["was"] == "registering"
    for client in (alice, bob):
        assert call(server, "GET", "/api/me", client).json()["balance"] == 10_000
    # Running: the pool is shared by chips (a chip chop), the hands in progress void.
    running = open_sng(server, alice, 3)
    assert call(server, "POST", f"/api/tournaments/{running}/register", alice).status_code == 200
    assert call(server, "POST", f"/api/tournaments/{running}/fill", alice).status_code == 200

    def started() -> bool:
        page = call(server, "GET", f"/api/tournaments/{running}", None).json()
        return bool(page["state"] == "running")

    wait_until(started, "the Sit & Go started")
    status = console(server, "--wait", "60", "cancel-tournament", str(running), "--reason", "bug")
    assert status == 0
    page = call(server, "GET", f"/api/tournaments/{running}", None).json()
    assert page["state"] == "cancelled"

    read_store = Database(server.database_url)
    try:
        pool, prizes, paid = read_store.read_sync(
            lambda c: (
                db_tourneys.pool(read_store.store, c, running),
                sum(db_tourneys.prizes_paid(c, running).values()),
                db_tourneys.paid_in(c, running),
            )
        )
    finally:
        read_store.close()
    assert pool == 0 and prizes == 300 and len(paid) == 3
    assert books(server)[0] == 0
    # Over: calling it off again is refused.
    again = call(
        server, "POST", f"/api/admin/tournaments/{running}/cancel", admin, {"reason": "again"}
    )
    assert (again.status_code, again.json()["code"]) == (409, "tournament_over")


def test_an_admin_sees_a_table_as_a_spectator(server: ServerProcess) -> None:
    admin = staff(server, "viewadmin", "admin")
    player = person(server, "viewplayer")
    table = make_table(server, player, bots=2, name="hidden")

    async def run() -> None:
        await player.connect()
        await player.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        await player.until(lambda m: m.get("id") == "s", timeout=30)
        await player.until(
            lambda m: m.get("type") == "event" and m["event"]["type"] == "dealt", timeout=120
        )
        viewer = Client(server.base)

        def view() -> dict[str, Any]:
            answer = call(server, "GET", f"/api/admin/tables/{table}", admin)
            assert answer.status_code == 200, answer.text
            return dict(answer.json())

        async def in_hand() -> dict[str, Any] | None:
            entry = await asyncio.to_thread(view)
            return entry if entry["state"]["hand"] is not None else None

        entry = await until(in_hand, "no hand on the table", 60)
        viewer.messages = [{"type": "state", "state": entry["state"]}]
        assert check_no_foreign_down_cards(viewer, None) > 0
        # The overview lists tables as the lobby does: no hand in it at all.
        overview = await asyncio.to_thread(call, server, "GET", "/api/admin/overview", admin)
        (line,) = [t for t in overview.json()["tables"] if t["id"] == table]
        assert "state" not in line and "hand" not in line
        await player.close()

    asyncio.run(run())
