"""The table and the replayer for everyone: axe-core and what a screen reader is told.

A person plays a stacked Stud Hi/Lo hand heads-up against a bot at a three-seat table (one
seat stays empty) while a second browser watches. axe-core (shipped inside
axe-playwright-python: nothing is downloaded) finds no serious or critical violation mid-hand,
at the split showdown and in the replayer, in each language. Seats, cards and buttons have
names in the page's language ("Seat 2, Bot 1, 497 chips, showing ..."; "Sit in seat 3"), the
own down cards are named in the owner's page only, the hand log is a polite live region that
gains one line per event and never redraws the lines it has, the side's tabs are real tabs,
and the four-colour deck still draws every suit.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess
from table_pages import (
    LANGUAGES,
    Person,
    open_table,
    play_to_showdown,
    play_to_street,
    serious_violations,
    sit,
    sit_out_after_this_hand,
)
from table_pages import SERVER as SERVER  # the room the server fixture starts

# Everything the log's lines go through: lines added, lines taken away, text changed in place.
LOG_WATCH = """() => {
  window.__logChanges = {added: 0, removed: 0, changed: 0};
  const log = document.querySelector('.table-view ol.log');
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target === log) {
        window.__logChanges.added += r.addedNodes.length;
        window.__logChanges.removed += r.removedNodes.length;
      } else {
        window.__logChanges.changed += 1;
      }
    }
  }).observe(log, {childList: true, subtree: true, characterData: true});
}"""
SEAT_LABELS = """() => Object.fromEntries([...document.querySelectorAll('.felt .seat')]
    .map(s => [s.dataset.seat, s.getAttribute('aria-label')
        || s.querySelector('button, .empty-seat')?.getAttribute('aria-label')]))"""


def axe_in_each_language(person: Person, where: str, ready: str) -> list[str]:
    """axe-core's serious and critical findings in each language, ``ready`` drawn first."""
    found: list[str] = []
    for code in LANGUAGES:
        person.use_language(code)
        person.page.wait_for_selector(ready)
        found += [f"{where} {code}: {v}" for v in serious_violations(person.page)]
    return found


def test_the_table_and_the_replayer_for_everyone(server: ServerProcess, browser: Browser) -> None:
    person = Person(browser, server.base)
    watcher = Person(browser, server.base)
    try:
        person.guest()
        table = open_table(server.base, seats=3, bots=1)
        sit(person, table)
        watcher.guest()
        watcher.goto(f"#/table/{table}")
        watcher.page.wait_for_selector(".felt .seat .sit-btn")
        state = play_to_street(person, table, 4)
        you = state["you"]
        person.js(LOG_WATCH)

        # Names: every seat, in the player's page and the watcher's.
        down = [c for s in state["hand"]["seats"] if s["seat"] == you for c in s["down"]]
        mine = person.js(SEAT_LABELS)[str(you)]
        assert mine.startswith(f"Seat {you + 1}, ") and "(you)" in mine and "chips" in mine
        assert "your down cards: " in mine, mine
        names = person.js(
            "cards => Promise.all(cards.map(c => import('/js/cards.js').then(m => m.cardName(c))))",
            down,
        )
        assert all(name in mine for name in names), (names, mine)
        seen = watcher.js(SEAT_LABELS)
        assert "your down cards" not in seen[str(you)] and "(you)" not in seen[str(you)]
        assert not any(name in seen[str(you)] for name in names), seen[str(you)]
        assert re.search(r", showing [^,]+ of [a-z]+", seen[str(you)]), seen[str(you)]
        empty = [seat for seat, label in seen.items() if label and label.startswith("Sit in seat")]
        assert len(empty) == 1, seen
        assert seen[empty[0]] == f"Sit in seat {int(empty[0]) + 1}"
        buttons = person.js(
            "() => [...document.querySelectorAll('.action-bar .act-btn')].map(b => b.innerText)"
        )
        assert any(b.startswith("Check") or b.startswith("Call") for b in buttons), buttons
        # The log is a polite live region; the action bar is not one (its hint ticks).
        log = person.page.locator(".table-view ol.log")
        assert log.get_attribute("aria-live") == "polite"
        assert person.page.get_attribute(".action-bar", "aria-live") is None
        # Tabs: a tablist of tabs, each controlling its panel; the arrow keys move between them.
        tabs = person.page.locator(".table-view [role='tablist'] [role='tab']")
        assert tabs.count() >= 2
        first = tabs.nth(0)
        panel = first.get_attribute("aria-controls")
        assert first.get_attribute("aria-selected") == "true"
        assert person.page.get_attribute(f"#{panel}", "role") == "tabpanel"
        first.focus()
        person.page.keyboard.press("ArrowRight")
        assert tabs.nth(1).get_attribute("aria-selected") == "true"
        assert person.js("() => document.activeElement.getAttribute('role')") == "tab"
        person.page.keyboard.press("ArrowLeft")
        assert first.get_attribute("aria-selected") == "true"

        problems = axe_in_each_language(person, "mid-hand", ".action-bar.active .act-btn")
        problems += axe_in_each_language(watcher, "watching", ".felt .seat .sit-btn")

        # The showdown (the split pot stays on the felt: we sit out from the next hand).
        person.use_language("en")
        person.js(LOG_WATCH)
        sit_out_after_this_hand(person)
        play_to_showdown(person, table)
        person.page.wait_for_selector(".felt .results .share-low")
        changes = person.js("() => window.__logChanges")
        assert changes["added"] >= 4 and changes["removed"] == 0 and changes["changed"] == 0
        problems += axe_in_each_language(person, "showdown", ".felt .results .share-low")

        # The four-colour deck: colours change, every suit is still drawn on every card.
        person.js("() => document.getElementById('pref-four-colour').click()")
        assert person.js("() => document.body.classList.contains('four-colour')")
        faces = person.js(
            """() => [...document.querySelectorAll('.felt svg.card.face')]
                .map(s => s.querySelectorAll('path').length)"""
        )
        assert faces and all(n >= 2 for n in faces), faces

        # The replayer of the hand, at its end.
        hand_id = int(person.js(f"() => window.studApp.models.get({table}).showdown.hand_id"))
        person.goto(f"#/replay/{hand_id}")
        person.page.wait_for_selector(".replayer .replay-controls")
        person.page.keyboard.press("End")
        problems += axe_in_each_language(person, "replayer", ".replayer .replay-controls")
        controls = person.js(
            "() => [...document.querySelectorAll('.replay-controls button')].map(b => b.innerText)"
        )
        assert len(set(controls)) == len(controls) == 7, controls  # seven distinct names
        assert problems == [], "\n".join(problems)
        assert not person.errors and not watcher.errors, person.errors + watcher.errors
    finally:
        person.close()
        watcher.close()
