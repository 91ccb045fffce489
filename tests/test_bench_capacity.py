"""The capacity bench's pure parts: the search, its statistics, and its websocket framing.

bench/bench_cluster.py finds the most actions per second a room serves within
a p99 bound; its figures are only as good as the search, the percentile, the
pairing of actions with receipts and the frames its lean client reads and
writes. Nothing here is timed: the rooms are made up.
"""

from __future__ import annotations

import base64
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from capacity import (
    Costs,
    Meter,
    Point,
    ceilings,
    fit,
    most_per_second,
    percentile,
    ratio,
    search,
)
from lean_socket import CLOSE, PING, TEXT, FrameReader, ProtocolError, accept_key, frame


def room(
    knee: int, per_table: float = 2.5, calls: list[int] | None = None
) -> Callable[[int], Point]:
    """A made-up room: p99 grows slowly up to ``knee`` busy tables, then steeply."""

    def measure(tables: int) -> Point:
        if calls is not None:
            calls.append(tables)
        p99 = 10 + 20 * tables / knee if tables <= knee else 30 + 5 * (tables - knee)
        served = per_table * min(tables, knee * 1.1)
        return Point(tables, served, p99 / 3, p99)

    return measure


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 1001)]
    assert percentile(values, 0.99) == 990.0
    assert percentile(values, 0.5) == 500.0
    assert percentile(values, 1.0) == 1000.0
    assert percentile([7.0], 0.99) == 7.0
    assert percentile(list(reversed(values)), 0.99) == 990.0
    assert math.isnan(percentile([], 0.5))
    with pytest.raises(ValueError, match="quantile"):
        percentile(values, 99)


def test_an_unanswered_action_counts_as_slower_than_every_answered_one() -> None:
    latencies = [0.01] * 98 + [math.inf] * 2
    assert percentile(latencies, 0.99) == math.inf


@pytest.mark.parametrize("knee", [1, 7, 60, 100, 333, 1000])
def test_search_finds_the_knee_within_the_resolution(knee: int) -> None:
    calls: list[int] = []
    found = search(room(knee, calls=calls), 30.0, start=60, most=5000, resolution=0.1)
    assert found.best is not None
    # Within the bound up to the knee exactly; the search stops within 10% (or 1 table) of it.
    assert found.best.tables <= knee
    assert knee - found.best.tables <= max(1, 0.1 * knee)
    assert found.first_over is not None and found.first_over.tables > knee
    assert found.best.p99_ms <= 30.0
    assert len(calls) == len(set(calls)), "a load was measured twice"
    assert len(calls) < 25


def test_search_stops_at_the_most_it_may_offer() -> None:
    found = search(room(10_000), 30.0, start=60, most=500)
    assert found.best is not None and found.best.tables == 500
    assert found.first_over is None


def test_search_reports_no_capacity_when_even_the_least_load_is_over() -> None:
    def hopeless(tables: int) -> Point:
        return Point(tables, 1.0, 900.0, 1000.0)

    found = search(hopeless, 50.0, start=60, most=500, least=5)
    assert found.best is None
    assert found.first_over is not None and found.first_over.tables == 5


def test_searches_for_several_bounds_share_their_measurements() -> None:
    calls: list[int] = []
    cache: dict[int, Point] = {}
    measure = room(200, calls=calls)
    tight = search(measure, 25.0, start=60, most=5000, cache=cache)
    loose = search(measure, 30.0, start=60, most=5000, cache=cache)
    assert len(calls) == len(set(calls))
    assert tight.best is not None and loose.best is not None
    assert tight.best.tables < loose.best.tables
    assert tight.best.p99_ms <= 25.0


def test_search_refuses_a_start_outside_its_range() -> None:
    with pytest.raises(ValueError, match="start"):
        search(room(10), 30.0, start=0, most=10)
    with pytest.raises(ValueError, match="grow"):
        search(room(10), 30.0, start=5, most=10, grow=1.0)


