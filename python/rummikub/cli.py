"""The ``rummikub`` command line.

``rummikub check TABLE`` reads a table in notation and prints it canonically with its value and tile count;
on invalid input it prints the error and exits with status 1.

>>> main(["check", "R1-3 | KBO7"])
R1 R2 R3 | K7 B7 O7
value 27, 6 tiles, 2 sets
0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ._errors import RummikubError
from .meld import Table
from .rules import PRESETS, RuleSet

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummikub", description="An exact, fast Rummikub engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="check a table: melds separated by '|', e.g. \"R1-3 | KBO7\"",
                           description="Reads a table, prints it canonically with its value and tile count.")
    check.add_argument("table", help="the table, e.g. \"R5 J R7 | K7 B7 O7\" (shorthands R1-5 and KBO7 work)")
    check.add_argument("--rules", default="standard", choices=sorted(PRESETS),
                       help="the rule set whose tile counts the table must fit (default: standard)")
    from .arena import add_arena_parser

    add_arena_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "check":
        rules = RuleSet.preset(args.rules)
        try:
            table = Table.parse(args.table, rules)
        except RummikubError as exc:
            print(f"rummikub: {exc}", file=sys.stderr)
            return 1
        print(table)
        print(f"value {table.value}, {len(table.tiles())} tiles, {len(table)} sets")
        return 0
    if args.command == "arena":
        from .arena import arena_main

        try:
            return arena_main(args)
        except RummikubError as exc:
            print(f"rummikub arena: {exc}", file=sys.stderr)
            return 1
    raise AssertionError(args.command)  # pragma: no cover - argparse allows only the commands above


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
