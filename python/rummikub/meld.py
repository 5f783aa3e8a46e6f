"""Melds (groups and runs, with jokers in their slots) and tables (lists of melds).

>>> m = Meld.parse("R5 J R7")
>>> m.kind, m.value, m.stands_for
(<MeldKind.RUN: 'run'>, 18, (Tile.parse('R6'),))
>>> g = Meld.parse("K7 B7 J")
>>> sorted(map(str, g.stands_for[0]))
['O7', 'R7']
>>> t = Table.parse("R1-5 | KBO7")
>>> str(t), len(t), t.value
('R1 R2 R3 R4 R5 | K7 B7 O7', 2, 36)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Union, overload

from . import _core, _memo
from ._errors import InvalidMeldError, InvalidNotationError, RummikubError, TileCountError, shorten
from .rules import RuleSet
from .tiles import (
    JOKER,
    Colour,
    Tile,
    TileLike,
    TileSet,
    _as_tile,
    _is_group_token,
    _iterable,
    _rules_arg,
    parse_tokens,
)

__all__ = ["MeldKind", "Meld", "Table"]
# Not in __all__: search_codes and table_of_codes, the internal interface of the search (meld codes).

_STANDARD = RuleSet()
_MAX_NUMBERS: int = _core.MAX_NUMBERS


class MeldKind(str, enum.Enum):
    """A meld is a run (consecutive numbers, one colour) or a group (one number, distinct colours)."""

    RUN = "run"
    GROUP = "group"


JokerMeaning = Union[Tile, frozenset[Tile]]


class Meld:
    """A valid group or run, its jokers in their slots. Immutable and hashable.

    For a run, ``tiles`` is in slot order and each joker stands for one tile. For a group, numbered
    tiles come in colour order, jokers last, and each joker stands for "one of the missing colours".
    """

    __slots__ = ("_m", "_key", "_info")
    _m: _core.Meld
    _key: tuple[int, int, int, int, int, int]
    _info: _MeldInfo

    def __init__(self, tiles: Iterable[TileLike], rules: RuleSet | None = None) -> None:
        """Reads tiles in order as a meld (jokers positional where the order allows: ``R5 J R7``).

        Raises :class:`InvalidMeldError` naming the tiles and the reason when they form no meld."""
        if isinstance(tiles, str):
            raise InvalidNotationError(f"use Meld.parse({shorten(tiles)}) to read notation")
        rules = _rules_arg(rules) or _STANDARD
        seq = [_as_tile(t, rules) for t in _iterable(tiles, "a Meld is made from an iterable of tiles", InvalidMeldError)]
        core = _read(seq, rules)
        if isinstance(core, str):
            text = " ".join(map(str, seq)) or "(no tiles)"
            raise InvalidMeldError(f"{shorten(text)} is not a valid set: {core}")
        self._init(core)

    def _init(self, core: _core.Meld) -> None:
        # Everything derived from the meld is a function of its key: it is computed once per distinct key
        # (a bounded cache shared by every Meld object), so wrapping a core meld costs one core call.
        key = core.key()
        _set_m(self, core)
        _set_key(self, key)
        info = _INFOS.get(key)
        _set_info(self, info if info is not None else _new_info(key, core))

    @classmethod
    def _wrap(cls, core: _core.Meld) -> Meld:
        """The Meld of a core meld (the search's results): one shared, immutable Meld per distinct key."""
        key = core.key()
        out = _WRAPPED.get(key)
        if out is None or type(out) is not cls:
            out = object.__new__(cls)
            _set_m(out, core)
            _set_key(out, key)
            info = _INFOS.get(key)
            _set_info(out, info if info is not None else _new_info(key, core))
            if len(_WRAPPED) >= _MAX_INFOS:
                _WRAPPED.clear()
                _BY_CODE.clear()  # holds the same melds: both forget them, so that a key keeps one Meld
            _WRAPPED[key] = out
        return out

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Meld:
        """Reads one meld in notation: ``R5 J R7``, ``R1-5``, ``KBO7``, ``K7 B7 J``.

        Tiles are read in order, as :class:`Meld` does: ``K7 J J`` is the run K7 K8 K9. A single group
        shorthand token is always a group, and may hold jokers: ``KJJ7`` is the group of 7s with two jokers
        (``str()`` writes such a group that way, so that it reads back as a group).

        >>> Meld.parse("K7 J J").kind, Meld.parse("KJJ7").kind
        (<MeldKind.RUN: 'run'>, <MeldKind.GROUP: 'group'>)
        >>> Meld.parse("R12 R13 R1")
        Traceback (most recent call last):
        ...
        rummikub._errors.InvalidMeldError: 'R12 R13 R1' is not a valid set: a run cannot wrap from the top number back to 1
        """
        tokens = list(parse_tokens(text, rules))
        tiles = [t for parsed, _token, _pos in tokens for t in parsed]
        if not tiles:
            raise InvalidNotationError(f"{shorten(text)} holds no tiles")
        r = _rules_arg(rules) or _STANDARD
        written = " ".join(map(str, tiles))
        shown = shorten(written) if written.upper() == " ".join(text.split()).upper() else \
            f"{shorten(text)} ({shorten(written, quote=False)})"
        if len(tokens) == 1 and _is_group_token(tokens[0][1]):
            # parse_tokens gave one number and distinct colours: the core says whether they make a group
            mask = sum(1 << int(t.colour) for t in tiles if t.colour is not None)
            core: _core.Meld | str
            try:
                core = _core.make_meld(_core.MeldKind.GROUP, 0, tiles[0].number or 0, len(tiles), 0, mask, r.params)
            except InvalidMeldError as exc:
                core = str(exc)
            if isinstance(core, str):
                raise InvalidMeldError(f"{shorten(text)} ({shorten(written, quote=False)}) is not a valid group: {core}")
            return cls._wrap(core)
        core = _read(tiles, r)
        if isinstance(core, str):
            raise InvalidMeldError(f"{shown} is not a valid set: {core}")
        out = object.__new__(cls)
        out._init(core)
        return out

    @classmethod
    def run(cls, colour: Colour | int, start: int, length: int, jokers: Iterable[int] = (),
            rules: RuleSet | None = None) -> Meld:
        """The run of ``length`` tiles of ``colour`` from ``start``; ``jokers`` lists joker slots (0-based).

        >>> str(Meld.run(Colour.RED, 5, 3, jokers=[1]))
        'R5 J R7'
        """
        mask = 0
        for slot in _iterable(jokers, "jokers must be an iterable of joker slots", InvalidMeldError):
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < min(_int_or(length), 32):
                raise InvalidMeldError(f"joker slot {shorten(slot)} is outside a run of {shorten(length)} tiles")
            if mask >> slot & 1:
                raise InvalidMeldError(f"joker slot {slot} is named twice in a run of {shorten(length)} tiles")
            mask |= 1 << slot
        return cls._make(_core.MeldKind.RUN, colour, start, length, mask, 0, rules,
                         f"run of {length} from {start}")

    @classmethod
    def group(cls, number: int, colours: Iterable[Colour | int], jokers: int = 0,
              rules: RuleSet | None = None) -> Meld:
        """The group of ``number`` in ``colours``, plus ``jokers`` jokers.

        >>> str(Meld.group(7, [Colour.BLACK, Colour.RED], jokers=1))
        'K7 R7 J'
        """
        mask = 0
        cols = list(_iterable(colours, f"group of {shorten(number)}: colours must be an iterable of Colour", InvalidMeldError))
        for c in cols:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < len(Colour):
                raise InvalidMeldError(f"group colour {shorten(c)} is not a Colour")
            if mask >> int(c) & 1:
                raise InvalidMeldError(f"group of {number} names colour {Colour(c).letter} twice")
            mask |= 1 << int(c)
        if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= 4:
            raise InvalidMeldError(f"jokers must be an int in 0..4, got {shorten(jokers)}")
        return cls._make(_core.MeldKind.GROUP, 0, number, len(cols) + jokers, 0, mask, rules,
                         f"group of {number}")

    @classmethod
    def _make(cls, kind: _core.MeldKind, colour: Any, number: Any, length: Any, slots: int, mask: int,
              rules: RuleSet | None, what: str) -> Meld:
        for name, value in (("colour", colour), ("number", number), ("length", length)):
            if isinstance(value, bool) or not isinstance(value, int) or not -1 <= value <= 64:
                raise InvalidMeldError(f"{what}: {name} must be a small int, got {shorten(value)}")
        params = (_rules_arg(rules) or _STANDARD).params
        try:
            core = _core.make_meld(kind, int(colour), number, length, slots, mask, params)
        except (InvalidMeldError, TypeError) as exc:  # TypeError: a field too big for the core's int
            raise InvalidMeldError(f"{what} is not a valid set: {exc}") from None
        return cls._wrap(core)

    @property
    def kind(self) -> MeldKind:
        """RUN or GROUP."""
        return MeldKind.RUN if self._key[0] == 0 else MeldKind.GROUP

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles: a run in slot order; a group in colour order, jokers last."""
        info = self._info
        return (info if info.ready else info.fill()).tiles

    @property
    def number(self) -> int:
        """A group's number, or a run's first number."""
        return self._key[2]

    @property
    def colour(self) -> Colour | None:
        """A run's colour (None for a group)."""
        return Colour(self._key[1]) if self._key[0] == 0 else None

    @property
    def value(self) -> int:
        """The meld's value: every tile its number, every joker the number it stands for."""
        info = self._info
        return (info if info.ready else info.fill()).value

    @property
    def jokers(self) -> int:
        """The number of jokers in the meld."""
        info = self._info
        return (info if info.ready else info.fill()).jokers

    @property
    def stands_for(self) -> tuple[JokerMeaning, ...]:
        """What each joker stands for, in order: a tile in a run; in a group, the frozenset of the
        missing-colour tiles it may be (one tile when only one colour is missing)."""
        info = self._info
        return (info if info.ready else info.fill()).stands_for

    def tileset(self) -> TileSet:
        """The meld's tiles as a multiset."""
        info = self._info
        return (info if info.ready else info.fill()).tileset

    @property
    def key(self) -> tuple[int, ...]:
        """A canonical sort key: (kind, colour, number, length, joker slots, colours)."""
        return self._key

    def __len__(self) -> int:
        return self._key[3]

    def __iter__(self) -> Iterator[Tile]:
        info = self._info
        return iter((info if info.ready else info.fill()).tiles)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return self._key == other._key

    def __lt__(self, other: Meld) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return self._key < other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Meld is immutable")

    def __str__(self) -> str:
        info = self._info
        return (info if info.ready else info.fill()).text

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_meld, (self._key,))


