"""The register dialog takes a Chinese name and words a refused one in the page's language
(issue 36): the browser no longer refuses the form itself, so the server's coded refusal
reaches the dialog's error line."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from stud.testing.server import ServerProcess
from table_pages import SERVER as SERVER  # the server the tests use: table_pages' stacked decks
from table_pages import Person

CATALOG = Path(__file__).resolve().parent.parent / "src/stud/web/static/i18n/zh-Hant.json"


def register(person: Person, name: str) -> None:
    page = person.page
    page.click("#account [data-do='register']")
    page.fill("form.credentials input[name='name']", name)
    page.fill("form.credentials input[name='password']", "secret-1")
    page.click("form.credentials button[type='submit']")


def test_the_dialog_words_a_refusal_and_takes_a_han_name(
    server: ServerProcess, browser: Browser
) -> None:
    words = json.loads(CATALOG.read_text("utf-8"))
    person = Person(browser, server.base)
    try:
        person.goto("#/lobby", "zh-Hant")
        page = person.page
        for name, code in (("P\u0430ul", "name_mixed_script"), ("Ann\u200b", "name_invisible")):
            register(person, name)
            page.wait_for_function(
                "w => document.querySelector('form.credentials .form-error')?.textContent === w",
                arg=words[f"error.{code}"],
            )
            page.click("form.credentials button.ghost")  # cancel
            page.wait_for_selector("form.credentials", state="detached")
        register(person, "玩家小明")
        page.wait_for_selector("#account .account-name")
        assert page.inner_text("#account .account-name") == "玩家小明"
        assert person.errors == []
    finally:
        person.close()
