"""Read and write PHH, the Poker Hand History format of PokerKit (``.phh``, and ``.phhs`` for many).

A PHH hand is TOML: ``variant`` (``F7S``, ``F7S/8`` or ``FR``), ``antes``,
``bring_in``, ``small_bet``, ``big_bet``, ``starting_stacks`` and ``actions``
(``d dh p1 ????7h``, ``p3 pb``, ``p1 cbr 4``, ``p2 cc``, ``p4 f``,
``p1 sm 7s8s7h...``; ``d db 6h`` for the R12 community card), with the
optional fields ``players``, ``seats``, ``seat_count``, ``table``, ``hand``,
``finishing_stacks``, ``winnings``, ``currency``, the time and the level.
What PHH has no field for (the rake, the pots and who collected each, the
hero, burn cards, tournament and mixed-game names, the committed shuffle) goes in user-defined
fields whose names start with ``_``, which PHH readers such as PokerKit
skip, so a hand we write reads back the same. Cash amounts are written in
the currency's main unit (``0.04``); a record keeps them in cents.
"""

from __future__ import annotations

import contextlib
import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

from stud.cards import Card
from stud.fairness import FairnessError, Shuffle
from stud.history.errors import HistoryError
from stud.history.ledger import Ledger, bring_in_to_play
from stud.history.model import (
    Action,
    Collect,
    Game,
    HandRecord,
    Muck,
    Placing,
    Seat,
    Show,
    Slot,
    Stakes,
    Tournament,
    street_of_position,
)
from stud.history.money import CURRENCY_SYMBOLS, fraction_digits, plain, to_units
from stud.history.pokerstars_read import ReadResult
from stud.history.text import escape_unprintable

VARIANTS: Final[dict[str, Game]] = {"F7S": "stud", "F7S/8": "stud8", "FR": "razz"}
CODES: Final[dict[Game, str]] = {game: code for code, game in VARIANTS.items()}
NO_DECIMAL_CURRENCIES: Final = frozenset({"JPY", "KRW", "VND", "CLP", "ISK"})
SECTION = re.compile(r"^\[(?P<name>[^\[\]]+)\]\s*(?:#.*)?$")
ROMAN: Final = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman(number: int) -> str:
    """``4`` as ``IV``: PokerStars numbers tournament levels in roman numerals."""
    out = []
    for value, letters in ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def from_roman(text: str) -> int:
    """``IV`` as 4; ValueError if it is not a roman numeral."""
    total, rest = 0, text.upper()
    for value, letters in ROMAN:
        while rest.startswith(letters):
            total += value
            rest = rest[len(letters) :]
    if rest or total == 0:
        raise ValueError(f"{text!r} is not a roman numeral")
    return total


# -- reading -------------------------------------------------------------------------------------


def read_phh(text: str, source: str | None = None) -> HandRecord:
    """One ``.phh`` hand; HistoryError naming the line of what is wrong."""
    return _read_section(text, 0, source, None)


def read_phhs(text: str, source: str | None = None) -> ReadResult:
    """Every hand of a ``.phhs`` file (TOML tables ``[1]``, ``[2]``, ...); a bad one is an error.

    A file with no table headers is read as a single hand.
    """
    result = ReadResult()
    sections = list(_sections(text))
    if not sections:
        sections = [(0, text)]
    for ordinal, (offset, body) in enumerate(sections, start=1):
        try:
            result.add(ordinal, _read_section(body, offset, source, ordinal))
        except HistoryError as error:
            result.errors.append(error)
    return result


def read_phh_file(path: str | Path) -> ReadResult:
    """A ``.phh`` or ``.phhs`` file, read as :func:`read_phhs` reads text."""
    path = Path(path)
    return read_phhs(path.read_text(encoding="utf-8-sig"), source=str(path))


