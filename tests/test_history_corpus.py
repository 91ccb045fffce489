"""Real PokerStars hands: every one loads, replays with the amounts collected, and round-trips.

The corpus lives outside the project, in ``../shared/corpus/pokerstars`` beside
the clone (CI keeps a copy there; ``STUD_POKERSTARS_CORPUS`` names another
place); its files are read in place, never copied.
Without it these tests run on PokerStars files the project writes itself from
hands the engine plays, so they never pass without checking something.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest

from stud.history import HandRecord, Show, read_pokerstars, read_pokerstars_file
from stud.history.describe import pokerstars_description
from stud.history.pokerstars_read import _is_noise, split_hands
from stud.history.pokerstars_write import write_pokerstars, write_pokerstars_hand
from stud.history.replay import replay
from stud.history.samples import sample_hand

CORPUS = Path(
    os.environ.get(
        "STUD_POKERSTARS_CORPUS",
        Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pokerstars",
    )
)
HAVE_CORPUS = CORPUS.is_dir()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    if HAVE_CORPUS:
        return sorted(CORPUS.glob("*/*.txt"))
    folder = tmp_path_factory.mktemp("written")
    paths = []
    for name, game, cash in (
        ("stud-cash.txt", "stud", True),
        ("stud8-cash.txt", "stud8", True),
        ("razz-tournament.txt", "razz", False),
    ):
        hands = [sample_hand(game, 2 + n % 7, 500 + n, cash=cash) for n in range(12)]  # type: ignore[arg-type]
        path = folder / name
        path.write_text(write_pokerstars(hands, describe=pokerstars_description), "utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def hands(files: list[Path]) -> list[tuple[Path, HandRecord]]:
    out = []
    for path in files:
        result = read_pokerstars_file(path)
        assert not result.errors, [str(e) for e in result.errors]
        out += [(path, record) for record in result.hands]
    return out


def test_every_hand_loads(hands: list[tuple[Path, HandRecord]]) -> None:
    assert hands
    games = Counter(record.game for _, record in hands)
    assert set(games) == {"stud", "stud8", "razz"}
    if HAVE_CORPUS:
        assert games == {"stud": 14, "stud8": 10, "razz": 10}
        kinds = Counter("cash" if r.cash else "tournament" for _, r in hands)
        assert kinds == {"cash": 31, "tournament": 3}


def test_every_hand_replays_with_the_amounts_collected(
    hands: list[tuple[Path, HandRecord]],
) -> None:
    for path, record in hands:
        report = replay(record, f"{path.name} {record.label}")
        assert report.ok, report.text()
        assert report.matched is True
        assert report.collected == record.collected
        assert report.stacks == record.finishing_stacks
        assert report.rake == record.rake


def test_every_hand_round_trips(files: list[Path]) -> None:
    for path in files:
        first = read_pokerstars_file(path)
        text = write_pokerstars(first.hands)
        again = read_pokerstars(text, f"{path.name} rewritten")
        assert not again.errors
        assert again.hands == first.hands
        assert write_pokerstars(again.hands) == text


def test_hands_are_rewritten_line_for_line(files: list[Path]) -> None:
    """Our text for each hand is the file's, less the room's noise lines (a tournament's
    placing lines are read, so they are no noise).

    Two things differ by design: a header in an older form (``PokerStars
    Game #``, no currency, a tracker's capitals) is written in today's form,
    and a card PokerStars could not print (``[of]``) is left out.
    """
    compared = 0
    for path in files:
        text = path.read_text(encoding="utf-8-sig")
        result = read_pokerstars(text, str(path))
        for (start, lines), record in zip(split_hands(text), result.hands, strict=True):
            noted = {int(m[1]) for n in record.notes if (m := re.match(r"line (\d+)", n))}
            placings = record.tournament.placings if record.tournament else ()
            placed = tuple(
                f"{record.names[p.seat]} {verb} the tournament"
                for p in placings
                for verb in ("finished", "wins")
            )
            original = [
                line
                for number, line in lines
                if number not in noted
                and not (_is_noise(line) and not line.startswith(("Seat ", *placed)))
            ]
            ours = write_pokerstars_hand(record).splitlines()
            if not original[0].startswith("PokerStars Hand #"):
                original, ours = original[1:], ours[1:]
            assert ours == original, f"{path.name}, hand starting on line {start}"
            compared += 1
    assert compared == (34 if HAVE_CORPUS else 36)


def test_descriptions_are_worded_as_pokerstars_words_them(
    hands: list[tuple[Path, HandRecord]],
) -> None:
    checked = 0
    for _, record in hands:
        for show in record.shows:
            if not isinstance(show, Show) or show.description is None:
                continue
            if None in show.cards or len(show.cards) + len(record.community) < 5:
                continue  # a partial show: PokerStars' own wording of a short hand
            assert pokerstars_description(record, show) == show.description, record.label
            checked += 1
    assert checked >= (30 if HAVE_CORPUS else 10)