def _read(tiles: Sequence[Tile], rules: RuleSet) -> _core.Meld | str:
    """The core's reading of ``tiles`` in order as a meld, or the reason they form none."""
    try:
        return _core.read_meld([t.code for t in tiles], rules.params)
    except InvalidMeldError as exc:  # the core's message is the reason alone
        return str(exc)


def _int_or(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _rebuild_meld(key: tuple[int, ...]) -> Meld:
    kind = _core.MeldKind.RUN if key[0] == 0 else _core.MeldKind.GROUP
    loose = RuleSet().replace(numbers=_MAX_NUMBERS, min_len=2)
    return Meld._wrap(_core.make_meld(kind, key[1], key[2], key[3], key[4], key[5], loose.params))


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of slot ``name`` of ``cls`` (the immutable classes refuse ``__setattr__``; this is faster
    than ``object.__setattr__``)."""
    setter: Callable[[Any, Any], None] = cls.__dict__[name].__set__
    return setter


_set_m = _slot_setter(Meld, "_m")
_set_key = _slot_setter(Meld, "_key")
_set_info = _slot_setter(Meld, "_info")


class _MeldInfo:
    """What a meld's key determines (tiles, jokers' meanings, value, text, code), computed once per distinct key
    and shared by every :class:`Meld` with that key. Internal; the fields are computed on first use (``fill``:
    readers write ``(info if info.ready else info.fill()).field``), since a game meets hundreds of new melds and
    reads most of them only as codes, and never change after."""

    __slots__ = ("key", "core", "ready", "tiles", "codes", "stands_for", "candidates", "value", "jokers", "tileset",
                 "text", "code")
    tiles: tuple[Tile, ...]
    codes: tuple[int, ...]
    stands_for: tuple[JokerMeaning, ...]
    candidates: tuple[frozenset[Tile], ...]
    value: int
    jokers: int
    tileset: TileSet
    text: str
    code: int

    def __init__(self, key: tuple[int, int, int, int, int, int], core: _core.Meld) -> None:
        self.key = key
        self.core = core
        self.ready = False

    def fill(self) -> _MeldInfo:
        """Computes every field (once) and returns self."""
        key, core = self.key, self.core
        kind, colour, number, length, joker_slots, colours = key
        self.tiles = _slot_tiles(key)
        self.codes = tuple(t.code for t in self.tiles)
        stands: tuple[JokerMeaning, ...]
        if kind == 0:
            stands = tuple(Tile.from_code(colour * _MAX_NUMBERS + number - 1 + i)
                           for i in range(length) if joker_slots >> i & 1)
        else:
            missing = frozenset(Tile(c, number) for c in Colour if not colours >> c & 1)
            stands = tuple(missing for _ in range(int(core.jokers())))
        self.stands_for = stands
        # each joker's meaning as a set of tiles (what the joker rules of legality.py compare)
        self.candidates = tuple(s if isinstance(s, frozenset) else frozenset((s,)) for s in stands)
        self.value = int(core.value())
        self.jokers = int(core.jokers())
        self.tileset = TileSet._wrap(core.tiles())
        self.code = _core.meld_code(core)  # the int the search takes and returns for this meld
        if kind != 0 and self.jokers and length - self.jokers == 1:
            # "K7 J J" would read back as the run K7 K8 K9: the group shorthand keeps it a group.
            self.text = f"{Colour(colours.bit_length() - 1).letter}{'J' * self.jokers}{number}"
        else:
            self.text = " ".join(map(str, self.tiles))
        self.ready = True
        return self


_INFOS: dict[tuple[int, ...], _MeldInfo] = _memo.register("meld.infos", {})
_WRAPPED: dict[tuple[int, ...], Meld] = _memo.register("meld.wrapped", {})  # Meld._wrap's melds by key (shared)
_MAX_INFOS = 1 << 14  # distinct melds remembered (a few thousand exist under the standard rules)
_BY_CODE: dict[int, Meld] = _memo.register("meld.by_code", {})  # the same melds by the search's int codes
_of_code = _BY_CODE.__getitem__


def _melds_of_codes(codes: tuple[int, ...]) -> tuple[Meld, ...]:
    """The Meld objects of the search's meld codes (``_core.meld_code``), one shared Meld per code: a search
    result crosses from the core as a tuple of ints, and a known meld costs one dict lookup here."""
    try:
        if len(codes) > 1:  # itemgetter looks every code up in C (it returns a bare item for one code)
            found: tuple[Meld, ...] = itemgetter(*codes)(_BY_CODE)
            return found
        return tuple(map(_of_code, codes))
    except KeyError:
        pass
    out = []
    for code in codes:
        meld = _BY_CODE.get(code)
        if meld is None:
            meld = Meld._wrap(_core.meld_of_code(code))
            if len(_BY_CODE) >= _MAX_INFOS:
                _BY_CODE.clear()
            _BY_CODE[code] = meld
        out.append(meld)
    return tuple(out)


def _new_info(key: tuple[int, int, int, int, int, int], core: _core.Meld) -> _MeldInfo:
    info = _MeldInfo(key, core)
    if len(_INFOS) >= _MAX_INFOS:
        _INFOS.clear()
    _INFOS[key] = info
    return info


def _slot_tiles(key: tuple[int, int, int, int, int, int]) -> tuple[Tile, ...]:
    kind, colour, number, length, joker_slots, colours = key
    from_code = Tile.from_code
    if kind == 0:  # a run
        base = colour * _MAX_NUMBERS + number - 1
        return tuple(JOKER if joker_slots >> i & 1 else from_code(base + i) for i in range(length))
    real = [from_code(c * _MAX_NUMBERS + number - 1) for c in range(len(Colour)) if colours >> c & 1]
    return tuple(real + [JOKER] * (length - len(real)))


class Table(Sequence[Meld]):
    """The melds on the table, in order. Immutable; equality ignores the order of the melds.

    ``Table.parse`` reads melds separated by ``|``; ``str()`` writes them back the same way.

    >>> Table.parse("R5 J R7 | K7 B7 O7") == Table.parse("KBO7 | R5 J R7")
    True
    """

    # _tileset and _jokers are caches that may be unset or None: either way not computed yet (a search's result
    # leaves them unset: a slot set costs as much as a dict lookup per meld of a new table). A search's result also
    # leaves _melds unset until first read (see _CodedTable): it knows its meld codes, and a game loop of bots
    # passes most tables from one search to the next without looking at their melds.
    __slots__ = ("_melds", "_tileset", "_jokers", "_codes")
    _melds: tuple[Meld, ...]
    _tileset: TileSet | tuple[Table, _core.TileSet] | None  # a tuple: the tiles' basis (set_tiles_basis)
    _jokers: tuple[tuple[int, frozenset[Tile]], ...] | None
    _codes: tuple[int, ...] | None  # the melds' search codes, computed once (see search_codes)

    def __init__(self, melds: Iterable[Meld] = ()) -> None:
        if isinstance(melds, str):
            raise InvalidNotationError(f"use Table.parse({shorten(melds)}) to read notation")
        items = tuple(_iterable(melds, "a Table is made from an iterable of Meld objects", InvalidMeldError))
        for m in items:
            if not isinstance(m, Meld):
                raise InvalidMeldError(f"a Table holds Meld objects, got {type(m).__name__} {shorten(m)}")
        _set_melds(self, items)
        _set_tileset(self, None)
        _set_jokers(self, None)
        _set_codes(self, None)

    @classmethod
    def _wrap(cls, melds: tuple[Meld, ...], codes: tuple[int, ...] | None = None) -> Table:
        """A table of ``melds`` (a tuple of Meld objects, trusted: no checks), with their search codes when
        known (a search result's, so that the next search gets them for free)."""
        out = object.__new__(cls)
        _set_melds(out, melds)
        _set_tileset(out, None)
        _set_jokers(out, None)
        _set_codes(out, codes)
        return out

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Table:
        """Reads melds separated by ``|`` (an empty string is the empty table); with ``rules``, also checks
        that the table holds no more copies of a tile than the rule set has.

        >>> Table.parse("R1-3 || K5 B5 O5")
        Traceback (most recent call last):
        ...
        rummikub._errors.InvalidNotationError: empty meld 2 in 'R1-3 || K5 B5 O5'
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"expected a string, got {type(text).__name__} {shorten(text)}")
        if not text.strip():
            return cls()
        melds = []
        for i, piece in enumerate(text.split("|"), start=1):
            if not piece.strip():
                raise InvalidNotationError(f"empty meld {i} in {shorten(text)}")
            try:
                melds.append(Meld.parse(piece, rules))
            except RummikubError as exc:
                raise type(exc)(f"meld {i} of {shorten(text)}: {exc}") from None
        table = cls(melds)
        if rules is not None:
            table.tiles().check(rules, what=f"table {shorten(text)}")
        return table

    def tiles(self) -> TileSet:
        """Every tile on the table, as a multiset."""
        try:
            out = self._tileset
        except AttributeError:  # unset (see __slots__)
            out = None
        if out is None:  # computed once: the table is immutable (and the game asks at every turn)
            try:
                out = TileSet._wrap(_core.TileSet([c for m in self._melds
                                                   for c in (m._info if m._info.ready else m._info.fill()).codes]))
            except TileCountError:  # too many copies of a tile: the TileSet sum names them
                out = TileSet()
                for m in self._melds:
                    out = out | m.tileset()
            _set_tileset(self, out)
        elif not isinstance(out, TileSet):  # a game's new table: its tiles' basis (see set_tiles_basis)
            out = _tiles_from_basis(self, out)
        return out

    def joker_slots(self) -> tuple[tuple[int, frozenset[Tile]], ...]:
        """For each joker on the table, in order: its meld's index and the tiles it may stand for (computed
        once: the rules check reads it for the table after a turn and again for the table before the next).

        >>> [(i, sorted(map(str, c))) for i, c in Table.parse("R1 R2 R3 | K7 B7 J").joker_slots()]
        [(1, ['O7', 'R7'])]
        """
        try:
            out = self._jokers
        except AttributeError:  # unset (see __slots__)
            out = None
        if out is None:
            out = tuple((i, c) for i, m in enumerate(self._melds)
                        for c in (m._info if m._info.ready else m._info.fill()).candidates)
            _set_jokers(self, out)
        return out

    @property
    def value(self) -> int:
        """The sum of the melds' values."""
        return sum(m.value for m in self._melds)

    def canonical(self) -> Table:
        """The same table with its melds in canonical order."""
        return Table(sorted(self._melds))

    @overload
    def __getitem__(self, index: int) -> Meld: ...
    @overload
    def __getitem__(self, index: slice) -> Table: ...
    def __getitem__(self, index: int | slice) -> Meld | Table:
        if isinstance(index, slice):
            return Table._wrap(self._melds[index])
        return self._melds[index]

    def __len__(self) -> int:
        return len(self._melds)

    def __iter__(self) -> Iterator[Meld]:
        return iter(self._melds)

    def __add__(self, other: Table | Iterable[Meld]) -> Table:
        return Table(self._melds + tuple(other))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return sorted(self._melds) == sorted(other._melds)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._melds)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Table is immutable")

    def __str__(self) -> str:
        return " | ".join(map(str, self._melds))

    def __repr__(self) -> str:
        return f"Table.parse({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Table, (self._melds,))


