"""The client's languages in a real headless Chromium against a real server (docs/i18n.md).

The language comes from the browser's preferences (zh-TW → 繁體中文, zh-CN → 简体中文),
is switched from the top bar's menu on any page, remembered in this browser and, for a
logged-in account, on the server, so another browser logging in speaks it too; ``<html
lang>`` follows. Messages are ICU MessageFormat with the platform's Intl: plurals,
numbers and dates per language; every message of every catalog renders. The server's
English hand descriptions are read back and worded in each language (every high hand
the evaluator can describe). In the pseudo-locale no text of the rules pages and the
language menu escapes the catalogs, and the Chinese pages carry no stray English.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from stud.evaluate.describe import high_description, low_description
from stud.testing.server import ServerProcess, ServerSpec
from stud.web.browser import watched_page
from stud.web.pseudo import PSEUDO, escaped_text, latin_words

CATALOGS = Path(__file__).resolve().parent.parent / "src" / "stud" / "web" / "static" / "i18n"
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
GAMES = ("stud", "stud8", "razz")
ARGS = ("--no-default-tables", "--turn-seconds", "20", "--time-bank", "5")
TIMEOUT = 30_000
# Names the Chinese pages keep as they are (the seed pages do too).
KEPT_NAMES = frozenset({"Razz", "wheel", "scoop"})
I18N = "import('/js/i18n.js')"


SERVER = ServerSpec(ARGS)


class Tab:
    """A browser context (its own storage and cookies) and its page."""

    def __init__(self, browser: Browser, base: str, locale: str = "en-US") -> None:
        self.context: BrowserContext
        self.page: Page
        self.context, self.page, self.errors = watched_page(
            browser, TIMEOUT, locale=locale, viewport={"width": 1200, "height": 900}
        )
        self.base = base

    def open(self, fragment: str = "#/lobby", query: str = "") -> None:
        self.page.goto(f"{self.base}/{query}{fragment}")
        self.page.wait_for_selector("#view > *")
        self.page.wait_for_selector("#language-menu")

    def lang(self) -> str:
        return str(self.page.evaluate("document.documentElement.lang"))

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def new_tab(browser: Browser, server: ServerProcess) -> Iterator[Callable[..., Tab]]:
    """Open tabs (each its own browser context) as a test needs; none may raise a page error."""
    opened: list[Tab] = []

    def make(locale: str = "en-US") -> Tab:
        made = Tab(browser, server.base, locale=locale)
        opened.append(made)
        return made

    yield make
    errors = [error for made in opened for error in made.errors]
    for made in opened:
        made.close()
    assert not errors, errors


@pytest.fixture
def tab(new_tab: Callable[..., Tab]) -> Tab:
    return new_tab()


def catalog(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGS / f"{code}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("zh-TW", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-CN", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("en-GB", "en"),
        ("fr-FR", "en"),
    ],
)
def test_the_language_comes_from_the_browser(
    new_tab: Callable[..., Tab], locale: str, expected: str
) -> None:
    tab = new_tab(locale)
    tab.open("#/rules/stud")
    assert tab.lang() == expected
    assert tab.page.input_value("#language-menu") == expected
    title = {"en": "Seven Card Stud", "zh-Hant": "七張梭哈", "zh-Hans": "七张梭哈"}[expected]
    assert title in tab.page.inner_text(".rules h1")


def test_matching_a_list_of_preferences(tab: Tab) -> None:
    tab.open()
    cases = {
        "zh-Hant-TW,en": "zh-Hant",
        "zh_TW": "zh-Hant",
        "zh-MO": "zh-Hant",
        "zh-Hans-CN": "zh-Hans",
        "zh": "zh-Hans",
        "ja,zh-TW": "zh-Hant",
        "de,en-US,zh-CN": "en",
        "ja,ko": None,
        "": None,
    }
    got = tab.js(
        f"async (cases) => {{ const m = await {I18N}; const out = {{}};"
        " for (const c of Object.keys(cases)) out[c] = m.matchLanguage(c ? c.split(',') : []);"
        " return out; }",
        cases,
    )
    assert got == cases


def test_the_menu_switches_every_page_and_the_choice_is_remembered(
    new_tab: Callable[..., Tab],
) -> None:
    tab = new_tab()
    tab.open("#/rules/razz")
    assert tab.lang() == "en"
    assert tab.page.inner_text(".rules h1") == "How to play Razz"
    tab.page.select_option("#language-menu", "zh-Hant")
    tab.page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    tab.page.wait_for_selector(".rules h1:text-is('Razz怎麼玩')")
    assert tab.page.url.endswith("#/rules/razz")  # the same page, now in Chinese
    assert tab.js("localStorage.getItem('stud.lang')") == "zh-Hant"
    assert tab.page.get_attribute("#language-menu", "title") == "語言"
    # The lobby speaks it too (the rules links), and after a reload it is still chosen.
    tab.open("#/lobby")
    tab.page.wait_for_selector(".rules-nav a[data-rules='stud8']:text-is('七張高低梭哈')")
    tab.page.reload()
    tab.page.wait_for_selector("#language-menu")
    assert tab.lang() == "zh-Hant"
    tab.page.select_option("#language-menu", "zh-Hans")
    tab.page.wait_for_selector(".rules-nav a[data-rules='stud']:text-is('七张梭哈')")
    assert tab.lang() == "zh-Hans"
    # A ?lang= in the address wins for that page, and is not remembered.
    tab.open("#/rules/stud", query="?lang=en")
    assert tab.lang() == "en"
    assert tab.js("localStorage.getItem('stud.lang')") == "zh-Hans"


def sign_in(tab: Tab, name: str, mode: str) -> None:
    """Register (``mode='register'``) or log in through the top bar's dialog."""
    form = f"dialog form[data-mode='{mode}']"
    tab.page.click(f"#account [data-do='{mode}']")
    tab.page.fill(f"{form} input[name='name']", name)
    tab.page.fill(f"{form} input[name='password']", "secret-pass")
    tab.page.click(f"{form} button[type='submit']")
    tab.page.wait_for_selector(f"#account .account-name:text-is('{name}')")


