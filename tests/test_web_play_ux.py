"""Playing in the browser as stud players expect (issue 14, the client's half), in real Chromium.

Two people play heads-up through two pages: the buttons say the chips each
action adds, as the log does (a call of the bring-in facing a completion is
"Call 3"); Fold when checking is free asks first; a ticked pre-action box is
taken by itself when the turn comes; a turn while you look at the lobby raises
the banner, the tab title and a notification. One person plays two tables side
by side as tiles, each with its own action bar, and a turn at the table not on
the screen raises the banner with its link. The hand reads in words while it is
played (the server's evaluators), the replayer's End lands on the result, a
hand that does not exist says so, the lobby sorts, and the phone layout keeps
bets, the showdown and the dealer button clear of the cards.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess, ServerSpec
from stud.testing.web import flush
from table_pages import open_table
from test_web_client import SERVER_ARGS, TIMEOUT, Tab, passive, play, shot

# Heads-up Stud: the first player listed (the dealer's left) shows the 2c and brings in; the
# other shows the Kh and has the high board on 4th and 5th street (acts first there).
# Stud Hi/Lo: trip Kings against a 7-5-3-2-A low, as in test_web_client.
DECKS = {
    "stud": ["Ah Kd 2c 3d 9s Th 4c", "Qs Jd Kh 8d 7s 6h 5c"],
    "stud8": ["Kc Kd Ks 9h Jd 2h Td", "Ah 2d 3s 5c 7h Qc Jh"],
}
# Every notification the page makes, recorded (headless Chromium shows none).
NOTIFICATIONS = """
window.__notes = [];
class RecordingNotification {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.__notes.push({title, body: options?.body}); }
  close() {}
}
window.Notification = RecordingNotification;
localStorage.setItem('stud.prefs', JSON.stringify({sound: true, notify: true}));
"""
STATE = "t => window.studApp.models.get(t)?.state"


SERVER = ServerSpec(SERVER_ARGS, decks=DECKS)


def guest(tab: Tab) -> None:
    tab.open()
    tab.page.click(".welcome .btn.primary")
    tab.page.wait_for_selector("#account .account-name")


def new_table(tab: Tab, game: str, *, bots: int, seats: int, name: str) -> int:
    """A table opened through the REST API by a fresh guest (table_pages.open_table)."""
    return open_table(tab.base, game, bots=bots, seats=seats, name=name)


def sit(tab: Tab, table: int, seat: int | None = None, buy_in: int = 300) -> None:
    tab.open(f"#/table/{table}")
    if seat is None:
        tab.page.click(".table-buttons .btn.primary")  # Take a seat
    else:
        tab.page.click(f".seat[data-seat='{seat}'] .sit-btn")
    tab.page.fill("dialog.buy-in input[name='buy_in']", str(buy_in))
    tab.page.click("dialog.buy-in button[value='sit']")
    tab.page.wait_for_selector(".seat.me")


def state(tab: Tab, table: int) -> dict[str, Any]:
    return dict(tab.js(STATE, table))


def wait_turn(tab: Tab, table: int, after: int = -1) -> dict[str, Any]:
    """Wait until it is this tab's turn at ``table`` (buttons shown) and return the state.

    ``after``: a turn number this tab already had; the state that still shows it (the
    server has not yet answered the action just clicked) does not count.
    """
    tab.page.wait_for_function(
        f"([t, after]) => {{ const s = ({STATE})(t); return s && s.turn && s.turn.seat === s.you"
        " && s.turn.turn > after && s.legal.length; }",
        arg=[table, after],
    )
    return state(tab, table)


def buttons(tab: Tab) -> dict[str, str]:
    """The action bar's buttons: action -> text (the single bet when there are two)."""
    found = tab.js(
        """() => [...document.querySelectorAll('.action-bar .act-btn')]
            .map(b => [b.dataset.action, b.innerText.replace(/\\s+/g, ' ').trim()])"""
    )
    out: dict[str, str] = {}
    for action, text in found:
        out.setdefault(action, text)
    return out


def click(tab: Tab, action: str) -> None:
    tab.page.click(f".action-bar.active .act-btn[data-action='{action}']")


