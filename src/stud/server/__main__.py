"""``python -m stud.server``: the same as ``stud serve``, without the other subcommands."""

from __future__ import annotations

import argparse
import sys

from stud.cli.serve import register


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stud.server")
    sub = parser.add_subparsers(dest="command")
    register(sub)
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
