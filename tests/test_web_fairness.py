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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright import sync_api as playwright_sync
from playwright.sync_api import Browser, Page, Route

from stud.fairness import commitment_of, deck_order, new_server_seed
from stud.history import read_phh
from stud.history.verify import verify
from stud.testing.server import Client, ServerProcess, fresh_database

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("web-fair")
    with (
        fresh_database("sqlite", folder) as url,
        ServerProcess(url, folder, extra_args=ARGS) as proc,
    ):
        yield proc


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    guest = Client.guest(server.base)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_cookies([{"name": "stud_session", "value": guest.cookie or "", "url": server.base}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/#/lobby")
    page.wait_for_selector("#view > section")
    yield page
    context.close()
    assert errors == []


def test_the_browser_deals_the_same_decks_as_python(page: Page) -> None:
    rng = random.Random(13)
    cases: list[dict[str, Any]] = []
    for i in range(24):
        seeds = [rng.choice(["", f"{rng.getrandbits(256):064x}", f"{rng.getrandbits(8):x}"])
                 for _ in range(rng.randint(2, 8))]  # fmt: skip
        cases.append({"server": new_server_seed(i), "seeds": seeds, "hand": f"{i}-{i * 7}"})
    got = page.evaluate(
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
    page: Page, server: ServerProcess, tmp_path: Path
) -> None:
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "stud_session")
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "fair-web", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 3, "bots": 2},
        cookies={"stud_session": cookie}, timeout=10,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    table = int(response.json()["id"])
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(p))))
    page.goto(f"{server.base}/#/table/{table}")
    page.reload()  # a new socket, whose frames the handler above sees
    page.wait_for_function("t => window.studApp?.models.get(t)?.state", arg=table)
    page.evaluate("t => window.studApp.socket.send({type: 'sit', table: t, buy_in: 300})", table)
    page.wait_for_function("t => window.studApp.models.get(t)?.seated", arg=table)
    page.evaluate(AUTOPLAY, table)
    page.wait_for_function(
        "t => window.studApp.models.get(t).finished.length >= 2", arg=table, timeout=120_000
    )
    page.evaluate("() => clearInterval(window.__autoplay)")
    seeds = {m["commitment"]: m["seed"] for m in sent if m.get("type") == "seed"}
    assert seeds, "the page sent no seed"
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds.values())
    hands = page.evaluate("t => window.studApp.models.get(t).finished", table)
    ours = 0
    for hand in hands:
        record = httpx.get(f"{server.base}/api/hands/{hand['hand_id']}", timeout=10).json()
        shuffle = record["summary"]["shuffle"]
        # A seed that reached the table after its deal (a slow machine) is in no hand.
        ours += seeds.get(shuffle["commitment"]) in shuffle["player_seeds"]
    assert ours >= 1
    hand_id = hands[0]["hand_id"]
    # The browser's check and stud.history.verify see the same cards of the same places.
    checked = page.evaluate(
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
    page.goto(f"{server.base}/#/replay/{hand_id}")
    verdict = page.wait_for_selector(".fairness [data-verified]")
    assert verdict is not None and verdict.get_attribute("data-verified") == "yes"
    assert "Verified in this browser" in verdict.text_content()  # type: ignore[operator]
    panel = page.text_content(".fairness") or ""
    shuffle = httpx.get(f"{server.base}/api/hands/{hand_id}", timeout=10).json()["summary"][
        "shuffle"
    ]
    assert shuffle["commitment"] in panel and shuffle["server_seed"] in panel
    page.click(".fairness details.fair-howto summary")
    assert f"printf %s {shuffle['server_seed']} | xxd -r -p | sha256sum" in (
        page.text_content(".fairness .fair-howto") or ""
    )
    assert f"stud verify hand-{hand_id}.phh" in (page.text_content(".fairness") or "")
    page.screenshot(path=str(tmp_path / "replay-fairness.png"), full_page=True)

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

        page.unroute("**/api/hands/*/replay")
        page.route(f"**/api/hands/{hand_id}/replay", handle)
        page.goto(f"{server.base}/#/lobby")
        page.goto(f"{server.base}/#/replay/{hand_id}")
        bad = page.wait_for_selector(".fairness [data-verified='no']")
        assert bad is not None
        text = bad.text_content() or ""
        if change == "card":
            assert "door card" in text and "the seeds deal" in text
        else:
            assert "does not match the commitment" in text

    tamper("card")
    tamper("seed")
