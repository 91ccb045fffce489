"""The order make test hands tests out in (stud.testing.schedule): each worker's first share
holds its part of the long tests, and a module's shared-server tests stay together."""

from __future__ import annotations

from stud.testing.schedule import deal, first_share


def _units() -> list[list[str]]:
    """Twelve long tests, three modules of server tests, then 400 short ones."""
    long = [[f"long{i}"] for i in range(12)]
    servers = [[f"srv{m}-{i}" for i in range(5)] for m in range(3)]
    short = [[f"short{i}"] for i in range(400)]
    return long + servers + short


def _weight(test: str) -> float:
    return 100.0 if test.startswith("long") else 3.0 if test.startswith("srv") else 0.3


def test_each_first_share_gets_its_part_of_the_long_tests() -> None:
    units = _units()
    order = deal(units, _weight, 4)
    assert sorted(order) == sorted(t for u in units for t in u)  # the same tests, once each
    size = first_share(len(order), 4)
    shares = [order[w * size : (w + 1) * size] for w in range(4)]
    assert [sum(t.startswith("long") for t in share) for share in shares] == [3, 3, 3, 3]
    # What xdist sends first is exactly these shares: nothing long is left for later.
    assert not any(t.startswith("long") for t in order[4 * size :])


def test_a_modules_server_tests_stay_together() -> None:
    order = deal(_units(), _weight, 4)
    for module in range(3):
        where = [i for i, t in enumerate(order) if t.startswith(f"srv{module}-")]
        assert where == list(range(where[0], where[0] + 5))


def test_every_other_share_starts_with_the_tests_that_compute() -> None:
    units = [[f"wait{i}"] for i in range(4)] + [[f"cpu{i}"] for i in range(4)]
    units += [[f"short{i}"] for i in range(200)]
    order = deal(units, lambda t: 0.3 if t.startswith("short") else 50.0, 4,
                 waits=lambda t: t.startswith("wait"))  # fmt: skip
    size = first_share(len(order), 4)
    firsts = [order[w * size][:3] for w in range(4)]
    assert firsts.count("wai") == 2 and firsts.count("cpu") == 2


def test_one_worker_or_a_short_list_keeps_the_order() -> None:
    units = _units()
    flat = [t for u in units for t in u]
    assert deal(units, _weight, 1) == flat
    assert deal(units[:5], _weight, 4) == flat[:5]
