"""The ``rummikub`` command line: ``rummikub COMMAND ...`` and ``python -m rummikub COMMAND ...``.

Commands: ``solve`` (the best play of a position, or every play), ``check`` (read a table and print it
canonically), ``arena`` (bot tournaments). ``rummikub --version`` prints the version.

Every command that plays by some rules takes the same two options: ``--preset NAME`` (default
``standard``, :data:`rummikub.rules.DEFAULT_PRESET`) and ``--rule FIELD=VALUE`` (repeatable) to change one
field of the preset, as :meth:`RuleSet.replace` would, e.g. ``--rule opening_threshold=0``.

A bad option (an unknown preset, a bad ``--rule``) prints one line and exits with status 2; input the
command cannot use (bad notation, an impossible position) prints one line and exits with status 1.

>>> main(["check", "R1-3 | KBO7"])
R1 R2 R3 | K7 B7 O7
value 27, 6 tiles, 2 sets
0

Adding a command: write ``add_NAME_parser(subparsers)`` in the command's own module (it adds the
subparser, its options, and ``set_defaults(func=NAME_main)``; ``NAME_main(args)`` returns the exit status
and raises :class:`RummikubError` for input it cannot use), then register it with one line in
:func:`build_parser`. Command modules may import the helpers below (:func:`add_rules_options`,
:func:`rules_from_args`, :func:`plural`); this module imports them only inside :func:`build_parser`.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import typing
from collections.abc import Sequence
from typing import Any, NoReturn

from ._errors import RummikubError
from ._version import __version__
from .rules import DEFAULT_PRESET, PRESETS, RuleSet

__all__ = ["main", "build_parser", "add_rules_options", "rules_from_args", "parse_rule", "plural"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``rummikub solve: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``rummikub`` parser with every command registered."""
    from .arena import add_arena_parser
    from .commands.check import add_check_parser
    from .commands.solve import add_solve_parser
    from .engine import add_engine_parser
    from .replay import add_replay_parser
    from .server.cli import add_serve_parser

    parser = _Parser(prog="rummikub", description="An exact, fast Rummikub engine.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_solve_parser(sub)
    add_check_parser(sub)
    add_arena_parser(sub)
    add_engine_parser(sub)
    add_replay_parser(sub)
    add_serve_parser(sub)  # serve and play
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error already printed
        return done.code if isinstance(done.code, int) else 0 if done.code is None else 2
    prog = f"rummikub {args.command}"
    if hasattr(args, "rule"):  # the rules are checked as a whole here, so that a bad mix is a usage error
        try:
            rules_from_args(args)
        except RummikubError as exc:
            print(f"{prog}: error: {exc}", file=sys.stderr)
            return 2
    try:
        return int(args.func(args))
    except RummikubError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1


# ---- helpers shared by the commands ----------------------------------------------------------------------


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless ``count`` is 1.

    >>> plural(1, "tile"), plural(3, "tile"), plural(0, "pass", "passes")
    ('1 tile', '3 tiles', '0 passes')
    """
    return f"{count} {word if count == 1 else many or word + 's'}"


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """Adds ``--preset NAME`` and ``--rule FIELD=VALUE`` to a command; :func:`rules_from_args` reads them."""
    parser.add_argument("--preset", default=DEFAULT_PRESET, type=_preset_name, metavar="NAME",
                        help=f"rule preset: {', '.join(PRESETS)} (default {DEFAULT_PRESET})")
    parser.add_argument("--rule", action="append", default=[], type=parse_rule, metavar="FIELD=VALUE",
                        help="change one rule of the preset, e.g. --rule opening_threshold=0 or "
                             "--rule joker_retrieval=free (repeatable; fields as in RuleSet)")


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set that ``--preset`` and the ``--rule`` overrides describe. With overrides, the name says
    what changed (``standard (opening_threshold=0)``) unless ``--rule name=...`` names it.

    >>> args = argparse.Namespace(preset="sabra", rule=[parse_rule("min_len=2")])
    >>> rules = rules_from_args(args)
    >>> rules.name, rules.min_len, rules.joker_retrieval
    ('sabra (min_len=2)', 2, 'replace_from_rack')
    """
    base = RuleSet.preset(args.preset)
    changes = dict(args.rule)
    if not changes:
        return base
    if "name" not in changes:
        changes["name"] = f"{base.name} ({', '.join(f'{k}={_show(v)}' for k, v in changes.items())})"
    return base.replace(**changes)


def parse_rule(text: str) -> tuple[str, Any]:
    """One ``--rule FIELD=VALUE``: the field name and the value converted to the field's type (``none``
    for an unset ``turn_seconds``; ``true``/``false`` for switches). Raises ``argparse.ArgumentTypeError``
    naming the field.

    >>> parse_rule("opening_threshold=0"), parse_rule("joker_in_opening=no"), parse_rule("turn_seconds=none")
    (('opening_threshold', 0), ('joker_in_opening', False), ('turn_seconds', None))
    >>> parse_rule("openning=0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: no rule called 'openning' (fields: name, numbers, colours, ...)
    """
    field, sep, value = text.partition("=")
    field, value = field.strip(), value.strip()
    if not sep or not field:
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE, e.g. opening_threshold=0, got {text[:80]!r}")
    hints = typing.get_type_hints(RuleSet)
    names = [f.name for f in dataclasses.fields(RuleSet)]
    if field not in names:
        raise argparse.ArgumentTypeError(f"no rule called {field[:40]!r} (fields: {', '.join(names)})")
    try:
        return field, _convert(hints[field], value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{field} {exc}, got {value[:40]!r}") from None


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def _convert(hint: Any, value: str) -> Any:
    low = value.lower()
    if hint is bool:
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise ValueError("takes true or false")
    if hint is int:
        try:
            return int(value)
        except ValueError:
            raise ValueError("takes a whole number") from None
    if typing.get_origin(hint) is typing.Literal:
        choices = typing.get_args(hint)
        if value not in choices:
            raise ValueError(f"takes one of {', '.join(choices)}")
        return value
    if float in typing.get_args(hint):  # float | None: the turn clock
        if low in ("none", "off", ""):
            return None
        try:
            return int(value) if value.isdigit() else float(value)
        except ValueError:
            raise ValueError("takes a number of seconds or none") from None
    return value  # a str


def _show(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _preset_name(name: str) -> str:
    if name not in PRESETS:
        raise argparse.ArgumentTypeError(f"unknown preset {name[:40]!r} (choose from {', '.join(PRESETS)})")
    return name


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
