"""The browser client's message catalogs (static/i18n/LANG.json) against the client's code.

Every key the client names exists in every catalog, no catalog keeps a key the client
never names, each message's placeholders are the same in every language, and the
families of keys the client picks at run time (``tOf('error', code)``) hold exactly the
members the rest of the project defines: every server error code, every game, every
action, street, hand category, rank and suit (docs/i18n.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from stud.cards import RANKS, SUITS
from stud.evaluate.tables import HIGH_CATEGORIES
from stud.game import VARIANTS
from stud.server.errors import CODES as REST_CODES
from stud.server.http.language import languages
from stud.server.ws.protocol import ACTIONS

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "stud" / "web" / "static"
CATALOG_DIR = STATIC / "i18n"
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
KEY = r"[a-z][a-z0-9_]*(?:\.[A-Za-z0-9_-]+)+"
CALL = re.compile(r"\b(tOf|t)\(\s*")
LITERAL = re.compile(r"""(['"])([^'"\\]*)\1""")


def server_error_codes() -> set[str]:
    """Every error code the server sends: the TableError, TournamentError, TournamentRefused
    and ProtocolError codes, the connection's own (``self.error("flood", ...)``) and the
    REST API's (``stud.server.errors``)."""
    raised = r"(?:TableError|TournamentError|TournamentRefused|ProtocolError|\.error)"
    pattern = re.compile(raised + r"""\(\s*"([a-z_]+)\"""")
    codes: set[str] = set()
    for folder in ("server", "table", "tournament"):
        for path in (ROOT / "src" / "stud" / folder).rglob("*.py"):
            codes.update(pattern.findall(path.read_text()))
    return codes | set(REST_CODES)


def underscored(words: str) -> str:
    return words.replace(" ", "_")


# The families of keys the client names with tOf(family, member): their members, from the
# code that defines them.
FAMILIES: dict[str, set[str]] = {
    "error": server_error_codes(),
    "game": set(VARIANTS),
    "action": set(ACTIONS),
    "action_to": set(ACTIONS) - {"fold", "check"},
    "rules.action": set(ACTIONS),
    "street": {"3", "4", "5", "6", "7"},
    "hand": {underscored(c) for c in HIGH_CATEGORIES} | {"royal_flush", "low"},
    "category": {underscored(c) for c in HIGH_CATEGORIES},
    "rank": set(RANKS),
    "ranks": set(RANKS),
    "card_rank": set(RANKS),
    "suit": set(SUITS),
}


def catalog(code: str) -> dict[str, str]:
    data = json.loads((CATALOG_DIR / f"{code}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def strip_comments(source: str) -> str:
    """JS source without its comments (examples in comments are not uses)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$", "", source)


def client_sources() -> Iterator[tuple[Path, str]]:
    """Every module of the client but i18n.js itself (where t and tOf are defined)."""
    for path in sorted((STATIC / "js").glob("*.js")):
        if path.name == "i18n.js":
            continue
        yield path, strip_comments(path.read_text(encoding="utf-8"))


def client_uses() -> tuple[set[str], set[str], list[str]]:
    """The literal keys (t('a.b')), the families (tOf('a', x)) and every call whose key
    the scan cannot read (a variable, a template string): those make the scan unreliable."""
    keys: set[str] = set()
    families: set[str] = set()
    unreadable: list[str] = []
    for path, source in client_sources():
        for call in CALL.finditer(source):
            literal = LITERAL.match(source, call.end())
            where = f"{path.name}: {source[call.start() : call.start() + 60]!r}"
            if literal is None:
                unreadable.append(where)
            elif call.group(1) == "t":
                keys.add(literal.group(2))
            else:
                families.add(literal.group(2))
    return keys, families, unreadable


def placeholders(message: str) -> set[str]:
    """The argument names and types of an ICU message, at any depth ('{n, plural, ...}' gives
    'n:plural'); quoted text ('{' in apostrophes) is skipped, as the client's parser does, and
    so is the text of a plural or select option ('other { and is all-in}' names nothing)."""
    found: set[str] = set()
    text = re.sub(r"'[{}#][^']*'", "", message.replace("''", ""))
    argument = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:,\s*([a-z]+)\s*)?(,|\})")
    option = re.compile(r"\s*(=?[\w-]+)\s*\{")

    def parse_text(i: int) -> int:
        """Read message text from ``i`` up to its closing brace (or the end)."""
        while i < len(text) and text[i] != "}":
            i = parse_argument(i + 1) if text[i] == "{" else i + 1
        return i

    def parse_argument(i: int) -> int:
        """Read an argument just after its ``{``; the index after its ``}``."""
        match = argument.match(text, i)
        if match is None:
            return i
        name, kind = match.group(1), match.group(2) or ""
        found.add(f"{name}:{kind}")
        i = match.end()
        if match.group(3) == "}":
            return i
        if kind in ("plural", "select", "selectordinal"):
            while (opened := option.match(text, i)) is not None:
                i = parse_text(opened.end()) + 1
        else:  # a style: '{n, number, percent}'
            while i < len(text) and text[i] != "}":
                i += 1
        while i < len(text) and text[i] in " }":
            if text[i] == "}":
                return i + 1
            i += 1
        return i

    parse_text(0)
    return found


def braces_balance(message: str) -> bool:
    depth = 0
    for ch in re.sub(r"'[{}#][^']*'", "", message.replace("''", "")):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def test_the_room_speaks_exactly_the_catalogs_on_disk() -> None:
    assert languages() == set(LANGUAGES)


def test_every_catalog_has_the_same_keys() -> None:
    english = set(catalog("en"))
    for code in LANGUAGES[1:]:
        keys = set(catalog(code))
        assert not english - keys, f"{code}.json lacks {sorted(english - keys)}"
        assert not keys - english, f"{code}.json has keys English lacks: {sorted(keys - english)}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_is_well_formed(code: str) -> None:
    for key, message in catalog(code).items():
        assert re.fullmatch(KEY, key), f"{code}: key {key!r} is not a dotted name"
        assert isinstance(message, str) and message.strip(), f"{code}: {key} is empty"
        assert message == message.strip(), f"{code}: {key} has spaces at an end"
        assert braces_balance(message), f"{code}: {key}: unbalanced braces: {message}"


def test_placeholders_agree_across_languages() -> None:
    english = catalog("en")
    for code in LANGUAGES[1:]:
        for key, message in catalog(code).items():
            assert placeholders(message) == placeholders(english[key]), (
                f"{code}: {key} has {sorted(placeholders(message))}, "
                f"English {sorted(placeholders(english[key]))}"
            )


def test_chinese_catalogs_translate_every_word() -> None:
    """A Chinese message identical to the English one with Latin words in it was not
    translated (a placeholder's name is not a word: "+{amount}"); the game Razz keeps its
    name in the seed pages."""
    english = catalog("en")
    kept = {"game.razz"}
    for code in LANGUAGES[1:]:
        for key, message in catalog(code).items():
            words = re.sub(r"\{\s*[A-Za-z_]\w*\s*\}", "", message)  # "+{amount}": no words
            same = message == english[key] and re.search(r"[A-Za-z]{2,}", words)
            assert not same or key in kept, f"{code}: {key} is still English: {message}"


def test_the_scan_of_the_client_reads_every_call() -> None:
    _keys, _families, unreadable = client_uses()
    assert not unreadable, (
        "name keys as string literals, t('a.b') or tOf('family', member): " + "; ".join(unreadable)
    )


def test_every_key_the_client_names_is_in_the_catalogs() -> None:
    keys, families, _ = client_uses()
    english = set(catalog("en"))
    assert not keys - english, f"missing from the catalogs: {sorted(keys - english)}"
    assert not families - set(FAMILIES), (
        f"tOf() families with no list of members in this test: {sorted(families - set(FAMILIES))}"
    )


def test_no_catalog_keeps_a_key_the_client_does_not_use() -> None:
    keys, families, _ = client_uses()
    for key in catalog("en"):
        family = key.rpartition(".")[0]
        assert key in keys or family in families, f"{key} is never used by the client"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_has_exactly_its_members(family: str) -> None:
    """Every server error code, game, action, ... has words, and no words outlive theirs."""
    _keys, families, _ = client_uses()
    assert family in families, f"no client code uses the {family} family"
    members = {key.rpartition(".")[2] for key in catalog("en") if key.rpartition(".")[0] == family}
    assert members == FAMILIES[family], (
        f"{family}: missing {sorted(FAMILIES[family] - members)}, "
        f"stale {sorted(members - FAMILIES[family])} (see {CATALOG_DIR})"
    )


def test_the_server_error_codes_are_found() -> None:
    """The scan of the server finds the codes docs/protocol.md lists (it reads the code)."""
    codes = server_error_codes()
    assert {"bad_json", "not_your_turn", "stale_turn", "flood", "insufficient_balance"} <= codes


def test_the_placeholder_reader_sees_nested_arguments() -> None:
    message = "{n, plural, one {# chip for {name}} other {# chips}} '{literal}'"
    assert placeholders(message) == {"n:plural", "name:"}
    assert braces_balance(message)
    assert not braces_balance("{a")
