"""The same tasks on Ray: a local Ray, or a cluster's, results streamed back as they end.

Imported only for ``--ray`` (Ray is the ``stud[ray]`` extra). Each task runs
as one Ray task of one CPU, spread over the nodes; a task whose worker or
node dies is run again (:data:`RETRIES` times), which costs that task alone
and changes nothing in the answer, since a task is a pure function of its
arguments. A Ray this process started is shut down at the end; one already
connected (a notebook's, a test's) is left as it was.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from typing import Any

from stud.sim.tasks import Finished, Play, load

RETRIES = 5
"""Times a task is run again after its worker died (never after an error in the task)."""


def connect(address: str, cpus: int | None) -> bool:
    """Join Ray at ``address`` (``local`` starts one with ``cpus``); whether this call started it.

    A local Ray starts offline: no dashboard, no usage statistics sent.
    """
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'stud[ray]'") from None
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address == "local":
        # "local" asks Ray for an instance of its own: without it, ray.init joins the
        # latest cluster started on this machine (/tmp/ray/ray_current_cluster) if any.
        ray.init(address="local", num_cpus=cpus, include_dashboard=False, configure_logging=False)
    else:
        reachable(address)
        try:
            ray.init(address=address, configure_logging=False)
        except ConnectionError as error:
            raise ValueError(f"--ray {address}: {error}") from None
    return True


def reachable(address: str, seconds: float = 10.0) -> None:
    """Fail fast (ValueError) if ``HOST:PORT`` does not answer: Ray itself would wait minutes."""
    host, colon, port = address.rpartition(":")
    if not colon or "://" in address or not port.isdigit():
        return  # "auto", or a form Ray reads itself
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as error:
        raise ValueError(f"--ray {address}: no Ray head answers there ({error})") from None


def play_task(
    play: Play[Any, Any], config: Any, start: int, count: int, preload: tuple[str, ...]
) -> tuple[str, Any]:
    """One task on a Ray worker: the node it ran on, and its result."""
    import ray

    load(preload)
    return ray.get_runtime_context().get_node_id(), play(config, start, count, None)


def on_ray(
    play: Play[Any, Any],
    tasks: Sequence[tuple[Any, int, int]],
    address: str,
    cpus: int | None,
    nodes: set[str],
    preload: tuple[str, ...],
) -> Finished:
    """The tasks on Ray at ``address``, yielded as they finish; ``nodes`` hears where they ran.

    Those not finished are cancelled if the caller stops early.
    """
    import ray

    started = connect(address, cpus)
    pending: list[Any] = []
    try:
        remote = ray.remote(play_task).options(
            num_cpus=1, max_retries=RETRIES, retry_exceptions=False, scheduling_strategy="SPREAD"
        )
        shared = ray.put(play)
        index = {
            remote.remote(shared, config, start, count, preload): i
            for i, (config, start, count) in enumerate(tasks)
        }
        pending = list(index)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                node, result = ray.get(ref)
                nodes.add(node)
                yield index[ref], result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
