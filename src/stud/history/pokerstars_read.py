"""Read PokerStars hand histories of 7 Card Stud, Stud Hi/Lo and Razz, cash and tournament.

A file holds hands separated by blank lines. Each hand is read on its own:
one that cannot be read becomes a :class:`HistoryError` naming the file, the
hand (its place in the file and its PokerStars number) and the line, and the
other hands still load. Lines about the room rather than the hand (players
joining, leaving, disconnecting, chatting, sitting out, finishing a
tournament) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Final

from stud.cards import Card
from stud.fairness import Shuffle
from stud.history.errors import HistoryError
from stud.history.ledger import Ledger
from stud.history.model import (
    Action,
    Collect,
    Game,
    HandRecord,
    Kind,
    Muck,
    Placing,
    Seat,
    Show,
    Slot,
    Stakes,
    Tournament,
)
from stud.history.money import SYMBOLS, to_units

GAME_NAMES: Final[dict[str, Game]] = {
    "7 card stud": "stud",
    "7 card stud hi/lo": "stud8",
    "razz": "razz",
}
_GAME = r"(?P<game>7 Card Stud Hi/Lo|7 Card Stud|Razz)"
_TIME = (
    r"(?P<time>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2}) (?P<zone>[A-Z]+)"
    r"(?: \[(?P<et>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2}) ET\])?"
)
HEADER = re.compile(r"^PokerStars (?:Game|Hand) #(?P<id>\d+): +(?P<rest>.*)$")
CASH = re.compile(
    r"^(?:(?P<mix>[^(]+?) \()?" + _GAME + r" Limit(?:, | \()"
    r"(?P<sb>[^/ ]+)/(?P<bb>[^/ )]+)(?: (?P<cur>[A-Z]{3}))?\)+ - " + _TIME + "$",
    re.IGNORECASE,
)
TOURNAMENT = re.compile(
    r"^Tournament #(?P<tid>\d+), (?P<buyin>\S+?)(?: (?P<bcur>[A-Z]{3}))? "
    r"(?:(?P<mix>[^(]+?) \()?" + _GAME + r" Limit\)? - Level (?P<level>[IVXLCDM]+) "
    r"\((?P<sb>\d+)/(?P<bb>\d+)\) - " + _TIME + "$",
    re.IGNORECASE,
)
TABLE = re.compile(r"^Table '(?P<table>.*)' (?P<max>\d+)-max(?: .*)?$")
SEAT = re.compile(
    r"^Seat (?P<n>\d+): (?P<name>.+) \((?P<stack>[^ ()]+) in chips(?:, [^()]*)?\)"
    r"(?P<out> is sitting out)?$"
)
STREET = re.compile(
    r"^\*\*\* (?:(?P<n>[3-6])(?:rd|th) STREET|(?P<river>RIVER)) \*\*\*(?P<board>.*)$"
)
UNCALLED = re.compile(r"^Uncalled bet \((?P<amount>[^)]+)\) returned to (?P<name>.+)$")
COLLECTED = re.compile(
    r"^(?P<name>.+) collected (?P<amount>\S+) from (?P<pot>pot|main pot|side pot(?:-\d+)?)$"
)
TOTAL = re.compile(
    r"^Total pot (?P<total>\S+)(?P<pots>(?: (?:Main|Side) pot(?:-\d+)? \S+\.)*)"
    r" \| Rake (?P<rake>\S+)$"
)
SHUFFLE = re.compile(
    r"^Shuffle: (?P<scheme>[^ ,]+), hand (?P<hand>[^ ,]+), commitment (?P<commitment>[^ ,]+), "
    r"server seed (?P<seed>[^ ,]+), seeds \[(?P<seeds>[^\]]*)\]$"
)
"""Our own last line: the hand's committed shuffle, seeds revealed (docs/fairness.md)."""
POT_PART = re.compile(r"(Main|Side) pot(?:-(\d+))? (\S+)\.")
CARDS = re.compile(r"\[([^\]]*)\]")
NOISE: Final = tuple(
    re.compile(p)
    for p in (
        r"^.+ joins the table at seat #\d+$",
        r"^.+ leaves the table$",
        r"^.+ is (?:dis)?connected$",
        r"^.+ is sitting out$",
        r"^.+: sits out$",
        r"^.+ has returned$",
        r"^.+ has timed out(?: while (?:being )?disconnected)?$",
        r"^.+ was removed from the table for failing to post$",
        r"^.+ will be allowed to play after the button$",
        r'^.+ said, ".*"$',
        r"^.+ finished the tournament(?: in \d+\w* place)?(?: and received .*)?$",
        r"^.+ wins the tournament and receives .*$",
        r"^.+ re-buys and receives .*$",
        r"^.+ has \d+ seconds? (?:left )?to (?:act|reconnect)$",
        r"^.+ is being treated as all-in$",
    )
)
ALL_IN: Final = " and is all-in"
PLACED: Final = re.compile(
    r"^(?P<place>\d+)(?:st|nd|rd|th) place(?: and received (?P<prize>.+?)\.?)?$"
)
WON: Final = re.compile(r"^(?P<prize>.+?)(?: - congratulations!)?$")
PLAIN: Final = re.compile(r"^\d{1,3}(?:,?\d{3})*$")


