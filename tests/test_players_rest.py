"""Notes and stats over REST against a real server (issue 38, docs/rest.md "Players").

Two people and two bots play real hands; their stats follow the hands as they end, each
player's own net agrees with the chip ledger, another player's count only the hands the
viewer was dealt into, and an account dealt into none sees nothing. A note is its
writer's alone: no endpoint shows it to anyone else, hostile text is kept as text, bad
input is refused with a code and changes nothing, and a page of another site can
neither write one nor read one.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from stud.testing.server import Client, ServerProcess, ServerSpec
from stud.testing.wait import read_until
from test_server_play import PLAY, Hands, hand_factory_args, make_table, play

SERVER = ServerSpec(PLAY + hand_factory_args(), clean_log=True)
FOREIGN = {"Origin": "http://evil.example"}


def api(server: ServerProcess, client: Client | None = None) -> httpx.Client:
    cookies = {"stud_session": client.cookie or ""} if client is not None else None
    return httpx.Client(base_url=server.base, cookies=cookies, timeout=30)


def play_hands(server: ServerProcess, alice: Client, bob: Client, goal: int) -> None:
    table = make_table(server, alice, "stud", bots=2, seats=4)

    async def run() -> None:
        for client in (alice, bob):
            await client.connect()
        await alice.send({"type": "sit", "table": table, "buy_in": 200, "id": "a"})
        assert (await alice.until(lambda m: m.get("id") == "a"))["type"] == "ok"
        await bob.send({"type": "sit", "table": table, "buy_in": 200, "id": "b"})
        assert (await bob.until(lambda m: m.get("id") == "b"))["type"] == "ok"
        hands = Hands(players=2, goal=goal)
        rng = random.Random(38)
        await asyncio.wait_for(
            asyncio.gather(play(alice, table, rng, hands, 0), play(bob, table, rng, hands, 1)),
            600,  # only bounds a hang
        )
        for client in (alice, bob):
            await client.close()

    asyncio.run(run())


def until(read: Any, ok: Any, seconds: float = 30.0) -> Any:
    """``read()`` once ``ok(value)`` holds, within ``seconds`` (the facts are stored after
    each hand, in the background)."""
    return read_until(read, ok, "the stats", seconds)


def finished_hands(session: httpx.Client) -> dict[int, int]:
    """The caller's finished hands: {hand id: net chips}, from the ledger."""
    rows = session.get("/api/me/hands").json()
    return {r["id"]: r["net"] for r in rows if r["status"] == "finished"}


def test_stats_follow_the_hands_and_show_only_shared_ones(server: ServerProcess) -> None:
    alice, bob = Client.guest(server.base), Client.guest(server.base)
    play_hands(server, alice, bob, goal=3)
    a, b = api(server, alice), api(server, bob)
    alice_id, bob_id = alice.account["id"], bob.account["id"]  # type: ignore[index]
    mine = finished_hands(a)
    together = set(mine) & set(finished_hands(b))
    assert together and len(mine) > len(together) - 1

    own = until(lambda: a.get(f"/api/players/{alice_id}/stats").json(),
                lambda s: s["hands"] == len(mine))  # fmt: skip
    assert own["own"] is True and own["hands"] == len(mine)
    # The facts' chips agree with the ledger's, hand by hand summed.
    assert own["results"]["net"] == sum(mine.values())
    assert own["results"]["by_game"] == [
        {"game": "stud", "unit": "chips", "hands": len(mine), "net": sum(mine.values())}
    ]
    assert sum(s["hands"] for s in own["results"]["by_session"]) == len(mine)
    assert 0 <= own["vpip"] <= own["hands"] and own["saw4"] >= own["showdown"]

    seen = until(lambda: a.get(f"/api/players/{bob_id}/stats").json(),
                 lambda s: s["hands"] == len(together))  # fmt: skip
    assert seen["hands"] == len(together) and seen["own"] is False
    assert "results" not in seen  # another's chips by session are not served
    assert set(seen["rates"]) == {"vpip", "raised", "steal", "fold_to_4th_bet",
                                  "went_to_showdown", "won_at_showdown"}  # fmt: skip

    # An account dealt into none of these hands sees nothing of either player.
    carol = Client.guest(server.base)
    c = api(server, carol)
    for target in (alice_id, bob_id):
        body = c.get(f"/api/players/{target}/stats").json()
        assert body["hands"] == 0 and all(v is None for v in body["rates"].values()), body
        assert "results" not in body

    # Refusals: no session, no such player.
    anonymous = api(server)
    assert anonymous.get(f"/api/players/{bob_id}/stats").json()["code"] == "login_required"
    assert a.get("/api/players/999999/stats").json()["code"] == "no_player"
    # A page of another site cannot read them: the answer allows no other origin.
    foreign = a.get(f"/api/players/{bob_id}/stats", headers=FOREIGN)
    assert "access-control-allow-origin" not in foreign.headers


