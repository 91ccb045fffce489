"""The table fits the screen (issue 36): an 8-seat Stud table at 1366×768 and 1280×720 shows
the whole felt and the action bar without scrolling, two tiles fit 1366×768 and four fit
1920×1080, and a phone (390×844) shows its own cards, the action bar and the pot; no seat's
cards, name plate, bet, the results or the action bar overlap another's, in English and in
繁體中文, with names of the longest length (20 Han characters).

The pictures are drawn from a table state the test builds (every seat busy on 7th street
with a bet out, then a showdown of all eight), given to the page's table model as the
server would send it: the layout, not the play, is what is checked. Screenshots go to the
test's tmp dir, and to docs/ with STUD_WEB_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from stud.cards import parse_cards
from stud.evaluate import evaluate_high
from stud.testing.server import ServerProcess, ServerSpec
from stud.testing.web import settle
from stud.web.browser import watched_page
from table_pages import open_table

DOCS = Path(__file__).resolve().parent.parent / "docs"
DATA = Path(__file__).resolve().parent / "data"
SERVER = ServerSpec(("--no-default-tables",))
TIMEOUT = 30_000
SEATS = 8
YOU = 0
# Twenty Han characters each (the longest name the room takes), all different.
NAMES = [
    "諸葛孔明司馬仲達周公瑾魯子敬陸伯言呂子明",
    "東方不敗令狐沖任盈盈岳不群林平之向問天風",
    "歐陽鋒黃藥師洪七公段智興王重陽周伯通郭靖",
    "上官婉兒長孫無忌尉遲敬德房玄齡杜如晦魏徵",
    "司徒王允貂蟬呂奉先董仲穎李文優華雄張文遠",
    "慕容復段譽虛竹蕭峰阿朱阿紫王語嫣鍾靈木婉",
    "公孫瓚趙子龍劉玄德關雲長張翼德黃漢升馬孟",
    "西門吹雪陸小鳳花滿樓司空摘星楚留香胡鐵花",
]
# Each seat's six cards (down, down, up x4) and the community card: eight players reach 7th
# street, too few cards are left for one each (the rule book's R12).
HANDS = [
    "Ah Kd 7c 7s Qh 2d",
    "Ks Qs Js Ts 4h 3c",
    "9c 9d 9h 5s 5d 2c",
    "As Ad 8c 8d 6h 4s",
    "Jc Jd Th Td 3h 3s",
    "Qc Qd 6c 6d 2h 2s",
    "Kc Kh 4c 4d 8h 8s",
    "Tc Jh 5c 5h 7d 7h",
]
COMMUNITY = "6s"


def script(name: str) -> str:
    """A function for page.evaluate from tests/data, without its leading comment lines."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))


TILE_PROBLEMS = script("layout_tiles.js")
"""What overlaps or leaves its tile, or a tile the screen (tests/data/layout_tiles.js)."""
PROBLEMS = script("layout_table.js")
"""What overlaps or leaves the screen on a table page (tests/data/layout_table.js)."""


