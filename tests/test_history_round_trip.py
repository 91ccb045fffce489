"""Histories round-trip exactly: random engine hands written as PHH and as PokerStars text read
back and replay to the same actions and stacks, PHH → PokerStars → PHH and PokerStars → PHH →
PokerStars, in all three games.

The comparison leaves out only what PokerStars text cannot carry (docs/formats.md): down cards
nobody showed, a bring-in no seat posted in full, burn cards, an ante nobody could post in full,
and the order of shows between pots; PHH carries everything a record holds. The hands are
seeded and played with random legal actions at random tables where stacks are often short, so
all-in bring-ins, short all-in raises, side pots and the community card come up again and again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction

import pytest

from stud.cards import Deck
from stud.game import ActionKind, BettingCapped, Hand, TableConfig, variant
from stud.history import (
    HandRecord,
    Kind,
    Muck,
    ReplayReport,
    Show,
    Tournament,
    read_phh,
    read_pokerstars,
    record_from_hand,
    replay,
    write_phh,
    write_pokerstars_hand,
)
from stud.history.clock import eastern_time
from stud.history.describe import pokerstars_description
from stud.history.model import GAMES, Game, is_up
from stud.history.samples import NAMES

HANDS = 1000
"""Hands per game."""
FIRST_SEED = {"stud": 0, "stud8": 1_000_000, "razz": 2_000_000}


def random_hand(game: Game, seed: int) -> tuple[Hand, HandRecord]:
    """A hand played with random legal actions at a random table, and its record.

    2-8 players; cash (cents, 5% rake) or tournament chips; a bring-in of a quarter, half or all
    of the small bet; no ante or one; about a third of the stacks a few bets deep or less; each
    player picks a kind of legal action at random, then its amount (at a tenth of the tables
    nobody folds).
    """
    rng = random.Random(seed)
    stubborn = rng.random() < 0.1  # nobody folds: full tables reach the community card (R12)
    players = 8 if stubborn and rng.random() < 0.5 else rng.randint(2, 8)
    cash = rng.random() < 0.5
    small = rng.choice((2, 4, 10, 50))
    bring_in = rng.choice((max(1, small // 4), max(1, small // 2), small))
    ante = rng.choice((0, max(1, small // 4), max(1, small // 2)))
    stacks = tuple(
        rng.randint(1, 3 * small + ante) if rng.random() < 0.35 else rng.randint(20, 100) * small
        for _ in range(players)
    )
    config = TableConfig(
        game=variant(game),
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=2 * small,
        stacks=stacks,
        burn_cards=rng.random() < 0.2,
        rake_percent=Fraction(5 if cash else 0),
        rake_cap=30 if cash else None,
    )
    hand = Hand(config, deck=Deck(seed=seed))
    while not hand.is_over:
        legal = hand.legal_actions()
        kinds = list(dict.fromkeys(a.kind for a in legal))
        if stubborn and len(kinds) > 1:
            kinds = [k for k in kinds if k is not ActionKind.FOLD]
        kind = rng.choice(kinds)
        hand.act(rng.choice([a for a in legal if a.kind is kind]))
    record = record_from_hand(
        hand,
        names=NAMES[:players],
        seat_numbers=sorted(rng.sample(range(1, 9), players)),
        hand_id=str(200_000_000_000 + seed),
        table=f"Round trip {seed % 5 + 1}",
        max_seats=8,
        time=datetime(2025, 3, 1, 9, 30) + timedelta(minutes=7 * seed),
        time_zone=rng.choice(("ET", "UTC", "CET")),
        currency="USD" if cash else None,
        decimals=2 if cash else 0,
        site="PokerStars",
        tournament=None if cash else Tournament(str(4_000_000 + seed % 7), "$10+$1", "USD", "IV"),
        hero=rng.randrange(players),
    )
    return hand, record


def pokerstars(record: HandRecord) -> str:
    return write_pokerstars_hand(record, describe=pokerstars_description)


def read_text(text: str) -> HandRecord:
    result = read_pokerstars(text)
    if result.errors:
        raise AssertionError(f"the PokerStars text does not read back: {result.errors[0]}")
    (record,) = result.hands
    return record


def pokerstars_keeps(record: HandRecord, read: HandRecord) -> HandRecord:
    """``record`` less what PokerStars text cannot carry, with ``read``'s cards and shows once
    they check: every card ``read`` knows is the card dealt, and it knows every up card, the
    hero's cards and every card shown; the shows are the same, in the order PokerStars shows
    them (pot by pot, the last side pot first)."""
    shown = set(record.shown())
    for seat, (dealt, known) in enumerate(zip(record.cards, read.cards, strict=True)):
        if len(dealt) != len(known):
            raise AssertionError(f"seat {seat} is dealt {len(dealt)} cards, read {len(known)}")
        for position, (card, got) in enumerate(zip(dealt, known, strict=True)):
            if got is None and (is_up(position) or seat == record.hero or seat in shown):
                raise AssertionError(f"seat {seat}'s card {position} ({card}) is lost")
            if got is not None and got != card:
                raise AssertionError(f"seat {seat}'s card {position} is {card}, read {got}")

    def by_seat(shows: tuple[Show | Muck, ...]) -> list[Show | Muck]:
        return sorted(shows, key=lambda event: event.seat)

    if by_seat(read.shows) != by_seat(record.shows):
        raise AssertionError(f"the shows differ: {read.shows} read, {record.shows} dealt")
    posted_in_full = any(a.kind is Kind.BRING_IN and not a.all_in for a in record.actions)
    stakes = replace(
        record.stakes,
        ante=max(min(record.stakes.ante, stack) for stack in record.starting_stacks),
        bring_in=record.stakes.bring_in if posted_in_full else None,
    )
    return replace(
        record,
        stakes=stakes,
        cards=read.cards,
        shows=read.shows,
        burn_cards=False,
        burns=(),
        time_et=record.time_et or eastern_time(record.time, record.time_zone),
    )


def capped_streets(text: str) -> list[int]:
    """The streets on which the text says ``Betting is capped``."""
    street, out = 3, []
    for line in text.splitlines():
        if line.startswith("*** ") and "STREET" in line:
            street = int(line[4])
        elif line.startswith("*** RIVER"):
            street = 7
        elif line == "Betting is capped":
            out.append(street)
    return out


class Replays:
    """Each distinct record of one hand replayed once: equal records replay alike."""

    def __init__(self, hand: Hand) -> None:
        assert hand.result is not None
        self.stacks = hand.result.stacks
        self.done: dict[HandRecord, ReplayReport] = {}

    def check(self, record: HandRecord, what: str) -> None:
        report = self.done.get(record) or self.done.setdefault(record, replay(record))
        if not report.ok:
            raise AssertionError(f"{what} does not replay: {report.problems[0]}")
        if report.stacks != self.stacks or not report.matched:
            raise AssertionError(f"{what} replays to {report.stacks}, the hand to {self.stacks}")


def phh_first(hand: Hand, record: HandRecord, replays: Replays) -> None:
    """PHH → PokerStars → PHH."""
    first = read_phh(write_phh(record))
    assert first == record, "the PHH does not read back as the record"
    replays.check(first, "the PHH")
    text = pokerstars(first)
    read = read_text(text)
    assert read == pokerstars_keeps(first, read), "the PokerStars text of the PHH differs"
    replays.check(read, "the PokerStars text of the PHH")
    again = write_phh(read)
    last = read_phh(again)
    assert last == read, "the PHH of the PokerStars text does not read back as its record"
    assert last.actions == record.actions
    replays.check(last, "the PHH of the PokerStars text")
    assert write_phh(last) == again


def pokerstars_first(hand: Hand, record: HandRecord, replays: Replays) -> None:
    """PokerStars → PHH → PokerStars, and the text's capped streets are the engine's."""
    text = pokerstars(record)
    capped = [e.street for e in hand.events if isinstance(e, BettingCapped)]
    assert capped_streets(text) == capped, f"'Betting is capped' on {capped_streets(text)}"
    read = read_text(text)
    assert read == pokerstars_keeps(record, read), "the PokerStars text differs from the hand"
    replays.check(read, "the PokerStars text")
    middle = read_phh(write_phh(read))
    assert middle == read, "the PHH of the PokerStars text does not read back as its record"
    replays.check(middle, "the PHH of the PokerStars text")
    again = pokerstars(middle)
    assert again == text, "the PokerStars text of the PHH is another text"
    last = read_text(again)
    assert last == read and last.actions == record.actions
    replays.check(last, "the PokerStars text of the PHH")


DIRECTIONS: dict[str, Callable[[Hand, HandRecord, Replays], None]] = {
    "PHH → PokerStars → PHH": phh_first,
    "PokerStars → PHH → PokerStars": pokerstars_first,
}


def round_trip_failures(game: Game, count: int = HANDS) -> dict[str, dict[int, str]]:
    """For each direction, the seeds of the hands that do not round-trip and why."""
    failures: dict[str, dict[int, str]] = {name: {} for name in DIRECTIONS}
    for seed in range(FIRST_SEED[game], FIRST_SEED[game] + count):
        hand, record = random_hand(game, seed)
        replays = Replays(hand)
        for name, trip in DIRECTIONS.items():
            try:
                trip(hand, record, replays)
            except Exception as error:  # every kind of failure is counted and shown
                failures[name][seed] = f"{type(error).__name__}: {error}".splitlines()[0]
    return failures


def features(game: Game, count: int = HANDS) -> Counter[str]:
    """How often the hands hit what the formats find hard: the proof that they are tested."""
    seen: Counter[str] = Counter()
    for seed in range(FIRST_SEED[game], FIRST_SEED[game] + count):
        hand, record = random_hand(game, seed)
        actions = record.actions
        seen["all-in bring-in"] += any(a.kind is Kind.BRING_IN and a.all_in for a in actions)
        seen["all-in wager"] += any(a.kind in (Kind.BET, Kind.RAISE) and a.all_in for a in actions)
        seen["bring-in is the small bet"] += record.stakes.bring_in == record.stakes.small_bet
        seen["capped"] += any(isinstance(e, BettingCapped) for e in hand.events)
        seen["side pot"] += len(record.pots) > 1
        seen["community card"] += bool(record.community)
        seen["tournament"] += record.tournament is not None
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_hand_round_trips_both_ways(game: Game) -> None:
    failures = round_trip_failures(game)
    summary = {name: f"{HANDS - len(failed)}/{HANDS}" for name, failed in failures.items()}
    examples = [f"{seed}: {why}" for failed in failures.values() for seed, why in failed.items()]
    assert not examples, f"{game} {summary}: " + "; ".join(examples[:5])


@pytest.mark.parametrize("game", GAMES)
def test_the_hands_reach_the_hard_cases(game: Game) -> None:
    seen = features(game, 200)
    for feature in (
        "all-in bring-in",
        "all-in wager",
        "bring-in is the small bet",
        "capped",
        "side pot",
        "community card",
        "tournament",
    ):
        assert seen[feature] >= 5, (feature, seen)