def _sections(text: str) -> Iterator[tuple[int, str]]:
    """Cut a ``.phhs`` file at its ``[name]`` lines: (line offset, body) per hand."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if SECTION.match(line)]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        yield start + 1, "\n".join(lines[start + 1 : end])


def _read_section(text: str, offset: int, source: str | None, ordinal: int | None) -> HandRecord:
    def error(message: str, line: int | None = None, hand_id: str | None = None) -> HistoryError:
        return HistoryError(
            message,
            source=source,
            hand=ordinal,
            hand_id=hand_id,
            line=None if line is None else offset + line,
        )

    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise error(f"not valid TOML: {exc}", int(match[1]) if match else None) from None
    reader = _PhhReader(data, text)
    try:
        return reader.read()
    except _PhhError as exc:
        raise error(exc.message, exc.line, reader.hand_id) from None


class _PhhError(Exception):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _PhhReader:
    def __init__(self, data: dict[str, Any], text: str) -> None:
        self.data = data
        self.text_lines = text.splitlines()
        hand = data.get("hand")
        self.hand_id = None if hand is None else str(hand)

    def line_of(self, needle: str) -> int | None:
        for number, line in enumerate(self.text_lines, start=1):
            if needle in line:
                return number
        return None

    def field_error(self, name: str, message: str) -> _PhhError:
        return _PhhError(f"{name}: {message}", self.line_of(name))

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        value = self.data.get(name, default)
        if value is not None and not isinstance(value, kind):
            raise self.field_error(name, f"unexpected value {value!r}")
        return value

    def need(self, name: str) -> Any:
        if name not in self.data:
            raise _PhhError(f"the required field {name!r} is missing")
        return self.data[name]

    def units(self, name: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise self.field_error(name, f"{value!r} is not an amount")
        try:
            return to_units(value, self.decimals)
        except ValueError as exc:
            raise self.field_error(name, str(exc)) from None

    def amounts(self, name: str, required: bool = False) -> list[int] | None:
        value = self.need(name) if required else self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != self.n:
            raise self.field_error(name, f"expected {self.n} amounts, one per player")
        return [self.units(name, v) for v in value]

    def scan_decimals(self) -> int:
        """Cents when the hand names a currency or writes fractions; chips otherwise."""
        digits = 0
        currency = self.data.get("currency")
        if isinstance(currency, str) and currency.upper() not in NO_DECIMAL_CURRENCIES:
            digits = 2

        def visit(value: Any) -> None:
            nonlocal digits
            if isinstance(value, Decimal):
                digits = max(digits, fraction_digits(value))
            elif isinstance(value, list):
                for item in value:
                    visit(item)

        for key, value in self.data.items():
            if key != "actions":
                visit(value)
        for action in self.data.get("actions") or []:
            if isinstance(action, str):
                words = action.split("#")[0].split()
                if len(words) == 3 and words[1] == "cbr":
                    with contextlib.suppress(ArithmeticError):
                        digits = max(digits, fraction_digits(Decimal(words[2])))
        return digits

    def read(self) -> HandRecord:
        variant = self.need("variant")
        if variant not in VARIANTS:
            raise self.field_error("variant", f"{variant!r} is not F7S, F7S/8 or FR")
        game = VARIANTS[variant]
        stacks_raw = self.need("starting_stacks")
        if not isinstance(stacks_raw, list):
            raise self.field_error("starting_stacks", "expected a list")
        self.n = len(stacks_raw)
        if not 2 <= self.n <= 8:
            raise self.field_error("starting_stacks", f"{self.n} players; stud needs 2 to 8")
        self.decimals = self.scan_decimals()
        stacks = self.amounts("starting_stacks", required=True)
        antes = self.amounts("antes", required=True)
        assert stacks is not None and antes is not None
        if len(set(antes)) > 1:
            raise self.field_error("antes", "stud antes are the same for every player")
        # The bring-in the hand is played with; a record that never saw it keeps None.
        self.bring_in_unknown = self.data.get("_bring_in_unknown") is True
        self.stakes = Stakes(
            antes[0],
            self.units("bring_in", self.need("bring_in")),
            self.units("small_bet", self.need("small_bet")),
            self.units("big_bet", self.need("big_bet")),
        )
        stakes = replace(self.stakes, bring_in=None) if self.bring_in_unknown else self.stakes
        names = self.get("players", list) or [f"p{i + 1}" for i in range(self.n)]
        numbers = self.get("seats", list) or list(range(1, self.n + 1))
        out = self.get("_sitting_out", list) or [False] * self.n
        if not (len(names) == len(numbers) == len(out) == self.n):
            raise self.field_error("players", f"players, seats and stacks must all have {self.n}")
        seats = tuple(
            Seat(int(numbers[i]), str(names[i]), stacks[i], bool(out[i])) for i in range(self.n)
        )
        self.play(stacks)
        pots = [self.units("_pots", v) for v in self.get("_pots", list) or []]
        collects = []
        for entry in self.get("_collects", list) or []:
            if not (isinstance(entry, list) and len(entry) == 3):
                raise self.field_error("_collects", f"{entry!r} is not [player, amount, pot]")
            player, amount, pot = entry
            collects.append(Collect(self.player(str(player)), self.units("_collects", amount), pot))
        rake = self.data.get("_rake")
        return HandRecord(
            game=game,
            stakes=stakes,
            seats=seats,
            cards=tuple(tuple(s) for s in self.slots),
            actions=tuple(self.actions),
            community=tuple(self.community),
            burn_cards=bool(self.get("_burn_cards", bool, False)),
            burns=tuple(self.card_list("_burns")),
            shows=tuple(self.shows),
            collects=tuple(collects),
            no_low=tuple(int(p) for p in self.get("_no_low", list) or []),
            pots=tuple(pots),
            rake=0 if rake is None else self.units("_rake", rake),
            collected=self.tuple_or_none(self.amounts("winnings")),
            finishing_stacks=self.tuple_or_none(self.amounts("finishing_stacks")),
            currency=self.get("currency", str),
            decimals=self.decimals,
            site=self.get("venue", str),
            hand_id=self.hand_id,
            table=None if self.data.get("table") is None else str(self.data["table"]),
            max_seats=self.get("seat_count", int),
            time=self.time(),
            time_zone=self.get("time_zone_abbreviation", str) or self.get("time_zone", str),
            time_et=self.datetime_field("_time_et"),
            tournament=self.tournament(),
            mix=self.get("_mix", str),
            hero=self.hero(),
            shuffle=self.shuffle(),
        )

    @staticmethod
    def tuple_or_none(values: list[int] | None) -> tuple[int, ...] | None:
        return None if values is None else tuple(values)

    def player(self, label: str) -> int:
        if not re.fullmatch(r"p[1-9]\d*", label) or int(label[1:]) > self.n:
            raise _PhhError(f"{label!r} is not a player of this hand (p1..p{self.n})")
        return int(label[1:]) - 1

    def shuffle(self) -> Shuffle | None:
        data = self.data.get("_shuffle")
        if data is None:
            return None
        try:
            shuffle = Shuffle.from_dict(data)
        except FairnessError as error:
            raise self.field_error("_shuffle", str(error)) from None
        if len(shuffle.player_seeds) != self.n:
            raise self.field_error("_shuffle", f"player_seeds must have {self.n} entries")
        return shuffle

    def hero(self) -> int | None:
        hero = self.get("_hero", str)
        return None if hero is None else self.player(hero)

    def card_list(self, name: str) -> list[Slot]:
        return [_card(str(c)) for c in self.get(name, list) or []]

    def time(self) -> datetime | None:
        clock = self.data.get("time")
        year, month, day = (self.data.get(k) for k in ("year", "month", "day"))
        if not isinstance(clock, time) or not all(isinstance(v, int) for v in (year, month, day)):
            return None
        assert isinstance(year, int) and isinstance(month, int) and isinstance(day, int)
        return datetime.combine(datetime(year, month, day).date(), clock)

    def datetime_field(self, name: str) -> datetime | None:
        value = self.data.get(name)
        if isinstance(value, datetime):
            return value.replace(tzinfo=None)
        return None

    def tournament(self) -> Tournament | None:
        tid = self.data.get("_tournament")
        if tid is None:
            return None
        level = self.data.get("level")
        return Tournament(
            str(tid),
            self.get("_buy_in", str),
            self.get("_buy_in_currency", str),
            roman(level) if isinstance(level, int) and level > 0 else None,
            self.placings(),
        )

    def placings(self) -> tuple[Placing, ...]:
        """``_placings``: ``[player, place]`` or ``[player, place, prize]`` for each."""
        out = []
        for entry in self.get("_placings", list) or []:
            if not (
                isinstance(entry, list)
                and len(entry) in (2, 3)
                and isinstance(entry[0], str)
                and all(
                    isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in entry[1:2]
                )
            ):
                raise self.field_error("_placings", f"{entry!r} is not [player, place, prize]")
            prize = self.units("_placings", entry[2]) if len(entry) == 3 else None
            out.append(Placing(self.player(entry[0]), entry[1], prize))
        return tuple(out)

    def play(self, stacks: Sequence[int]) -> None:
        """Follow the actions with a ledger: cards per seat, amounts, uncalled bets, shows."""
        actions = self.need("actions")
        if not isinstance(actions, list):
            raise self.field_error("actions", "expected a list of strings")
        ledger = Ledger(self.stakes, stacks)
        for seat in range(self.n):
            ledger.post_ante(seat, min(self.stakes.ante, ledger.behind[seat]))
        self.ledger = ledger
        self.slots: list[list[Slot]] = [[] for _ in range(self.n)]
        self.community: list[Slot] = []
        self.actions: list[Action] = []
        self.shows: list[Show | Muck] = []
        street = 3
        for index, raw in enumerate(actions, start=1):
            if not isinstance(raw, str):
                raise self.field_error("actions", f"action {index} is not a string")
            text, _, comment = raw.partition("#")
            words = text.split()
            if not words:
                continue
            try:
                street = self.step(words, comment.strip() or None, street)
            except (ValueError, _PhhError) as exc:
                message = exc.message if isinstance(exc, _PhhError) else str(exc)
                raise _PhhError(
                    f"action {index} {raw.strip()!r}: {message}", self.line_of(raw)
                ) from None
        self.settle()

    def settle(self) -> None:
        """Give an uncalled bet back before the next street or the showdown (R17)."""
        unmatched = self.ledger.uncalled()
        if unmatched is not None:
            self.actions.append(self.ledger.give_back(*unmatched))

    def step(self, words: list[str], comment: str | None, street: int) -> int:
        ledger = self.ledger
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                seat = self.player(words[2])
                cards = _cards(words[3])
                for card in cards:
                    position = len(self.slots[seat])
                    if position >= 7:
                        raise ValueError("more than seven cards dealt to one player")
                    dealt_on = street_of_position(position)
                    if dealt_on < street:
                        raise ValueError(f"a {dealt_on}th-street card dealt on street {street}")
                    if dealt_on > street:
                        street = self.next_street(dealt_on)
                    self.slots[seat].append(card)
                return street
            if len(words) == 3 and words[1] == "db":
                if street < 7:
                    street = self.next_street(7)
                self.community.extend(_cards(words[2]))
                return street
            raise ValueError("unknown dealing action")
        seat = self.player(words[0])
        verb = words[1] if len(words) > 1 else ""
        if verb == "sm":
            if not self.shows:
                self.settle()
            if len(words) == 2:
                self.shows.append(Muck(seat))
            else:
                cards = [None] * len(self.slots[seat]) if words[2] == "-" else _cards(words[2])
                self.reveal(seat, cards)
                self.shows.append(Show(seat, tuple(cards), comment))
            return street
        if self.shows:
            raise ValueError("a betting action after the showdown")
        if verb == "pb" and len(words) == 2:
            action = ledger.bring_in(seat)
            if self.bring_in_unknown and not action.all_in:
                raise ValueError(
                    "the bring-in's amount is unknown (_bring_in_unknown), so it must put the "
                    f"player all in, and bring_in = {plain(action.amount, self.decimals)} does not"
                )
        elif verb == "cbr" and len(words) == 3:
            action = ledger.wager_to(seat, to_units(words[2], self.decimals))
        elif verb == "cc" and len(words) == 2:
            action = ledger.call(seat)
        elif verb == "f" and len(words) == 2:
            action = ledger.fold(seat)
        else:
            raise ValueError("not a stud action (pb, cbr, cc, f, sm)")
        self.actions.append(action)
        return street

    def next_street(self, street: int) -> int:
        self.settle()
        self.ledger.start_street(street)
        return street

    def reveal(self, seat: int, cards: Sequence[Slot]) -> None:
        slots = self.slots[seat]
        if len(cards) > len(slots):
            raise ValueError(f"{len(cards)} cards shown; {len(slots)} were dealt")
        for position, card in enumerate(cards):
            if card is None:
                continue
            if slots[position] is not None and slots[position] != card:
                raise ValueError(f"shows {card} where {slots[position]} was dealt")
            slots[position] = card


def _card(text: str) -> Slot:
    return None if text == "??" else Card.parse(text)


def _cards(text: str) -> list[Slot]:
    if len(text) % 2:
        raise ValueError(f"{text!r} is not a run of two-character cards")
    return [_card(text[i : i + 2]) for i in range(0, len(text), 2)]


# -- writing -------------------------------------------------------------------------------------


def write_phh(record: HandRecord) -> str:
    """One hand as a ``.phh`` file."""
    return "\n".join(_Writer(record).lines()) + "\n"


def write_phhs(records: Iterable[HandRecord]) -> str:
    """Hands as a ``.phhs`` file: tables ``[1]``, ``[2]``, ... one per hand."""
    parts = [f"[{i}]\n{write_phh(r)}" for i, r in enumerate(records, start=1)]
    return "\n".join(parts)


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes and backslashes escaped, then every unprintable character."""
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escape_unprintable(quoted) + '"'


