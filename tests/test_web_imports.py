"""My hands › your PokerStars hands, and the replayer's equity chart, in a real Chromium.

A guest uploads a PokerStars file and one cut short through the page's form: the page says
how many hands were imported and words each refusal in its language; the imported hand
opens in the replayer with its equity chart, whose numbers are the server's, and whose
current street follows the replay; My hands then counts it in the results, in its own
money. In English and Traditional Chinese, each with a picture
for the docs (STUD_WEB_SCREENSHOTS=1) and no serious accessibility violation.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, FilePayload

from stud.testing.server import ServerProcess, ServerSpec
from table_pages import Person, screenshot, serious_violations
from test_server_equity import HAND

SERVER = ServerSpec(("--no-default-tables",))

CUT = HAND.replace("900000000001", "900000000002").split("*** 5th STREET ***")[0] + "*** 5th STR\n"
"""A second hand cut short in the middle of a line."""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_import_then_replay_with_the_equity_chart(
    server: ServerProcess, browser: Browser, tmp_path: Path, lang: str
) -> None:
    person = Person(browser, server.base)
    page = person.page
    try:
        person.guest(lang)
        person.goto("#/hands", lang)
        page.wait_for_selector(".imports .import-form")
        page.wait_for_selector(".imported-list p")  # "no imported hands yet", loaded
        page.set_input_files(
            "#import-files",
            files=[
                FilePayload(name="stars.txt", mimeType="text/plain", buffer=HAND.encode()),
                FilePayload(name="cut.txt", mimeType="text/plain", buffer=CUT.encode()),
            ],
        )
        page.click(".import-form button[type='submit']")
        page.wait_for_selector(".import-done")
        done = page.locator(".import-done")
        assert done.get_attribute("data-imported") == "1"
        assert done.get_attribute("data-refused") == "1"
        refused = page.inner_text(".import-refused li")
        words = {"en": ("cut.txt, hand 1, line", "cannot be read"),
                 "zh-Hant": ("cut.txt，第 1 局，第", "無法讀取")}[lang]  # fmt: skip
        assert all(w in refused for w in words), refused
        page.wait_for_selector(".imported-table tbody tr")
        assert "#900000000001" in page.inner_text(".imported-table tbody tr")
        assert serious_violations(page) == []
        screenshot(page, tmp_path / "import.png", f"screenshot-import-{lang}.png")

        page.click(".imported-table .replay-link")
        page.wait_for_selector(".equity-chart")
        hand_id = int(page.url.rsplit("/", 1)[1])
        cookies = {c["name"]: c["value"] for c in person.context.cookies()}
        data = httpx.get(f"{server.base}/api/me/imports/{hand_id}/equity", cookies=cookies).json()
        cells = person.js(
            """() => [...document.querySelectorAll('.equity-table td')].map(
                td => [Number(td.closest('tr').dataset.seat), Number(td.dataset.street),
                       td.dataset.equity === '' ? null : Number(td.dataset.equity)])"""
        )
        served = {(s["seat"], st["street"]): s["equity"] for st in data["streets"]
                  for s in st["shares"]}  # fmt: skip
        assert {(seat, street): v for seat, street, v in cells if v is not None} == served
        assert len(page.query_selector_all(".equity-svg circle.dot")) == len(served)
        # The chart's current street follows the replay.
        page.keyboard.press("End")
        page.wait_for_selector(".equity-table thead th.now[data-street='7']")
        page.keyboard.press("Home")
        page.wait_for_selector(".equity-table thead th.now[data-street='3']")
        for _ in range(2):
            page.keyboard.press("ArrowDown")
        page.wait_for_selector(".equity-table thead th.now[data-street='5']")
        assert serious_violations(page) == []
        person.js("() => document.querySelector('.equity-chart').scrollIntoView({block: 'end'})")
        screenshot(page, tmp_path / "equity.png", f"screenshot-equity-{lang}.png")

        # My hands: the imported hand in the results, in its own money, apart from chips.
        person.goto("#/lobby", lang)
        person.goto("#/hands", lang)
        row = page.wait_for_selector(".results-imported tbody tr[data-unit='USD']")
        assert row is not None and row.get_attribute("data-game") == "stud"
        me = person.js("() => window.studApp.account.id")
        stats = httpx.get(f"{server.base}/api/players/{me}/stats", cookies=cookies).json()
        (usd,) = stats["results"]["by_game"]
        assert (usd["unit"], usd["hands"]) == ("USD", 1) and stats["hands"] == 1
        net = page.inner_text(".results-imported tbody tr td.num:last-child")
        assert net.lstrip("+−") == f"{abs(usd['net']) / 100:.2f}"
        assert page.query_selector(".results-by-game") is None  # no hand of the room's
        assert serious_violations(page) == []
        assert not person.errors, person.errors
    finally:
        person.close()
