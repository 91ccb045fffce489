"""An upload of PokerStars hand histories read into rows to store, and a reason for each hand
refused: the work of ``POST /api/me/imports`` that runs in a worker process, never on the
event loop that runs the tables (:mod:`stud.server.http.offload`).

The body is a ``multipart/form-data`` request of one or more text files. Each file must be
UTF-8 PokerStars text; each hand in it is read by the project's reader
(:func:`stud.history.read_pokerstars`) and replayed through the engine
(:func:`stud.history.replay`), so a stored hand always replays. A hand that fails either
is refused with its reason and changes nothing; the others are kept. What is stored is the
hand in the project's own history format (PHH text) with a few columns a list needs, and
the uploader's facts row for the stats (stud.server.storage.facts.imported_facts).
Past :class:`ImportLimits` the whole upload is refused (:class:`UploadRefused`) before any
hand is read.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any, Final

from stud.history import HandRecord, HistoryError, read_pokerstars, replay, write_phh
from stud.history.pokerstars_read import HEADER, split_hands
from stud.server.storage.facts import imported_facts

SITE: Final = "pokerstars"
STUD_GAMES: Final = re.compile(r"7 Card Stud|Razz", re.IGNORECASE)
"""What a PokerStars header names for the three games (Hi/Lo included); any other is refused."""
MAX_FILE_NAME: Final = 255


@dataclass(frozen=True, slots=True)
class ImportLimits:
    """How much one upload and one account may hold (docs/rest.md, "Imported hands")."""

    max_bytes: int = 8 * 1024 * 1024
    """The request's body at most (413 ``upload_too_large`` past it, before it is read)."""
    max_files: int = 20
    """Files in one upload (413 ``too_many_files``)."""
    max_hands: int = 5000
    """Hands in one upload, counted before any is read (413 ``too_many_hands``)."""
    per_account: int = 100_000
    """Imported hands an account keeps; hands past it are refused (``import_quota``)."""
    seconds: float = 120.0
    """The worker's time for one upload: hands not replayed by then are refused
    (``import_time_limit``), so a file of hands that are slow to check on purpose (a
    showdown whose hidden cards the replay must try every way) holds the worker that long
    at most."""


class UploadRefused(Exception):
    """The whole upload refused (too big, not multipart, no file): a REST code, the English
    words and the values they need. Made in the worker process, raised again in the server."""

    def __init__(self, code: str, message: str, params: dict[str, int | str] | None = None):
        super().__init__(code, message, params)
        self.code = code
        self.message = message
        self.params = params or {}


@dataclass
class Upload:
    """What an upload holds: the rows to store and each refusal, in file order."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    """A row per hand to store (:func:`hand_row`), with ``place``: the hand's in its file."""
    refused: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def refuse(
        self,
        code: str,
        detail: str,
        file: str,
        hand: int | None = None,
        hand_id: str | None = None,
        line: int | None = None,
    ) -> None:
        self.refused.append(
            {"file": file, "hand": hand, "hand_id": hand_id, "line": line, "code": code,
             "detail": detail}
        )  # fmt: skip


def file_parts(body: bytes, content_type: str, limits: ImportLimits) -> list[tuple[str, bytes]]:
    """The files of a ``multipart/form-data`` body: (name, bytes) each."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
    message = BytesParser(policy=HTTP).parsebytes(head + body)
    assert isinstance(message, EmailMessage)
    if message.get_content_type() != "multipart/form-data":
        raise UploadRefused("not_multipart", "send the files as multipart/form-data")
    files = []
    for part in message.iter_parts() if message.is_multipart() else ():
        assert isinstance(part, EmailMessage)
        name = part.get_filename()
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if name is None or not (name or data):
            continue  # a plain field, or a file input left empty
        files.append((readable_name(name), data))
    if not files:
        raise UploadRefused("no_files", "the upload holds no file")
    if len(files) > limits.max_files:
        raise UploadRefused(
            "too_many_files",
            f"an upload holds at most {limits.max_files} files, this one {len(files)}",
            {"max": limits.max_files, "count": len(files)},
        )
    return files


def readable_name(name: str) -> str:
    """A file's name as sent (browsers send UTF-8 raw), made printable and bounded."""
    raw = name.encode("utf-8", "surrogateescape")
    text = raw.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text).split("/")[-1]
    return text[:MAX_FILE_NAME] or "?"


