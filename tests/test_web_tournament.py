"""Tournaments in the browser (issue 16), in a real headless Chromium against a real server.

The lobby's Tournaments tab is a real tab list (arrow keys, focus kept) and lists the
room's own tournaments as the server does; registering takes the buy-in + fee from the
balance and unregistering gives them back. A person creates a Sit & Go through the
form, asks bots to fill it, is taken to the tournament table, sees the level clock (the
level's ante, bring-in and bets, the next level, the time left counting down, the
players left), plays hands there through the action bar until the next level comes,
with only what a tournament allows on the screen, and the chips of the table add up to
the field's. Another, sitting out, antes off until busted and is told their place. The
tournament's page shows its structure, payouts, entrants with their chips, and its
tables. In the pseudo-locale nothing on these views escapes the catalogs, and axe-core
finds no serious or critical problem on the tab and the page. Screenshots go to the
test's tmp dir (and to docs/ when ``STUD_WEB_SCREENSHOTS=1``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from stud.testing.server import ServerProcess, ServerSpec
from stud.web.browser import serious_problems
from stud.web.pseudo import PSEUDO, escaped_text, latin_words
from test_web_client import Tab, passive, play, register, shot

SERVER_ARGS = (
    "--turn-seconds", "30", "--time-bank", "10", "--pause", "1.5", "--grace", "60",
    "--bot-delay", "0.2", "0.4", "--no-default-tables",
)  # fmt: skip
# A room whose scheduled tournament opens at once and starts 30 to 60 s later, with 3 bots.
MTT_ARGS = (
    *SERVER_ARGS, "--mtt-every", "30", "--mtt-lead", "30", "--mtt-bots", "3",
    "--tournament-levels", "120",
)  # fmt: skip
STATE = "t => window.studApp.models.get(t)?.state"
KEPT_NAMES = frozenset({"Razz"})  # as the seed pages keep it
TOURNEY_TABLE = re.compile(r"#/table/(t(\d+)\.(\d+))$")


SERVER = ServerSpec(SERVER_ARGS, decks={})
"""A room with its own tournaments (a Sit & Go per game and a scheduled one)."""


@pytest.fixture
def mtt_server(shared_server: Callable[[ServerSpec], ServerProcess]) -> ServerProcess:
    return shared_server(ServerSpec(MTT_ARGS, decks={}))


@pytest.fixture
def tabs(browser: Browser, server: ServerProcess) -> Iterator[list[Tab]]:
    """Tabs a test opens (append to the list); none may raise a page error."""
    opened: list[Tab] = []
    yield opened
    errors = [error for tab in opened for error in tab.errors]
    for tab in opened:
        tab.close()
    assert not errors, errors


def new_tab(tabs: list[Tab], browser: Browser, server: ServerProcess) -> Tab:
    tab = Tab(browser, server.base)
    tabs.append(tab)
    return tab


def me(tab: Tab) -> dict[str, Any]:
    """The account as the server has it now (its balance)."""
    answer: dict[str, Any] = tab.js("fetch('/api/me').then(r => r.json())")
    return answer


def listing(server: ServerProcess) -> list[dict[str, Any]]:
    answer = httpx.get(server.base + "/api/tournaments", timeout=60)
    answer.raise_for_status()
    rows: list[dict[str, Any]] = answer.json()["tournaments"]
    return rows


def open_tournaments(tab: Tab) -> None:
    tab.open("#/tournaments")
    tab.page.wait_for_selector(".tourneys tbody tr")


def create_sng(tab: Tab, name: str, game: str, seats: int, chips: int, minutes: int) -> int:
    """Create a Sit & Go through the tab's form (registering its creator); its id."""
    page = tab.page
    open_tournaments(tab)
    page.click("details.create summary")
    form = "form.create-sng"
    page.fill(f"{form} input[name='name']", name)
    page.select_option(f"{form} select[name='game']", game)
    page.fill(f"{form} input[name='seats']", str(seats))
    page.fill(f"{form} input[name='buy_in']", "50")
    page.fill(f"{form} input[name='fee']", "5")
    page.fill(f"{form} input[name='starting_chips']", str(chips))
    page.select_option(f"{form} select[name='level_minutes']", str(minutes))
    page.click(f"{form} button[type='submit']")
    page.wait_for_url(re.compile(r"#/tournament/\d+$"))
    match = re.search(r"#/tournament/(\d+)$", page.url)
    assert match, page.url
    tid = int(match.group(1))
    page.wait_for_selector(
        f".tourney-page[data-tournament='{tid}'] .tourney-actions [data-do='fill']"
    )
    return tid


