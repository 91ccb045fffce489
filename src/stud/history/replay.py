"""Replay a record through the engine: every action checked against the rules, the money compared.

The engine is given the record's cards (``None`` where the record hides
one), its stakes and stacks, and the rake the record states; then each
recorded action is applied in turn. An action the rules refuse, a turn out
of order, an amount that differs, or final stacks and collected amounts that
differ from the record's are *problems*. Where a rule needs a card the record
hides (a bring-in or a first actor decided by an unknown up card), the engine
takes the record's word and the report says so (*trusted*). A showdown with
hidden cards is checked against every card those cards could be: the report
accepts the record's result only if some such cards give it, and says
whether all of them do. No card is ever invented to make a result match.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from stud.cards import DECK_SIZE, Card
from stud.game import (
    Acted,
    ActionKind,
    ActorTrusted,
    Event,
    Hand,
    IllegalActionError,
    PotsFormed,
    ScriptedCards,
    TableConfig,
    UncalledBetReturned,
    variant,
)
from stud.game import Action as EngineAction
from stud.history.errors import HistoryError
from stud.history.from_engine import record_from_events
from stud.history.ledger import bring_in_to_play
from stud.history.model import WAGERS, Action, HandRecord, Kind, Slot
from stud.history.money import CURRENCY_SYMBOLS, plain

ENGINE_KINDS: Final = {
    Kind.FOLD: ActionKind.FOLD,
    Kind.CHECK: ActionKind.CHECK,
    Kind.CALL: ActionKind.CALL,
    Kind.BRING_IN: ActionKind.BRING_IN,
    Kind.COMPLETE: ActionKind.COMPLETE,
    Kind.BET: ActionKind.BET,
    Kind.RAISE: ActionKind.RAISE,
}
FILLING_LIMIT: Final = 5000
"""Most ways of filling hidden showdown cards a replay tries before it gives up."""


@dataclass
class ReplayReport:
    """What replaying one record found."""

    record: HandRecord
    name: str
    stacks: tuple[int, ...] | None = None
    collected: tuple[int, ...] | None = None
    rake: int | None = None
    compared: bool = False
    problems: list[str] = field(default_factory=list)
    trusted: list[str] = field(default_factory=list)
    events: tuple[Event, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def matched(self) -> bool | None:
        """True when the record's results were checked and agree; None when it has none."""
        return (not self.problems) if self.compared else None

    def amount(self, units: int) -> str:
        r = self.record
        symbol = CURRENCY_SYMBOLS.get(r.currency or "", "") if r.cash else ""
        return symbol + plain(units, r.decimals)

    def to_dict(self) -> dict[str, Any]:
        r = self.record
        return {
            "hand": self.name,
            "id": r.hand_id,
            "game": r.game,
            "ok": self.ok,
            "matched": self.matched,
            "currency": r.currency if r.cash else None,
            "decimals": r.decimals,
            "players": list(r.names),
            "final_stacks": None if self.stacks is None else list(self.stacks),
            "recorded_stacks": None if r.finishing_stacks is None else list(r.finishing_stacks),
            "collected": None if self.collected is None else list(self.collected),
            "recorded_collected": None if r.collected is None else list(r.collected),
            "rake": self.rake,
            "problems": list(self.problems),
            "trusted": list(self.trusted),
        }

    def text(self) -> str:
        """A few lines for people: the verdict, the stacks, what was trusted, what is wrong."""
        r = self.record
        if self.problems:
            verdict = "PROBLEM"
        elif self.compared:
            verdict = "OK, matches the record"
        else:
            verdict = "OK (the record states no results to compare)"
        lines = [f"{self.name} [{r.game}]: {verdict}"]
        if self.stacks is not None:
            stacks = ", ".join(
                f"{name} {self.amount(s)}" for name, s in zip(r.names, self.stacks, strict=True)
            )
            lines.append(f"  final stacks: {stacks}")
            if self.rake:
                lines.append(f"  rake: {self.amount(self.rake)}")
        lines += [f"  trusted: {t}" for t in self.trusted]
        lines += [f"  problem: {p}" for p in self.problems]
        return "\n".join(lines)