def test_the_language_follows_the_account_to_another_browser(
    new_tab: Callable[..., Tab], server: ServerProcess
) -> None:
    home = new_tab()
    away = new_tab()
    home.open("#/rules/stud8")
    sign_in(home, "polyglot", "register")
    home.page.select_option("#language-menu", "zh-Hans")
    home.page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    cookie = next(c["value"] for c in home.context.cookies() if c["name"] == "stud_session")
    saved = httpx.get(
        server.base + "/api/me/language", cookies={"stud_session": cookie}, timeout=60
    )
    assert saved.json() == {"language": "zh-Hans"}
    # Another browser (nothing in its storage, English preferences) logs in: 简体中文.
    away.open("#/rules/stud8")
    assert away.lang() == "en"
    sign_in(away, "polyglot", "login")
    away.page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    away.page.wait_for_selector(".rules h1:text-is('七张高低梭哈怎么玩')")
    assert away.page.input_value("#language-menu") == "zh-Hans"
    # A fresh page of that browser starts in it (remembered locally as well).
    away.open("#/lobby")
    assert away.lang() == "zh-Hans"


def test_a_new_account_takes_the_language_chosen_before_logging_in(
    new_tab: Callable[..., Tab], server: ServerProcess
) -> None:
    tab = new_tab()
    tab.open("#/lobby")
    tab.page.select_option("#language-menu", "zh-Hant")
    tab.page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    sign_in(tab, "carried", "register")
    cookie = next(c["value"] for c in tab.context.cookies() if c["name"] == "stud_session")

    def saved() -> Any:
        answer = httpx.get(
            server.base + "/api/me/language", cookies={"stud_session": cookie}, timeout=60
        )
        return answer.json()["language"]

    for _ in range(100):  # the browser sends it after logging in: wait for it to land
        if saved() == "zh-Hant":
            break
        tab.page.wait_for_timeout(100)
    assert saved() == "zh-Hant"


def test_messages_plurals_numbers_and_dates_follow_the_language(tab: Tab) -> None:
    tab.open()
    got = tab.js(
        f"""async () => {{
        const m = await {I18N};
        const out = {{}};
        const chips = '{{n, plural, =0 {{no chips}} one {{# chip}} other {{# chips}}}}';
        for (const code of ['en', 'zh-Hant', 'zh-Hans']) {{
          await m.useLanguage(code);
          out[code] = {{
            lang: document.documentElement.lang,
            zero: m.formatMessage(chips, {{n: 0}}),
            one: m.formatMessage(chips, {{n: 1}}),
            many: m.formatMessage(chips, {{n: 12345}}),
            chips: m.formatChips(1234567),
            number: m.formatNumber(1234.5),
            date: m.formatDate(new Date(Date.UTC(2026, 0, 31, 12)), 'long'),
            select: m.formatMessage('{{g, select, razz {{low}} other {{high}}}}', {{g: 'razz'}}),
            quoted: m.formatMessage("it''s '{{literal}}' {{x}}", {{x: 'ok'}}),
          }};
        }}
        let error = null;
        try {{ m.formatMessage('{{n, plural, one {{x}}}}', {{n: 1}}); }}
        catch (e) {{ error = e.message; }}
        out.error = error;
        await m.useLanguage('en');
        return out;
      }}"""
    )
    assert got["en"]["zero"] == "no chips"
    assert got["en"]["one"] == "1 chip"
    assert got["en"]["many"] == "12,345 chips"
    assert got["en"]["chips"] == "1,234,567"
    assert got["en"]["number"] == "1,234.5"
    assert got["en"]["date"] == "January 31, 2026"
    assert got["en"]["select"] == "low"
    assert got["en"]["quoted"] == "it's {literal} ok"
    for code in ("zh-Hant", "zh-Hans"):
        assert got[code]["lang"] == code
        assert got[code]["chips"] == "1,234,567"
        # Chinese has one plural form: 1 takes "other" (an =1 case would be needed for "one").
        assert got[code]["one"] == "1 chips"
        assert got[code]["date"] == "2026年1月31日"
    assert got["error"] and "other" in got["error"]