COUNT_ACTS = """() => {
  const socket = window.studApp.socket;
  const send = socket.send.bind(socket);
  window.__acts = [];
  socket.send = (m) => { if (m.type === 'act') window.__acts.push(m.table); return send(m); };
}"""


def acts_sent(tab: Tab, table: int) -> int:
    """How many actions the page has sent for ``table`` since COUNT_ACTS (counted in the page)."""
    return int(tab.js("t => window.__acts.filter(x => x === t).length", table))


def log_text(tab: Tab) -> str:
    return tab.page.inner_text(".log")


class HeadsUp:
    """Two people at a two-seat Stud table; ``bringer`` shows the 2c, ``high`` the Kh."""

    def __init__(self, server: ServerProcess, browser: Browser, name: str) -> None:
        self.one = Tab(browser, server.base)
        self.two = Tab(browser, server.base)
        for tab in (self.one, self.two):
            tab.context.add_init_script(NOTIFICATIONS)
            guest(tab)
        self.table = new_table(self.one, "stud", bots=0, seats=2, name=name)
        sit(self.one, self.table, 0)
        sit(self.two, self.table, 1)
        # The first hand is dealt: whoever shows the 2c brings in.
        self.one.page.wait_for_function(
            f"t => ({STATE})(t)?.turn && ({STATE})(t)?.hand", arg=self.table
        )
        first = state(self.one, self.table)
        mine = next(s for s in first["hand"]["seats"] if s["seat"] == first["you"])
        self.bringer, self.high = (
            (self.one, self.two) if mine["up"] == ["2c"] else (self.two, self.one)
        )

    def close(self) -> None:
        self.one.close()
        self.two.close()


def test_call_button_says_the_chips_added_as_the_log_does(
    server: ServerProcess, browser: Browser
) -> None:
    """Bug 1: after bringing in for 2, facing a completion to 5, the button reads Call 3."""
    game = HeadsUp(server, browser, "Call amounts")
    bringer, high, table = game.bringer, game.high, game.table
    try:
        wait_turn(bringer, table)
        assert buttons(bringer)["bring-in"].startswith("Bring in 2")
        click(bringer, "bring-in")
        wait_turn(high, table)
        labels = buttons(high)
        assert labels["call"].startswith("Call 2") and labels["complete"].startswith(
            "Complete to 5"
        )
        click(high, "complete")
        wait_turn(bringer, table)
        labels = buttons(bringer)
        # The street total is 5 and 2 are in: the call adds 3, the raise to 10 adds 8.
        assert labels["call"].startswith("Call 3"), labels
        assert labels["raise"].startswith("Raise to 10") and "+8" in labels["raise"], labels
        # While the bet is out the middle holds the antes apart from it; the total beside.
        assert bringer.page.inner_text(".felt .pot-middle") == "Pot 2"
        assert bringer.page.inner_text(".felt .pot-total") == "Total 9"
        click(bringer, "call")
        bringer.page.wait_for_function(
            "() => /\\(you\\) calls 3/.test(document.querySelector('.log').innerText)"
        )
        assert "(you) calls 3" in log_text(bringer)
        assert "calls 3" in log_text(high)
        assert not bringer.errors and not high.errors, bringer.errors + high.errors
    finally:
        game.close()


