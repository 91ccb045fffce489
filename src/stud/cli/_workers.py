"""The ``--jobs`` and ``--ray`` options the simulating subcommands share, and what they mean.

Kept light (no simulator import): ``stud --help`` builds every parser.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stud.sim.workers import Workers


def add_workers_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` (alias ``--workers``) and ``--ray [ADDRESS]``."""
    parser.add_argument(
        "--jobs",
        "--workers",
        dest="workers",
        metavar="N",
        type=int,
        default=None,
        help="local processes to use (1; the machine may be shared); with --ray local, "
        "the CPUs that Ray may use (all)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        default=None,
        metavar="ADDRESS",
        help="play the tasks on Ray: 'local' starts one on this machine, 'auto' (the default "
        "of a bare --ray) joins the running cluster, or a cluster's HOST:PORT; the same "
        "answers as without (needs stud[ray])",
    )


def workers_from(args: argparse.Namespace) -> Workers:
    """Where the command's tasks are played; ValueError for a bad ``--jobs``."""
    from stud.sim.workers import Workers

    return Workers(jobs=args.workers, ray=args.ray)