def test_every_message_of_every_catalog_renders(tab: Tab) -> None:
    """Each message compiles in the client's parser and renders with its placeholders filled."""
    tab.open()
    for code in LANGUAGES:
        problems = tab.js(
            f"""async ([code, messages]) => {{
            const m = await {I18N};
            await m.useLanguage(code);
            const problems = [];
            for (const [key, source] of Object.entries(messages)) {{
              try {{
                const parts = m.parse(source, key);
                const params = {{}};
                const walk = (ps) => {{ for (const p of ps) if (p.arg) {{
                  params[p.arg] = p.type === 'plural' || p.type === 'number' ? 3 : 'X';
                  for (const o of Object.values(p.options ?? {{}})) walk(o);
                }} }};
                walk(parts);
                const text = m.t(key, params);
                if (!text || text === key) problems.push(key + ': nothing rendered');
              }} catch (e) {{ problems.push(key + ': ' + e.message); }}
            }}
            await m.useLanguage('en');
            return problems;
          }}""",
            [code, catalog(code)],
        )
        assert problems == [], f"{code}: {problems}"


def test_the_servers_hand_words_are_read_and_worded_in_each_language(tab: Tab) -> None:
    """Every high hand the evaluator can describe (309 descriptions) and a sample of lows."""
    tab.open()
    highs = sorted({high_description(v) for v in range(1, 7463)})
    lows = sorted({low_description(v) for v in range(1, 6176, 37)} | {"5,4,3,2,A", "8,7,5,3,2"})
    got = tab.js(
        f"""async ([highs, lows]) => {{
        const m = await {I18N};
        const w = await import('/js/handwords.js');
        const out = {{}};
        for (const code of ['en', 'zh-Hant', 'zh-Hans']) {{
          await m.useLanguage(code);
          out[code] = {{
            unread: [...highs, ...lows].filter((d) => w.parseHand(d) === null),
            highs: highs.map((d) => w.describeHand(d)),
            lows: lows.map((d) => w.describeHand(d)),
          }};
        }}
        await m.useLanguage('en');
        const garbage = ['a pair of Jokers', 'two pair', '', '1,2,3', 'K,K,K,K,K,K'];
        out.garbage = garbage.map((d) => w.parseHand(d));
        return out;
      }}""",
        [highs, lows],
    )
    for code in LANGUAGES:
        assert got[code]["unread"] == [], f"{code}: {got[code]['unread'][:5]}"
    # English reads exactly as the server and the hand histories write it.
    assert got["en"]["highs"] == highs
    assert "8-7-5-3-2 low" in got["en"]["lows"]
    hant = dict(zip(highs, got["zh-Hant"]["highs"], strict=True))
    hans = dict(zip(highs, got["zh-Hans"]["highs"], strict=True))
    assert hant["a full house, Kings full of Sevens"] == "葫蘆，三條K帶一對7"
    assert hans["a full house, Kings full of Sevens"] == "葫芦，三条K带一对7"
    assert hant["two pair, Queens and Sevens"] == "兩對，Q和7"
    assert hans["two pair, Queens and Sevens"] == "两对，Q和7"
    assert hant["a straight, Ace to Five"] == "順子，A到5"
    assert hant["a flush, Ten high"] == "同花，10為首"
    assert hans["a Royal Flush"] == "皇家同花顺"
    assert "低牌 8-7-5-3-2" in got["zh-Hant"]["lows"]
    for code in ("zh-Hant", "zh-Hans"):
        for words in got[code]["highs"] + got[code]["lows"]:
            assert not any("a" <= ch <= "z" for ch in words), f"{code}: English in {words!r}"
    assert got["garbage"] == [None] * 5


def test_every_server_error_code_has_words_in_every_language(tab: Tab) -> None:
    tab.open()
    codes = sorted(k.split(".", 1)[1] for k in catalog("en") if k.startswith("error."))
    got = tab.js(
        f"""async (codes) => {{
        const m = await {I18N};
        const e = await import('/js/errortext.js');
        const out = {{}};
        for (const code of ['en', 'zh-Hant', 'zh-Hans']) {{
          await m.useLanguage(code);
          out[code] = {{ known: codes.map(e.errorText), unknown: e.errorText('no_such_code') }};
        }}
        await m.useLanguage('en');
        return out;
      }}""",
        codes,
    )
    for code in LANGUAGES:
        words = catalog(code)
        assert got[code]["known"] == [words[f"error.{c}"] for c in codes]
        assert "no_such_code" in got[code]["unknown"]
    assert got["zh-Hant"]["known"][codes.index("not_your_turn")] == "還沒輪到您。"