def table_state(you: int | None = YOU, *, hand_number: int = 356) -> dict[str, Any]:
    """The state the server sends a player in seat ``you`` on 7th street, its turn: every
    seat still in the hand with a bet out (the most there is to draw)."""
    bets = [20, 20, 40, 40, 40, 40, 40, 0]
    seats = [
        {
            "seat": s, "id": 100 + s, "name": NAMES[s], "stack": 12_345 - 10 * s, "bot": False,
            "sitting_out": False, "leaving": False, "in_hand": True, "time_bank": 30.0,
        }
        for s in range(SEATS)
    ]  # fmt: skip
    hand_seats = []
    for s in range(SEATS):
        cards = HANDS[s].split()
        hand_seats.append({
            "seat": s, "stack": seats[s]["stack"], "bet": bets[s], "committed": 60 + bets[s],
            "live": True, "all_in": False, "shown": False,
            "down": cards[:2] if s == you else [None, None], "up": cards[2:],
        })  # fmt: skip
    legal = [
        {"action": "fold", "to": 0},
        {"action": "call", "to": 40},
        {"action": "raise", "to": 60},
    ]
    return {
        "settings": {
            "name": "七張梭哈八人桌", "game": "stud", "ante": 5, "bring_in": 10, "small_bet": 20,
            "big_bet": 40, "seats": SEATS, "min_buy_in": 400, "max_buy_in": 40_000,
            "turn_seconds": 20.0, "time_bank": 30.0,
        },
        "hand_number": hand_number, "hand_id": None, "last_hand_id": None, "button": 5, "you": you,
        "seats": seats,
        "hand": {
            "viewer": you, "game": "stud", "street": 7, "to_act": YOU, "level": 2,
            "pot": sum(s["committed"] for s in hand_seats), "seats": hand_seats,
            "community": COMMUNITY, "legal_actions": [], "is_over": False,
        },
        "hand_seats": list(range(SEATS)),
        # The clock's times are set when the page is given the state (give).
        "turn": {"seat": YOU, "turn": 41, "started": 0, "clock_ends": 20, "deadline": 50},
        "legal": legal if you == YOU else [],
        "readout": {"high": "a pair of Sevens", "low": None} if you == YOU else None,
        "boards": {str(s): {"high": "a pair of Sevens", "low": None} for s in range(SEATS)},
        "next_hand_at": None, "shuffle": None, "waiting": [], "mine": None,
    }  # fmt: skip


def showdown_events(hand_number: int = 356) -> list[dict[str, Any]]:
    """The showdown of all eight (each best hand from the evaluator) and its award."""
    community = parse_cards(COMMUNITY)
    values = []
    results: list[dict[str, Any]] = [{"type": "showdown", "seats": list(range(SEATS))}]
    for s in range(SEATS):
        best = evaluate_high([*parse_cards(HANDS[s]), *community])
        values.append(best.value)
        results.append(
            {
                "type": "show",
                "seat": s,
                "cards": HANDS[s].split(),
                "high": best.description,
                "low": None,
            }
        )
    winner = max(range(SEATS), key=lambda s: values[s])
    best = evaluate_high([*parse_cards(HANDS[winner]), *community])
    pot = SEATS * 60 + 260
    results.append({
        "type": "award", "pot": 0, "seat": winner, "amount": pot, "share": "all",
        "hand": best.description, "cards": [str(c) for c in best.cards],
    })  # fmt: skip
    finished = {
        "type": "hand_finished", "number": hand_number, "hand_id": None,
        "stacks": {str(s): 12_345 - 10 * s + (pot if s == winner else 0) for s in range(SEATS)},
        "summary": {"results": results},
    }  # fmt: skip
    return [finished]


def open_empty_table(base: str) -> int:
    """An 8-seat Stud table no one sits at: the server sends its state once and then nothing,
    so the state the test gives the page stays."""
    return open_table(
        base, "stud", seats=SEATS, bots=0, name="Layout", ante=5, bring_in=10, small_bet=20,
        big_bet=40, min_buy_in=400, max_buy_in=40_000,
    )  # fmt: skip


def give(
    page: Page, table: int, state: dict[str, Any], events: Sequence[dict[str, Any]] = ()
) -> None:
    """Hand the page's model of ``table`` this state (then these events and the state between
    hands, for a showdown) as the socket would; the turn's clock starts now."""
    page.wait_for_function("t => window.studApp?.models?.get(t)?.state", arg=table)
    page.evaluate(
        """([t, state, events]) => {
          const model = window.studApp.models.get(t);
          const now = window.studApp.socket.now();
          if (state.turn) {
            state.turn = { ...state.turn, started: now, clock_ends: now + 20, deadline: now + 50 };
          }
          let n = 1e9;
          model.handle({ type: 'state', table: t, n: ++n, state });
          if (events.length) {
            for (const event of events) model.handle({ type: 'event', table: t, n: ++n, event });
            const between = { ...state, hand: null, turn: null, legal: [], readout: null };
            model.handle({ type: 'state', table: t, n: ++n, state: { ...between, boards: {} } });
          }
        }""",
        [table, state, list(events)],
    )


