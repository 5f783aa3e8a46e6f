"""Game records: the full record (resumes a game exactly) and the public record (what a spectator saw).

**Full record** (``format`` ``"rummikub-game/2"``; ``schemas/record.schema.json``): ``rules`` (every field),
``players``, ``seed``, ``first_player`` (``method``, ``player`` and the tiles drawn for it), ``deal`` (every
rack, and the pool in draw order), ``events`` (every play, draw and pass, with its ``cause``: ``move``,
``timeout`` or ``failed_move``), ``outcome``, and ``deadline``: the current turn's absolute deadline, so a
resumed game keeps its clock. Play events hold the whole new table with each set's tiles in the order laid.
Records of format ``"rummikub-game/1"`` (no ``deadline``: a resumed timed turn starts afresh) still replay.

**Public record** (``format`` ``"rummikub-public/1"``): ``rules``, ``players``, ``first_player``, the
spectator's form of the events (draws show only their count), the current ``table``, ``rack_sizes``,
``pool_size``, ``turn``, ``current_player``, ``deadline`` and ``outcome``. It holds no rack, no pool order and
no seed, so it can go to anybody.

>>> from rummikub import Game
>>> game = Game.new(players=2, seed=5)
>>> game.apply("draw")
>>> full, public = game.record, game.public_record()
>>> full["format"], public["format"], "deal" in public, public["events"][0]["count"]
('rummikub-game/2', 'rummikub-public/1', False, 1)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .._errors import IllegalMoveError, InvalidRecordError, RummikubError
from ..action import _read_table
from ..legality import Reason
from ..rules import RuleSet
from .clock import Clock
from .view import thaw_event

if TYPE_CHECKING:
    from .state import Game

__all__ = ["RECORD_FORMAT", "PUBLIC_RECORD_FORMAT", "RECORD_FORMATS", "full_record", "public_record", "replay",
           "iter_replay", "load_record_json"]

RECORD_FORMAT = "rummikub-game/2"
"""The ``format`` field of a full game record."""
PUBLIC_RECORD_FORMAT = "rummikub-public/1"
"""The ``format`` field of a public game record."""
RECORD_FORMATS = ("rummikub-game/1", RECORD_FORMAT)
"""The full-record formats :func:`replay` reads."""


def full_record(game: Game) -> dict[str, Any]:
    """The game's full record (a fresh JSON-ready dict)."""
    out: dict[str, Any] = {"format": RECORD_FORMAT}
    out.update(json.loads(json.dumps(game._header)))
    out["events"] = game.history()
    out["outcome"] = game.outcome.to_dict() if game.outcome else None
    out["deadline"] = game.deadline
    return out


def public_record(game: Game) -> dict[str, Any]:
    """What a spectator saw of ``game`` (a fresh JSON-ready dict)."""
    first = game._header["first_player"]
    return {
        "format": PUBLIC_RECORD_FORMAT,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "first_player": {"method": first["method"], "player": first["player"],
                         "draws": json.loads(json.dumps(first["draws"]))},
        "events": game.history(public=True),
        "table": game.table_text,
        "rack_sizes": list(game.rack_sizes()),
        "pool_size": game.pool_size,
        "turn": game.turn,
        "current_player": game.current_player,
        "deadline": game.deadline,
        "outcome": game.outcome.to_dict() if game.outcome else None,
    }


def load_record_json(text: str) -> Any:
    """Parses a record's JSON text; :class:`InvalidRecordError` (reason ``format``) when it is not JSON."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as exc:
        raise InvalidRecordError(f"not JSON: {exc}"[:300], "format") from None


def replay(record: Mapping[str, Any], clock: Clock | None) -> Game:
    """Resumes a full record: replays every event through the rules and restores the turn's deadline."""
    game = None
    for game in iter_replay(record, clock):
        pass
    assert game is not None
    _finish_replay(game, record)
    return game


