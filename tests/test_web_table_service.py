"""The table service in a real Chromium (issue 14): what a new player met, fixed, and the
table's chips, chat, waiting list and log, against a real server on a loopback port.

Each bug of the issue has a test here that failed before the fix: sitting out plays the
hand on, leaving asks and folds, one number for a hand, "you join the next hand", a guest
registers in place. Each feature has one too: the buy-in range and the automatic rebuy,
chat (an HTML/script payload stays text), the waiting list, the log kept across a reload,
My hands. A bots-only table plays beside the tests' tables, so a table's own count of
hands and the hands' ids (the number now shown everywhere) differ.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from stud.testing.server import ServerProcess, ServerSpec
from stud.testing.wait import wait_until
from stud.testing.web import round_trip
from test_web_client import TIMEOUT, Tab, passive, play, register, shot

ARGS = (
    "--turn-seconds", "40", "--time-bank", "20", "--pause", "1.5", "--grace", "60",
    "--bot-delay", "0.15", "0.35", "--no-default-tables",
)  # fmt: skip
STATE = "t => window.studApp.models.get(t)?.state"


def bots_only_table(proc: ServerProcess) -> None:
    """Bots alone at a table of their own: the room's hand ids run ahead of each table's count."""
    guest = httpx.post(proc.base + "/api/guest").cookies
    response = httpx.post(
        proc.base + "/api/tables",
        json={"name": "Bots only", "game": "razz", "ante": 1, "bring_in": 2,
              "small_bet": 4, "big_bet": 8, "seats": 6, "bots": 4, "bot_kind": "station"},
        cookies=guest,
    )  # fmt: skip
    assert response.status_code == 201, response.text


SERVER = ServerSpec(ARGS, decks={}, setup=bots_only_table)


def guest(tab: Tab) -> None:
    tab.open()
    tab.page.click(".welcome .btn.primary")
    tab.page.wait_for_selector("#account .account-name")


def new_table(tab: Tab, name: str, **spec: Any) -> int:
    """A table made through the REST API with the tab's session (station bots: they call)."""
    body = {"name": name, "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 5,
            "big_bet": 10, "seats": 4, "bots": 3, "bot_kind": "station", **spec}  # fmt: skip
    response = tab.page.request.post(f"{tab.base}/api/tables", data=body)
    assert response.ok, response.text()
    return int(response.json()["id"])


def sit(tab: Tab, table: int, buy_in: int | None = None, seat: int | None = None) -> None:
    """Open the table and sit through the buy-in dialog (its own default amount if None)."""
    page = tab.page
    if f"#/table/{table}" not in page.url:
        tab.open(f"#/table/{table}")
    page.wait_for_selector(".felt .seat")
    if seat is None:
        page.click(".table-buttons .btn.primary")
    else:
        page.click(f".seat[data-seat='{seat}'] .sit-btn")
    page.wait_for_selector("dialog.buy-in")
    if buy_in is not None:
        page.fill("dialog.buy-in input[name='buy_in']", str(buy_in))
    page.click("dialog.buy-in button.primary")
    page.wait_for_selector(".seat.me")


def state(tab: Tab, table: int) -> dict[str, Any]:
    return dict(tab.js(STATE, table))


def hint(tab: Tab) -> str:
    return tab.page.inner_text(".action-hint")


