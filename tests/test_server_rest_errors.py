"""Every REST error carries a stable code the browser client words (docs/rest.md).

The server keeps its English ``detail`` for people calling the API by hand and adds
``code`` (and ``params`` when the words need values); the client shows the catalogs'
``error.<code>`` in the page's language. Here each refusal the client can meet is
provoked against a real server and its code checked: the one expected, at the status the
code is documented with, with words in every catalog. The rest is checked from the code:
no endpoint raises a bare HTTPException, every code is documented.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from stud.server.errors import CODES, Refusal
from stud.server.http.errors import RestError, internal_error
from stud.testing.server import ServerProcess, ServerSpec

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "src" / "stud" / "web" / "static" / "i18n"
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
TABLE = {"name": "coded", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}


SERVER = ServerSpec(("--no-default-tables",))


def catalog(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGS / f"{code}.json").read_text(encoding="utf-8"))
    return data


def refused(response: httpx.Response, code: str) -> dict[str, Any]:
    """The refusal's body, checked: its code, the code's status, English words, catalog words."""
    body: dict[str, Any] = response.json()
    assert body.get("code") == code, (response.status_code, body)
    assert response.status_code == CODES[code][0], (code, response.status_code)
    assert body["detail"], body
    for language in LANGUAGES:
        assert f"error.{code}" in catalog(language), f"{language} has no words for {code}"
    return body


class Api:
    def __init__(self, base: str, cookie: str | None = None) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        if cookie:
            self.client.cookies.set("stud_session", cookie)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.client.post(path, json=body, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)


def signed_in(server: ServerProcess, name: str | None = None) -> Api:
    api = Api(server.base)
    if name is None:
        answer = api.post("/api/guest")
    else:
        answer = api.post("/api/register", {"name": name, "password": "secret-pass"})
    assert answer.status_code == 200, answer.text
    return api


def test_accounts_refusals_have_codes(server: ServerProcess) -> None:
    anon = Api(server.base)
    refused(anon.get("/api/me"), "login_required")
    refused(anon.get("/api/me/hands"), "login_required")
    refused(anon.get("/api/me/language"), "login_required")
    # Seven ligatures pass the body's length check; NFKC makes them 21 letters, too long.
    long = refused(
        anon.post("/api/register", {"name": "ﬃ" * 7, "password": "secret"}), "name_length"
    )
    assert long["params"] == {"min": 2, "max": 20}
    short = refused(
        anon.post("/api/register", {"name": "a", "password": "secret"}), "invalid_input"
    )
    assert [e["loc"] for e in short["detail"]] == [["body", "name"]]
    refused(anon.post("/api/register", {"name": "a  b", "password": "secret"}), "name_characters")
    refused(
        anon.post("/api/register", {"name": "ab\u200b", "password": "secret"}), "name_invisible"
    )
    refused(
        anon.post("/api/register", {"name": "p\u0430yp", "password": "secret"}), "name_mixed_script"
    )
    refused(
        anon.post("/api/register", {"name": "Guest-abc", "password": "secret"}), "name_reserved"
    )
    refused(anon.post("/api/register", {"name": "house", "password": "secret"}), "name_reserved")
    lone = anon.post(
        "/api/register",
        content=b'{"name": "fine", "password": "secret\\ud800"}',
        headers={"Content-Type": "application/json"},
    )
    # Invalid Unicode is refused by the body's parser, field named (bad_unicode, behind it,
    # is stud.server.trust.names' own check for text reaching it another way).
    assert [e["loc"] for e in refused(lone, "invalid_input")["detail"]] == [["body", "password"]]
    shapeless = refused(anon.post("/api/register", {"name": "nopassword"}), "invalid_input")
    assert [e["loc"] for e in shapeless["detail"]] == [["body", "password"]]
    for common in ("12345678", "NewBie"):  # the most common passwords, and the name itself
        refused(
            anon.post("/api/register", {"name": "newbie", "password": common}), "common_password"
        )
    user = signed_in(server, "coder")
    refused(anon.post("/api/register", {"name": "CODER", "password": "quiet-river"}), "name_taken")
    refused(anon.post("/api/login", {"name": "coder", "password": "wrong-one"}), "wrong_password")
    refused(
        user.post("/api/register-guest", {"name": "other", "password": "quiet-river"}),
        "not_a_guest",
    )
    guest = signed_in(server)
    refused(
        guest.post("/api/register-guest", {"name": "coder", "password": "quiet-river"}),
        "name_taken",
    )
    refused(user.put("/api/me/language", json={"language": "fr"}), "unknown_language")


def test_table_refusals_have_codes(server: ServerProcess) -> None:
    guest = signed_in(server)
    refused(guest.post("/api/tables", {**TABLE, "game": "holdem"}), "unknown_game")
    refused(guest.post("/api/tables", {**TABLE, "bot_kind": "psychic"}), "unknown_bot_kind")
    refused(guest.post("/api/tables", {**TABLE, "bring_in": 5}), "bad_table_settings")
    refused(guest.post("/api/tables", {**TABLE, "big_bet": 4}), "bad_table_settings")
    refused(guest.post("/api/tables", {**TABLE, "seats": 9}), "bad_table_settings")
    long = refused(guest.post("/api/tables", {**TABLE, "name": "x" * 41}), "table_name_length")
    assert long["params"] == {"max": 40}
    refused(guest.post("/api/tables", {**TABLE, "name": "two\nlines"}), "control_character")
    fields = refused(guest.post("/api/tables", {**TABLE, "seats": "many"}), "invalid_input")
    assert [e["loc"] for e in fields["detail"]] == [["body", "seats"]]
    refused(Api(server.base).post("/api/tables", TABLE), "login_required")
    opened = guest.post("/api/tables", {**TABLE, "bots": 1})
    assert opened.status_code == 201, opened.text
    table = opened.json()["id"]
    refused(guest.post("/api/tables", TABLE), "table_limit")
    other = signed_in(server)
    refused(other.delete(f"/api/tables/{table}"), "not_table_owner")
    refused(other.delete("/api/tables/99999"), "no_table")
    refused(other.get("/api/tables/99999"), "no_table")
    user = signed_in(server, "keeper")
    assert user.post("/api/tables", {**TABLE, "seats": 6, "bots": 5}).status_code == 201
    many = refused(user.post("/api/tables", {**TABLE, "seats": 6, "bots": 4}), "bot_limit")
    assert many["params"] == {"bots": 9, "most": 8}


def test_hand_and_http_refusals_have_codes(server: ServerProcess) -> None:
    anon = Api(server.base)
    for path in ("/api/hands/99999", "/api/hands/99999/phh", "/api/hands/99999/replay"):
        refused(anon.get(path), "no_hand")
    refused(anon.get("/api/no-such-thing"), "not_found")
    refused(anon.delete("/api/me"), "method_not_allowed")
    foreign = anon.post("/api/guest", headers={"Origin": "https://evil.example"})
    refused(foreign, "cross_site")


def test_no_endpoint_answers_without_a_code() -> None:
    """Every refusal of stud.server goes through RestError (or a Refusal turned into one):
    no bare HTTPException, whose answer would carry English only."""
    bare = re.compile(r"\bHTTPException\(")
    offenders = [
        path.name
        for path in (ROOT / "src" / "stud" / "server").rglob("*.py")
        if path.name != "refusal.py" and bare.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_every_code_is_documented_with_its_status() -> None:
    protocol = (ROOT / "docs" / "rest.md").read_text(encoding="utf-8")
    section = protocol.split("## REST errors", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", section, flags=re.M))
    assert {code: int(status) for code, status in rows.items()} == {
        code: status for code, (status, _) in CODES.items()
    }


def test_a_crash_answers_500_with_a_code() -> None:
    """An exception no handler expected: 500 ``internal`` (words the client has), no trace."""
    answer = asyncio.run(internal_error(None, RuntimeError("secret internals")))  # type: ignore[arg-type]
    assert answer.status_code == 500
    assert json.loads(bytes(answer.body)) == {"detail": "internal server error", "code": "internal"}
    assert all("error.internal" in catalog(language) for language in LANGUAGES)


def test_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        RestError("no_such_code", "words")
    with pytest.raises(KeyError):
        Refusal("no_such_code", "words")
    assert RestError.of(Refusal("name_length", "short", {"min": 3})).status_code == 422
