"""An account's own PokerStars hands: imported whole or refused hand by hand with a reason,
bounded, stored in the project's history format, replayable, and never anyone else's.

The real PokerStars files are the corpus tests/test_history_corpus.py reads (the project's
own PokerStars files when it is absent); the hostile ones are made here: a hand cut short,
a Hold'em hand, bytes that are not UTF-8, text that is no hand history, a hand whose
amounts break the rules, and uploads past each bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stud.history import HandRecord, read_phh, read_pokerstars
from stud.history.describe import pokerstars_description
from stud.history.pokerstars_write import write_pokerstars
from stud.history.samples import sample_hand
from stud.server.app import create_app
from stud.server.http.deps import COOKIE
from stud.server.http.imports import LIMITS
from stud.server.room.room import RoomConfig
from stud.server.storage import Database
from stud.server.storage.imports import imported_records_of
from stud.table.engine import start_engine_hand
from test_history_corpus import CORPUS, HAVE_CORPUS

ACCOUNTS = ("alice", "bob", "carol", "dora")


def corpus_files(folder: Path) -> list[tuple[str, bytes]]:
    """The corpus's PokerStars files, or (without it) files the project writes itself."""
    if HAVE_CORPUS:
        return [(p.name, p.read_bytes()) for p in sorted(CORPUS.glob("*/*.txt"))]
    out = []
    for name, game, cash in (("stud.txt", "stud", True), ("stud8.txt", "stud8", True),
                             ("razz.txt", "razz", False)):  # fmt: skip
        hands = [sample_hand(game, 2 + n % 7, 700 + n, cash=cash) for n in range(12)]  # type: ignore[arg-type]
        out.append((name, write_pokerstars(hands, describe=pokerstars_description).encode()))
    return out


class Room:
    """A room of the module's own, with two accounts logged in by their session tokens."""

    def __init__(self, client: TestClient, db: Database, ids: dict[str, int]) -> None:
        self.client = client
        self.db = db
        self.ids = ids

    def as_(self, who: str | None) -> TestClient:
        """The client with ``who``'s session cookie (None: no cookie; 'guest:TOKEN')."""
        self.client.cookies.clear()
        if who is not None:
            token = who.split(":", 1)[1] if who.startswith("guest:") else f"token-{who}"
            self.client.cookies.set(COOKIE, token)
        return self.client

    def upload(self, who: str, files: list[tuple[str, bytes]], **kw: Any) -> Any:
        parts = [("files", (name, data, "text/plain")) for name, data in files]
        return self.as_(who).post("/api/me/imports", files=parts, **kw)

    def count(self, who: str) -> int:
        return len(self.as_(who).get("/api/me/imports").json())


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    url = f"sqlite:///{tmp_path_factory.mktemp('imports') / 'room.sqlite3'}"
    db = Database(url)
    db.start()

    def fill(conn: Any) -> dict[str, int]:
        ids = {}
        for name in ACCOUNTS:
            ids[name] = db.store.create_account(conn, name, "user").id
            db.store.create_session(conn, ids[name], f"token-{name}", 3600)
        return ids

    ids = db.write_sync(fill)
    db.close()
    config = RoomConfig(default_tables=(), default_tournaments=())
    app_db = Database(url)
    with TestClient(create_app(app_db, config, start_engine_hand)) as client:
        yield Room(client, app_db, ids)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    return corpus_files(tmp_path_factory.mktemp("corpus"))


def hands_in(files: list[tuple[str, bytes]]) -> int:
    return sum(len(read_pokerstars(data.decode("utf-8-sig")).hands) for _, data in files)


@pytest.mark.slow
def test_the_corpus_imports_whole_and_reads_back(
    room: Room, corpus: list[tuple[str, bytes]]
) -> None:
    answer = room.upload("alice", corpus)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    read = [r for _, data in corpus for r in read_pokerstars(data.decode("utf-8-sig")).hands]
    first: dict[str | None, HandRecord] = {}
    for record in read:
        first.setdefault(record.hand_id, record)
    distinct = list(first.values())
    # A hand in two files (the corpus has some) is kept once: the second is refused as such.
    twice = len(read) - len(distinct)
    assert [r["code"] for r in body["refused"]] == ["import_duplicate"] * twice
    assert body["imported"] == len(distinct) == len(body["ids"])
    assert body["files"] == [name for name, _ in corpus]
    listed = room.as_("alice").get("/api/me/imports").json()
    assert sorted(h["id"] for h in listed) == sorted(body["ids"])
    assert {h["game"] for h in listed} == {"stud", "stud8", "razz"}
    # Stored in the project's format: each stored PHH is the very record read from the file.
    stored = room.db.read_sync(lambda c: list(imported_records_of(c, room.ids["alice"])))
    assert [read_phh(phh) for _, _, phh in stored] == distinct
    assert [hero for _, hero, _ in stored] == [r.hero for r in distinct]
    # Each replays, with the uploader's seat as "you".
    for hand in listed[:12]:
        replay = room.as_("alice").get(f"/api/me/imports/{hand['id']}/replay")
        assert replay.status_code == 200, replay.text
        data = replay.json()
        assert data["events"][0]["type"] == "hand_started"
        assert data["imported"] is True and data["site_hand_id"] == hand["site_hand_id"]
        if hand["hero"] is not None:
            assert data["you"] is not None


