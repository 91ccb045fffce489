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
from typing import Any

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess
from stud.web.pseudo import PSEUDO, escaped_text, latin_words
from table_pages import (
    KEPT,
    REPLAY_PARTS,
    TABLE_PARTS,
    Person,
    name_words,
    open_table,
    play_to_showdown,
    play_to_street,
    screenshot,
    sit,
    sit_out_after_this_hand,
)
from table_pages import SERVER as SERVER  # the room the server fixture starts

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


# Every kind of line the log writes, including those a played hand rarely shows.
EVENTS: list[dict[str, Any]] = [
    {"type": "new_hand", "number": 7, "hand_id": 1234},
    {"type": "ante", "seat": 0, "amount": 1, "all_in": False},
    {"type": "ante", "seat": 1, "amount": 1, "all_in": True},
    {"type": "street", "street": 3},
    {"type": "dealt", "seat": 0, "down": ["As", "Td"], "up": ["2c"]},
    {"type": "dealt", "seat": 1, "down": [None, None], "up": ["Kh"]},
    {"type": "action", "seat": 0, "kind": "bring-in", "to": 2, "amount": 2, "all_in": False},
    {"type": "action", "seat": 1, "kind": "complete", "to": 5, "amount": 5, "all_in": False},
    {"type": "action", "seat": 0, "kind": "call", "to": 5, "amount": 3, "all_in": True},
    {"type": "street", "street": 4},
    {"type": "double_bet_allowed"},
    {"type": "action", "seat": 1, "kind": "bet", "to": 10, "amount": 10, "all_in": False},
    {"type": "action", "seat": 0, "kind": "raise", "to": 20, "by": 10, "all_in": False},
    {"type": "capped", "street": 4},
    {"type": "action", "seat": 1, "kind": "check"},
    {"type": "action", "seat": 1, "kind": "fold"},
    {"type": "uncalled", "seat": 0, "amount": 10},
    {"type": "community", "card": "9d"},
    {"type": "pots", "pots": [{"amount": 60, "seats": [0, 1]}, {"amount": 20, "seats": [0]}]},
    {"type": "showdown", "seats": [0, 1]},
    {"type": "show", "seat": 0, "cards": ["As", "Td", "2c"], "high": "a flush, Ace high",
     "low": "8,6,4,3,2"},
    {"type": "show", "seat": 1, "cards": ["Kh"], "high": None, "low": "7,5,3,2,A"},
    {"type": "muck", "seat": 1},
    {"type": "no_low", "pot": 1},
    {"type": "no_low", "pot": 0},
    {"type": "award", "seat": 0, "pot": 0, "amount": 30, "share": "high"},
    {"type": "award", "seat": 1, "pot": 0, "amount": 30, "share": "low"},
    {"type": "award", "seat": 0, "pot": 1, "amount": 20, "share": "all"},
    {"type": "hand_finished", "number": 7, "hand_id": 1234, "summary": {"shuffle": {}}},
    {"type": "shuffle", "commitment": "4da5c0ffee0123456789"},
    {"type": "timeout", "seat": 1, "action": "fold"},
    {"type": "seated", "seat": 2},
    {"type": "left", "seat": 2, "name": "cy"},
    {"type": "leaving", "seat": 1, "folds": True},
    {"type": "leaving", "seat": 1, "folds": False},
    {"type": "sat_out", "seat": 1, "next_hand": True},
    {"type": "sat_out", "seat": 1, "next_hand": False},
    {"type": "topped_up", "seat": 0, "amount": 100, "stack": 300, "after_hand": True},
    {"type": "topped_up", "seat": 0, "amount": 100, "stack": 300, "rebuy": True},
    {"type": "topped_up", "seat": 0, "amount": 100, "stack": 300, "rebuy": False},
    {"type": "renamed", "seat": 1},
    {"type": "sat_in", "seat": 1},
]  # fmt: skip
# The log, the action bar's labels (the small and double bet of a 4th-street open pair),
# the pre-action boxes and the readouts, drawn into the page by the client's own modules.
DRAW_ALL = """async ([code, events]) => {
  const i18n = await import('/js/i18n.js');
  const log = await import('/js/handlog.js');
  const actions = await import('/js/actions.js');
  const pre = await import('/js/preactions.js');
  const readout = await import('/js/readout.js');
  const { h } = await import('/js/dom.js');
  await i18n.useLanguage(code);
  document.getElementById('probe')?.remove();
  const names = (seat) => ['ann', 'bob', 'cy'][seat];
  const context = { bigBet: 10, street: 4, pots: 2 };
  const lines = events.map((e) => log.describe(e, names, 0, context))
    .filter(Boolean).map(log.logLine);
  const legal = [{action: 'fold', to: 0}, {action: 'call', to: 5}, {action: 'bet', to: 5},
    {action: 'bet', to: 10}, {action: 'raise', to: 20}, {action: 'complete', to: 5},
    {action: 'bring-in', to: 2}, {action: 'check', to: 0}];
  const labels = actions.describeActions(legal, 2)
    .map((a) => h('li', {}, a.label, ' ', a.extra ?? ''));
  const boxes = [...pre.options({toCall: 5}), ...pre.options({toCall: 0})]
    .map((o) => h('li', {}, o.label));
  const low = (ranks, made, possible) => ({ranks, made, possible});
  const words = [
    readout.readoutText({high: 'a pair of Kings', low: low('7,5,3', false, true)}, 'stud8'),
    readout.readoutText({high: 'high card Ace', low: low('7,5,3,2,A', true, true)}, 'stud8'),
    readout.readoutText({high: 'two pair, Kings and Fives', low: low('9', false, false)}, 'stud8'),
    readout.readoutText({high: null, low: low('7,4,2', false, true)}, 'razz'),
    readout.boardText({high: 'three of a kind, Kings', low: null}, 'stud'),
  ].map((w) => h('li', {}, w));
  document.body.append(h('ol', { id: 'probe', class: 'log' }, lines, labels, boxes, words));
  return lines.length;
}"""


def test_every_line_and_label_of_the_table_is_translated(
    browser: Browser, server: ServerProcess
) -> None:
    """Each line the log can write, every action label and box, and the readouts, drawn by the
    client's modules in the pseudo-locale and each Chinese: nothing escapes the catalogs."""
    person = Person(browser, server.base)
    try:
        person.goto("#/lobby")
        allowed = KEPT | {"ann", "bob", "cy"}
        for code in (PSEUDO, "zh-Hant", "zh-Hans"):
            drawn = person.js(DRAW_ALL, [code, EVENTS])
            assert drawn == len(EVENTS), drawn  # one line for each event
            assert untranslated(person, "#probe", code, allowed) == [], code
        probe = person.page.inner_text("#probe")
        for words in (
            "加注到 20",
            "下注 5（小注）",
            "下注 10（大注）",
            "跟任何注",
            "过牌/弃牌",
            "同花，A为首",
            "低牌 8-6-4-3-2",
            "边池 1 没有合格的低牌",
            "听低牌：7,5,3",
        ):
            assert words in probe, (words, probe)
        assert not person.errors, person.errors
    finally:
        person.close()