def test_ratio_of_capacities() -> None:
    one = search(room(100, per_table=2.0), 30.0, start=60, most=5000)
    two = search(room(200, per_table=2.0), 30.0, start=60, most=5000)
    assert one.best is not None and two.best is not None
    assert ratio(two, one) == pytest.approx(
        two.best.actions_per_second / one.best.actions_per_second
    )
    none = search(lambda t: Point(t, 1.0, 500.0, 500.0), 30.0, start=1, most=4)
    assert math.isnan(ratio(two, none))


def test_meter_pairs_an_action_with_its_last_receipt() -> None:
    meter = Meter(watchers=3)
    meter.sent(1, 10, 0.0)  # not measuring yet: not counted
    meter.measuring = True
    meter.sent(1, 11, 1.0)
    meter.sent(2, 11, 1.5)
    for arrived in (1.01, 1.02):
        meter.received(1, 11, arrived)
    meter.received(1, 10, 1.2)  # sent before the window: ignored
    meter.received(2, 12, 1.6)  # no such action
    assert meter.actions == 0 and len(meter.pending) == 2
    meter.received(1, 11, 1.05)
    assert meter.latencies == [pytest.approx(0.05)]
    meter.measuring = False
    for _ in range(3):
        meter.received(2, 11, 1.75)  # answered after the window closed: still measured
    assert meter.actions == 2 and not meter.pending
    assert meter.latencies[1] == pytest.approx(0.25)


