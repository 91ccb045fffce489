"""The browser client in a real headless Chromium against a real server on a loopback port.

A person registers, creates tables with bots and plays hands to the showdown
through the page: a Stud hand with an open pair on 4th street (the small-or-
double bet choice), a Stud Hi/Lo pot split between a high and a low hand. A
second browser watches the same table and never sees a down card that was not
shown, neither in its page nor in any websocket frame; reloading the page in
the middle of a hand restores the table. Eight players (the browser and seven
scripted websocket players) reach 7th street in Razz: the community card, then
a main pot and two side pots. A person who does not act runs out of clock and
time bank and is folded. Screenshots go to the test's tmp dir (and to docs/
when ``STUD_WEB_SCREENSHOTS=1``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from stud.testing.server import Client, ServerProcess, ServerSpec
from stud.testing.web import settle

CHROMIUM = os.environ.get("STUD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
DOCS = Path(__file__).resolve().parent.parent / "docs"

# Each player's seven cards from the dealer's left, in the order dealt (down, down, up x4, down).
# Stud: every player's door card and 4th-street card pair (R7: small or double bet on 4th).
# Stud8: position 0 makes trip kings and no low, position 1 the low 7-5-3-2-A, the others
# neither: a split pot.
DECKS = {
    "stud": [
        "Ah Kd 9c 9d 2s 3h 4c",
        "Qs Jd 5h 5s 6h 7h 8c",
        "Tc Td Kh Ks 2c 3c 4d",
        "7c 7d 3s 3d Jc Qc 6d",
    ],
    "stud8": [
        "Kc Kd Ks 9h Jd 2h Td",
        "Ah 2d 3s 5c 7h Qc Jh",
        "9c 9d Tc Qd Kh 4s 6d",
        "Th Ts Jc 8c 6c 4h Qs",
        "Js Qh 8d 8h 5s 3c 9s",
    ],
    # Razz, eight players: 48 cards dealt by 6th street leave four, too few for eight seats on
    # 7th street, so the community card Kc is turned up (R12). From the button's left (seats 1, 2,
    # ..., 7, 0 when seat 0 has the button): seat 5 makes the wheel, seat 2 a 6-4 and seat 6 a
    # 7-5; the others pair up.
    "razz": {
        "hands": [
            "8c 8d 9c 9d Tc Jc",
            "Ad 2d 3d 4d 6d Jd",
            "8h 8s 9h 9s Td Jh",
            "Qd Qh 6c 7c Ts Js",
            "Ac 2c 3c 4c 5c Qc",
            "2h 3h 4h 5h 7h Th",
            "As Ah Kd Ks Kh Qs",
            "7d 7s 6h 6s 5d 5s",
        ],
        "community": "Kc",
    },
}
# A short recorded hand for the replayer: three players, one all-in, the community card.
COMMUNITY_HAND: dict[str, Any] = {
    "id": 999999,
    "number": 9,
    "table_name": "Recorded",
    "game": "stud",
    "table_seats": 8,
    "source": "this browser",
    "players": [
        {"seat": 0, "name": "ann", "stack": 100},
        {"seat": 3, "name": "bob", "stack": 20},
        {"seat": 5, "name": "cy", "stack": 100},
    ],
    "events": [
        {"type": "hand_started", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 5,
         "big_bet": 10, "stacks": {"0": 100, "3": 20, "5": 100}},
        {"type": "ante", "seat": 0, "amount": 1, "all_in": False},
        {"type": "ante", "seat": 3, "amount": 1, "all_in": False},
        {"type": "ante", "seat": 5, "amount": 1, "all_in": False},
        {"type": "street", "street": 3},
        {"type": "dealt", "seat": 0, "street": 3, "down": [None, None], "up": ["2c"]},
        {"type": "dealt", "seat": 3, "street": 3, "down": [None, None], "up": ["Kd"]},
        {"type": "dealt", "seat": 5, "street": 3, "down": [None, None], "up": ["7h"]},
        {"type": "action", "seat": 0, "kind": "bring-in", "amount": 2, "to": 2, "by": 2,
         "all_in": False},
        {"type": "action", "seat": 3, "kind": "raise", "amount": 19, "to": 19, "by": 17,
         "all_in": True},
        {"type": "action", "seat": 5, "kind": "call", "amount": 19, "to": 19, "by": 0,
         "all_in": False},
        {"type": "action", "seat": 0, "kind": "call", "amount": 17, "to": 19, "by": 0,
         "all_in": False},
        {"type": "street", "street": 7},
        {"type": "community", "card": "9d"},
        {"type": "action", "seat": 0, "kind": "bet", "amount": 10, "to": 10, "by": 10,
         "all_in": False},
        {"type": "action", "seat": 5, "kind": "call", "amount": 10, "to": 10, "by": 0,
         "all_in": False},
        {"type": "pots", "pots": [{"amount": 60, "seats": [0, 3, 5], "rake": 0},
                                  {"amount": 20, "seats": [0, 5], "rake": 0}]},
        {"type": "showdown", "seats": [0, 3, 5]},
        {"type": "show", "seat": 0, "cards": ["2d", "2h", "2c", "5s", "6s", "Js"],
         "high": "three of a kind, Deuces", "low": None},
        {"type": "show", "seat": 3, "cards": ["Kc", "Ks", "Kd", "Ah", "Qh", "3c"],
         "high": "three of a kind, Kings", "low": None},
        {"type": "muck", "seat": 5},
        {"type": "award", "pot": 0, "seat": 3, "amount": 60, "share": "all",
         "hand": "three of a kind, Kings", "cards": ["Kc", "Ks", "Kd", "Ah", "Qh"]},
        {"type": "award", "pot": 1, "seat": 0, "amount": 20, "share": "all",
         "hand": "three of a kind, Deuces", "cards": ["2d", "2h", "2c", "9d", "Js"]},
        {"type": "hand_ended", "stacks": {"0": 89, "3": 60, "5": 71}},
    ],
}  # fmt: skip
SERVER_ARGS = (
    "--turn-seconds", "40", "--time-bank", "20", "--pause", "2.5", "--grace", "60",
    "--bot-delay", "0.25", "0.45", "--no-default-tables",
    "--hand-factory", "stud.testing.web:stacked_hand",
)  # fmt: skip
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
# Installed in every page: what the showdowns drew, however briefly they stayed on the felt.
OBSERVER = """
window.__seen = {descs: [], splits: 0, awards: 0};
new MutationObserver(() => {
  const seen = window.__seen;
  for (const tag of document.querySelectorAll('.felt .tag.hand-desc')) {
    if (!seen.descs.includes(tag.textContent)) seen.descs.push(tag.textContent);
  }
  const results = document.querySelector('.felt .results');
  if (results && results !== seen.lastResults) {
    seen.lastResults = results;
    seen.awards += 1;
    const high = results.querySelector('.share-high');
    if (high && results.querySelector('.share-low')) seen.splits += 1;
  }
}).observe(document, {subtree: true, childList: true});
"""
TIMEOUT = 60_000
# A room with short clocks for the time bank: 2 s a turn, then a 2 s bank. Three Stud players
# (seats 0, 1 and 2): the bring-in is the last from the button's left, never the person, so each
# time-out folds them.
QUICK_ARGS = (
    "--turn-seconds", "2", "--time-bank", "2", "--pause", "1.5", "--grace", "60",
    "--bot-delay", "0.25", "0.45", "--no-default-tables",
    "--hand-factory", "stud.testing.web:stacked_hand",
)  # fmt: skip
QUICK_DECKS = {"stud": ["Ah Kd 9c 9d 2s 3h 4c", "Qs Jd Qh 5s 6h 7h 8c", "Tc Td 2c Ks 2d 3c 4d"]}
# What the clock of the person's own seat showed, tick by tick.
CLOCK_OBSERVER = """
window.__clock = [];
new MutationObserver(() => {
  const el = document.querySelector('.seat.me .clock');
  const text = el?.querySelector('.clock-text')?.textContent;
  if (!text) return;
  const entry = (el.classList.contains('bank') ? 'bank:' : 'turn:') + text;
  if (window.__clock[window.__clock.length - 1] !== entry) window.__clock.push(entry);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


SERVER = ServerSpec(SERVER_ARGS, decks=DECKS)
QUICK_SERVER = ServerSpec(QUICK_ARGS, decks=QUICK_DECKS)
"""Short clocks: the time bank runs out within seconds."""


@pytest.fixture
def quick_server(shared_server: Callable[[ServerSpec], ServerProcess]) -> ServerProcess:
    return shared_server(QUICK_SERVER)


class Tab:
    """One browser context and page, with every websocket message it receives recorded."""

    def __init__(self, browser: Browser, base: str, **options: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 900}, **options)
        self.context.add_init_script(OBSERVER)
        self.page: Page = self.context.new_page()
        self.base = base
        self.messages: list[str] = []
        """Each message received, as text (a frame of several gives each its own)."""
        self.sent: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.set_default_timeout(TIMEOUT)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._received)
        ws.on("framesent", lambda payload: self.sent.append(str(payload)))

    def _received(self, payload: Any) -> None:
        text = str(payload)
        frame = json.loads(text)
        if isinstance(frame, list):  # several messages sent together
            self.messages.extend(json.dumps(message) for message in frame)
        else:
            self.messages.append(text)

    def open(self, fragment: str = "#/lobby") -> None:
        self.page.goto(f"{self.base}/{fragment}")
        self.page.wait_for_selector("#view > section")

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)

    def close(self) -> None:
        self.context.close()


