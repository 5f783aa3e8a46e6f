"""A complete game of Rummikub exactly as docs/rules.md describes it: the draw for first player, the deal, turns
(play, draw, pass), the current player's draft with undo, the turn clock, the end and the scores, views that
hide what a player may not see, and a JSON event log that replays to the identical state.

>>> from rummikub import Game
>>> game = Game.new(players=4, preset="pressman-2015", seed=7)
>>> game.pool_size, len(game.rack(game.current_player))
(50, 14)
>>> game.draw()                                  # the first player draws instead of opening
>>> game.pool_size, game.current_player == (game.record["first_player"]["player"] + 1) % 4
(49, True)
>>> Game.from_json(game.to_json()).to_json() == game.to_json()
True

A turn ends in a play (:meth:`Game.commit` for the draft, :meth:`Game.play` for a whole proposed table), a
draw (:meth:`Game.draw`) or, with the pool empty, a pass (:meth:`Game.pass_turn`). A refused play raises
:class:`~rummikub.IllegalMoveError` (its ``reason`` names the rule) and leaves the game exactly as it was.

Turn clock (``rules.turn_seconds``; off unless the rules set it). ``clock`` is any callable returning seconds
(``time.monotonic`` by default), so tests never sleep. :meth:`Game.check_clock` applies the timeout when the
turn's time is over: with no move started the player draws ``timeout_draw`` (1); with a move started the table
is restored, the placed tiles go back and the player draws ``failed_move_draw`` (3); under
``commit_valid_draft_on_timeout`` a legal draft is committed instead. A move is *started* when the draft differs
from the table at the start of the turn. Every action checks the clock first: an action after the time is up
applies the timeout and raises :class:`TurnTimeoutError` instead.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Union

from ._errors import IllegalMoveError, InvalidMeldError, InvalidNotationError, InvalidRecordError, RummikubError
from ._frozen import frozen
from .draft import Draft
from .legality import Reason, check_turn, illegal
from .meld import Meld, MeldKind, Table
from .rules import RuleSet
from .scoring import Outcome, Termination, game_outcome
from .tiles import Tile, TileSet

if TYPE_CHECKING:
    from .search import LegalPlays

__all__ = ["Game", "PlayerView", "TurnTimeoutError", "Action", "table_to_text", "table_from_text",
           "RECORD_FORMAT"]

RECORD_FORMAT = "rummikub-game/1"
"""The ``format`` field of a game record."""

Clock = Callable[[], float]
Action = Union[Table, str, Literal["draw", "pass"]]
"""What a player (or bot) answers on their turn: a whole new table (a :class:`Table` or its notation),
``"draw"`` or ``"pass"``."""


class TurnTimeoutError(RummikubError):
    """The turn's time ran out before the action; the timeout has been applied instead (``event`` says how)."""

    reason = Reason.TURN_TIMEOUT.value

    def __init__(self, message: str, event: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.event = dict(event)


# ------------------------------------------------------------------------------------------------------------
# Table notation in records. A group of one numbered tile and jokers (``K7 J J``) reads back as a run, so
# records mark such a group with a ``group:`` prefix.


def _meld_text(meld: Meld) -> str:
    text = _MELD_TEXTS.get(meld._key)
    if text is None:  # a function of the meld's key: computed once per distinct meld (bounded)
        text = str(meld)
        if meld.kind == MeldKind.GROUP and meld.jokers == len(meld) - 1 and Meld.parse(text).kind != MeldKind.GROUP:
            text = "group:" + text
        if len(_MELD_TEXTS) >= _MAX_MELD_TEXTS:
            _MELD_TEXTS.clear()
        _MELD_TEXTS[meld._key] = text
    return text


_MELD_TEXTS: dict[tuple[int, ...], str] = {}
_MAX_MELD_TEXTS = 1 << 14


def table_to_text(table: Table) -> str:
    """The table in notation that :func:`table_from_text` reads back to the same melds (jokers included).

    >>> from rummikub import Colour
    >>> table_to_text(Table([Meld.group(7, [Colour.BLACK], jokers=2), Meld.parse("R5 J R7")]))
    'KJJ7 | R5 J R7'
    """
    known = _MELD_TEXTS.get
    return " | ".join([known(m._key) or _meld_text(m) for m in table])


def table_from_text(text: str, rules: RuleSet | None = None) -> Table:
    """Reads :func:`table_to_text` notation (``Table.parse`` notation plus ``group:`` melds).

    >>> table_from_text("group:K7 J J | R1-3")[0].kind.value
    'group'
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a table must be given as a string, got {type(text).__name__} {text!r}")
    if "group:" not in text:
        return Table.parse(text, rules)
    melds = []
    for piece in text.split("|"):
        piece = piece.strip()
        if piece.startswith("group:"):
            tiles = TileSet.parse(piece[6:], rules)
            numbered = [t for t in tiles if not t.is_joker]
            if not numbered or len({t.number for t in numbered}) != 1:
                raise InvalidMeldError(f"{piece!r} is not a group")
            melds.append(Meld.group(numbered[0].number or 0, [t.colour or 0 for t in numbered], tiles.jokers, rules))
        else:
            melds.append(Meld.parse(piece, rules))
    return Table(melds)


# ------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    """What one player may know: their own rack, the table, how many tiles the others and the pool hold,
    and the public history (other players' drawn tiles hidden). Never another rack or the pool order.

    This is what a bot reads; it answers with a whole table (``game.play``), ``"draw"`` or ``"pass"``.
    """

    player: int
    players: int
    rules: RuleSet
    rack: TileSet
    table: Table
    rack_sizes: tuple[int, ...]
    pool_size: int
    current_player: int
    opened: tuple[bool, ...]
    turn: int
    history: tuple[Mapping[str, Any], ...]
    outcome: Outcome | None
    time_left: float | None

    @property
    def is_my_turn(self) -> bool:
        """True when it is this player's turn (and the game is not over)."""
        return self.outcome is None and self.current_player == self.player

    @property
    def has_opened(self) -> bool:
        """True when this player has opened (made their initial meld)."""
        return self.opened[self.player]

    @property
    def can_draw(self) -> bool:
        """True when this player may draw now."""
        return self.is_my_turn and self.pool_size > 0

    @property
    def can_pass(self) -> bool:
        """True when this player may pass now (the pool is empty)."""
        return self.is_my_turn and self.pool_size == 0


def _public(event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    out = dict(event)
    if out.get("type") == "draw":
        out["count"] = len(out["tiles"])
        if out.get("player") != viewer:
            del out["tiles"]
    return out


class Game:
    """One game. Build it with :meth:`new` (seeded shuffle and draw for first player) or :meth:`from_deal`
    (your own racks and pool), or replay a record with :meth:`from_json` / :meth:`from_record`.

    Players are numbered ``0..players-1`` clockwise; the draw for first player decides who starts.
    """

    def __init__(self, rules: RuleSet, racks: Sequence[TileSet], pool: Sequence[Tile], first_player: int, *,
                 seed: int | None = None, first_draws: Sequence[Sequence[tuple[int, Tile]]] = (),
                 first_method: str = "given", clock: Clock | None = None) -> None:
        """Low level: a game from a deal. ``pool`` lists the pool in draw order (the next tile first).
        Prefer :meth:`new` or :meth:`from_deal`."""
        if not isinstance(rules, RuleSet):
            raise RummikubError(f"rules must be a RuleSet, got {type(rules).__name__}")
        n = len(racks)
        if not rules.min_players <= n <= rules.max_players:
            raise RummikubError(f"{n} players: the rules {rules.name!r} allow {rules.min_players}..{rules.max_players}")
        if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < n:
            raise RummikubError(f"first_player must be a player index in 0..{n - 1}, got {first_player!r}")
        self.rules = rules
        self.players = n
        self.seed = seed
        self._racks = list(racks)
        self._pool = list(reversed(list(pool)))  # draw with pop(): the end is the top
        self._table = Table()
        self._current = first_player
        self._first = first_player
        self._opened = [rules.opening_threshold == 0] * n
        self._passes = 0
        self._turn = 0
        self._events: list[dict[str, Any]] = []
        # per viewer: the events list their public copies were made from, and those copies (events only grow)
        self._public_events: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
        self._draft: Draft | None = None
        self._draft_args: tuple[Table, TileSet, bool] = (self._table, TileSet(), True)
        self._outcome: Outcome | None = None
        self._clock: Clock | None = clock if clock is not None else (time.monotonic if rules.turn_seconds else None)
        self._turn_started: float | None = None
        self._header: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "rules": rules.to_dict(),
            "players": n,
            "seed": seed,
            "first_player": {"method": first_method, "player": first_player,
                             "draws": [[[p, str(t)] for p, t in rnd] for rnd in first_draws]},
            "deal": {"racks": [str(r) for r in self._racks], "pool": " ".join(map(str, pool))},
        }
        self._check_tile_count()
        self._start_turn()

    # ---- construction --------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 4, preset: str = "classic", seed: int | None = None, *,
            rules: RuleSet | None = None, clock: Clock | None = None, first_player: int | None = None,
            **overrides: Any) -> Game:
        """A new seeded game: shuffle, draw for first player (docs/rules.md §4; ``first_player`` skips the draw),
        deal. ``rules`` (default: the preset) takes ``overrides`` of any variant.

        >>> g = Game.new(players=2, preset="classic", seed=1, turn_seconds=None)
        >>> g.pool_size, g.rules.turn_seconds
        (78, None)
        """
        base = rules if rules is not None else RuleSet.preset(preset)
        if overrides:
            base = base.replace(**overrides)
        if isinstance(players, bool) or not isinstance(players, int):
            raise RummikubError(f"players must be an int, got {players!r}")
        if not base.min_players <= players <= base.max_players:
            raise RummikubError(f"{players} players: the rules {base.name!r} allow "
                                f"{base.min_players}..{base.max_players}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RummikubError(f"seed must be an int, got {seed!r}")
        rng = random.Random(seed)
        full = list(TileSet.full(base))
        draws: list[list[tuple[int, Tile]]] = []
        if first_player is None:
            first, draws = _draw_for_first(rng, full, players)
            method = "draw"
        else:
            first, method = first_player, "given"
        deck = list(full)
        rng.shuffle(deck)
        racks = []
        for i in range(players):
            racks.append(TileSet(deck[i * base.rack_size:(i + 1) * base.rack_size]))
        pool = deck[players * base.rack_size:]
        order = [(first + i) % players for i in range(players)]
        dealt = [TileSet()] * players
        for i, p in enumerate(order):
            dealt[p] = racks[i]
        return cls(base, dealt, pool, first, seed=seed, first_draws=draws, first_method=method, clock=clock)

    @classmethod
    def from_deal(cls, racks: Sequence[TileSet | str], pool: Sequence[Tile | str] | str, *,
                  first_player: int = 0, rules: RuleSet | None = None, clock: Clock | None = None) -> Game:
        """A game from your own deal (say, a server's shuffle): racks, the pool in draw order (the next tile
        first), and who starts. The tiles must be exactly the full set of ``rules``.

        >>> g = Game.from_deal(["R10 R11 R12", "K1 K2 K3"], "B5 O5", rules=RuleSet(rack_size=3, numbers=3,
        ...                    colours=4, copies=1, jokers=0, max_players=2))
        Traceback (most recent call last):
        ...
        rummikub._errors.InvalidRecordError: rack 1 'R10 R11 R12': 'R10': number 10 is outside 1..3
        """
        rules = rules or RuleSet()
        rack_sets = []
        for i, r in enumerate(racks):
            try:
                rack_sets.append(r if isinstance(r, TileSet) else TileSet.parse(r, rules))
            except RummikubError as exc:
                raise InvalidRecordError(f"rack {i + 1} {r!r}: {exc}", "notation") from None
        try:
            pool_tiles = [Tile.parse(t, rules) if isinstance(t, str) else t
                          for t in (pool.split() if isinstance(pool, str) else pool)]
        except RummikubError as exc:
            raise InvalidRecordError(f"the pool: {exc}", "notation") from None
        return cls(rules, rack_sets, pool_tiles, first_player, clock=clock)

    def _check_tile_count(self) -> None:
        everything = TileSet(self._pool)
        for r in self._racks:
            everything = everything | r
        everything = everything | self._table.tiles()
        full = TileSet.full(self.rules)
        if everything != full:
            extra = everything - (everything & full)
            missing = full - (everything & full)
            raise InvalidRecordError(f"the racks, pool and table must hold exactly the {self.rules.tile_count} "
                                     f"tiles of the set; extra: {extra or 'none'}; missing: {missing or 'none'}",
                                     "tile_count")

    # ---- state ---------------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The player whose turn it is (after the end: the player who would have been next)."""
        return self._current

    @property
    def first_player(self) -> int:
        """The player who started."""
        return self._first

    @property
    def table(self) -> Table:
        """The committed table (the current player's edits live in :attr:`draft`)."""
        return self._table

    @property
    def pool_size(self) -> int:
        """Tiles left in the pool."""
        return len(self._pool)

    @property
    def turn(self) -> int:
        """How many turns have ended."""
        return self._turn

    @property
    def draft(self) -> Draft:
        """The current player's draft of the table (fresh at the start of each turn)."""
        draft = self._draft
        if draft is None:  # made on first use: most turns (every bot turn) never edit a draft
            table, rack, opened = self._draft_args
            draft = self._draft = Draft(table, rack, self.rules, opened)
        return draft

    @property
    def is_over(self) -> bool:
        """True once somebody went out or the pool ran out with a full round of passes."""
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        return self._outcome

    def rack(self, player: int) -> TileSet:
        """A player's rack (the whole game state is visible here: serve players :meth:`view`)."""
        return self._racks[self._player(player)]

    def rack_sizes(self) -> tuple[int, ...]:
        """How many tiles each player holds."""
        return tuple([int(r._s.size()) for r in self._racks])

    def opened(self, player: int) -> bool:
        """True when ``player`` has opened (or the rules have no opening threshold)."""
        return self._opened[self._player(player)]

    def action_kinds(self) -> tuple[str, ...]:
        """What the current player may do: ``("play", "draw")`` or ``("play", "pass")``; ``()`` after the end.
        (A play still has to be legal; :meth:`plays` lists them.)"""
        if self.is_over:
            return ()
        return ("play", "draw") if self._pool else ("play", "pass")

    def time_left(self) -> float | None:
        """Seconds left in the current turn, or None without a clock."""
        if self._clock is None or self.rules.turn_seconds is None or self._turn_started is None:
            return None
        return float(self.rules.turn_seconds) - (self._clock() - self._turn_started)

    def plays(self) -> LegalPlays:
        """The distinct legal plays of the current player (from the search), for bots and hints."""
        from .search import plays

        return plays(self._table, self._racks[self._current], rules=self.rules, opened=self._opened[self._current])

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see (see :class:`PlayerView`)."""
        p = self._player(player)
        return frozen(PlayerView,
            player=p, players=self.players, rules=self.rules, rack=self._racks[p], table=self._table,
            rack_sizes=self.rack_sizes(), pool_size=len(self._pool), current_player=self._current,
            opened=tuple(self._opened), turn=self._turn,
            history=self._public_history(p), outcome=self._outcome,
            time_left=self.time_left() if p == self._current else None)

    def _public_history(self, p: int) -> tuple[dict[str, Any], ...]:
        """Fresh copies of what player ``p`` may see of the events (as ``_public`` makes them); each event's
        public form is made once and copied (a shallow dict copy, as ``_public`` gives) for every view."""
        events = self._events
        cached = self._public_events.get(p)
        if cached is None or cached[0] is not events or len(cached[1]) > len(events):
            cached = self._public_events[p] = (events, [])
        public = cached[1]
        if len(public) < len(events):
            public.extend(map(_public, events[len(public):], itertools.repeat(p)))
        return tuple(map(dict.copy, public))

    def _player(self, player: int) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise RummikubError(f"player must be an index in 0..{self.players - 1}, got {player!r}")
        return player

    # ---- actions -------------------------------------------------------------------------------------------

    def _ready(self, player: int | None) -> None:
        if self._outcome is not None:
            raise illegal(Reason.GAME_OVER, "the game is over")
        if player is not None and self._player(player) != self._current:
            raise illegal(Reason.NOT_YOUR_TURN, f"it is player {self._current}'s turn, not player {player}'s")
        event = self.check_clock()
        if event is not None:
            raise TurnTimeoutError(f"player {event['player']}'s time ran out before the action; "
                                   f"{_describe(event)}", event)

    def commit(self, player: int | None = None) -> TileSet:
        """Commits the current draft as the turn's play; returns the rack tiles played.

        Raises :class:`IllegalMoveError` naming the rule that fails, leaving everything (the draft too)
        as it was."""
        self._ready(player)
        return self._play(self.draft.to_table(), "move")

    def play(self, table: Table | str, player: int | None = None) -> TileSet:
        """Plays a whole proposed table (what bots and servers send), validated exactly like :meth:`commit`;
        returns the rack tiles played."""
        self._ready(player)
        if isinstance(table, str):
            try:
                table = table_from_text(table, self.rules)
            except RummikubError as exc:
                raise illegal(Reason.INVALID_SET, f"proposed table: {exc}") from None
        if not isinstance(table, Table):
            raise illegal(Reason.INVALID_SET, f"a play is a Table or its notation, got {type(table).__name__}")
        return self._play(table, "move")

    def draw(self, player: int | None = None) -> None:
        """Ends the turn by drawing one tile from the pool (``pool_empty`` when there is none)."""
        self._ready(player)
        if not self._pool:
            raise illegal(Reason.POOL_EMPTY, "the pool is empty: play or pass")
        self._draw(1, "move")

    def pass_turn(self, player: int | None = None) -> None:
        """Ends the turn without playing; only when the pool is empty (``pool_not_empty`` otherwise)."""
        self._ready(player)
        if self._pool:
            raise illegal(Reason.POOL_NOT_EMPTY, f"the pool still holds {len(self._pool)} tiles: play or draw")
        self._pass("move")

    def apply(self, action: Action, player: int | None = None) -> None:
        """Applies a bot's or client's answer: a table (play), ``"draw"`` or ``"pass"``."""
        if isinstance(action, str) and action.strip().lower() in ("draw", "pass"):
            (self.draw if action.strip().lower() == "draw" else self.pass_turn)(player)
        else:
            self.play(action, player)

    def check_clock(self) -> dict[str, Any] | None:
        """Applies the timeout if the current turn's time is over; returns the recorded event, else None."""
        left = self.time_left()
        if left is None or left > 0 or self._outcome is not None:
            return None
        draft = self.draft
        if draft.started and self.rules.commit_valid_draft_on_timeout and draft.legal:
            self._play(draft.to_table(), "timeout")
        elif draft.started:
            self._draw(self.rules.failed_move_draw, "failed_move")
        else:
            self._draw(self.rules.timeout_draw, "timeout")
        return self._events[-1]

    # ---- internals -----------------------------------------------------------------------------------------

    def _play(self, table: Table, cause: str) -> TileSet:
        p = self._current
        played = check_turn(self._table, self._racks[p], table, rules=self.rules, opened=self._opened[p])
        self._racks[p] = self._racks[p] - played
        self._table = table
        self._opened[p] = True
        self._passes = 0
        self._events.append({"type": "play", "player": p, "table": table_to_text(table), "played": str(played),
                             "cause": cause})
        if not self._racks[p]:
            self._finish(p)
        else:
            self._next()
        return played

    def _draw(self, count: int, cause: str) -> None:
        if not self._pool:
            self._pass(cause)
            return
        p = self._current
        drawn = [self._pool.pop() for _ in range(min(count, len(self._pool)))]
        self._racks[p] = self._racks[p] | TileSet(drawn)
        self._passes = 0
        self._events.append({"type": "draw", "player": p, "tiles": [str(t) for t in drawn], "cause": cause})
        self._next()

    def _pass(self, cause: str) -> None:
        self._events.append({"type": "pass", "player": self._current, "cause": cause})
        self._passes += 1
        if self._passes >= self.players:
            self._finish(None)
        else:
            self._next()

    def _next(self) -> None:
        self._turn += 1
        self._current = (self._current + 1) % self.players
        self._start_turn()

    def _finish(self, winner: int | None) -> None:
        self._turn += 1
        self._outcome = game_outcome(self._racks, winner, self.rules)
        self._turn_started = None
        self._draft = None
        self._draft_args = (self._table, TileSet(), True)

    def _start_turn(self) -> None:
        p = self._current
        self._draft = None
        self._draft_args = (self._table, self._racks[p], self._opened[p])
        self._turn_started = self._clock() if self._clock is not None and self.rules.turn_seconds else None

    def _snapshot(self) -> tuple[object, ...]:
        """Everything the game holds (for tests: a refused move must leave this unchanged)."""
        return (tuple(str(r) for r in self._racks), str(self._table.canonical()), table_to_text(self._table),
                tuple(self._pool), self._current, tuple(self._opened), self._passes, self._turn,
                json.dumps(self._events), self._outcome, self._turn_started, self.draft._snapshot())

    # ---- records -------------------------------------------------------------------------------------------

    @property
    def record(self) -> dict[str, Any]:
        """The game's record: rules, seed, deal, every event, and the outcome (JSON-ready)."""
        out: dict[str, Any] = json.loads(json.dumps(self._header))
        out["events"] = [dict(e) for e in self._events]
        out["outcome"] = self._outcome.to_dict() if self._outcome else None
        return out

    def history(self, player: int | None = None) -> list[dict[str, Any]]:
        """The events so far; for ``player``, with other players' drawn tiles hidden (their count only)."""
        viewer = None if player is None else self._player(player)
        return [_public(e, viewer) if player is not None else dict(e) for e in self._events]

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.record, indent=indent)

    @classmethod
    def from_json(cls, text: str, *, clock: Clock | None = None) -> Game:
        """Replays a JSON record to the identical state; raises :class:`InvalidRecordError` (with ``reason``)
        for a record that breaks a rule or the tile count."""
        return cls.from_record(load_record_json(text), clock=clock)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, clock: Clock | None = None) -> Game:
        """Replays a record (the mapping :attr:`record` gives); see :meth:`from_json`."""
        return _replay(record, clock)

    def __repr__(self) -> str:
        state = f"over: {self._outcome.termination.value}" if self._outcome else f"player {self._current} to move"
        return (f"<Game {self.rules.name} players={self.players} seed={self.seed} turn={self._turn} "
                f"pool={len(self._pool)} {state}>")


