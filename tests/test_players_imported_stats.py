"""Imported hands in their importer's stats (issue 38): counted with the room's, against
values counted by hand, results kept apart in each hand's own money, stored whole with the
hand or not at all, and never counted for any other account (an imported file's players
are names on another site, never taken for the room's accounts, even a name alike).

The server is tests/test_server_imports.py's room (its ``room`` fixture, one per module);
the hands are the stats fixtures tests/data/stats written as a PokerStars file, and, when
the PokerStars corpus is there, three of its real hands counted by hand below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

import test_server_imports
from stud.history import read_phh_file
from stud.history.pokerstars_write import write_pokerstars
from stud.history.replay import completed
from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.server.storage.facts import FLAGS
from stud.server.storage.stats import own_stats
from test_history_corpus import CORPUS, HAVE_CORPUS
from test_players_stats import DATA, summed
from test_server_imports import ACCOUNTS, Room, multipart

room = test_server_imports.room
"""The server: tests/test_server_imports.py's fixture, one for this module too."""

NAMES = ["carol", "bob", "alice", "dora"]
"""The stats fixtures' seats renamed after the room's accounts: Ann's seat is carol's."""


def stats_file() -> bytes:
    """Hands 1 to 4 of tests/data/stats as one PokerStars file, carol (Ann's seat) the hero."""
    records = []
    for number in range(1, 5):
        record = completed(read_phh_file(DATA / f"h{number}.phh").hands[0])
        seats = tuple(
            replace(seat, name=NAMES[i] if i < len(NAMES) else seat.name.lower() + "x")
            for i, seat in enumerate(record.seats)
        )
        records.append(
            replace(record, seats=seats, hand_id=str(880000 + number), site="PokerStars")
        )
    return write_pokerstars(records, hero=0).encode()


def stats_of(room: Room, who: str, of: str) -> dict[str, Any]:
    answer = room.as_(who).get(f"/api/players/{room.ids[of]}/stats")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def counts(stats: dict[str, Any]) -> dict[str, int]:
    return {key: stats[key] for key in ("hands", *FLAGS)}


@pytest.mark.slow
def test_imported_hands_count_for_their_importer_alone(room: Room) -> None:
    before = {(who, of): stats_of(room, who, of) for who in ACCOUNTS for of in ACCOUNTS}
    answer = room.upload("carol", [("stats.txt", stats_file())])
    assert answer.status_code == 200 and answer.json()["imported"] == 4, answer.text
    own = stats_of(room, "carol", "carol")
    # Ann's facts, counted by hand (tests/test_players_stats.py), are now carol's.
    assert counts(own) == summed("Ann", [1, 2, 3, 4])
    results = own["results"]
    assert results["by_game"] == [{"game": "stud", "unit": "play", "hands": 4, "net": 3}]
    assert results["hands"] == 0 and results["net"] == 0  # no hand of the room's chips
    assert [(x["unit"], x["hands"], x["net"]) for x in results["by_session"]] == [("play", 4, 3)]
    # The file's other seats bear the names of bob, alice and dora: nobody's stats change,
    # seen by themselves or by anyone else, and nobody sees carol's imported hands.
    for (who, of), seen in before.items():
        if (who, of) != ("carol", "carol"):
            assert counts(stats_of(room, who, of)) == counts(seen), (who, of)
    for who in ("alice", "bob", "dora"):
        assert counts(stats_of(room, who, "carol")) == summed("Ann", [])


CORPUS_HANDS = {
    # file: (game, unit, the hero's vpip, raised, steal_chance, stole, fold4_chance, folded4,
    # saw4, showdown, won_showdown, net), counted from the file by hand.
    "cash/7-StudHL-USD-400-800-201701.3bet.fix.txt":
    # Completes over the bring-in with one player to act behind (a steal), three-bets,
    # bets 4th and 5th; the bring-in folds on 5th: 3318.00 back for 1660.00 in.
    ("stud8", "USD", 1, 1, 1, 1, 0, 0, 1, 0, 0, 165800),
    "tour/Triple-Stud-USD-2.00-0.20-MTT-201301.txt":
    # Re-raises after a call (no steal), wins the showdown: 1144 for 50 + 500 - 178.
    ("stud", "tourney", 1, 1, 0, 0, 0, 0, 1, 1, 1, 772),
    "cash/HH20110417_Salm_IX_-__0.04-_0.08_Ante__0.01_-_USD_Limit_Stud.txt":
    # The hero (steffen780) folds his first turn on 3rd after calls: the ante lost.
    ("stud", "USD", 0, 0, 0, 0, 0, 0, 0, 0, 0, -1),
}


