"""What one player (or a spectator) may know, as Python, as JSON and as numbers.

A :class:`PlayerView` holds the player's own rack, the table (tiles in the order the players laid them), how
many tiles every rack and the pool hold, who has opened, the public history, the turn's absolute deadline,
the rules and the outcome. Never another player's rack, the pool's order or the seed. A spectator's view
(``player`` and ``rack`` None) holds only what everybody sees.

>>> from rummikub import Game
>>> game = Game.new(players=2, seed=7)
>>> view = game.view(game.current_player)
>>> d = view.to_dict()
>>> sorted(d)[:6], d["version"], len(d["rack"].split())
(['current_player', 'deadline', 'history', 'opened', 'outcome', 'player'], 1, 14)
>>> PlayerView.from_dict(d) == view
True
>>> game.spectator_view().to_dict()["rack"] is None
True

**Numeric encoding** (:meth:`PlayerView.to_arrays`, for learning agents). Tile counts are indexed by
``Tile.code`` (``colour * 16 + number - 1``; 64 is the joker; 65 entries, unused codes stay 0):

============== ============ ============================================================================
key            shape, type  meaning
============== ============ ============================================================================
``rack``       (65,) uint8  the player's rack (all zeros in a spectator's view)
``table``      (65,) uint8  the tiles on the table
``unseen``     (65,) uint8  every tile of the set not on the table and not on this rack (the pool and the
                            other racks together)
``rack_sizes`` (n,) int64   tiles in each player's rack (n players, seat order)
``opened``     (n,) bool    who has opened
``pool_size``  () int64     tiles left in the pool
``turn``       () int64     turns ended so far
``current``    () int64     the player to move
``player``     () int64     the viewer (-1 for a spectator)
``deadline``   () float64   the turn's absolute deadline (NaN without a clock)
``terminal``   () bool      the game is over
============== ============ ============================================================================
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .._errors import InvalidNotationError, RummikubError, shorten
from ..action import _read_table
from ..meld import Table
from ..rules import RuleSet
from ..scoring import Outcome
from ..tiles import TileSet

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["PlayerView", "OBSERVATION_VERSION", "public_event", "freeze_event", "thaw_event"]

OBSERVATION_VERSION = 1
"""The ``version`` field of an observation (``PlayerView.to_dict``)."""

Event = Mapping[str, Any]


def freeze_event(event: Mapping[str, Any]) -> Event:
    """A read-only copy of a JSON event (lists become tuples), safe to hand out and share."""
    return MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in event.items()})


def thaw_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh JSON-ready dict of an event (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in event.items()}


def public_event(event: Mapping[str, Any], viewer: int | None) -> Event:
    """What ``viewer`` (None: a spectator) sees of an event: a draw by anybody else shows only its count."""
    if event.get("type") != "draw":
        return freeze_event(event)
    out = dict(event)
    out["count"] = len(out["tiles"])
    if viewer is None or out.get("player") != viewer:
        del out["tiles"]
    return freeze_event(out)


DEFERRED = object()
"""Marks a view field's value left to be computed on first read: the field holds the tuple ``(DEFERRED, fn,
*args)`` and its first read stores ``fn(*args)`` in its place. A game makes a view every turn, and most readers
(every built-in bot) never look at its history or its table's notation; a tuple costs a third of an object."""


