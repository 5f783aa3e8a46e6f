"""``rummikub check TABLE``: reads a table in notation and prints it canonically with its value, tiles and
sets; on input that is not a valid table it prints why and exits with status 1.

>>> from rummikub.cli import main
>>> main(["check", "R1-3"])
R1 R2 R3
value 6, 3 tiles, 1 set
0
"""

from __future__ import annotations

import argparse
from typing import Any

from ..cli import add_rules_options, plural, rules_from_args
from ..meld import Table

__all__ = ["add_check_parser", "check_main"]


def add_check_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``check`` command to an ``argparse`` subparsers object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "check", help="check a table: melds separated by '|', e.g. \"R1-3 | KBO7\"",
        description="Reads a table, prints it canonically with its value, tiles and sets.")
    p.add_argument("table", help="the table, e.g. \"R5 J R7 | K7 B7 O7\" (shorthands R1-5 and KBO7 work)")
    add_rules_options(p)
    p.set_defaults(func=check_main)
    return p


def check_main(args: argparse.Namespace) -> int:
    """Runs ``rummikub check`` from parsed arguments; returns the exit status."""
    table = Table.parse(args.table, rules_from_args(args))
    print(table)
    print(f"value {table.value}, {plural(len(table.tiles()), 'tile')}, {plural(len(table), 'set')}")
    return 0
