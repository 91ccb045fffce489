"""A regular's tools in the browser (issue 38), in real Chromium: after a hand against a bot
the bot's seat shows its stats on hover (the server's numbers: the hands played together),
a note with a colour tag written from that card shows on the seat as text (never markup)
and stays after a reload; My hands draws the results by session as a chart; the settings
menu's felt colour is kept; a quick-chat phrase is sent in the page's language. The
pictures of the stats card and the note on a seat, in English and Traditional Chinese,
go to docs/ with STUD_WEB_SCREENSHOTS=1.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess
from table_pages import (  # noqa: F401 (SERVER: the room these pages play in)
    SERVER,
    Person,
    open_table,
    play_to_showdown,
    screenshot,
    sit,
    sit_out_after_this_hand,
)

HOSTILE = "<b>calls</b> down light"


def bot_seat(person: Person, table: int) -> tuple[int, int]:
    """The bot's table seat and account id."""
    seats = person.state(table)["seats"]
    seat, player = next((i, p) for i, p in enumerate(seats) if p and p["bot"])
    return seat, int(player["id"])


def server_stats(person: Person, account: int) -> dict[str, object]:
    return dict(person.js(f"async () => (await fetch('/api/players/{account}/stats')).json()"))


def test_stats_on_hover_and_a_note_on_the_seat(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    table = open_table(server.base, name="Regulars")
    person = Person(browser, server.base)
    try:
        person.guest()
        sit(person, table)
        play_to_showdown(person, table)
        sit_out_after_this_hand(person)  # the felt stays: nobody else to deal to
        seat, bot = bot_seat(person, table)
        person.page.wait_for_function(
            f"async () => (await (await fetch('/api/players/{bot}/stats')).json()).hands >= 1"
        )
        together = server_stats(person, bot)["hands"]
        plate = f".seat[data-seat='{seat}'] .plate"

        # Hover: the card with the server's count of hands together and the six rates.
        person.page.hover(plate)
        card = person.page.wait_for_selector(f".stats-pop[data-account='{bot}'] .stats-table")
        assert card is not None
        assert person.page.text_content(".stats-pop .stats-hands") == (
            f"{together} hand together" if together == 1 else f"{together} hands together"
        )
        assert person.page.locator(".stats-pop .stats-table tr").count() == 6

        # A note from the card: kept as text, its colour on the seat.
        person.page.click(".stats-pop [data-do='edit-note']")
        person.page.fill("dialog.note-dialog textarea", HOSTILE)
        person.page.check("dialog.note-dialog input[value='red']", force=True)
        person.page.click("dialog.note-dialog [data-do='save-note']")
        mark = person.page.wait_for_selector(f"{plate} .note-mark.note-red")
        assert mark is not None and mark.get_attribute("title") == HOSTILE
        assert person.page.query_selector(f"{plate} .note-mark b") is None  # text, not markup
        screenshot(person.page, tmp_path / "note-en.png", "screenshot-note-seat-en.png")
        person.page.hover(plate)
        person.page.wait_for_selector(".stats-pop .stats-note")
        screenshot(person.page, tmp_path / "stats-en.png", "screenshot-stats-hover-en.png")

        # Kept by the server: after a reload, and in Traditional Chinese.
        person.goto(f"#/table/{table}", "zh-Hant")
        person.page.wait_for_selector(f"{plate} .note-mark.note-red")
        screenshot(person.page, tmp_path / "note-zh.png", "screenshot-note-seat-zh-Hant.png")
        person.page.hover(plate)
        person.page.wait_for_selector(".stats-pop .stats-note")
        assert "同桌" in (person.page.text_content(".stats-pop .stats-hands") or "")
        screenshot(person.page, tmp_path / "stats-zh.png", "screenshot-stats-hover-zh-Hant.png")

        # The lobby's list of the table's players shows the note's mark beside the bot.
        person.goto("#/lobby")
        person.page.click(f"#seats-{table}")
        pop = person.page.wait_for_selector(".player-pop .note-mark.note-red")
        assert pop is not None and pop.get_attribute("title") == HOSTILE
        assert not person.errors
    finally:
        person.close()


def test_results_chart_settings_and_quick_chat(server: ServerProcess, browser: Browser) -> None:
    table = open_table(server.base, name="Chart")
    person = Person(browser, server.base)
    try:
        person.guest()
        sit(person, table)
        play_to_showdown(person, table)
        sit_out_after_this_hand(person)
        me = int(person.js("() => window.studApp.account.id"))
        person.page.wait_for_function(
            f"async () => (await (await fetch('/api/players/{me}/stats')).json()).hands >= 1"
        )
        # A quick-chat phrase goes out as a chat line.
        person.page.click(".tabs [data-tab='chat']")
        person.page.click(".quick-chat [data-phrase='good_luck']")
        person.page.wait_for_selector(".chat-line.mine .chat-text:text-is('Good luck!')")

        # My hands: the results by game and session, the sessions drawn as bars.
        person.goto("#/hands")
        person.page.wait_for_selector(".my-results .sessions-chart .bar")
        stats = server_stats(person, me)
        results = stats["results"]
        assert isinstance(results, dict)
        rows = person.page.locator(".results-by-session tbody tr")
        assert rows.count() == len(results["by_session"]) >= 1

        # The settings menu: a felt colour, kept in the browser's preferences.
        person.page.click("#open-settings")
        person.page.select_option("dialog.settings-dialog select[name='felt']", "blue")
        person.page.click("dialog.settings-dialog button[value='done']")
        assert person.js("() => document.body.dataset.felt") == "blue"
        person.goto(f"#/table/{table}")
        assert person.js("() => document.body.dataset.felt") == "blue"
        assert not person.errors
    finally:
        person.close()


def test_showdown_and_bring_in_choices(server: ServerProcess, browser: Browser) -> None:
    """The settings menu's "muck losing hands" (on by default) is kept with the account and
    reaches the table; the header's "sit out next bring-in" reaches the table; both in the
    page's language."""
    table = open_table(server.base, name="Choices")
    person = Person(browser, server.base)
    page = person.page
    mine = "([t, key, value]) => window.studApp.models.get(t)?.state?.mine?.[key] === value"
    try:
        person.guest()
        sit(person, table)
        box = ".table-buttons .sit-out-bring-in input"
        assert not page.is_checked(box)
        assert "bring-in" in (page.get_attribute(".table-buttons .sit-out-bring-in", "title") or "")
        page.check(box)
        page.wait_for_function(mine, arg=[table, "sit_out_after_bring_in", True])

        page.click("#open-settings")
        muck = "dialog.settings-dialog input[name='muck_losing_hands']"
        assert page.is_checked(muck)  # the room's default
        page.uncheck(muck)
        page.wait_for_function(mine, arg=[table, "muck_losing_hands", False])
        kept = person.js("async () => (await fetch('/api/me/preferences')).json()")
        assert kept == {"muck_losing_hands": False}
        page.click("dialog.settings-dialog button[value='done']")

        # Kept with the account: after a reload the menu says so, and the table holds it.
        person.goto(f"#/table/{table}", "zh-Hant")
        page.wait_for_function(mine, arg=[table, "muck_losing_hands", False])
        assert page.inner_text(".table-buttons .sit-out-bring-in").strip() == "下次帶入後暫離"
        page.click("#open-settings")
        page.wait_for_selector("dialog.settings-dialog .settings-muck")
        assert not page.is_checked(muck)
        assert "輸牌時蓋牌不亮" in page.inner_text("dialog.settings-dialog .settings-muck")
        page.check(muck)
        page.wait_for_function(mine, arg=[table, "muck_losing_hands", True])
        assert not person.errors
    finally:
        person.close()
