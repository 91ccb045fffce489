"""The whole tournament as a JSON-able dict, and back: what a server stores to survive a crash.

A snapshot is the state at the last finished hand of every table: a hand in
progress counts for nothing, and each of its players is written with the
chips they had when it was dealt. So restoring a snapshot voids the hands that
were in progress and gives their chips back; the hand numbers they used are
not dealt again. The tournament clock stops while the snapshot lies on disk:
restored at ``now``, the level has as long left to run as when it was taken.
"""

from __future__ import annotations

from typing import Any, Final

from stud.table import Event, HandFactory, TableError
from stud.tournament.places import Bust, Standings
from stud.tournament.settings import TournamentSettings
from stud.tournament.state import CANCELLED, FINISHED, REGISTERING, RUNNING, Entrant, TourneyOut
from stud.tournament.tournament import Tournament

VERSION: Final = 1
STATES: Final = (REGISTERING, RUNNING, FINISHED, CANCELLED)


def snapshot(tournament: Tournament, now: float) -> dict[str, Any]:
    """The tournament at ``now`` as plain data (ints, floats, strings, lists, dicts, None)."""
    t = tournament
    tables = []
    for table_id, table in sorted(t.tables.items()):
        seats: list[dict[str, Any] | None] = []
        for player in table.seats:
            if player is None:
                seats.append(None)
                continue
            in_hand = table.hand is not None and player.index is not None
            seats.append(
                {
                    "id": player.id,
                    "name": player.name,
                    "bot": player.bot,
                    "stack": player.start_stack if in_hand else player.stack,
                    "away": player.sitting_out,
                    "bank": player.bank,
                    "timeouts": player.timeouts,
                }
            )
        tables.append(
            {
                "id": table_id,
                "button": table.button,
                "hand_number": table.hand_number,
                "in_hand": table.hand is not None,
                "level": t.hand_levels.get(table_id),
                "seats": seats,
            }
        )
    return {
        "version": VERSION,
        "taken_at": now,
        "settings": t.settings.to_dict(),
        "seed": t.seed,
        "state": t.state,
        "started_at": t.started_at,
        "finished_at": t.finished_at,
        "level_shown": t.level_shown,
        "registration_open": t.registration_open,
        "final_table": t.final_table,
        "next_table": t.next_table,
        "entrants": [e.to_dict() for e in t.entrants.values()],
        "standings": t.standings.to_dict(),
        "paid": sorted(t.paid),
        "hand_for_hand": {
            "active": t.round_active,
            "rounds": t.rounds_played,
            "busts": [
                [table, hand, players, [b.to_list() for b in busts]]
                for table, hand, players, busts in t.round_busts
            ],
        },
        "tables": tables,
    }


def restore(
    data: dict[str, Any], now: float, *, start_hand: HandFactory | None = None
) -> tuple[Tournament, list[TourneyOut]]:
    """The tournament a snapshot holds, resumed at ``now``; a ``hand_voided`` event per hand
    that was in progress. ValueError names what is wrong with a damaged snapshot."""
    try:
        return _restore(data, now, start_hand)
    except (KeyError, TypeError, IndexError, AttributeError, TableError) as error:
        raise ValueError(f"not a tournament snapshot: {type(error).__name__} {error}") from None


def _restore(
    data: dict[str, Any], now: float, start_hand: HandFactory | None
) -> tuple[Tournament, list[TourneyOut]]:
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError(f"not a tournament snapshot of version {VERSION}")
    if data["state"] not in STATES:
        raise ValueError(f"unknown tournament state {data['state']!r}")
    settings = TournamentSettings.from_dict(data["settings"])
    seed = data["seed"]
    t = Tournament(settings, seed=None if seed is None else int(seed), start_hand=start_hand)
    shift = now - float(data["taken_at"])  # the clock stood still while nothing ran
    t.state = data["state"]
    t.started_at = None if data["started_at"] is None else float(data["started_at"]) + shift
    t.finished_at = None if data["finished_at"] is None else float(data["finished_at"])
    t.level_shown = int(data["level_shown"])
    t.registration_open = bool(data["registration_open"])
    t.final_table = bool(data["final_table"])
    t.next_table = int(data["next_table"])
    for item in data["entrants"]:
        entrant = Entrant(
            int(item["id"]), str(item["name"]), bool(item["bot"]),
            float(item["registered_at"]), int(item["buy_in"]), int(item["fee"]),
        )  # fmt: skip
        t.entrants[entrant.id] = entrant
    t.standings = Standings.from_dict(data["standings"])
    t.paid = {int(a) for a in data["paid"]}
    rounds = data["hand_for_hand"]
    t.round_active = bool(rounds["active"])
    t.rounds_played = int(rounds["rounds"])
    for table_id, hand, players, busts in rounds["busts"]:
        plain = [{"account_id": int(p["account_id"]), "stack": int(p["stack"])} for p in players]
        known = [Bust(*(int(v) for v in b)) for b in busts]
        t.round_busts.append((int(table_id), int(hand), plain, known))
    voided: list[TourneyOut] = []
    seated: set[int] = set()
    for item in data["tables"]:
        table_id = int(item["id"])
        table = t.open_table(table_id)
        if len(item["seats"]) != table.settings.seats:
            raise ValueError(
                f"table {table_id} has {len(item['seats'])} seats, not {table.settings.seats}"
            )
        table.button = int(item["button"])
        table.hand_number = int(item["hand_number"])  # a voided hand's number is not reused
        if item["level"] is not None:
            t.hand_levels[table_id] = int(item["level"])
        for seat, entry in enumerate(item["seats"]):
            if entry is None:
                continue
            account = int(entry["id"])
            if account not in t.entrants or account in seated or int(entry["stack"]) <= 0:
                raise ValueError(f"seat {seat} of table {table_id}: no such player in the field")
            seated.add(account)
            t.seat_restored(table_id, seat, entry, now)  # dealt in after the usual pause
            player = table.seats[seat]
            assert player is not None
            bank = float(entry["bank"])
            if not 0 <= bank <= settings.time_bank:
                raise ValueError(f"seat {seat} of table {table_id}: a time bank of {bank}")
            player.bank, player.timeouts = bank, max(0, int(entry["timeouts"]))
        if item["in_hand"]:
            voided.append(Event("hand_voided", {"table": table_id, "number": table.hand_number}))
        if t.state != RUNNING:
            table.next_hand_at = None
    _check_chips(t)
    if t.round_active:  # every table is between hands now: the round is over
        t.end_round(now)
    seating = t.drain()
    return t, voided + seating + t.rebalance(now)  # every table is between hands now


def _check_chips(t: Tournament) -> None:
    """A snapshot must hold every chip of the field, and nobody both out and seated."""
    if t.state in (REGISTERING, CANCELLED):
        if t.tables:
            raise ValueError("a tournament that has not started has no tables")
        return
    expected = len(t.entrants) * t.settings.structure.starting_chips
    if t.chips_in_play() != expected:
        raise ValueError(f"the snapshot's stacks add up to {t.chips_in_play()}, not {expected}")
    for account_id in t.alive():
        if t.standings.is_out(account_id):
            raise ValueError(f"player {account_id} is both seated and out")
