"""Read a hand-history file in whichever format it is in, and write records in either format."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from stud.history.model import HandRecord
from stud.history.phh import read_phhs, write_phhs
from stud.history.pokerstars_read import ReadResult, read_pokerstars
from stud.history.pokerstars_write import write_pokerstars

Format = Literal["phh", "pokerstars"]


def sniff(text: str, name: str = "") -> Format:
    """PokerStars text starts with ``PokerStars``; ``.phh``/``.phhs`` files, and TOML, are PHH."""
    if name.endswith((".phh", ".phhs")):
        return "phh"
    for line in text.splitlines():
        line = line.lstrip("\ufeff").strip()
        if line:
            return "pokerstars" if line.startswith("PokerStars ") else "phh"
    return "phh"


def read_text(text: str, source: str | None = None) -> ReadResult:
    """Every hand in ``text``, PHH or PokerStars, and an error for each hand that cannot be read."""
    if sniff(text, source or "") == "pokerstars":
        return read_pokerstars(text, source)
    return read_phhs(text, source)


def read_file(path: str | Path) -> ReadResult:
    """Every hand in a file, PHH or PokerStars (UTF-8, with or without a byte-order mark)."""
    path = Path(path)
    return read_text(path.read_text(encoding="utf-8-sig"), str(path))


def write_records(records: Sequence[HandRecord], to: Format) -> str:
    """Records as one ``.phhs`` file or one PokerStars hand-history file."""
    if to == "phh":
        return write_phhs(records)
    from stud.history.describe import pokerstars_description

    return write_pokerstars(records, describe=pokerstars_description)