def test_joining_during_a_hand_says_you_join_the_next_hand(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Bug 8: before you are dealt in, the action bar says so (not "Waiting for Bot 1…")."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        table = new_table(tab, "Manners")
        tab.open(f"#/table/{table}")
        # Sit down while the bots play a hand: the action bar says when you play.
        page.wait_for_function(f"() => ({STATE})({table})?.hand?.street <= 4", timeout=TIMEOUT)
        free = next(i for i, p in enumerate(state(tab, table)["seats"]) if p is None)
        sit(tab, table, 100, seat=free)
        page.wait_for_function(
            f"""() => {{ const s = ({STATE})({table});
                return s.hand && !s.hand_seats.includes(s.you); }}"""
        )
        assert hint(tab) == "You join the next hand.", hint(tab)
        shot(tab, tmp_path / "join-next-hand.png")
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_sitting_out_plays_the_hand_on_and_leaving_asks_and_folds(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Bug 3: "Sit out" takes effect at the next hand; "Leave table" during a hand asks,
    says it folds, and does (the felt then shows "folded")."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        table = new_table(tab, "Manners 2")
        sit(tab, table, 100)
        # "Sit out" on your turn: the hand plays on, you still act.
        page.wait_for_selector(".action-bar.active .act-btn:not(:disabled)", timeout=TIMEOUT)
        turn = state(tab, table)["turn"]["turn"]
        page.click(".table-buttons button:text-is('Sit out')")
        page.wait_for_selector(".table-buttons button:text-is('Sit in')")
        round_trip(page)  # a sit-out that passed the turn would have said so by now
        now = state(tab, table)
        assert now["turn"] and now["turn"]["turn"] == turn and now["turn"]["seat"] == now["you"]
        assert page.query_selector(".action-bar.active .act-btn:not(:disabled)")
        assert "sits out from the next hand" in page.inner_text(".log")
        play(tab, table, hands=1)
        # The next hand is dealt without you.
        page.wait_for_function(
            f"""() => {{ const s = ({STATE})({table});
                return s.hand && !s.hand_seats.includes(s.you); }}""",
            timeout=TIMEOUT,
        )
        page.wait_for_selector(".action-hint:text-is('You are sitting out.')")

        # Leaving during a hand you are in: asked first, told it folds, folded.
        page.click(".table-buttons button:text-is('Sit in')")
        page.wait_for_function(
            f"""() => {{ const s = ({STATE})({table});
                return s.hand && s.hand_seats.includes(s.you); }}""",
            timeout=TIMEOUT,
        )
        balance = int(tab.js("() => window.studApp.account.balance"))
        left: list[bool] = []

        def leave_on_fourth(info: dict[str, Any]) -> bool:
            if left or info["state"]["hand"]["street"] < 4:
                return False
            left.append(True)
            page.click(".table-buttons [data-do='leave']")
            page.wait_for_selector("dialog.confirm-leave")
            assert "folds your hand" in page.inner_text("dialog.confirm-leave")
            page.click("dialog.confirm-leave button[value='leave']")
            page.wait_for_function(
                """() => [...document.querySelectorAll('.seat.me .tag')]
                    .some(t => t.textContent === 'folded')"""
            )
            shot(tab, tmp_path / "left-folded.png")
            return True

        for _ in range(3):
            play(tab, table, hands=1, on_turn=leave_on_fourth)
            if left:
                break
        assert left, "never reached 4th street"
        log = page.inner_text(".log")
        assert re.search(r"\(you\) folds\n", log), log
        assert "(you) folds and will leave after this hand" in log
        # When the hand ends the seat is gone and the stack is back in the balance.
        page.wait_for_function(f"() => ({STATE})({table}).you === null", timeout=TIMEOUT)
        page.wait_for_function(f"() => window.studApp.account.balance > {balance}")
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_one_number_for_a_hand_everywhere(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Bug 7: the table, the log, the hand list, the downloads and the replayer agree."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        table = new_table(tab, "Numbers")
        sit(tab, table, 100)
        play(tab, table, hands=2)
        page.wait_for_selector(".table-name .hand-number")
        # The hand on the felt (or the last one) goes by its id, not the table's own count.
        seen = tab.js(
            f"""() => {{ const s = ({STATE})({table});
                const el = document.querySelector('.table-name .hand-number');
                return {{shown: Number(el.dataset.hand), text: el.textContent,
                         number: s.hand_number, id: s.hand_id ?? s.last_hand_id,
                         last: s.last_hand_id}}; }}"""
        )
        assert seen["shown"] == seen["id"] and seen["text"] == f"· hand #{seen['id']}", seen
        assert seen["id"] != seen["number"], seen
        last = seen["last"]
        assert f"Hand #{last} is over" in page.inner_text(".log")
        page.click(".side .tab[data-tab='hands']")
        page.wait_for_selector(f".hand-list li[data-hand='{last}']")
        assert page.inner_text(f".hand-list li[data-hand='{last}']").startswith(f"#{last}")
        assert page.get_attribute(f".hand-list li[data-hand='{last}'] .dl-phh", "href") == (
            f"/api/hands/{last}/phh"
        )
        text = page.request.get(f"{server.base}/api/hands/{last}/pokerstars").text()
        assert f"Hand #{last}:" in text, text[:200]
        page.click(f".hand-list li[data-hand='{last}'] .replay-link")
        page.wait_for_selector(".replayer .replay-controls")
        assert page.inner_text(".replayer h1") == f"Hand #{last}"
        shot(tab, tmp_path / "replayer-number.png")
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_a_guest_registers_in_place_and_is_warned_before_logging_out(
    server: ServerProcess, browser: Browser
) -> None:
    """Bug 2: Register stays for a guest and keeps the account; logging out warns first."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        table = new_table(tab, "Upgrade")
        sit(tab, table, 150)
        play(tab, table, hands=1)
        fetch_me = "() => fetch('/api/me').then(r => r.json())"
        before = tab.js(fetch_me)  # the next hand waits for us: the books stand still
        assert before["kind"] == "guest"
        page.click("#account [data-do='register']")
        page.fill("dialog form[data-mode='upgrade'] input[name='name']", "keeper")
        page.fill("dialog form[data-mode='upgrade'] input[name='password']", "secret-pass")
        page.click("dialog form[data-mode='upgrade'] button[type='submit']")
        page.wait_for_selector("#account .account-name:text-is('keeper')")
        after = tab.js(fetch_me)
        assert (after["id"], after["kind"]) == (before["id"], "user")
        assert after["balance"] + after["at_tables"] == before["balance"] + before["at_tables"]
        # Still seated, under the new name; the hands played as a guest are the account's.
        page.wait_for_selector(".seat.me .name:text-is('keeper')")
        page.goto(f"{server.base}/#/hands")
        page.wait_for_selector(".my-hands-table tbody tr")
        assert page.query_selector("#account [data-do='register']") is None

        # Another guest logs out: told the chips are lost; Cancel keeps the account.
        other = Tab(browser, server.base)
        try:
            guest(other)
            other.page.click("#account [data-do='logout']")
            other.page.wait_for_selector("dialog.guest-logout")
            warning = other.page.inner_text("dialog.guest-logout")
            assert "lost" in warning and "10,000" in warning, warning
            other.page.click("dialog.guest-logout button[value='cancel']")
            assert other.js("() => window.studApp.account?.kind") == "guest"
            other.page.click("#account [data-do='logout']")
            other.page.click("dialog.guest-logout button[value='logout']")
            other.page.wait_for_selector("#account [data-do='guest']")
            assert not other.errors, other.errors
        finally:
            other.close()
        assert not tab.errors, tab.errors
    finally:
        tab.close()


@pytest.mark.slow
def test_buy_in_range_top_up_and_automatic_rebuy(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Chips: a buy-in range that does not start at the maximum, the top bar counting chips at
    tables, Add chips between hands, and the automatic rebuy after a bust."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        total = int(tab.js("() => window.studApp.account.balance"))
        # Big antes against station bots: a 20-chip stack is all-in every hand.
        table = new_table(
            tab, "Rebuy", ante=10, bring_in=10, small_bet=10, big_bet=20, min_buy_in=20,
            max_buy_in=60,
        )  # fmt: skip
        tab.open(f"#/table/{table}")
        page.click(".table-buttons .btn.primary")
        page.wait_for_selector("dialog.buy-in")
        offered = int(page.input_value("dialog.buy-in input[name='buy_in']"))
        assert 20 <= offered < 60, offered  # the middle of the range, not the maximum
        assert page.get_attribute("dialog.buy-in input[type='range']", "max") == "60"
        page.fill("dialog.buy-in input[name='buy_in']", "20")
        page.check("dialog.buy-in input[name='auto_rebuy']")
        shot(tab, tmp_path / "buy-in.png")
        page.click("dialog.buy-in button.primary")
        page.wait_for_selector(".seat.me")
        # The top bar counts the chips at the table: the total does not drop by the buy-in.
        page.wait_for_function("() => window.studApp.account.at_tables === 20")
        assert page.inner_text("#account .balance-amount") == f"{total:,}"
        assert "(20 at tables)" in page.inner_text("#account .balance")
        assert page.is_checked(".table-buttons .auto-rebuy input")
        # Add chips: between hands they go on the stack at once (or after the hand).
        page.click(".table-buttons [data-do='top-up']")
        page.wait_for_selector("dialog.top-up")
        page.fill("dialog.top-up input[name='buy_in']", "10")
        page.click("dialog.top-up button[value='ok']")
        page.wait_for_function("() => window.studApp.account.at_tables === 30")
        page.wait_for_function(
            "() => /adds 10/.test(document.querySelector('.log').innerText)", timeout=TIMEOUT
        )

        # Busted (or below the minimum) after a hand: bought back to the buy-in, still seated.
        def fold_first(buttons: list[dict[str, Any]], now: dict[str, Any]) -> str | None:
            """Check when it is free, else fold whenever allowed: the antes alone take the stack
            below the minimum. (Fold when checking is free only asks first, and the clock runs.)"""
            for action in ("check", "fold"):
                for b in buttons:
                    if b["action"] == action:
                        return str(b["selector"])
            return passive(buttons, now)

        def rebought(seconds: float) -> bool:
            """The rebuy's log line, which follows the hand's end by a message or two."""
            try:
                page.wait_for_function(
                    "() => /\\(you\\) rebuys/.test(document.querySelector('.log').innerText)",
                    timeout=seconds * 1000,
                )
            except PlaywrightTimeout:
                return False
            return True

        # Folding loses the ante each hand, but a bring-in all in that wins a showdown against
        # three callers can multiply the stack: play on while it is at the minimum or above.
        for _ in range(40):
            play(tab, table, hands=1, choose=fold_first)
            now = state(tab, table)
            assert not now["seats"][now["you"]]["sitting_out"], (
                "sat out (a turn ran out?):\n" + page.inner_text(".log")
            )
            if now["hand"] is not None:  # the next hand already: its ante is in, look again
                if rebought(5):
                    break
                continue
            done = "(you) rebuys" in page.inner_text(".log")
            if now["seats"][now["you"]]["stack"] >= 20 and not done:
                continue  # at the minimum or above: no rebuy is due
            assert rebought(5), (
                "below the minimum between hands but not bought back:\n"
                + page.inner_text(".log")
                + "\n"
                + json.dumps(now)
            )
            break
        else:
            raise AssertionError(
                "still at the minimum or above after forty hands:\n"
                + page.inner_text(".log")
                + "\n"
                + json.dumps(state(tab, table))
            )
        assert re.search(r"\(you\) rebuys \d+ \(stack 30\)", page.inner_text(".log"))
        assert state(tab, table)["you"] is not None

        # Every chip is accounted for: the start, plus what each hand won or lost (once the
        # last hand's record is stored).
        def accounted() -> tuple[dict[str, int], int]:
            tab.page.evaluate("() => window.studApp.refreshAccount()")
            account = tab.js("() => window.studApp.account")
            hands = page.request.get(f"{server.base}/api/me/hands").json()
            return account, sum(h["net"] for h in hands)

        def balanced() -> bool:
            account, nets = accounted()
            return account["balance"] + account["at_tables"] == total + nets

        try:
            wait_until(balanced, "every chip accounted for", timeout=30)
        except TimeoutError:
            account, nets = accounted()
            raise AssertionError((account, nets, total)) from None
        assert not tab.errors, tab.errors
    finally:
        tab.close()


CHAT_PAYLOAD = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> <b>gg</b>'


def test_chat_is_text_muted_per_account_and_the_dealer_speaks(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Chat: an HTML/script payload shows as text; a player can be muted; dealer lines."""
    alice = Tab(browser, server.base)
    bob = Tab(browser, server.base)
    try:
        register(alice, "chatty")
        guest(bob)
        table = new_table(alice, "Chat")
        sit(alice, table, 100)
        bob.open(f"#/table/{table}")
        for tab in (alice, bob):
            tab.page.click(".side .tab[data-tab='chat']")
        alice.page.fill(".chat-form input[name='chat']", CHAT_PAYLOAD)
        alice.page.press(".chat-form input[name='chat']", "Enter")
        bob.page.wait_for_selector(".chat-line.player .chat-text")
        assert bob.page.inner_text(".chat-line.player .chat-text") == CHAT_PAYLOAD
        # Text, not markup: no element made of it, no script run.
        children = "() => document.querySelector('.chat-line.player .chat-text').children.length"
        assert bob.js(children) == 0
        assert bob.js("() => window.__xss") is None and alice.js("() => window.__xss") is None
        assert bob.page.inner_text(".chat-line.player .chat-name") == "chatty"
        # The dealer tells what happens at the table.
        alice.page.wait_for_selector(".chat-line.dealer:has-text('chatty sits down.')")
        bob.page.wait_for_selector(".chat-line.dealer:has-text('is dealt.')", timeout=TIMEOUT)
        shot(bob, tmp_path / "chat.png", "screenshot-chat.png")
        # Too long: refused with a message, nothing sent.
        alice.page.fill(".chat-form input[name='chat']", "")
        alice.js(
            """t => window.studApp.socket.send({type: 'chat', table: t, text: 'x'.repeat(300)})""",
            table,
        )
        # The client words the error code (chat_too_long) from its catalog.
        alice.page.wait_for_selector(".toast:has-text('too long for the chat')")
        # Bob mutes Alice: her lines go, and stay gone after a reload (kept for his account).
        bob.page.click(".chat-line.player .mute")
        assert bob.page.query_selector(".chat-line.player") is None
        bob.page.wait_for_selector(".chat-muted:has-text('chatty')")
        # Said while the table waits for her (her turn clock is 40 s): no state comes after
        # the line, and it shows at once all the same.
        alice.page.wait_for_function(
            f"() => {{ const s = ({STATE})({table}); return s?.turn?.seat === s?.you; }}"
        )
        alice.page.fill(".chat-form input[name='chat']", "still there?")
        alice.page.press(".chat-form input[name='chat']", "Enter")
        alice.page.wait_for_selector(
            ".chat-line.player.mine:has-text('still there?')", timeout=10_000
        )
        round_trip(bob.page)  # the line reached bob's socket before this answer
        assert bob.page.query_selector(".chat-line.player") is None
        bob.page.reload()
        bob.page.click(".side .tab[data-tab='chat']")
        bob.page.wait_for_selector(".chat-muted:has-text('chatty')")
        bob.page.click(".chat-muted .unmute")
        alice.page.fill(".chat-form input[name='chat']", "hello again")
        alice.page.press(".chat-form input[name='chat']", "Enter")
        bob.page.wait_for_selector(".chat-line.player:has-text('hello again')")
        # Written while the socket is down: kept, said so, and sent once the connection is back.
        alice.js("() => { const s = window.studApp.socket; s.stopped = true; s.ws.close(); }")
        alice.page.wait_for_function("() => !window.studApp.socket.open")
        alice.page.fill(".chat-form input[name='chat']", "back soon")
        alice.page.press(".chat-form input[name='chat']", "Enter")
        alice.page.wait_for_selector(".toast:has-text('your message will be sent')")
        assert bob.page.query_selector(".chat-line.player:has-text('back soon')") is None
        alice.js("() => window.studApp.socket.connect()")
        bob.page.wait_for_selector(".chat-line.player:has-text('back soon')")
        alice.page.wait_for_selector(".chat-line.player.mine:has-text('back soon')")
        assert not alice.errors and not bob.errors, alice.errors + bob.errors
    finally:
        alice.close()
        bob.close()


def test_waiting_list_for_a_full_table(server: ServerProcess, browser: Browser) -> None:
    """A full table offers its waiting list; a bot makes room and the seat is yours."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        table = new_table(tab, "Full", seats=3, bots=3)
        tab.open(f"#/table/{table}")
        page.wait_for_function(f"() => ({STATE})({table})?.seats.every(Boolean)", timeout=TIMEOUT)
        page.click(".table-buttons [data-do='wait']")
        page.wait_for_selector("dialog.buy-in")
        page.fill("dialog.buy-in input[name='buy_in']", "120")
        page.click("dialog.buy-in button.primary")
        page.wait_for_selector(".waiting-place:text-is('You are #1 on the waiting list')")
        page.wait_for_selector(".seat.me", timeout=TIMEOUT)
        seated = state(tab, table)
        assert seated["seats"][seated["you"]]["stack"] == 120 and seated["waiting"] == []
        # The felt shows your stack in the seat, not the last showdown's player who sat there.
        shown = int(page.inner_text(".seat.me .stack").replace(",", ""))
        assert 100 <= shown <= 120, shown
        assert "sits down" in page.inner_text(".log")
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_reload_keeps_the_log_and_my_hands_add_up(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """The log of the hands already seen survives a reload; My hands lists won/lost and the
    running total, which is what the balance moved by."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        start = int(tab.js("() => window.studApp.account.balance"))
        table = new_table(tab, "Memory")
        sit(tab, table, 100)
        play(tab, table, hands=2, choose=passive)
        first = state(tab, table)["last_hand_id"]
        assert f"Hand #{first} is over" in page.inner_text(".log")
        page.reload()
        page.wait_for_selector(".felt .seat")
        page.wait_for_function(
            f"() => document.querySelector('.log').innerText.includes('Hand #{first} is over')"
        )
        log = page.inner_text(".log")
        assert log.count(" is over") >= 2, log
        # Leave, then My hands: each hand's result and the running total.
        page.click(".table-buttons [data-do='leave']")
        if page.query_selector("dialog.confirm-leave"):
            page.click("dialog.confirm-leave button[value='leave']")
        page.wait_for_function(f"() => ({STATE})({table}).you === null", timeout=TIMEOUT)
        page.click("#account [data-do='my-hands']")
        page.wait_for_selector(".my-hands-table tbody tr")
        rows = tab.js(
            """() => [...document.querySelectorAll('.my-hands-table tbody tr')].map(r => ({
                id: Number(r.dataset.hand), net: Number(r.dataset.net),
                running: r.querySelector('.running').textContent}))"""
        )
        assert len(rows) >= 2
        page.wait_for_function("() => window.studApp.account.at_tables === 0")
        balance = int(tab.js("() => window.studApp.account.balance"))
        assert balance - start == sum(r["net"] for r in rows)

        def signed(n: int) -> str:
            return f"+{n:,}" if n > 0 else (f"−{-n:,}" if n < 0 else "0")

        assert rows[0]["running"] == signed(balance - start)
        assert rows[-1]["running"] == signed(rows[-1]["net"])
        shot(tab, tmp_path / "my-hands.png", "screenshot-my-hands.png")
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_a_lively_table_keeps_its_bots_when_you_sit_down(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Lively tables: an 8-seat table shows 6/8 in the lobby; sitting down sends no bot away,
    so your first hand is seven-handed."""
    tab = Tab(browser, server.base)
    page = tab.page
    try:
        guest(tab)
        table = new_table(tab, "Lively", seats=8, bots=6)
        tab.open()
        page.wait_for_selector(f"tr[data-table='{table}'] .seats-cell:has-text('6/8')")
        sit(tab, table, 100)
        page.wait_for_function(
            f"""() => {{ const s = ({STATE})({table});
                return s.hand && s.hand_seats.includes(s.you); }}""",
            timeout=TIMEOUT,
        )
        assert len(state(tab, table)["hand_seats"]) == 7
        shot(tab, tmp_path / "lively.png")
        page.click(".brand")
        page.wait_for_selector(f"tr[data-table='{table}'] .seats-cell:has-text('7/8')")
        assert not tab.errors, tab.errors
    finally:
        tab.close()
