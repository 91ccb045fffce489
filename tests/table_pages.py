"""Shared by the browser tests of the table and the replayer in each language (issue 15):
a card room dealing a stacked Stud Hi/Lo hand, a person at a heads-up table against a bot
that never folds, and the checks run on what the page shows.

The stacked hand is test_web_client's: trip Kings for one seat, the low 7-5-3-2-A for the
other, so every hand played to the end is a split pot (high half and low half).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import httpx
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

from stud.testing.server import ServerSpec
from stud.testing.web import settle
from stud.web.browser import watched_page
from stud.web.pseudo import CARD_LETTERS

DOCS = Path(__file__).resolve().parent.parent / "docs"
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
TIMEOUT = 60_000
DECKS = {"stud8": ["Kc Kd Ks 9h Jd 2h Td", "Ah 2d 3s 5c 7h Qc Jh"]}
# Long turns (a check in four languages fits in one), a short pause between hands.
SERVER_ARGS = (
    "--turn-seconds", "90", "--time-bank", "5", "--pause", "2", "--grace", "60",
    "--bot-delay", "0.15", "0.3", "--no-default-tables",
    "--hand-factory", "stud.testing.web:stacked_hand",
)  # fmt: skip
# What the table and the replayer pages draw, with the top bar (the whole page but the
# language menu's own names of the languages, marked translate="no").
TABLE_PARTS = ".topbar, .table-view"
REPLAY_PARTS = ".topbar, .replayer"
# Words a Chinese page keeps: names of keys on the keyboard, and what the seed pages keep.
KEPT = frozenset({"Tab", "Enter", "Home", "End", "Razz", "PHH", "PokerStars"})
STATE = "t => window.studApp.models.get(t)?.state"


SERVER = ServerSpec(SERVER_ARGS, decks=DECKS)
"""A card room dealing the stacked hands (the modules that use these pages name it theirs)."""


class Person:
    """A browser context (own storage and cookies) and its page; page errors are kept."""

    def __init__(self, browser: Browser, base: str, **options: Any) -> None:
        self.context: BrowserContext
        self.page: Page
        self.context, self.page, self.errors = watched_page(
            browser, TIMEOUT, viewport={"width": 1400, "height": 900}, **options
        )
        self.base = base

    def goto(self, fragment: str, lang: str | None = None) -> None:
        query = f"?lang={lang}" if lang else ""
        self.page.goto(f"{self.base}/{query}{fragment}")
        self.page.wait_for_selector("#view > *")

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)

    def state(self, table: int) -> dict[str, Any]:
        return dict(self.js(STATE, table))

    def guest(self, lang: str | None = None) -> None:
        """Play as a guest (the lobby's welcome button)."""
        self.goto("#/lobby", lang)
        self.page.click(".welcome .btn.primary")
        self.page.wait_for_selector("#account .account-name")

    def use_language(self, code: str) -> None:
        """Switch the page's language as the menu does (the pseudo-locale too), then wait for
        the view drawn again in it."""
        self.js(f"async () => (await import('/js/i18n.js')).useLanguage('{code}')")
        tag = "en-XA" if code == "pseudo" else code
        self.page.wait_for_function(f"() => document.documentElement.lang === '{tag}'")
        self.page.wait_for_selector("#view > *")

    def close(self) -> None:
        self.context.close()


def open_table(
    base: str,
    game: str = "stud8",
    *,
    seats: int = 2,
    bots: int = 1,
    name: str = "Words",
    **settings: int,
) -> int:
    """A table opened through the REST API by a fresh guest (a guest may open one), with
    calling-station bots (they never fold). Stakes 5/10, ante 1, bring-in 2, buy-ins 50 to
    500, unless ``settings`` names others (the body's own keys)."""
    opener = httpx.post(f"{base}/api/guest", timeout=10)
    opener.raise_for_status()
    body = {
        "name": name, "game": game, "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
        "seats": seats, "bots": bots, "bot_kind": "station", "min_buy_in": 50, "max_buy_in": 500,
        **settings,
    }  # fmt: skip
    response = httpx.post(
        f"{base}/api/tables",
        json=body,
        cookies={"stud_session": opener.cookies["stud_session"]},
        timeout=10,
    )
    assert response.is_success, response.text
    return int(response.json()["id"])


def sit(person: Person, table: int, lang: str | None = None) -> None:
    """Take a seat with the mouse (the keyboard test does it with keys)."""
    person.goto(f"#/table/{table}", lang)
    person.page.click(".seat .sit-btn")
    person.page.fill("dialog.buy-in input[name='buy_in']", "300")
    person.page.click("dialog.buy-in button[value='sit']")
    person.page.wait_for_selector(".seat.me")


def wait_turn(person: Person, table: int, after: int = -1) -> dict[str, Any]:
    """Wait for a turn of ours later than ``after`` with its buttons drawn; the state."""
    person.page.wait_for_function(
        f"""([t, after]) => {{ const s = ({STATE})(t);
            return s && s.turn && s.turn.seat === s.you && s.turn.turn > after && s.legal.length
              && document.querySelector('.action-bar.active .act-btn:not(:disabled)'); }}""",
        arg=[table, after],
    )
    return person.state(table)


PASSIVE = ", ".join(
    f".action-bar.active .act-btn[data-action='{a}']" for a in ("check", "call", "bring-in")
)


def play_to_street(person: Person, table: int, street: int) -> dict[str, Any]:
    """Check or call until our turn on ``street``; the state then (our turn, buttons drawn)."""
    turn = -1
    while True:
        state = wait_turn(person, table, turn)
        if state["hand"]["street"] >= street:
            return state
        turn = state["turn"]["turn"]
        person.page.locator(PASSIVE).first.click()


def play_to_showdown(person: Person, table: int) -> None:
    """Check or call to the end of the hand; return with its showdown on the felt."""
    turn = -1
    while not person.page.query_selector(".felt .results .award"):
        person.page.wait_for_function(
            """() => document.querySelector('.felt .results .award')
                || document.querySelector('.action-bar.active .act-btn:not(:disabled)')"""
        )
        now = person.state(table).get("turn") or {}
        if now and now["seat"] == person.state(table)["you"] and now["turn"] > turn:
            turn = now["turn"]
            person.page.locator(PASSIVE).first.click()


def sit_out_after_this_hand(person: Person) -> None:
    """Sit out from the next hand (the header's button): the showdown stays on the felt."""
    person.page.click(".table-buttons [data-do='sit-out']")
    person.page.wait_for_selector(".table-buttons [data-do='sit-in']")


def name_words(person: Person, table: int) -> frozenset[str]:
    """The Latin words of the players' names at ``table`` as latin_words splits them (names are
    the players' own, never translated)."""
    names = person.js(f"() => (({STATE})({table})?.seats ?? []).filter(Boolean).map(p => p.name)")
    words: set[str] = set()
    for name in names:
        split = "".join(ch if ch.isascii() and (ch.isalpha() or ch == "-") else " " for ch in name)
        words.update(w for w in split.split() if not set(w) <= CARD_LETTERS)
    return frozenset(words)


def serious_violations(page: Page) -> list[str]:
    """What axe-core (shipped by axe-playwright-python) finds serious or critical on the page."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def screenshot(page: Page, path: Path, docs_name: str | None = None) -> None:
    """A picture of the page in ``path``; also into docs/ as ``docs_name`` when
    STUD_WEB_SCREENSHOTS=1 (how the pictures in the docs are made again)."""
    settle(page)  # the cards dealt and the bets slid in have settled
    page.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000
    if docs_name and os.environ.get("STUD_WEB_SCREENSHOTS") == "1":
        shutil.copyfile(path, DOCS / docs_name)
