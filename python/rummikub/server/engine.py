"""The server's one door into the game: every call the rooms make on games, matches, views, drafts and bots.

Rooms speak JSON (the observation, action, draft and check shapes of the project's interface); this module
turns that JSON into calls on :class:`~rummikub.Game` and :class:`~rummikub.Match` and back, so the rest of
the server never touches the game's internals.

>>> from rummikub import RuleSet
>>> match = new_match(2, RuleSet.preset("standard"), rounds=1, clock=lambda: 100.0)
>>> game = match.next_game()
>>> view = view_dict(game, game.current_player)
>>> view["rack"] is not None and spectator_dict(game)["rack"] is None
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .._errors import IllegalMoveError, InvalidNotationError
from ..action import Action
from ..bots import BotLike, get_bot
from ..game import Draft, Game
from ..legality import Reason
from ..match import MATCH_FORMAT, Match
from ..meld import Table
from ..rules import RuleSet
from ..rules import rules_from_json as _rules_from_json
from ..tiles import TileSet

__all__ = ["Clock", "rules_from_json", "new_match", "match_header", "match_from_parts", "game_header",
           "apply_action", "view_dict", "spectator_dict", "deadline", "advance_clock", "check_draft",
           "hint_position", "solve_hint", "make_bot", "bot_action", "public_record", "full_record",
           "event_count", "events_since", "turn_of", "scores", "BOT_KINDS"]

Clock = Callable[[], float]
BOT_KINDS = ("easy", "medium", "hard")


def rules_from_json(obj: Any) -> RuleSet:
    """A rule set from a preset name, ``{"preset": name, "overrides": {...}}`` or ``RuleSet.to_dict()`` JSON.

    >>> rules_from_json({"preset": "classic", "overrides": {"turn_seconds": 30}}).turn_seconds
    30
    """
    return _rules_from_json(obj)


def new_match(players: int, rules: RuleSet, *, rounds: int, clock: Clock, seed: int | None = None) -> Match:
    """A new match of ``rounds`` rounds whose games run on ``clock`` (absolute seconds)."""
    return Match(players, rules=rules, rounds=rounds, seed=seed, clock=clock)


def match_header(match: Match) -> dict[str, Any]:
    """What a match is before its games: stored once when the match starts (it holds the secret seed)."""
    return {"format": MATCH_FORMAT, "rules": match.rules.to_dict(), "players": match.players,
            "rounds": match.rounds, "seed": match.seed}


def match_from_parts(header: Mapping[str, Any], games: Sequence[str], clock: Clock) -> Match:
    """Rebuilds a stored match: its header and each game's record text, replayed and checked."""
    record = dict(header)
    record["games"] = [json.loads(g) for g in games]
    return Match.from_record(record, clock=clock)


def game_header(game: Game) -> str:
    """The game's record without its events, outcome and deadline (stored once, when the game starts; the
    store adds the events and the deadline as turns are played)."""
    record = game.record
    for name in ("events", "outcome", "deadline"):
        record.pop(name, None)
    return json.dumps(record)


def turn_of(game: Game) -> int:
    """How many turns of ``game`` have ended."""
    return game.turn


def event_count(game: Game) -> int:
    """How many events ``game`` has recorded (each turn, timeouts included, records one)."""
    return game.event_count


def events_since(game: Game, start: int) -> list[dict[str, Any]]:
    """The full events from number ``start`` on (drawn tiles included: for the store only, never a client)."""
    return game.history(start=start)


def apply_action(game: Game, seat: int, action: Mapping[str, Any]) -> None:
    """Applies a client's action JSON for ``seat``; raises :class:`IllegalMoveError` (or
    :class:`InvalidNotationError`) and leaves the game unchanged when it is refused."""
    game.apply(Action.from_dict(action, game.rules), seat)


def view_dict(game: Game, seat: int) -> dict[str, Any]:
    """The observation JSON of ``seat``: its own rack and the public information."""
    return game.view(seat).to_dict()


def spectator_dict(game: Game) -> dict[str, Any]:
    """The spectator's observation JSON: public information only (no rack)."""
    return game.spectator_view().to_dict()


def deadline(game: Game) -> float | None:
    """The absolute time (seconds of the game's clock) the current turn ends, or None without a clock."""
    return game.deadline


def advance_clock(game: Game, now: float) -> dict[str, Any] | None:
    """Applies the timeout if the turn's time is over at ``now``; the event, or None."""
    return game.advance_clock(now)


def check_draft(game: Game, seat: int, draft: Mapping[str, Any]) -> dict[str, Any]:
    """The check answer for a draft JSON of ``seat``'s current turn (untimed, never penalised).

    The draft is read against the seat's own view, so a check never tells one seat anything about another
    seat's rack. On the seat's own turn the draft becomes the game's draft: when the time runs out, a started
    move is then a failed move (RULES.md section 9), as at a real table."""
    if draft.get("player") != seat:
        raise IllegalMoveError(f"the draft is player {draft.get('player')!r}'s, not seat {seat}'s",
                               Reason.NOT_YOUR_TURN.value)
    checked = Draft.from_dict(game.view(seat), draft)
    answer = checked.check()
    if seat == game.current_player and not game.is_over:
        game.set_draft(Draft.from_dict(game, draft))  # the move in progress, for the timeout rule
    return answer


def hint_position(game: Game, seat: int) -> tuple[Table, TileSet, RuleSet, bool] | None:
    """The position a hint solves for ``seat`` (its own rack only), or None when it is not its turn."""
    if game.is_over or seat != game.current_player:
        return None
    return game.table, game.rack(seat), game.rules, game.opened(seat)


def solve_hint(position: tuple[Table, TileSet, RuleSet, bool]) -> dict[str, Any] | None:
    """The solver's best play as action JSON, or None (runs in a worker thread: the search releases the GIL)."""
    from ..search import solve

    table, rack, rules, opened = position
    play = solve(table, rack, rules=rules, opened=opened)
    return None if play is None else play.to_dict()


def make_bot(kind: str, seed: int) -> BotLike:
    """A built-in bot (easy, medium, hard)."""
    return get_bot(kind, seed)


def bot_action(bot: BotLike, game: Game, seat: int) -> Callable[[], dict[str, Any]]:
    """A function (to run in a worker thread) giving ``seat``'s bot's action JSON from its own view only."""
    view = game.view(seat)

    def choose() -> dict[str, Any]:
        return bot.choose(view).to_dict()

    return choose


def public_record(game: Game) -> dict[str, Any]:
    """What a spectator saw of ``game``: no racks, no pool order, no seed."""
    return game.public_record()


def full_record(game: Game) -> dict[str, Any]:
    """The game's full record (deal, seed, every drawn tile); only for a finished game."""
    assert game.is_over
    return game.record


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def scores(match: Match) -> dict[str, Any]:
    """The match's running scores: games finished, each seat's wins and point totals, the winners."""
    finished = sum(1 for g in match.games if g.is_over)
    return {"games_played": finished, "total_games": match.total_games, "rounds": match.rounds,
            "wins": [_number(w) for w in match.wins()], "totals": [_number(t) for t in match.totals()],
            "winners": list(match.winners), "over": match.is_over}
