"""``rummikub engine``: the engine protocol on standard input and output (``docs/protocol.md``).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="rummikub")
>>> _ = add_engine_parser(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["engine"]).no_validate
False
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .protocol import serve

__all__ = ["add_engine_parser", "engine_main", "main"]


def add_engine_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``engine`` subcommand to an ``argparse`` subparsers object; ``engine_main(args)`` runs it."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "engine", help="speak the engine protocol (JSON lines) on stdin/stdout, for programs in any language",
        description="Prints a hello line, then answers JSON requests (solve, plays, check, arrange, turn, quit), "
                    "one per line, until end of input. See docs/protocol.md.")
    p.add_argument("--no-validate", action="store_true",
                   help="skip the JSON Schema check of each request (bad requests still get error answers)")
    p.set_defaults(func=engine_main)
    return p


def engine_main(args: argparse.Namespace) -> int:
    """Runs ``rummikub engine`` from parsed arguments; returns the exit status (0 at end of input)."""
    try:
        return serve(validate=not args.no_validate)
    except KeyboardInterrupt:  # Ctrl-C in a terminal: stop quietly
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rummikub.engine``: the engine without the rest of the command line."""
    parser = argparse.ArgumentParser(prog="rummikub")
    sub = parser.add_subparsers(dest="command", required=True)
    add_engine_parser(sub)
    args = parser.parse_args(["engine", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
