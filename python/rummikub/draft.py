"""The current player's draft of the table: free editing with undo, redo and reset (docs/rules.md §5).

The draft may be invalid while editing; :meth:`Draft.problems` says what is wrong, and the game's
``commit()`` validates it completely. Every edit is undoable; ``reset()`` (itself undoable) restores the
table as it was at the start of the turn.

>>> from rummikub import RuleSet, Table, TileSet
>>> d = Draft(Table.parse("B4 B5 B6 | K8 O8 R8"), TileSet.parse("B3 B8 K1"), RuleSet(), opened=True)
>>> d.place("B3", 0, position=0); d.place("B8", 1)
>>> str(d)
'B3 B4 B5 B6 | K8 O8 R8 B8'
>>> d.valid, str(d.placed), str(d.rack)
(True, 'B3 B8', 'K1')
>>> d.undo(); str(d)
'B3 B4 B5 B6 | K8 O8 R8'
"""

from __future__ import annotations

from collections.abc import Iterator

from ._errors import IllegalMoveError, InvalidMeldError
from .legality import Reason, check_turn, illegal
from .meld import Meld, Table
from .rules import RuleSet
from .tiles import Tile, TileLike, TileSet, _as_tile

__all__ = ["Draft"]

# A draft entry is a tile and whether it came from the rack this turn.
_Entry = tuple[Tile, bool]
_State = tuple[tuple[_Entry, ...], ...]


def _edit_error(message: str) -> IllegalMoveError:
    return illegal(Reason.INVALID_EDIT, message)