@pytest.mark.skipif(not HAVE_CORPUS, reason="the PokerStars corpus is not on this machine")
def test_real_pokerstars_hands_give_their_hand_counted_stats(room: Room) -> None:
    files = [(name.split("/")[-1], (CORPUS / name).read_bytes()) for name in CORPUS_HANDS]
    answer = room.upload("dora", files)
    assert answer.status_code == 200 and answer.json()["imported"] == 3, answer.text
    own = stats_of(room, "dora", "dora")
    for column in ("hands", *FLAGS):
        if column == "hands":
            expected = len(CORPUS_HANDS)
        else:
            place = 2 + FLAGS.index(column)
            expected = sum(int(hand[place]) for hand in CORPUS_HANDS.values())
        assert own[column] == expected, column
    by_game = {(g["game"], g["unit"]): g for g in own["results"]["by_game"]}
    assert {k: (g["hands"], g["net"]) for k, g in by_game.items()} == {
        ("stud8", "USD"): (1, 165800),
        ("stud", "USD"): (1, -1),
        ("stud", "tourney"): (1, 772),
    }
    # Sessions by the time each file gives (ET, or the ET time beside another zone), in UTC.
    tourney = [x for x in own["results"]["by_session"] if x["unit"] == "tourney"]
    played = datetime(2013, 1, 3, 14, 27, 43, tzinfo=UTC)  # 9:27:43 ET (EST)
    assert [x["start"] for x in tourney] == [played.timestamp()]
    usd = sorted(x["start"] for x in own["results"]["by_session"] if x["unit"] == "USD")
    assert usd == [
        datetime(2011, 4, 18, 0, 21, 35, tzinfo=UTC).timestamp(),  # 20:21:35 ET (EDT)
        datetime(2017, 1, 21, 21, 58, 3, tzinfo=UTC).timestamp(),  # 16:58:03 ET (EST)
    ]
    assert counts(stats_of(room, "carol", "dora")) == summed("Ann", [])


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_hand_and_its_facts_are_stored_together_or_not_at_all(
    backend: str, database_factory: Callable[[str], str]
) -> None:
    from stud.server.http.imports_read import ImportLimits, read_upload
    from stud.server.storage.imports import imported_count, store_imported

    body, content_type = multipart([("stats.txt", stats_file())])
    rows = read_upload(body, content_type, ImportLimits()).rows
    db = Database(database_factory(backend))
    db.start()
    try:
        owner = db.write_sync(lambda c: db.store.create_account(c, "own", "user").id)
        broken = [rows[0], {**rows[1], "facts": {**rows[1]["facts"], "game": None}}]
        with pytest.raises(IntegrityError):  # the second hand's facts break a NOT NULL column
            db.submit(lambda c: store_imported(c, owner, broken, 100)).result()
        assert db.read_sync(lambda c: imported_count(c, owner)) == 0
        assert db.read_sync(lambda c: own_stats(c, owner))[0]["hands"] == 0
        assert db.read_sync(lambda c: c.execute(s.player_rollup.select()).all()) == []
        stored = db.submit(lambda c: store_imported(c, owner, rows, 100)).result()
        assert all(isinstance(i, int) for i in stored)
        facts = db.read_sync(lambda c: c.execute(s.hand_facts.select()).all())
        assert sorted((f.source, f.hand_id) for f in facts) == sorted(("import", i) for i in stored)
        again = db.submit(lambda c: store_imported(c, owner, rows, 100)).result()
        assert again == ["import_duplicate"] * len(rows)  # and no second facts row
        assert db.read_sync(lambda c: own_stats(c, owner))[0]["hands"] == len(rows)
    finally:
        db.close()