def fill_and_sit(tab: Tab, tid: int) -> str:
    """Ask bots to fill the Sit & Go: the page goes to the player's table; its id."""
    page = tab.page
    page.click(".tourney-actions [data-do='fill']")
    page.wait_for_url(TOURNEY_TABLE)
    match = TOURNEY_TABLE.search(page.url)
    assert match and int(match.group(2)) == tid, page.url
    page.wait_for_selector(".seat.me")
    page.wait_for_selector(".table-head .level-clock")
    return match.group(1)


def test_the_tab_lists_the_rooms_tournaments_and_moves_with_the_keys(
    tabs: list[Tab], browser: Browser, server: ServerProcess
) -> None:
    tab = new_tab(tabs, browser, server)
    tab.open("#/lobby")
    page = tab.page
    assert page.get_attribute("#lobby-tab-cash", "aria-selected") == "true"
    assert page.get_attribute("#lobby-tab-tournaments", "aria-selected") == "false"
    assert page.get_attribute("#lobby-tab-tournaments", "tabindex") == "-1"
    page.focus("#lobby-tab-cash")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".tourneys tbody tr")
    assert page.url.endswith("#/tournaments")
    assert tab.js("document.activeElement.id") == "lobby-tab-tournaments"  # the focus stays
    assert page.get_attribute("#lobby-tab-tournaments", "aria-selected") == "true"
    assert page.get_attribute("#lobby-panel", "role") == "tabpanel"
    # Every tournament the server lists, with its game, buy-in + fee, chips, seats and state.
    rows = listing(server)
    assert {r["game"] for r in rows} >= {"stud", "stud8", "razz"}
    assert {r["kind"] for r in rows} == {"sng", "mtt"}
    page.wait_for_function(
        "n => document.querySelectorAll('.tourneys tbody tr').length >= n", arg=len(rows)
    )
    for row in rows:
        line = f".tourneys tr[data-tournament='{row['id']}']"
        assert page.get_attribute(line, "data-game") == row["game"]
        assert page.inner_text(f"{line} .buy-in") == f"{row['buy_in']:,}+{row['fee']:,}"
        cells = page.inner_text(line)
        assert f"{row['starting_chips']:,}" in cells
        assert {"registering": "Registering", "late_registration": "Late registration"}.get(
            row["state"], ""
        ) in cells
        if row["capacity"]:
            assert f"{row['entrants']} of {row['capacity']}" in cells
        else:
            assert re.search(rf"\b{row['entrants']} players?\b", cells)
    mtt = next(r for r in rows if r["kind"] == "mtt")
    assert "Multi-table" in page.inner_text(f".tourneys tr[data-tournament='{mtt['id']}']")
    # The game filter, and back to the cash tables with the keyboard.
    page.click(".tourney-lobby .filter[data-game='razz']")
    assert {g for g in tab.js(GAMES_SHOWN)} == {"razz"}
    page.focus("#lobby-tab-tournaments")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(".lobby:not(.tourney-lobby)")
    assert page.url.endswith("#/lobby")
    assert tab.js("document.activeElement.id") == "lobby-tab-cash"


GAMES_SHOWN = "[...document.querySelectorAll('.tourneys tbody tr')].map(r => r.dataset.game)"