class Draft:
    """An editable copy of the table for the player whose turn it is.

    Sets are addressed by index (``0`` is the first set); a ``position`` inside a set defaults to its end
    (runs are read in number order anyway; positions matter only for where a joker stands).
    Editing errors (a tile not in the rack, a bad index) raise :class:`IllegalMoveError` with reason
    ``invalid_edit`` and change nothing.
    """

    __slots__ = ("_table", "_rack", "_rules", "_opened", "_states", "_pos")

    def __init__(self, table: Table, rack: TileSet, rules: RuleSet, opened: bool) -> None:
        self._table = table
        self._rack = rack
        self._rules = rules
        self._opened = opened
        initial: _State = tuple(tuple((t, False) for t in m.tiles) for m in table)
        self._states: list[_State] = [initial]
        self._pos = 0

    # ---- reading -------------------------------------------------------------------------------------------

    @property
    def _state(self) -> _State:
        return self._states[self._pos]

    @property
    def sets(self) -> tuple[tuple[Tile, ...], ...]:
        """The draft's sets as tile tuples, in order (they may be invalid)."""
        return tuple(tuple(t for t, _ in s) for s in self._state)

    @property
    def placed(self) -> TileSet:
        """The rack tiles placed on the draft this turn."""
        return TileSet(t for s in self._state for t, from_rack in s if from_rack)

    @property
    def rack(self) -> TileSet:
        """The rack as it would be after committing: the turn's rack minus the placed tiles."""
        return self._rack - self.placed

    @property
    def started(self) -> bool:
        """True when the draft differs from the table at the start of the turn (a move is started)."""
        return self._state != self._states[0]

    @property
    def can_undo(self) -> bool:
        """True when there is an edit to undo."""
        return self._pos > 0

    @property
    def can_redo(self) -> bool:
        """True when there is an undone edit to redo."""
        return self._pos < len(self._states) - 1

    def __len__(self) -> int:
        return len(self._state)

    def __iter__(self) -> Iterator[tuple[Tile, ...]]:
        return iter(self.sets)

    def __str__(self) -> str:
        return " | ".join(" ".join(map(str, s)) for s in self.sets)

    def __repr__(self) -> str:
        return f"<Draft {str(self)!r} placed={str(self.placed)!r}>"

    def set_problems(self) -> list[tuple[int, str]]:
        """For each invalid set: its index and why (the draft may be invalid while editing)."""
        out = []
        for i, tiles in enumerate(self.sets):
            try:
                Meld(tiles, self._rules)
            except InvalidMeldError as exc:
                out.append((i, str(exc)))
        return out

    @property
    def valid(self) -> bool:
        """True when every set of the draft is a valid group or run (the turn may still be illegal)."""
        return not self.set_problems()

    def problems(self) -> list[str]:
        """Everything that stops a commit now: each invalid set, or else the rule the turn breaks.

        >>> from rummikub import RuleSet, Table, TileSet
        >>> d = Draft(Table(), TileSet.parse("K9 B9 O9"), RuleSet(), opened=False)
        >>> for t in ("K9", "B9", "O9"): d.place(t, 0 if len(d) else None)
        >>> d.problems()
        ['the opening K9 B9 O9 is worth 27, 3 short of 30 (docs/rules.md §6)']
        """
        bad = self.set_problems()
        if bad:
            return [f"set {i + 1}: {message}" for i, message in bad]
        try:
            check_turn(self._table, self._rack, self.to_table(), rules=self._rules, opened=self._opened)
        except IllegalMoveError as exc:
            return [str(exc)]
        return []

    @property
    def legal(self) -> bool:
        """True when committing the draft now would succeed."""
        return not self.problems()

    def to_table(self) -> Table:
        """The draft as a :class:`Table`; raises :class:`IllegalMoveError` (``loose_tile`` or ``invalid_set``)
        naming the first set that is not valid."""
        melds = []
        for i, tiles in enumerate(self.sets):
            try:
                melds.append(Meld(tiles, self._rules))
            except InvalidMeldError as exc:
                reason = Reason.LOOSE_TILE if len(tiles) < self._rules.min_len else Reason.INVALID_SET
                raise illegal(reason, f"set {i + 1} of the draft: {exc}") from None
        return Table(melds)

    # ---- editing -------------------------------------------------------------------------------------------

    def _push(self, sets: list[list[_Entry]]) -> None:
        state: _State = tuple(tuple(s) for s in sets if s)
        del self._states[self._pos + 1:]
        self._states.append(state)
        self._pos += 1

    def _lists(self) -> list[list[_Entry]]:
        return [list(s) for s in self._state]

    def _index(self, sets: list[list[_Entry]], index: object, what: str) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(sets):
            raise _edit_error(f"{what} {index!r} is not a set of the draft (0..{len(sets) - 1})")
        return index

    @staticmethod
    def _position(target: list[_Entry], position: int | None) -> int:
        if position is None:
            return len(target)
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= len(target):
            raise _edit_error(f"position {position!r} is outside 0..{len(target)}")
        return position

    def place(self, tile: TileLike, set_index: int | None = None, position: int | None = None) -> None:
        """Puts a rack tile into set ``set_index`` at ``position`` (default: the end), or into a new set at the
        end of the draft when ``set_index`` is None."""
        t = _as_tile(tile)
        if self.rack.count(t) == 0:
            raise _edit_error(f"{t} is not on the rack (left: {self.rack or 'nothing'})")
        sets = self._lists()
        if set_index is None:
            sets.append([(t, True)])
        else:
            target = sets[self._index(sets, set_index, "set")]
            target.insert(self._position(target, position), (t, True))
        self._push(sets)

    def move(self, tile: TileLike | int, from_set: int, to_set: int | None = None,
             position: int | None = None) -> None:
        """Moves a tile (a tile, or its index inside ``from_set``) to set ``to_set`` at ``position``, or into a
        new set when ``to_set`` is None. A set left empty disappears."""
        sets = self._lists()
        source = sets[self._index(sets, from_set, "from_set")]
        at = self._find(source, tile, from_set)
        entry = source.pop(at)
        if to_set is None:
            sets.append([entry])
        else:
            target = sets[self._index(sets, to_set, "to_set")]
            target.insert(self._position(target, position), entry)
        self._push(sets)

    def split(self, set_index: int, at: int) -> None:
        """Splits set ``set_index`` before its ``at``-th tile; the second part becomes the next set."""
        sets = self._lists()
        i = self._index(sets, set_index, "set")
        if isinstance(at, bool) or not isinstance(at, int) or not 0 < at < len(sets[i]):
            raise _edit_error(f"cannot split a set of {len(sets[i])} tiles at {at!r}")
        sets[i:i + 1] = [sets[i][:at], sets[i][at:]]
        self._push(sets)

    def merge(self, a: int, b: int) -> None:
        """Appends set ``b`` to set ``a`` (``b`` disappears)."""
        sets = self._lists()
        i, j = self._index(sets, a, "set"), self._index(sets, b, "set")
        if i == j:
            raise _edit_error(f"cannot merge set {a} with itself")
        sets[i] = sets[i] + sets[j]
        del sets[j]
        self._push(sets)

    def take_back(self, tile: TileLike, set_index: int | None = None) -> None:
        """Returns a tile placed from the rack this turn to the rack (table tiles never go to a rack).
        Without ``set_index``, takes the copy in the last set that holds one."""
        t = _as_tile(tile)
        sets = self._lists()
        order = [self._index(sets, set_index, "set")] if set_index is not None else range(len(sets) - 1, -1, -1)
        for i in order:
            for k in range(len(sets[i]) - 1, -1, -1):
                if sets[i][k] == (t, True):
                    del sets[i][k]
                    self._push(sets)
                    return
        where = f"set {set_index}" if set_index is not None else "the draft"
        raise _edit_error(f"{t} was not placed from the rack in {where} this turn; "
                          "only tiles placed this turn go back to the rack")

    def undo(self) -> None:
        """Undoes the last edit."""
        if not self.can_undo:
            raise _edit_error("nothing to undo")
        self._pos -= 1

    def redo(self) -> None:
        """Redoes the last undone edit."""
        if not self.can_redo:
            raise _edit_error("nothing to redo")
        self._pos += 1

    def reset(self) -> None:
        """Restores the table as it was at the start of the turn (undoable)."""
        if self.started:
            self._push([list(s) for s in self._states[0]])

    def _find(self, source: list[_Entry], tile: TileLike | int, from_set: int) -> int:
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

    def _snapshot(self) -> tuple[object, ...]:
        return (tuple(self._states), self._pos)
