"""A complete game of Rummikub as docs/rules.md describes it, shaped like an OpenSpiel state: the player to move,
the legal actions, ``apply``, terminal and returns, an observation per player, serialisation and ``copy``.

>>> from rummikub import Action, Game
>>> game = Game.new(players=4, seed=7)
>>> game.pool_size, len(game.rack(game.current_player)), game.rules.name
(50, 14, 'standard')
>>> Action.draw() in game.legal_actions()
True
>>> game.apply(Action.draw())                # the first player draws instead of opening
>>> game.history()[-1]["type"], game.pool_size, game.turn
('draw', 49, 1)
>>> Game.from_json(game.to_json()).to_json() == game.to_json()
True
>>> game.is_terminal(), game.returns()
(False, (0.0, 0.0, 0.0, 0.0))

A turn ends in an :class:`~rummikub.Action`: a play (the whole new table; a :class:`~rummikub.Play` from
``solve`` or ``plays`` is one), a draw or, with the pool empty, a pass. A user interface edits
:attr:`Game.draft` and calls :meth:`Game.commit`. A refused action raises
:class:`~rummikub.IllegalMoveError` (its ``reason`` names the rule) and leaves the game exactly as it was.

The turn clock (``rules.turn_seconds``) is state: :attr:`Game.deadline` is the turn's absolute deadline and
:meth:`Game.advance_clock` applies the timeout as an ordinary transition (see :mod:`rummikub.game.clock`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any

from .._errors import InvalidMeldError, InvalidNotationError, InvalidRecordError, RummikubError, shorten
from ..action import Action, ActionKind, Layout, layout_text
from ..legality import Reason, illegal
from ..meld import Table, set_tiles_basis
from ..rules import DEFAULT_PRESET, RuleSet
from ..scoring import Outcome, game_outcome
from .. import search as _search
from ..search import DEFAULT_PLAYS_LIMIT
from .. import _core
from ..tiles import _TILE_TEXTS, _TILES, Tile, TileSet, _new_tileset, _set_s, of_core
from .clock import Clock, TurnTimeoutError, check_time, default_clock
from .draft import Draft
from .legal import LegalActions, check_committed
from .view import DEFERRED, Event, PlayerView, public_event, thaw_event

__all__ = ["Game"]


class Game:
    """One game. Build it with :meth:`new` (seeded shuffle and draw for first player) or :meth:`from_deal`
    (your own racks and pool), or resume a record with :meth:`from_json` / :meth:`from_record`.

    Players are numbered ``0..players-1`` clockwise; the draw for first player decides who starts.
    """

    def __init__(self, rules: RuleSet, racks: Sequence[TileSet], pool: Sequence[Tile], first_player: int, *,
                 seed: int | None = None, first_draws: Sequence[Sequence[tuple[int, Tile]]] = (),
                 first_method: str = "given", clock: Clock | None = None) -> None:
        """Low level: a game from a deal. ``pool`` lists the pool in draw order (the next tile first).
        Prefer :meth:`new` or :meth:`from_deal`."""
        self._set_up(rules, racks, pool, first_player, seed, first_draws, first_method, clock, True)

    def _set_up(self, rules: RuleSet, racks: Sequence[TileSet], pool: Sequence[Tile], first_player: int,
                seed: int | None, first_draws: Sequence[Sequence[tuple[int, Tile]]], first_method: str,
                clock: Clock | None, check_tiles: bool) -> None:
        """``__init__``: checks the arguments and sets the game up; ``check_tiles`` False skips the check that the
        racks and pool are the full set (:meth:`new` deals the full set itself)."""
        if not isinstance(rules, RuleSet):
            raise RummikubError(f"rules must be a RuleSet, got {type(rules).__name__}")
        n = len(racks)
        if not rules.min_players <= n <= rules.max_players:
            raise RummikubError(f"{n} players: the rules {shorten(rules.name)} allow {rules.min_players}..{rules.max_players}")
        if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < n:
            raise RummikubError(f"first_player must be a player index in 0..{n - 1}, got {shorten(first_player)}")
        if clock is not None and not callable(clock):
            raise RummikubError(f"clock must be a callable returning seconds, got {shorten(clock)}")
        self.rules = rules
        self.players = n
        self.seed = seed
        self._racks = list(racks)
        self._pool = list(reversed(list(pool)))  # draw with pop(): the end is the top
        self._table = Table()
        self._layout: Layout | None = None  # each set's tiles in the order laid (None: the melds' own order)
        self._current = first_player
        self._first = first_player
        self._opened = [rules.opening_threshold == 0] * n
        self._passes = 0
        self._turn = 0
        self._events: list[Mapping[str, Any]] = []  # never mutated once appended (copies go out)
        # per viewer (None: spectators): the events list their public forms were made from, and those forms
        self._public_events: dict[int | None, tuple[list[Mapping[str, Any]], list[Event]]] = {}
        self._draft: Draft | None = None
        self._outcome: Outcome | None = None
        self._clock: Clock = clock if clock is not None else default_clock
        self._deadline: float | None = None
        self._seconds = float(rules.turn_seconds) if rules.turn_seconds else None  # the turn clock, None: no clock
        # the record's header, written when first read (a game played to the end by bots never needs it)
        self._header_dict: dict[str, Any] | None = None
        self._deal = (tuple(self._racks), tuple(pool), first_method, tuple(map(tuple, first_draws)))
        if check_tiles:
            self._check_tile_count()
        self._sizes = [r._s.size() for r in self._racks]  # each rack's size, kept with the racks
        self._start_turn(None)

    # ---- construction --------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 4, preset: str = DEFAULT_PRESET, seed: int | None = None, *,
            rules: RuleSet | None = None, clock: Clock | None = None, first_player: int | None = None,
            **overrides: Any) -> Game:
        """A new seeded game: shuffle, draw for first player (docs/rules.md §4; ``first_player`` skips the draw),
        deal. ``rules`` (default: the preset, ``"standard"`` unless named) takes ``overrides`` of any variant.

        >>> g = Game.new(players=2, preset="classic", seed=1, turn_seconds=None)
        >>> g.pool_size, g.rules.turn_seconds, g.deadline
        (78, None, None)
        """
        base = rules if rules is not None else RuleSet.preset(preset)
        if overrides:
            base = base.replace(**overrides)
        if isinstance(players, bool) or not isinstance(players, int):
            raise RummikubError(f"players must be an int, got {shorten(players)}")
        if not base.min_players <= players <= base.max_players:
            raise RummikubError(f"{players} players: the rules {shorten(base.name)} allow "
                                f"{base.min_players}..{base.max_players}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RummikubError(f"seed must be an int, got {shorten(seed)}")
        rng = random.Random(seed)
        full, codes = _full_set(base)
        draws: list[list[tuple[int, Tile]]] = []
        if first_player is None:
            first, draws = _draw_for_first(rng, list(full), players)
            method = "draw"
        else:
            if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
                raise RummikubError(f"first_player must be a player index in 0..{players - 1}, got "
                                    f"{shorten(first_player)}")
            first, method = first_player, "given"
        deck = list(codes)  # shuffled as codes: the same permutation as of the tiles
        _shuffle(rng, deck)
        racks = []
        size = base.rack_size
        for i in range(players):  # tiles of the set: no check needed
            racks.append(of_core(_core.TileSet(deck[i * size:(i + 1) * size])))
        pool = list(map(_TILES.__getitem__, deck[players * base.rack_size:]))
        dealt = [racks[(p - first) % players] for p in range(players)]  # rack i goes to player first + i
        if cls.__init__ is not Game.__init__:  # a subclass's own __init__ is called as it expects
            return cls(base, dealt, pool, first, seed=seed, first_draws=draws, first_method=method, clock=clock)
        game = object.__new__(cls)  # (cls(...), without the check that the deal is the full set: it is)
        game._set_up(base, dealt, pool, first, seed, draws, method, clock, False)
        return game

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
                raise InvalidRecordError(f"rack {i + 1} {shorten(r)}: {exc}", "notation") from None
        try:
            pool_tiles = [Tile.parse(t, rules) if isinstance(t, str) else t
                          for t in (pool.split() if isinstance(pool, str) else pool)]
        except RummikubError as exc:
            raise InvalidRecordError(f"the pool: {exc}", "notation") from None
        return cls(rules, rack_sets, pool_tiles, first_player, clock=clock)

    @property
    def _header(self) -> dict[str, Any]:
        """The record's header (rules, players, seed, the draw for first player, the deal): made once, never
        changed (copies go out)."""
        header = self._header_dict
        if header is None:
            racks, pool, method, draws = self._deal
            header = self._header_dict = {
                "rules": self.rules.to_dict(),
                "players": self.players,
                "seed": self.seed,
                "first_player": {"method": method, "player": self._first,
                                 "draws": [[[p, str(t)] for p, t in rnd] for rnd in draws]},
                "deal": {"racks": [str(r) for r in racks], "pool": " ".join(map(str, pool))},
            }
        return header

    def _check_tile_count(self) -> None:
        full_set = self.rules.params.full_set()
        try:  # in the core's multisets (a game is made for every arena game): TileSets only to explain a failure
            core = _core.TileSet(list(map(_CODE_OF, self._pool)))
            for r in self._racks:
                core = core.sum(r._s)
            if core.sum(self._table.tiles()._s) == full_set:
                return
        except (RummikubError, AttributeError):  # not tiles, or too many copies of one: explained below
            pass
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

    def copy(self) -> Game:
        """An independent copy (the draft and its undo history too): actions on one never change the other.

        >>> g = Game.new(players=2, seed=1); c = g.copy(); c.apply("draw")
        >>> g.turn, c.turn
        (0, 1)
        """
        out = object.__new__(Game)
        out.__dict__.update(self.__dict__)
        out._racks = list(self._racks)
        out._sizes = list(self._sizes)
        out._pool = list(self._pool)
        out._opened = list(self._opened)
        out._events = list(self._events)  # the events themselves are never mutated
        out._public_events = {}
        out._draft = None if self._draft is None else self._draft._copy(out)
        return out

    __copy__ = copy

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_public_events"] = {}  # a cache of read-only events: rebuilt on demand
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

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
    def table_text(self) -> str:
        """The table in notation, each set's tiles in the order they were laid."""
        return layout_text(self._table, self._layout)

    @property
    def pool_size(self) -> int:
        """Tiles left in the pool."""
        return len(self._pool)

    @property
    def turn(self) -> int:
        """How many turns have ended."""
        return self._turn

    @property
    def deadline(self) -> float | None:
        """The current turn's absolute deadline in the clock's seconds; None without a clock or after the end."""
        return self._deadline

    @property
    def draft(self) -> Draft:
        """The current player's draft of the table (fresh at the start of each turn; it refuses edits once
        its turn is over)."""
        draft = self._draft
        if draft is None:  # made on first use: most turns (every bot turn) never edit a draft
            p = self._current
            draft = self._draft = Draft(self._table, self._racks[p] if self._outcome is None else TileSet(),
                                        self.rules, self._opened[p], layout=self._layout, turn=self._turn,
                                        player=p, owner=self)
        return draft

    def set_draft(self, draft: Draft) -> None:
        """Makes ``draft`` (read against this game: ``Draft.from_dict(game, ...)``) the current player's move in
        progress, as if its edits had been made on :attr:`draft`: when the turn's time runs out, a started move
        is a failed move. A draft of another game or turn raises :class:`RummikubError` and changes nothing.

        >>> g = Game.new(players=2, seed=3)
        >>> d = Draft.from_dict(g, g.draft.to_dict()); g.set_draft(d); g.draft is d
        True
        """
        if not isinstance(draft, Draft) or draft._owner is not self or draft.ended or \
                draft.turn != self._turn or draft.player != self._current:
            raise RummikubError(f"set_draft takes a draft of this game's current turn (Draft.from_dict(game, ...)), "
                                f"got {shorten(draft)}")
        self._draft = draft

    @property
    def event_count(self) -> int:
        """How many events the game has recorded (each play, draw and pass, timeouts included): the length of
        :meth:`history` without copying it.

        >>> g = Game.new(players=2, seed=3); g.apply("draw"); g.event_count
        1
        """
        return len(self._events)

    def is_terminal(self) -> bool:
        """True once somebody went out or the pool ran out with a full round of passes."""
        return self._outcome is not None

    @property
    def is_over(self) -> bool:
        """The same as :meth:`is_terminal` (a property)."""
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        """Each player's score as a float (zeros until the game is over; exact fractions in :attr:`outcome`)."""
        if self._outcome is None:
            return (0.0,) * self.players
        return tuple(float(s) for s in self._outcome.scores)

    def rack(self, player: int) -> TileSet:
        """A player's rack (the whole game state is visible here: serve players :meth:`view`)."""
        return self._racks[self._player(player)]

    def rack_sizes(self) -> tuple[int, ...]:
        """How many tiles each player holds."""
        return tuple(self._sizes)

    def opened(self, player: int) -> bool:
        """True when ``player`` has opened (or the rules have no opening threshold)."""
        return self._opened[self._player(player)]

    def legal_actions(self, limit: int | None = DEFAULT_PLAYS_LIMIT) -> LegalActions:
        """The current player's legal actions, lazily (:class:`~rummikub.game.LegalActions`): ``len``, ``in``,
        ``bool``, iteration, ``count()``. Listing the plays stops at ``limit`` search states (None: no limit)
        with :class:`~rummikub.SearchLimitError`."""
        p = self._current
        return LegalActions(self._table, self._racks[p], self.rules, self._opened[p], len(self._pool),
                            self._outcome is not None, limit)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see (see :class:`PlayerView`): a snapshot."""
        if type(player) is int and 0 <= player < self.players:  # the common case, checked as _player does
            return self._view(player)
        return self._view(self._player(player))

    def spectator_view(self) -> PlayerView:
        """What everybody sees: no rack, no drawn tiles (``player`` None)."""
        return self._view(None)

    def _view(self, p: int | None) -> PlayerView:
        out = _new_view(PlayerView)  # a frozen dataclass filled directly: a view is made every turn
        # The history and the table's notation are computed when first read (most bots read neither): the
        # events list only grows and the table and layout are never changed, so they stay this turn's.
        events = self._events
        _set_view_dict(out, {  # a fresh dict given whole: cheaper than filling the instance's own
            "player": p, "players": self.players, "rules": self.rules, "rack": None if p is None else self._racks[p],
            "table": self._table, "table_text": (DEFERRED, layout_text, self._table, self._layout),
            "rack_sizes": tuple(self._sizes), "pool_size": len(self._pool), "current_player": self._current,
            "opened": tuple(self._opened), "turn": self._turn,
            "history": (DEFERRED, _public_history_of, self, events, p, len(events)),  # (no bound method made)
            "outcome": self._outcome, "deadline": self._deadline})
        return out

    def _public_history_of(self, events: list[Mapping[str, Any]], p: int | None, n: int) -> tuple[Event, ...]:
        """The public forms of ``events[:n]`` for viewer ``p`` (a view's history, made when first read)."""
        cached = self._public_events.get(p)
        if cached is None or cached[0] is not events or len(cached[1]) > len(events):
            if self._events is not events:  # the game's events are another list now (not in practice)
                return _public_prefix(events, [], p, n)
            cached = self._public_events[p] = (events, [])
        return _public_prefix(events, cached[1], p, n)

    def _public_cache(self, p: int | None) -> list[Event]:
        """The list of viewer ``p``'s public forms of this game's events (filled on demand by _public_prefix)."""
        events = self._events
        cached = self._public_events.get(p)
        if cached is None or cached[0] is not events or len(cached[1]) > len(events):
            cached = self._public_events[p] = (events, [])
        return cached[1]

    def _public_history(self, p: int | None) -> tuple[Event, ...]:
        """The read-only public forms of the events for viewer ``p``, each made once."""
        return _public_prefix(self._events, self._public_cache(p), p, len(self._events))

    def history(self, player: int | None = None, *, public: bool = False, start: int = 0) -> list[dict[str, Any]]:
        """Fresh JSON-ready copies of the events so far, from number ``start`` on (0: all of them). For
        ``player`` (or a spectator with ``public=True``) the public form: draws by others show only their count.
        """
        if isinstance(start, bool) or not isinstance(start, int) or start < 0:
            raise RummikubError(f"start must be an event number (an int >= 0), got {shorten(start)}")
        if player is None and not public:
            return [thaw_event(e) for e in self._events[start:]]
        viewer = None if player is None else self._player(player)
        return [thaw_event(e) for e in self._public_history(viewer)[start:]]

    def _player(self, player: int) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise RummikubError(f"player must be an index in 0..{self.players - 1}, got {shorten(player)}")
        return player

    # ---- actions -------------------------------------------------------------------------------------------

    def _ready(self, player: int | None) -> float:
        """Checks that an action may be made now; returns the clock's time."""
        if self._outcome is not None:
            raise illegal(Reason.GAME_OVER, "the game is over")
        if player is not None and (type(player) is not int or player != self._current) and \
                self._player(player) != self._current:
            raise illegal(Reason.NOT_YOUR_TURN, f"it is player {self._current}'s turn, not player {player}'s")
        now = self._clock()
        if self._deadline is not None and now >= self._deadline:
            raise self._late(now)
        return now

    def _late(self, now: float) -> TurnTimeoutError:
        """The error of an action at ``now``, past the turn's deadline."""
        assert self._deadline is not None
        return TurnTimeoutError(f"player {self._current}'s time ran out {now - self._deadline:.3f} s before "
                                "the action; nothing changed: advance the clock (Game.advance_clock)",
                                self._deadline, now)

    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Applies the current player's action (an :class:`~rummikub.Action`, a :class:`~rummikub.Play`, or
        the text :meth:`Action.parse <rummikub.Action.parse>` reads). ``player``, when given, must be the
        player to move. The recorded event is ``game.history()[-1]``.

        A refused action raises :class:`IllegalMoveError` naming the rule (``reason``), and after the turn's
        deadline :class:`TurnTimeoutError`; either way the game is unchanged. The :class:`~rummikub.Play` that
        :func:`~rummikub.solve` last returned, applied to the very position it was found for (the same table,
        rack, rules and opened), is not checked again: the search returns legal plays only."""
        if not isinstance(action, Action):
            if not isinstance(action, str):
                raise InvalidNotationError(f"an action is an Action (or its text), got {type(action).__name__} "
                                           f"{shorten(action)}")
            try:
                action = Action.parse(action, self.rules)
            except InvalidMeldError as exc:  # the text reads, but a set is not a group or run
                raise illegal(Reason.INVALID_SET, f"proposed table: {exc}") from None
        if self._outcome is None and (player is None or (type(player) is int and player == self._current)):
            now = self._clock()  # _ready's common case, inline (an action is applied every turn)
            if self._deadline is not None and now >= self._deadline:
                raise self._late(now)
        else:
            now = self._ready(player)
        kind = action._kind
        if kind is _DRAW_KIND:
            if not self._pool:
                raise illegal(Reason.POOL_EMPTY, "the pool is empty: play or pass")
            self._draw(1, "move", now)
        elif kind is _PASS_KIND:
            if self._pool:
                raise illegal(Reason.POOL_NOT_EMPTY, f"the pool still holds {len(self._pool)} tiles: play or draw")
            self._pass("move", now)
        else:
            solved = _search._LAST_SOLVED
            if solved is not None and solved[0] is action and solved[1] is self._table:
                p = self._current  # the play solve() just returned for this very position: legal as found
                if solved[2] is self._racks[p] and solved[3] is self.rules and solved[4] is self._opened[p]:
                    self._play(action.table, None, "move", now, action.tiles)
                    return
            assert action.table is not None
            self._play(action.table, action.layout, "move", now)

    def commit(self, player: int | None = None) -> None:
        """Commits the current draft as the turn's play (tiles in the order given).

        Raises :class:`IllegalMoveError` naming the rule that fails, leaving everything (the draft too)
        as it was."""
        self._ready(player)
        self.apply(self.draft.to_action(), player)

    def advance_clock(self, now: float | None = None) -> dict[str, Any] | None:
        """Applies the timeout when the turn's deadline has passed at ``now`` (default: the clock's time), as
        an ordinary transition: returns the recorded event, or None when nothing was due (no clock, the game
        is over, or time is left). The next turn's deadline counts from ``now``.

        With no move started the player draws ``timeout_draw``; with a started move (the game's draft) the
        table is restored and the player draws ``failed_move_draw``, or under
        ``commit_valid_draft_on_timeout`` a legal draft is committed."""
        if self._deadline is None or self._outcome is not None:
            return None
        t = self._clock() if now is None else check_time(now)
        if t < self._deadline:
            return None
        draft = self._draft
        started = draft is not None and draft.started
        if started and draft is not None and self.rules.commit_valid_draft_on_timeout and draft.legal:
            self._play(draft.to_table(), draft.layout(), "timeout", t)
        elif started:
            self._draw(self.rules.failed_move_draw, "failed_move", t)
        else:
            self._draw(self.rules.timeout_draw, "timeout", t)
        return thaw_event(self._events[-1])

    # ---- transitions ---------------------------------------------------------------------------------------

    def _play(self, table: Table, layout: Layout | None, cause: str, now: float | None,
              played: TileSet | None = None) -> TileSet:
        """Plays ``table`` for the current player once :func:`check_committed` accepts it (``played``, the rack tiles
        placed, when known legal: a search's result for this position)."""
        p = self._current
        if played is None:
            played = check_committed(self._table, self._racks[p], table, rules=self.rules, opened=self._opened[p])
        if layout is None:
            if self._layout is not None:
                layout = _keep_order(self._table, self._layout, table)
        elif all(m.tiles == tiles for m, tiles in zip(table, layout)):
            layout = None
        set_tiles_basis(table, self._table, played)  # (its tiles() then read no meld)
        left = self._racks[p]._s.difference(played._s)  # played <= the rack: checked
        rack = self._racks[p] = _new_tileset(TileSet)  # (of_core, inline)
        _set_s(rack, left)
        size = self._sizes[p] = left.size()
        self._table = table
        self._layout = layout
        self._opened[p] = True
        self._passes = 0
        self._events.append(_PlayEvent(p, table, layout, played, cause))
        if not size:
            self._finish(p)
        else:
            self._next(now)
        return played

    def _draw(self, count: int, cause: str, now: float | None) -> None:
        pool = self._pool
        if not pool:
            self._pass(cause, now)
            return
        p = self._current
        texts: tuple[str, ...]
        if count == 1:  # the common case: one tile, its one-tile multiset and its text (made once per tile)
            added, texts = _DRAW_OF_CODE[pool.pop()._code]
        else:
            drawn = [pool.pop() for _ in range(min(count, len(pool)))]
            added = _core.TileSet([t._code for t in drawn])
            texts = tuple(map(str, drawn))
        total = self._racks[p]._s.sum(added)
        rack = self._racks[p] = _new_tileset(TileSet)  # (of_core, inline)
        _set_s(rack, total)
        self._sizes[p] += len(texts)
        self._passes = 0
        self._events.append({"type": "draw", "player": p, "tiles": texts, "cause": cause})
        self._next(now)

    def _pass(self, cause: str, now: float | None) -> None:
        self._events.append({"type": "pass", "player": self._current, "cause": cause})
        self._passes += 1
        if self._passes >= self.players:
            self._finish(None)
        else:
            self._next(now)

    def _next(self, now: float | None) -> None:
        self._turn += 1
        self._current = (self._current + 1) % self.players
        self._start_turn(now)

    def _finish(self, winner: int | None) -> None:
        self._turn += 1
        self._outcome = game_outcome(self._racks, winner, self.rules)
        self._deadline = None
        self._draft = None

    def _start_turn(self, now: float | None) -> None:
        self._draft = None
        seconds = self._seconds
        if seconds is not None:
            self._deadline = (self._clock() if now is None else now) + seconds

    def _snapshot(self) -> tuple[object, ...]:
        """Everything the game holds (for tests: a refused action must leave this unchanged)."""
        return (tuple(str(r) for r in self._racks), str(self._table.canonical()), self.table_text,
                tuple(self._pool), self._current, tuple(self._opened), self._passes, self._turn,
                json.dumps(self.history()), self._outcome, self._deadline, self.draft._snapshot())

    # ---- records -------------------------------------------------------------------------------------------

    @property
    def record(self) -> dict[str, Any]:
        """The full record (a fresh JSON-ready dict): rules, seed, deal, every event, the outcome and the
        current turn's deadline. :meth:`from_record` resumes it exactly. Holds every rack: not for players."""
        from .record import full_record

        return full_record(self)

    def public_record(self) -> dict[str, Any]:
        """What a spectator saw (a fresh JSON-ready dict): rules, who started, the public events, the table,
        counts and the outcome; no rack, no pool order, no seed."""
        from .record import public_record

        return public_record(self)

    def to_json(self, indent: int | None = None) -> str:
        """The full record as JSON text."""
        return json.dumps(self.record, indent=indent)

    @classmethod
    def from_json(cls, text: str, *, clock: Clock | None = None) -> Game:
        """Resumes a JSON record (the full record) to the identical state, the turn's deadline included;
        raises :class:`InvalidRecordError` (with ``reason``) for a record that breaks a rule or the tile
        count."""
        from .record import load_record_json

        return cls.from_record(load_record_json(text), clock=clock)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, clock: Clock | None = None) -> Game:
        """Resumes a record (the mapping :attr:`record` gives); see :meth:`from_json`."""
        from .record import replay

        return replay(record, clock)

    def __repr__(self) -> str:
        state = f"over: {self._outcome.termination.value}" if self._outcome else f"player {self._current} to move"
        return (f"<Game {self.rules.name} players={self.players} seed={self.seed} turn={self._turn} "
                f"pool={len(self._pool)} {state}>")


_new_view = object.__new__
_public_history_of = Game._public_history_of
_DRAW_KIND = ActionKind.DRAW
_PASS_KIND = ActionKind.PASS
_CODE_OF = attrgetter("_code")  # a Tile's code, read in C
_set_view_dict = PlayerView.__dict__["__dict__"].__set__  # (PlayerView.__setattr__ refuses every name)
# each tile code's one-tile multiset and the text of a draw of that tile (values: shared)
_DRAW_OF_CODE = [(_core.TileSet([code]), (_TILE_TEXTS[code],)) for code in range(65)]


class _PlayEvent(Mapping[str, Any]):
    """A play's event, ``{"type": "play", "player": ..., "table": ..., "played": ..., "cause": ...}``, read-only:
    the table's notation and the played tiles' text are written when first read (a game loop that never
    reads its history never pays for them). Pickles as the plain dict."""

    __slots__ = ("_player", "_table", "_layout", "_played", "_cause", "_texts")
    _KEYS = ("type", "player", "table", "played", "cause")

    def __init__(self, player: int, table: Table, layout: Layout | None, played: TileSet, cause: str) -> None:
        self._player = player
        self._table = table
        self._layout = layout
        self._played = played
        self._cause = cause
        self._texts: tuple[str, str] | None = None

    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return "play"
        if key == "player":
            return self._player
        if key == "cause":
            return self._cause
        if key == "table" or key == "played":
            texts = self._texts
            if texts is None:
                texts = self._texts = (layout_text(self._table, self._layout), str(self._played))
            return texts[0] if key == "table" else texts[1]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return 5

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


def _public_prefix(events: list[Mapping[str, Any]], public: list[Event], viewer: int | None,
                   n: int) -> tuple[Event, ...]:
    """The public forms of ``events[:n]`` for ``viewer``, extending the cache ``public`` (the same forms for the
    same prefix whoever asks first; the events list only grows)."""
    have = len(public)
    if have >= n:
        return tuple(public[:n])
    new = [public_event(e, viewer) for e in events[have:n]]
    if len(public) == have:  # nobody extended it meanwhile
        public.extend(new)
    return tuple(public[:have]) + tuple(new)


def _keep_order(before: Table, layout: Layout, after: Table) -> Layout | None:
    """The layout of ``after`` that keeps the order of every set that was already on the table (a play given
    as a plain Table, by a bot say, leaves the sets it did not change as the players laid them)."""
    orders: dict[tuple[int, ...], list[tuple[Tile, ...]]] = {}
    for meld, tiles in zip(before, layout):
        orders.setdefault(meld.key, []).append(tiles)
    out = []
    changed = False
    for meld in after:
        kept = orders.get(meld.key)
        if kept:
            tiles = kept.pop()
            changed = changed or tiles != meld.tiles
            out.append(tiles)
        else:
            out.append(meld.tiles)
    return tuple(out) if changed else None


_FULL_SETS: dict[tuple[int, int, int, int], tuple[tuple[Tile, ...], tuple[int, ...]]] = {}


def _full_set(rules: RuleSet) -> tuple[tuple[Tile, ...], tuple[int, ...]]:
    """Every tile of the rules' set in canonical order (``list(TileSet.full(rules))``) and their codes, made once
    per set."""
    key = (rules.numbers, rules.colours, rules.copies, rules.jokers)
    found = _FULL_SETS.get(key)
    if found is None:
        tiles = tuple(TileSet.full(rules))
        found = _FULL_SETS[key] = (tiles, tuple(map(_CODE_OF, tiles)))
    return found


def _draw_for_first(rng: random.Random, full: list[Tile], players: int) -> tuple[int, list[list[tuple[int, Tile]]]]:
    """docs/rules.md §4: each player draws a tile; the highest number starts; a joker redraws, and players tied for
    the highest redraw among themselves. Returns the first player and every round of draws."""
    pile = list(full)
    _shuffle(rng, pile)
    rounds: list[list[tuple[int, Tile]]] = []
    contenders = list(range(players))
    while len(contenders) > 1:
        numbers: dict[int, int] = {}
        need = list(contenders)
        while need:
            if len(pile) < len(need):  # tiny sets only: the drawn tiles go back
                pile = list(full)
                _shuffle(rng, pile)
            draws = [(p, pile.pop()) for p in need]
            rounds.append(draws)
            need = [p for p, t in draws if t.is_joker]
            for p, t in draws:
                if t.number is not None:
                    numbers[p] = t.number
        top = max(numbers[p] for p in contenders)
        contenders = [p for p in contenders if numbers[p] == top]
    return contenders[0], rounds


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffles ``items`` in place exactly as ``rng.shuffle(items)`` does (the same permutation, the generator left
    in the same state: records replay a deal from its seed), in a fifth of its instructions.

    ``random.Random.shuffle`` draws, for each index ``i`` from the last down to 1, ``j = rng._randbelow(i + 1)``:
    ``getrandbits(k)`` with ``k = (i + 1).bit_length()``, drawn again while ``j > i``. Each such draw is one 32-bit
    word of the generator (its top ``k`` bits), and ``getrandbits(32 * n)`` is ``n`` words in order, the first
    lowest: the core runs the loop over words drawn at once (``_core.shuffle_words``), as many as indices are left,
    so never more than random.shuffle draws. A subclass of Random, which may draw otherwise, uses its own shuffle.

    >>> a, b = list(range(20)), list(range(20))
    >>> r = random.Random(3); _shuffle(r, a); random.Random(3).shuffle(b); a == b
    True
    """
    if type(rng) is not random.Random or type(items) is not list or len(items) >= 1 << 31:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    top = len(items) - 1
    while top > 0:
        top = _core.shuffle_words(items, top, getrandbits(32 * top).to_bytes(4 * top, "little"))
