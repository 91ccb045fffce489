"""The room outside the table in each language, in a real headless Chromium (docs/i18n.md).

In the pseudo-locale no text of the top bar, the lobby, its dialogs (log in, register,
create a table, buy-in, a guest logging out), My hands, My tables and the fair-shuffle panel
escapes the catalogs; in Chinese none of them keeps a stray English word; axe-core
finds no serious or critical problem on any of them in any language. The lobby's game
tabs are real tabs (arrow keys, Home, End, aria-selected), the dialogs are modal (the
focus goes in, Escape closes, the focus comes back), a REST refusal is worded from its
code in the page's language, and switching the language redraws the lobby in place and
is remembered (for the account too). Screenshots of the lobby in each language go to the
test's tmp dir (and to docs/ when ``STUD_WEB_SCREENSHOTS=1``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from stud.testing.server import ServerProcess, ServerSpec
from stud.web.pseudo import PSEUDO, escaped_text, latin_words

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "src" / "stud" / "web" / "static" / "i18n"
DOCS = ROOT / "docs"
LANGUAGES = (PSEUDO, "en", "zh-Hant", "zh-Hans")
TIMEOUT = 30_000
# Names the Chinese pages keep: a game the seed pages leave in English, the formats' names
# in a download link's name (PHH, PokerStars).
KEPT = frozenset({"Razz", "PHH", "PokerStars", "MB"})  # docs/glossary.md: kept in Latin letters
TABLE = {"game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8, "seats": 6}
MY_HANDS = [
    {"id": 12, "table_id": 1, "table_name": "Ada", "game": "stud8", "status": "finished",
     "pot": 1234, "net": -40, "finished_at": 1767225600},
    {"id": 11, "table_id": 1, "table_name": None, "game": "razz", "status": "void",
     "pot": 0, "net": 0, "finished_at": 1767225500},
    {"id": 10, "table_id": 2, "table_name": "Curie", "game": "stud", "status": "finished",
     "pot": 96, "net": 1050, "finished_at": 1767225400},
]  # fmt: skip
# A valid shuffle with no card shown (the panel verifies it), and a tampered one.
FAIRNESS_JS = """
async ([good]) => {
  const view = await import('/js/fairview.js');
  const fair = await import('/js/fairness.js');
  const seed = 'ab'.repeat(32);
  const shuffle = { scheme: fair.SCHEME, hand: '1-1', server_seed: seed,
                    commitment: await fair.commitmentOf(seed), player_seeds: ['0f', ''] };
  if (!good) shuffle.commitment = '00'.repeat(32);
  const box = document.createElement('section');
  box.className = 'test-fairness';
  document.getElementById('view').append(box);
  const result = await view.renderFairness(box, { shuffle, events: [],
    players: [{ name: 'alice' }, { name: 'Bot 2' }], id: 7 });
  box.querySelector('details').open = true;
  return result.ok;
}
"""


def lobby_tables(proc: ServerProcess) -> None:
    """Tables with a bot each (one player cannot deal: nothing runs) and an empty one."""
    owner = httpx.Client(base_url=proc.base, timeout=60)
    made = owner.post("/api/register", json={"name": "lobbyist", "password": "secret-pass"})
    assert made.status_code == 200, made.text
    for name, game, bots in (("Ada", "stud", 1), ("Curie", "stud8", 1), ("Euler", "razz", 0)):
        opened = owner.post("/api/tables", json={**TABLE, "name": name, "game": game, "bots": bots})
        assert opened.status_code == 201, opened.text
    owner.close()


SERVER = ServerSpec(
    ("--no-default-tables", "--turn-seconds", "20", "--time-bank", "5"), setup=lobby_tables
)


def catalog(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGS / f"{code}.json").read_text(encoding="utf-8"))
    return data


def open_lobby(page: Page, base: str, language: str | None = None) -> None:
    query = f"?lang={language}" if language else ""
    page.goto(f"{base}/{query}#/lobby")
    page.wait_for_selector(".tables tbody tr[data-table]")
    page.wait_for_selector("#language-menu")


def untranslated(page: Page, language: str, selector: str) -> list[str]:
    """Text under ``selector`` no catalog gave (pseudo), or English left in Chinese."""
    if language == PSEUDO:
        return escaped_text(page, selector)
    if language.startswith("zh"):
        return latin_words(page, selector, KEPT)
    return []


def axe_problems(page: Page, context: str) -> list[str]:
    results = Axe().run(page, context=context)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def check(page: Page, language: str, selector: str, where: str, found: dict[str, Any]) -> None:
    """Collect what escapes translation and what axe-core finds, for one state of the page."""
    found[where] = {
        "words": untranslated(page, language, selector),
        "axe": axe_problems(page, selector),
    }


def close_with_escape(page: Page, dialog: str, opener: str) -> None:
    """Escape closes a modal dialog, and the focus goes back to what opened it."""
    page.keyboard.press("Escape")
    page.wait_for_selector(dialog, state="detached")
    assert page.evaluate(f"document.activeElement === document.querySelector({opener!r})")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_and_dialog_outside_the_table_is_translated_and_accessible(
    page: Page, server: ServerProcess, language: str, tmp_path: Path
) -> None:
    found: dict[str, Any] = {}
    open_lobby(page, server.base, language)
    expected_lang = "en-XA" if language == PSEUDO else language
    assert page.evaluate("document.documentElement.lang") == expected_lang
    title = "⟦Ĺóƀƀý⟧" if language == PSEUDO else catalog(language)["lobby.title"]
    assert page.title().startswith(title)
    check(page, language, "body", "lobby", found)
    if language != PSEUDO:
        shot = tmp_path / f"screenshot-lobby-{language}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        if os.environ.get("STUD_WEB_SCREENSHOTS") == "1":
            shutil.copy(shot, DOCS / shot.name)
    # The log-in and register dialogs: modal, named, the focus in the name field.
    for mode in ("login", "register"):
        opener = f"#account [data-do='{mode}']"
        page.click(opener)
        dialog = f"dialog:has(form[data-mode='{mode}'])"
        page.wait_for_selector(dialog)
        assert page.evaluate("document.activeElement.name") == "name"
        assert page.get_attribute(dialog, "aria-labelledby")
        check(page, language, "dialog", mode, found)
        close_with_escape(page, dialog, opener)
    # Play as a guest: the account box, the create-table dialog.
    page.click("#account [data-do='guest']")
    page.wait_for_selector("#account .account-name")
    check(page, language, "#account", "account", found)
    page.click("[data-do='create-table']")
    page.wait_for_selector("dialog.create-table-dialog")
    check(page, language, "dialog", "create-table", found)
    close_with_escape(page, "dialog.create-table-dialog", "[data-do='create-table']")
    # The buy-in dialog, from the lobby's Play.
    page.click(".tables tr[data-game='razz'] a.play")
    page.wait_for_selector("dialog.buy-in")
    assert page.evaluate("document.activeElement.name") == "buy_in"
    check(page, language, "dialog", "buy-in", found)
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.buy-in", state="detached")
    # My hands (served here: playing hands would take long), and a guest logging out is warned.
    page.route("**/api/me/hands", lambda route: route.fulfill(json=MY_HANDS))
    page.goto(f"{server.base}/?lang={language}#/hands")
    page.wait_for_selector(".my-hands-table tbody tr[data-hand='12']")
    assert page.locator(".my-hands-table tbody tr").count() == 3
    check(page, language, "body", "my-hands", found)
    page.goto(f"{server.base}/?lang={language}#/tables")  # side by side: no seat yet
    page.wait_for_selector(".tiles-empty")
    check(page, language, "body", "my-tables", found)
    page.click("#account [data-do='logout']")
    page.wait_for_selector("dialog.guest-logout")
    check(page, language, "dialog", "guest-logout", found)
    close_with_escape(page, "dialog.guest-logout", "#account [data-do='logout']")
    # The fair-shuffle panel, verified and failing.
    assert page.evaluate(FAIRNESS_JS, [True]) is True
    assert page.evaluate(FAIRNESS_JS, [False]) is False
    check(page, language, ".test-fairness", "fairness", found)
    problems = {where: f for where, f in found.items() if f["words"] or f["axe"]}
    assert problems == {}


def test_the_check_is_real(page: Page, server: ServerProcess) -> None:
    """Text written into the lobby, or English in a Chinese lobby, is caught."""
    open_lobby(page, server.base, PSEUDO)
    page.evaluate("document.querySelector('.lobby h1').append(' Tables')")
    assert len(escaped_text(page, ".lobby")) == 1
    open_lobby(page, server.base, "zh-Hant")
    page.evaluate("document.querySelector('.lobby h1').append(' Tables')")
    assert latin_words(page, ".lobby", KEPT) != []


def test_the_game_tabs_are_tabs(page: Page, server: ServerProcess) -> None:
    open_lobby(page, server.base)
    tabs = page.locator(".lobby .filters[role='tablist'] [role='tab']")
    assert tabs.count() == 4
    assert page.get_attribute(".lobby .filters[role='tablist']", "aria-label") == "Games"
    selected = ".filters [role='tab'][aria-selected='true']"
    assert page.get_attribute(selected, "data-game") == ""
    # Only the selected tab is in the Tab order; the panel is named by it.
    assert page.evaluate(
        "[...document.querySelectorAll('.filters [role=tab]')].map(t => t.tabIndex)"
    ) == [
        0,
        -1,
        -1,
        -1,
    ]
    panel = page.get_attribute(selected, "aria-controls")
    assert page.get_attribute(f"#{panel}", "role") == "tabpanel"
    page.focus(selected)
    page.keyboard.press("ArrowRight")
    assert page.get_attribute(selected, "data-game") == "stud"
    assert page.evaluate("document.activeElement.dataset.game") == "stud"
    assert page.get_attribute(f"#{panel}", "aria-labelledby") == page.get_attribute(selected, "id")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.tables tbody tr')]"
        ".every(r => r.dataset.game === 'stud')"
    )
    assert page.url.endswith("#/lobby?game=stud")
    page.keyboard.press("End")
    assert page.get_attribute(selected, "data-game") == "razz"
    page.keyboard.press("ArrowRight")  # round to the first
    assert page.get_attribute(selected, "data-game") == ""
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute(selected, "data-game") == "razz"
    page.keyboard.press("Home")
    assert page.get_attribute(selected, "data-game") == ""
    # A heading sorts from the keyboard: a button in each column head.
    page.focus("th[data-sort='name'] button")
    page.keyboard.press("Enter")
    assert page.get_attribute("th[data-sort='name']", "aria-sort") == "ascending"
    assert page.evaluate("document.activeElement.closest('th')?.dataset.sort") == "name"
    # The list is drawn again when it changes (every few seconds): the focus stays put.
    watch = page.get_attribute(".tables tbody tr a.watch", "id")
    page.focus(f"#{watch}")
    page.evaluate("async () => { studApp.view.listed = null; await studApp.view.refresh(); }")
    assert page.evaluate("document.activeElement.id") == watch
    assert page.evaluate("document.activeElement.isConnected")
    name = page.evaluate(
        "(id) => [...document.getElementById(id).getAttribute('aria-labelledby').split(' ')]"
        ".map(i => document.getElementById(i).textContent).join(' ')",
        watch,
    )
    assert name.startswith("Watch ") and name != "Watch "  # "Watch Ada": the table named
    # A lobby address with a game opens on its tab.
    page.goto(f"{server.base}/#/lobby?game=stud8")
    page.wait_for_selector(".tables tbody tr[data-game='stud8']")
    assert page.get_attribute(selected, "data-game") == "stud8"


def test_switching_language_redraws_the_lobby_in_place_and_is_remembered(
    page: Page, server: ServerProcess
) -> None:
    open_lobby(page, server.base)
    page.evaluate("window.notReloaded = true")
    page.click("#account [data-do='register']")
    page.fill("dialog form[data-mode='register'] input[name='name']", "switcher")
    page.fill("dialog form[data-mode='register'] input[name='password']", "secret-pass")
    page.click("dialog form[data-mode='register'] button[type='submit']")
    page.wait_for_selector("#account .account-name:text-is('switcher')")
    # The account box is drawn again after each hand played: a focused button keeps the focus.
    page.focus("#account [data-do='logout']")
    page.evaluate("async () => { await studApp.refreshAccount(); }")
    assert page.evaluate("document.activeElement.dataset.do") == "logout"
    page.click(".lobby .filters [role='tab'][data-game='razz']")
    page.wait_for_selector(".tables tbody tr[data-game='razz']")
    page.select_option("#language-menu", "zh-Hans")
    page.wait_for_selector(".lobby h1:text-is('大厅')")
    assert page.evaluate("window.notReloaded") is True  # redrawn, not reloaded
    assert page.title() == "大厅 — 梭哈牌室"
    assert page.inner_text("#account [data-do='logout']") == "退出登录"
    assert page.inner_text(".topbar .brand-words") == "梭哈牌室"
    assert (
        page.get_attribute(".lobby .filters [role='tab'][aria-selected='true']", "data-game")
        == "razz"
    )
    assert page.inner_text(".tables th[data-sort='stakes']") == "注额"
    # Remembered for the account: the server has it, and a fresh browser logging in speaks it.
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "stud_session")
    saved = ""
    for _ in range(100):
        answer = httpx.get(
            server.base + "/api/me/language", cookies={"stud_session": cookie}, timeout=30
        )
        saved = answer.json()["language"]
        if saved == "zh-Hans":
            break
        page.wait_for_timeout(100)
    assert saved == "zh-Hans"
    page.reload()
    page.wait_for_selector(".lobby h1:text-is('大厅')")


def test_a_refusal_is_worded_from_its_code_in_the_page_language(
    page: Page, server: ServerProcess
) -> None:
    """The server's English never reaches the page: a taken name, stakes the engine
    refuses and a field the server names are all said in 繁體中文."""
    words = catalog("zh-Hant")
    open_lobby(page, server.base, "zh-Hant")
    page.click("#account [data-do='register']")
    form = "dialog form[data-mode='register']"
    page.fill(f"{form} input[name='name']", "LOBBYIST")  # lobbyist's, whatever the case
    page.fill(f"{form} input[name='password']", "secret-pass")
    page.click(f"{form} button[type='submit']")
    page.wait_for_selector(f"{form} .form-error:not(:empty)")
    assert page.inner_text(f"{form} .form-error") == words["error.name_taken"]
    page.keyboard.press("Escape")
    page.click("#account [data-do='guest']")
    page.wait_for_selector("#account .account-name")
    page.click("[data-do='create-table']")
    create = "dialog form.create-table"
    page.fill(f"{create} input[name='bring_in']", "50")  # above the small bet
    page.click(f"{create} button[type='submit']")
    page.wait_for_selector(f"{create} .form-error:not(:empty)")
    assert page.inner_text(f"{create} .form-error") == words["error.bad_table_settings"]
    # A field the server's parser refuses is named by the form's own label.
    page.evaluate(
        "document.querySelector(\"dialog input[name='seats']\").type = 'text';"
        "document.querySelector(\"dialog input[name='seats']\").value = 'many';"
        "document.querySelector(\"dialog input[name='bring_in']\").value = '2';"
    )
    page.click(f"{create} button[type='submit']")
    page.wait_for_function(
        "(label) => document.querySelector('dialog .form-error').textContent.includes(label)",
        arg=words["lobby.create.seats"],
    )
    text = page.inner_text(f"{create} .form-error")
    assert not any("a" <= ch.lower() <= "z" for ch in text), text
    # A server that cannot be reached is said so, not "Failed to fetch".
    page.route("**/api/tables", lambda route: route.abort())
    page.fill(f"{create} input[name='seats']", "6")
    page.click(f"{create} button[type='submit']")
    page.wait_for_function(
        "(t) => document.querySelector('dialog .form-error').textContent === t",
        arg=words["errors.network"],
    )