def table_config(record: HandRecord) -> TableConfig:
    """The engine table a record was played at; a bring-in the record never shows is one its
    actions fit (:func:`~stud.history.ledger.bring_in_to_play`). A seat the record shows
    at the showdown showed by choice, even beaten (a player who shows losing hands); the
    others muck a hand that cannot win."""
    stakes = record.stakes
    shown = record.shown()
    return TableConfig(
        game=variant(record.game),
        ante=stakes.ante,
        bring_in=bring_in_to_play(record),
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        stacks=record.starting_stacks,
        burn_cards=record.burn_cards,
        muck_losing_hands=tuple(seat not in shown for seat in range(len(record.seats))),
    )


def _states_rake(record: HandRecord) -> bool:
    return bool(record.rake or record.pots or record.collects)


def _who(record: HandRecord, seat: int) -> str:
    return f"{record.seats[seat].name} (seat {record.seats[seat].number})"


def describe_action(record: HandRecord, action: Action) -> str:
    """``Hero raises to 8 on street 5``: an action as a report names it."""
    amount = "" if action.kind in (Kind.FOLD, Kind.CHECK) else f" to {action.to}"
    if action.kind is Kind.CALL:
        amount = f" {action.amount}"
    return f"{record.seats[action.seat].name} {action.kind.value}{amount} on street {action.street}"


@dataclass
class _Run:
    hand: Hand
    problems: list[str]
    trusted: list[str]
    finished: bool


def _play(
    record: HandRecord,
    cards: Sequence[Sequence[Slot]],
    community: Slot | None,
    rake: int | tuple[int, ...] | None = None,
) -> _Run:
    """Apply the record's actions to a fresh hand dealt ``cards``; stop at the first refusal."""
    scripted = ScriptedCards(
        [[None if c is None else int(c) for c in seat] for seat in cards],
        community=None if community is None else int(community),
        burns=[None if c is None else int(c) for c in record.burns],
    )
    if rake is None and _states_rake(record):
        rake = record.rake
    hand = Hand(table_config(record), cards=scripted, rake=rake)
    problems: list[str] = []
    trusted: list[str] = []
    for number, action in enumerate(record.actions, start=1):
        if action.kind is Kind.RETURN:
            continue
        label = f"action {number} ({describe_action(record, action)})"
        if hand.is_over:
            problems.append(f"{label}: the hand is already over")
            return _Run(hand, problems, trusted, False)
        if hand.street != action.street:
            problems.append(f"{label}: the replay is on street {hand.street}")
            return _Run(hand, problems, trusted, False)
        seat = action.seat
        if hand.to_act is not None and hand.to_act != seat:
            problems.append(f"{label}: it is {_who(record, hand.to_act)}'s turn")
            return _Run(hand, problems, trusted, False)
        try:
            events = hand.act(_engine_action(hand, action), seat=seat)
        except IllegalActionError as error:
            problems.append(f"{label}: {error}")
            return _Run(hand, problems, trusted, False)
        for event in events:
            if isinstance(event, ActorTrusted):
                trusted.append(f"{label}: {event.reason}; took the record's word for who acts")
            elif (
                isinstance(event, Acted)
                and event.seat == seat
                and (event.amount != action.amount or event.all_in != action.all_in)
            ):
                problems.append(
                    f"{label}: the record puts in {action.amount}"
                    f"{' all-in' if action.all_in else ''}, the rules {event.amount}"
                    f"{' all-in' if event.all_in else ''}"
                )
    if not hand.is_over:
        turn = "" if hand.to_act is None else f": {_who(record, hand.to_act)} is to act"
        problems.append(f"the record stops before the hand is over{turn}")
        return _Run(hand, problems, trusted, False)
    return _Run(hand, problems, trusted, True)


def _engine_action(hand: Hand, action: Action) -> EngineAction:
    kind = ENGINE_KINDS[action.kind]
    if action.kind is Kind.BRING_IN:
        opening = hand.legal_actions(action.seat)
        if opening and all(a.kind is ActionKind.COMPLETE for a in opening):
            # A table whose bring-in is the small bet: the forced bet is the completion (R4).
            return next((a for a in opening if a.to == action.to), opening[0])
    if action.kind in WAGERS:
        for legal in hand.legal_actions(action.seat):
            if legal.kind.is_wager and legal.to == action.to:
                return legal
        return EngineAction(kind, action.to, action.seat)
    return EngineAction(kind, 0, action.seat)


def _collected(hand: Hand) -> tuple[int, ...]:
    """What each seat collected from the pots (after rake) in a finished hand."""
    assert hand.result is not None
    totals = [0] * len(hand.result.stacks)
    for award in hand.result.awards:
        totals[award.seat] += award.amount
    return tuple(totals)


