"""A hand stored as played gives, when asked for, the very texts the room stored before.

The room used to write each finished hand's PHH and PokerStars text as it stored
the hand; it now stores the hand as played (stud.history.played) and writes them
when they are asked for. Every history the room serves must stay the same byte
for byte: the record made from the stored hand is checked equal to the one the
stored PHH gave, over many hands of the three games, and a room's endpoints are
checked to serve the same bytes for a row stored either way (a database written
by the earlier version keeps its rows), to a spectator and to every player, on
SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, update

from stud.cards import Deck
from stud.fairness import Shuffle
from stud.game import Hand, TableConfig, variant
from stud.history import (
    HistoryError,
    Placing,
    Tournament,
    read_phh,
    write_phh,
    write_pokerstars_hand,
)
from stud.history.played import dump_played, load_played
from stud.server.app import create_app
from stud.server.http.deps import COOKIE
from stud.server.http.histories import for_viewer
from stud.server.room.room import RoomConfig
from stud.server.storage import Database, Store, TableSpec
from stud.server.storage import schema as s
from stud.table.engine import EngineHand, start_engine_hand
from stud.table.heading import Heading
from stud.table.histories import played_hand, write_histories

GAMES = ("stud", "stud8", "razz")
NAMES = ("ann", "Bob_2", 'Zoë "Z"', "back\\slash", "O'Neil", "  two  spaces", "漢字", "x#y=z")


@dataclass
class Played:
    """A finished hand at a table and the headings its histories are written with."""

    hand: EngineHand
    hand_id: int
    table_name: str
    names: list[str]
    options: dict[str, Any]

    def eager(self) -> tuple[str, str]:
        """The texts as the room wrote them when it stored the hand (the earlier version)."""
        return write_histories(
            self.hand.hand, self.heading(), self.hand.seats, shuffle=self.hand.shuffle
        )

    def played(self) -> str:
        """The hand as the room stores it now."""
        return self.hand.played(self.heading())

    def heading(self) -> Heading:
        return Heading(self.hand_id, self.table_name, self.names, **self.options)


def play_hand(game: str, rng: random.Random, hand_id: int) -> Played:
    """A hand of 2-8 players at random seats, played to its end by random legal actions.

    Small stacks make all-ins and side pots; most hands are dealt from a committed
    shuffle, some from a seeded deck (no shuffle), some burn cards; a third are
    tournament hands, some closing with placings.
    """
    n = rng.randint(2, 8)
    seats = sorted(rng.sample(range(8), n))
    stacks = [rng.choice((12, 45, 100, 400)) for _ in range(n)]
    hand: EngineHand
    if rng.random() < 0.15:  # burn cards: the engine's own hand, as no room table deals one
        config = TableConfig(game=variant(game), ante=2, bring_in=5, small_bet=10, big_bet=20,
                             stacks=tuple(stacks), burn_cards=True)  # fmt: skip
        hand = EngineHand(Hand(config, deck=Deck(rng.randrange(2**32))), seats)
    else:
        shuffle = None
        if rng.random() < 0.8:
            seeds = [rng.choice(("", f"{rng.randrange(10**6):06d}")) for _ in range(n)]
            shuffle = Shuffle.deal(f"{hand_id}-1", f"{rng.randrange(2**256):064x}", seeds)
        raked = rng.random() < 0.3
        port, _ = start_engine_hand(
            game, 2, 5, 10, 20, stacks, seats, rng.randrange(2**32), shuffle=shuffle,
            rake_percent=5.0 if raked else 0.0, rake_cap=rng.choice((None, 3)),
        )  # fmt: skip
        assert isinstance(port, EngineHand)
        hand = port
    while not hand.over:
        legal = {option.action: option for option in hand.legal()}
        passive = [legal[a] for a in ("check", "call", "bring-in") if a in legal]
        wagers = [legal[a] for a in ("complete", "bet", "raise") if a in legal]
        roll = rng.random()
        pick = (
            legal["fold"] if roll < 0.12 and "fold" in legal
            else rng.choice(wagers) if roll < 0.4 and wagers
            else rng.choice(passive or list(legal.values()))
        )  # fmt: skip
        assert hand.actor is not None
        hand.act(hand.actor, pick.action, pick.to)
    options: dict[str, Any] = {
        "max_seats": 8,
        "time": datetime.fromtimestamp(1_764_000_000 + hand_id * 37.123456, UTC),
    }
    if hand_id % 3 == 0:
        placings = tuple(
            Placing(i, n + 10 - i, rng.choice((None, 150))) for i in range(rng.randint(0, 2))
        )
        options["tournament"] = Tournament(str(hand_id // 3), "100+10", None, "IV", placings)
    names = [rng.choice(NAMES) + str(i) for i in range(n)]
    return Played(hand, hand_id, rng.choice(("Table", "Zoë's 'razz' #2")), names, options)


def hands(seed: int, per_game: int) -> Iterator[Played]:
    rng = random.Random(seed)
    for index in range(per_game * len(GAMES)):
        yield play_hand(GAMES[index % len(GAMES)], rng, 100 + index)


@pytest.mark.slow
def test_the_stored_hand_reads_back_as_its_phh_did() -> None:
    """Over 600 hands: the record of the hand as played equals the stored PHH's, read back,
    so every text written from it (any viewer, either format) is the same."""
    for played in hands(seed=7, per_game=200):
        phh, pokerstars = played.eager()
        record = load_played(played.played())
        assert record == read_phh(phh), played.hand_id
        # The house's copies themselves, written again from the stored hand.
        assert (write_phh(record), write_pokerstars_hand(record)) == (phh, pokerstars)


@pytest.mark.slow
def test_every_viewer_gets_the_same_texts() -> None:
    for played in hands(seed=11, per_game=30):
        phh, _ = played.eager()
        before, now = read_phh(phh), load_played(played.played())
        for viewer in (None, *range(len(played.names))):
            old, new = for_viewer(before, viewer), for_viewer(now, viewer)
            assert write_phh(new) == write_phh(old)
            assert write_pokerstars_hand(new) == write_pokerstars_hand(old)


def test_a_hand_not_over_has_nothing_to_store() -> None:
    config = TableConfig(game=variant("stud"), ante=1, bring_in=2, small_bet=5, big_bet=10,
                         stacks=(100, 100))  # fmt: skip
    with pytest.raises(ValueError, match="not over"):
        played_hand(Hand(config, deck=Deck(1)), Heading(1, "t", ["a", "b"]), [0, 1])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        '{"format": 99}',
        '{"format": 1, "types": ["hand_started"], "events": []}',
    ],
)
def test_a_damaged_stored_hand_is_refused_by_name(text: str) -> None:
    with pytest.raises(HistoryError, match="the stored hand cannot be read"):
        load_played(text)


def test_a_stored_hand_with_a_bad_card_is_refused() -> None:
    played = next(hands(seed=3, per_game=1)).played()
    damaged = played.replace('"up":[', '"up":[77,', 1)
    with pytest.raises(HistoryError, match="the stored hand cannot be read"):
        load_played(damaged)
    # The layout as documented: one type per event, then the headings.
    assert dump_played([], names=[], seat_numbers=[], hand_id="1").startswith(
        '{"format":1,"types":[],"events":[]'
    )


# -- a room's endpoints, for rows stored either way ------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, database_factory: Callable[[str], str]) -> str:
    return database_factory(str(request.param))


SPEC = TableSpec(
    name="Histories", game="stud", ante=2, bring_in=5, small_bet=10, big_bet=20, seats=8,
    bots=0, min_buy_in=10, max_buy_in=1000,
)  # fmt: skip


def store_twice(conn: Connection, store: Store, played: Played, table_id: int,
                accounts: list[int]) -> tuple[int, int]:  # fmt: skip
    """The hand stored as the earlier version stored it (its texts) and as the room does now."""
    config = played.hand.hand.config
    players = [
        {"seat": seat, "account_id": account, "name": name, "stack": stack}
        for seat, account, name, stack in zip(
            played.hand.seats, accounts, played.names, config.stacks, strict=False
        )
    ]
    phh, pokerstars = played.eager()
    rows = []
    for played_text in (None, played.played()):
        hand_id = store.start_hand(conn, table_id, 1, config.game.code, players)
        store.finish_hand(conn, table_id, hand_id, {}, 0, {"results": []}, played_text,
                          committed={})  # fmt: skip
        rows.append(hand_id)
    old, new = rows
    hands = s.hands.c
    conn.execute(update(s.hands).where(hands.id == old).values(phh=phh, pokerstars=pokerstars))
    # The same times in both rows, so whole answers can be compared.
    conn.execute(update(s.hands).where(hands.id.in_(rows)).values(started_at=1.5, finished_at=2.5))
    return old, new


@pytest.mark.slow
def test_the_endpoints_serve_the_same_bytes_for_rows_stored_either_way(database_url: str) -> None:
    db = Database(database_url)
    db.start()
    store = db.store

    def fill(conn: Connection) -> tuple[list[int], list[tuple[tuple[int, int], int]]]:
        table_id = store.create_table(conn, SPEC, None).id
        accounts = [store.create_account(conn, f"p{i}", "user").id for i in range(8)]
        for account in accounts:
            store.create_session(conn, account, f"token-{account}", 3600)
        pairs = [
            (store_twice(conn, store, played, table_id, accounts), len(played.names))
            for played in hands(seed=5, per_game=6)
        ]
        return accounts, pairs

    accounts, pairs = db.write_sync(fill)
    db.close()
    config = RoomConfig(default_tables=(), default_tournaments=())
    with TestClient(create_app(Database(database_url), config, start_engine_hand)) as client:
        for (old, new), players in pairs:
            # A spectator, each player, and (but for a hand of eight) one who did not play.
            for viewer in (None, *accounts[: players + 1]):
                cookies = {} if viewer is None else {COOKIE: f"token-{viewer}"}
                client.cookies.clear()
                client.cookies.update(cookies)
                for suffix in ("", "/phh", "/pokerstars", "/replay"):
                    before = client.get(f"/api/hands/{old}{suffix}")
                    after = client.get(f"/api/hands/{new}{suffix}")
                    assert before.status_code == after.status_code == 200, suffix
                    if suffix in ("/phh", "/pokerstars"):
                        assert after.content == before.content, (old, viewer, suffix)
                    else:  # the same but for the row's id
                        assert after.json() == {**before.json(), "id": new}, (old, viewer)
                        assert len(after.content) == len(before.content) + len(str(new)) - len(
                            str(old)
                        )