_set_melds = _slot_setter(Table, "_melds")
_set_tileset = _slot_setter(Table, "_tileset")
_set_jokers = _slot_setter(Table, "_jokers")
_set_codes = _slot_setter(Table, "_codes")


def set_tiles_basis(table: Table, before: Table, played: TileSet) -> None:
    """Internal interface of the game: ``table`` holds exactly the tiles of ``before`` and ``played`` (a legal play
    from ``before``: jokers never leave the table), so :meth:`Table.tiles` adds those when first asked instead of
    reading the melds (which would make the Tile objects of every new meld). Costs a tuple per play when unread."""
    _set_tileset(table, (before, played._s))


def _tiles_from_basis(table: Table, basis: tuple[Table, _core.TileSet]) -> TileSet:
    """The tiles of ``table`` from its basis (see :func:`set_tiles_basis`): back along the tables before it to one
    whose tiles are known or read from its melds, then forward, each table's tiles added and kept (which also
    lets the tables before go)."""
    chain = [(table, basis[1])]
    before = basis[0]
    while True:
        try:
            known = before._tileset
        except AttributeError:  # unset (see Table's __slots__)
            break
        if type(known) is not tuple:
            break
        chain.append((before, known[1]))
        before = known[0]
    out = before.tiles()
    total = out._s
    for later, played in reversed(chain):
        total = total.sum(played)
        out = TileSet._wrap(total)
        _set_tileset(later, out)
    return out