def register(tab: Tab, name: str, password: str = "secret-pass") -> None:
    tab.open()
    tab.page.click("#account [data-do='register']")
    tab.page.fill("dialog form[data-mode='register'] input[name='name']", name)
    tab.page.fill("dialog form[data-mode='register'] input[name='password']", password)
    tab.page.click("dialog form[data-mode='register'] button[type='submit']")
    tab.page.wait_for_selector(f"#account .account-name:text-is('{name}')")


def create_table(tab: Tab, name: str, game: str, bots: int = 3, seats: int = 4) -> int:
    """Create a table through the lobby's form and sit down through the buy-in dialog."""
    page = tab.page
    tab.open()
    page.click("[data-do='create-table']")
    form = "dialog form.create-table"
    page.fill(f"{form} input[name='name']", name)
    page.select_option(f"{form} select[name='game']", game)
    for field, value in (
        ("small_bet", 10), ("big_bet", 20), ("ante", 1), ("bring_in", 3),
        ("seats", seats), ("bots", bots),
    ):  # fmt: skip
        page.fill(f"{form} input[name='{field}']", str(value))
    page.select_option(f"{form} select[name='bot_kind']", "station")  # bots that never fold
    page.click(f"{form} button[type='submit']")
    page.wait_for_selector("dialog.buy-in")
    page.fill("dialog.buy-in input[name='buy_in']", "400")
    page.click("dialog.buy-in button[value='sit']")
    page.wait_for_selector(".seat.me")
    match = re.search(r"#/table/(\d+)", page.url)
    assert match, page.url
    return int(match.group(1))


