"""The ``rummikub`` command line.

``rummikub solve --table T --rack R`` prints the best play (the tiles placed and the whole new table);
``--opening`` for a player who has not opened, ``--objective``, ``--preset``, ``--json``, ``--all`` (every
legal play).

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
    solve = sub.add_parser("solve", help="the best play from a rack onto a table",
                           description="Finds the best legal play exactly and prints it with the new table.")
    solve.add_argument("--table", default="", help="the table, melds separated by '|' (default: empty)")
    solve.add_argument("--rack", required=True, help="the rack, e.g. \"R8 K7 O1 J\"")
    solve.add_argument("--preset", default="standard", choices=sorted(PRESETS), help="rule preset (default: standard)")
    solve.add_argument("--opening", action="store_true", help="the player has not opened yet (the opening rule applies)")
    solve.add_argument("--objective", default="tiles", choices=("tiles", "value", "penalty"),
                       help="most tiles (default), most value, or lowest rack total left")
    solve.add_argument("--all", action="store_true", help="list every distinct legal play instead")
    solve.add_argument("--json", action="store_true", help="print JSON")
    from .arena import add_arena_parser

    add_arena_parser(sub)
    from .replay import add_replay_parser

    add_replay_parser(sub)
    from .server.cli import add_serve_parser

    add_serve_parser(sub)
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
    if args.command in ("serve", "play"):
        return int(args.func(args))
    if args.command in ("solve", "arena"):
        from .arena import arena_main

        run = _solve if args.command == "solve" else arena_main
        try:
            return run(args)
        except RummikubError as exc:
            print(f"rummikub {args.command}: {exc}", file=sys.stderr)
            return 1
    if args.command == "replay":
        return int(args.func(args))
    raise AssertionError(args.command)  # pragma: no cover - argparse allows only the commands above


def _solve(args: argparse.Namespace) -> int:
    """``rummikub solve``: the best play (or every play) of one position."""
    import json
    import time

    from .search import plays, solve
    from .tiles import TileSet

    rules = RuleSet.preset(args.preset)
    table = Table.parse(args.table, rules)
    rack = TileSet.parse(args.rack, rules)
    opened = not args.opening
    start = time.perf_counter()
    if args.all:
        found = list(plays(table, rack, rules=rules, opened=opened))
        elapsed = time.perf_counter() - start
        if args.json:
            print(json.dumps({"plays": [{"tiles": str(p.tiles), "table": str(p.table), "value": p.value}
                                        for p in found], "seconds": elapsed}))
        else:
            for p in found:
                print(f"{len(p.tiles):2d} tiles  {p.value:3d} points  {p.tiles}")
            print(f"{len(found)} legal plays ({elapsed * 1e3:.2f} ms)")
        return 0
    play = solve(table, rack, rules=rules, opened=opened, objective=args.objective)
    elapsed = time.perf_counter() - start
    if args.json:
        out = None if play is None else {
            "tiles": str(play.tiles), "table": str(play.table), "value": play.value, "count": len(play.tiles),
            "rack_left": str(rack - play.tiles), "stats": vars(play.stats)}
        print(json.dumps({"play": out, "seconds": elapsed}))
        return 0
    if play is None:
        print(f"no legal play: draw ({elapsed * 1e3:.2f} ms)")
        return 0
    print(f"play   {play.tiles}  ({len(play.tiles)} tiles, {play.value} points)")
    print(f"table  {play.table}")
    print(f"rack   {rack - play.tiles or '(empty: Rummikub!)'}")
    print(f"search {play.stats.states} states, {play.stats.runs} programme runs, {elapsed * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
