"""A hand played with the keyboard alone, and the single-key shortcuts turned off (WCAG 2.1.4).

In real Chromium against a real card room: a person (a guest) opens a heads-up Stud Hi/Lo
table and, with Tab, Enter and Space only, takes the empty seat through the buy-in dialog
and plays the hand to its end; every element the focus lands on shows it (a visible
outline), and between turns the focus waits on the action bar, so each later turn starts on
its Check or Call button; a seat's up cards read in words from the keyboard too. Then the
shortcuts are turned off from the box under the table (again by keyboard): F, C, K, B, R
and the digits do nothing at the next turn, Enter still acts, the keys drawn on the buttons
are gone, and the choice survives a reload; turned on again, K acts at once.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess
from stud.testing.web import flush
from table_pages import SERVER as SERVER  # the server the tests use: table_pages' stacked decks
from table_pages import STATE, Person, open_table

# Whether the focused element shows it: it matches :focus-visible and draws an outline.
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {visible: false, what: 'body'};
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  return {visible: el.matches(':focus-visible') && outline,
          what: `${el.tagName}.${el.className} ${el.dataset.action ?? el.textContent.trim()}`};
}"""
COUNT_ACTS = """() => {
  const socket = window.studApp.socket;
  const send = socket.send.bind(socket);
  window.__acts = 0;
  socket.send = (m) => { if (m.type === 'act') window.__acts += 1; return send(m); };
}"""
PASSIVE = ("check", "call", "bring-in")


def focused(person: Person) -> dict[str, Any]:
    return dict(person.js(FOCUS))


def tab_to(person: Person, selector: str, limit: int = 80) -> int:
    """Press Tab until the focus is on an element matching ``selector``; every control it stops
    at on the way shows its focus. How many presses it took."""
    for presses in range(limit + 1):
        if person.js(f"() => document.activeElement?.matches({selector!r}) ?? false"):
            return presses
        person.page.keyboard.press("Tab")
        where = focused(person)
        # Past the page's last control the focus leaves the page (the browser's own bar).
        assert where["visible"] or where["what"] == "body", f"no focus shown on {where['what']}"
    raise AssertionError(f"Tab never reached {selector} (at {focused(person)['what']})")


def my_turn(person: Person, table: int, after: int, or_end: bool = False) -> dict[str, Any] | None:
    """Wait for our next turn (later than ``after``), or with ``or_end`` the hand's end (None)."""
    person.page.wait_for_function(
        f"""([t, after, orEnd]) => {{ const s = ({STATE})(t);
            const mine = s && s.turn && s.turn.seat === s.you && s.turn.turn > after
              && s.legal.length && document.querySelector('.action-bar.active .act-btn:enabled');
            return mine || (orEnd && window.studApp.models.get(t).showdown); }}""",
        arg=[table, after, or_end],
    )
    state = person.state(table)
    turn = state.get("turn")
    if turn and turn["seat"] == state["you"] and turn["turn"] > after and state["legal"]:
        return state
    return None


def act_by_keyboard(person: Person, key: str) -> None:
    """Check or call with the focused bar: Tab to a passive button unless on one, then ``key``."""
    action = person.js("() => document.activeElement?.dataset?.action ?? null")
    if action not in PASSIVE:
        tab_to(person, ", ".join(f".act-btn[data-action='{a}']" for a in PASSIVE))
    where = focused(person)
    assert where["visible"], where
    person.page.keyboard.press(key)


def test_a_hand_by_keyboard_then_without_shortcuts(server: ServerProcess, browser: Browser) -> None:
    person = Person(browser, server.base)
    try:
        person.guest()
        table = open_table(server.base, name="Keys")
        person.goto(f"#/table/{table}")
        person.page.wait_for_selector(".felt .seat .sit-btn")
        person.js("() => document.activeElement?.blur()")  # from the top

        # Sitting down: Tab to the seat's button, Enter, then the buy-in dialog's Sit.
        tab_to(person, ".sit-btn")
        assert person.js("() => document.activeElement.getAttribute('aria-label')").startswith(
            "Sit in seat "
        )
        person.page.keyboard.press("Enter")
        person.page.wait_for_selector("dialog.buy-in[open]")
        tab_to(person, "dialog.buy-in button[value='sit']", limit=10)
        person.page.keyboard.press("Enter")
        person.page.wait_for_selector(".seat.me")

        # The hand, by keyboard: Enter and Space in turn on the Check or Call button.
        turn = -1
        turns = 0
        start = None
        while (state := my_turn(person, table, turn, or_end=True)) is not None:
            start = start if start is not None else state["hand_number"]
            if not turns:  # the others' up cards in words: a seat takes the focus, Enter keeps them
                tab_to(person, ".seat.has-board")
                assert person.page.is_visible(".seat.has-board:focus .tag.board")
                person.page.keyboard.press("Enter")
                person.page.wait_for_selector(".seat.reveal .tag.board")
            if turns:  # the focus waited on the bar: the turn starts on Check or Call
                action = person.js("() => document.activeElement?.dataset?.action ?? null")
                assert action in PASSIVE, focused(person)
            act_by_keyboard(person, "Enter" if turns % 2 == 0 else "Space")
            turn = state["turn"]["turn"]
            turns += 1
        assert turns >= 5, turns  # the bring-in or a call on 3rd, then 4th to 7th street
        showdown = person.js(f"() => window.studApp.models.get({table}).showdown")
        assert showdown["number"] == start
        person.page.wait_for_selector(".felt .results .award")

        # Shortcuts off, from the box under the table (Tab to it, Space).
        person.js(COUNT_ACTS)
        tab_to(person, "input[data-pref='shortcuts']")
        person.page.keyboard.press("Space")
        assert person.js("() => JSON.parse(localStorage.getItem('stud.prefs')).shortcuts") is False
        state = my_turn(person, table, turn)
        assert state is not None
        turn = state["turn"]["turn"]
        assert person.page.query_selector(".act-btn kbd") is None  # no key drawn
        for key in ("f", "c", "k", "b", "r", "i", "o", "d", "1", "2", "3"):
            person.page.keyboard.press(key)
        flush(person.page)  # what the keys set off has happened
        assert person.js("() => window.__acts") == 0
        assert person.state(table)["turn"]["turn"] == turn  # still our turn, nothing sent
        act_by_keyboard(person, "Enter")
        person.page.wait_for_function("() => window.__acts === 1")

        # The choice survives a reload; turned on again, K acts at once.
        person.page.reload()
        person.page.wait_for_selector(".felt .seat")
        assert person.page.is_checked("input[data-pref='shortcuts']") is False
        person.js("() => document.activeElement?.blur()")  # from the top
        tab_to(person, "input[data-pref='shortcuts']")
        person.page.keyboard.press("Space")
        person.js(COUNT_ACTS)
        state = my_turn(person, table, turn)
        assert state is not None
        person.page.wait_for_selector(".act-btn kbd")
        person.js("() => document.activeElement?.blur()")  # from the top
        key = "k" if any(a["action"] == "check" for a in state["legal"]) else "c"
        person.page.keyboard.press(key)
        person.page.wait_for_function("() => window.__acts === 1")
        assert not person.errors, person.errors
    finally:
        person.close()