def read_client_frame(data: bytes) -> tuple[int, bytes]:
    """What a server reads from a client frame (RFC 6455 5.2), to check :func:`frame`."""
    assert data[0] & 0x80, "final"
    assert data[1] & 0x80, "a client frame is masked"
    length, pos = data[1] & 0x7F, 2
    if length == 126:
        length, pos = int.from_bytes(data[2:4], "big"), 4
    elif length == 127:
        length, pos = int.from_bytes(data[2:10], "big"), 10
    mask, payload = data[pos : pos + 4], data[pos + 4 :]
    assert len(payload) == length
    return data[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@pytest.mark.parametrize("size", [0, 1, 5, 125, 126, 127, 65535, 65536])
def test_client_frames_are_masked_and_decode_to_the_payload(size: int) -> None:
    payload = os.urandom(size)
    data = frame(TEXT, payload, b"\x01\x80\xfe\x7f")
    assert read_client_frame(data) == (TEXT, payload)
    if size:  # every byte of this mask is non-zero: every byte of the payload changes
        assert all(a != b for a, b in zip(data[-size:], payload, strict=True))


def server_frame(opcode: int, payload: bytes, final: bool = True) -> bytes:
    length = len(payload)
    first = (0x80 if final else 0) | opcode
    if length < 126:
        return bytes((first, length)) + payload
    if length < 1 << 16:
        return bytes((first, 126)) + length.to_bytes(2, "big") + payload
    return bytes((first, 127)) + length.to_bytes(8, "big") + payload


def test_frame_reader_splits_messages_across_any_reads() -> None:
    messages = [b'{"type":"event","n":1}', b"x" * 300, b"y" * 70_000, b""]
    stream = b"".join(server_frame(TEXT, m) for m in messages)
    for chunk in (1, 2, 3, 7, 126, 4096, len(stream)):
        reader = FrameReader()
        got = []
        for start in range(0, len(stream), chunk):
            got += reader.feed(stream[start : start + chunk])
        assert got == [(TEXT, m) for m in messages], chunk


def test_frame_reader_joins_fragments_around_a_control_frame() -> None:
    reader = FrameReader()
    stream = (
        server_frame(TEXT, b"hel", final=False)
        + server_frame(PING, b"p")
        + server_frame(0x0, b"lo", final=False)
        + server_frame(0x0, b"!")
        + server_frame(CLOSE, b"\x03\xe8")
    )
    assert reader.feed(stream) == [(PING, b"p"), (TEXT, b"hello!"), (CLOSE, b"\x03\xe8")]


def test_frame_reader_refuses_a_masked_server_frame() -> None:
    with pytest.raises(ProtocolError, match="masked"):
        FrameReader().feed(frame(TEXT, b"hi", b"abcd"))


def test_accept_key_is_rfc_6455s_example() -> None:
    # RFC 6455 section 1.3: this key is answered with this accept value.
    assert accept_key(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert len(base64.b64decode(accept_key(b"x"))) == 20


def test_ceilings_of_two_processes_against_one() -> None:
    # Servers alone: 1 ms an action in one process, 1.25 ms in two (what passing costs).
    one, two = Costs(1.0, 0.0), Costs(1.25, 0.0)
    scaling, ceiling = ceilings(one, two, cores=2)
    assert scaling == pytest.approx(1.6)
    assert ceiling == pytest.approx(1.6)
    # 0.5 ms an action of generator, PostgreSQL and Redis on the same two cores: one process
    # still has its core (1000/s), two are held to 2000 / 1.75 ms = 1143/s by the machine.
    scaling, ceiling = ceilings(Costs(1.0, 0.5), Costs(1.25, 0.5), cores=2)
    assert scaling == pytest.approx(1.6)
    assert ceiling == pytest.approx((2000 / 1.75) / 1000)
    # On one core the second process has nowhere to run.
    assert most_per_second(Costs(1.0, 0.0), 2, cores=1) == pytest.approx(1000.0)
    assert math.isnan(most_per_second(Costs(0.0, 1.0), 1, cores=2))
    # A process's per-second work (0.1 of a core) leaves 0.9 of its core for actions.
    assert most_per_second(Costs(1.0, 0.0, 0.1), 1, cores=2) == pytest.approx(900.0)
    scaling, _ = ceilings(Costs(1.0, 0.0, 0.1), Costs(1.0, 0.0, 0.2), cores=2)
    assert scaling == pytest.approx(1800 / 900)


def test_fit_separates_per_second_from_per_action_work() -> None:
    rates = [50.0, 100.0, 200.0, 400.0]
    cores = [0.05 + 0.0012 * r for r in rates]  # 0.05 of a core, plus 1.2 ms an action
    fixed, per_action = fit(rates, cores)
    assert fixed == pytest.approx(0.05)
    assert per_action == pytest.approx(1.2)
    with pytest.raises(ValueError, match="two different rates"):
        fit([100.0, 100.0], [0.1, 0.2])


def test_report_gives_each_rooms_capacity_and_the_ratio() -> None:
    import argparse

    from bench_cluster import LINES, RoomResult, report

    def point(tables: int, rate: float, p99: float, servers_ms: float) -> Point:
        figures = {key: 0.0 for _, key, _ in LINES}
        figures |= {k: 0.0 for k in ("servers_cpu_ms_per_action", "generator_cpu_ms_per_action",
                                     "pg_cpu_ms_per_action", "pg_commits_per_action",
                                     "pg_rows_per_action", "redis_cpu_ms_per_action",
                                     "redis_commands_per_action", "machine_cores_busy",
                                     "ping_p99_ms", "others_cores")}  # fmt: skip
        figures["servers_cores"] = 0.02 + servers_ms * rate / 1000
        figures["others_cores"] = 0.3 * rate / 1000
        return Point(tables, rate, p99 / 4, p99, figures)

    results = []
    for room, knee, servers_ms in (("1", 200, 1.0), ("2", 340, 1.1)):
        points = {t: point(t, 2.5 * t, 20 + 30 * t / knee, servers_ms) for t in (60, 120, 240, 480)}
        capacities = [search(points.__getitem__, b, start=60, most=480, grow=2.0,
                             resolution=1.0) for b in (50.0, 100.0)]  # fmt: skip
        results.append(RoomResult(room, None, sorted(points.values(), key=lambda p: p.tables),
                                  capacities))  # fmt: skip
    args = argparse.Namespace(bound=[100.0, 50.0], pin=False)
    text = report(results, args, ["1.0 1.0 1.0", "1.1 1.0 1.0"])
    # Within 50 ms: 1 process up to 120 tables (300/s), 2 processes up to 240 (600/s).
    assert "capacity at p99 <= 50 ms: 1 process, shared room: 300.0 actions/s at 120 tables" in text
    assert "ratio 2 processes / 1 process: 2.00 (target 1.6: met)" in text
    assert "raise --most" in text  # at 100 ms both served the most offered
    assert "servers 1.000 ms CPU + 0.020 cores" in text
    assert "load average 1.0 1.0 1.0 at the start" in text
    assert "target, one process serves 200 tables with p99 under 50 ms: not met" in text