@dataclass
class ReadResult:
    """The hands a file held, and an error for each hand that could not be read."""

    hands: list[HandRecord] = field(default_factory=list)
    errors: list[HistoryError] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    """Each hand's place in its file (1 for the first), as errors number hands."""

    def add(self, place: int, record: HandRecord) -> None:
        self.hands.append(record)
        self.places.append(place)


def split_hands(text: str) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """Cut a file into hands: (first line number, [(line number, text), ...]) for each."""
    hand: list[tuple[int, str]] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.lstrip("\ufeff").rstrip()
        if line.startswith("PokerStars "):
            if hand:
                yield start, hand
            hand, start = [], number
        if line:
            hand.append((number, line))
    if hand:
        yield start, hand


def read_pokerstars(text: str, source: str | None = None) -> ReadResult:
    """Read every hand in ``text``; ``source`` names the file in errors."""
    result = ReadResult()
    for ordinal, (_, lines) in enumerate(split_hands(text), start=1):
        hand_id = None
        match = HEADER.match(lines[0][1])
        if match:
            hand_id = match["id"]
        try:
            if not match:
                raise _LineError(lines[0][0], "a hand must start with a 'PokerStars Hand #' line")
            result.add(ordinal, _HandReader(lines).read())
        except _LineError as error:
            result.errors.append(
                HistoryError(
                    error.message, source=source, hand=ordinal, hand_id=hand_id, line=error.line
                )
            )
    return result


def read_pokerstars_file(path: str | Path) -> ReadResult:
    """Read a PokerStars hand-history file (UTF-8, with or without a byte-order mark)."""
    path = Path(path)
    return read_pokerstars(path.read_text(encoding="utf-8-sig"), source=str(path))


class _LineError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _is_noise(line: str) -> bool:
    return any(p.match(line) for p in NOISE)


def _parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.strptime(text, "%Y/%m/%d %H:%M:%S")


