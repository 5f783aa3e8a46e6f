"""``rummikub replay RECORD``: prints a game record turn by turn.

A full record (``Game.to_json()``) is replayed through the rules, so the racks are printed too; a public
record (``Game.public_record()``, what a spectator saw) has no racks, so only the counts are. Every turn shows
who did what, the table after a play, and the tiles left in each rack and in the pool; the end shows the
scores. ``RECORD`` is a JSON file, or ``-`` for standard input.

>>> import json, tempfile
>>> from rummikub import Game
>>> game = Game.new(players=2, seed=3)
>>> game.apply("draw")
>>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
...     _ = fh.write(json.dumps(game.public_record()))
>>> main([fh.name])                                   # doctest: +NORMALIZE_WHITESPACE
public record: standard, 2 players, player 1 starts
turn 1   player 1 draws 1 tile
         racks 14 15  pool 77
game not finished after 1 turn: player 0 to move
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, TextIO

from ._errors import InvalidRecordError, RummikubError
from .game.record import PUBLIC_RECORD_FORMAT, RECORD_FORMATS, iter_replay, load_record_json
from .rules import RuleSet

__all__ = ["add_replay_parser", "replay_main", "replay_lines", "main"]


def add_replay_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``replay`` subcommand to an ``argparse`` subparsers object (``args.func(args)`` runs it)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "replay", help="print a game record turn by turn",
        description="Prints a game record (full or public JSON) turn by turn: actions, tables, racks when the "
                    "record holds them, and the scores.")
    p.add_argument("record", help="the record's JSON file, or - for standard input")
    p.add_argument("--no-racks", action="store_true", help="do not print the racks of a full record")
    p.set_defaults(func=replay_main)
    return p


def replay_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Runs ``rummikub replay`` from parsed arguments; returns the exit status (1 for a bad record)."""
    stream = out or sys.stdout
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"rummikub replay: cannot read {args.record!r}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        for line in replay_lines(load_record_json(text), racks=not args.no_racks):
            print(line, file=stream)
    except RummikubError as exc:
        print(f"rummikub replay: {exc}", file=sys.stderr)
        return 1
    return 0


def replay_lines(record: Any, *, racks: bool = True) -> Iterator[str]:
    """The printed lines of a full or a public record (full records are checked by replaying them)."""
    if not isinstance(record, Mapping):
        raise InvalidRecordError("a record is a JSON object", "format")
    fmt = record.get("format")
    if fmt in RECORD_FORMATS:
        yield from _full_lines(record, racks)
    elif fmt == PUBLIC_RECORD_FORMAT:
        yield from _public_lines(record)
    else:
        raise InvalidRecordError(f"unknown record format {fmt!r}: expected a game record "
                                 f"({', '.join(RECORD_FORMATS)}) or a public one ({PUBLIC_RECORD_FORMAT})",
                                 "format")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _action(event: Mapping[str, Any]) -> str:
    who = f"player {event.get('player')}"
    cause = event.get("cause", "move")
    why = {"timeout": " (time ran out)", "failed_move": " (time ran out on an unfinished move)"}.get(cause, "")
    kind = event.get("type")
    if kind == "play":
        return f"{who} plays {event.get('played', '?')}{why}"
    if kind == "draw":
        tiles = event.get("tiles")
        if isinstance(tiles, list):
            return f"{who} draws {' '.join(map(str, tiles)) or 'nothing'}{why}"
        return f"{who} draws {_plural(int(event.get('count', 0)), 'tile')}{why}"
    return f"{who} passes{why}"


def _scores(outcome: Mapping[str, Any]) -> list[str]:
    scores = [Fraction(str(s)) for s in outcome.get("scores", [])]
    winners = outcome.get("winners", [])
    how = {"rummikub": "went out", "pool_exhausted": "lowest rack when the pool ran out"}.get(
        str(outcome.get("termination")), str(outcome.get("termination")))
    who = " and ".join(f"player {w}" for w in winners)
    shown = "  ".join(f"player {p}: {'+' if s > 0 else ''}{s}" for p, s in enumerate(scores))
    return [f"game over: {who} won ({how})", f"scores   {shown}"]


def _header(record: Mapping[str, Any], what: str) -> str:
    try:
        rules = RuleSet.from_dict(record.get("rules"))
    except RummikubError as exc:
        raise InvalidRecordError(f"rules: {exc}", "rules") from None
    first = record.get("first_player")
    starter = first.get("player") if isinstance(first, Mapping) else "?"
    seed = record.get("seed")
    return (f"{what}: {rules.name}, {record.get('players')} players"
            f"{f', seed {seed}' if seed is not None else ''}, player {starter} starts")


def _full_lines(record: Mapping[str, Any], racks: bool) -> Iterator[str]:
    yield _header(record, "game record")
    steps = iter_replay(record)
    game = next(steps)
    if racks:
        for p in range(game.players):
            yield f"deal     player {p}: {game.rack(p)}"
    for game in steps:
        event = game.history()[-1]
        yield f"turn {game.turn:<4d}{_action(event)}"
        if event["type"] == "play":
            yield f"         table {game.table_text}"
        if racks:
            p = int(event["player"])
            yield f"         rack  {game.rack(p) or '(empty)'}"
        yield f"         racks {' '.join(map(str, game.rack_sizes()))}  pool {game.pool_size}"
    if game.outcome is not None:
        yield from _scores(game.outcome.to_dict())
    else:
        yield f"game not finished after {_plural(game.turn, 'turn')}: player {game.current_player} to move"


def _public_lines(record: Mapping[str, Any]) -> Iterator[str]:
    yield _header(record, "public record")
    rules = RuleSet.from_dict(record.get("rules"))
    players = record.get("players")
    events = record.get("events")
    if isinstance(players, bool) or not isinstance(players, int) or not isinstance(events, list):
        raise InvalidRecordError("a public record needs players (an int) and events (a list)", "format")
    sizes = [rules.rack_size] * players
    pool = rules.tile_count - rules.rack_size * players
    for turn, event in enumerate(events, start=1):
        if not isinstance(event, Mapping) or not isinstance(event.get("player"), int) \
                or not 0 <= event["player"] < players:
            raise InvalidRecordError(f"event {turn} is not an event of this game: {json.dumps(event)[:200]}",
                                     "format")
        p = event["player"]
        yield f"turn {turn:<4d}{_action(event)}"
        if event.get("type") == "play":
            sizes[p] -= len(str(event.get("played", "")).split())
            yield f"         table {event.get('table', '')}"
        elif event.get("type") == "draw":
            count = int(event.get("count", len(event.get("tiles", []))))
            sizes[p] += count
            pool -= count
        yield f"         racks {' '.join(map(str, sizes))}  pool {pool}"
    outcome = record.get("outcome")
    if isinstance(outcome, Mapping):
        yield from _scores(outcome)
    else:
        turns = len(events)
        yield f"game not finished after {_plural(turns, 'turn')}: player {record.get('current_player')} to move"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rummikub.replay RECORD``: the replay command without the rest of the command line."""
    parser = argparse.ArgumentParser(prog="rummikub")
    sub = parser.add_subparsers(dest="command", required=True)
    add_replay_parser(sub)
    args = parser.parse_args(["replay", *(sys.argv[1:] if argv is None else argv)])
    return replay_main(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
