"""Free play chips through a real server: ``GET``/``POST /api/me/top-up`` and ``/api/me``'s
``top_up``, refusals with their codes, many top-ups at once giving one (SQLite and
PostgreSQL), the ledger checked after each; and the top bar's "Get free chips" button."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from stud.server.errors import CODES
from stud.server.storage import Database, Entry
from stud.testing.server import ServerProcess, ServerSpec, require_backend
from table_pages import Person

ARGS = ("--no-default-tables", "--no-default-tournaments", "--free-chips-every", "1", "0.5")
SERVER = ServerSpec(ARGS)
POSTGRES = ServerSpec(ARGS, backend="postgres")
CATALOGS = Path(__file__).resolve().parent.parent / "src/stud/web/static/i18n"


def guest(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    client.post("/api/guest").raise_for_status()
    return client


def lose(server: ServerProcess, account_id: int, chips: int) -> None:
    """The account loses ``chips`` of its balance to the house (as if at a table)."""
    db = Database(server.database_url)
    try:
        store = db.store
        db.write_sync(
            lambda c: store.post(
                c, "rake", [Entry(account_id, "cash", -chips), Entry(store.house(c), "cash", chips)]
            )
        )
    finally:
        db.close()


def ledger_total(server: ServerProcess) -> int:
    db = Database(server.database_url)
    try:
        return db.read_sync(db.store.ledger_total)
    finally:
        db.close()


def refused(response: httpx.Response, code: str) -> dict[str, Any]:
    body: dict[str, Any] = response.json()
    assert (response.status_code, body["code"]) == (CODES[code][0], code), body
    return body


def test_a_low_guest_tops_up_once_and_is_told_when_next(server: ServerProcess) -> None:
    client = guest(server.base)
    me = client.get("/api/me").json()
    assert me["top_up"]["available"] is False and me["top_up"]["threshold"] == 1_000
    refused(client.post("/api/me/top-up"), "free_chips_not_low")
    lose(server, me["id"], 9_500)
    status = client.get("/api/me/top-up").json()
    assert status == {
        "available": True, "held": 500, "threshold": 1_000, "to": 10_000, "amount": 9_500,
        "next_at": None,
    }  # fmt: skip
    done = client.post("/api/me/top-up")
    assert done.status_code == 200, done.text
    assert done.json()["given"] == 9_500 and done.json()["held"] == 10_000
    assert client.get("/api/me").json()["balance"] == 10_000
    lose(server, me["id"], 10_000)
    body = refused(client.post("/api/me/top-up"), "free_chips_too_soon")
    after = client.get("/api/me/top-up").json()
    assert after["available"] is False
    assert math.ceil(after["next_at"]) == body["params"]["next_at"]
    assert int(client.post("/api/me/top-up").headers["Retry-After"]) > 0
    assert client.get("/api/me").json()["balance"] == 0
    assert ledger_total(server) == 0


def test_no_session_no_top_up(server: ServerProcess) -> None:
    refused(httpx.post(server.base + "/api/me/top-up", timeout=10), "login_required")


@pytest.mark.parametrize("server", [SERVER, POSTGRES], indirect=True, ids=["sqlite", "postgres"])
def test_many_top_ups_at_once_give_one(server: ServerProcess) -> None:
    if "postgresql" in server.database_url:
        require_backend("postgres")
    client = guest(server.base)
    me = client.get("/api/me").json()
    lose(server, me["id"], 10_000)
    cookies = dict(client.cookies)

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.base, cookies=cookies, timeout=30) as c:
            return await asyncio.gather(*(c.post("/api/me/top-up") for _ in range(8)))

    answers = asyncio.run(burst())
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * 7, [a.text for a in answers]
    assert client.get("/api/me").json()["balance"] == 10_000
    assert ledger_total(server) == 0


def test_the_top_bar_button_tops_up_in_chinese(server: ServerProcess, browser: Browser) -> None:
    words = json.loads((CATALOGS / "zh-Hant.json").read_text("utf-8"))
    person = Person(browser, server.base)
    try:
        person.guest("zh-Hant")
        page = person.page
        assert page.query_selector("#account [data-do='free-chips']") is None  # not low
        account_id = person.js("async () => (await (await fetch('/api/me')).json()).id")
        lose(server, int(account_id), 9_900)
        page.reload()
        button = page.wait_for_selector("#account [data-do='free-chips']")
        assert button is not None and button.inner_text() == words["account.free_chips"]
        button.click()
        # Topped up to the start: not low, so no control at all once drawn again.
        page.wait_for_function("() => !document.querySelector(\"#account [data-do='free-chips']\")")
        assert page.inner_text("#account .balance-amount").replace(",", "") == "10000"
        done = words["account.free_chips_done"].split("{amount}")[1]
        page.wait_for_function(
            "w => document.querySelector('#toasts').textContent.includes(w)", arg=done
        )
        # Low again at once: the bar says when the next top-up is possible.
        lose(server, int(account_id), 10_000)
        page.reload()
        line = page.wait_for_selector("#account .free-chips-next")
        assert line is not None
        assert words["account.free_chips_next"].split("{time}")[1].strip() in line.inner_text()
        assert person.errors == []
    finally:
        person.close()