FINISHED = """t => {
  const state = window.studApp.models.get(t)?.state;
  return state ? state.hand_number - (state.hand ? 1 : 0) : 0;
}"""


def finished(tab: Tab, table: int | str) -> int:
    """Hands finished at the table (the server's count: it survives a reload)."""
    return int(tab.js(FINISHED, table))


Chooser = Callable[[list[dict[str, Any]], dict[str, Any]], str | None]


def passive(buttons: list[dict[str, Any]], _state: dict[str, Any]) -> str | None:
    """Check, else call, else bring in: see every hand to the showdown.

    A bring-in as large as the small bet is a complete (the only button the bring-in has then).
    """
    for action in ("check", "call", "bring-in", "complete"):
        for b in buttons:
            if b["action"] == action:
                return str(b["selector"])
    return None


def play(
    tab: Tab,
    table: int | str,  # a cash table's number or a tournament table's "t7.2"
    hands: int,
    choose: Chooser = passive,
    on_turn: Callable[[dict[str, Any]], bool] | None = None,
    timeout: float = 150_000,
) -> None:
    """Act through the action bar whenever it is our turn until ``hands`` more hands finish.

    ``on_turn`` sees each turn first; when it returns True it has acted itself.
    """
    target = finished(tab, table) + hands
    page = tab.page
    while True:
        page.wait_for_function(
            f"""([t, n]) => document.querySelector('.action-bar.active .act-btn:not(:disabled)')
                || ({FINISHED})(t) >= n""",
            arg=[table, target],
            timeout=timeout,
        )
        if finished(tab, table) >= target:
            return
        state = tab.js("t => window.studApp.models.get(t).state", table)
        buttons = tab.js(
            """() => [...document.querySelectorAll('.action-bar .act-btn')].map((b, i) => ({
                action: b.dataset.action, to: Number(b.dataset.to), text: b.textContent,
                selector: `.action-bar .act-btn:nth-child(${i + 1})`}))"""
        )
        if on_turn is not None and on_turn({"state": state, "buttons": buttons}):
            continue  # on_turn acted itself
        selector = choose(buttons, state)
        if selector is None:
            continue
        turn = state["turn"]["turn"]
        page.click(selector)
        page.wait_for_function(
            "([t, turn]) => (window.studApp.models.get(t).state.turn?.turn ?? -1) !== turn",
            arg=[table, turn],
        )


def watcher_leaks(watcher: Tab, player: Tab) -> list[str]:
    """Cards the player was dealt face down that reached the watcher before being shown."""
    private: dict[int, set[str]] = {}
    hand = 0
    for text in player.messages:
        message = json.loads(text)
        hand = _hand_number(message, hand)
        event = message.get("event") or {}
        if event.get("type") == "dealt":
            private.setdefault(hand, set()).update(c for c in event.get("down") or [] if c)
    problems: list[str] = []
    hand = 0
    shown: set[tuple[int, int]] = set()  # (hand, seat) of hands shown at the showdown
    for text in watcher.messages:
        message = json.loads(text)
        hand = _hand_number(message, hand)
        event = message.get("event") or {}
        if event.get("type") == "show":
            shown.add((hand, event["seat"]))
        if event.get("type") == "award" and (hand, event["seat"]) in shown:
            continue  # the five cards of a hand already shown
        visible = _public_cards(message, problems)
        leaked = visible & private.get(hand, set())
        if leaked:
            problems.append(f"hand {hand}: {sorted(leaked)} in {text[:200]}")
    assert private, "the player was never dealt a card"
    return problems


