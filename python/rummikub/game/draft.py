"""The current player's draft of the table, for user interfaces (RULES.md §5).

The draft may be invalid while editing; :meth:`Draft.problems` says what is wrong per set, with reasons a UI
can show, and :meth:`Game.commit <rummikub.Game.commit>` validates it completely. Every edit is undoable;
``reset()`` (itself undoable) restores the table as it was at the start of the turn.

Sets have stable ids (``"s1"``, ``"s2"``, ...: the table's sets in order, then a fresh id for every new set,
never reused within the draft), tiles keep the order the player gave them (also on the table after the
commit), and a draft whose turn ended refuses every edit (reason ``stale_draft``).

>>> from rummikub import RuleSet, Table, TileSet
>>> d = Draft(Table.parse("B4 B5 B6 | K8 O8 R8"), TileSet.parse("B3 B8 K1"), RuleSet(), opened=True)
>>> [s.id for s in d.sets]
['s1', 's2']
>>> d.place("B3", "s1", position=0); d.place("B8", "s2")
's1'
's2'
>>> str(d)
'B3 B4 B5 B6 | K8 O8 R8 B8'
>>> d.legal, str(d.placed), str(d.rack)
(True, 'B3 B8', 'K1')
>>> d.undo(); str(d)
'B3 B4 B5 B6 | K8 O8 R8'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Union

from .._errors import IllegalMoveError, InvalidMeldError, InvalidNotationError, RummikubError
from ..action import Action, Layout, _read_table, _tiles_in_order
from ..legality import Reason, check_turn, illegal
from ..meld import Meld, Table
from ..rules import RuleSet
from ..tiles import Tile, TileLike, TileSet, _as_tile

if TYPE_CHECKING:
    from .state import Game
    from .view import PlayerView

__all__ = ["Draft", "DraftSet", "DRAFT_VERSION", "STALE_DRAFT"]

DRAFT_VERSION = 1
"""The ``version`` field of a draft's JSON (``Draft.to_dict``)."""

STALE_DRAFT = "stale_draft"
"""The ``reason`` of the error an edit of a draft from an ended turn raises."""

# A draft entry is a tile and whether it came from the rack this turn; a set is its id and its entries.
_Entry = tuple[Tile, bool]
_Set = tuple[str, tuple[_Entry, ...]]
_State = tuple[_Set, ...]
_ID = re.compile(r"^s([1-9][0-9]{0,8})$")


class DraftSet(NamedTuple):
    """One set of a draft: its stable id and its tiles in the order given."""

    id: str
    tiles: tuple[Tile, ...]

    def __str__(self) -> str:
        return " ".join(map(str, self.tiles))


def _edit_error(message: str) -> IllegalMoveError:
    return illegal(Reason.INVALID_EDIT, message)


