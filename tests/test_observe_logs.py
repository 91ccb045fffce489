"""The operator's log lines: their places, plain and JSON, a traceback kept, secrets blanked,
and a burst of refusals said once."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from stud.server.observe import logs
from stud.server.observe.logs import BURST, JsonFormatter, PlainFormatter, at


def record(message: str, *args: object, exc: bool = False, **places: object) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError:
            info = sys.exc_info()
    made = logging.LogRecord("stud.server", logging.ERROR, __file__, 1, message, args, info)
    for key, value in at(**places).items():  # type: ignore[arg-type]
        setattr(made, key, value)
    return made


def test_a_plain_line_names_its_process_and_places() -> None:
    line = PlainFormatter().format(record("table %s closed", 7, table=7, hand=42))
    assert f" {logs.PROCESS} table=7 hand=42 table 7 closed" in line
    assert "tournament=" not in line


def test_a_json_line_is_one_object_with_its_traceback() -> None:
    text = JsonFormatter().format(record("step failed", exc=True, tournament=3))
    assert "\n" not in text
    line = json.loads(text)
    assert line["tournament"] == 3 and "table" not in line
    assert line["process"] == logs.PROCESS and line["level"] == "error"
    assert "ValueError: boom" in line["traceback"]


@pytest.mark.parametrize("formatter", [PlainFormatter(), JsonFormatter()])
def test_cookies_and_credentials_are_blanked(formatter: logging.Formatter) -> None:
    messages = (
        "< cookie: stud_session=abc123secret",
        "> Set-Cookie: x=abc123secret",
        "sent stud_session=abc123secret; Path=/",
        "Authorization: Bearer abc123secret",
    )
    for message in messages:
        assert "abc123secret" not in formatter.format(record(message))


def test_a_burst_of_refusals_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    bursts = logs._Bursts()
    with caplog.at_level(logging.WARNING, "stud.server"):
        for i in range(BURST * 2):
            bursts.count("too_many_logins", 100.0 + i * 0.01)
        bursts.count("too_many_logins", 100.0 + logs.BURST_SECONDS + 1)  # a new window
    lines = [r for r in caplog.records if "refusal burst" in r.getMessage()]
    assert len(lines) == 1 and "too_many_logins" in lines[0].getMessage()