def _outcome(run: _Run) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if not run.finished or run.problems or run.hand.result is None:
        return None
    return run.hand.result.stacks, _collected(run.hand)


def _money_problems(record: HandRecord, run: _Run) -> list[str]:
    """Compare the replay's stacks, collections, uncalled bets and cards with the record's."""
    hand = run.hand
    result = hand.result
    assert result is not None
    problems = []
    names = record.names
    if record.finishing_stacks is not None and result.stacks != record.finishing_stacks:
        diff = [
            f"{names[i]} {record.finishing_stacks[i]} recorded, {result.stacks[i]} replayed"
            for i in range(len(names))
            if record.finishing_stacks[i] != result.stacks[i]
        ]
        problems.append("final stacks differ: " + "; ".join(diff))
    collected = _collected(hand)
    if record.collected is not None and collected != record.collected:
        diff = [
            f"{names[i]} {record.collected[i]} recorded, {collected[i]} replayed"
            for i in range(len(names))
            if record.collected[i] != collected[i]
        ]
        problems.append("collected amounts differ: " + "; ".join(diff))
    returned = [(a.seat, a.amount) for a in record.actions if a.kind is Kind.RETURN]
    replayed = [(e.seat, e.amount) for e in hand.events if isinstance(e, UncalledBetReturned)]
    if returned != replayed:
        problems.append(f"uncalled bets differ: {returned} recorded, {replayed} replayed")
    for seat in range(len(names)):
        held, dealt = len(record.cards[seat]), len(hand.cards(seat))
        if held != dealt:
            problems.append(f"{names[seat]} holds {held} cards in the record, {dealt} replayed")
    if bool(record.community) != hand.has_community:
        problems.append("the record and the replay disagree on the community card (R12)")
    return problems


def replay(record: HandRecord, name: str | None = None) -> ReplayReport:
    """Replay one record; see the module docstring for what is checked."""
    report = ReplayReport(record, name or record.label)
    report.compared = record.finishing_stacks is not None or record.collected is not None
    community = record.community[0] if record.community else None
    try:
        run = _play(record, record.cards, community)
    except ValueError as error:  # a table or card set the engine refuses outright
        report.problems.append(str(error))
        return report
    report.trusted += run.trusted
    if not run.finished or run.problems:
        report.problems += run.problems
        report.events = run.hand.events
        return report
    problems = _money_problems(record, run)
    per_pot = _rake_per_pot(record, run)
    if per_pot is not None:
        run = _play(record, record.cards, community, per_pot)
        problems = _money_problems(record, run)
    hidden = _hidden_showdown_slots(record, run.hand)
    if hidden:
        who = ", ".join(sorted({_who(record, s) for s, _ in hidden if s >= 0}))
        if not problems:
            if who:
                report.trusted.append(
                    f"the cards of {who} at the showdown are not all known: taken as mucked, "
                    "which gives the recorded result"
                    if report.compared
                    else f"the cards of {who} at the showdown are not all known: taken as mucked"
                )
        else:
            run, problems, note = _fill_hidden(record, run, problems, hidden)
            if note:
                report.trusted.append(note)
    report.problems += problems
    _finish(report, run)
    return report


def _rake_per_pot(record: HandRecord, run: _Run) -> tuple[int, ...] | None:
    """Each pot's rake as the record states it (pot before rake less pot after), if it differs
    from how the replay took it; None when it does not or the record does not say."""
    formed = [e for e in run.hand.events if isinstance(e, PotsFormed)]
    if not formed or not _states_rake(record) or len(record.pots) < 2:
        return None
    pots = formed[-1].pots
    if len(pots) != len(record.pots):
        return None
    per_pot = tuple(p.amount - after for p, after in zip(pots, record.pots, strict=True))
    if min(per_pot) < 0 or sum(per_pot) != record.rake:
        return None
    return None if per_pot == tuple(p.rake for p in pots) else per_pot


def _finish(report: ReplayReport, run: _Run) -> None:
    result = run.hand.result
    assert result is not None
    report.stacks = result.stacks
    report.collected = _collected(run.hand)
    report.rake = result.rake
    report.events = run.hand.events