class Draft:
    """An editable copy of the table for the player whose turn it is (``game.draft``).

    Sets are addressed by id (``draft.sets[i].id``); a ``position`` inside a set defaults to its end (runs are
    read in number order anyway; positions matter for where a joker stands and for how the set is shown).
    Editing errors (a tile not in the rack, an unknown set) raise :class:`IllegalMoveError` with reason
    ``invalid_edit`` and change nothing.
    """

    __slots__ = ("_table", "_rack", "_rules", "_opened", "_states", "_pos", "_next", "_turn", "_player",
                 "_owner", "_ended")

    def __init__(self, table: Table, rack: TileSet, rules: RuleSet, opened: bool, *,
                 layout: Layout | None = None, turn: int = 0, player: int = 0, owner: Game | None = None) -> None:
        """A draft of ``table`` for a player holding ``rack``. ``layout`` gives each table set's tiles in the
        order shown; ``turn`` and ``player`` say whose turn it is; a draft made by a game (``owner``) ends
        with the turn."""
        self._table = table
        self._rack = rack
        self._rules = rules
        self._opened = opened
        sets = layout if layout is not None else tuple(tuple(m.tiles) for m in table)
        initial: _State = tuple((f"s{i}", tuple((t, False) for t in tiles)) for i, tiles in enumerate(sets, 1))
        self._states: list[_State] = [initial]
        self._pos = 0
        self._next = len(initial) + 1
        self._turn = turn
        self._player = player
        self._owner = owner
        self._ended = False

    # ---- reading -------------------------------------------------------------------------------------------

    @property
    def _state(self) -> _State:
        return self._states[self._pos]

    @property
    def turn(self) -> int:
        """The turn this draft belongs to."""
        return self._turn

    @property
    def player(self) -> int:
        """The player whose draft this is."""
        return self._player

    @property
    def ended(self) -> bool:
        """True once the draft's turn is over (the draft then refuses edits)."""
        if self._ended:
            return True
        owner = self._owner
        if owner is not None and (owner.turn != self._turn or owner.is_over):
            self._ended = True
        return self._ended

    @property
    def sets(self) -> tuple[DraftSet, ...]:
        """The draft's sets in order, each its id and tiles (they may be invalid)."""
        return tuple(DraftSet(i, tuple(t for t, _ in s)) for i, s in self._state)

    @property
    def ids(self) -> tuple[str, ...]:
        """The sets' ids in order."""
        return tuple(i for i, _ in self._state)

    def __getitem__(self, set_id: str) -> tuple[Tile, ...]:
        """The tiles of the set ``set_id``."""
        return tuple(t for t, _ in self._state[self._index(self._state, set_id, "set")][1])

    @property
    def placed(self) -> TileSet:
        """The rack tiles placed on the draft this turn."""
        return TileSet(t for _, s in self._state for t, from_rack in s if from_rack)

    @property
    def rack(self) -> TileSet:
        """The rack as it would be after committing: the turn's rack minus the placed tiles."""
        return self._rack - self.placed

    @property
    def started(self) -> bool:
        """True when the draft's tiles differ from the table at the start of the turn (a move is started)."""
        return [s for _, s in self._state] != [s for _, s in self._states[0]]

    @property
    def can_undo(self) -> bool:
        """True when there is an edit to undo."""
        return self._pos > 0 and not self.ended

    @property
    def can_redo(self) -> bool:
        """True when there is an undone edit to redo."""
        return self._pos < len(self._states) - 1 and not self.ended

    def __len__(self) -> int:
        return len(self._state)

    def __iter__(self) -> Iterator[DraftSet]:
        return iter(self.sets)

    def __str__(self) -> str:
        return " | ".join(str(s) for s in self.sets)

    def __repr__(self) -> str:
        return f"<Draft turn={self._turn} {str(self)!r} placed={str(self.placed)!r}{' ended' if self.ended else ''}>"

    # ---- checking ------------------------------------------------------------------------------------------

    def _melds(self) -> list[tuple[str, Meld | InvalidMeldError]]:
        out: list[tuple[str, Meld | InvalidMeldError]] = []
        for set_id, entries in self._state:
            try:
                out.append((set_id, Meld([t for t, _ in entries], self._rules)))
            except InvalidMeldError as exc:
                out.append((set_id, exc))
        return out

    @property
    def valid(self) -> bool:
        """True when every set of the draft is a valid group or run (the turn may still be illegal)."""
        return all(isinstance(m, Meld) for _, m in self._melds())

    def problems(self) -> list[dict[str, Any]]:
        """Everything that stops a commit now, as ``{"set": id | None, "code": ..., "message": ...}``: each
        invalid set (``invalid_set``, ``loose_tile``), else the rule the turn breaks (``set`` None: a
        whole-draft problem such as ``opening_too_low``), or ``stale_draft`` once the turn ended.

        >>> from rummikub import RuleSet, Table, TileSet
        >>> d = Draft(Table(), TileSet.parse("K9 B9 O9 R1"), RuleSet(), opened=False)
        >>> d.insert_set(["K9", "B9", "O9"]); d.insert_set(["R1"])
        's1'
        's2'
        >>> [(p["set"], p["code"]) for p in d.problems()]
        [('s2', 'loose_tile')]
        >>> d.take_back("R1"); d.problems()[0]["message"]
        'the opening K9 B9 O9 is worth 27, 3 short of 30 (RULES.md §6)'
        """
        if self.ended:
            return [{"set": None, "code": STALE_DRAFT,
                     "message": f"turn {self._turn} is over: this draft can no longer be committed"}]
        out: list[dict[str, Any]] = []
        for set_id, meld in self._melds():
            if isinstance(meld, InvalidMeldError):
                size = len(self[set_id])
                code = Reason.LOOSE_TILE if size < self._rules.min_len else Reason.INVALID_SET
                message = (f"{size} tile{'s' if size != 1 else ''}: a set needs at least {self._rules.min_len}"
                           if code is Reason.LOOSE_TILE else str(meld))
                out.append({"set": set_id, "code": code.value, "message": message})
        if out:
            return out
        try:
            check_turn(self._table, self._rack, self.to_table(), rules=self._rules, opened=self._opened)
        except IllegalMoveError as exc:
            return [{"set": None, "code": exc.reason, "message": str(exc)}]
        return []

    @property
    def legal(self) -> bool:
        """True when committing the draft now would succeed."""
        return not self.problems()

    @property
    def opening_points(self) -> int | None:
        """Before the player opened: the points of the valid sets made only of rack tiles (what counts toward
        the opening, RULES.md §6); None once opened."""
        if self._opened:
            return None
        total = 0
        for set_id, meld in self._melds():
            entries = self._state[self._index(self._state, set_id, "set")][1]
            if isinstance(meld, Meld) and all(from_rack for _, from_rack in entries):
                if self._rules.joker_in_opening or not meld.jokers:
                    total += meld.value
        return total

    def check(self) -> dict[str, Any]:
        """The check answer a server sends: ``{"legal": bool, "problems": [...], "opening_points": int | None}``."""
        problems = self.problems()
        return {"legal": not problems, "problems": problems, "opening_points": self.opening_points}

    def to_table(self) -> Table:
        """The draft as a :class:`Table`; raises :class:`IllegalMoveError` (``loose_tile`` or ``invalid_set``)
        naming the first set that is not valid."""
        melds = []
        for set_id, meld in self._melds():
            if isinstance(meld, InvalidMeldError):
                size = len(self[set_id])
                reason = Reason.LOOSE_TILE if size < self._rules.min_len else Reason.INVALID_SET
                raise illegal(reason, f"set {set_id} of the draft: {meld}") from None
            melds.append(meld)
        return Table(melds)

    def layout(self) -> Layout:
        """Each set's tiles in the order given."""
        return tuple(tuple(t for t, _ in s) for _, s in self._state)

    def to_action(self) -> Action:
        """The draft as a play (tiles in the order given); :class:`IllegalMoveError` when a set is invalid."""
        return Action.play(self.to_table(), layout=self.layout())

    # ---- JSON ----------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """``{"version": 1, "turn": ..., "player": ..., "sets": [{"id": "s1", "tiles": "R1 R2 R3"}, ...]}``."""
        return {"version": DRAFT_VERSION, "turn": self._turn, "player": self._player,
                "sets": [{"id": s.id, "tiles": str(s)} for s in self.sets]}

    @classmethod
    def from_dict(cls, source: Union[Game, PlayerView], data: Any) -> Draft:
        """A client's draft (:meth:`to_dict`'s form) against a game (the current player's turn) or a player's
        view. Tiles beyond the table's are the rack tiles placed; a tile that is neither on the table nor on
        the rack, a draft for another turn (``stale_draft``) or player, or malformed JSON raises
        :class:`IllegalMoveError` or :class:`InvalidNotationError` naming it.

        >>> from rummikub import Game
        >>> game = Game.new(players=2, seed=3)
        >>> d = Draft.from_dict(game, game.draft.to_dict())
        >>> d.to_dict() == game.draft.to_dict()
        True
        """
        from .state import Game
        from .view import PlayerView

        if not isinstance(data, Mapping):
            raise InvalidNotationError(f"a draft is a JSON object, got {type(data).__name__}")
        if data.get("version") != DRAFT_VERSION:
            raise InvalidNotationError(f"draft version {data.get('version')!r} is not {DRAFT_VERSION}")
        turn, player, sets = data.get("turn"), data.get("player"), data.get("sets")
        for name, value in (("turn", turn), ("player", player)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidNotationError(f"draft {name} must be an int, got {value!r}"[:200])
        if not isinstance(sets, list):
            raise InvalidNotationError("draft sets must be a list of {\"id\", \"tiles\"} objects")
        owner: Game | None = None
        if isinstance(source, Game):
            base = source.draft
            owner = source
        elif isinstance(source, PlayerView):
            if source.rack is None or source.player is None:
                raise RummikubError("a spectator's view has no rack to draft with")
            table, layout = _read_table(source.table_text, source.rules)
            base = Draft(table, source.rack, source.rules, source.has_opened, layout=layout, turn=source.turn,
                         player=source.player)
        else:
            raise RummikubError(f"a draft is read against a Game or a PlayerView, got {type(source).__name__}")
        if turn != base._turn or base.ended:
            raise IllegalMoveError(f"the draft is for turn {turn}, but it is turn {base._turn}"
                                   f"{' (the game is over)' if base.ended else ''}", STALE_DRAFT)
        if player != base._player:
            raise IllegalMoveError(f"the draft is player {player}'s, but turn {turn} is player {base._player}'s",
                                   Reason.NOT_YOUR_TURN.value)
        out = Draft(base._table, base._rack, base._rules, base._opened, turn=base._turn, player=base._player,
                    owner=owner)
        out._states = [base._states[0]]
        table_left = {t: base._table.tiles().count(t) for t in set(base._table.tiles())}
        rack_left = {t: base._rack.count(t) for t in set(base._rack)}
        seen: set[str] = set()
        parsed: list[_Set] = []
        top = len(base._states[0])
        for k, item in enumerate(sets, 1):
            if not isinstance(item, Mapping) or not isinstance(item.get("id"), str) or \
                    not isinstance(item.get("tiles"), str) or set(item) - {"id", "tiles"}:
                raise InvalidNotationError(f"draft set {k} must be {{\"id\": \"s1\", \"tiles\": \"R1 R2 R3\"}}, "
                                           f"got {item!r}"[:200])
            set_id = item["id"]
            match = _ID.match(set_id)
            if match is None or set_id in seen:
                raise InvalidNotationError(f"draft set {k}: id {set_id!r} must be unique and look like 's7'"[:200])
            seen.add(set_id)
            top = max(top, int(match.group(1)))
            try:
                tiles = _tiles_in_order(item["tiles"], base._rules)
            except RummikubError as exc:
                raise InvalidNotationError(f"draft set {set_id}: {exc}") from None
            if not tiles:
                raise InvalidNotationError(f"draft set {set_id} holds no tiles")
            entries = []
            for t in tiles:
                if table_left.get(t, 0):
                    table_left[t] -= 1
                    entries.append((t, False))
                elif rack_left.get(t, 0):
                    rack_left[t] -= 1
                    entries.append((t, True))
                else:
                    raise _edit_error(f"draft set {set_id}: {t} is neither on the table nor on the rack "
                                      f"(or is there fewer times than the draft uses it)")
            parsed.append((set_id, tuple(entries)))
        state: _State = tuple(parsed)
        if state != out._states[0]:
            out._states.append(state)
            out._pos = 1
        out._next = top + 1
        return out

    # ---- editing -------------------------------------------------------------------------------------------

    def _editable(self) -> list[list[Any]]:
        if self.ended:
            raise IllegalMoveError(f"turn {self._turn} is over: this draft no longer accepts edits", STALE_DRAFT)
        return [[i, list(s)] for i, s in self._state]

    def _push(self, sets: list[list[Any]]) -> None:
        state: _State = tuple((i, tuple(s)) for i, s in sets if s)
        del self._states[self._pos + 1:]
        self._states.append(state)
        self._pos += 1

    def _fresh(self) -> str:
        out = f"s{self._next}"
        self._next += 1
        return out

    @staticmethod
    def _index(sets: Sequence[Any], set_id: object, what: str) -> int:
        for k, s in enumerate(sets):
            if s[0] == set_id:
                return k
        ids = ", ".join(s[0] for s in sets) or "none"
        raise _edit_error(f"{what} {set_id!r} is not a set of the draft (sets: {ids})"[:300])

    def _insert_at(self, sets: list[list[Any]], before: str | None) -> int:
        return len(sets) if before is None else self._index(sets, before, "before")

    @staticmethod
    def _position(target: list[_Entry], position: int | None) -> int:
        if position is None:
            return len(target)
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= len(target):
            raise _edit_error(f"position {position!r} is outside 0..{len(target)}")
        return position

    def place(self, tile: TileLike, set_id: str | None = None, position: int | None = None, *,
              before: str | None = None) -> str:
        """Puts a rack tile into set ``set_id`` at ``position`` (default: the end), or into a new set (placed
        before set ``before``, default: at the end) when ``set_id`` is None. Returns the set's id."""
        sets = self._editable()
        t = _as_tile(tile)
        if self.rack.count(t) == 0:
            raise _edit_error(f"{t} is not on the rack (left: {self.rack or 'nothing'})")
        if set_id is None:
            at = self._insert_at(sets, before)
            set_id = self._fresh()
            sets.insert(at, [set_id, [(t, True)]])
        else:
            target = sets[self._index(sets, set_id, "set")][1]
            target.insert(self._position(target, position), (t, True))
        self._push(sets)
        return set_id

    def insert_set(self, tiles: Sequence[TileLike] | str, before: str | None = None) -> str:
        """A new set of rack tiles (in the order given) before set ``before`` (default: at the end); returns
        its fresh id."""
        sets = self._editable()
        seq = _tiles_in_order(tiles, self._rules) if isinstance(tiles, str) else tuple(_as_tile(t) for t in tiles)
        if not seq:
            raise _edit_error("a new set needs at least one tile")
        need, rack = TileSet(seq), self.rack
        missing = need - (need & rack)
        if missing:
            raise _edit_error(f"{missing} not on the rack (left: {rack or 'nothing'})")
        at = self._insert_at(sets, before)
        set_id = self._fresh()
        sets.insert(at, [set_id, [(t, True) for t in seq]])
        self._push(sets)
        return set_id

    def move(self, tile: TileLike | int, from_set: str, to_set: str | None = None, position: int | None = None,
             *, before: str | None = None) -> str:
        """Moves a tile (a tile, or its index inside ``from_set``) to set ``to_set`` at ``position``, or into a
        new set (before ``before``, default: at the end) when ``to_set`` is None. A set left empty disappears.
        Returns the id of the set the tile went to."""
        sets = self._editable()
        source = sets[self._index(sets, from_set, "from_set")][1]
        entry = source.pop(self._find(source, tile, from_set))
        if to_set is None:
            at = self._insert_at(sets, before)
            to_set = self._fresh()
            sets.insert(at, [to_set, [entry]])
        else:
            target = sets[self._index(sets, to_set, "to_set")][1]
            target.insert(self._position(target, position), entry)
        self._push(sets)
        return to_set

    def split(self, set_id: str, at: int) -> str:
        """Splits set ``set_id`` before its ``at``-th tile; the second part becomes a new set right after it.
        Returns the new set's id."""
        sets = self._editable()
        i = self._index(sets, set_id, "set")
        tiles = sets[i][1]
        if isinstance(at, bool) or not isinstance(at, int) or not 0 < at < len(tiles):
            raise _edit_error(f"cannot split a set of {len(tiles)} tiles at {at!r}")
        new = self._fresh()
        sets[i:i + 1] = [[set_id, tiles[:at]], [new, tiles[at:]]]
        self._push(sets)
        return new

    def merge(self, a: str, b: str) -> None:
        """Appends set ``b``'s tiles to set ``a`` (``b`` disappears)."""
        sets = self._editable()
        i, j = self._index(sets, a, "set"), self._index(sets, b, "set")
        if i == j:
            raise _edit_error(f"cannot merge set {a} with itself")
        sets[i][1] = sets[i][1] + sets[j][1]
        del sets[j]
        self._push(sets)

    def take_back(self, tile: TileLike, set_id: str | None = None) -> None:
        """Returns a tile placed from the rack this turn to the rack (table tiles never go to a rack). Without
        ``set_id``, takes the copy in the last set that holds one."""
        sets = self._editable()
        t = _as_tile(tile)
        order = [self._index(sets, set_id, "set")] if set_id is not None else range(len(sets) - 1, -1, -1)
        for i in order:
            entries = sets[i][1]
            for k in range(len(entries) - 1, -1, -1):
                if entries[k] == (t, True):
                    del entries[k]
                    self._push(sets)
                    return
        where = f"set {set_id}" if set_id is not None else "the draft"
        raise _edit_error(f"{t} was not placed from the rack in {where} this turn; "
                          "only tiles placed this turn go back to the rack")

    def undo(self) -> None:
        """Undoes the last edit."""
        self._editable()
        if self._pos == 0:
            raise _edit_error("nothing to undo")
        self._pos -= 1

    def redo(self) -> None:
        """Redoes the last undone edit."""
        self._editable()
        if self._pos >= len(self._states) - 1:
            raise _edit_error("nothing to redo")
        self._pos += 1

    def reset(self) -> None:
        """Restores the table as it was at the start of the turn (undoable)."""
        self._editable()
        if self._state != self._states[0]:
            self._push([[i, list(s)] for i, s in self._states[0]])

    def _find(self, source: list[_Entry], tile: TileLike | int, from_set: str) -> int:
        if isinstance(tile, int) and not isinstance(tile, bool):
            if not 0 <= tile < len(source):
                raise _edit_error(f"set {from_set} has no tile at index {tile}")
            return tile
        t = _as_tile(tile)
        # prefer a tile placed this turn (so moving it keeps table tiles where they were)
        for k in range(len(source) - 1, -1, -1):
            if source[k] == (t, True):
                return k
        for k, (u, _) in enumerate(source):
            if u == t:
                return k
        raise _edit_error(f"set {from_set} holds no {t}")

    # ---- internal ------------------------------------------------------------------------------------------

    def _copy(self, owner: Game | None) -> Draft:
        out = Draft.__new__(Draft)
        for name in Draft.__slots__:
            setattr(out, name, getattr(self, name))
        out._states = list(self._states)
        out._owner = owner
        return out

    def _snapshot(self) -> tuple[object, ...]:
        return (tuple(self._states), self._pos, self._next)