def test_notes_are_private_and_hostile_text_stays_text(server: ServerProcess) -> None:
    alice, bob = Client.guest(server.base), Client.guest(server.base)
    a, b = api(server, alice), api(server, bob)
    bob_id, alice_id = bob.account["id"], alice.account["id"]  # type: ignore[index]
    hostile = "<img src=x onerror=alert(1)>\u202e\u0000 calls\r\ndown light"
    saved = a.put(f"/api/players/{bob_id}/note", json={"text": hostile, "color": "red"})
    assert saved.status_code == 200, saved.text
    kept = "<img src=x onerror=alert(1)> calls\ndown light"  # bidi and NUL dropped, lines kept
    assert saved.json() == {"account_id": bob_id, "text": kept, "color": "red"}
    assert a.get(f"/api/players/{bob_id}/note").json()["text"] == kept
    assert a.get("/api/me/notes").json() == [
        {"account_id": bob_id, "name": bob.account["name"], "text": kept, "color": "red"}  # type: ignore[index]
    ]
    # Nobody else sees it: not bob on himself, not bob's own list, not a third account.
    assert b.get(f"/api/players/{bob_id}/note").json() == {
        "account_id": bob_id,
        "text": "",
        "color": "",
    }
    assert b.get("/api/me/notes").json() == []
    carol = api(server, Client.guest(server.base))
    assert carol.get(f"/api/players/{bob_id}/note").json()["text"] == ""
    assert carol.get("/api/me/notes").json() == []

    # Bad input is refused with its code and changes nothing.
    note = f"/api/players/{bob_id}/note"
    refusals = [
        (a.put(note, json={"text": "x" * 501, "color": ""}), "note_too_long"),
        (a.put(note, json={"text": "x", "color": "pink"}), "unknown_color"),
        (a.put("/api/players/999999/note", json={"text": "x", "color": ""}), "no_player"),
        (a.get("/api/players/999999/note"), "no_player"),
        (api(server).get(f"/api/players/{bob_id}/note"), "login_required"),
        (api(server).put(f"/api/players/{bob_id}/note", json={"text": "x"}), "login_required"),
        (api(server).get("/api/me/notes"), "login_required"),
        (a.put(note, json={"text": "x", "color": ""}, headers=FOREIGN), "cross_site"),
        (a.put(note, content=b'{"text": "\\ud800"}',
               headers={"Content-Type": "application/json"}), "invalid_input"),
    ]  # fmt: skip
    for response, code in refusals:
        assert response.json().get("code") == code, (code, response.status_code, response.text)
    assert a.get(f"/api/players/{bob_id}/note").json()["text"] == kept
    for path in (f"/api/players/{bob_id}/note", "/api/me/notes"):
        foreign = a.get(path, headers=FOREIGN)
        assert "access-control-allow-origin" not in foreign.headers, path

    # Each account's note on the same player is its own; empty text and no colour removes it.
    b.put(f"/api/players/{alice_id}/note", json={"text": "bluffs", "color": "blue"})
    assert a.get("/api/me/notes").json()[0]["text"] == kept
    cleared = a.put(f"/api/players/{bob_id}/note", json={"text": "  ", "color": ""})
    assert cleared.json()["text"] == ""
    assert a.get("/api/me/notes").json() == []
    assert b.get("/api/me/notes").json()[0]["text"] == "bluffs"
