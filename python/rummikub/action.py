"""What a player does on their turn: an :class:`Action` is a play (the whole new table), a draw or a pass.

One type for every door into the game: bots answer an Action, :meth:`Game.apply <rummikub.Game.apply>` takes
one, ``solve`` and ``plays`` return :class:`~rummikub.Play` objects, which are Actions too, and the JSON
form (``{"kind": "play", "table": "R1 R2 R3 | K7 B7 O7"}``) is what the engine protocol and the server send.

>>> a = Action.parse("play R1 R2 R3 | K8 O8 R8 B8")
>>> a.kind, str(a)
(<ActionKind.PLAY: 'play'>, 'play R1 R2 R3 | K8 O8 R8 B8')
>>> Action.from_dict(a.to_dict()) == a, a.to_dict()["table"]
(True, 'R1 R2 R3 | K8 O8 R8 B8')
>>> Action.draw(), Action.parse("pass") == Action.pass_()
(Action.draw(), True)

A play keeps the order in which the tiles of each set were given (``K8 O8 R8 B8`` stays in that order on the
table); equality compares what is on the table (as :class:`~rummikub.Table` does), not the order.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from ._errors import InvalidMeldError, InvalidNotationError, RummikubError, shorten
from .meld import Meld, MeldKind, Table
from .rules import RuleSet
from .tiles import Tile, TileSet, parse_tokens

__all__ = ["Action", "ActionKind", "Layout", "table_to_text", "table_from_text", "layout_text"]

Layout = tuple[tuple[Tile, ...], ...]
"""The tiles of each set of a table in the order a player gave them (parallel to the table's melds)."""


class ActionKind(str, enum.Enum):
    """The three kinds of turn (docs/rules.md §5)."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"

    def __str__(self) -> str:
        return self.value


# ------------------------------------------------------------------------------------------------------------
# Table notation. A group of one numbered tile and jokers (``K7 J J``) reads back as a run, so such a group is
# written ``group:K7 J J`` (or in the group shorthand ``KJJ7``).


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


def _ordered_meld_text(meld: Meld, tiles: Sequence[Tile]) -> str:
    """``tiles`` (the meld's tiles in a player's order) as text that reads back to ``meld``; the meld's own
    text when that order would read as another meld (a joker in another slot)."""
    if tuple(tiles) == meld.tiles:
        return _meld_text(meld)
    text = " ".join(map(str, tiles))
    try:
        if Meld.parse(text)._key == meld._key:
            return text
    except RummikubError:
        pass
    return _meld_text(meld)


def layout_text(table: Table, layout: Layout | None) -> str:
    """The table's text with each set's tiles in the order of ``layout`` (None: the melds' own order).

    >>> layout_text(Table.parse("K8 O8 R8 B8"), ((Tile.parse("K8"), Tile.parse("O8"), Tile.parse("R8"),
    ...                                          Tile.parse("B8")),))
    'K8 O8 R8 B8'
    >>> str(Table.parse("K8 O8 R8 B8"))
    'K8 B8 O8 R8'
    """
    if layout is None:
        return table_to_text(table)
    return " | ".join([_ordered_meld_text(m, tiles) for m, tiles in zip(table, layout)])


def table_from_text(text: str, rules: RuleSet | None = None) -> Table:
    """Reads :func:`table_to_text` notation (``Table.parse`` notation plus ``group:`` melds).

    >>> table_from_text("group:K7 J J | R1-3")[0].kind.value
    'group'
    """
    return _read_table(text, rules)[0]


def _read_table(text: str, rules: RuleSet | None) -> tuple[Table, Layout | None]:
    """The table and each set's tiles in the order written (None: every set in its meld's own order)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a table must be given as a string, got {type(text).__name__} {_short(text)}")
    if not text.strip():
        return Table(), ()
    melds: list[Meld] = []
    layout: list[tuple[Tile, ...]] = []
    for i, piece in enumerate(text.split("|"), start=1):
        piece = piece.strip()
        if not piece:
            raise InvalidNotationError(f"empty meld {i} in {_short(text)}")
        try:
            meld, tiles = _read_meld(piece, rules)
        except RummikubError as exc:
            raise type(exc)(f"meld {i} of {_short(text)}: {exc}") from None
        melds.append(meld)
        layout.append(tiles)
    table = Table(melds)
    if rules is not None:
        table.tiles().check(rules, what=f"table {_short(text)}")
    if all(m.tiles == tiles for m, tiles in zip(melds, layout)):
        return table, None
    return table, tuple(layout)


@functools.lru_cache(maxsize=4096)
def _read_meld(piece: str, rules: RuleSet | None) -> tuple[Meld, tuple[Tile, ...]]:
    """One set of a table's text: its meld and its tiles in the order written. Cached: a client or a server
    sends mostly the same sets turn after turn, and both results are immutable."""
    if piece.startswith("group:"):
        tiles = _tiles_in_order(piece[6:], rules)
        numbered = [t for t in tiles if not t.is_joker]
        if not numbered or len({t.number for t in numbered}) != 1:
            raise InvalidMeldError(f"{shorten(piece)} is not a group")
        return Meld.group(numbered[0].number or 0, [t.colour or 0 for t in numbered],
                          len(tiles) - len(numbered), rules), tiles
    return Meld.parse(piece, rules), _tiles_in_order(piece, rules)


def _tiles_in_order(text: str, rules: RuleSet | None) -> tuple[Tile, ...]:
    return tuple(t for parsed, _token, _pos in parse_tokens(text, rules) for t in parsed)


_short = shorten


def _check_layout(table: Table, layout: Sequence[Sequence[Tile]]) -> Layout:
    """``layout`` as a Layout when it lists each meld's tiles (any order); else InvalidMeldError."""
    if len(layout) != len(table):
        raise InvalidMeldError(f"the layout lists {len(layout)} sets for a table of {len(table)}")
    out = []
    for meld, tiles in zip(table, layout):
        ordered = tuple(tiles)
        if TileSet(ordered) != meld.tileset():
            raise InvalidMeldError(f"layout {shorten(' '.join(map(str, ordered)))} does not hold the tiles of {meld}")
        out.append(ordered)
    return tuple(out)


# ------------------------------------------------------------------------------------------------------------


class Action:
    """A turn: :meth:`play` (the whole new table: every table tile plus the rack tiles played), :meth:`draw`
    or :meth:`pass_`. Immutable and hashable; ``repr`` pastes back; ``str`` is the text :meth:`parse` reads.

    :class:`~rummikub.Play` (a search result) is an Action of kind play with extra fields.

    >>> Action.play("R1 R2 R3").table
    Table.parse('R1 R2 R3')
    >>> Action.draw().table is None
    True
    """

    _kind: ActionKind = ActionKind.PLAY
    _layout: Layout | None = None
    table: Table | None
    """The new table of a play; None for a draw or a pass."""

    def __init__(self, kind: ActionKind | str, table: Table | str | None = None,
                 layout: Sequence[Sequence[Tile]] | None = None, rules: RuleSet | None = None) -> None:
        """Prefer :meth:`play`, :meth:`draw`, :meth:`pass_` or :meth:`parse`."""
        try:
            k = ActionKind(kind)
        except ValueError:
            raise InvalidNotationError(f"an action kind is play, draw or pass, got {_short(kind)}") from None
        lay: Layout | None = None
        if k is ActionKind.PLAY:
            if isinstance(table, str):
                table, lay = _read_table(table, rules)
            elif not isinstance(table, Table):
                raise InvalidNotationError(f"a play needs a Table or its notation, got {type(table).__name__} "
                                           f"{_short(table)}")
            if layout is not None:
                lay = _check_layout(table, layout)
        elif table is not None:
            raise InvalidNotationError(f"a {k.value} carries no table, got {_short(table)}")
        d = self.__dict__
        d["_kind"] = k
        d["table"] = table
        if lay is not None and any(m.tiles != t for m, t in zip(table or (), lay)):
            d["_layout"] = lay  # kept only when it differs from the melds' own order

    @classmethod
    def play(cls, table: Table | str, rules: RuleSet | None = None, *,
             layout: Sequence[Sequence[Tile]] | None = None) -> Action:
        """A play: the whole new table (a :class:`Table` or its notation, read with ``rules``). ``layout``
        optionally gives each set's tiles in the order to show them (notation keeps its own order)."""
        return cls(ActionKind.PLAY, table, layout, rules)

    @classmethod
    def draw(cls) -> Action:
        """Draw one tile from the pool (ends the turn)."""
        return _DRAW

    @classmethod
    def pass_(cls) -> Action:
        """Pass (only when the pool is empty)."""
        return _PASS

    @property
    def kind(self) -> ActionKind:
        """``ActionKind.PLAY``, ``DRAW`` or ``PASS``."""
        return self._kind

    @property
    def layout(self) -> Layout | None:
        """A play's sets in the order the player gave their tiles (None: the melds' own order)."""
        return self._layout if self._kind is ActionKind.PLAY else None

    def table_text(self) -> str | None:
        """A play's table in notation, tiles in the order given (None for a draw or a pass)."""
        if self.table is None:
            return None
        return layout_text(self.table, self._layout)

    # ---- text and JSON -------------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Action:
        """Reads ``"draw"``, ``"pass"`` or ``"play <table notation>"``.

        >>> Action.parse("play R5 J R7 | KBO7").table
        Table.parse('R5 J R7 | K7 B7 O7')
        >>> Action.parse("jump")
        Traceback (most recent call last):
        ...
        rummikub._errors.InvalidNotationError: an action is 'draw', 'pass' or 'play <table>', got 'jump'
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"an action must be given as a string, got {type(text).__name__} "
                                       f"{_short(text)}")
        word, _, rest = text.strip().partition(" ")
        word = word.lower()
        if word in ("draw", "pass") and not rest.strip():
            return _DRAW if word == "draw" else _PASS
        if word == "play" and rest.strip():
            try:
                return cls(ActionKind.PLAY, rest.strip(), None, rules)
            except RummikubError as exc:
                raise type(exc)(f"action {_short(text)}: {exc}") from None
        raise InvalidNotationError(f"an action is 'draw', 'pass' or 'play <table>', got {_short(text)}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"kind": "play", "table": "..."}``, ``{"kind": "draw"}`` or ``{"kind": "pass"}``."""
        if self.table is None:
            return {"kind": self._kind.value}
        return {"kind": "play", "table": layout_text(self.table, self._layout)}

    @classmethod
    def from_dict(cls, data: Any, rules: RuleSet | None = None) -> Action:
        """Reads :meth:`to_dict`'s form; :class:`InvalidNotationError` names what is wrong.

        >>> Action.from_dict({"kind": "play", "table": "R1 R2 R3"})
        Action.parse('play R1 R2 R3')
        """
        if not isinstance(data, Mapping):
            raise InvalidNotationError(f"an action is a JSON object, got {type(data).__name__} {_short(data)}")
        extra = sorted(set(data) - {"kind", "table"})
        if extra:
            raise InvalidNotationError(f"unknown action field {', '.join(map(repr, extra))} in {_short(dict(data))}")
        kind = data.get("kind")
        if kind == "play":
            if "table" not in data:
                raise InvalidNotationError(f"a play needs a table: {_short(dict(data))}")
            return cls(ActionKind.PLAY, data["table"], None, rules)
        if kind in ("draw", "pass"):
            if "table" in data:
                raise InvalidNotationError(f"a {kind} carries no table: {_short(dict(data))}")
            return _DRAW if kind == "draw" else _PASS
        raise InvalidNotationError(f"an action kind is play, draw or pass, got {_short(kind)}")

    # ---- value semantics -----------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._kind is other._kind and self.table == other.table

    def __hash__(self) -> int:
        return hash((self._kind, self.table))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Action is immutable")

    def __str__(self) -> str:
        if self.table is None:
            return self._kind.value
        return f"play {layout_text(self.table, self._layout)}"

    def __repr__(self) -> str:
        if self.table is None:
            return "Action.draw()" if self._kind is ActionKind.DRAW else "Action.pass_()"
        return f"Action.parse({str(self)!r})"


_DRAW = Action(ActionKind.DRAW)
_PASS = Action(ActionKind.PASS)