def _hidden_showdown_slots(record: HandRecord, hand: Hand) -> list[tuple[int, int]]:
    """(seat, position) of each hidden card of a seat still in at a showdown; seat -1: community."""
    live = [s for s in range(len(record.seats)) if hand.live[s]]
    if len(live) < 2:
        return []
    slots = [(s, p) for s in live for p, c in enumerate(record.cards[s]) if c is None]
    if record.community and record.community[0] is None:
        slots.append((-1, 0))
    return slots


def _fillings(
    record: HandRecord, hidden: list[tuple[int, int]]
) -> tuple[int, Iterator[dict[tuple[int, int], Card]]]:
    """How many ways the hidden showdown cards can be filled, and the fillings themselves."""
    known = {c for seat in record.cards for c in seat if c is not None}
    known |= {c for c in record.community if c is not None}
    known |= {c for c in record.burns if c is not None}
    pool = [Card(i) for i in range(DECK_SIZE) if i not in known]
    groups: dict[int, list[tuple[int, int]]] = {}
    for slot in hidden:
        groups.setdefault(slot[0], []).append(slot)
    sizes = [len(g) for g in groups.values()]
    count, left = 1, len(pool)
    for size in sizes:
        count *= math.comb(left, size)
        left -= size

    def fill(index: int, used: frozenset[Card]) -> Iterator[dict[tuple[int, int], Card]]:
        if index == len(groups):
            yield {}
            return
        slots = list(groups.values())[index]
        for chosen in itertools.combinations([c for c in pool if c not in used], len(slots)):
            for rest in fill(index + 1, used | frozenset(chosen)):
                yield dict(zip(slots, chosen, strict=True)) | rest

    return count, fill(0, frozenset())


def _fill_hidden(
    record: HandRecord, run: _Run, problems: list[str], hidden: list[tuple[int, int]]
) -> tuple[_Run, list[str], str | None]:
    """Try each card the hidden showdown cards could be; keep the recorded result if one does."""
    count, fillings = _fillings(record, hidden)
    seats = sorted({_who(record, s) for s, _ in hidden if s >= 0})
    what = f"{len(hidden)} hidden card(s) at the showdown ({', '.join(seats) or 'community'})"
    if count > FILLING_LIMIT:
        return run, [*problems, f"{what}: {count} ways to fill them, too many to try"], None
    wanted = (record.finishing_stacks, record.collected)
    outcomes: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    matching: _Run | None = None
    tried = 0
    for filling in fillings:
        cards = [
            [filling.get((s, p), c) for p, c in enumerate(record.cards[s])]
            for s in range(len(record.seats))
        ]
        community = record.community[0] if record.community else None
        if (-1, 0) in filling:
            community = filling[(-1, 0)]
        candidate = _play(record, cards, community)
        outcome = _outcome(candidate)
        if outcome is None:
            continue  # these cards contradict the recorded actions
        tried += 1
        outcomes.add(outcome)
        stacks, collected = outcome
        if (wanted[0] is None or stacks == wanted[0]) and (
            wanted[1] is None or collected == wanted[1]
        ):
            filled = replace(record, cards=tuple(tuple(c) for c in cards))
            if matching is None and not _money_problems(filled, candidate):
                matching = candidate
    if matching is None:
        return run, [*problems, f"{what}: no cards they could be give the recorded result"], None
    if len(outcomes) == 1:
        note = f"{what}: every one of the {tried} ways to fill them gives the recorded result"
    else:
        note = (
            f"{what}: the result depends on them; {len(outcomes)} results are possible and "
            "the recorded one is among them, so the record was trusted"
        )
    return matching, [], note


def completed(record: HandRecord, name: str | None = None) -> HandRecord:
    """The record with the results a replay gives, where it states none (PHH from other tools).

    Fills the shows (if the record has none), who collected what from which
    pot, the pots, the rake, no-low pots, collected amounts and finishing
    stacks, so the record can be written as PokerStars text. HistoryError if
    the record does not replay.
    """
    if record.collects:
        return record
    report = replay(record, name)
    if not report.ok:
        raise HistoryError(f"{report.name} does not replay: {report.problems[0]}")
    played = record_from_events(report.events)
    return replace(
        record,
        shows=record.shows or played.shows,
        collects=played.collects,
        pots=played.pots,
        rake=played.rake,
        no_low=played.no_low,
        collected=record.collected or played.collected,
        finishing_stacks=record.finishing_stacks or played.finishing_stacks,
    )
