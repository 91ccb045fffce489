"""The ``stud`` command: one entry point, one module per subcommand.

Each module in this package that defines ``register(subparsers)`` adds its
subcommand; the parser it returns carries ``func(args) -> int``. Every
subcommand's parser is built for ``stud --help``, so a subcommand module
imports only the standard library and :mod:`stud.cli._names` at its top, and
its heavy modules (the engine, NumPy, Rich, the server) in ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stud", description="Seven Card Stud, Stud Hi/Lo and Razz: tools and card room."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``stud`` command; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        status: int = args.func(args)
    except ValueError as error:
        print(f"stud {args.command}: error: {error}", file=sys.stderr)
        return 2
    return status
