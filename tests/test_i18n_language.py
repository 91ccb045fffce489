"""The language an account chose (``GET``/``PUT /api/me/language``), against a real server,
and the column that holds it added to a database made before it (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from stud.server.http.language import languages
from stud.server.storage import Database
from stud.server.storage.accounts import account_language, set_account_language
from stud.testing.server import (
    TEST_URL_VARIABLE,
    ServerProcess,
    fresh_database,
    postgres_admin_url,
    sqlite_server,
)

ARGS = ("--no-default-tables", "--turn-seconds", "20", "--time-bank", "5")
TIMEOUT = 60.0  # seconds a request may take on a loaded machine (a safety net, not a measure)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("language-server"), ARGS) as proc:
        yield proc


def call(
    server: ServerProcess, method: str, cookie: str | None, body: Any = None
) -> httpx.Response:
    """A request to the endpoint; a ``str`` body is sent as it is (JSON no encoder would write)."""
    cookies = {"stud_session": cookie} if cookie else {}
    url = server.base + "/api/me/language"
    if isinstance(body, str):
        headers = {"Content-Type": "application/json"}
        return httpx.request(
            method, url, content=body, headers=headers, cookies=cookies, timeout=TIMEOUT
        )
    return httpx.request(method, url, json=body, cookies=cookies, timeout=TIMEOUT)


def register(server: ServerProcess, name: str) -> str:
    response = httpx.post(
        server.base + "/api/register",
        json={"name": name, "password": "secret-pass"},
        timeout=TIMEOUT,
    )
    assert response.status_code == 200, response.text
    return str(response.cookies["stud_session"])


def login(server: ServerProcess, name: str) -> str:
    response = httpx.post(
        server.base + "/api/login", json={"name": name, "password": "secret-pass"}, timeout=TIMEOUT
    )
    assert response.status_code == 200, response.text
    return str(response.cookies["stud_session"])


def guest(server: ServerProcess) -> str:
    """A guest's session (no password to hash: cheap on a loaded machine)."""
    response = httpx.post(server.base + "/api/guest", timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    return str(response.cookies["stud_session"])


def test_the_languages_are_the_catalogs() -> None:
    assert languages() == {"en", "zh-Hant", "zh-Hans"}


def test_nobody_logged_in_has_no_language_to_read_or_set(server: ServerProcess) -> None:
    assert call(server, "GET", None).status_code == 401
    assert call(server, "PUT", None, {"language": "zh-Hant"}).status_code == 401
    assert call(server, "PUT", "not-a-session", {"language": "zh-Hant"}).status_code == 401


def test_a_choice_follows_the_account_to_a_new_session(server: ServerProcess) -> None:
    first = register(server, "lingua")
    assert call(server, "GET", first).json() == {"language": None}
    answer = call(server, "PUT", first, {"language": "zh-Hant"})
    assert answer.status_code == 200 and answer.json() == {"language": "zh-Hant"}
    # Another browser: a new session of the same account reads it.
    second = login(server, "lingua")
    assert second != first
    assert call(server, "GET", second).json() == {"language": "zh-Hant"}
    assert call(server, "PUT", second, {"language": "zh-Hans"}).json() == {"language": "zh-Hans"}
    assert call(server, "GET", first).json() == {"language": "zh-Hans"}
    # Another account is untouched.
    other = register(server, "other-one")
    assert call(server, "GET", other).json() == {"language": None}


def test_a_guest_has_a_language_too(server: ServerProcess) -> None:
    cookie = guest(server)
    assert call(server, "PUT", cookie, {"language": "en"}).json() == {"language": "en"}
    assert call(server, "GET", cookie).json() == {"language": "en"}


@pytest.mark.parametrize(
    "body",
    [
        {"language": "fr"},
        {"language": "zh-hant"},  # tags are matched exactly, as the client sends them
        {"language": ""},
        {"language": "zh-Hant<script>"},
        {"language": "x" * 400},
        '{"language": "\\ud800"}',  # a lone surrogate
        '{"language": ',
        {"language": 7},
        {"language": None},
        {},
        ["zh-Hant"],
    ],
)
def test_a_bad_language_is_refused_and_changes_nothing(server: ServerProcess, body: Any) -> None:
    cookie = guest(server)
    assert call(server, "PUT", cookie, {"language": "zh-Hans"}).status_code == 200
    answer = call(server, "PUT", cookie, body)
    assert answer.status_code == 422, answer.text
    assert "detail" in answer.json()
    assert call(server, "GET", cookie).json() == {"language": "zh-Hans"}


def test_an_unknown_language_is_named_in_the_refusal(server: ServerProcess) -> None:
    cookie = register(server, "namer")
    answer = call(server, "PUT", cookie, {"language": "fr"})
    assert "fr" in answer.json()["detail"] and "zh-Hant" in answer.json()["detail"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_database_made_before_the_column_gets_it(backend: str, tmp_path: Path) -> None:
    if backend == "postgres" and postgres_admin_url() is None:
        if os.environ.get("CI"):
            pytest.fail(f"{TEST_URL_VARIABLE} must be set in CI (.ci/run starts PostgreSQL)")
        pytest.skip(f"PostgreSQL variant not run: {TEST_URL_VARIABLE} is not set")
    with fresh_database(backend, tmp_path) as url:
        db = Database(url)
        try:
            db.create_schema()
            store = db.store
            account = db.write_sync(lambda c: store.create_account(c, "old-timer", "user"))
            # The database as it was before accounts had a language.
            db.write_sync(lambda c: c.execute(text("ALTER TABLE accounts DROP COLUMN language")))
            db.create_schema()
            assert db.read_sync(lambda c: account_language(c, account.id)) is None
            db.write_sync(lambda c: set_account_language(c, account.id, "zh-Hant"))
            assert db.read_sync(lambda c: account_language(c, account.id)) == "zh-Hant"
            assert db.read_sync(lambda c: store.account(c, account.id)) == account
        finally:
            db.close()


def test_a_page_of_another_site_cannot_set_the_language(server: ServerProcess) -> None:
    """The room's Origin check (stud.server.http.origin) guards this state-changing request too."""
    cookie = register(server, "origin-check")
    assert call(server, "PUT", cookie, {"language": "zh-Hant"}).status_code == 200
    answer = httpx.put(
        server.base + "/api/me/language",
        json={"language": "en"},
        cookies={"stud_session": cookie},
        headers={"Origin": "https://evil.example"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 403, answer.text
    assert call(server, "GET", cookie).json() == {"language": "zh-Hant"}
    same_site = httpx.put(
        server.base + "/api/me/language",
        json={"language": "en"},
        cookies={"stud_session": cookie},
        headers={"Origin": server.base},
        timeout=TIMEOUT,
    )
    assert same_site.status_code == 200 and same_site.json() == {"language": "en"}
