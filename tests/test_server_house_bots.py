"""``stud serve --house-bots KIND``: the house's bots are of that kind at the default tables;
a table made with a kind of its own keeps it; an unknown kind is refused before the room
opens."""

from __future__ import annotations

import subprocess
import sys

import httpx

from stud.testing.server import Client, ServerProcess, ServerSpec, hand_factory_args

SERVER = ServerSpec(
    ("--no-default-tournaments", "--bot-delay", "0.2", "0.4", "--seed", "5",
     *hand_factory_args("tests.test_table_double:start_double")),
    house_bots="nit",
)  # fmt: skip


def test_the_default_tables_seat_the_house_bots_and_a_table_keeps_its_own(
    server: ServerProcess,
) -> None:
    listed = httpx.get(server.base + "/api/tables", timeout=10).json()
    assert len(listed) == 6 and {t["bot_kind"] for t in listed} == {"nit"}
    guest = Client.guest(server.base)
    spec = {"name": "Own", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 5,
            "big_bet": 10, "seats": 6, "bots": 2, "bot_kind": "station"}  # fmt: skip
    cookies = {"stud_session": guest.cookie or ""}
    response = httpx.post(server.base + "/api/tables", json=spec, cookies=cookies, timeout=10)
    assert response.status_code == 201, response.text
    tables = {t["id"]: t for t in httpx.get(server.base + "/api/tables", timeout=10).json()}
    assert tables[response.json()["id"]]["bot_kind"] == "station"


def test_an_unknown_house_bot_is_refused_before_the_room_opens() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "stud", "serve", "--house-bots", "psychic", "--port", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "unknown bot 'psychic'" in done.stderr
