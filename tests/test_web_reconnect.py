"""A dropped network at a table is shown as one (issue 36): with the browser offline the
banner says the table is reconnecting, the action buttons are disabled, and the account
bar keeps the account (a failed request is not a logout); back online, all comes back.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess
from table_pages import SERVER as SERVER  # the server the tests use: table_pages' stacked decks
from table_pages import Person, open_table, screenshot, sit, wait_turn

LIVE_BUTTONS = ".action-bar.active .act-btn:not(:disabled)"
RETRIES = "n => window.studApp.socket.retries >= n"


def test_offline_at_a_table_shows_reconnecting_and_keeps_the_account(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    person = Person(browser, server.base)
    try:
        person.guest()
        table = open_table(server.base)
        sit(person, table)
        turn = wait_turn(person, table)["turn"]["turn"]
        page = person.page
        account = page.inner_text("#account")
        assert page.is_hidden("#status")

        person.context.set_offline(True)
        page.wait_for_selector("#status:not([hidden])")
        assert page.inner_text("#status") == "Connection lost — reconnecting…"
        page.wait_for_selector("body.offline .action-bar.active .act-btn:disabled")
        assert page.locator(LIVE_BUTTONS).count() == 0
        assert page.locator(".action-bar .your-turn.offline").count() == 1
        # Some seconds offline: the socket has failed to come back a few times.
        page.wait_for_function(RETRIES, arg=4)
        screenshot(page, tmp_path / "reconnecting.png", "screenshot-reconnecting.png")
        # The account is asked for while offline (as a finished hand asks): the request
        # fails, and the bar keeps the account it showed.
        person.js("() => window.studApp.refreshAccount()")
        assert page.inner_text("#account") == account
        assert page.locator("#account .account-name").count() == 1
        clicked = person.js(
            "t => { document.querySelector('.action-bar.active .act-btn')?.click();"
            " return window.studApp.models.get(t).state.turn.turn; }",
            table,
        )
        assert clicked == turn  # a click on a disabled button sent nothing

        person.context.set_offline(False)
        page.wait_for_selector("#status", state="hidden")
        page.wait_for_selector(LIVE_BUTTONS)
        assert page.locator("body.offline").count() == 0
        assert page.locator(".action-bar .your-turn.offline").count() == 0
        assert page.inner_text("#account") == account
        # The turn is playable again: a check or call goes through.
        page.locator(LIVE_BUTTONS).first.click()
        page.wait_for_function(
            "([t, n]) => { const s = window.studApp.models.get(t).state;"
            " return !s.turn || s.turn.turn > n || s.turn.seat !== s.you; }",
            arg=[table, turn],
        )
        assert person.errors == []
    finally:
        person.close()
