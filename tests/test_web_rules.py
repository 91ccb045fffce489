"""The rules pages (#/rules/stud, #/rules/stud8, #/rules/razz) in a real headless Chromium.

Each game's page has the sections a player needs, in each language, reached from the
lobby and from a table; its worked examples are checked against the project's own
evaluators (the cards drawn make the hands the words name, the hand said to win wins,
the pot said to be quartered splits so); axe-core finds no serious or critical
accessibility problem in any game and language; the contents move the keyboard's focus.
Screenshots of a rules page in each language go to the test's tmp dir (and to docs/ when
``STUD_WEB_SCREENSHOTS=1``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from stud.cards import SUITS, parse_cards
from stud.evaluate import (
    evaluate_eight_low,
    evaluate_high,
    evaluate_razz,
    showing_high_value,
    showing_razz_value,
)
from stud.testing.server import ServerProcess, ServerSpec
from stud.web.browser import serious_problems
from stud.web.pseudo import PSEUDO, escaped_text

LANGUAGES = ("en", "zh-Hant", "zh-Hans")
GAMES = ("stud", "stud8", "razz")
SECTIONS = ("overview", "streets", "bringin", "first", "limits", "ranking", "pots", "community")
ARGS = (
    "--no-default-tables",
    "--turn-seconds",
    "20",
    "--time-bank",
    "5",
    "--bot-delay",
    "0.2",
    "0.3",
)
TIMEOUT = 30_000
DOCS = Path(__file__).resolve().parent.parent / "docs"
TITLES = {
    "en": {
        "stud": "How to play Seven Card Stud",
        "stud8": "How to play Stud Hi/Lo",
        "razz": "How to play Razz",
    },
    "zh-Hant": {"stud": "七張梭哈怎麼玩", "stud8": "七張高低梭哈怎麼玩", "razz": "Razz怎麼玩"},
    "zh-Hans": {"stud": "七张梭哈怎么玩", "stud8": "七张高低梭哈怎么玩", "razz": "Razz怎么玩"},
}  # fmt: skip
# Every worked example of a page: its section, rows (cards drawn, words beside them), caption.
EXAMPLES_JS = """
() => [...document.querySelectorAll('.rules-example')].map((figure) => ({
  section: figure.closest('section').id.replace('rules-', ''),
  rows: [...figure.querySelectorAll('.rules-row')].map((row) => ({
    cards: [...row.querySelectorAll('svg.card')].map((svg) => svg.dataset.card),
    says: row.querySelector('.rules-says').textContent,
  })),
  caption: figure.querySelector('figcaption')?.textContent ?? null,
}))
"""
RANKING_JS = """
() => [...document.querySelectorAll('.rules-ranking li')].map((li) => ({
  cards: [...li.querySelectorAll('svg.card')].map((svg) => svg.dataset.card),
  category: li.querySelector('.rules-category').textContent,
  says: li.querySelector('.rules-says').textContent,
}))
"""


SERVER = ServerSpec(ARGS)


def open_rules(page: Page, base: str, game: str, language: str = "en") -> None:
    page.goto(f"{base}/?lang={language}#/rules/{game}")
    page.wait_for_selector(f"article.rules[data-game='{game}'] h1")


def ints(cards: list[str]) -> list[int]:
    return [int(card) for card in parse_cards(" ".join(cards))]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_each_page_has_every_section_in_each_language(
    page: Page, server: ServerProcess, game: str, language: str
) -> None:
    open_rules(page, server.base, game, language)
    assert page.inner_text(".rules h1") == TITLES[language][game]
    assert page.evaluate("document.documentElement.lang") == language
    ids = page.eval_on_selector_all(".rules-section", "els => els.map(e => e.id)")
    assert ids == [f"rules-{s}" for s in SECTIONS]
    contents = page.eval_on_selector_all(".rules-contents a", "els => els.map(e => e.textContent)")
    headings = page.eval_on_selector_all(
        ".rules-section > h2", "els => els.map(e => e.textContent)"
    )
    assert contents == headings and all(headings)
    # The streets in order, with the game's own words for them.
    streets = page.eval_on_selector_all(
        ".rules-streets > li > h3", "els => els.map(e => e.textContent)"
    )
    assert len(streets) == 7
    current = page.eval_on_selector(".rules-games a[aria-current='page']", "a => a.dataset.rules")
    assert current == game
    # The actions, each with the words its button will carry.
    assert page.locator(".rules-actions dt").count() == 7
    text = page.inner_text("article.rules")
    if game == "stud":
        assert page.locator("#rules-limits .rules-example").count() == 1  # the open pair
    else:
        assert page.locator("#rules-limits .rules-example").count() == 0
    assert ("scoop" in text.lower() or "兩半都贏" in text or "两半都赢" in text) == (
        game == "stud8"
    )


def test_the_worked_examples_are_true_for_the_evaluators(page: Page, server: ServerProcess) -> None:
    """What each example draws makes the hands its English words name, and the hand said to
    win, act first or bring in does."""
    # Seven Card Stud: the ranking, best first, each hand as the evaluator describes it.
    open_rules(page, server.base, "stud")
    ranking: list[dict[str, Any]] = page.evaluate(RANKING_JS)
    assert len(ranking) == 9
    values = []
    for entry in ranking:
        hand = evaluate_high(parse_cards(" ".join(entry["cards"])))
        assert entry["says"] == hand.description, entry
        assert entry["category"].lower().replace("one pair", "pair") == hand.category
        values.append(hand.value)
    assert values == sorted(values, reverse=True)
    examples: list[dict[str, Any]] = page.evaluate(EXAMPLES_JS)
    by_section = {e["section"]: e for e in examples}
    brings, waits = by_section["bringin"]["rows"]
    assert brings["cards"][0][0] == waits["cards"][0][0]
    assert SUITS.index(brings["cards"][0][1]) < SUITS.index(waits["cards"][0][1])  # lower suit
    first, second = by_section["first"]["rows"]
    assert showing_high_value(ints(first["cards"])) > showing_high_value(ints(second["cards"]))
    pair = by_section["limits"]["rows"][0]["cards"]
    assert len(pair) == 2 and pair[0][0] == pair[1][0]  # an open pair on 4th street
    streets = by_section["streets"]["rows"][0]["cards"]
    assert len(streets) == 7

    # Razz: the lowest showing acts first; the highest door card brings in (higher suit).
    open_rules(page, server.base, "razz")
    examples = page.evaluate(EXAMPLES_JS)
    sections = [e["section"] for e in examples]
    brings, waits = examples[sections.index("bringin")]["rows"]
    assert SUITS.index(brings["cards"][0][1]) > SUITS.index(waits["cards"][0][1])
    rows = examples[sections.index("first")]["rows"]
    shown = [showing_razz_value(ints(r["cards"])) for r in rows]
    assert shown[0] == max(shown)  # the first row is said to act first
    ranking_examples = [e for e in examples if e["section"] == "ranking"]
    compare, pairs, seven = ranking_examples
    for winner, loser in (compare["rows"], pairs["rows"]):
        assert winner["says"].endswith("wins") and loser["says"].endswith("loses")
        assert (
            evaluate_razz(parse_cards(" ".join(winner["cards"]))).value
            > evaluate_razz(parse_cards(" ".join(loser["cards"]))).value
        )
    best = evaluate_razz(parse_cards(" ".join(seven["rows"][0]["cards"])))
    assert best.description.replace(",", "-") + " low" in seven["rows"][0]["says"]

    # Stud Hi/Lo: qualifying, a scoop, a quartered pot.
    open_rules(page, server.base, "stud8")
    examples = page.evaluate(EXAMPLES_JS)
    ranking_examples = [e for e in examples if e["section"] == "ranking"]
    _compare, qualify, scoop, quarter = ranking_examples
    yes, no = qualify["rows"]
    assert evaluate_eight_low(parse_cards(" ".join(yes["cards"]))) is not None
    assert evaluate_eight_low(parse_cards(" ".join(no["cards"]))) is None
    a, b = (parse_cards(" ".join(r["cards"])) for r in scoop["rows"])
    assert evaluate_high(a).value > evaluate_high(b).value
    assert evaluate_eight_low(a) is not None and evaluate_eight_low(b) is None
    assert evaluate_high(a).description in scoop["rows"][0]["says"]
    a, b = (parse_cards(" ".join(r["cards"])) for r in quarter["rows"])
    low_a, low_b = evaluate_eight_low(a), evaluate_eight_low(b)
    assert low_a is not None and low_b is not None and low_a.value == low_b.value
    assert evaluate_high(a).value > evaluate_high(b).value
    assert evaluate_high(a).description in quarter["rows"][0]["says"]
    pot = 80
    high_half, low_half = pot - pot // 2, pot // 2
    share_a, share_b = high_half + low_half // 2, low_half - low_half // 2
    assert f"{pot}" in quarter["caption"]
    assert f"first player takes {share_a} and the second {share_b}" in quarter["caption"]
    assert share_b * 4 == pot  # a quarter


def test_the_lobby_links_to_each_page(page: Page, server: ServerProcess) -> None:
    page.goto(server.base + "/#/lobby")
    page.wait_for_selector(".rules-nav a")
    links = page.eval_on_selector_all(
        ".rules-nav a", "els => els.map(a => [a.dataset.rules, a.getAttribute('href')])"
    )
    assert links == [[g, f"#/rules/{g}"] for g in GAMES]
    page.click(".rules-nav a[data-rules='stud8']")
    page.wait_for_selector("article.rules[data-game='stud8']")
    # The page's own switch between games.
    page.click(".rules-games a[data-rules='razz']")
    page.wait_for_selector("article.rules[data-game='razz']")
    assert page.url.endswith("#/rules/razz")
    # Back to the lobby with the browser's back button; an unknown game shows Seven Card Stud.
    page.goto(server.base + "/#/rules/holdem")
    page.wait_for_selector("article.rules[data-game='stud']")


def test_a_table_links_to_its_games_rules_in_a_new_tab(
    browser: Browser, server: ServerProcess
) -> None:
    guest = httpx.post(server.base + "/api/guest", timeout=60)
    cookie = guest.cookies["stud_session"]
    created = httpx.post(
        server.base + "/api/tables",
        json={"name": "Rules here", "game": "stud8", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 4, "bots": 2},
        cookies={"stud_session": cookie},
        timeout=60,
    )  # fmt: skip
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    context = browser.new_context(locale="zh-TW", viewport={"width": 1200, "height": 900})
    try:
        tab = context.new_page()
        tab.set_default_timeout(TIMEOUT)
        tab.goto(f"{server.base}/#/table/{table}")
        # A locator, not an element: the header is drawn again at every step of the table.
        link = tab.locator(".table-name .rules-link")
        link.wait_for()
        assert link.get_attribute("href") == "#/rules/stud8"
        assert link.get_attribute("target") == "_blank"
        assert link.get_attribute("aria-label") == "七張高低梭哈的規則（在新分頁開啟）"
        with context.expect_page() as opened:
            link.click()
        rules = opened.value
        rules.wait_for_selector("article.rules[data-game='stud8'] h1")
        assert rules.inner_text(".rules h1") == "七張高低梭哈怎麼玩"
        assert tab.url.endswith(f"#/table/{table}")  # the table stays where it was
        # In the pseudo-locale the link's words all come from the catalog.
        tab.goto(f"{server.base}/?lang={PSEUDO}#/table/{table}")
        tab.wait_for_selector(".table-name .rules-link")
        assert escaped_text(tab, ".table-name .rules-link") == []
    finally:
        context.close()


def test_the_contents_move_the_keyboards_focus(page: Page, server: ServerProcess) -> None:
    open_rules(page, server.base, "stud8")
    page.focus(".rules-contents a[data-section='pots']")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.id === 'rules-pots'")
    top = page.evaluate("document.getElementById('rules-pots').getBoundingClientRect().top")
    assert 0 <= top < 200
    # Tab from the menu reaches the game links and the contents in order.
    page.focus("#language-menu")
    order = []
    for _ in range(8):
        page.keyboard.press("Tab")
        order.append(
            page.evaluate("document.activeElement.textContent || document.activeElement.id")
        )
    assert "Razz" in order


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_no_serious_problem(
    page: Page, server: ServerProcess, game: str, language: str
) -> None:
    open_rules(page, server.base, game, language)
    assert serious_problems(page) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_screenshot_of_a_rules_page(
    page: Page, server: ServerProcess, language: str, tmp_path: Path
) -> None:
    open_rules(page, server.base, "stud8", language)
    page.click(".rules-contents a[data-section='ranking']")
    page.wait_for_function("() => document.activeElement?.id === 'rules-ranking'")
    shot = tmp_path / f"screenshot-rules-{language}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if os.environ.get("STUD_WEB_SCREENSHOTS") == "1":
        shutil.copy(shot, DOCS / shot.name)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_reads_the_rules_without_scrolling_sideways(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        phone = context.new_page()
        phone.set_default_timeout(TIMEOUT)
        open_rules(phone, server.base, "stud8", language)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        box = phone.locator(".rules-ranking li").first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
    finally:
        context.close()