def show_state(
    page: Page, table: int, state: dict[str, Any], events: Sequence[dict[str, Any]] = ()
) -> None:
    """:func:`give` the page this state (and events), and wait for the felt to draw it."""
    give(page, table, state, events)
    page.wait_for_selector(f".felt .seat[data-seat='{SEATS - 1}'] .plate")
    if events:
        page.wait_for_selector(".felt .results .award")
    else:
        page.wait_for_selector(".action-bar.active .act-btn")
    settle(page)


def problems(page: Page) -> list[str]:
    found = page.evaluate(PROBLEMS)
    assert found["count"] >= 3 * SEATS, found  # the seats were measured
    return list(found["problems"])


def picture(page: Page, path: Path, docs_name: str | None) -> None:
    page.screenshot(path=str(path))
    if docs_name and os.environ.get("STUD_WEB_SCREENSHOTS") == "1":
        shutil.copyfile(path, DOCS / docs_name)


@pytest.fixture(scope="module")
def room(shared_server: Callable[[ServerSpec], ServerProcess]) -> ServerProcess:
    return shared_server(SERVER)


@pytest.fixture(scope="module")
def tables(room: ServerProcess) -> list[int]:
    """Four empty 8-seat tables, shared by the module's tests."""
    return [open_empty_table(room.base) for _ in range(4)]


SIZES = [(1366, 768), (1280, 720), (390, 844)]


@pytest.mark.parametrize("lang", ["zh-Hant", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_eight_seat_table_fits_the_screen(
    room: ServerProcess,
    browser: Browser,
    tables: list[int],
    tmp_path: Path,
    size: tuple[int, int],
    lang: str,
) -> None:
    width, height = size
    phone = width < 600
    context, page, errors = watched_page(
        browser, TIMEOUT, viewport={"width": width, "height": height},
        **({"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}),
    )  # fmt: skip
    try:
        table = tables[0]
        page.goto(f"{room.base}/?lang={lang}#/table/{table}")
        show_state(page, table, table_state())
        where = f"{width}x{height} {lang}"
        assert problems(page) == [], where
        assert page.evaluate("scrollY") == 0
        if phone:
            # Your own cards, the action bar and the pot, on the screen together.
            for part in (".seat.me .hand-cards", ".action-bar", ".felt .pot"):
                box = page.locator(part).bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (part, box)
        docs = {
            (1366, 768, "zh-Hant"): "screenshot-table-1366.png",
            (390, 844, "zh-Hant"): "screenshot-phone.png",
        }
        picture(page, tmp_path / f"turn-{width}-{lang}.png", docs.get((width, height, lang)))

        show_state(page, table, table_state(), showdown_events())
        assert page.locator(".felt .seat .tag.hand-desc").count() == SEATS
        assert problems(page) == [], f"showdown {where}"
        picture(page, tmp_path / f"showdown-{width}-{lang}.png", None)
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("size", "count"), [((1366, 768), 2), ((1920, 1080), 4)], ids=["2@1366x768", "4@1920x1080"]
)
def test_tiles_fit_the_screen(
    room: ServerProcess,
    browser: Browser,
    tables: list[int],
    tmp_path: Path,
    size: tuple[int, int],
    count: int,
) -> None:
    width, height = size
    context, page, errors = watched_page(
        browser, TIMEOUT, viewport={"width": width, "height": height}
    )
    try:
        ids = tables[:count]
        page.goto(f"{room.base}/?lang=zh-Hant#/tables/{','.join(map(str, ids))}")
        for table in ids:
            page.wait_for_function("t => window.studApp?.models?.get(t)?.state", arg=table)
        for i, table in enumerate(ids):
            state = table_state()
            state["settings"]["name"] = f"{state['settings']['name']} {i + 1}"
            give(page, table, state)
        page.wait_for_function(
            f"document.querySelectorAll('.tile .felt .seat .plate').length === {count * SEATS}"
        )
        settle(page)
        found = page.evaluate(TILE_PROBLEMS)
        assert found == [], f"{count} tiles at {width}x{height}"
        assert page.evaluate("scrollY") == 0
        picture(
            page, tmp_path / f"tiles-{count}.png", "screenshot-tiles.png" if count == 4 else None
        )
        assert errors == []
    finally:
        context.close()
