"""``rummikub solve``: the best play of one position, or every legal play with ``--all``.

>>> from rummikub.cli import main
>>> main(["solve", "--table", "R5 J R7 | K7 B7 O7", "--rack", "R8 K7 O1"])  # doctest: +ELLIPSIS
play    R8  (1 tile, 8 points)
table   K7 B7 O7 | R5 J R7 R8
rack    K7 O1
search  65 states, 1 pass, ... ms
0
>>> main(["solve", "--table", "R1 R2 R3", "--rack", "R4 R5 K9", "--all"])  # doctest: +ELLIPSIS
#  tiles  points  placed  new table
1      2       9  R4 R5   R1 R2 R3 R4 R5
2      1       4  R4      R1 R2 R3 R4
2 legal plays
search  229 states, 1 pass, ... ms
0
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from .._errors import SearchLimitError
from ..cli import add_rules_options, plural, rules_from_args
from ..meld import Table
from ..tiles import TileSet

__all__ = ["add_solve_parser", "solve_main", "DEFAULT_LIST_LIMIT"]

DEFAULT_LIST_LIMIT = 1000
"""Plays that ``solve --all`` shows unless ``--limit`` says otherwise."""


def add_solve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``solve`` command to an ``argparse`` subparsers object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "solve", help="the best play from a rack onto a table (or every legal play)",
        description="Finds the best legal play exactly and prints it with the new table; with --all, lists "
                    "every distinct legal play (best first) with its new table.")
    p.add_argument("--table", default="", help="the table, melds separated by '|' (default: empty)")
    p.add_argument("--rack", required=True, help="the rack, e.g. \"R8 K7 O1 J\"")
    add_rules_options(p)
    p.add_argument("--opening", action="store_true", help="the player has not opened yet (the opening rule applies)")
    p.add_argument("--objective", default="tiles", choices=("tiles", "value", "penalty"),
                   help="most tiles (default), most value, or lowest rack total left")
    p.add_argument("--all", action="store_true", help="list every distinct legal play instead, best first")
    p.add_argument("--limit", type=_count, default=DEFAULT_LIST_LIMIT, metavar="N",
                   help=f"with --all: show at most N plays (default {DEFAULT_LIST_LIMIT}; 0 shows them all)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=solve_main)
    return p


def solve_main(args: argparse.Namespace) -> int:
    """Runs ``rummikub solve`` from parsed arguments; returns the exit status."""
    from ..search import plays, solve

    rules = rules_from_args(args)
    table = Table.parse(args.table, rules)
    rack = TileSet.parse(args.rack, rules)
    opened = not args.opening
    start = time.perf_counter()
    if args.all:
        found = plays(table, rack, rules=rules, opened=opened)
        try:
            total = len(found)
        except SearchLimitError as exc:  # a position with too many plays to hold in memory
            raise SearchLimitError(f"{exc}; without --all, solve finds the best play") from None
        shown = [p for _, p in zip(range(args.limit or total), found)]
        elapsed = time.perf_counter() - start
        if args.json:
            print(json.dumps({"count": total, "shown": len(shown), "stats": found.stats.to_dict(), "seconds": elapsed,
                              "plays": [{"tiles": str(p.tiles), "count": len(p.tiles), "value": p.value,
                                         "table": str(p.table)} for p in shown]}))
            return 0
        rows = [(str(i), str(len(p.tiles)), str(p.value), str(p.tiles), str(p.table)) for i, p in enumerate(shown, 1)]
        print(_columns(("#", "tiles", "points", "placed", "new table"), rows, right=(True, True, True)))
        print(plural(total, "legal play") + (f"; the best {len(shown)} shown (--limit N to change)"
                                             if len(shown) < total else ""))
        print(_search_line(found.stats.states, found.stats.runs, elapsed))
        return 0
    play = solve(table, rack, rules=rules, opened=opened, objective=args.objective)
    elapsed = time.perf_counter() - start
    if args.json:
        out = None if play is None else {
            "tiles": str(play.tiles), "table": str(play.table), "value": play.value, "count": len(play.tiles),
            "rack_left": str(rack - play.tiles), "stats": play.stats.to_dict()}
        print(json.dumps({"play": out, "seconds": elapsed}))
        return 0
    if play is None:
        print("no legal play: draw a tile")
        print(f"search  {elapsed * 1e3:.2f} ms")
        return 0
    print(f"play    {play.tiles}  ({plural(len(play.tiles), 'tile')}, {plural(play.value, 'point')})")
    print(f"table   {play.table}")
    print(f"rack    {rack - play.tiles or '(empty: Rummikub!)'}")
    print(_search_line(play.stats.states, play.stats.runs, elapsed))
    return 0


def _search_line(states: int, runs: int, seconds: float) -> str:
    return f"search  {plural(states, 'state')}, {plural(runs, 'pass', 'passes')}, {seconds * 1e3:.2f} ms"


def _columns(head: tuple[str, ...], rows: Sequence[tuple[str, ...]], right: tuple[bool, ...]) -> str:
    """A text table: each column as wide as its widest cell, right-aligned where ``right`` says so (the
    first columns), the last column unpadded."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = []
    for r in [head, *rows]:
        cells = [c.rjust(w) if i < len(right) and right[i] else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        cells[-1] = r[-1]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of plays (0 for all), got {text[:40]!r}")
    return n