def _hand_number(message: dict[str, Any], current: int) -> int:
    if message.get("type") == "state":
        return int(message["state"].get("hand_number") or current)
    event = message.get("event") or {}
    if event.get("type") in ("new_hand", "hand_started") and "number" in event:
        return int(event["number"])
    return current


def _public_cards(message: dict[str, Any], problems: list[str]) -> set[str]:
    """Every card in a spectator's message outside what the showdown shows."""
    found: set[str] = set()

    def walk(value: Any, shown: bool = False) -> None:
        if isinstance(value, dict):
            if value.get("type") in ("show", "hand_finished"):
                return  # the showdown's shown hands are public
            seat_shown = bool(value.get("shown"))
            for key, item in value.items():
                if key == "down" and isinstance(item, list):
                    if any(item) and not seat_shown:
                        problems.append(f"a spectator got down cards {item}")
                    if seat_shown:
                        continue
                walk(item, shown)
        elif isinstance(value, list):
            for item in value:
                walk(item, shown)
        elif isinstance(value, str) and CARD.match(value):
            found.add(value)

    walk(message)
    return found


WIDER_THAN_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && e.getClientRects().length)
  .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`)"""
"""The first elements reaching past the screen's right edge (what makes a page scroll sideways)."""
DROP_SOCKET = "() => { window.__oldSocket = window.studApp.socket.ws; __oldSocket.close(); }"
OWN_CARDS = "() => [...document.querySelectorAll('.seat.me .cw svg')].map(s => s.dataset.card)"
STREET = "() => Number(document.querySelector('.replayer').dataset.street)"


def own_cards(tab: Tab) -> list[str]:
    return list(tab.js(OWN_CARDS))


def shot(tab: Tab, path: Path, docs_name: str | None = None) -> None:
    settle(tab.page)  # the cards dealt and the bets slid in have settled
    tab.page.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000
    if docs_name and os.environ.get("STUD_WEB_SCREENSHOTS") == "1":
        shutil.copyfile(path, DOCS / docs_name)


@pytest.mark.slow
def test_stud_open_pair_watcher_and_reload(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    player = Tab(browser, server.base)
    watcher = Tab(browser, server.base)
    try:
        register(player, "alice")
        balance_before = int(player.js("() => window.studApp.account.balance"))
        table = create_table(player, "Open pair", "stud")
        player.page.wait_for_function(
            f"() => window.studApp.account.balance === {balance_before - 400}"
        )
        watcher.open(f"#/table/{table}")
        watcher.page.wait_for_selector(".felt .seat")

        seen: dict[str, Any] = {"double": [], "reloaded": False, "mid": None, "dropped": False}

        def choose(buttons: list[dict[str, Any]], state: dict[str, Any]) -> str | None:
            bets = [b for b in buttons if b["action"] in ("bet", "raise")]
            if state["hand"]["street"] == 4 and len(bets) == 2:
                seen["double"].append([b["to"] for b in bets])
                assert "(double)" in bets[1]["text"] and "(single)" in bets[0]["text"]
                return str(bets[1]["selector"])  # the double bet, 20
            return passive(buttons, state)

        def on_turn(info: dict[str, Any]) -> bool:
            hand = info["state"]["hand"]
            if hand["street"] == 5 and seen["mid"] is None:
                seen["mid"] = hand
                shot(player, tmp_path / "stud-5th-street.png")
                # The watcher's page shows backs for every down card in play.
                backs = watcher.js(
                    """() => [...document.querySelectorAll('.felt .cw.down svg')]
                        .map(s => s.dataset.card)"""
                )
                assert backs and set(backs) == {"??"}, backs
                shot(watcher, tmp_path / "watcher-5th-street.png")
            if hand["street"] == 7 and not seen["dropped"]:
                # The connection drops: the socket comes back and resumes from the last event.
                seen["dropped"] = True
                n = int(player.js(f"() => window.studApp.models.get({table}).n"))
                player.js(DROP_SOCKET)
                player.page.wait_for_function(
                    f"""() => window.studApp.socket.ws !== window.__oldSocket
                        && window.studApp.socket.open
                        && !window.studApp.models.get({table}).resuming"""
                )
                for _ in range(50):  # Playwright hands the frames over as it runs
                    resumes = [json.loads(t) for t in player.sent if '"since"' in t]
                    if any(m["type"] == "watch" and m["since"] >= n for m in resumes):
                        break
                    player.page.wait_for_timeout(100)
                else:
                    raise AssertionError(f"no watch with since >= {n}: {player.sent[-5:]}")
                player.page.wait_for_selector(".action-bar.active .act-btn:not(:disabled)")
                assert own_cards(player)[-1] != "??"
                return False
            if hand["street"] == 6 and not seen["reloaded"]:
                seen["reloaded"] = True
                before = own_cards(player)
                assert len(before) == 6 and "??" not in before, before
                player.page.reload()
                player.page.wait_for_selector(".action-bar.active .act-btn")
                assert own_cards(player) == before
                log = player.page.inner_text(".log")
                assert "6TH STREET" in log and "(you)" in log
                shot(player, tmp_path / "after-reload.png")
            return False

        play(player, table, hands=3, choose=choose, on_turn=on_turn)

        assert seen["double"], "never offered the small-or-double bet on a 4th-street open pair"
        assert all(amounts == [10, 20] for amounts in seen["double"]), seen["double"]
        assert seen["reloaded"] and seen["dropped"]
        log = player.page.inner_text(".log")
        assert "Pair on board - a double bet is allowed" in log
        assert "bets 20 (double bet)" in log
        assert "SHOW DOWN" in log and "collected" in log
        # The showdown: shown hands with their descriptions, the winner, the chips moving.
        seen_page = player.js("() => window.__seen")
        assert seen_page["descs"] and seen_page["awards"] >= 1, seen_page
        assert int(player.js("() => Number(document.body.dataset.chipFlights || 0)")) >= 1
        assert int(player.js("() => Number(document.body.dataset.beeps || 0)")) >= 1

        problems = watcher_leaks(watcher, player)
        assert not problems, problems[:5]
        assert len(watcher.messages) > 50
        assert watcher.page.query_selector(".seat.me") is None
        assert not player.errors and not watcher.errors, player.errors + watcher.errors

        # Each finished hand links to its histories and to the replayer.
        player.page.click(".side .tab[data-tab='hands']")
        player.page.wait_for_selector(".hand-list li .dl-phh")
        hand_id = int(player.page.get_attribute(".hand-list li", "data-hand") or 0)
        for link in (".dl-phh", ".dl-ps"):
            href = player.page.get_attribute(f".hand-list li {link}", "href")
            response = player.page.request.get(server.base + str(href))
            assert response.status == 200, (href, response.status)
        # The replay data: a spectator gets no down card until shown; the player gets their own.
        public = watcher.page.request.get(f"{server.base}/api/hands/{hand_id}/replay").json()
        mine = player.page.request.get(f"{server.base}/api/hands/{hand_id}/replay").json()
        assert public["you"] is None and mine["you"] is not None
        assert public["table_name"] == "Open pair" and public["table_seats"] == 4
        public_down = [c for e in public["events"] if e["type"] == "dealt" for c in e["down"]]
        assert public_down and not any(public_down)
        my_down = [
            c
            for e in mine["events"]
            if e["type"] == "dealt" and e["seat"] == mine["you"]
            for c in e["down"]
        ]
        assert len(my_down) == 3 and all(my_down), my_down
        player.page.click(".hand-list li .replay-link")
        player.page.wait_for_selector(".replayer .replay-controls")
        assert "recorded by" not in player.page.inner_text(".replayer .table-head")
        streets = []
        for _ in range(8):
            streets.append(int(player.js(STREET)))
            player.page.click(".replay-controls [data-step='next-street']")
        assert streets[:5] == [3, 4, 5, 6, 7], streets
        player.page.wait_for_selector(".replayer .results .award")
        shot(player, tmp_path / "replayer-end.png")
        player.page.keyboard.press("Home")
        assert player.js("() => document.querySelector('.replayer').dataset.step") == "0"
        assert hand_id > 0
        # A hand this browser recorded itself (the server has none with that id): the replayer
        # draws the community card of R12 and both pots of an all-in.
        player.js(
            "data => sessionStorage.setItem('stud.replay.999999', JSON.stringify(data))",
            COMMUNITY_HAND,
        )
        player.open("#/replay/999999")
        player.page.wait_for_selector(".replayer[data-hand='999999'] .replay-controls")
        player.page.keyboard.press("End")
        player.page.wait_for_selector(".felt .community svg[data-card='9d']")
        results = player.page.inner_text(".felt .results")
        assert "the main pot" in results and "side pot 1" in results, results
        assert "recorded by this browser" in player.page.inner_text(".replayer .table-head")
        shot(player, tmp_path / "replayer-community.png")
        # Log out and back in through the account box.
        player.page.click("#account button:text-is('Log out')")
        player.page.click("#account [data-do='login']")
        player.page.fill("dialog form[data-mode='login'] input[name='name']", "alice")
        player.page.fill("dialog form[data-mode='login'] input[name='password']", "secret-pass")
        player.page.click("dialog form[data-mode='login'] button[type='submit']")
        player.page.wait_for_selector("#account .account-name:text-is('alice')")
        assert int(player.js("() => window.studApp.account.balance")) > 0
    finally:
        player.close()
        watcher.close()


def test_stud8_split_pot_keyboard_and_phone(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    player = Tab(browser, server.base)
    try:
        player.open()
        player.page.click(".welcome .btn.primary")  # play as a guest
        player.page.wait_for_selector("#account .account-name")
        # The lobby fits a phone.
        player.page.set_viewport_size({"width": 390, "height": 844})
        player.page.wait_for_selector(".table-list :is(table, p)")
        assert player.js("() => document.documentElement.scrollWidth") <= 390
        player.page.set_viewport_size({"width": 1400, "height": 900})
        # The lobby filters by game.
        player.page.click(".filters [data-game='razz']")
        player.page.wait_for_function(
            "() => !document.querySelector('.table-list tr[data-game]:not([data-game=razz])')"
        )
        # Four bots (a table that keeps 3 to 5): with the person, the five stacked hands.
        table = create_table(player, "Split", "stud8", bots=4, seats=6)
        # The four-colour deck: diamonds turn blue and clubs green.
        colour = "() => getComputedStyle(document.querySelector('.suit-d')).color"
        player.page.wait_for_selector(".felt svg.card.suit-d")
        two = player.js(colour)
        player.page.check("#pref-four-colour")
        four = player.js(colour)
        assert two != four and four == "rgb(29, 95, 208)", (two, four)

        def keyboard(buttons: list[dict[str, Any]], state: dict[str, Any]) -> None:
            keys = {"check": "k", "call": "c", "bring-in": "i"}
            for action in ("check", "call", "bring-in"):
                if any(b["action"] == action for b in buttons):
                    player.page.keyboard.press(keys[action])
                    return None
            return None

        def by_keys(buttons: list[dict[str, Any]], state: dict[str, Any]) -> str | None:
            before = state["turn"]["turn"]
            keyboard(buttons, state)
            player.page.wait_for_function(
                "([t, turn]) => (window.studApp.models.get(t).state.turn?.turn ?? -1) !== turn",
                arg=[table, before],
            )
            return None

        mid: dict[str, bool] = {"shot": False}

        def on_turn(info: dict[str, Any]) -> bool:
            state = info["state"]
            if state["hand"]["street"] != 6 or mid["shot"]:
                return False
            mid["shot"] = True
            # Bet by its key and photograph the table with the chips out (two-colour deck).
            player.page.uncheck("#pref-four-colour")
            player.page.keyboard.press("b")
            player.page.wait_for_selector(f".felt .bet[data-seat='{state['you']}']")
            shot(player, tmp_path / "stud8-6th-street.png", "screenshot-table.png")
            player.page.set_viewport_size({"width": 390, "height": 844})
            shot(player, tmp_path / "stud8-phone.png")  # docs: tests/test_web_layout.py
            width = player.js("() => document.documentElement.scrollWidth")
            wide = player.js(WIDER_THAN_SCREEN)
            assert width <= 390, f"the phone layout is {width}px wide: {wide}"
            player.page.set_viewport_size({"width": 1400, "height": 900})
            player.page.check("#pref-four-colour")
            return True

        play(player, table, hands=2, choose=by_keys, on_turn=on_turn)
        shot(player, tmp_path / "stud8-split.png", "screenshot-showdown.png")
        assert mid["shot"]
        assert player.js("() => window.__seen.splits") >= 1, player.js("() => window.__seen")
        log = player.page.inner_text(".log")
        assert "the high half of the pot" in log and "the low half of the pot" in log
        assert "7-5-3-2-A low" in log
        assert re.search(r"\(you\) bets 20", log), log
        assert not player.errors, player.errors
        # Leaving the table cashes the stack out to the balance.
        balance = int(player.js("() => window.studApp.account.balance"))
        player.page.click(".table-buttons .btn.danger")
        if player.page.query_selector("dialog.confirm-leave"):  # during a hand: it folds
            player.page.click("dialog.confirm-leave button[value='leave']")
        player.page.wait_for_function(
            f"() => window.studApp.account.balance > {balance}", timeout=TIMEOUT
        )
    finally:
        player.close()


# The eight-handed Razz hand: each seat's buy-in, and what the scripted players (all but the
# browser's seat 0) do: seat 3 bets or completes whenever it may, everyone else checks or calls.
# Seat 5 is all-in for 9 on 4th street, seat 2 for 18 on 5th: a main pot and two side pots.
RAZZ_BUY_INS = {0: 200, 1: 200, 2: 18, 3: 200, 4: 200, 5: 9, 6: 200, 7: 200}
RAZZ_AGGRESSOR = 3
RAZZ_POTS = [(72, 5, "the main pot"), (63, 2, "side pot 1"), (138, 6, "side pot 2")]


def scripted_choice(legal: list[dict[str, Any]], aggressive: bool) -> dict[str, Any]:
    """The smallest wager for the aggressor; else check, call or bring in."""
    if aggressive:
        wagers = [a for a in legal if a["action"] in ("bet", "raise", "complete")]
        if wagers:
            return min(wagers, key=lambda a: int(a["to"]))
    for kind in ("check", "call", "bring-in"):
        for action in legal:
            if action["action"] == kind:
                return action
    return legal[0]


async def scripted_player(
    client: Client, table: int, seat: int, errors: list[str], ready: list[int], go: asyncio.Event
) -> None:
    """Sit in ``seat``, play one hand by the script, then sit out (no second hand is dealt).

    The player connects first and sits only on ``go``: seven sit messages on open
    sockets land within the pause before the first hand even on a loaded machine.
    """
    await client.connect()
    ready.append(seat)
    await go.wait()
    await client.send({"type": "sit", "table": table, "buy_in": RAZZ_BUY_INS[seat], "seat": seat})
    while True:
        message = await client.recv(timeout=120)
        if message["type"] == "error":
            errors.append(f"seat {seat}: {message}")
            return
        event = message.get("event") or {}
        if event.get("type") == "turn" and event["seat"] == seat and event.get("legal"):
            action = scripted_choice(event["legal"], seat == RAZZ_AGGRESSOR)
            await client.send({"type": "act", "table": table, "turn": event["turn"], **action})
        elif event.get("type") == "hand_finished":
            await client.send({"type": "sit_out", "table": table})
            await client.until(lambda m: m.get("for") == "sit_out")
            return


def run_scripted_players(clients: dict[int, Client], table: int, errors: list[str]) -> None:
    """Connect every scripted player first, then sit them all at once."""

    async def run() -> None:
        go = asyncio.Event()
        ready: list[int] = []
        jobs = [
            asyncio.ensure_future(scripted_player(c, table, seat, errors, ready, go))
            for seat, c in clients.items()
        ]

        async def release() -> None:
            while len(ready) < len(clients) and not any(job.done() for job in jobs):
                await asyncio.sleep(0.05)
            go.set()

        try:
            await asyncio.gather(release(), *jobs)
        finally:
            await asyncio.gather(*(c.close() for c in clients.values()))

    try:
        asyncio.run(run())
    except Exception as error:  # reported to the test's thread
        errors.append(repr(error))


def test_razz_eight_players_community_card_and_side_pots(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Eight players reach 7th street: the community card, then a main pot and two side pots."""
    player = Tab(browser, server.base)
    clients = {seat: Client.guest(server.base) for seat in RAZZ_BUY_INS if seat != 0}
    errors: list[str] = []
    thread: threading.Thread | None = None
    try:
        player.open()
        player.page.click(".welcome .btn.primary")  # play as a guest
        player.page.wait_for_selector("#account .account-name")
        body = {
            "name": "Eight", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 5,
            "big_bet": 10, "seats": 8, "bots": 0, "min_buy_in": 5, "max_buy_in": 500,
        }  # fmt: skip
        response = player.page.request.post(f"{server.base}/api/tables", data=body)
        assert response.ok, response.text()
        table = int(response.json()["id"])
        player.open(f"#/table/{table}")
        player.page.click(".seat[data-seat='0'] .sit-btn")
        player.page.fill("dialog.buy-in input[name='buy_in']", str(RAZZ_BUY_INS[0]))
        player.page.click("dialog.buy-in button[value='sit']")
        player.page.wait_for_selector(".seat.me[data-seat='0']")
        # The scripted players connect, then sit down together, before the first hand.
        thread = threading.Thread(target=run_scripted_players, args=(clients, table, errors))
        thread.start()

        seen: dict[str, Any] = {"seventh": False}

        def on_turn(info: dict[str, Any]) -> bool:
            hand = info["state"]["hand"]
            assert len(info["state"]["hand_seats"]) == 8, info["state"]["hand_seats"]
            if hand["street"] == 7 and not seen["seventh"]:
                seen["seventh"] = True
                # Too few cards left for eight: one card face up in the middle, and no seventh
                # card of anyone's own.
                player.page.wait_for_selector(".felt .community svg[data-card='Kc']")
                assert hand["community"] == "Kc"
                assert all(len(s["down"]) + len(s["up"]) == 6 for s in hand["seats"])
                for seat in (2, 5):
                    player.page.wait_for_selector(f".seat[data-seat='{seat}'] .tag.allin")
                # The pots so far, as the all-ins split them: 8 x 9, 7 x (18 - 9), 6 x (31 - 18).
                pots = player.page.inner_text(".felt .pot-amount")
                assert pots == "Main 72 · Side 1 63 · Side 2 78", pots
                shot(player, tmp_path / "razz-community.png")
            return False

        play(player, table, hands=1, on_turn=on_turn)
        thread.join(timeout=60)
        assert not errors, errors
        assert seen["seventh"], "the browser never acted on 7th street"

        # The showdown stays on the felt (the scripted players sat out: no next hand).
        page = player.page
        page.wait_for_selector(".felt .results .award[data-pot='2']")
        page.wait_for_selector(".felt .community svg[data-card='Kc']")
        pot_text = page.inner_text(".felt .pot-amount")
        assert pot_text == "Main 72 · Side 1 63 · Side 2 138", pot_text
        awards = player.js(
            """() => [...document.querySelectorAll('.felt .results .award')].map(li => ({
                pot: Number(li.dataset.pot), seat: Number(li.dataset.seat),
                text: li.textContent}))"""
        )
        assert len(awards) == 3, awards
        names = player.js(
            "t => Object.fromEntries(window.studApp.models.get(t).state.seats"
            ".filter(Boolean).map(p => [p.seat, p.name]))",
            table,
        )
        for pot, (award, (amount, seat, pot_name)) in enumerate(
            zip(awards, RAZZ_POTS, strict=True)
        ):
            assert (award["pot"], award["seat"]) == (pot, seat), award
            sentence = f"{names[str(seat)]} wins {pot_name} ({amount}) with "
            assert award["text"].startswith(sentence), award
        winners = player.js(
            """() => [...document.querySelectorAll('.felt .seat.winner')]
                .map(s => Number(s.dataset.seat))"""
        )
        assert sorted(winners) == [2, 5, 6], winners
        for amount, seat, _ in RAZZ_POTS:
            assert page.inner_text(f".seat[data-seat='{seat}'] .won") == f"+{amount}"
        descs = page.inner_text(".seat[data-seat='5'] .tags")
        assert "5-4-3-2-A low" in descs, descs  # the wheel, as the seed pages write a low
        log = page.inner_text(".log")
        assert "Community card" in log
        assert "collected 72 from the main pot" in log, log
        assert "collected 63 from side pot 1" in log and "collected 138 from side pot 2" in log
        assert re.search(r"calls 3 and is all-in", log) and re.search(r"calls 7 and is all-in", log)
        shot(player, tmp_path / "razz-side-pots.png")
        # No next hand after all (the others sat out): the countdown gives way to waiting.
        page.wait_for_selector(".action-hint:text-is('Waiting for the next hand…')", timeout=10_000)
        assert page.query_selector(".felt .results .award")  # the showdown stays
        assert not player.errors, player.errors
    finally:
        if thread is not None:
            thread.join(timeout=60)
        player.close()


def test_time_bank_runs_out(quick_server: ServerProcess, browser: Browser, tmp_path: Path) -> None:
    """Nobody acts for the person: the clock, then the time bank, then folded; twice: sat out."""
    player = Tab(browser, quick_server.base)
    player.context.add_init_script(CLOCK_OBSERVER)
    page = player.page
    try:
        player.open()
        page.click(".welcome .btn.primary")  # play as a guest
        page.wait_for_selector("#account .account-name")
        # Two bots (a table that keeps 2 to 3 players): the person makes three, in seat 2.
        table = create_table(player, "Clock", "stud", bots=2, seats=4)
        settings = player.js(f"() => window.studApp.models.get({table}).state.settings")
        assert (settings["turn_seconds"], settings["time_bank"]) == (2.0, 2.0), settings
        timed_out = "() => document.querySelector('.log').innerText.match(/ran out of time/g)"
        # The first turn: the clock runs, then the bank; nobody clicks.
        page.wait_for_selector(".action-bar.active .act-btn:not(:disabled)")
        state = player.js(f"() => window.studApp.models.get({table}).state")
        you, legal = state["you"], {a["action"] for a in state["legal"]}
        assert "fold" in legal and "check" not in legal, legal  # facing the bring-in
        turn = state["turn"]
        assert turn["seat"] == you
        assert turn["clock_ends"] - turn["started"] == pytest.approx(2.0)
        assert turn["deadline"] - turn["clock_ends"] == pytest.approx(2.0)
        page.wait_for_selector(".seat.me .clock.bank")
        shot(player, tmp_path / "time-bank.png")
        page.wait_for_function(f"() => ({timed_out})()?.length === 1")
        clock = player.js("() => window.__clock")
        turn_labels = [c for c in clock if c.startswith("turn:")]
        bank_labels = [c for c in clock if c.startswith("bank:")]
        assert turn_labels and bank_labels, clock
        assert clock.index(bank_labels[0]) > clock.index(turn_labels[0]), clock
        assert "bank:bank 2s" in bank_labels and "bank:bank 1s" in bank_labels, clock
        # Folded: the log says so, the seat is marked, the action bar is gone.
        log = page.inner_text(".log")
        assert "(you) ran out of time and folded" in log, log
        page.wait_for_function(
            """() => [...document.querySelectorAll('.seat.me .tag')]
                .some(t => t.textContent === 'folded')"""
        )
        assert page.query_selector(".action-bar.active .act-btn") is None
        assert page.query_selector(".seat.me .clock") is None
        shot(player, tmp_path / "timed-out.png")
        # The second time-out in a row sits the player out.
        page.wait_for_function(f"() => ({timed_out})()?.length === 2", timeout=TIMEOUT)
        page.wait_for_function(
            """() => [...document.querySelectorAll('.seat.me .tag')]
                .some(t => t.textContent === 'sitting out')"""
        )
        log = page.inner_text(".log")
        assert log.count("(you) ran out of time and folded") == 2, log
        assert "(you) sits out" in log, log
        page.wait_for_selector(".action-hint:text-is('You are sitting out.')")
        # Sitting in again from the header.
        page.click(".table-buttons button:text-is('Sit in')")
        page.wait_for_selector(".table-buttons button:text-is('Sit out')")
        assert "(you) is back" in page.inner_text(".log")
        assert not player.errors, player.errors
    finally:
        player.close()
