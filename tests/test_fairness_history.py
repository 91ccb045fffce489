"""Records carry the revealed shuffle (PHH, PokerStars text); ``stud verify`` checks every card."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from stud.cards import Card
from stud.cli import main
from stud.fairness import Shuffle, new_server_seed
from stud.game import RAZZ, STUD, ActionKind, Hand, TableConfig, Variant
from stud.history import (
    HandRecord,
    HistoryError,
    read_phh,
    read_pokerstars,
    record_from_hand,
    write_phh,
    write_pokerstars_hand,
)
from stud.history.verify import verify
from stud.server.http.histories import for_viewer


def dealt_record(
    players: int,
    *,
    seeds: tuple[str, ...] = (),
    burn: bool = False,
    game: Variant = STUD,
    folds: int = 0,
) -> HandRecord:
    """A hand dealt from a committed shuffle and played out (``folds`` players fold at once)."""
    seeds = seeds or ("",) * players
    shuffle = Shuffle.deal("5-12", new_server_seed(3, players), seeds)
    config = TableConfig(
        game=game, ante=1, bring_in=2, small_bet=5, big_bet=10, stacks=(400,) * players,
        burn_cards=burn,
    )  # fmt: skip
    hand = Hand(config, deck=shuffle.deck())
    rng = random.Random(players)
    folded = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        kinds = {a.kind: a for a in legal}
        if folded < folds and ActionKind.FOLD in kinds:
            folded += 1
            hand.act(kinds[ActionKind.FOLD])
            continue
        passive = [
            k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in kinds
        ]
        hand.act(kinds[passive[0]] if passive else rng.choice(legal))
    record = record_from_hand(
        hand, names=[f"p{i}" for i in range(players)],
        seat_numbers=[(i + 2) % 8 + 1 for i in range(players)], hand_id="812", table="Ada",
    )  # fmt: skip
    return replace(record, shuffle=shuffle)


def test_phh_and_pokerstars_round_trip_the_shuffle() -> None:
    record = dealt_record(4, seeds=("ab", "", "0123", ""))
    phh = write_phh(record)
    assert '_shuffle = { scheme = "stud-shuffle-v1"' in phh
    assert read_phh(phh).shuffle == record.shuffle
    text = write_pokerstars_hand(record)
    last = text.rstrip("\n").splitlines()[-1]
    assert last.startswith("Shuffle: stud-shuffle-v1, hand 5-12, commitment ")
    assert "seeds [Seat 3 ab, Seat 4 -, Seat 5 0123, Seat 6 -]" in last
    back = read_pokerstars(text).hands[0]
    assert back.shuffle is not None
    assert back.shuffle.player_seeds == record.shuffle.player_seeds  # type: ignore[union-attr]
    for copy in (read_phh(phh), back, read_phh(write_phh(back))):
        report = verify(copy)
        assert report.ok, report.problems
        assert report.checked == sum(len(c) for c in record.cards)


@pytest.mark.parametrize("burn", [False, True])
def test_eight_players_the_community_card_and_burns_verify(burn: bool) -> None:
    """R12: 8 players reach 7th street; with burns the deck runs out sooner."""
    record = dealt_record(8, burn=burn, game=RAZZ)
    assert record.community, "no community card: the deck did not run out"
    assert bool(record.burns) == burn
    report = verify(read_phh(write_phh(record)))
    assert report.ok, report.problems
    assert report.checked == sum(len(c) for c in record.cards) + 1 + len(record.burns)


def test_a_download_cut_for_a_player_still_verifies_what_it_shows() -> None:
    record = dealt_record(5, folds=2)
    mine = for_viewer(record, 1)
    report = verify(read_phh(write_phh(mine)))
    assert report.ok, report.problems
    assert report.hidden > 0 and report.checked + report.hidden == verify(record).checked


def test_one_changed_card_fails_naming_it() -> None:
    record = dealt_record(3)
    cards = [list(c) for c in record.cards]
    real = cards[2][3]
    unused = next(Card(c) for c in range(52) if Card(c) not in {x for s in cards for x in s})
    cards[2][3] = unused
    forged = replace(record, cards=tuple(tuple(c) for c in cards))
    report = verify(read_phh(write_phh(forged)))
    assert not report.ok
    text = report.text()
    assert "1 of the" in text and "p2's 4th street card" in text
    assert f"is {unused} in the record but the seeds deal {real}" in text


def test_a_changed_player_seed_or_server_seed_fails() -> None:
    record = dealt_record(3, seeds=("ab", "cd", ""))
    assert record.shuffle is not None
    other = replace(record, shuffle=replace(record.shuffle, player_seeds=("ab", "ce", "")))
    report = verify(other)
    assert not report.ok and "not the ones the seeds deal" in report.problems[0]
    swapped = replace(record, shuffle=replace(record.shuffle, server_seed=new_server_seed(9)))
    (problem,) = verify(swapped).problems
    assert "server seed does not match the commitment" in problem
    assert "no shuffle to check" in verify(replace(record, shuffle=None)).problems[0]


def test_malformed_shuffle_fields_are_clear_errors() -> None:
    phh = write_phh(dealt_record(2))
    broken = phh.replace('player_seeds = ["", ""]', 'player_seeds = [""]')
    with pytest.raises(HistoryError, match="_shuffle: player_seeds must have 2 entries"):
        read_phh(broken)
    with pytest.raises(HistoryError, match="_shuffle: a shuffle record needs 'server_seed'"):
        read_phh(phh.replace("server_seed = ", "seed = "))
    text = write_pokerstars_hand(dealt_record(2))
    result = read_pokerstars(text.replace("Seat 4 -]", "Seat 9 -]"))
    assert "the shuffle line's seats are not the hand's seats" in str(result.errors[0])


def test_stud_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.phh"
    good.write_text(write_phh(dealt_record(3)))
    stars = tmp_path / "good.txt"
    stars.write_text(write_pokerstars_hand(dealt_record(4)))
    assert main(["verify", str(good), str(stars)]) == 0
    out = capsys.readouterr().out
    assert out.count(": OK, the seed matches its commitment") == 2 and "2 verified, 0 failed" in out
    record = dealt_record(3)
    assert record.shuffle is not None
    bad = tmp_path / "bad.phh"
    bad.write_text(write_phh(replace(record, shuffle=replace(record.shuffle, hand_id="5-13"))))
    assert main(["verify", "--json", str(good), str(bad)]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [h["ok"] for h in document["hands"]] == [True, False]
    assert document["summary"] == {"hands": 2, "verified": 1, "unreadable": 0}
    assert main(["verify", str(tmp_path / "missing.phh")]) == 1
    assert "unreadable" in capsys.readouterr().out


def test_stud_verify_reads_the_rooms_json_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``GET /api/hands/ID`` saved as a file: its PHH is checked, and its summary must agree."""
    record = dealt_record(3)
    assert record.shuffle is not None
    document = {
        "id": 9,
        "phh": write_phh(record),
        "summary": {"shuffle": record.shuffle.revealed()},
    }
    good = tmp_path / "hand-9.json"
    good.write_text(json.dumps(document))
    assert main(["verify", str(good)]) == 0
    assert "1 verified, 0 failed" in capsys.readouterr().out
    other = replace(record.shuffle, player_seeds=("ab", "", ""))
    bad = tmp_path / "hand-10.json"
    bad.write_text(json.dumps({**document, "summary": {"shuffle": other.revealed()}}))
    assert main(["verify", str(bad)]) == 1
    assert "summary states another shuffle" in capsys.readouterr().out
    broken = tmp_path / "hand-11.json"
    broken.write_text('{"id": 11}')
    assert main(["verify", str(broken)]) == 1
    assert "has its history in a 'phh' field" in capsys.readouterr().out