def search_codes(table: Table) -> tuple[int, ...]:
    """Internal interface of the search: the meld codes of the table's melds (what ``_core.solve`` takes),
    computed once per table: the table a search returns already knows them, so a game passes each new table to
    the next search for free."""
    codes = table._codes
    if codes is None:
        codes = tuple([(m._info if m._info.ready else m._info.fill()).code for m in table._melds])
        _set_codes(table, codes)
    return codes


class _CodedTable(Table):
    """A search's table (:func:`table_of_codes`): a :class:`Table` that knows its meld codes and makes its Meld
    objects from them when first read (a game loop of bots passes most tables from one search to the next without
    looking at their melds). Internal: users see a Table (``isinstance``, ``repr``, ``==``, ``hash``; pickling
    and slicing give plain Tables).

    Only this class has ``__getattr__`` (CPython does not specialise attribute reads on a class with one, so every
    read on its instances is about three times as slow): the first read of the melds fills the slot and turns the
    object into a plain Table, whose slots are the same."""

    __slots__ = ()

    if not TYPE_CHECKING:  # (hidden from mypy, which lets any attribute through a class with __getattr__)
        def __getattr__(self, name: str) -> Any:
            # Reached only for a slot that is unset: the melds are made from the codes on first read (and the
            # object becomes a plain Table), the caches read as not computed yet.
            if name == "_melds":
                melds = _melds_of_codes(self._codes)
                _set_melds(self, melds)
                _set_class(self, Table)
                return melds
            if name == "_tileset" or name == "_jokers":
                return None
            raise AttributeError(f"'Table' object has no attribute {name!r}")


_set_class = object.__dict__["__class__"].__set__  # (Table refuses __setattr__)


def table_of_codes(codes: tuple[int, ...]) -> Table:
    """Internal interface of the search: the Table of meld codes from the core (a search result's, so valid),
    knowing its codes for the next search; its shared Meld objects are looked up when first read."""
    out = _new_table(_CodedTable)  # (Table._wrap, inline, the melds and caches left unset)
    _set_codes(out, codes)
    return out


_new_table = object.__new__