def load_record_json(text: str) -> Any:
    """Parses a record's JSON text; :class:`InvalidRecordError` (reason ``format``) when it is not JSON."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as exc:
        raise InvalidRecordError(f"not JSON: {exc}", "format") from None


def _describe(event: Mapping[str, Any]) -> str:
    if event["type"] == "play":
        return "the legal draft was committed"
    if event["type"] == "pass":
        return "the pool is empty, so the turn passed"
    n = len(event["tiles"])
    started = "the move was unfinished, the table was restored and " if event["cause"] == "failed_move" else ""
    return f"{started}{n} tile{'s' if n != 1 else ''} drawn as the penalty"


def _draw_for_first(rng: random.Random, full: list[Tile], players: int) -> tuple[int, list[list[tuple[int, Tile]]]]:
    """docs/rules.md §4: each player draws a tile; the highest number starts; a joker redraws, and players tied for
    the highest redraw among themselves. Returns the first player and every round of draws."""
    pile = list(full)
    rng.shuffle(pile)
    rounds: list[list[tuple[int, Tile]]] = []
    contenders = list(range(players))
    while len(contenders) > 1:
        numbers: dict[int, int] = {}
        need = list(contenders)
        while need:
            if len(pile) < len(need):  # tiny sets only: the drawn tiles go back
                pile = list(full)
                rng.shuffle(pile)
            draws = [(p, pile.pop()) for p in need]
            rounds.append(draws)
            need = [p for p, t in draws if t.is_joker]
            for p, t in draws:
                if t.number is not None:
                    numbers[p] = t.number
        top = max(numbers[p] for p in contenders)
        contenders = [p for p in contenders if numbers[p] == top]
    return contenders[0], rounds


# ------------------------------------------------------------------------------------------------------------
# Replay


def _replay(record: Mapping[str, Any], clock: Clock | None) -> Game:
    def need(ok: object, message: str, reason: str = "format") -> None:
        if not ok:
            raise InvalidRecordError(message, reason)

    need(isinstance(record, Mapping), "a record is a JSON object")
    need(record.get("format") == RECORD_FORMAT,
         f"unknown record format {record.get('format')!r} (expected {RECORD_FORMAT!r})")
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
    for i, event in enumerate(events, start=1):
        _replay_event(game, event, i)
    outcome = record.get("outcome")
    if outcome is not None:
        need(game.outcome is not None and game.outcome.to_dict() == outcome,
             f"the recorded outcome {outcome} differs from the replay's "
             f"{game.outcome.to_dict() if game.outcome else 'unfinished game'}", "outcome_mismatch")
    return game


def _replay_event(game: Game, event: Any, i: int) -> None:
    where = f"event {i}"

    def fail(message: str, reason: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where} ({json.dumps(event)}): {message}", reason)

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
                table = table_from_text(event["table"], game.rules)
            except RummikubError as exc:
                raise fail(f"the table does not read: {exc}", "invalid_set") from None
            played = game._play(table, cause)
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
            game._draw(count, cause)
        else:
            if game.pool_size:
                raise fail(f"a pass while the pool holds {game.pool_size} tiles", Reason.POOL_NOT_EMPTY.value)
            game._pass(cause)
    except IllegalMoveError as exc:
        raise fail(f"illegal play: {exc}", exc.reason) from None

