"""A database made before stats kept money apart by unit, and before imported hands were
counted, is brought up to date when a room starts on it (stud.server.storage.upgrades):
the rollup is made again from the facts, and each imported hand gets its facts row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from sqlalchemy import Column, MetaData, Table, inspect, select

from stud.history import read_phh_file, write_phh
from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.server.storage.facts import FLAGS
from stud.server.storage.stats import own_stats, store_facts
from test_players_stats import ACCOUNTS, COUNTED, DATA, facts_of


def old_rollup() -> Table:
    """The rollup as the room made it before ``unit``: keyed by account, stretch and game."""
    columns = [Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
               for c in s.player_rollup.columns if c.name != "unit"]  # fmt: skip
    return Table(s.player_rollup.name, MetaData(), *columns)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_older_database_gets_its_rollup_by_unit_and_its_imported_hands_counted(
    backend: str, database_factory: Callable[[str], str]
) -> None:
    url = database_factory(backend)
    older = Database(url)
    older.create_schema()
    for number in COUNTED:
        rows = facts_of(number)
        older.write_sync(lambda c, rows=rows: store_facts(c, rows))  # type: ignore[misc]
    expected = {a: older.read_sync(lambda c, a=a: own_stats(c, a)) for a in ACCOUNTS.values()}  # type: ignore[misc]
    # The older shape: the rollup without its unit, and an imported hand with no facts row.
    with older.engine.begin() as conn:
        s.player_rollup.drop(conn)
        old_rollup().create(conn)
        for name in ACCOUNTS:  # the facts' accounts, so the importer is another one
            older.store.create_account(conn, name, "user")
        importer = older.store.create_account(conn, "importer", "user").id
        assert importer not in ACCOUNTS.values()
        record = replace(read_phh_file(DATA / "h1.phh").hands[0], hero=0)
        conn.execute(
            s.imported_hands.insert().values(
                account_id=importer, site="pokerstars", site_hand_id="1", game="stud",
                imported_at=5000.0, hero=0, pot=0, decimals=0, phh=write_phh(record),
            )
        )  # fmt: skip
    older.close()

    upgraded = Database(url)
    try:
        upgraded.create_schema()
        columns = {c["name"] for c in inspect(upgraded.engine).get_columns("player_rollup")}
        assert "unit" in columns
        for account, stats in expected.items():
            assert upgraded.read_sync(lambda c, a=account: own_stats(c, a)) == stats  # type: ignore[misc]
        own, results = upgraded.read_sync(lambda c: own_stats(c, importer))
        assert own["hands"] == 1
        assert results["by_game"] == [{"game": "stud", "unit": "play", "hands": 1, "net": -3}]
        # Run again on an up-to-date database: nothing changes, nothing doubles.
        upgraded.create_schema()
        assert upgraded.read_sync(lambda c: own_stats(c, importer)) == (own, results)
        facts = upgraded.read_sync(
            lambda c: c.execute(select(s.hand_facts).where(s.hand_facts.c.source == "import")).all()
        )
        assert len(facts) == 1 and {f: getattr(facts[0], f) for f in FLAGS}
    finally:
        upgraded.close()
