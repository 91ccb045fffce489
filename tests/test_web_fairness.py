"""The fair shuffle in a real Chromium against a real server (the real engine, no stacked deck).

The browser's own copy of the recipe (``js/fairness.js``) deals the same decks as
``stud.fairness``; the page adds its own seed to each hand it is dealt into; the
replayer shows a finished hand verified, with how to check it by hand, and shows
a tampered hand failing, naming what differs.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route

from stud.fairness import commitment_of, deck_order, new_server_seed
from stud.history import read_phh
from stud.history.verify import verify
from stud.testing.server import Client, ServerProcess, ServerSpec

ARGS = (
    "--turn-seconds", "40", "--time-bank", "20", "--pause", "1.5", "--grace", "60",
    "--bot-delay", "0.05", "0.1", "--no-default-tables", "--bots", "station",
)  # fmt: skip
TIMEOUT = 60_000
# Plays for the page through its own socket: check, call or bring in whenever it is its turn.
AUTOPLAY = """t => {
  window.__autoplay = setInterval(() => {
    const s = window.studApp.models.get(t)?.state;
    const turn = s?.turn;
    if (!turn || turn.seat !== s.you || !s.legal.length || window.__acted === turn.turn) return;
    window.__acted = turn.turn;
    const a = s.legal.find((x) => ['check', 'call', 'bring-in'].includes(x.action)) ?? s.legal[0];
    const act = {type: 'act', table: t, action: a.action, to: a.to, turn: turn.turn};
    window.studApp.socket.send(act);
  }, 100);
}"""


SERVER = ServerSpec(ARGS)


@pytest.fixture
def lobby(pages: Callable[..., Page], server: ServerProcess) -> Page:
    """A guest's page at the lobby."""
    guest = Client.guest(server.base)
    page = pages(TIMEOUT, viewport={"width": 1400, "height": 1000})
    page.context.add_cookies(
        [{"name": "stud_session", "value": guest.cookie or "", "url": server.base}]
    )
    page.goto(f"{server.base}/#/lobby")
    page.wait_for_selector("#view > section")
    return page


def test_the_browser_deals_the_same_decks_as_python(lobby: Page) -> None:
    rng = random.Random(13)
    cases: list[dict[str, Any]] = []
    for i in range(24):
        seeds = [rng.choice(["", f"{rng.getrandbits(256):064x}", f"{rng.getrandbits(8):x}"])
                 for _ in range(rng.randint(2, 8))]  # fmt: skip
        cases.append({"server": new_server_seed(i), "seeds": seeds, "hand": f"{i}-{i * 7}"})
    got = lobby.evaluate(
        """async (cases) => {
          const f = await import('/js/fairness.js');
          const out = [];
          for (const c of cases) {
            out.push({deck: await f.deckOrder(c.server, c.seeds, c.hand),
                      commitment: await f.commitmentOf(c.server)});
          }
          return out;
        }""",
        cases,
    )
    for case, result in zip(cases, got, strict=True):
        assert result["deck"] == deck_order(case["server"], case["seeds"], case["hand"])
        assert result["commitment"] == commitment_of(case["server"])