def test_registering_takes_the_buy_in_and_unregistering_gives_it_back(
    tabs: list[Tab], browser: Browser, server: ServerProcess
) -> None:
    tab = new_tab(tabs, browser, server)
    register(tab, "tourney-reg")
    before = me(tab)["balance"]
    open_tournaments(tab)
    sng = next(r for r in listing(server) if r["kind"] == "sng" and r["state"] == "registering")
    line = f".tourneys tr[data-tournament='{sng['id']}']"
    page = tab.page
    page.click(f"{line} [data-do='register']")
    page.wait_for_selector(f"{line}.registered [data-do='unregister']")
    assert me(tab)["balance"] == before - sng["buy_in"] - sng["fee"]
    page.wait_for_function(
        "b => document.querySelector('#account .balance-amount')?.textContent === b",
        arg=f"{before - sng['buy_in'] - sng['fee']:,}",
    )
    # Its page says so too, and lists the entrant.
    page.click(f"{line} a.details")
    page.wait_for_selector(f".tourney-page[data-tournament='{sng['id']}'] .you-in")
    assert "tourney-reg" in page.inner_text(".tourney-section.entrants")
    # Someone else registers from their browser: this page shows them at once (the room's
    # `tournament` message, no reload), with the prize pool grown by their buy-in.
    other = new_tab(tabs, browser, server)
    register(other, "tourney-other")
    open_tournaments(other)
    other.page.click(f"{line} [data-do='register']")
    other.page.wait_for_selector(f"{line}.registered")
    page.wait_for_selector(".tourney-section.entrants :text('tourney-other')")
    pool = ".tourney-facts .fact:nth-child(2)"
    assert page.inner_text(f"{pool} dt") == "Prize pool"
    assert page.inner_text(f"{pool} dd") == f"{2 * sng['buy_in']:,}"
    page.click(".tourney-actions [data-do='unregister']")
    page.wait_for_selector(".tourney-actions [data-do='register']")
    assert me(tab)["balance"] == before
    page.wait_for_function(
        "() => !document.querySelector('.tourney-section.entrants').textContent"
        ".includes('tourney-reg')"
    )
    other.page.click(f"{line} [data-do='unregister']")
    other.page.wait_for_selector(f"{line}:not(.registered) [data-do='register']")


