"""Tournament hands as PokerStars text (the corpus's tournament header) and PHH: read back,
replayed through the engine, and checked by ``stud replay``; ``stud tourney`` end to end."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from stud.cli import main
from stud.history import read_phhs, read_pokerstars, replay
from stud.tournament.offline import HistoryWriter, OfflineResult, offline_settings, run_offline

HEADER = re.compile(
    r"^PokerStars Hand #(\d+): Tournament #7, 50\+5 (Razz|7 Card Stud|7 Card Stud Hi/Lo) Limit"
    r" - Level ([IVXLC]+) \((\d+)/(\d+)\) - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC"
    r" \[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\]$"
)


@pytest.fixture(scope="module", params=["razz", "stud8"])
def played(request: pytest.FixtureRequest) -> tuple[HistoryWriter, OfflineResult]:
    settings = offline_settings(request.param, 11, table_seats=6, level_hands=3, buy_in=50, fee=5)
    settings = replace(settings, id=7)
    writer = HistoryWriter(settings)
    result = run_offline(settings, ["station", "random"], 11, seed=8, watch=writer)
    return writer, result


@pytest.fixture(scope="module")
def written(played: tuple[HistoryWriter, OfflineResult]) -> HistoryWriter:
    return played[0]


def test_the_header_is_the_corpus_tournament_header(written: HistoryWriter) -> None:
    levels = set()
    for text in written.pokerstars:
        first, second = text.splitlines()[:2]
        match = HEADER.match(first)
        assert match, first
        levels.add(match[3])
        assert re.match(r"^Table '7 \d+' 6-max$", second), second
    assert len(levels) > 2  # the levels rose


def test_pokerstars_text_reads_back_and_replays(written: HistoryWriter) -> None:
    result = read_pokerstars("\n\n\n".join(written.pokerstars))
    assert not result.errors and len(result.hands) == len(written.pokerstars)
    structure = written.settings.structure
    for record in result.hands:
        assert record.tournament is not None and record.tournament.id == "7"
        assert record.tournament.buy_in == "50+5" and not record.cash
        level = structure.level(_arabic(record.tournament.level or ""))
        assert (record.stakes.ante, record.stakes.small_bet) == (level.ante, level.small_bet)
        report = replay(record, record.label)
        assert report.ok, report.text()
        assert report.matched is True


def test_phh_reads_back_and_replays(written: HistoryWriter) -> None:
    result = read_phhs("\n".join(written.phh))
    assert not result.errors and len(result.hands) == len(written.phh)
    texts = read_pokerstars("\n\n\n".join(written.pokerstars)).hands
    for record, text in zip(result.hands, texts, strict=True):
        assert record.tournament == text.tournament
        assert record.actions == text.actions and record.starting_stacks == text.starting_stacks
        report = replay(record, record.label)
        assert report.ok and report.matched is True, report.text()


def _arabic(roman: str) -> int:
    from stud.history.phh import from_roman

    return from_roman(roman)


@pytest.mark.slow  # a tournament played and replayed
def test_stud_tourney_prints_places_and_its_histories_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tourney", "razz", "--players", "12", "--bots", "station,random", "--seed", "3"]
    assert main([*argv, "--json", "--histories", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["place"] for row in data["places"]][:1] == [1]
    assert sorted(row["name"] for row in data["places"]) == sorted(
        f"{('station', 'random')[k % 2]}-{k + 1}" for k in range(12)
    )
    assert sum(row["prize"] for row in data["places"]) == data["prize_pool"] == 1200
    assert {row["bot"] for row in data["bots"]} == {"station", "random"}
    assert sum(row["players"] for row in data["bots"]) == 12
    assert data["hands"] > 12
    text, phhs = (Path(p) for p in data["histories"])
    assert main(["replay", str(text)]) == 0
    assert main(["replay", str(phhs)]) == 0
    out = capsys.readouterr().out
    hands = data["hands"]
    assert f"{hands} hands: {hands} replayed by the rules, {hands} matched" in out
    # The same seed plays the same tournament.
    assert main([*argv, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["places"] == data["places"]
    assert main(["tourney", "stud", "--players", "4", "--bots", "station", "--quiet"]) == 0
    shown = capsys.readouterr().out
    assert "by bot" in shown and "prize pool 400 (100+10 each)" in shown


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "1"], "at least 2"),
        (["--seats", "9"], "2 to 8"),
        (["--bots", "genius"], "unknown bot"),
        (["--level-hands", "0"], "at least 1"),
    ],
)
def test_stud_tourney_refuses_bad_options(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tourney", "stud", *argv]) == 2
    assert message in capsys.readouterr().err


def test_pokerstars_text_keeps_the_deals_order_when_the_button_is_not_at_seat_one() -> None:
    """A moving button deals from seat 5 round to seat 4: reading back keeps that order, so
    a tie for the first to act (rules.md R6) replays as it fell at the table."""
    from stud.bots import make_bot, play_hand
    from stud.cards import Deck
    from stud.game import Hand, TableConfig
    from stud.history import record_from_hand, write_pokerstars_hand

    numbers = [5, 6, 8, 2, 3, 4]
    for seed in range(20):
        config = TableConfig(
            game="razz", ante=10, bring_in=15, small_bet=50, big_bet=100, stacks=(1500,) * 6
        )
        hand = Hand(config, deck=Deck(seed))
        play_hand(hand, [make_bot("station") for _ in range(6)])
        record = record_from_hand(hand, seat_numbers=numbers)
        (back,) = read_pokerstars(write_pokerstars_hand(record)).hands
        assert [s.number for s in back.seats] == numbers
        report = replay(back, back.label)
        assert report.ok and report.matched is True, report.text()


def test_the_hands_that_place_players_close_with_their_places_and_prizes(
    played: tuple[HistoryWriter, OfflineResult],
) -> None:
    writer, result = played
    names = {e.id: e.name for e in result.tournament.entrants.values()}
    expected = {(names[f.account_id], f.place, f.prize or None) for f in result.finishes()}
    texts = read_pokerstars("\n\n\n".join(writer.pokerstars)).hands
    phhs = read_phhs("\n".join(writer.phh)).hands
    seen = set()
    for text, phh in zip(texts, phhs, strict=True):
        assert text.tournament is not None and phh.tournament is not None
        assert text.tournament.placings == phh.tournament.placings
        for placing in text.tournament.placings:
            seen.add((text.seats[placing.seat].name, placing.place, placing.prize))
    assert seen == expected  # every place once, 11th to the winner, with the prizes paid
    last = writer.pokerstars[-1].splitlines()
    winner = result.finishes()[0]
    name = names[winner.account_id]
    line = f"{name} wins the tournament and receives {winner.prize} - congratulations!"
    assert line in last and last.index(line) < last.index("*** SUMMARY ***")


def test_a_prize_in_a_currency_is_read_as_no_chips(written: HistoryWriter) -> None:
    text = written.pokerstars[-1]
    changed = re.sub(
        r"receives (\d+) - congratulations!", "receives $1,234.50 - congratulations!", text
    )
    assert changed != text
    (record,) = read_pokerstars(changed).hands
    assert record.tournament is not None
    assert record.tournament.placings[-1].place == 1
    assert record.tournament.placings[-1].prize is None
    assert replay(record, record.label).ok


def test_a_bring_in_seat_all_in_for_less_than_a_completion_replays_from_pokerstars() -> None:
    """PokerStars text never states the bring-in when its seat completes at once; the seat
    going all-in for more than the bring-in and less than the small bet still replays."""
    from stud.cards import Deck
    from stud.game import ActionKind, Hand, TableConfig
    from stud.history import record_from_hand, write_pokerstars_hand

    config = TableConfig(
        game="stud8", ante=40, bring_in=60, small_bet=200, big_bet=400, stacks=(1226, 6134, 140)
    )
    for seed in range(200):
        hand = Hand(config, deck=Deck(seed))
        if hand.to_act != 2:
            continue  # the short stack must be the one to bring in
        legal = hand.legal_actions()
        complete = next(a for a in legal if a.kind is ActionKind.COMPLETE)
        assert complete.to == 100  # all-in: 140 less the ante
        hand.act(complete)
        while not hand.is_over:
            passive = (ActionKind.CALL, ActionKind.CHECK)
            hand.act(next(a for a in hand.legal_actions() if a.kind in passive))
        text = write_pokerstars_hand(record_from_hand(hand, names=["a", "b", "c"]))
        assert "c: bets 100 and is all-in" in text
        (record,) = read_pokerstars(text).hands
        assert record.stakes.bring_in is None
        report = replay(record, record.label)
        assert report.ok and report.matched is True, report.text()
        return
    raise AssertionError("no deal of 200 made the short stack bring in")
