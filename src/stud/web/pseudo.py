"""Browser-test checks that a page's words all come from the message catalogs (docs/i18n.md).

In the pseudo-locale (``?lang=pseudo``) every message the client words is wrapped in
``⟦`` … ``⟧``; :func:`escaped_text` lists the text of a part of the page that lies
outside every such pair: text written into the code rather than taken from a catalog.
In a real language, :func:`latin_words` lists the Latin-letter words left in a part of
a Chinese page (English that escaped translation). Both read text nodes and the
attributes people hear or see (``aria-label``, ``title``, ``placeholder``, ``alt``)
and skip what is marked ``translate="no"`` (names, the languages' own names); the
letters drawn inside a card's SVG are symbols, and the card's name is its
``aria-label``, which is checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

PSEUDO = "pseudo"
CARD_LETTERS = frozenset("AKQJT-")
"""Ranks written as cards are (K-Q-J-10-9): symbols, not English."""

# The page's words under `selector`: [{text, where}], one per text node and attribute.
_WORDS_JS = """
(selector) => {
  const out = [];
  const skipped = (el) => Boolean(el.closest('[translate="no"], script, style, noscript'));
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.className && typeof e.className === 'string'
        ? '.' + e.className.trim().split(/\\s+/).join('.') : ''));
    }
    return parts.join(' > ');
  };
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || skipped(el) || el.closest('svg')) continue;
      if (node.textContent.trim()) out.push({ text: node.textContent, where: where(el) });
    }
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (skipped(el)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(name);
        if (value && value.trim()) out.push({ text: value, where: `${where(el)} @${name}` });
      }
    }
  }
  return out;
}
"""


def page_words(page: Page, selector: str) -> list[dict[str, Any]]:
    """Every piece of text (and named attribute) under ``selector``, with where it sits."""
    words: list[dict[str, Any]] = page.evaluate(_WORDS_JS, selector)
    return words


def outside_markers(text: str) -> str:
    """``text`` without its ``⟦…⟧`` parts (nested ones too)."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "⟦":
            depth += 1
        elif ch == "⟧":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def escaped_text(page: Page, selector: str) -> list[str]:
    """In the pseudo-locale: the text under ``selector`` that no catalog message produced
    (any letter outside the markers), each with where it sits; [] when all is translated."""
    return [
        f"{w['where']}: {w['text'].strip()!r}"
        for w in page_words(page, selector)
        if any(ch.isalpha() for ch in outside_markers(w["text"]))
    ]


def latin_words(page: Page, selector: str, allowed: frozenset[str]) -> list[str]:
    """In a Chinese page: the words of two or more Latin letters under ``selector`` other than
    ``allowed`` (names the Chinese pages keep, like Razz) and ranks (K-Q-J), with where they sit."""
    found: list[str] = []
    for w in page_words(page, selector):
        words = "".join(
            ch if ch.isascii() and (ch.isalpha() or ch == "-") else " " for ch in w["text"]
        )
        stray = [
            x
            for x in words.split()
            if sum(c.isalpha() for c in x) >= 2 and x not in allowed and not set(x) <= CARD_LETTERS
        ]
        if stray:
            found.append(f"{w['where']}: {stray} in {w['text'].strip()!r}")
    return found