def test_the_page_seeds_its_hands_and_the_replayer_verifies_them(
    lobby: Page, server: ServerProcess, tmp_path: Path
) -> None:
    cookie = next(c["value"] for c in lobby.context.cookies() if c["name"] == "stud_session")
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "fair-web", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 3, "bots": 2},
        cookies={"stud_session": cookie}, timeout=10,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    table = int(response.json()["id"])
    sent: list[dict[str, Any]] = []
    lobby.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(p))))
    lobby.goto(f"{server.base}/#/table/{table}")
    lobby.reload()  # a new socket, whose frames the handler above sees
    lobby.wait_for_function("t => window.studApp?.models.get(t)?.state", arg=table)
    lobby.evaluate("t => window.studApp.socket.send({type: 'sit', table: t, buy_in: 300})", table)
    lobby.wait_for_function("t => window.studApp.models.get(t)?.seated", arg=table)
    lobby.evaluate(AUTOPLAY, table)
    lobby.wait_for_function(
        "t => window.studApp.models.get(t).finished.length >= 2", arg=table, timeout=120_000
    )
    lobby.evaluate("() => clearInterval(window.__autoplay)")
    seeds = {m["commitment"]: m["seed"] for m in sent if m.get("type") == "seed"}
    assert seeds, "the page sent no seed"
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds.values())
    hands = lobby.evaluate("t => window.studApp.models.get(t).finished", table)
    ours = 0
    for hand in hands:
        record = httpx.get(f"{server.base}/api/hands/{hand['hand_id']}", timeout=10).json()
        shuffle = record["summary"]["shuffle"]
        # A seed that reached the table after its deal (a slow machine) is in no hand.
        ours += seeds.get(shuffle["commitment"]) in shuffle["player_seeds"]
    assert ours >= 1
    hand_id = hands[0]["hand_id"]
    # The browser's check and stud.history.verify see the same cards of the same places.
    checked = lobby.evaluate(
        """async (id) => {
          const f = await import('/js/fairness.js');
          const data = await (await fetch(`/api/hands/${id}/replay`)).json();
          const r = await f.verifyHand(data.shuffle, data.events);
          return {ok: r.ok, checked: r.checked, hidden: r.hidden};
        }""",
        hand_id,
    )
    phh = httpx.get(
        f"{server.base}/api/hands/{hand_id}/phh", cookies={"stud_session": cookie}, timeout=10
    ).text
    report = verify(read_phh(phh))
    assert checked == {"ok": True, "checked": report.checked, "hidden": report.hidden}
    lobby.goto(f"{server.base}/#/replay/{hand_id}")
    verdict = lobby.wait_for_selector(".fairness [data-verified]")
    assert verdict is not None and verdict.get_attribute("data-verified") == "yes"
    assert "Verified in this browser" in verdict.text_content()  # type: ignore[operator]
    panel = lobby.text_content(".fairness") or ""
    shuffle = httpx.get(f"{server.base}/api/hands/{hand_id}", timeout=10).json()["summary"][
        "shuffle"
    ]
    assert shuffle["commitment"] in panel and shuffle["server_seed"] in panel
    lobby.click(".fairness details.fair-howto summary")
    assert f"printf %s {shuffle['server_seed']} | xxd -r -p | sha256sum" in (
        lobby.text_content(".fairness .fair-howto") or ""
    )
    assert f"stud verify hand-{hand_id}.phh" in (lobby.text_content(".fairness") or "")
    lobby.screenshot(path=str(tmp_path / "replay-fairness.png"), full_page=True)

    # A replay whose door card was changed, or whose seed was, fails and says what differs.
    def tamper(change: str) -> None:
        def handle(route: Route) -> None:
            data = route.fetch().json()
            if change == "card":
                dealt = next(e for e in data["events"] if e["type"] == "dealt")
                used = {c for e in data["events"] for c in json.dumps(e).split('"') if len(c) == 2}
                dealt["up"] = [next(f"{r}c" for r in "23456789TJQKA" if f"{r}c" not in used)]
            else:
                data["shuffle"]["server_seed"] = new_server_seed(99)
            route.fulfill(json=data)

        lobby.unroute("**/api/hands/*/replay")
        lobby.route(f"**/api/hands/{hand_id}/replay", handle)
        lobby.goto(f"{server.base}/#/lobby")
        lobby.goto(f"{server.base}/#/replay/{hand_id}")
        bad = lobby.wait_for_selector(".fairness [data-verified='no']")
        assert bad is not None
        text = bad.text_content() or ""
        if change == "card":
            assert "door card" in text and "the seeds deal" in text
        else:
            assert "does not match the commitment" in text

    tamper("card")
    tamper("seed")
