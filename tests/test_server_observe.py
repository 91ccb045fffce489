"""What an operator sees of a running room: ``/metrics`` on its own port (never the players'),
its families moving as the room plays, and a JSON log with one line per event that names its
process and table, and no secret: no hole card of a hand still running, no password, no
session token (the log is grepped for them while a hand a player holds cards in runs)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from stud.testing.server import Client, ServerProcess, ServerSpec, free_port
from stud.testing.wait import wait_until

METRICS_PORT = free_port()
SERVER = ServerSpec(
    (
        "--metrics-port", str(METRICS_PORT), "--log-format", "json", "--log-level", "debug",
        "--pause", "0.3", "--bot-delay", "0.05", "0.1", "--bots", "station",
        "--turn-seconds", "60",
    )
)  # fmt: skip
PASSWORD = "tulip-Orbit-4471"
FAMILIES = {
    "stud_hands", "stud_action_seconds", "stud_db_write_seconds", "stud_db_write_failures",
    "stud_redis_round_trips", "stud_redis_failures", "stud_refusals", "stud_login_throttles",
    "stud_clients_connected", "stud_tables_running", "stud_tables_owned", "stud_seated",
    "stud_tournaments_running", "stud_process_role",
}  # fmt: skip


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the metrics port: {(name, labels): value}."""
    text = httpx.get(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=10).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str) -> float:
    return sum(value for (n, _), value in samples.items() if n == name)


def families() -> set[str]:
    text = httpx.get(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=10).text
    return {family.name for family in text_string_to_metric_families(text)}


@pytest.mark.slow
def test_metrics_are_on_their_own_port_and_move(server: ServerProcess) -> None:
    assert httpx.get(server.base + "/metrics", timeout=10).status_code == 404
    assert families() >= FAMILIES
    wait_until(lambda: total(scrape(), "stud_hands_total") >= 3, "hands counted", 120)
    now = scrape()
    assert now[("stud_tables_running", ())] == 6
    assert now[("stud_tables_owned", ())] == 6
    assert now[("stud_seated", (("who", "bot"),))] >= 6 * 3
    assert now[("stud_tournaments_running", ())] == 4
    assert now[("stud_process_role", (("node", ""), ("role", "alone")))] == 1
    assert total(now, "stud_db_write_seconds_count") > 0
    assert now[("stud_refusals_total", (("code", "not_found"),))] >= 1  # the 404 above
    # A name's failed logins: throttled after its burst (5), and counted.
    for _ in range(7):
        httpx.post(
            server.base + "/api/login", json={"name": "nobody", "password": "wrong-1"}, timeout=60
        )
    assert scrape()[("stud_login_throttles_total", ())] >= 1


async def play_one_turn(server: ServerProcess) -> dict[str, Any]:
    """A registered player sits at table 1 and acts once; returns what it saw: its account,
    cookie, and the log as it was while its hand (its hole cards known) still ran."""
    http = httpx.AsyncClient(base_url=server.base, timeout=30)
    answer = await http.post("/api/register", json={"name": "operator-test", "password": PASSWORD})
    answer.raise_for_status()
    cookie = answer.cookies["stud_session"]
    client = Client(server.base, cookie)
    await client.connect()
    await client.send({"type": "no-such-message"})  # refused: counted by its code
    await client.until(lambda m: m["type"] == "error")
    await client.send({"type": "sit", "table": 1, "buy_in": 500})
    mine: list[str] = []
    log_then = ""
    state: dict[str, Any] = {}
    while True:
        message = await client.until(lambda m: m["type"] in ("state", "event"), 120)
        if message["type"] == "state":
            state = message["state"]
            hand = state.get("hand")
            you = state.get("you")
            if hand and you is not None and not mine:
                seat = next((s for s in hand["seats"] if s["seat"] == you), None)
                if seat is not None and len([c for c in seat["down"] if c]) >= 2:
                    mine = [c for c in seat["down"] if c]
                    log_then = server.log_path.read_text(errors="replace")
            turn = state.get("turn")
            if mine and turn and turn["seat"] == you and state["legal"]:
                legal = {a["action"]: a["to"] for a in state["legal"]}
                action = next(a for a in ("check", "call", "bring-in", "fold") if a in legal)
                act = {"type": "act", "table": 1, "action": action, "to": legal[action],
                       "turn": turn["turn"]}  # fmt: skip
                before = total(await asyncio.to_thread(scrape), "stud_action_seconds_count")
                await client.send(act)
                await client.until(lambda m: m["type"] == "event")
                break
    await client.close()
    await http.aclose()
    return {"cookie": cookie, "cards": mine, "log": log_then, "actions_before": before}


def test_an_action_is_timed_and_the_log_keeps_no_secret(server: ServerProcess) -> None:
    seen = asyncio.run(play_one_turn(server))
    wait_until(
        lambda: total(scrape(), "stud_action_seconds_count") > seen["actions_before"],
        "the action timed", 30,
    )  # fmt: skip
    assert scrape()[("stud_refusals_total", (("code", "unknown_type"),))] >= 1
    cards = seen["cards"]
    assert len(cards) >= 2
    # The hole cards, however a line might spell them side by side.
    spellings = {
        sep.join(pair)
        for pair in ((cards[0], cards[1]), (cards[1], cards[0]))
        for sep in ("", " ", ",", ", ", '", "', "','", "', '")
    }
    assert not [s for s in spellings if s in seen["log"]], "a hole card in the log"
    log = server.log_path.read_text(errors="replace")
    assert PASSWORD not in log
    assert seen["cookie"] not in log  # uvicorn's debug lines show headers: the cookie blanked
    assert "cookie: <redacted>" in log
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert lines and all("process" in line and "message" in line for line in lines)
    opened = [line for line in lines if line["message"].startswith("table opened")]
    assert sorted(line["table"] for line in opened) == [1, 2, 3, 4, 5, 6]
    assert any(line["message"].startswith("room started") for line in lines)