@pytest.mark.parametrize("game", GAMES)
def test_no_text_of_the_rules_escapes_the_catalogs(tab: Tab, game: str) -> None:
    """The pseudo-locale wraps each message in ⟦⟧: any letter outside them was not translated.
    Checked: the rules page, the language menu, the lobby's rules links."""
    tab.open(f"#/rules/{game}", query=f"?lang={PSEUDO}")
    assert tab.lang() == "en-XA"
    tab.page.wait_for_selector(".rules h1:has-text('⟦')")
    assert escaped_text(tab.page, "article.rules, .lang-box") == []
    # The check is real: text written into the page is caught.
    tab.js("document.querySelector('.rules h1').append(' Stud rules')")
    assert len(escaped_text(tab.page, "article.rules")) == 1
    tab.open("#/lobby", query=f"?lang={PSEUDO}")
    tab.page.wait_for_selector(".rules-nav a")
    assert escaped_text(tab.page, ".rules-nav") == []


@pytest.mark.parametrize("code", ["zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("game", GAMES)
def test_the_chinese_rules_pages_have_no_english_left(tab: Tab, game: str, code: str) -> None:
    tab.open(f"#/rules/{game}", query=f"?lang={code}")
    assert tab.lang() == code
    assert latin_words(tab.page, "article.rules, .lang-box", KEPT_NAMES) == []
    # Cards are named in the page's language ("黑桃K"), not in English.
    names = tab.js(
        "[...document.querySelectorAll('.rules svg.card')].map(s => s.getAttribute('aria-label'))"
    )
    assert names and all(
        not any(ch.isascii() and ch.isalpha() and ch not in "AKQJ" for ch in n) for n in names
    )


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("zh-tw", "zh-Hant"),  # any spelling of a tag the matcher knows
        ("zh_CN", "zh-Hans"),
        ("xx-pseudo", "en-XA"),
        ("%3Cscript%3Ealert(1)%3C/script%3E", "en"),  # unknown: the browser's language
        ("fr", "en"),
        ("", "en"),
    ],
)
def test_a_lang_in_the_address_is_matched_or_ignored(tab: Tab, asked: str, expected: str) -> None:
    tab.open("#/rules/razz", query=f"?lang={asked}")
    assert tab.lang() == expected
    assert tab.page.locator("article.rules h1").count() == 1
    assert tab.js("localStorage.getItem('stud.lang')") is None  # nothing remembered


def test_a_language_the_server_could_not_save_is_still_used_and_said(
    new_tab: Callable[..., Tab],
) -> None:
    tab = new_tab()
    tab.open("#/lobby")
    sign_in(tab, "unsaved", "register")
    tab.page.route(
        "**/api/me/language",
        lambda route: (
            route.fulfill(status=503, json={"detail": "down"})
            if route.request.method == "PUT"
            else route.continue_()
        ),
    )
    tab.page.select_option("#language-menu", "zh-Hant")
    # (The account's first save, of the language chosen before signing up, may meet the
    # refusal too and say so in English first: the Chinese line is the one asked for.)
    said = catalog("zh-Hant")["lang.not_saved"]
    toast = tab.page.wait_for_selector(f".toast:has-text('{said}')")
    assert toast is not None
    assert toast.text_content() == said
    assert tab.lang() == "zh-Hant"
    assert tab.js("localStorage.getItem('stud.lang')") == "zh-Hant"


def test_the_menu_works_from_the_keyboard(tab: Tab) -> None:
    """Tab to the menu and choose with the arrow keys: the page follows each choice."""
    tab.open("#/rules/stud")
    tab.page.focus("#account button")
    tab.page.keyboard.press("Shift+Tab")
    assert tab.js("document.activeElement.id") == "language-menu"
    name = tab.js(
        "(() => { const s = document.getElementById('language-menu');"
        " return [...s.labels].map(l => l.textContent).join(' ').trim(); })()"
    )
    assert name == "Language"
    tab.page.keyboard.press("ArrowDown")
    tab.page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    tab.page.wait_for_selector(".rules h1:text-is('七張梭哈怎麼玩')")
    assert tab.js("document.activeElement.id") == "language-menu"  # the page redrawn, focus kept
    tab.page.keyboard.press("ArrowDown")
    tab.page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    assert tab.js("document.querySelector('.lang-box label').textContent.trim()") == "语言"