class _LazyField:
    """A data descriptor over a dataclass field: the instance's ``__dict__`` holds the value or a
    :data:`DEFERRED` tuple, computed (and stored) on first read. Assigned after the dataclass is made, so the field
    keeps its place, its annotation and no default."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.name)
        d = obj.__dict__
        value = d[self.name]
        if type(value) is tuple and value and value[0] is DEFERRED:  # (a real history's items are events)
            value = d[self.name] = value[1](*value[2:])
        return value

    def __set__(self, obj: object, value: Any) -> None:  # the dataclass's __init__ (frozen: nobody else)
        obj.__dict__[self.name] = value


@dataclass(frozen=True)
class PlayerView:
    """What one player may know (``player`` None: a spectator, who has no ``rack``). A snapshot: the game
    going on does not change it. Bots read it and answer an :class:`~rummikub.Action`.

    ``table`` is the table as a :class:`~rummikub.Table`; ``table_text`` the same table in notation with each
    set's tiles in the order the players laid them. ``history`` holds read-only public events. ``deadline``
    is the current turn's absolute deadline in the game clock's seconds (None without a clock).
    """

    player: int | None
    players: int
    rules: RuleSet
    rack: TileSet | None
    table: Table
    table_text: str
    rack_sizes: tuple[int, ...]
    pool_size: int
    current_player: int
    opened: tuple[bool, ...]
    turn: int
    history: tuple[Event, ...]
    outcome: Outcome | None
    deadline: float | None

    @property
    def is_spectator(self) -> bool:
        """True for a spectator's view (no rack)."""
        return self.player is None

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.outcome is not None

    @property
    def is_my_turn(self) -> bool:
        """True when it is this player's turn (and the game is not over)."""
        return self.outcome is None and self.player is not None and self.current_player == self.player

    @property
    def has_opened(self) -> bool:
        """True when this player has opened (made their initial meld); False for a spectator."""
        return self.player is not None and self.opened[self.player]

    @property
    def can_draw(self) -> bool:
        """True when this player may draw now."""
        return self.is_my_turn and self.pool_size > 0

    @property
    def can_pass(self) -> bool:
        """True when this player may pass now (the pool is empty)."""
        return self.is_my_turn and self.pool_size == 0

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds from ``now`` (default: ``time.time()``) to the deadline; None without a clock."""
        if self.deadline is None:
            return None
        return self.deadline - (time.time() if now is None else now)

    # ---- JSON ----------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The observation as JSON-ready data (``schemas/observation.schema.json``, version 1)."""
        return {
            "version": OBSERVATION_VERSION,
            "player": self.player,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "turn": self.turn,
            "current_player": self.current_player,
            "rack": None if self.rack is None else str(self.rack),
            "table": self.table_text,
            "rack_sizes": list(self.rack_sizes),
            "pool_size": self.pool_size,
            "opened": list(self.opened),
            "history": [thaw_event(e) for e in self.history],
            "deadline": self.deadline,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> PlayerView:
        """Reads :meth:`to_dict`'s form (so ``from_dict(v.to_dict()) == v`` and back); a malformed observation
        raises :class:`InvalidNotationError` naming the field."""
        if not isinstance(data, Mapping):
            raise InvalidNotationError(f"an observation is a JSON object, got {type(data).__name__}")
        if data.get("version") != OBSERVATION_VERSION:
            raise InvalidNotationError(f"observation version {shorten(data.get('version'))} is not "
                                       f"{OBSERVATION_VERSION}")

        def field(name: str) -> Any:
            if name not in data:
                raise InvalidNotationError(f"the observation has no {name!r}")
            return data[name]

        def integer(name: str, value: Any, low: int = 0, high: int | None = None) -> int:
            if type(value) is not int or value < low or (high is not None and value > high):
                span = f">= {low}" if high is None else f"in {low}..{high}"
                raise InvalidNotationError(f"observation {name} must be an int {span}, got {shorten(value)}")
            return value

        try:
            rules = RuleSet.from_dict(field("rules"))
        except RummikubError as exc:
            raise InvalidNotationError(f"observation rules: {exc}") from None
        players = integer("players", field("players"), 1)
        player = field("player")
        if player is not None:
            player = integer("player", player, 0, players - 1)
        rack_text = field("rack")
        if (rack_text is None) != (player is None):
            raise InvalidNotationError("an observation has a rack exactly when it has a player")
        if rack_text is not None and not isinstance(rack_text, str):
            raise InvalidNotationError(f"observation rack must be a string, got {shorten(rack_text)}")
        rack = None if rack_text is None else TileSet.parse(rack_text, rules)
        table_text = field("table")
        table, _layout = _read_table(table_text, rules)
        sizes = field("rack_sizes")
        opened = field("opened")
        history = field("history")
        if not isinstance(sizes, list) or len(sizes) != players:
            raise InvalidNotationError(f"observation rack_sizes must list {players} counts")
        if not isinstance(opened, list) or len(opened) != players or not all(isinstance(o, bool) for o in opened):
            raise InvalidNotationError(f"observation opened must list {players} booleans")
        if not isinstance(history, list) or not all(isinstance(e, Mapping) for e in history):
            raise InvalidNotationError("observation history must be a list of event objects")
        deadline = field("deadline")
        if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float))
                                     or not math.isfinite(deadline)):
            raise InvalidNotationError(f"observation deadline must be a number or null, got {shorten(deadline)}")
        outcome_data = field("outcome")
        try:
            outcome = None if outcome_data is None else Outcome.from_dict(outcome_data)
        except (KeyError, TypeError, ValueError, AssertionError, RecursionError) as exc:
            raise InvalidNotationError(f"observation outcome {shorten(outcome_data)}: {shorten(str(exc), quote=False)}") from None
        return cls(
            player=player, players=players, rules=rules, rack=rack, table=table, table_text=table_text,
            rack_sizes=tuple(integer("rack_sizes", s) for s in sizes),
            pool_size=integer("pool_size", field("pool_size")),
            current_player=integer("current_player", field("current_player"), 0, players - 1),
            opened=tuple(opened), turn=integer("turn", field("turn")),
            history=tuple(freeze_event(e) for e in history), outcome=outcome, deadline=deadline)

    @classmethod
    def from_json(cls, text: str) -> PlayerView:
        """Reads :meth:`to_json`'s text."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise InvalidNotationError(f"an observation must be JSON: nested too deep to read "
                                       f"({shorten(text, 40)})") from None
        except (TypeError, ValueError) as exc:
            raise InvalidNotationError(f"an observation must be JSON: {shorten(str(exc), quote=False)}") from None
        return cls.from_dict(data)

    def __reduce__(self) -> tuple[Any, ...]:
        # the read-only history does not pickle as it is; the JSON form round-trips exactly
        return (PlayerView.from_dict, (self.to_dict(),))

    # ---- numbers -------------------------------------------------------------------------------------------

    def unseen(self) -> TileSet:
        """Every tile of the set that is neither on the table nor on this rack (the pool and the other racks)."""
        seen = self.table.tiles() if self.rack is None else self.table.tiles() | self.rack
        return TileSet.full(self.rules) - seen

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The numeric encoding described in the module docstring (count arrays by ``Tile.code``, scalars).

        >>> from rummikub import Game
        >>> a = Game.new(players=3, seed=2).view(0).to_arrays()
        >>> int(a["rack"].sum() + a["table"].sum() + a["unseen"].sum()), a["rack_sizes"].tolist()
        (106, [14, 14, 14])
        """
        import numpy as np  # imported here: `import rummikub` does not load numpy

        empty = np.zeros(65, dtype=np.uint8)
        return {
            "rack": empty if self.rack is None else self.rack.to_counts(),
            "table": self.table.tiles().to_counts(),
            "unseen": self.unseen().to_counts(),
            "rack_sizes": np.asarray(self.rack_sizes, dtype=np.int64),
            "opened": np.asarray(self.opened, dtype=bool),
            "pool_size": np.asarray(self.pool_size, dtype=np.int64),
            "turn": np.asarray(self.turn, dtype=np.int64),
            "current": np.asarray(self.current_player, dtype=np.int64),
            "player": np.asarray(-1 if self.player is None else self.player, dtype=np.int64),
            "deadline": np.asarray(math.nan if self.deadline is None else self.deadline, dtype=np.float64),
            "terminal": np.asarray(self.outcome is not None, dtype=bool),
        }


for _name in ("history", "table_text"):  # filled lazily by Game.view (see DEFERRED)
    setattr(PlayerView, _name, _LazyField(_name))