def decode(data: bytes) -> str:
    """A file's text: UTF-8, a byte-order mark allowed; ValueError naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text: byte {error.start} is not valid UTF-8") from None


def read_upload(body: bytes, content_type: str, limits: ImportLimits) -> Upload:
    """Every file of an upload read: a row per hand to store, a refusal per hand refused."""
    files = file_parts(body, content_type, limits)
    upload = Upload(files=[name for name, _ in files])
    texts: list[tuple[str, str]] = []
    for name, data in files:
        try:
            text = decode(data)
        except ValueError as error:
            upload.refuse("import_encoding", str(error), name)
            continue
        if not any(HEADER.match(lines[0][1]) for _, lines in split_hands(text)):
            upload.refuse("import_not_pokerstars", "no 'PokerStars Hand #' line in it", name)
            continue
        texts.append((name, text))
    count = sum(1 for _, text in texts for _ in split_hands(text))
    if count > limits.max_hands:
        raise UploadRefused(
            "too_many_hands",
            f"an upload holds at most {limits.max_hands} hands, this one {count}",
            {"max": limits.max_hands, "count": count},
        )
    deadline = time.monotonic() + limits.seconds
    for name, text in texts:
        read_file_hands(upload, name, text, deadline)
    return upload


def read_file_hands(upload: Upload, name: str, text: str, deadline: float) -> None:
    """One file's hands into ``upload``: each read, replayed, and kept or refused alone."""
    headers = [lines[0][1] for _, lines in split_hands(text)]
    result = read_pokerstars(text, name)
    for error in result.errors:
        header = headers[error.hand - 1] if error.hand else ""
        code = "import_unreadable"
        match = HEADER.match(header)
        if match and not STUD_GAMES.search(match["rest"]):
            code = "import_wrong_game"
        upload.refuse(code, error.message, name, error.hand, error.hand_id, error.line)
    for place, record in zip(result.places, result.hands, strict=True):
        if time.monotonic() > deadline:
            detail = "the upload's time was up before this hand was checked: upload it again"
            upload.refuse("import_time_limit", detail, name, place, record.hand_id)
            continue
        try:
            upload.rows.append({**hand_row(record, name), "place": place})
        except HistoryError as error:
            upload.refuse("import_not_replayable", error.message, name, place, record.hand_id)


def hand_row(record: HandRecord, file_name: str) -> dict[str, Any]:
    """The row of one hand read from a file; HistoryError if the engine cannot replay it."""
    report = replay(record, record.label)
    if not report.ok or report.stacks is None:
        raise HistoryError(report.problems[0] if report.problems else "the hand does not replay")
    phh = write_phh(record)
    hero = record.hero
    net = None if hero is None else report.stacks[hero] - record.seats[hero].stack
    when = None
    if record.time is not None:
        when = record.time.strftime("%Y-%m-%d %H:%M:%S")
        if record.time_zone:
            when += f" {record.time_zone}"
    return {
        "site": SITE,
        "site_hand_id": record.hand_id or "sha256:" + hashlib.sha256(phh.encode()).hexdigest()[:64],
        "game": record.game,
        "played_at": when,
        "file_name": file_name,
        "table_name": None if record.table is None else record.table[:64],
        "hero": hero,
        "hero_name": None if hero is None else record.seats[hero].name[:64],
        "hero_net": net,
        "pot": record.total_pot,
        "decimals": record.decimals,
        "currency": record.currency,
        "phh": phh,
        "facts": imported_facts(record, time.time()),
    }