@pytest.mark.slow
def test_a_sit_and_go_filled_with_bots_plays_at_its_table_with_the_level_clock(
    tabs: list[Tab], browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    tab = new_tab(tabs, browser, server)
    register(tab, "tourney-player")
    before = me(tab)["balance"]
    tid = create_sng(tab, "Razz turbo", "razz", seats=3, chips=5000, minutes=1)
    assert me(tab)["balance"] == before - 55  # 50 + 5 for the one who created it
    page = tab.page
    table = fill_and_sit(tab, tid)
    # Only what a tournament allows: sit out, no buy-in, top-up, waiting list or leaving.
    assert page.inner_text(".table-head h1") == "Razz turbo"  # the name given in the form
    head = page.inner_text(".table-head")
    assert "Sit out" in head
    for absent in ("[data-do='leave']", "[data-do='top_up']", ".sit-here", "dialog.buy-in"):
        assert page.locator(absent).count() == 0, absent
    state = tab.js(STATE, table)
    tour = state["tournament"]
    assert tour["id"] == tid and tour["entrants"] == 3 and tour["players_left"] == 3
    clock = ".table-head .level-clock"
    assert page.get_attribute(clock, "data-level") == "1"
    assert "ante 4 · bring-in 6 · 20/40" in page.inner_text(f"{clock} .lc-stakes")
    assert "level 2, ante 6 · bring-in 9 · 30/60" in page.inner_text(f"{clock} .lc-next")
    assert "3 of 3 players left" in page.inner_text(f"{clock} .lc-players")
    # The time left counts down.
    first = seconds_left(page.inner_text(f"{clock} .lc-time"))
    page.wait_for_function(
        "s => { const t = document.querySelector('.table-head .level-clock .lc-time').textContent;"
        " const [m, x] = t.split(':').map(Number); return m * 60 + x < s; }",
        arg=first,
    )
    assert 0 < first <= 60
    shot(tab, tmp_path / "tournament-table.png", "screenshot-tournament-table.png")
    # Hands through the action bar until the next level: the clock and the log say so.
    while page.get_attribute(clock, "data-level") == "1":
        play(tab, table, 1, passive, timeout=150_000)
    assert page.get_attribute(clock, "data-level") == "2"
    page.wait_for_selector(".log .log-level")
    assert "ante 6 · bring-in 9 · 30/60" in page.inner_text(f"{clock} .lc-stakes")
    # Between hands the table's chips are the field's: 3 × 5,000.
    page.wait_for_function("t => { const s = (" + STATE + ")(t); return s && !s.hand; }", arg=table)
    state = tab.js(STATE, table)
    assert sum(p["stack"] for p in state["seats"] if p) == 15_000
    # The tournament's page: entrants with their chips (adding up), the table to watch.
    page.click(".table-head a.tourney-link")
    page.wait_for_selector(f".tourney-page[data-tournament='{tid}'] .tourney-section.tables li")
    chips = tab.js(
        "[...document.querySelectorAll('.tables.entrants tbody tr td:nth-child(3)')]"
        ".map(td => Number(td.textContent.replace(/,/g, '')))"
    )
    assert len(chips) == 3 and sum(chips) == 15_000
    assert page.locator(".tables.levels tr.current[data-level='2']").count() == 1
    assert page.get_attribute(".tourney-section.tables a.watch", "href") == f"#/table/{table}"
    assert "1st" in page.inner_text(".tables.payouts")


@pytest.mark.slow
def test_the_scheduled_tournament_starts_and_the_page_goes_to_the_players_table(
    tabs: list[Tab], browser: Browser, mtt_server: ServerProcess
) -> None:
    """Registered from the tab, the player waits there: at the start the room seats them
    (``tournament_seat``) and the page goes to their table; the tab then says it takes
    late entrants."""
    tab = new_tab(tabs, browser, mtt_server)
    register(tab, "tourney-mtt")
    before = me(tab)["balance"]
    mtt = next(r for r in listing(mtt_server) if r["kind"] == "mtt")
    assert mtt["state"] == "registering" and mtt["start_at"]
    open_tournaments(tab)
    page = tab.page
    line = f".tourneys tr[data-tournament='{mtt['id']}']"
    page.click(f"{line} [data-do='register']")
    page.wait_for_selector(f"{line}.registered")
    assert me(tab)["balance"] == before - mtt["buy_in"] - mtt["fee"]
    page.wait_for_url(TOURNEY_TABLE, timeout=120_000)
    match = TOURNEY_TABLE.search(page.url)
    assert match and int(match.group(2)) == mtt["id"], page.url
    table = match.group(1)
    page.wait_for_selector(".seat.me")
    tour = tab.js(STATE, table)["tournament"]
    assert tour["entrants"] == 4 and tour["players_left"] == 4  # 3 bots and the player
    assert "4 of 4 players left" in page.inner_text(".table-head .level-clock .lc-players")
    assert page.locator("[data-do='leave']").count() == 0
    page.click(".table-head a.btn[href='#/tournaments']")
    page.wait_for_selector(f"{line} a.my-table[href='#/table/{table}']")
    assert "Late registration" in page.inner_text(f"{line} td.state")


def seconds_left(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


@pytest.mark.slow
def test_a_player_who_sits_out_antes_off_and_is_told_their_place(
    tabs: list[Tab], browser: Browser, server: ServerProcess
) -> None:
    tab = new_tab(tabs, browser, server)
    register(tab, "tourney-away")
    tid = create_sng(tab, "Heads-up Stud", "stud", seats=2, chips=100, minutes=1)
    table = fill_and_sit(tab, tid)
    page = tab.page
    page.click(".table-head [data-do='sit_out']")
    page.wait_for_selector(".table-head [data-do='sit_in']")
    # Away, the player antes and folds to every bet until the chips are gone: 2nd of 2.
    dialog = page.wait_for_selector("dialog.tourney-finish", timeout=180_000)
    assert dialog is not None
    text = dialog.inner_text()
    assert "You finished 2nd" in text and "of 2" in text and "not paid" in text
    page.click("dialog.tourney-finish button[value='stay']")
    assert "You finished 2nd of 2." in page.inner_text(".table-head .tourney-result")
    assert "You are out of the tournament" in page.inner_text(".action-bar")
    state = tab.js(STATE, table)
    assert state["you"] is None
    page.click(".table-head a.tourney-link")
    page.wait_for_selector(".tourney-page .tourney-result:has-text('2nd')")
    places = tab.js(
        "[...document.querySelectorAll('.tables.entrants tbody tr')].map(r => r.dataset.place)"
    )
    assert sorted(places) == ["1", "2"]


@pytest.mark.parametrize("where", ["tab", "page"])
def test_axe_and_the_pseudo_locale_on_the_tournament_views(
    tabs: list[Tab], browser: Browser, server: ServerProcess, where: str
) -> None:
    tab = new_tab(tabs, browser, server)
    rows = listing(server)
    fragment = "#/tournaments" if where == "tab" else f"#/tournament/{rows[0]['id']}"
    tab.open(fragment)
    page = tab.page
    page.wait_for_selector(".tourneys tbody tr" if where == "tab" else ".tourney-facts .fact")
    if where == "tab":
        page.click("details.create summary")
    assert serious_problems(page) == []
    page.goto(f"{server.base}/?lang={PSEUDO}{fragment}")
    page.wait_for_selector(".tourneys tbody tr" if where == "tab" else ".tourney-facts .fact")
    page.wait_for_selector("#view :is(h1, h2):has-text('⟦')")
    if where == "tab":
        page.click("details.create summary")
    assert escaped_text(page, "#view") == []
    # In Chinese no English is left (tournaments' names are theirs, marked translate=no).
    page.goto(f"{server.base}/?lang=zh-Hant{fragment}")
    page.wait_for_selector(
        ".tourney-lobby h1:has-text('錦標賽')" if where == "tab" else "h2:has-text('參賽者')"
    )
    if where == "tab":
        page.click("details.create summary")
    assert latin_words(page, "#view", KEPT_NAMES) == []
    if where == "tab":  # the room's own tournaments are named in the page's language
        assert "七張梭哈 坐滿即玩" in page.inner_text(".tourneys tbody")


@pytest.mark.slow
def test_the_tournament_table_speaks_the_pseudo_locale(
    tabs: list[Tab], browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    tab = new_tab(tabs, browser, server)
    register(tab, "tourney-pseudo")
    tid = create_sng(tab, "Stud Hi/Lo for three", "stud8", seats=3, chips=1500, minutes=5)
    page = tab.page
    page.goto(f"{server.base}/?lang={PSEUDO}#/tournament/{tid}")
    page.wait_for_selector(".tourney-actions [data-do='fill']:has-text('⟦')")
    assert escaped_text(page, "#view") == []
    table = fill_and_sit(tab, tid)
    page.wait_for_selector(".table-head .lc-level:has-text('⟦')")
    page.wait_for_selector(".log .log-line")  # a hand is dealt: the felt, the log, the bar
    assert escaped_text(page, "#view") == []
    assert tab.js(STATE, table)["tournament"]["id"] == tid
    # In Chinese no English is left at the tournament's table and on its page (the
    # players' names aside: the bots' and this one's).
    keys = {"Tab", "Enter", "Home", "End"}  # the keyboard hints name their keys
    names = KEPT_NAMES | keys | {"Bot", "tourney-pseudo", "PHH", "PokerStars"}
    for code, level in (("zh-Hant", "級"), ("zh-Hans", "级")):
        page.goto(f"{server.base}/?lang={code}#/table/{table}")
        page.wait_for_selector(f".table-head .lc-level:has-text('{level}')")
        page.wait_for_selector(".log .log-line")
        assert latin_words(page, "#view", names) == []
        page.goto(f"{server.base}/?lang={code}#/tournament/{tid}")
        page.wait_for_selector(".tourney-facts .fact")
        assert latin_words(page, "#view", names) == []
    # The lobby's tab with a tournament one plays in, for the docs.
    tab.page.goto(f"{server.base}/#/tournaments")
    page.wait_for_selector(f".tourneys tr[data-tournament='{tid}'] a.my-table")
    shot(tab, tmp_path / "tournament-lobby.png", "screenshot-tournament-lobby.png")
