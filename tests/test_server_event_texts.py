"""Each event's texts, joined from its kind's and data's JSON, are the texts of the merged dict.

:meth:`Channel._number` writes an event's text for everyone as its kind's member followed by
its data's JSON, and an account's own text as that plus its private part's members, rather
than making ``Event.for_account``'s merged dict for each; an event whose data or private part
would change the merged dict's order (its own ``type``, a private member that replaces a
public one) is merged whole, as before. Here every text of many played hands, and events made
to hit each of those cases, are held byte for byte to the message of the merged dict.
"""

from __future__ import annotations

from typing import Any

from stud.server.actors.channel import Channel
from stud.server.wire import dumps
from stud.table import Event
from test_server_step_delivery import ACCOUNTS, _next, _table


def _expected(channel: Channel, n: int, event: Event, account: int | None) -> str:
    message = {"type": "event", "table": channel.key, "n": n, "event": event.for_account(account)}
    return dumps(message)


def _check(channel: Channel, event: Event) -> None:
    channel.publish(event)
    n, public, private = channel.events[-1]
    assert public == _expected(channel, n, event, None)
    assert set(private) == set(event.private)
    for account, text in private.items():
        assert text == _expected(channel, n, event, account), (event, account)


def test_the_texts_of_played_hands_are_the_merged_dicts() -> None:
    kinds: set[str] = set()
    privates = 0
    for game, seed in (("stud", 15), ("stud8", 16), ("razz", 17)):
        actor, table = _table(game, seed)
        now = 1.0
        for account in ACCOUNTS:
            for out in table.sit(account, f"p{account}", 500, now):
                if isinstance(out, Event):
                    _check(actor.channel, out)
        for turn in range(300):
            for out in _next(table, now, turn):
                if isinstance(out, Event):
                    _check(actor.channel, out)
                    kinds.add(out.kind)
                    privates += len(out.private)
            now += 1.0
    assert {"dealt", "action", "turn", "hand_finished"} <= kinds and privates > 100


def test_events_whose_order_a_merge_would_change_are_merged_whole() -> None:
    channel = Channel("t1.2")
    cases: list[Event] = [
        Event("empty", {}),
        Event("empty_private", {}, {11: {"down": ["As"]}}),
        Event("typed", {"type": "odd", "seat": 1}, {11: {"x": 1}}),
        Event("replaced", {"seat": 2, "down": [None, None]}, {11: {"down": ["As", "Kd"]}}),
        Event("private_type", {"seat": 3}, {11: {"type": "mine", "y": 2}}),
        Event("empty_part", {"seat": 4}, {11: {}, 12: {"legal": []}}),
        Event("int_keys", {"stacks": {3: 10, 5: 20}}, {12: {"by_seat": {1: "x"}}}),
        Event("unicode", {"name": "Zoë \u2603"}, {13: {"note": "é"}}),
    ]
    for event in cases:
        _check(channel, event)
    kept: dict[str, Any] = {}
    for n, public, _private in channel.events:
        kept[str(n)] = public
    assert len(kept) == len(cases)