@pytest.mark.slow
def test_a_second_import_refuses_every_hand_as_already_there(
    room: Room, corpus: list[tuple[str, bytes]]
) -> None:
    before = room.count("alice")
    if before == 0:
        room.upload("alice", corpus)
        before = room.count("alice")
    body = room.upload("alice", corpus[:2]).json()
    assert body["imported"] == 0
    assert {r["code"] for r in body["refused"]} == {"import_duplicate"}
    assert len(body["refused"]) == hands_in(corpus[:2])  # (no hand twice in these two)
    assert room.count("alice") == before


HOLDEM = """PokerStars Hand #123456789012:  Hold'em No Limit ($0.01/$0.02 USD) - \
2020/01/02 10:00:00 ET
Table 'Holdem I' 6-max Seat #1 is the button
Seat 1: Hero ($2.00 in chips)
Seat 2: Villain ($2.00 in chips)
Hero: posts small blind $0.01
Villain: posts big blind $0.02
*** HOLE CARDS ***
Dealt to Hero [Ah Kh]
Hero: folds
Uncalled bet ($0.01) returned to Villain
Villain collected $0.02 from pot
*** SUMMARY ***
Total pot $0.02 | Rake $0
"""


def written(seed: int, count: int) -> str:
    hands = [sample_hand("stud", 2 + n % 5, seed + n) for n in range(count)]
    return write_pokerstars(hands, describe=pokerstars_description)


def out_of_turn() -> str:
    """A hand the reader takes but the rules refuse: two players' checks told in the wrong
    order (the engine knows whose turn it is from the up cards)."""
    for seed in range(9300, 9400):
        lines = written(seed, 1).splitlines()
        for i in range(len(lines) - 1):
            if lines[i].endswith(": checks") and lines[i + 1].endswith(": checks"):
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
                return "\n".join(lines) + "\n"
    raise AssertionError("no hand with two checks in a row")