def _slot(card: Slot) -> str:
    return "??" if card is None else str(card)


@dataclass
class _Writer:
    r: HandRecord

    def amount(self, units: int) -> str:
        return plain(units, self.r.decimals)

    def amounts(self, values: Iterable[int]) -> str:
        return "[" + ", ".join(self.amount(v) for v in values) + "]"

    def lines(self) -> list[str]:
        r = self.r
        n = len(r.seats)
        out = [
            f'variant = "{CODES[r.game]}"',
            f"antes = {self.amounts([r.stakes.ante] * n)}",
            f"bring_in = {self.amount(self.bring_in())}",
            f"small_bet = {self.amount(r.stakes.small_bet)}",
            f"big_bet = {self.amount(r.stakes.big_bet)}",
            f"starting_stacks = {self.amounts(r.starting_stacks)}",
            "actions = [",
            *(f"  {_toml_string(a)}," for a in self.actions()),
            "]",
        ]
        out += self.optional()
        return out

    def bring_in(self) -> int:
        """PHH needs a bring-in; a record that never saw one gets the one the replay plays it
        with, flagged: at least what a seat brought in all in, so its ``pb`` posts just that."""
        return bring_in_to_play(self.r)

    def actions(self) -> list[str]:
        r = self.r
        out: list[str] = []
        by_street: dict[int, list[Action]] = {}
        for action in r.actions:
            by_street.setdefault(action.street, []).append(action)
        last = max([*by_street, *(len(c) for c in r.cards)], default=3)
        if r.community:  # dealt on 7th street even when no one acts on it (all in before)
            last = max(last, 7)
        for street in range(3, last + 1):
            for seat, cards in enumerate(r.cards):
                if street == 3:
                    dealt = cards[:3]
                elif len(cards) >= street:
                    dealt = cards[street - 1 : street]
                else:
                    dealt = ()
                if dealt:
                    out.append(f"d dh p{seat + 1} " + "".join(_slot(c) for c in dealt))
            if street == 7 and r.community:
                out.append("d db " + "".join(_slot(c) for c in r.community))
            for action in by_street.get(street, []):
                text = self.action(action)
                if text:
                    out.append(text)
        for event in r.shows:
            if isinstance(event, Muck):
                out.append(f"p{event.seat + 1} sm")
            else:
                shown = "".join(_slot(c) for c in event.cards)
                comment = f" # {event.description}" if event.description else ""
                out.append(f"p{event.seat + 1} sm {shown}{comment}")
        return out

    def action(self, action: Action) -> str | None:
        player = f"p{action.seat + 1}"
        kind = action.kind.value
        if kind == "bring_in":
            return f"{player} pb"
        if kind in ("complete", "bet", "raise"):
            return f"{player} cbr {self.amount(action.to)}"
        if kind in ("call", "check"):
            return f"{player} cc"
        if kind == "fold":
            return f"{player} f"
        return None  # an uncalled bet goes back by itself

    def optional(self) -> list[str]:
        r = self.r
        out = []

        def put(key: str, value: str | None) -> None:
            if value is not None:
                out.append(f"{key} = {value}")

        put("venue", _toml_string(r.site) if r.site else None)
        if r.time is not None:
            put("time", r.time.strftime("%H:%M:%S"))
            put("day", str(r.time.day))
            put("month", str(r.time.month))
            put("year", str(r.time.year))
        put("time_zone_abbreviation", _toml_string(r.time_zone) if r.time_zone else None)
        if r.hand_id is not None:
            put("hand", r.hand_id if r.hand_id.isdigit() else _toml_string(r.hand_id))
        if r.tournament is not None and r.tournament.level:
            put("level", str(from_roman(r.tournament.level)))
        put("seats", "[" + ", ".join(str(s.number) for s in r.seats) + "]")
        put("seat_count", str(r.max_seats) if r.max_seats else None)
        put("table", _toml_string(r.table) if r.table is not None else None)
        put("players", "[" + ", ".join(_toml_string(s.name) for s in r.seats) + "]")
        if r.finishing_stacks is not None:
            put("finishing_stacks", self.amounts(r.finishing_stacks))
        if r.collected is not None:
            put("winnings", self.amounts(r.collected))
        if r.cash and r.currency:
            put("currency", _toml_string(r.currency))
            symbol = CURRENCY_SYMBOLS.get(r.currency)
            put("currency_symbol", _toml_string(symbol) if symbol else None)
        # Fields PHH does not define: PHH readers skip names that start with "_".
        if r.stakes.bring_in is None:
            put("_bring_in_unknown", "true")
        if r.rake or r.pots:
            put("_rake", self.amount(r.rake))
        if r.pots:
            put("_pots", self.amounts(r.pots))
        if r.collects:
            entries = (f'["p{c.seat + 1}", {self.amount(c.amount)}, {c.pot}]' for c in r.collects)
            put("_collects", "[" + ", ".join(entries) + "]")
        if r.no_low:
            put("_no_low", "[" + ", ".join(str(p) for p in r.no_low) + "]")
        if r.hero is not None:
            put("_hero", f'"p{r.hero + 1}"')
        if r.burn_cards:
            put("_burn_cards", "true")
        if r.burns:
            put("_burns", "[" + ", ".join(f'"{_slot(c)}"' for c in r.burns) + "]")
        if any(s.sitting_out for s in r.seats):
            put("_sitting_out", "[" + ", ".join(str(s.sitting_out).lower() for s in r.seats) + "]")
        if r.time_et is not None:
            put("_time_et", r.time_et.strftime("%Y-%m-%dT%H:%M:%S"))
        if r.mix:
            put("_mix", _toml_string(r.mix))
        if r.tournament is not None:
            t = r.tournament
            put("_tournament", _toml_string(t.id))
            put("_buy_in", _toml_string(t.buy_in) if t.buy_in else None)
            put("_buy_in_currency", _toml_string(t.currency) if t.currency else None)
            if t.placings:
                entries = (
                    f'["p{p.seat + 1}", {p.place}'
                    + ("" if p.prize is None else f", {self.amount(p.prize)}")
                    + "]"
                    for p in t.placings
                )
                put("_placings", "[" + ", ".join(entries) + "]")
        if r.shuffle is not None:
            put("_shuffle", _shuffle_table(r.shuffle))
        return out


def _shuffle_table(shuffle: Shuffle) -> str:
    """The committed shuffle as one inline table (docs/formats.md, docs/fairness.md)."""
    seeds = ", ".join(_toml_string(s) for s in shuffle.player_seeds)
    seats = f", seats = [{', '.join(str(n) for n in shuffle.seats)}]" if shuffle.seats else ""
    return (
        f"{{ scheme = {_toml_string(shuffle.scheme)}, hand = {_toml_string(shuffle.hand_id)}, "
        f"commitment = {_toml_string(shuffle.commitment)}, "
        f"server_seed = {_toml_string(shuffle.server_seed)}, player_seeds = [{seeds}]{seats} }}"
    )