def iter_replay(record: Mapping[str, Any], clock: Clock | None = None) -> Iterator[Game]:
    """The game of a full record at its start, then after each event (the same Game object, advanced);
    :class:`InvalidRecordError` as soon as an event does not replay. The record's outcome and deadline are
    checked by :func:`replay`, not here."""
    from .state import Game

    def need(ok: object, message: str, reason: str = "format") -> None:
        if not ok:
            raise InvalidRecordError(message[:400], reason)

    need(isinstance(record, Mapping), "a record is a JSON object")
    fmt = record.get("format")
    if fmt == PUBLIC_RECORD_FORMAT:
        raise InvalidRecordError("a public record holds no racks or pool, so it cannot be resumed "
                                 "(it can be printed: rummikub replay)", "format")
    need(fmt in RECORD_FORMATS, f"unknown record format {fmt!r} (expected one of {', '.join(RECORD_FORMATS)})")
    try:
        rules = RuleSet.from_dict(record.get("rules"))
    except RummikubError as exc:
        raise InvalidRecordError(f"rules: {exc}", "rules") from None
    players, seed = record.get("players"), record.get("seed")
    first = record.get("first_player")
    deal = record.get("deal")
    events = record.get("events")
    need(isinstance(players, int) and not isinstance(players, bool), f"players must be an int, got {players!r}")
    need(isinstance(first, Mapping) and isinstance(first.get("player"), int), "first_player.player is missing")
    need(isinstance(deal, Mapping) and isinstance(deal.get("racks"), list) and isinstance(deal.get("pool"), str),
         "deal.racks (a list) and deal.pool (a string) are missing")
    need(isinstance(events, list), "events must be a list")
    assert isinstance(first, Mapping) and isinstance(deal, Mapping) and isinstance(events, list)
    racks = deal["racks"]
    need(len(racks) == players, f"deal.racks holds {len(racks)} racks for {players} players")
    need(all(isinstance(r, str) for r in racks), "deal.racks must hold strings")
    game = Game.from_deal(racks, deal["pool"], first_player=first["player"], rules=rules, clock=clock)
    if seed is not None:
        need(isinstance(seed, int) and not isinstance(seed, bool), f"seed must be an int, got {seed!r}")
        fixed = first["player"] if first.get("method") == "given" else None
        assert isinstance(players, int)
        fresh = Game.new(players, rules=rules, seed=seed, first_player=fixed, clock=clock)
        need(fresh._header["deal"] == game._header["deal"] and fresh.first_player == game.first_player,
             f"the deal or the first player does not match seed {seed}", "deal_mismatch")
        game = fresh
    yield game
    for i, event in enumerate(events, start=1):
        _replay_event(game, event, i)
        yield game


def _finish_replay(game: Game, record: Mapping[str, Any]) -> None:
    def need(ok: object, message: str, reason: str = "format") -> None:
        if not ok:
            raise InvalidRecordError(message[:400], reason)

    outcome = record.get("outcome")
    if outcome is not None:
        need(game.outcome is not None and game.outcome.to_dict() == outcome,
             f"the recorded outcome {outcome} differs from the replay's "
             f"{game.outcome.to_dict() if game.outcome else 'unfinished game'}", "outcome_mismatch")
    if "deadline" in record:
        deadline = record["deadline"]
        if deadline is None:
            need(game.deadline is None, "the record has no deadline, but the game's turn is timed", "deadline")
        else:
            need(not isinstance(deadline, bool) and isinstance(deadline, (int, float)) and math.isfinite(deadline),
                 f"deadline must be a number or null, got {deadline!r}")
            need(game.deadline is not None, "a deadline in a game without a running turn clock", "deadline")
            game._deadline = float(deadline)


def _replay_event(game: Game, event: Any, i: int) -> None:
    where = f"event {i}"

    def fail(message: str, reason: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where} ({json.dumps(event)[:200]}): {message}", reason)

    if not isinstance(event, Mapping) or event.get("type") not in ("play", "draw", "pass"):
        raise fail("an event is an object whose type is play, draw or pass", "format")
    if game.is_over:
        raise fail("the game is already over", "after_end")
    if event.get("player") != game.current_player:
        raise fail(f"it is player {game.current_player}'s turn", "out_of_turn")
    cause = event.get("cause", "move")
    if cause not in ("move", "timeout", "failed_move"):
        raise fail(f"unknown cause {cause!r}", "format")
    if cause != "move" and game.rules.turn_seconds is None:
        raise fail("a timeout in a game without a turn clock", "no_clock")
    try:
        if event["type"] == "play":
            if cause == "failed_move":
                raise fail("a play cannot be a failed move", "format")
            if not isinstance(event.get("table"), str):
                raise fail("a play needs a table", "format")
            try:
                table, layout = _read_table(event["table"], game.rules)
            except RummikubError as exc:
                raise fail(f"the table does not read: {exc}", "invalid_set") from None
            played = game._play(table, layout, cause, None)
            if "played" in event and event["played"] != str(played):
                raise fail(f"the play puts {played} on the table, not {event['played']}", "played_mismatch")
        elif event["type"] == "draw":
            tiles = event.get("tiles")
            if not isinstance(tiles, list):
                raise fail("a draw lists the tiles drawn", "format")
            if not game.pool_size:
                raise fail("a draw from an empty pool", Reason.POOL_EMPTY.value)
            count = {"move": 1, "timeout": game.rules.timeout_draw, "failed_move": game.rules.failed_move_draw}[cause]
            expected = [str(t) for t in reversed(game._pool[-min(count, game.pool_size):])] if count else []
            if tiles != expected:
                raise fail(f"the pool gives {expected}, not {tiles}", "draw_mismatch")
            game._draw(count, cause, None)
        else:
            if game.pool_size:
                raise fail(f"a pass while the pool holds {game.pool_size} tiles", Reason.POOL_NOT_EMPTY.value)
            game._pass(cause, None)
    except IllegalMoveError as exc:
        raise fail(f"illegal play: {exc}", exc.reason) from None

