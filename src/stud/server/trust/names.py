"""What a name may be: account names and table names, checked once at input.

Account names are identities, so two that look alike must be one. A name is
NFKC-normalised (full-width ``Ａｄａ`` is ``Ada``) and matched whole (no trailing
newline slips past); it may use letters of any script (Han, Latin, kana,
Hangul...), digits and the separators ``-``, ``_``, ``.`` and an inner space, 2 to
20 characters. It is refused with its own code when it holds an invisible
character (zero-width, bidi controls), or mixes scripts in a way no writing
system does (a Cyrillic ``а`` in a Latin name; Latin with Han, kana or Hangul is
how East Asian names are written, so that is allowed). Two names are one when
their :func:`name_key` agrees: case-folded, then reduced to a *confusable
skeleton* (Unicode's confusables data, as the ``confusable_homoglyphs`` package
ships it), so ``Ada``, ``ada`` and ``Аda`` (a Cyrillic ``А``) are one name.
Names the room uses itself (``house``, ``Bot 3``, ``Guest-1a2b3c``) are reserved,
in any script or width, and the error says so.

Table names are labels, not identities: any printable text, but never a line
break or a control character (a hand history is line-based: a name with a
newline would add lines to every history written at that table).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Final

from confusable_homoglyphs import categories, confusables

from stud.server.errors import Refusal

ACCOUNT_NAME_MIN: Final = 2
ACCOUNT_NAME_MAX: Final = 20
TABLE_NAME_MAX: Final = 40

SEPARATORS: Final = frozenset("-_. ")
"""The characters besides letters and digits a name may use (a space only inside, alone)."""
RESERVED_NAMES: Final = frozenset(
    {"house", "admin", "administrator", "root", "system", "server", "dealer", "moderator"}
)
"""Names no one may register (compared by :func:`name_key`)."""
RESERVED_PREFIXES: Final = ("bot", "guest")
"""The room names its bots ``Bot N`` and its guests ``Guest-xxxxxx``: nobody else starts so."""

_EAST_ASIAN: Final = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""Scripts written together (Unicode TR39's "highly restrictive" sets); one script is fine."""
_NEUTRAL_SCRIPTS: Final = frozenset({"COMMON", "INHERITED"})


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


@cache
def _homoglyphs() -> dict[str, tuple[str, ...]]:
    """Each character's single-character look-alikes, from the package's data."""
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    found: dict[str, tuple[str, ...]] = {}
    for source, targets in data.items():
        if len(source) == 1:
            glyphs = (target["c"].replace("\u200e", "") for target in targets)
            found[source] = tuple(glyph for glyph in glyphs if len(glyph) == 1)
    return found


def _preference(ch: str) -> tuple[bool, str]:
    return (not (ch.isascii() and ch.islower()), ch)


@cache
def _stand_in(ch: str) -> str:
    """The character that stands for ``ch`` and its direct look-alikes (those of its capital
    too, case-folded: Cyrillic ``в`` is ``В``, which looks like ``B``, so ``b``): a lower-case
    ASCII letter if one is among them, else the smallest code point.

    One step only: look-alikes of look-alikes are not joined, since chains of them link
    characters nobody would confuse (``6`` to ``o`` through Cyrillic and Greek letters).
    """
    near = _homoglyphs()
    candidates = {ch, *near.get(ch, ())}
    candidates.update(glyph.casefold() for glyph in near.get(ch.upper(), ()))
    return min((c for c in candidates if len(c) == 1), key=_preference)


def name_key(name: str) -> str:
    """What makes two account names the same: NFKC, case-folded, then each character's
    look-alike stand-in (a confusable skeleton without case: ``Ada``, ``ＡＤＡ`` and ``Аda``
    agree, Cyrillic ``ВОТ`` is ``bot``, ``B0B`` is ``bob``)."""
    folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name).casefold())
    return "".join(_stand_in(ch) for ch in folded)


def _script(ch: str) -> str:
    alias: str = categories.alias(ch)
    return alias


def _check_characters(name: str) -> None:
    """Refuse invisible characters by name, then anything but letters, digits and separators."""
    for ch in name:
        if unicodedata.category(ch) == "Cf":
            raise Refusal(
                "name_invisible",
                f"names may not contain invisible characters (U+{ord(ch):04X}:"
                " zero-width or text-direction marks)",
                {"character": f"U+{ord(ch):04X}"},
            )
    for ch in name:
        kind = unicodedata.category(ch)
        if not (kind[0] in "LM" or kind == "Nd" or ch in SEPARATORS):
            raise Refusal(
                "name_characters",
                "names may use only the letters of any script, digits, '-', '_', '.'"
                " and single spaces between words",
            )
    if unicodedata.category(name[0])[0] == "M" or name != name.strip(" ") or "  " in name:
        raise Refusal(
            "name_characters",
            "names may use only the letters of any script, digits, '-', '_', '.'"
            " and single spaces between words (no combining mark first)",
        )


def _check_scripts(name: str) -> None:
    """Refuse a name that mixes scripts no writing system mixes (Latin with Cyrillic...)."""
    scripts = {_script(ch) for ch in name if ch.isalpha()} - _NEUTRAL_SCRIPTS
    if len(scripts) <= 1 or any(scripts <= allowed for allowed in _EAST_ASIAN):
        return
    raise Refusal(
        "name_mixed_script",
        "a name may not mix these scripts: " + ", ".join(sorted(s.title() for s in scripts)),
        {"scripts": ", ".join(sorted(s.title() for s in scripts))},
    )


def _check_reserved(name: str) -> None:
    key = name_key(name)
    if key in {name_key(reserved) for reserved in RESERVED_NAMES}:
        raise Refusal("name_reserved", f"the name {name!r} is reserved for the room")
    for prefix in RESERVED_PREFIXES:
        if key.startswith(name_key(prefix)):
            raise Refusal(
                "name_reserved",
                f"names starting with {prefix.capitalize()!r} are reserved"
                f" for the room's {prefix}s",
            )


def account_name(raw: str) -> str:
    """The account name as stored, NFKC-normalised; a Refusal with the reason otherwise."""
    name = unicodedata.normalize("NFKC", check_text(raw, "the name"))
    if not ACCOUNT_NAME_MIN <= len(name) <= ACCOUNT_NAME_MAX:
        raise Refusal(
            "name_length",
            f"names are {ACCOUNT_NAME_MIN} to {ACCOUNT_NAME_MAX} characters long",
            {"min": ACCOUNT_NAME_MIN, "max": ACCOUNT_NAME_MAX},
        )
    _check_characters(name)
    _check_scripts(name)
    _check_reserved(name)
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
