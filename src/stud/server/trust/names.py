"""What a name may be: account names and table names, checked once at input.

Account names are identities, so two that look alike must be one: a name is
NFKC-normalised (full-width ``ａｌｉｃｅ`` is ``alice``), matched whole (no
trailing newline slips past), unique without regard to case (:func:`name_key`),
and kept to ASCII letters, digits, ``-`` and ``_`` so that no two scripts can
spell look-alikes. Names the room uses itself (``house``, ``Bot 3``,
``Guest-1a2b3c``) are reserved, and the error says so.

Table names are labels, not identities: any printable text, but never a line
break or a control character (a hand history is line-based: a name with a
newline would add lines to every history written at that table).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from stud.server.errors import Refusal

ACCOUNT_NAME_MIN: Final = 3
ACCOUNT_NAME_MAX: Final = 20
TABLE_NAME_MAX: Final = 40

_ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_\-]+")
RESERVED_NAMES: Final = frozenset(
    {"house", "admin", "administrator", "root", "system", "server", "dealer", "moderator"}
)
"""Names no one may register (compared without regard to case)."""
RESERVED_PREFIXES: Final = ("bot", "guest")
"""The room names its bots ``Bot N`` and its guests ``Guest-xxxxxx``: nobody else starts so."""


def check_text(text: str, what: str) -> str:
    """``text`` if it is valid Unicode (no lone surrogate); else ValueError naming ``what``.

    JSON may carry ``"\\ud800"``, which Python decodes to a string that no
    encoder can write: it is refused here, at the door, with a clear message.
    """
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise Refusal(
                "bad_unicode", f"{what} is not valid Unicode (a lone surrogate U+{ord(ch):04X})"
            )
    return text


def printable(text: str, what: str) -> str:
    """``text`` if every character is printable (no line break, tab or control); else ValueError."""
    check_text(text, what)
    for ch in text:
        if ch != " " and not ch.isprintable():
            raise Refusal(
                "control_character",
                f"{what} may not contain a line break or control character (U+{ord(ch):04X})",
            )
    return text


def name_key(name: str) -> str:
    """What makes two account names the same: NFKC, then case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def account_name(raw: str) -> str:
    """The account name as stored, NFKC-normalised; ValueError with the reason otherwise."""
    name = unicodedata.normalize("NFKC", check_text(raw, "the name"))
    if not ACCOUNT_NAME_MIN <= len(name) <= ACCOUNT_NAME_MAX:
        raise Refusal(
            "name_length",
            f"names are {ACCOUNT_NAME_MIN} to {ACCOUNT_NAME_MAX} characters long",
            {"min": ACCOUNT_NAME_MIN, "max": ACCOUNT_NAME_MAX},
        )
    if _ACCOUNT_NAME.fullmatch(name) is None:
        raise Refusal(
            "name_characters", "names may use only the letters A-Z and a-z, digits, '-' and '_'"
        )
    key = name.casefold()
    if key in RESERVED_NAMES:
        raise Refusal("name_reserved", f"the name {name!r} is reserved for the room")
    for prefix in RESERVED_PREFIXES:
        if key.startswith(prefix):
            raise Refusal(
                "name_reserved",
                f"names starting with {prefix.capitalize()!r} are reserved"
                f" for the room's {prefix}s",
            )
    return name


def table_name(raw: str) -> str:
    """A table's name as stored: NFKC, trimmed, 1-40 printable characters; ValueError otherwise."""
    name = unicodedata.normalize("NFKC", check_text(raw, "the table name")).strip()
    printable(name, "a table name")
    if not 1 <= len(name) <= TABLE_NAME_MAX:
        raise Refusal(
            "table_name_length",
            f"a table name is 1 to {TABLE_NAME_MAX} characters long",
            {"max": TABLE_NAME_MAX},
        )
    return name