class _HandReader:
    """Reads one hand's lines into a record."""

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines = lines
        self.pos = 0
        self.notes: list[str] = []
        self.shuffle: Shuffle | None = None
        self.decimals = 0
        self.symbol = ""

    # -- small helpers -------------------------------------------------------

    def fail(self, message: str, line: int | None = None) -> _LineError:
        if line is None:
            line = self.lines[min(self.pos, len(self.lines) - 1)][0]
        return _LineError(line, message)

    def amount(self, text: str, line: int) -> int:
        body = text
        if body[:1] in SYMBOLS:
            if body[0] != self.symbol:
                raise self.fail(f"amount {text!r} is not in this hand's currency", line)
            body = body[1:]
        elif self.symbol:
            raise self.fail(f"amount {text!r} has no currency symbol", line)
        try:
            return to_units(body, self.decimals)
        except ValueError as error:
            raise self.fail(str(error), line) from None

    def cards(self, text: str, line: int, *, lenient: bool = False) -> list[Slot]:
        slots: list[Slot] = []
        for token in text.split():
            try:
                slots.append(Card.parse(token))
            except ValueError:
                if not lenient:
                    raise self.fail(f"{token!r} is not a card", line) from None
                self.notes.append(f"line {line}: {token!r} is not a card; read as an unknown card")
                slots.append(None)
        return slots

    def name_prefix(self, text: str, suffix: str) -> tuple[int, str] | None:
        """The seat whose name followed by ``suffix`` starts ``text``, and the rest of the text."""
        for name in self.by_length:
            if text.startswith(name + suffix):
                return self.index[name], text[len(name) + len(suffix) :]
        return None

    def seat_named(self, name: str, line: int) -> int:
        if name not in self.index:
            raise self.fail(f"{name!r} is not seated in this hand", line)
        return self.index[name]

    # -- the hand ------------------------------------------------------------

    def read(self) -> HandRecord:
        self.read_header()
        self.read_table_and_seats()
        self.find_players()
        self.ledger = Ledger(Stakes(0, None, self.small_bet, self.big_bet), self.stacks)
        self.read_antes()
        self.read_streets()
        return self.build()

    def read_header(self) -> None:
        number, text = self.lines[0]
        head = HEADER.match(text)
        assert head is not None
        self.hand_id = head["id"]
        rest = head["rest"]
        self.tournament: Tournament | None = None
        match = CASH.match(rest)
        if match is None:
            match = TOURNAMENT.match(rest)
            if match is None:
                raise self.fail(
                    f"not a 7 Card Stud, Stud Hi/Lo or Razz limit hand: {rest!r}", number
                )
            self.tournament = Tournament(
                match["tid"], match["buyin"], match["bcur"], match["level"].upper()
            )
            self.currency = None
        else:
            self.currency = match["cur"]
            symbol = match["sb"][:1]
            if symbol in SYMBOLS:
                self.symbol = symbol
                self.decimals = 2
                self.currency = self.currency or SYMBOLS[symbol]
        self.game: Game = GAME_NAMES[match["game"].lower()]
        self.mix = match["mix"]
        self.small_bet = self.amount(match["sb"], number)
        self.big_bet = self.amount(match["bb"], number)
        self.time = _parse_time(match["time"])
        self.zone = match["zone"]
        self.time_et = _parse_time(match["et"])
        self.pos = 1

    def read_table_and_seats(self) -> None:
        if self.pos >= len(self.lines):
            raise self.fail("the hand ends after its first line")
        number, text = self.lines[self.pos]
        table = TABLE.match(text)
        if table is None:
            raise self.fail(f"expected the 'Table ...' line, not {text!r}", number)
        self.table = table["table"]
        self.max_seats = int(table["max"])
        self.pos += 1
        self.listed: list[Seat] = []
        while self.pos < len(self.lines):
            number, text = self.lines[self.pos]
            seat = SEAT.match(text)
            if seat is None:
                break
            self.listed.append(
                Seat(
                    int(seat["n"]),
                    seat["name"],
                    self.amount(seat["stack"], number),
                    seat["out"] is not None,
                )
            )
            self.pos += 1
        if len({s.name for s in self.listed}) != len(self.listed):
            raise self.fail("two seats have the same name")

    def find_players(self) -> None:
        """Seats in the hand are those that post an ante or are dealt a door card.

        They are taken in the order they first appear there, which is the deal's
        order from the dealer's left (PokerStars starts at seat 1; a room whose
        button moves starts at the button's left), so ties for the first to act
        fall as they did at the table (rules.md R6).
        """
        names = sorted((s.name for s in self.listed), key=len, reverse=True)
        playing: dict[str, int] = {}
        third = False
        for _, text in self.lines[self.pos :]:
            if text.startswith("*** "):
                if third and not text.startswith("*** 3rd"):
                    break
                third = text.startswith("*** 3rd")
            for name in names:
                if text.startswith(name + ": posts the ante ") or (
                    third and text.startswith(f"Dealt to {name} [")
                ):
                    playing.setdefault(name, len(playing))
                    break
        self.seats = sorted(
            (s for s in self.listed if s.name in playing), key=lambda s: playing[s.name]
        )
        self.idle = [s for s in self.listed if s.name not in playing]
        if not 2 <= len(self.seats) <= 8:
            raise self.fail(f"{len(self.seats)} players in the hand; stud needs 2 to 8")
        self.index = {s.name: i for i, s in enumerate(self.seats)}
        self.by_length = sorted(self.index, key=len, reverse=True)
        self.stacks = [s.stack for s in self.seats]
        self.slots: list[list[Slot]] = [[] for _ in self.seats]
        self.hero: int | None = None
        self.community: list[Slot] = []
        self.actions: list[Action] = []
        self.shows: list[Show | Muck] = []
        self.collects: list[Collect] = []
        self.no_low: list[int] = []
        self.placings: list[Placing] = []
        self.antes: list[int] = []
        self.bring_in: int | None = None
        self.showdown = False
        self.street_seen: int | None = None

    def read_antes(self) -> None:
        while self.pos < len(self.lines):
            number, text = self.lines[self.pos]
            if text.startswith("*** "):
                return
            self.pos += 1
            if _is_noise(text):
                continue
            found = self.name_prefix(text, ": posts the ante ")
            if found is None:
                raise self.fail(f"unexpected line before 3rd street: {text!r}", number)
            seat, rest = found
            all_in = rest.endswith(ALL_IN)
            amount = self.amount(rest.removesuffix(ALL_IN), number)
            try:
                posted_all_in = self.ledger.post_ante(seat, amount)
            except ValueError as error:
                raise self.fail(str(error), number) from None
            if posted_all_in != all_in:
                raise self.fail("the ante's all-in mark disagrees with the stack", number)
            self.antes.append(amount)
        raise self.fail("the hand ends before 3rd street")

    def read_streets(self) -> None:
        section = "antes"
        while self.pos < len(self.lines):
            number, text = self.lines[self.pos]
            self.pos += 1
            street = STREET.match(text)
            if street is not None:
                if section in ("showdown", "summary"):
                    raise self.fail(f"a street after the {section}", number)
                self.start_street(street, number)
                section = "street"
            elif text == "*** SHOW DOWN ***":
                self.showdown = True
                section = "showdown"
            elif text == "*** SUMMARY ***":
                section = "summary"
                self.read_summary()
                return
            elif section == "summary":
                raise self.fail(f"unexpected line: {text!r}", number)
            elif self.read_placing(text) or _is_noise(text):
                continue
            elif not self.read_finish_line(text, number):
                if section != "street" or self.collects:
                    raise self.fail(f"unexpected line: {text!r}", number)
                self.read_street_line(text, number)
        raise self.fail("the hand has no *** SUMMARY ***")

    def start_street(self, match: re.Match[str], number: int) -> None:
        street = 7 if match["river"] else int(match["n"])
        expected = 3 if self.street_seen is None else self.street_seen + 1
        if street != expected:
            raise self.fail(f"street {street} where street {expected} should come", number)
        self.street_seen = street
        self.ledger.start_street(street)
        live = self.ledger.live()
        board = match["board"].strip()
        if board:
            if street != 7:
                raise self.fail("only the river can bring a community card", number)
            cards = CARDS.findall(board)
            if len(cards) != 1:
                raise self.fail(f"unreadable community card {board!r}", number)
            self.community = self.cards(cards[0], number)
            if len(self.community) != 1:
                raise self.fail("one community card, please", number)
            return
        for seat in live:
            self.slots[seat].append(None)
            if street == 3:
                self.slots[seat].extend([None, None])

    def read_street_line(self, text: str, number: int) -> None:
        if text.startswith("Dealt to "):
            self.read_dealt(text, number)
            return
        if text in ("Pair on board - a double bet is allowed", "Betting is capped"):
            return
        uncalled = UNCALLED.match(text)
        if uncalled:
            seat = self.seat_named(uncalled["name"], number)
            amount = self.amount(uncalled["amount"], number)
            self.actions.append(self.money(lambda: self.ledger.give_back(seat, amount), number))
            return
        found = self.name_prefix(text, ": ")
        if found is None:
            raise self.fail(f"unexpected line: {text!r}", number)
        seat, verb = found
        all_in = verb.endswith(ALL_IN)
        verb = verb.removesuffix(ALL_IN)
        ledger = self.ledger
        action: Action
        if verb == "folds":
            action = ledger.fold(seat)
        elif verb == "checks":
            action = ledger.check(seat)
        elif verb.startswith("brings in for "):
            amount = self.amount(verb.removeprefix("brings in for "), number)
            if ledger.street != 3 or any(a.kind is Kind.BRING_IN for a in self.actions):
                raise self.fail("a bring-in that is not the first on 3rd street", number)
            action = self.money(lambda: ledger.bring_in(seat, amount), number)
            if not all_in:
                self.bring_in = amount
        elif verb.startswith("bets "):
            amount = self.amount(verb.removeprefix("bets "), number)
            if ledger.max_bet:
                raise self.fail(
                    "a bet where there is already a bet; PokerStars says raises", number
                )
            action = self.money(
                lambda: ledger.wager_to(seat, ledger.street_in[seat] + amount), number
            )
        elif verb.startswith("calls "):
            amount = self.amount(verb.removeprefix("calls "), number)
            action = self.money(lambda: ledger.call(seat, amount), number)
            if action.kind is not Kind.CALL:
                raise self.fail("a call of nothing", number)
        elif verb.startswith("raises "):
            parts = verb.removeprefix("raises ").split(" to ")
            if len(parts) != 2:
                raise self.fail(f"unreadable raise {verb!r}", number)
            by, to = (self.amount(p, number) for p in parts)
            if to - ledger.max_bet != by:
                raise self.fail(
                    f"raises {parts[0]} to {parts[1]} does not add up on a bet of {ledger.max_bet}",
                    number,
                )
            action = self.money(lambda: ledger.wager_to(seat, to), number)
        else:
            raise self.fail(f"unknown action {verb!r}", number)
        if action.all_in != all_in:
            raise self.fail("the all-in mark disagrees with the stack", number)
        self.actions.append(action)

    def money(self, step: Callable[[], Action], number: int) -> Action:
        """Run a ledger step, turning a money error into an error at ``number``."""
        try:
            return step()
        except ValueError as error:
            raise self.fail(str(error), number) from None

    def read_dealt(self, text: str, number: int) -> None:
        found = self.name_prefix(text.removeprefix("Dealt to "), " ")
        if found is None:
            raise self.fail(f"dealt to a player not in the hand: {text!r}", number)
        seat, rest = found
        groups = CARDS.findall(rest)
        if CARDS.sub("", rest).strip() or not 1 <= len(groups) <= 2:
            raise self.fail(f"unreadable Dealt line {text!r}", number)
        street = self.ledger.street
        slots = self.slots[seat]
        if len(slots) != street:
            raise self.fail(f"{self.seats[seat].name} is dealt nothing on this street", number)
        if street == 3:
            cards = self.cards(groups[0], number)
            if len(groups) != 1 or len(cards) not in (1, 3):
                raise self.fail("3rd street shows one door card, or the hero's three cards", number)
            if len(cards) == 3:
                if self.hero is not None and self.hero != seat:
                    raise self.fail("two players' down cards are dealt", number)
                self.hero = seat
                slots[:3] = cards
            else:
                slots[2] = cards[0]
            return
        if len(groups) != 2:
            raise self.fail("a Dealt line after 3rd street has the old cards and the new", number)
        old = self.cards(groups[0], number)
        new = self.cards(groups[1], number, lenient=True)
        if len(new) != 1:
            raise self.fail("one new card a street", number)
        seen = slots[: street - 1] if seat == self.hero else slots[2 : street - 1]
        if old != seen:
            raise self.fail(f"the Dealt line's earlier cards {groups[0]!r} disagree", number)
        slots[street - 1] = new[0]

    def read_placing(self, text: str) -> bool:
        """A tournament's ``finished the tournament in 28th place`` or ``wins the tournament``.

        A prize in plain chips or play money is kept; one in a currency is
        another unit than the hand's chips, and the record leaves it out.
        """
        if self.tournament is None:
            return False
        found = self.name_prefix(text, " finished the tournament in ")
        placed = PLACED.match(found[1]) if found is not None else None
        if found is not None and placed is not None:
            place, prize = int(placed["place"]), placed["prize"]
        else:
            found = self.name_prefix(text, " wins the tournament and receives ")
            won = WON.match(found[1]) if found is not None else None
            if found is None or won is None:
                return False
            place, prize = 1, won["prize"]
        plain = prize is not None and PLAIN.match(prize) is not None
        amount = int(prize.replace(",", "")) if plain else None
        self.placings.append(Placing(found[0], place, amount))
        return True

    def read_finish_line(self, text: str, number: int) -> bool:
        collected = COLLECTED.match(text)
        if collected and self.name_prefix(text, " collected ") is not None:
            found = self.name_prefix(text, " collected ")
            assert found is not None
            seat = found[0]
            pot_name = collected["pot"]
            pot = 0 if pot_name in ("pot", "main pot") else int(pot_name.partition("-")[2] or 1)
            self.collects.append(Collect(seat, self.amount(collected["amount"], number), pot))
            return True
        if text == "No low hand qualified":
            if not self.collects:
                raise self.fail("'No low hand qualified' before any pot is collected", number)
            self.no_low.append(self.collects[-1].pot)
            return True
        found = self.name_prefix(text, ": ")
        if found is None:
            return False
        seat, verb = found
        if verb == "mucks hand" or verb == "doesn't show hand":
            self.shows.append(Muck(seat))
        elif verb.startswith("shows ["):
            close = verb.index("]")
            cards = self.cards(verb[len("shows [") : close], number)
            tail = verb[close + 1 :].strip()
            description = None
            if tail:
                if not (tail.startswith("(") and tail.endswith(")")):
                    raise self.fail(f"unreadable show {verb!r}", number)
                description = tail[1:-1]
            self.shows.append(Show(seat, tuple(cards), description))
            self.fill(seat, cards, number)
        else:
            return False
        return True

    def fill(self, seat: int, cards: list[Slot], number: int) -> None:
        """Cards shown (in dealing order) tell the record cards it did not know."""
        slots = self.slots[seat]
        if len(cards) > len(slots):
            raise self.fail(f"{len(cards)} cards shown; {len(slots)} were dealt", number)
        for position, card in enumerate(cards):
            if card is None:
                continue
            if slots[position] is not None and slots[position] != card:
                raise self.fail(f"shows {card} where {slots[position]} was dealt", number)
            slots[position] = card

    def read_summary(self) -> None:
        summary_collected: dict[int, int] = {}
        self.total: int | None = None
        self.rake = 0
        self.pots: list[int] = []
        while self.pos < len(self.lines):
            number, text = self.lines[self.pos]
            self.pos += 1
            total = TOTAL.match(text)
            if total:
                self.total = self.amount(total["total"], number)
                self.rake = self.amount(total["rake"], number)
                self.pots = [self.amount(m[2], number) for m in POT_PART.findall(total["pots"])]
                if not self.pots:
                    self.pots = [self.total - self.rake]
                if sum(self.pots) + self.rake != self.total:
                    raise self.fail("the pots and the rake do not add up to the total", number)
                continue
            if text.startswith("Board ["):
                board = self.cards(text.removeprefix("Board [").removesuffix("]"), number)
                if board != self.community:
                    raise self.fail("the summary's board is not the community card", number)
                continue
            if text.startswith("Seat "):
                self.read_summary_seat(text, number, summary_collected)
                continue
            shuffle = SHUFFLE.match(text)
            if shuffle:
                self.read_shuffle(shuffle, number)
                continue
            if _is_noise(text):
                continue
            raise self.fail(f"unexpected summary line {text!r}", number)
        if self.total is None:
            raise self.fail("the summary has no 'Total pot' line")
        by_seat = [0] * len(self.seats)
        for event in self.collects:
            by_seat[event.seat] += event.amount
        for seat, amount in enumerate(by_seat):
            if summary_collected.get(seat, 0) != amount:
                raise self.fail(
                    f"{self.seats[seat].name} collects {amount} in the hand but "
                    f"{summary_collected.get(seat, 0)} in the summary",
                    self.lines[-1][0],
                )
        if sum(by_seat) != sum(self.pots):
            raise self.fail(
                f"collected {sum(by_seat)} of pots worth {sum(self.pots)}", self.lines[-1][0]
            )

    def read_shuffle(self, match: re.Match[str], number: int) -> None:
        """The ``Shuffle:`` line: scheme, hand id, commitment, server seed, each seat's seed."""
        order: list[int] = []
        seeds: list[str] = []
        for part in filter(None, (p.strip() for p in match["seeds"].split(","))):
            words = part.split()
            if len(words) != 3 or words[0] != "Seat" or not words[1].isdigit():
                raise self.fail(
                    f"unreadable shuffle seed {part!r} (expected 'Seat N SEED')", number
                )
            order.append(int(words[1]))
            seeds.append("" if words[2] == "-" else words[2])
        if sorted(order) != sorted(seat.number for seat in self.seats):
            raise self.fail("the shuffle line's seats are not the hand's seats", number)
        self.shuffle = Shuffle(
            match["hand"], match["commitment"], match["seed"], tuple(seeds), match["scheme"],
            tuple(order),
        )  # fmt: skip

    def read_summary_seat(self, text: str, number: int, collected: dict[int, int]) -> None:
        head, _, rest = text.partition(": ")
        if not head.removeprefix("Seat ").isdigit():
            raise self.fail(f"unreadable summary line {text!r}", number)
        found = self.name_prefix(rest, " ")
        if found is None:
            if any(rest.startswith(s.name + " ") for s in self.idle):
                return
            raise self.fail(f"summary for a player not in the hand: {text!r}", number)
        seat, outcome = found
        if outcome.startswith("mucked ["):
            cards = self.cards(outcome.removeprefix("mucked [").removesuffix("]"), number)
            self.fill(seat, cards, number)
            return
        won = re.search(r"(?:and won|collected) \((\S+)\)", outcome)
        if won:
            collected[seat] = self.amount(won[1], number)

    def build(self) -> HandRecord:
        ante = max(self.antes) if self.antes else 0
        stakes = Stakes(ante, self.bring_in, self.small_bet, self.big_bet)
        collected = [0] * len(self.seats)
        for event in self.collects:
            collected[event.seat] += event.amount
        finishing = tuple(self.ledger.behind[i] + collected[i] for i in range(len(self.seats)))
        seats = tuple(self.seats)
        return HandRecord(
            game=self.game,
            stakes=stakes,
            seats=seats,
            cards=tuple(tuple(s) for s in self.slots),
            actions=tuple(self.actions),
            community=tuple(self.community),
            shows=tuple(self.shows),
            collects=tuple(self.collects),
            no_low=tuple(sorted(self.no_low)),  # said pot by pot, the last side pot first
            pots=tuple(self.pots),
            rake=self.rake,
            collected=tuple(collected),
            finishing_stacks=finishing,
            currency=self.currency,
            decimals=self.decimals,
            site="PokerStars",
            hand_id=self.hand_id,
            table=self.table,
            max_seats=self.max_seats,
            time=self.time,
            time_zone=self.zone,
            time_et=self.time_et,
            tournament=self.tournament
            if self.tournament is None or not self.placings
            else replace(self.tournament, placings=tuple(self.placings)),
            mix=self.mix,
            hero=self.hero,
            idle_seats=tuple(self.idle),
            shuffle=self.shuffle,
            notes=tuple(self.notes),
        )
