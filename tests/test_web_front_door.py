"""Issue 35 in the browser: the client runs under the room's Content-Security-Policy (every
browser test fails on a violation: stud.web.browser.watched_page), and the account menu
logs out everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Browser

from stud.testing.server import ServerProcess, ServerSpec
from stud.web.browser import watched_page

SERVER = ServerSpec(("--no-default-tables",))
INJECT = """() => {
  const script = document.createElement('script');
  script.textContent = "document.body.dataset.injected = 'ran'";
  document.body.append(script);
}"""
"""What an injected tag would do: run a script written into the page."""


def test_an_inline_script_is_refused_and_the_hook_reports_it(
    server: ServerProcess, browser: Browser
) -> None:
    """What every browser test relies on: a script the policy refuses is a reported error."""
    context, page, errors = watched_page(browser, 30_000)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#account button")
        assert errors == []
        with page.expect_console_message():  # Chromium's report of the refusal
            page.evaluate(INJECT)
        assert page.evaluate("document.body.dataset.injected") is None  # it never ran
        assert any(error.startswith("CSP violation") for error in errors), errors
    finally:
        context.close()


def test_log_out_everywhere_from_the_account_menu(
    server: ServerProcess, pages: Callable[..., Any]
) -> None:
    page = pages()
    credentials = {"name": "everywhere", "password": "two-browsers-4"}
    elsewhere = httpx.Client(base_url=server.base, timeout=30)
    assert elsewhere.post("/api/register", json=credentials).status_code == 200
    assert page.request.post(server.base + "/api/login", data=credentials).ok
    page.goto(server.base + "/#/lobby")
    page.wait_for_selector("#account .account-name")
    page.click("#account [data-do='logout-everywhere']")
    page.wait_for_selector("#account [data-do='login']")
    assert elsewhere.get("/api/me").status_code == 401  # the other browser's session ended too
