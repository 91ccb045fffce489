"""The admin page (#/admin, docs/admin.md) walked in Traditional Chinese: a report waiting
with its chat context, an account found and muted from the page, the audit log worded in
the page's language; a player who opens the page is told it is not theirs. The picture of
docs/admin.md is taken here (copied into docs/ with STUD_WEB_SCREENSHOTS=1)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from stud.testing.server import Client, ServerProcess
from stud.testing.wait import wait_until
from table_pages import screenshot
from test_server_admin import SERVER as SERVER  # one server with the REST tests of the desk
from test_server_admin import call, console, make_table, person, staff

CATALOGS = Path(__file__).resolve().parent.parent / "src" / "stud" / "web" / "static" / "i18n"


def words(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGS / f"{code}.json").read_text(encoding="utf-8"))
    return data


def log_in(page: Page, server: ServerProcess, client: Client) -> None:
    assert client.cookie is not None
    page.context.add_cookies([{"name": "stud_session", "value": client.cookie, "url": server.base}])


def test_the_admin_page_in_traditional_chinese(
    server: ServerProcess, page: Page, tmp_path: Path
) -> None:
    zh = words("zh-Hant")
    admin = staff(server, "網頁管理員", "admin")
    rude = person(server, "rudeplayer")
    reporter = person(server, "webwitness")
    table = make_table(server, reporter, name="Razz 夜場", game="razz")
    assert console(server, "grant", "rudeplayer", "750", "--reason", "週賽獎金") == 0

    async def chat_and_report() -> None:
        for client in (rude, reporter):
            await client.connect()
            await client.send({"type": "watch", "table": table})
        await rude.send({"type": "chat", "table": table, "text": "你們都很爛", "id": "c"})
        said = await reporter.until(lambda m: m.get("event", {}).get("type") == "chat")
        answer = await asyncio.to_thread(
            call, server, "POST", "/api/reports", reporter,
            {"table": str(table), "account_id": said["event"]["account_id"],
             "line": said["event"]["text"], "reason": "辱罵"},
        )  # fmt: skip
        assert answer.status_code == 201, answer.text
        for client in (rude, reporter):
            await client.close()

    # (Playwright's loop runs in this thread: the players' sockets get one of their own.)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, chat_and_report()).result()

    log_in(page, server, admin)
    page.goto(f"{server.base}/?lang=zh-Hant#/admin")
    page.wait_for_selector("#admin-audit")
    assert page.inner_text("#admin-title") == zh["admin.title"]
    assert page.inner_text("#account [data-do=admin]") == zh["account.admin"]
    headings = page.locator(".admin-part h2").all_inner_texts()
    assert headings == [
        zh[k] for k in ("admin.reports", "admin.accounts", "admin.tables", "admin.tournaments",
                        "admin.connected", "admin.audit")
    ]  # fmt: skip
    report = page.locator(".admin-report").filter(has_text="rudeplayer")
    assert "你們都很爛" in report.inner_text()
    report.locator("summary").click()
    assert "你們都很爛" in report.locator(".admin-context").inner_text()

    # Without a reason nothing is done, and the page says why.
    page.fill(".admin-search input", "rude")
    page.click(".admin-search button")
    row = page.locator("tr[data-account=rudeplayer]")
    row.wait_for()
    assert "10,750" in row.inner_text() or "10750" in row.inner_text()
    row.get_by_role("button", name=zh["admin.mute_hour"]).click()
    page.wait_for_selector(".admin-status.form-error")
    assert page.inner_text(".admin-status") == zh["admin.reason_needed"]
    page.fill("#admin-reason", "聊天辱罵他人")
    row.get_by_role("button", name=zh["admin.mute_hour"]).click()
    page.wait_for_function(
        "w => document.querySelector('.admin-status')?.textContent === w", arg=zh["admin.done"]
    )
    row = page.locator("tr[data-account=rudeplayer]")
    row.get_by_role("button", name=zh["admin.unmute"]).wait_for()
    audit = page.locator("#admin-audit + table, section[aria-labelledby=admin-audit] table")
    audit.filter(has_text="聊天辱罵他人").wait_for()
    assert zh["admin.did.mute"] in audit.inner_text()
    assert zh["admin.did.grant"] in audit.inner_text()
    muted = call(server, "GET", "/api/admin/accounts?search=rudeplayer", admin).json()
    assert muted["accounts"][0]["muted_until"] is not None
    screenshot(page, tmp_path / "admin.png", "screenshot-admin.png")


def test_a_player_is_told_the_page_is_not_theirs(server: ServerProcess, page: Page) -> None:
    player = person(server, "curiousone")
    log_in(page, server, player)
    page.goto(f"{server.base}/?lang=zh-Hant#/admin")
    page.wait_for_selector(".admin-body p")
    page.wait_for_function(
        "w => document.querySelector('.admin-body p')?.textContent === w",
        arg=words("zh-Hant")["admin.staff_only"],
    )
    assert page.locator("#account [data-do=admin]").count() == 0
    assert page.locator(".admin-part").count() == 0


def test_a_player_reports_a_line_and_a_player_from_the_table(
    server: ServerProcess, page: Page
) -> None:
    zh = words("zh-Hant")
    admin = staff(server, "reportadmin", "admin")
    rude = person(server, "tablerude")
    reporter = person(server, "tablereporter")
    table = make_table(server, reporter, name="檢舉桌")

    async def sit() -> None:
        await rude.connect()
        await rude.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        assert (await rude.until(lambda m: m.get("id") == "s"))["type"] == "ok"

    async def say(text: str) -> None:
        await rude.send({"type": "chat", "table": table, "text": text, "id": "c"})
        await rude.until(lambda m: m.get("id") == "c")

    # The rude player stays connected (so seated) on a loop of its own: Playwright's runs here.
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(work: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(work, loop).result(120)

    try:
        run(sit())
        log_in(page, server, reporter)
        page.goto(f"{server.base}/?lang=zh-Hant#/table/{table}")
        page.click(".side .tab[data-tab='chat']")
        page.wait_for_function(
            "t => window.studApp.models.get(t)?.state?.seats?.some(Boolean)", arg=table
        )
        run(say("你打得真爛"))
        report_line_and_player(page, zh)
    finally:
        run(rude.close())
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
    reports = wait_until(lambda: reports_on(server, admin, "tablerude", 2), "two reports")
    assert {(r["line"], r["reason"], r["reporter"]) for r in reports} == {
        ("你打得真爛", "", "tablereporter"),
        (None, "故意拖延", "tablereporter"),
    }
    assert all(r["table"] == str(table) for r in reports)


def report_line_and_player(page: Page, zh: dict[str, str]) -> None:
    """Report the rude line from its link, then its author from the chat tab's form."""
    line = page.locator(".chat-line.player").filter(has_text="你打得真爛")
    line.locator(".report").click()
    page.locator(".toast").filter(has_text=zh["chat.reported"]).wait_for()
    page.click(".chat-report summary")
    page.select_option(".chat-report select", label="tablerude")
    page.fill(".chat-report input[name='report-why']", "故意拖延")
    page.click(".chat-report button[type='submit']")


def reports_on(server: ServerProcess, admin: Client, name: str, count: int) -> list[Any] | None:
    """The open reports about ``name`` once there are ``count`` of them."""
    reports = call(server, "GET", "/api/admin/overview", admin).json()["reports"]
    mine = [r for r in reports if r["account"] == name]
    return mine if len(mine) == count else None
