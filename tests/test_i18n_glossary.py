"""The catalogs speak the glossary (docs/glossary.md): one word per poker term and language.

Each term is what its catalog keys say, no message uses a synonym the glossary refuses,
and a Chinese catalog keeps no Latin-letter word but the few the glossary lists (issue 36:
「bring-in」 in Traditional and 带入 in Simplified, 第三街 here and 第三张牌 there for no
reason a reader could see).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
CATALOG_DIR = ROOT / "src" / "stud" / "web" / "static" / "i18n"
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
CHINESE = LANGUAGES[1:]


@dataclass(frozen=True)
class Term:
    concept: str
    words: dict[str, str]
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Refusal:
    concept: str
    language: str
    pattern: re.Pattern[str]
    use: str


def catalog(code: str) -> dict[str, str]:
    data = json.loads((CATALOG_DIR / f"{code}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def section_rows(title: str) -> list[list[str]]:
    """The body rows of the first table under ``## title``, as lists of cells."""
    text = GLOSSARY.read_text(encoding="utf-8")
    body = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in body.splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    return [[c.replace(r"\|", "|") for c in row] for row in cells[2:]]


def terms() -> list[Term]:
    return [
        Term(
            concept,
            dict(zip(LANGUAGES, words, strict=True)),
            tuple(k.strip() for k in keys.split(",")),
        )
        for concept, *words, keys in section_rows("Terms")
    ]


def refusals() -> list[Refusal]:
    found = []
    for concept, language, refused, use in section_rows("Refused"):
        assert language in LANGUAGES, f"glossary: {concept}: no language {language!r}"
        slashed = refused.startswith("/") and refused.endswith("/") and len(refused) > 2
        pattern = re.compile(refused[1:-1] if slashed else re.escape(refused))
        found.append(Refusal(concept, language, pattern, use))
    return found


def kept_latin() -> frozenset[str]:
    """The bold words of *Kept in Latin letters*."""
    text = GLOSSARY.read_text(encoding="utf-8").split("\n## Kept in Latin letters\n", 1)[1]
    return frozenset(word for bold in re.findall(r"\*\*([^*]+)\*\*", text) for word in bold.split())


ARGUMENT = re.compile(r"\s*\w+\s*(?:,\s*(\w+)\s*)?([,}])")
OPTION = re.compile(r"\s*=?[\w-]+\s*\{")


def words_of(message: str) -> str:
    """A message's own text, as a reader may see it: placeholders, argument types and the
    names of plural and select options taken out, the options' text kept."""
    out: list[str] = []

    def text(i: int, nested: bool) -> int:
        while i < len(message) and not (nested and message[i] == "}"):
            if message[i] == "{":
                i = argument(i + 1)
            else:
                out.append(message[i])
                i += 1
        return i

    def argument(i: int) -> int:
        match = ARGUMENT.match(message, i)
        assert match is not None, f"not an ICU argument at {i}: {message!r}"
        i = match.end()
        if match.group(2) == "}":
            return i
        if match.group(1) in ("plural", "select", "selectordinal"):
            while (option := OPTION.match(message, i)) is not None:
                i = text(option.end(), nested=True) + 1
        return message.index("}", i) + 1

    text(0, nested=False)
    return " ".join(["".join(out)])


def test_the_glossary_is_read() -> None:
    """The tables parse into the terms the rest of the test relies on (a broken table would
    otherwise check nothing)."""
    read = {t.concept: t for t in terms()}
    assert len(read) >= 40
    assert read["bring-in"].words == {"en": "bring-in", "zh-Hant": "帶入", "zh-Hans": "带入"}
    assert read["3rd street"].words["zh-Hans"] == "第三张牌"
    assert len(refusals()) >= 20
    assert {"Razz", "PHH", "PokerStars", "A", "K"} <= kept_latin()


@pytest.mark.parametrize("term", terms(), ids=lambda t: t.concept)
def test_each_key_says_the_term(term: Term) -> None:
    for code in LANGUAGES:
        messages = catalog(code)
        word = term.words[code]
        for key in term.keys:
            assert key in messages, f"glossary: {term.concept}: no key {key}"
            message = messages[key]
            found = word.lower() in message.lower() if code == "en" else word in message
            assert found, f"{code}: {key} = {message!r} does not say {term.concept} as {word!r}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_message_uses_a_refused_synonym(code: str) -> None:
    wrong = [
        f"{key}: {message!r} says {r.concept} as {r.pattern.pattern!r}; the glossary says {r.use}"
        for r in refusals()
        if r.language == code
        for key, message in catalog(code).items()
        if r.pattern.search(message)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", CHINESE)
def test_chinese_keeps_only_the_listed_latin_words(code: str) -> None:
    kept = kept_latin()
    wrong = [
        f"{key}: {word!r} in {message!r}"
        for key, message in catalog(code).items()
        for word in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", words_of(message))
        if word not in kept
    ]
    assert not wrong, "\n".join(wrong)


def test_a_refused_synonym_is_caught() -> None:
    """The checks can fail: the old words of issue 36 are refused."""
    by_language: dict[str, list[re.Pattern[str]]] = {}
    for r in refusals():
        by_language.setdefault(r.language, []).append(r.pattern)
    old = {
        "zh-Hant": ["{who} 補足到 {amount}", "牌局 #{id}", "· 第 {id} 手", "公共牌 {card}"],
        "zh-Hans": ["第三街", "{who} 赢得 {amount}：{pot}", "牌型：{hand}"],
    }
    for code, messages in old.items():
        for message in messages:
            assert any(p.search(message) for p in by_language[code]), message
    assert re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", words_of("{who} bring-in {amount}")) == [
        "bring-in"
    ]
