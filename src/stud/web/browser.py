"""Debian's Chromium, headless, for the browser tests (Playwright's own download is never used)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

CHROMIUM = os.environ.get("STUD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the length of the block; RuntimeError when it is not installed."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            yield browser
        finally:
            browser.close()


def watched_page(
    browser: Browser, timeout: float, **options: object
) -> tuple[BrowserContext, Page, list[str]]:
    """A new context and page (``options`` for the context) with ``timeout`` (ms) as its
    default, and the list its uncaught script errors and Content-Security-Policy violations
    are collected in, for the test to check (the room's pages run under its policy)."""
    context = browser.new_context(**options)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(timeout)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: _note_policy_violation(message, errors))
    return context, page, errors


def _note_policy_violation(message: ConsoleMessage, errors: list[str]) -> None:
    """Chromium reports a load or script the page's policy refused as a console error."""
    if CSP_VIOLATION in message.text:
        errors.append(f"CSP violation: {message.text}")


CSP_VIOLATION = "Content Security Policy"
"""What Chromium's console message says of every refusal by a page's policy."""


def serious_problems(page: Page) -> list[str]:
    """axe-core's serious and critical accessibility violations on the page, each with its
    help text and where it was found; [] when there are none."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
