"""Write a record as PokerStars hand-history text, line for line as the PokerStars client does.

The lines follow the real 2009-2017 files in ``shared/corpus/pokerstars``:
the header in the current ``PokerStars Hand #`` form (a time in another zone
than ET followed by the same moment in ET), the table and seats,
antes, ``Dealt to`` lines (the hero's down cards and everyone's up cards),
the bring-in, a completion written ``raises $0.02 to $0.04`` (or ``bets`` when
the bring-in player completes at once), ``Pair on board - a double bet is
allowed``, ``Betting is capped`` (after the fourth full bet or raise; a short
all-in that is not one does not count, rules.md R11), uncalled bets, the
showdown pot by pot, ``No low hand qualified``, and the summary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from typing import Final

from stud.cards import format_cards
from stud.history.clock import eastern_time
from stud.history.errors import HistoryError
from stud.history.ledger import Ledger, bring_in_to_play
from stud.history.model import (
    Action,
    Collect,
    HandRecord,
    Kind,
    Muck,
    Show,
    Slot,
)
from stud.history.money import CURRENCY_SYMBOLS, plain
from stud.history.text import escape_unprintable

GAME_TITLES: Final = {"stud": "7 Card Stud", "stud8": "7 Card Stud Hi/Lo", "razz": "Razz"}
STREET_TITLES: Final = {
    3: "*** 3rd STREET ***",
    4: "*** 4th STREET ***",
    5: "*** 5th STREET ***",
    6: "*** 6th STREET ***",
    7: "*** RIVER ***",
}
FOLD_STREETS: Final = {
    3: "3rd Street",
    4: "4th Street",
    5: "5th Street",
    6: "6th Street",
    7: "River",
}
NO_TIME: Final = datetime(1970, 1, 1)

Describe = Callable[[HandRecord, Show], str | None]


def write_pokerstars(
    records: Iterable[HandRecord],
    *,
    hero: int | None = None,
    describe: Describe | None = None,
) -> str:
    """Hands as one PokerStars file, with blank lines between hands as the client writes them."""
    return (
        "\n\n\n\n".join(write_pokerstars_hand(r, hero=hero, describe=describe) for r in records)
        + "\n"
    )


def write_pokerstars_hand(
    record: HandRecord,
    *,
    hero: int | None = None,
    describe: Describe | None = None,
) -> str:
    """One hand as PokerStars text (no trailing newline).

    ``hero`` is the seat whose down cards the ``Dealt to`` lines show (the
    record's own hero by default). A show without a description gets one from
    ``describe`` (the evaluator's, by default, when it is installed).
    """
    hero = record.hero if hero is None else hero
    return "\n".join(_Writer(_printable_names(record), hero, describe).lines())


def _printable_names(record: HandRecord) -> HandRecord:
    """``record`` with its table's and players' names escaped to printable text (one line each)."""
    return replace(
        record,
        table=None if record.table is None else escape_unprintable(record.table),
        seats=tuple(replace(s, name=escape_unprintable(s.name)) for s in record.seats),
        idle_seats=tuple(replace(s, name=escape_unprintable(s.name)) for s in record.idle_seats),
    )


class _Writer:
    def __init__(self, record: HandRecord, hero: int | None, describe: Describe | None) -> None:
        self.r = record
        self.hero = hero
        self.describe = describe
        self.symbol = CURRENCY_SYMBOLS.get(record.currency or "", "") if record.cash else ""
        self.out: list[str] = []
        if record.decimals and not self.symbol:
            raise self.fail("amounts with cents need a currency PokerStars writes ($, € or £)")

    def money(self, units: int) -> str:
        return self.symbol + plain(units, self.r.decimals)

    def name(self, seat: int) -> str:
        return self.r.seats[seat].name

    def fail(self, message: str) -> HistoryError:
        return HistoryError(f"cannot write as PokerStars text: {message}", hand_id=self.r.hand_id)

    def lines(self) -> list[str]:
        self.header()
        self.seats()
        # With the bring-in the record is played with: at a table whose bring-in is the small
        # bet it is the round's bet, which counts towards the cap.
        stakes = replace(self.r.stakes, bring_in=bring_in_to_play(self.r))
        ledger = Ledger(stakes, self.r.starting_stacks)
        self.antes(ledger)
        self.ledger = ledger
        self.put_in_third = [False] * len(self.r.seats)
        for street in self.streets():
            self.street(street)
        self.showdown()
        self.placings()
        self.summary()
        self.shuffle()
        return self.out

    # -- the top of the hand ---------------------------------------------------

    def header(self) -> None:
        r = self.r
        title = GAME_TITLES[r.game]
        stakes = f"{self.money(r.stakes.small_bet)}/{self.money(r.stakes.big_bet)}"
        if r.tournament is None:
            currency = f" {r.currency}" if r.currency else ""
            if r.mix:
                game = f"{r.mix} ({title} Limit, {stakes}{currency})"
            else:
                game = f"{title} Limit ({stakes}{currency})"
            head = f"PokerStars Hand #{r.hand_id or 0}:  {game}"
        else:
            t = r.tournament
            buy_in = (t.buy_in or "Freeroll") + (f" {t.currency}" if t.currency else "")
            game = f"{r.mix} ({title} Limit)" if r.mix else f"{title} Limit"
            level = f"Level {t.level or 'I'} ({stakes})"
            head = (
                f"PokerStars Hand #{r.hand_id or 0}: Tournament #{t.id}, {buy_in} {game} - {level}"
            )
        when = _stamp(r.time or NO_TIME) + f" {r.time_zone or 'ET'}"
        eastern = r.time_et if r.time_et is not None else eastern_time(r.time, r.time_zone)
        if eastern is not None:
            when += f" [{_stamp(eastern)} ET]"
        self.out.append(f"{head} - {when}")
        self.out.append(f"Table '{r.table or 'Stud'}' {r.max_seats or 8}-max")

    def seats(self) -> None:
        for seat in sorted(self.r.seats + self.r.idle_seats, key=lambda s: s.number):
            out = " is sitting out" if seat.sitting_out else ""
            self.out.append(
                f"Seat {seat.number}: {seat.name} ({self.money(seat.stack)} in chips){out}"
            )

    def antes(self, ledger: Ledger) -> None:
        ante = self.r.stakes.ante
        if ante == 0:
            return
        for seat in range(len(self.r.seats)):
            amount = min(ante, ledger.behind[seat])
            all_in = ledger.post_ante(seat, amount)
            self.out.append(
                self.all_in(f"{self.name(seat)}: posts the ante {self.money(amount)}", all_in)
            )

    @staticmethod
    def all_in(text: str, flag: bool) -> str:
        return text + " and is all-in" if flag else text

    # -- streets ---------------------------------------------------------------

    def streets(self) -> list[int]:
        reached = {a.street for a in self.r.actions}
        for street in range(3, 8):
            if self.r.seats_dealt(street):
                reached.add(street)
        if self.r.community:
            reached.add(7)
        return sorted(reached)

    def street(self, street: int) -> None:
        r = self.r
        title = STREET_TITLES[street]
        if street == 7 and r.community:
            title += f" [{self.cards(r.community, 'the community card')}]"
        self.out.append(title)
        self.ledger.start_street(street)
        for seat in r.seats_dealt(street):
            self.dealt(seat, street)
        if street == 4 and r.game == "stud" and self.open_pair():
            self.out.append("Pair on board - a double bet is allowed")
        for action in r.actions_on(street):
            self.action(action)

    def dealt(self, seat: int, street: int) -> None:
        cards = self.r.cards[seat]
        hero = seat == self.hero and all(c is not None for c in cards[:2])
        if street == 3:
            shown = cards[:3] if hero else cards[2:3]
            self.out.append(f"Dealt to {self.name(seat)} [{self.cards(shown, 'an up card')}]")
            return
        new = cards[street - 1]
        if street == 7:
            if hero and new is not None:
                old = self.cards(cards[:6], "a down card")
                self.out.append(f"Dealt to {self.name(seat)} [{old}] [{new}]")
            return
        old = self.cards(cards[: street - 1] if hero else cards[2 : street - 1], "an up card")
        self.out.append(f"Dealt to {self.name(seat)} [{old}] [{self.cards([new], 'an up card')}]")

    def cards(self, cards: Iterable[Slot], what: str) -> str:
        known = []
        for card in cards:
            if card is None:
                raise self.fail(f"{what} is unknown")
            known.append(card)
        return format_cards(known)

    def open_pair(self) -> bool:
        for seat in self.r.seats_dealt(4):
            door, fourth = self.r.cards[seat][2:4]
            if door is not None and fourth is not None and door.rank == fourth.rank:
                return True
        return False

    def action(self, action: Action) -> None:
        name = self.name(action.seat)
        before = self.ledger.max_bet
        self.ledger.apply(action)
        if action.street == 3 and action.kind is not Kind.FOLD and action.kind is not Kind.CHECK:
            self.put_in_third[action.seat] = True
        kind = action.kind
        if kind is Kind.RETURN:
            self.out.append(f"Uncalled bet ({self.money(action.amount)}) returned to {name}")
            return
        if kind is Kind.FOLD:
            text = "folds"
        elif kind is Kind.CHECK:
            text = "checks"
        elif kind is Kind.CALL:
            text = f"calls {self.money(action.amount)}"
        elif kind is Kind.BRING_IN:
            text = f"brings in for {self.money(action.amount)}"
        elif before == 0:
            text = f"bets {self.money(action.to)}"
        else:
            text = f"raises {self.money(action.to - before)} to {self.money(action.to)}"
        self.out.append(self.all_in(f"{name}: {text}", action.all_in))
        if self.ledger.capped:
            self.out.append("Betting is capped")

    # -- the end ---------------------------------------------------------------

    def showdown(self) -> None:
        """The end of the hand, pot by pot as PokerStars pays it: the last side pot first.

        For each pot, the players in it who have not yet shown show or muck
        (in the record's order), then its winners collect, then Stud Hi/Lo
        says if no low qualified. A hand won without a showdown has the
        collection first and then the winner's choice to show or not.
        """
        r = self.r
        if not r.showdown:
            for collect in r.collects:
                self.collect(collect)
            for event in r.shows:
                self.show(event, at_showdown=False)
            return
        self.out.append("*** SHOW DOWN ***")
        levels = sorted({self.ledger.total_in[s] for s in r.live_at_end()})
        count = len(r.pots)
        done: set[int] = set()
        for pot in reversed(range(count)):
            for event in r.shows:
                in_pot = len(levels) != count or self.ledger.total_in[event.seat] >= levels[pot]
                if event.seat not in done and in_pot:
                    self.show(event, at_showdown=True)
                    done.add(event.seat)
            for collect in r.collects:
                if collect.pot == pot:
                    self.collect(collect)
            if pot in r.no_low:
                self.out.append("No low hand qualified")
        for event in r.shows:
            if event.seat not in done:
                self.show(event, at_showdown=True)
        for collect in r.collects:
            if not 0 <= collect.pot < count:
                self.collect(collect)

    def placings(self) -> None:
        """Who finished the tournament in this hand, as the client closes the hand."""
        t = self.r.tournament
        for placing in () if t is None else t.placings:
            name = self.name(placing.seat)
            prize = self.money(placing.prize or 0)
            if placing.place == 1:
                self.out.append(
                    f"{name} wins the tournament and receives {prize} - congratulations!"
                )
            elif placing.prize:
                self.out.append(
                    f"{name} finished the tournament in {ordinal(placing.place)} place "
                    f"and received {prize}."
                )
            else:
                self.out.append(f"{name} finished the tournament in {ordinal(placing.place)} place")

    def show(self, event: Show | Muck, *, at_showdown: bool) -> None:
        name = self.name(event.seat)
        if isinstance(event, Muck):
            self.out.append(f"{name}: mucks hand" if at_showdown else f"{name}: doesn't show hand")
            return
        description = self.description(event)
        tail = f" ({description})" if description else ""
        self.out.append(f"{name}: shows [{self.cards(event.cards, 'a shown card')}]{tail}")

    def collect(self, collect: Collect) -> None:
        where = _pot_name(collect.pot, len(self.r.pots))
        amount = self.money(collect.amount)
        self.out.append(f"{self.name(collect.seat)} collected {amount} from {where}")

    def description(self, show: Show) -> str | None:
        if show.description is not None:
            return show.description
        return self.describe(self.r, show) if self.describe is not None else None

    def summary(self) -> None:
        r = self.r
        self.out.append("*** SUMMARY ***")
        total = f"Total pot {self.money(r.total_pot)}"
        if len(r.pots) > 1:
            for index, amount in enumerate(r.pots):
                total += f" {_pot_name(index, len(r.pots)).capitalize()} {self.money(amount)}."
        self.out.append(f"{total} | Rake {self.money(r.rake)}")
        if r.community:
            self.out.append(f"Board [{self.cards(r.community, 'the community card')}]")
        folded = r.folded_on()
        shown = r.shown()
        mucked = {e.seat for e in r.shows if isinstance(e, Muck)}
        collected = r.collected_by_seat()
        showdown = r.showdown
        for seat, player in enumerate(r.seats):
            head = f"Seat {player.number}: {player.name}"
            if seat in folded:
                street = folded[seat]
                quiet = " (didn't bet)" if street == 3 and not self.put_in_third[seat] else ""
                self.out.append(f"{head} folded on the {FOLD_STREETS[street]}{quiet}")
            elif showdown and seat in shown:
                show = shown[seat]
                description = self.description(show)
                text = self.cards(show.cards, "a shown card")
                won = f"won ({self.money(collected[seat])})" if collected[seat] else "lost"
                with_ = f" with {description}" if description else ""
                self.out.append(f"{head} showed [{text}] and {won}{with_}")
            elif showdown and (seat in mucked or not collected[seat]):
                held = r.cards[seat]
                if held and all(c is not None for c in held):
                    self.out.append(f"{head} mucked [{self.cards(held, 'a mucked card')}]")
                else:
                    self.out.append(f"{head} mucked")
            else:
                self.out.append(f"{head} collected ({self.money(collected[seat])})")

    def shuffle(self) -> None:
        """The committed shuffle's line, last (PokerStars has none; our reader reads it back)."""
        shuffle = self.r.shuffle
        if shuffle is None:
            return
        numbers = list(shuffle.seats) or [seat.number for seat in self.r.seats]
        if len(shuffle.player_seeds) != len(numbers):
            raise self.fail("the shuffle's player seeds do not match the seats")
        pairs = zip(numbers, shuffle.player_seeds, strict=True)
        seeds = ", ".join(f"Seat {n} {seed or '-'}" for n, seed in pairs)
        self.out.append(
            f"Shuffle: {shuffle.scheme}, hand {shuffle.hand_id}, commitment {shuffle.commitment},"
            f" server seed {shuffle.server_seed}, seeds [{seeds}]"
        )


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``12th``, ``13th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def _pot_name(index: int, count: int) -> str:
    if count <= 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _stamp(moment: datetime) -> str:
    """PokerStars writes the hour without a leading zero: ``2009/07/16 2:36:31``."""
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S}"
