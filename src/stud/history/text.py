"""Text from outside (player and table names) made safe for line-based history formats.

Both formats are read line by line (``str.splitlines``, which also breaks at
``\\x0b``, ``\\x1c``, ``\\x85``, ``U+2028`` ...): a name carrying any of them
would add lines to the hand, e.g. a forged ``Dealt to`` line. The writers
escape every character that is not printable, as ``\\uXXXX``, and refuse a
lone surrogate, which no encoding can write.
"""

from __future__ import annotations

from stud.history.errors import HistoryError


def escape_unprintable(text: str) -> str:
    """``text`` with each non-printable character (space aside) written as ``\\uXXXX``."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            raise HistoryError(f"cannot write {text!r}: a lone surrogate is not text")
        if ch == " " or ch.isprintable():
            out.append(ch)
        else:
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "".join(out)