def test_bad_files_are_refused_hand_by_hand_and_the_rest_kept(room: Room) -> None:
    good = written(9100, 3)
    blocks = written(9200, 3).split("\n\n\n")
    lines = blocks[1].splitlines()
    truncated = "\n\n\n".join([blocks[0], "\n".join(lines[: len(lines) // 2])])
    broken = out_of_turn()
    files = [
        ("good.txt", good.encode()),
        ("truncated.txt", truncated.encode()),
        ("holdem.txt", HOLDEM.encode()),
        ("latin1.txt", "PokerStars Hand #1: Zo\xeb".encode("latin-1")),
        ("notes.txt", b"just some notes\nabout poker\n"),
        ("broken.txt", broken.encode()),
    ]
    before = room.count("bob")
    answer = room.upload("bob", files)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["imported"] == 3 + 1
    by_file = {r["file"]: r for r in body["refused"]}
    assert set(by_file) == {"truncated.txt", "holdem.txt", "latin1.txt", "notes.txt", "broken.txt"}
    assert len(body["refused"]) == 5
    assert by_file["truncated.txt"]["code"] == "import_unreadable"
    assert by_file["truncated.txt"]["hand"] == 2 and by_file["truncated.txt"]["line"] > 0
    assert by_file["holdem.txt"]["code"] == "import_wrong_game"
    assert by_file["holdem.txt"]["hand_id"] == "123456789012"
    assert by_file["latin1.txt"]["code"] == "import_encoding"
    assert "byte 22" in by_file["latin1.txt"]["detail"]
    assert by_file["notes.txt"]["code"] == "import_not_pokerstars"
    assert by_file["broken.txt"]["code"] == "import_not_replayable"
    assert all(r["detail"] for r in body["refused"])
    assert room.count("bob") == before + 4


def multipart(parts: list[tuple[str, bytes]], boundary: str = "b0undary") -> tuple[bytes, str]:
    out = b""
    for name, data in parts:
        head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; "
                f"filename=\"{name}\"\r\nContent-Type: text/plain\r\n\r\n")  # fmt: skip
        out += head.encode() + data + b"\r\n"
    return out + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def too_many_files() -> list[tuple[str, bytes]]:
    return [(f"f{i}.txt", written(1, 1).encode()) for i in range(LIMITS.max_files + 1)]


def too_many_hands() -> list[tuple[str, bytes]]:
    """Hands are counted before any is read: headers alone make the count."""
    text = "".join(f"PokerStars Hand #{i}: x\n\n" for i in range(LIMITS.max_hands + 1))
    return [("many.txt", text.encode())]


@pytest.mark.parametrize(
    ("make", "status", "code"),
    [
        (lambda: [("huge.txt", b"x" * (LIMITS.max_bytes + 1))], 413, "upload_too_large"),
        (too_many_files, 413, "too_many_files"),
        (too_many_hands, 413, "too_many_hands"),
        (lambda: [], 422, "no_files"),
    ],
)
def test_an_upload_past_a_bound_is_refused_whole(
    room: Room, make: Callable[[], list[tuple[str, bytes]]], status: int, code: str
) -> None:
    before = room.count("bob")
    body, content_type = multipart(make())
    answer = room.as_("bob").post(
        "/api/me/imports", content=body, headers={"Content-Type": content_type}
    )
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code
    if code != "no_files":
        assert answer.json()["params"]["max"] > 0
    assert room.count("bob") == before


def test_a_body_without_its_length_is_cut_at_the_bound(room: Room) -> None:
    """Sent in chunks, with no Content-Length: refused as soon as it passes the bound."""
    body, content_type = multipart([("huge.txt", b"y" * (LIMITS.max_bytes + 10))])
    chunks = (body[i : i + 65536] for i in range(0, len(body), 65536))
    answer = room.as_("bob").post(
        "/api/me/imports", content=chunks, headers={"Content-Type": content_type}
    )
    assert answer.status_code == 413 and answer.json()["code"] == "upload_too_large"


def test_a_body_that_is_not_multipart_is_refused(room: Room) -> None:
    answer = room.as_("bob").post("/api/me/imports", json={"files": written(1, 1)})
    assert answer.status_code == 422 and answer.json()["code"] == "not_multipart"


@pytest.mark.slow
def test_imported_hands_are_never_served_to_anyone_else(
    room: Room, corpus: list[tuple[str, bytes]]
) -> None:
    if room.count("alice") == 0:
        room.upload("alice", corpus)
    mine = [h["id"] for h in room.as_("alice").get("/api/me/imports").json()]
    theirs = {h["id"] for h in room.as_("bob").get("/api/me/imports").json()}
    assert mine and not theirs & set(mine)
    guest = room.as_(None).post("/api/guest")
    assert guest.status_code == 200
    guest_token = guest.cookies.get(COOKIE)
    assert guest_token
    hand = mine[0]
    for who, status in (("bob", 404), (f"guest:{guest_token}", 404), (None, 401)):
        client = room.as_(who)
        listed = client.get("/api/me/imports")
        assert listed.status_code == (401 if who is None else 200)
        if who is not None:
            assert not {h["id"] for h in listed.json()} & set(mine)
        for suffix in ("/replay", "/equity"):
            answer = client.get(f"/api/me/imports/{hand}{suffix}")
            assert answer.status_code == status, (who, suffix, answer.text)
            assert answer.json()["code"] == ("login_required" if who is None else "no_hand")
    # The room's hands are another numbering: an imported id is no room hand.
    for suffix in ("", "/replay", "/equity", "/phh", "/pokerstars"):
        assert room.as_("alice").get(f"/api/hands/{hand}{suffix}").status_code == 404
    # A page of another site: its upload is refused before it is read, and its reads come
    # back without the header that would let the page see them.
    before = room.count("alice")
    foreign = {"Origin": "https://evil.example"}
    answer = room.upload("alice", corpus[:1], headers=foreign)
    assert answer.status_code == 403 and answer.json()["code"] == "cross_site"
    assert room.count("alice") == before
    for path in ("/api/me/imports", f"/api/me/imports/{hand}/replay"):
        read = room.as_("alice").get(path, headers=foreign)
        assert "access-control-allow-origin" not in read.headers


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_storage_keeps_a_hand_once_and_reads_only_the_owners(
    backend: str, database_factory: Callable[[str], str], corpus: list[tuple[str, bytes]]
) -> None:
    """Through the writer thread (on PostgreSQL a pipelined transaction): new ids in order, a
    hand already kept refused, the quota applied, and each account reads its own rows only."""
    from stud.server.http.imports_read import ImportLimits, read_upload
    from stud.server.storage.imports import imported_count, imported_hand, store_imported

    body, content_type = multipart(corpus[:3])
    rows = read_upload(body, content_type, ImportLimits()).rows
    assert len(rows) >= 3
    db = Database(database_factory(backend))
    db.start()
    try:
        owner, other = db.write_sync(
            lambda c: [db.store.create_account(c, n, "user").id for n in ("own", "oth")]
        )
        first = db.submit(lambda c: store_imported(c, owner, rows[:2], 100)).result()
        assert all(isinstance(i, int) for i in first) and first == sorted(first)
        again = db.submit(lambda c: store_imported(c, owner, rows, len(rows) - 1)).result()
        assert again[:2] == ["import_duplicate"] * 2
        assert all(isinstance(i, int) for i in again[2:-1]) and again[-1] == "import_quota"
        assert db.read_sync(lambda c: imported_count(c, owner)) == len(rows) - 1
        # The other account may store the same hands, and reads none of the owner's.
        assert all(isinstance(i, int) for i in db.submit(
            lambda c: store_imported(c, other, rows[:1], 100)).result())  # fmt: skip
        assert db.read_sync(lambda c: imported_hand(c, other, int(first[0]))) is None
        mine = db.read_sync(lambda c: imported_hand(c, owner, int(first[0])))
        assert mine is not None and read_phh(mine["phh"]).hand_id == rows[0]["site_hand_id"]
    finally:
        db.close()
