"""The table and the replayer in every language, in real Chromium against a real card room.

A person plays a stacked Stud Hi/Lo hand heads-up against a bot (trip Kings against the low
7-5-3-2-A: the pot is split). Mid-hand on 5th street, at the split showdown and in the
replayer of that hand, the page is read in the pseudo-locale (``?lang=pseudo``: no text
outside the catalogs' ⟦⟧ marks, so nothing hard-coded escaped translation) and in each
Chinese (no English word left but the players' names, key names and what the seed pages
keep); the words themselves are spot-checked (葫蘆-style hand words, 加注/跟注 buttons with
amounts). Screenshots of the table mid-hand in each language go to the test's tmp dir and,
with ``STUD_WEB_SCREENSHOTS=1``, to ``docs/screenshot-table-LANG.png``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from stud.server.testing import ServerProcess
from stud.web.pseudo import PSEUDO, escaped_text, latin_words
from table_pages import (
    KEPT,
    REPLAY_PARTS,
    TABLE_PARTS,
    Person,
    browser,
    name_words,
    open_table,
    play_to_showdown,
    play_to_street,
    screenshot,
    server,
    sit,
    sit_out_after_this_hand,
)

__all__ = ["browser", "server"]  # the module's fixtures, from table_pages

LANGUAGES_AT_SHOWDOWN = ("zh-Hant", "zh-Hans", "en")
# Words each language must show at the table mid-hand (5th street, our turn: check or bet).
MID_HAND = {
    "en": ["5th street", "Check", "Bet 10"],
    "zh-Hant": ["第五街", "過牌", "下注 10", "輪到您了"],
    "zh-Hans": ["第五张牌", "过牌", "下注 10", "轮到您了"],
}
# The split pot at the showdown, in words.
SHOWDOWN = {
    "en": ["three of a kind, Kings", "7-5-3-2-A low", "high half of the pot", "low half of"],
    "zh-Hant": ["三條K", "低牌 7-5-3-2-A", "底池的高牌一半", "底池的低牌一半", "攤牌"],
    "zh-Hans": ["三条K", "低牌 7-5-3-2-A", "底池的高牌一半", "底池的低牌一半", "摊牌"],
}


def untranslated(person: Person, parts: str, code: str, allowed: frozenset[str]) -> list[str]:
    """What escaped translation under ``parts`` in language ``code``."""
    if code == PSEUDO:
        return escaped_text(person.page, parts)
    if code == "en":
        return []
    return latin_words(person.page, parts, allowed)


def test_the_table_and_the_replayer_speak_every_language(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    person = Person(browser, server.base)
    try:
        person.guest(PSEUDO)
        table = open_table(server.base)
        sit(person, table, PSEUDO)
        play_to_street(person, table, 5)
        allowed = KEPT | name_words(person, table)

        # Mid-hand: our turn on 5th street, in the pseudo-locale then each language.
        assert person.js("document.documentElement.lang") == "en-XA"
        assert untranslated(person, TABLE_PARTS, PSEUDO, allowed) == []
        # The check is real: a word written into the felt is caught.
        person.js("() => document.querySelector('.felt .street-name').append(' street')")
        assert len(escaped_text(person.page, TABLE_PARTS)) == 1
        for code in ("zh-Hant", "zh-Hans", "en"):
            person.use_language(code)
            person.page.wait_for_selector(".action-bar.active .act-btn")
            assert untranslated(person, TABLE_PARTS, code, allowed) == [], code
            text = person.page.inner_text(".table-view")
            for words in MID_HAND[code]:
                assert words in text, (code, words)
            screenshot(person.page, tmp_path / f"table-{code}.png", f"screenshot-table-{code}.png")

        # The showdown: the split pot (high half, low half), in each language.
        person.use_language(PSEUDO)
        sit_out_after_this_hand(person)  # no next hand: the showdown stays on the felt
        play_to_showdown(person, table)
        person.page.wait_for_selector(".felt .results .share-high")
        person.page.wait_for_selector(".felt .results .share-low")
        assert untranslated(person, TABLE_PARTS, PSEUDO, allowed) == []
        for code in LANGUAGES_AT_SHOWDOWN:
            person.use_language(code)
            person.page.wait_for_selector(".felt .results .share-low")
            assert untranslated(person, TABLE_PARTS, code, allowed) == [], code
            text = person.page.inner_text(".table-view")
            for words in SHOWDOWN[code]:
                assert words in text, (code, words, text)

        # The replayer of that hand: at its start, on 5th street and at its end.
        hand_id = int(person.js(f"() => window.studApp.models.get({table}).showdown.hand_id"))
        person.goto(f"#/replay/{hand_id}")
        for code in (PSEUDO, *LANGUAGES_AT_SHOWDOWN):
            person.use_language(code)  # the replayer is drawn again, from its start
            person.page.wait_for_selector(".replayer[data-step='0'] .replay-controls")
            for keys in ([], ["ArrowDown", "ArrowDown"], ["End"]):
                for key in keys:
                    person.page.keyboard.press(key)
                assert untranslated(person, REPLAY_PARTS, code, allowed) == [], (code, keys)
            person.page.wait_for_selector(".replayer .results .share-low")
            if code in SHOWDOWN:
                text = person.page.inner_text(".replayer")
                assert SHOWDOWN[code][0] in text and SHOWDOWN[code][1] in text, (code, text)
        assert not person.errors, person.errors
    finally:
        person.close()