def test_fold_when_checking_is_free_asks_and_preactions_are_taken(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Bug 9 and the pre-action boxes, on 4th street where the high board may check."""
    game = HeadsUp(server, browser, "Fold and pre-actions")
    bringer, high, table = game.bringer, game.high, game.table
    try:
        wait_turn(bringer, table)
        click(bringer, "bring-in")
        third = wait_turn(high, table)
        click(high, "call")
        # 4th street: the Kh board acts first, checking is free.
        before = wait_turn(high, table, after=third["turn"]["turn"])
        assert before["hand"]["street"] == 4
        assert {a["action"] for a in before["legal"]} >= {"check", "fold"}
        # Meanwhile the other player ticks Check; the boxes are there because it is not their turn.
        bringer.page.wait_for_selector(".preactions label[data-pre='check']")
        offered = bringer.page.inner_text(".preactions")
        assert "Check/Fold" in offered and "Call any" in offered, offered
        bringer.page.check(".preactions label[data-pre='check'] input")
        # F asks instead of folding: nothing is sent, the turn is the same.
        sent = len(high.sent)
        high.page.keyboard.press("f")
        high.page.wait_for_selector(".fold-confirm")
        assert "Checking is free" in high.page.inner_text(".action-bar")
        flush(high.page)
        assert not any('"act"' in m for m in high.sent[sent:]), high.sent[sent:]
        assert state(high, table)["turn"]["turn"] == before["turn"]["turn"]
        shot(high, tmp_path / "fold-confirm.png")
        # The Fold button asks the same; K checks.
        high.page.keyboard.press("k")
        # The ticked box is taken by itself: the bringer checks without a click.
        high.page.wait_for_function(
            "() => (document.querySelector('.log').innerText.match(/checks/g) || []).length >= 2"
        )
        # The bringer's own page shows it once its socket has the event (it may come later).
        bringer.page.wait_for_function(
            "() => /\\(you\\) checks/.test(document.querySelector('.log').innerText)"
        )
        log = log_text(bringer)
        assert re.search(r"\(you\) checks", log), log
        bringer_acts = [m for m in bringer.sent if '"act"' in m and '"check"' in m]
        assert bringer_acts, "the pre-action was not sent"
        # 5th street: the high board bets; the bringer's Call 5 box is cleared when it is raised.
        wait_turn(high, table, after=before["turn"]["turn"])
        bringer.page.wait_for_selector(".preactions label[data-pre='checkfold']")
        bringer.page.check(".preactions label[data-pre='check'] input")
        click(high, "bet")
        # The bet came in: the Check box is gone (cleared), Fold / Call 10 / Call any offered.
        wait_turn(bringer, table)
        assert bringer.js("t => window.studApp.models.get(t).preactions.choice", table) is None
        assert buttons(bringer)["call"].startswith("Call 10")
        # Now the fold button folds at once (there is a bet to call).
        click(bringer, "fold")
        high.page.wait_for_function("() => /folds/.test(document.querySelector('.log').innerText)")
        assert not bringer.errors and not high.errors, bringer.errors + high.errors
    finally:
        game.close()


# The page's next action goes out with the turn before the current one: the server refuses it.
STALE_ONCE = """() => {
  const socket = window.studApp.socket;
  const send = socket.send.bind(socket);
  window.__staled = false;
  socket.send = (m) => {
    if (m.type !== 'act' || window.__staled) return send(m);
    window.__staled = true;
    return send({...m, turn: m.turn - 1});
  };
}"""


def test_a_refused_action_gives_the_buttons_back(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """An action the server refuses (here a stale turn number) leaves the turn ours: the buttons,
    disabled while the answer is awaited, come back so the player acts again before the clock
    runs out, instead of timing out on dead buttons and being sat out."""
    game = HeadsUp(server, browser, "Refused")
    bringer, high, table = game.bringer, game.high, game.table
    try:
        before = wait_turn(bringer, table)
        bringer.js(STALE_ONCE)
        click(bringer, "bring-in")
        bringer.page.wait_for_function(
            "() => window.__staled"
            " && document.querySelector('.action-bar.active .act-btn:not(:disabled)')"
        )
        refusals = [m for m in bringer.messages if '"stale_turn"' in m]
        assert refusals, bringer.messages[-5:]
        now = state(bringer, table)
        assert now["turn"]["turn"] == before["turn"]["turn"]  # nothing happened on the server
        assert "brings in" not in log_text(bringer)
        # The refusal is said in the server's words (the catalog's), the buttons ready again.
        assert "that turn is over" in bringer.page.inner_text(".toast")
        shot(bringer, tmp_path / "refused.png", "screenshot-refused.png")
        # Acting again works: the bring-in goes in and the other player's turn comes.
        click(bringer, "bring-in")
        wait_turn(high, table)
        assert "brings in" in log_text(high)
        assert not bringer.errors and not high.errors, bringer.errors + high.errors
    finally:
        game.close()


def test_turn_alert_in_the_lobby(server: ServerProcess, browser: Browser) -> None:
    """Bug 4: the turn comes while the player looks at the lobby: banner, title, notification."""
    game = HeadsUp(server, browser, "Alert")
    bringer, high, table = game.bringer, game.high, game.table
    try:
        high.open("#/lobby")
        # A reload in the lobby: the page finds the seat again (from the lobby's player lists).
        high.page.reload()
        high.page.wait_for_selector(".lobby .tables")
        title = "Stud card room"  # each page names itself before it (Lobby — Stud card room)
        assert high.page.title() == f"Lobby — {title}"
        wait_turn(bringer, table)
        click(bringer, "bring-in")
        # high's turn, while high is in the lobby.
        high.page.wait_for_selector(f".turn-alert[data-table='{table}'] a[href='#/table/{table}']")
        assert "Your turn at Alert" in high.page.inner_text(".turn-alerts")
        assert high.page.title().startswith("▶ Your turn")
        notes = high.js("() => window.__notes")
        assert notes and notes[-1]["title"] == "Your turn at Alert", notes
        assert int(high.js("() => Number(document.body.dataset.beeps || 0)")) >= 1
        # The link leads to the table; the banner and the title go once the table is in view.
        high.page.click(f".turn-alert a[href='#/table/{table}']")
        high.page.wait_for_selector(".action-bar.active .act-btn")
        assert high.page.query_selector(".turn-alert") is None
        assert high.page.title() == f"Alert — {title}"  # the table's page names the table
        # No banner on the table in view: the bringer gets none.
        assert bringer.page.query_selector(".turn-alert") is None
        assert not high.errors, high.errors
    finally:
        game.close()


def test_two_tables_as_tiles_with_an_alert_for_the_other(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Two tables at once: tiles with their own action bars; the other table's turn alerts."""
    player = Tab(browser, server.base)
    player.context.add_init_script(NOTIFICATIONS)
    try:
        guest(player)
        one = new_table(player, "stud", bots=1, seats=3, name="Left")
        two = new_table(player, "stud", bots=1, seats=3, name="Right")
        sit(player, one)
        sit(player, two)
        # Looking at Left: act there; a turn at Right raises the banner with its link.
        player.open(f"#/table/{one}")
        while True:
            player.page.wait_for_function(
                f"""() => document.querySelector(".turn-alert[data-table='{two}']")
                    || document.querySelector('.action-bar.active .act-btn:not(:disabled)')"""
            )
            if player.page.query_selector(f".turn-alert[data-table='{two}']"):
                break
            choice = passive(
                [
                    {"action": a, "selector": f".action-bar .act-btn[data-action='{a}']"}
                    for a in buttons(player)
                ],
                {},
            )
            assert choice is not None
            turn = state(player, one)["turn"]["turn"]
            player.page.click(choice)
            player.page.wait_for_function(
                "([t, turn]) => (window.studApp.models.get(t).state.turn?.turn ?? -1) !== turn",
                arg=[one, turn],
            )
        assert "Your turn at Right" in player.page.inner_text(".turn-alerts")
        # The header offers every table at once.
        player.page.click(".tiles-link")
        player.page.wait_for_selector(f".tile[data-table='{one}'] .felt .seat.me")
        player.page.wait_for_selector(f".tile[data-table='{two}'] .felt .seat.me")
        assert player.page.query_selector(".turn-alert") is None  # both tables are in view
        player.js(COUNT_ACTS)
        # Play both tables from their own tiles until each has finished a hand more.
        done = {t: int(state(player, t)["hand_number"]) + 1 for t in (one, two)}
        acted: dict[int, int] = {one: 0, two: 0}
        pictured = False
        for _ in range(200):
            if all(int(state(player, t)["hand_number"]) > done[t] and acted[t] for t in (one, two)):
                break
            player.page.wait_for_selector(".tile .action-bar.active .act-btn:not(:disabled)")
            tile = player.page.query_selector(
                ".tile:has(.action-bar.active .act-btn:not(:disabled))"
            )
            assert tile is not None
            table = int(tile.get_attribute("data-table") or 0)
            assert "Your turn" in tile.inner_text()
            labels = [
                b.get_attribute("data-action")
                for b in tile.query_selector_all(".action-bar .act-btn")
            ]
            action = next(a for a in ("check", "call", "bring-in") if a in labels)
            if acted[one] and acted[two] and not pictured:
                pictured = True
                shot(player, tmp_path / "tiles.png")  # docs: tests/test_web_layout.py
            turn = state(player, table)["turn"]["turn"]
            other = two if table == one else one
            sent_there = acts_sent(player, other)
            if (acted[one] + acted[two]) % 2:
                # By key: it goes to the tile under the mouse, not to the other table's bar.
                tile.hover()
                player.page.keyboard.press({"check": "k", "call": "c", "bring-in": "i"}[action])
            else:
                button = tile.query_selector(f".act-btn[data-action='{action}']")
                assert button is not None
                button.click()
            player.page.wait_for_function(
                "([t, turn]) => (window.studApp.models.get(t).state.turn?.turn ?? -1) !== turn",
                arg=[table, turn],
            )
            acted[table] += 1
            assert acts_sent(player, other) == sent_there, "a key acted at the other table"
        assert acted[one] and acted[two], acted
        assert all(int(state(player, t)["hand_number"]) > done[t] for t in (one, two))
        for table in (one, two):
            assert acts_sent(player, table), table
        assert not player.errors, player.errors
    finally:
        player.close()


def test_hand_in_words_while_playing(server: ServerProcess, browser: Browser) -> None:
    """Stud Hi/Lo: your own hand reads high and low as it grows; the others' up cards on tap."""
    player = Tab(browser, server.base)
    try:
        guest(player)
        table = new_table(player, "stud8", bots=1, seats=2, name="Words")
        sit(player, table)
        seen: dict[int, str] = {}
        boards: list[str] = []

        def on_turn(info: dict[str, Any]) -> bool:
            hand = info["state"]["hand"]
            seen[hand["street"]] = player.page.inner_text(".seat.me .tag.readout")
            assert player.page.inner_text(".your-hand") == seen[hand["street"]]
            other = player.page.query_selector(".seat.has-board:not(.me)")
            assert other is not None
            other.click()  # a tap opens the words for the up cards
            board = player.page.inner_text(".seat.reveal .tag.board")
            boards.append(board)
            other.click()
            return False

        play(player, table, hands=1, on_turn=on_turn)
        assert seen.keys() >= {3, 4, 5, 6, 7}, seen
        # Which of the two stacked hands we held decides the words.
        if "Lo" in seen[3]:
            # Ah 2d | 3s 5c 7h Qc | Jh: the low draws, then makes 7,5,3,2,A on 5th.
            assert seen[3] == "high card Ace · Lo draw: 3,2,A", seen
            assert seen[5] == "high card Ace · Lo: 7,5,3,2,A", seen
            assert seen[7] == "high card Ace · Lo: 7,5,3,2,A", seen
            assert any(b.startswith("showing a pair of Kings") for b in boards), boards
        else:
            # Kc Kd | Ks 9h Jd 2h | Td: trip Kings from 3rd street on.
            assert seen[3] == "three of a kind, Kings", seen
            assert seen[7] == "three of a kind, Kings · no low", seen  # one card left: no low
            assert any("showing high card" in b for b in boards), boards
        assert not player.errors, player.errors
    finally:
        player.close()


def test_replayer_end_and_a_hand_that_does_not_exist(
    server: ServerProcess, browser: Browser
) -> None:
    """Bug 6: End lands on the result, marked in the log; #/replay/999999 says no such hand."""
    player = Tab(browser, server.base)
    try:
        guest(player)
        table = new_table(player, "stud", bots=2, seats=2, name="Replayed")
        # The bots play alone; wait for a finished hand.
        hand_id = 0
        for _ in range(120):
            hands = player.page.request.get(f"{server.base}/api/tables/{table}/hands").json()
            done = [h for h in hands if h.get("status") == "finished"]
            if done:
                hand_id = int(done[0]["id"])
                break
            player.page.wait_for_timeout(500)
        assert hand_id, "no hand finished"
        player.open(f"#/replay/{hand_id}")
        player.page.wait_for_selector(".replayer .replay-controls")
        player.page.keyboard.press("End")
        current = player.page.inner_text(".replayer .log .current")
        assert "collected" in current, current
        assert player.page.query_selector(".replayer .felt .results .award")
        caption = player.page.inner_text(".replay-caption")
        assert "collected" in caption, caption
        # A hand that does not exist: said so, and no download offered.
        player.open("#/replay/999999")
        player.page.wait_for_selector(".replayer[data-missing='1']")
        assert "does not exist" in player.page.inner_text(".replayer")
        assert player.page.query_selector(".replayer .dl-phh, .replayer .dl-ps") is None
        assert not player.errors, player.errors
    finally:
        player.close()


def test_lobby_sorts_and_lists_players(server: ServerProcess, browser: Browser) -> None:
    """Sort by any column, the buy-in range, players on tap, no hands/hour for a new table."""
    player = Tab(browser, server.base)
    try:
        guest(player)
        new_table(player, "razz", bots=1, seats=6, name="Aardvark")
        new_table(player, "stud", bots=1, seats=8, name="Zebra")
        player.open()
        player.page.wait_for_selector(".tables tbody tr")

        def names() -> list[str]:
            return list(
                player.js(
                    "() => [...document.querySelectorAll('.tables .tname')].map(t => t.innerText)"
                )
            )

        # The lobby refreshes every few seconds: both new tables are listed (their bots seated).
        player.page.wait_for_function(
            """() => {
              const names = [...document.querySelectorAll('.tables .tname')]
                .map(t => t.innerText.trim());
              return names.includes('Zebra') && names.includes('Aardvark');
            }"""
        )
        player.page.click(".tables th[data-sort='name']")
        ascending = names()
        assert "Zebra" in ascending and "Aardvark" in ascending, ascending
        assert ascending == sorted(ascending, key=str.lower), ascending
        assert player.page.get_attribute(".tables th[data-sort='name']", "aria-sort") == "ascending"
        player.page.click(".tables th[data-sort='name']")
        assert names() == ascending[::-1]
        player.page.click(".tables th[data-sort='game']")
        games = player.js(
            "() => [...document.querySelectorAll('.tables tbody tr')].map(r => r.dataset.game)"
        )
        assert games == sorted(games), games
        zebra = player.js(
            """() => {
              const row = [...document.querySelectorAll('.tables tbody tr')]
                .find(r => r.querySelector(".tname").innerText.trim() === "Zebra");
              return [row.querySelector('.buyin-cell').innerText,
                      row.querySelector('.rate-cell').innerText];
            }"""
        )
        assert zebra == ["50–500", "—"], zebra
        # A table with players lists them on tap (and in the title, on hover).
        busy = player.page.query_selector(".tables td.seats-cell.has-players")
        assert busy is not None  # the bots are seated
        if busy is not None:
            title = busy.eval_on_selector("[title]", "e => e.title")  # the names, not translated
            busy.click()
            player.page.wait_for_selector(".player-pop li")
            first = player.page.inner_text(".player-pop").split("\n")[0].replace("⚙", "").strip()
            assert first and first in title, (first, title)
        assert not player.errors, player.errors
    finally:
        player.close()


# A recorded hand for the phone: seven players at an eight-seat table, seven cards each, every
# seat with a bet of 10 out (7th street), the person (seat 0) on the button.
PHONE_SEATS = [0, 1, 2, 3, 5, 6, 7]
PHONE_CARDS = [
    "Ah Kd 2c 3d 9s Th 4c", "Qs Jd Kh 8d 7s 6h 5c", "Ac Kc 2d 3h 9c Td 4d",
    "Qh Jc Ks 8c 7c 6c 5d", "As Kh 2h 3s 9h Tc 4h", "Qd Js 8s 7d 6d 5h 9d", "Jh Ts 8h 7h 6s 5s 4s",
]  # fmt: skip
PHONE_PICTURE = """(args) => import('/js/felt.js').then(({ renderFelt }) => {
  const [seatsTaken, cards, withResult] = args;
  const hand = {game: 'stud', street: 7, pot: 240, level: 10, community: null, seats: []};
  const seats = Array(8).fill(null);
  seatsTaken.forEach((seat, i) => {
    const c = cards[i].split(' ');
    seats[seat] = {seat, name: `Player ${seat}`, stack: 1000, time_bank: 30};
    hand.seats.push({seat, stack: 1000, bet: 10, committed: 30, live: true, all_in: false,
      shown: false, down: seat === 0 ? [c[0], c[1], c[6]] : [null, null, null], up: c.slice(2, 6)});
  });
  const view = document.getElementById('view');
  view.innerHTML = '<section class="table-view"><div class="table-main"><div class="felt-column">'
    + '<div class="felt-wrap"><div class="felt" id="phone-felt"></div></div></div></div></section>';
  document.body.dataset.view = 'table';
  const award = {seat: 3, pot: 0, amount: 240, share: 'all', hand: 'a straight', cards: []};
  const result = withResult
    ? {pots: [{amount: 240}], shows: {}, mucks: [], noLow: [], uncalled: [], awards: [award]}
    : null;
  const settings = {name: 'Phone', game: 'stud', seats: 8};
  renderFelt(document.getElementById('phone-felt'), {settings, seats, hand, you: 0, button: 0,
    turn: null, result, live: false, boards: {}});
})"""
OVERLAPS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const felt = box(document.getElementById('phone-felt'));
  const out = {offFelt: [], hiddenBets: [], buttonOverCards: [], coveredResults: []};
  for (const card of document.querySelectorAll('#phone-felt .cw')) {
    const r = box(card);
    const name = card.querySelector('svg').dataset.card;
    if (r.left < felt.left - 1 || r.right > felt.right + 1) out.offFelt.push(name);
  }
  const topAt = (x, y) => document.elementFromPoint(x, y);
  for (const amount of document.querySelectorAll('#phone-felt .bet .amount')) {
    const r = box(amount);
    for (const x of [r.left + 2, r.left + r.width / 2, r.right - 2]) {
      const el = topAt(x, r.top + r.height / 2);
      const bet = amount.closest('.bet');
      if (!el || !bet.contains(el)) out.hiddenBets.push(bet.dataset.seat);
    }
  }
  const button = document.querySelector('#phone-felt .dealer-btn');
  if (button) {
    const b = box(button);
    for (const card of document.querySelectorAll('#phone-felt .cw')) {
      const r = box(card);
      const over = b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top;
      if (over) out.buttonOverCards.push(card.querySelector('svg').dataset.card);
    }
  }
  const results = document.querySelector('#phone-felt .results');
  if (results) {
    const r = box(results);
    const points = [[r.left + 4, r.top + 4], [r.right - 4, r.top + 4], [r.left + 4, r.bottom - 4],
      [r.right - 4, r.bottom - 4], [r.left + r.width / 2, r.top + r.height / 2]];
    for (const [x, y] of points) {
      const el = topAt(x, y);
      const what = el?.className?.baseVal ?? el?.className;
      if (!el || !results.contains(el)) out.coveredResults.push([x, y, what]);
    }
  }
  return out;
}"""


def test_phone_layout_keeps_bets_showdown_and_button_clear(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    """Bug 5 at 390x844: every bet readable, the showdown on top, the button off the cards."""
    phone = Tab(browser, server.base)
    try:
        phone.page.set_viewport_size({"width": 390, "height": 844})
        phone.open()
        phone.js(PHONE_PICTURE, [PHONE_SEATS, PHONE_CARDS, False])
        problems = phone.js(OVERLAPS)
        shot(phone, tmp_path / "phone-seven-cards.png")
        assert not problems["offFelt"], problems
        assert not problems["hiddenBets"], problems
        assert not problems["buttonOverCards"], problems
        phone.js(PHONE_PICTURE, [PHONE_SEATS, PHONE_CARDS, True])
        problems = phone.js(OVERLAPS)
        assert not problems["coveredResults"], problems
        assert phone.js("() => document.documentElement.scrollWidth") <= 390
        assert not phone.errors, phone.errors
    finally:
        phone.close()


def test_motion_respects_reduced_motion_and_marks_cards(
    server: ServerProcess, browser: Browser
) -> None:
    """New cards are dealt with a short animation, none with reduced motion; down cards marked."""
    moving = Tab(browser, server.base)
    still = Tab(browser, server.base, reduced_motion="reduce")
    try:
        guest(moving)
        table = new_table(moving, "stud", bots=1, seats=2, name="Motion")
        sit(moving, table)
        still.open(f"#/table/{table}")
        animation = """() => [...document.querySelectorAll('.felt .cw.fresh')]
            .map(c => getComputedStyle(c).animationName)"""
        moving.page.wait_for_function(f"() => ({animation})().length > 0", timeout=TIMEOUT)
        assert set(moving.js(animation)) <= {"deal-in", "deal-in-mine"}
        still.page.wait_for_function(f"() => ({animation})().length > 0", timeout=TIMEOUT)
        assert set(still.js(animation)) == {"none"}
        marker = """() => [...document.querySelectorAll('.seat.me .cw.down.mine')]
            .map(c => getComputedStyle(c, '::after').content)"""
        moving.page.wait_for_function(f"() => ({marker})().length >= 2")
        assert set(moving.js(marker)) == {'"down"'}
        # The time bank shows before it runs: the acting seat's clock, or the seat's badge.
        wait_turn(moving, table)
        assert "bank" in moving.page.inner_text(".seat.me .clock .clock-bank")
        assert not moving.page.query_selector(".seat.me .clock.bank")
        assert not moving.errors and not still.errors, moving.errors + still.errors
    finally:
        moving.close()
        still.close()


PREACTION_RULES = """() => import('/js/preactions.js').then((module) => {
  const { PreActions, situation, options } = module;
  const state = (street, level, myBet, legal = [], number = 7) => ({
    hand_number: number, you: 1, legal,
    turn: legal.length ? {seat: 1, turn: 9} : {seat: 0, turn: 8},
    hand: {street, level, is_over: false, seats: [
      {seat: 0, bet: level, stack: 100, live: true, all_in: false},
      {seat: 1, bet: myBet, stack: 100, live: true, all_in: false}]},
  });
  const out = {};
  const pre = new PreActions();
  // Facing 5 on 4th street: Fold, Call 5, Call any.
  out.facing = options(situation(state(4, 5, 0))).map(o => o.label);
  out.free = options(situation(state(4, 0, 0))).map(o => o.label);
  out.bringIn = situation(state(3, 0, 0));  // the bring-in is not in yet: no boxes
  // Call 5 is cleared when the bet becomes 10.
  pre.set('call', situation(state(4, 5, 0)));
  pre.sync(state(4, 10, 0));
  out.callAfterRaise = pre.choice;
  // Call any survives the raise and calls when the turn comes.
  pre.set('callany', situation(state(4, 5, 0)));
  pre.sync(state(4, 10, 0));
  out.callAny = pre.take([{action: 'fold', to: 0}, {action: 'call', to: 10}]);
  out.spent = pre.choice;
  // Fold checks instead when checking turns out to be free; Check/Fold folds facing a bet.
  pre.set('fold', situation(state(5, 5, 0)));
  out.foldWhenFree = pre.take([{action: 'fold', to: 0}, {action: 'check', to: 0}]);
  pre.set('checkfold', situation(state(5, 0, 0)));
  pre.sync(state(5, 10, 0));
  out.checkFold = pre.take([{action: 'fold', to: 0}, {action: 'call', to: 10}]);
  // Every box is cleared at a new street and a new hand.
  pre.set('callany', situation(state(5, 0, 0)));
  pre.sync(state(6, 0, 0));
  out.newStreet = pre.choice;
  pre.set('callany', situation(state(6, 0, 0)));
  pre.sync(state(3, 2, 0, [], 8));
  out.newHand = pre.choice;
  return out;
})"""


def test_preaction_rules(server: ServerProcess, browser: Browser) -> None:
    """The boxes offered, and when each is cleared or taken (preactions.js, in the page)."""
    page = Tab(browser, server.base)
    try:
        page.open()
        out = page.js(PREACTION_RULES)
        assert out["facing"] == ["Fold", "Call 5", "Call any"], out
        assert out["free"] == ["Check/Fold", "Check", "Call any"], out
        assert out["bringIn"] is None
        assert out["callAfterRaise"] is None  # Call 5 is not Call 10
        assert out["callAny"] == {"action": "call", "to": 10} and out["spent"] is None
        assert out["foldWhenFree"] == {"action": "check", "to": 0}
        assert out["checkFold"] == {"action": "fold", "to": 0}
        assert out["newStreet"] is None and out["newHand"] is None
        assert not page.errors, page.errors
    finally:
        page.close()
