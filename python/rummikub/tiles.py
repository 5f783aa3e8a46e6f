"""Tiles and tile multisets.

A :class:`Tile` is a colour and a number (``R10``) or a joker (``J``). A :class:`TileSet` is an
immutable multiset of tiles backed by the C++ core's bitsets (four 64-bit words of packed counts).

>>> Tile.parse("r10")
Tile.parse('R10')
>>> rack = TileSet.parse("R10 R11 J K1-3")
>>> str(rack)
'K1 K2 K3 R10 R11 J'
>>> len(rack), Tile.parse("K2") in rack, rack.value()
(6, True, 57)
"""

from __future__ import annotations

import enum
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Union

from . import _core
from ._errors import InvalidNotationError, InvalidTileError, RummikubError, TileCountError, shorten

if TYPE_CHECKING:  # numpy is imported where it is used, so that `import rummikub` does not load it
    import numpy as np
    import numpy.typing as npt

    from .rules import RuleSet

__all__ = ["Colour", "Tile", "TileSet", "JOKER"]
# Not in __all__: core_of and of_core, the internal interface of the modules that call the core.


class Colour(enum.IntEnum):
    """Tile colours in canonical order; the letter is the notation (black is K because B is blue)."""

    BLACK = 0
    BLUE = 1
    ORANGE = 2
    RED = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: K, B, O or R."""
        return "KBOR"[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """The colour of a letter (case-insensitive)."""
        index = "KBOR".find(letter.upper()) if len(letter) == 1 else -1
        if index < 0:
            raise InvalidNotationError(f"unknown colour {shorten(letter)} (expected K, B, O or R)")
        return cls(index)


_MAX_NUMBERS: int = _core.MAX_NUMBERS
_JOKER_CODE: int = _core.JOKER
_MAX_JOKER_VALUE = 1_000_000


def _is_int(x: object) -> bool:
    """True for an int or a numpy integer, False for bool, float, str and everything else."""
    if isinstance(x, int):
        return not isinstance(x, bool)
    numpy = sys.modules.get("numpy")  # not imported: x cannot be a numpy integer
    return numpy is not None and isinstance(x, numpy.integer)


class Tile:
    """One tile: a colour and a number, or a joker. Tiles are interned, immutable and ordered canonically
    (colour K B O R, then number, jokers last).

    >>> t = Tile(Colour.RED, 7)
    >>> t.colour, t.number, t.is_joker, str(t)
    (<Colour.RED: 3>, 7, False, 'R7')
    >>> Tile.joker() is Tile.parse("j")
    True
    """

    __slots__ = ("_code",)
    _code: int
    _interned: dict[int, Tile] = {}

    def __new__(cls, colour: Colour | int, number: int) -> Tile:
        if not _is_int(colour) or not 0 <= colour < len(Colour):
            raise InvalidTileError(f"colour must be a Colour (0..3), got {shorten(colour)}")
        if not _is_int(number) or not 1 <= number <= _MAX_NUMBERS:
            raise InvalidTileError(f"tile number must be an int in 1..{_MAX_NUMBERS}, got {shorten(number)}")
        return cls.from_code(int(colour) * _MAX_NUMBERS + int(number) - 1)

    @classmethod
    def from_code(cls, code: int) -> Tile:
        """The tile with the core's code (``colour * 16 + number - 1``; 64 is the joker)."""
        tile = cls._interned.get(code) if type(code) is int else None
        if tile is None:
            if not _is_int(code) or not 0 <= code <= _JOKER_CODE:
                raise InvalidTileError(f"tile code must be an int in 0..{_JOKER_CODE}, got {shorten(code)}")
            code = int(code)
            tile = cls._interned.get(code)
            if tile is not None:
                return tile
            tile = object.__new__(cls)
            object.__setattr__(tile, "_code", code)
            cls._interned[code] = tile
        return tile

    @classmethod
    def joker(cls) -> Tile:
        """The joker."""
        return cls.from_code(_JOKER_CODE)

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Tile:
        """Reads ``R10``, ``k1``, ``J``; checks the tile exists in ``rules`` (default: the standard set).

        >>> Tile.parse("R14")
        Traceback (most recent call last):
        ...
        rummikub._errors.InvalidTileError: 'R14': number 14 is outside 1..13
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"a tile must be given as a string, got {type(text).__name__} {shorten(text)}")
        rules = _rules_arg(rules)
        token = text.strip()
        if not token:
            raise InvalidNotationError(f"{shorten(text)} holds no tile (expected one tile like R10, or J for a joker)")
        if len(token.split()) > 1:
            raise InvalidNotationError(f"{shorten(text)} holds more than one tile (use TileSet.parse for several)")
        return _parse_tile(token, text, 0, rules)

    @property
    def code(self) -> int:
        """The core's integer code of the tile."""
        return self._code

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self._code == _JOKER_CODE

    @property
    def colour(self) -> Colour | None:
        """The colour (None for the joker)."""
        return None if self.is_joker else Colour(self._code // _MAX_NUMBERS)

    @property
    def number(self) -> int | None:
        """The number (None for the joker)."""
        return None if self.is_joker else self._code % _MAX_NUMBERS + 1

    def value(self, joker_value: int = 30) -> int:
        """The tile's value on a rack: its number, or ``joker_value`` for a joker."""
        _check_joker_value(joker_value)
        return joker_value if self.is_joker else self._code % _MAX_NUMBERS + 1

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __str__(self) -> str:
        return _TILE_TEXTS[self._code]

    def __repr__(self) -> str:
        if not self.is_joker and self._code % _MAX_NUMBERS >= 13:
            return f"Tile(Colour.{Colour(self._code // _MAX_NUMBERS).name}, {self._code % _MAX_NUMBERS + 1})"
        return f"Tile.parse({str(self)!r})"

    def __hash__(self) -> int:
        return self._code

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self._code < other._code

    def __le__(self, other: Tile) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self._code <= other._code

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tile.from_code, (self._code,))


JOKER = Tile.joker()
"""The joker tile."""

_TILES: list[Tile] = [Tile.from_code(c) for c in range(_JOKER_CODE + 1)]  # every tile by code (interned)
_TILE_TEXTS: list[str] = [f"{'KBOR'[c // _MAX_NUMBERS]}{c % _MAX_NUMBERS + 1}" for c in range(_JOKER_CODE)] + ["J"]

_TOKEN = re.compile(r"\S+")
_TILE = re.compile(r"([A-Za-z])([0-9]+)")
_RUN = re.compile(r"([A-Za-z])([0-9]+)-([0-9]+)")
_GROUP = re.compile(r"([A-Za-z]{2,})([0-9]+)")


def _where(source: str, pos: int) -> str:
    return f" at position {pos} of {shorten(source)}" if len(source.split()) > 1 else ""


def _check_joker_value(joker_value: object) -> None:
    if not _is_int(joker_value) or not 0 <= joker_value <= _MAX_JOKER_VALUE:  # type: ignore[operator]
        raise RummikubError(f"joker_value must be an int in 0..{_MAX_JOKER_VALUE}, got {shorten(joker_value)}")


def _rules_arg(rules: object) -> RuleSet | None:
    """Returns ``rules`` when it is a RuleSet or None; raises RummikubError naming it otherwise."""
    if rules is None:
        return None
    from .rules import RuleSet

    if not isinstance(rules, RuleSet):
        raise RummikubError(f"rules must be a RuleSet, got {type(rules).__name__} {shorten(rules)}")
    return rules


def _number(digits: str, token: str, rules: RuleSet | None) -> int:
    """The number written as ``digits`` in ``token``; InvalidTileError unless it is in 1..rules.numbers."""
    top = rules.numbers if rules is not None else 13
    if digits.startswith("0") and digits.lstrip("0"):  # "R013"; "R0" and "R00" are out of range below
        raise InvalidNotationError(f"{shorten(token)}: a number has no leading zero (R13, not R013)")
    number = int(digits) if len(digits) <= 9 else -1  # never converts a huge digit string
    if not 1 <= number <= top:
        raise InvalidTileError(f"{shorten(token)}: number {shorten(digits, quote=False)} is outside 1..{top}")
    return number


_WIDEST: list[RuleSet] = []


def _widest_rules() -> RuleSet:
    """The rule set with every tile the engine knows (numbers 1..16, four colours): membership reads any tile."""
    if not _WIDEST:
        from .rules import RuleSet

        _WIDEST.append(RuleSet(name="widest", numbers=_MAX_NUMBERS))
    return _WIDEST[0]


def _check_colour(colour: Colour, token: str, rules: RuleSet | None) -> None:
    colours = rules.colours if rules is not None else 4
    if colour >= colours:
        raise InvalidTileError(f"{shorten(token)}: colour {colour.letter} is not in a {colours}-colour set")


def _parse_tile(token: str, source: str, pos: int, rules: RuleSet | None) -> Tile:
    if token.upper() == "J":
        return JOKER
    m = _TILE.fullmatch(token)
    if m is None:
        raise InvalidNotationError(f"{shorten(token)}{_where(source, pos)} is not a tile (expected a colour letter "
                                   "K, B, O or R and a number, like R10, or J for a joker)")
    try:
        colour = Colour.from_letter(m.group(1))
    except InvalidNotationError:
        raise InvalidNotationError(f"{shorten(token)}{_where(source, pos)}: unknown colour {shorten(m.group(1))} "
                                   "(expected K, B, O or R, or J for a joker)") from None
    _check_colour(colour, token, rules)
    return Tile(colour, _number(m.group(2), token, rules))


def parse_tokens(text: str, rules: RuleSet | None = None) -> Iterator[tuple[list[Tile], str, int]]:
    """Yields, for each whitespace-separated token of ``text``, the tiles it stands for, the token and its
    position. Accepts single tiles (``R10``, ``J``), runs (``R1-5``) and groups (``KBO7``; ``J`` letters are
    jokers: ``KJJ7`` is K7 and two jokers). Commas may separate tokens too."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"expected a string of tiles, got {type(text).__name__} {shorten(text)}")
    rules = _rules_arg(rules)
    if "," in text:
        pos = 0
        for piece in text.split(","):
            if not piece.strip():
                raise InvalidNotationError(f"empty item at position {pos} of {shorten(text)} (a stray comma)")
            pos += len(piece) + 1
    for m in _TOKEN.finditer(text.replace(",", " ")):
        token, pos = m.group(), m.start()
        run = _RUN.fullmatch(token)
        group = _GROUP.fullmatch(token)
        if run is not None:
            colour = _colour_in(run.group(1), token, text, pos)
            _check_colour(colour, token, rules)
            lo, hi = _number(run.group(2), token, rules), _number(run.group(3), token, rules)
            if hi < lo:
                raise InvalidNotationError(f"{shorten(token)}{_where(text, pos)}: a run goes upwards (13 never wraps to 1)")
            yield [Tile(colour, n) for n in range(lo, hi + 1)], token, pos
        elif group is not None:
            letters = group.group(1)
            colours = [_colour_in(letter, token, text, pos) for letter in letters if letter.upper() != "J"]
            if not colours:
                raise InvalidNotationError(f"{shorten(token)}{_where(text, pos)}: a group needs a colour letter")
            if len(set(colours)) != len(colours):
                raise InvalidNotationError(f"{shorten(token)}{_where(text, pos)}: a group names each colour once")
            for colour in colours:
                _check_colour(colour, token, rules)
            number = _number(group.group(2), token, rules)
            yield [Tile(colour, number) for colour in colours] + [JOKER] * (len(letters) - len(colours)), token, pos
        else:
            yield [_parse_tile(token, text, pos, rules)], token, pos


def _is_group_token(token: str) -> bool:
    """True for the group shorthand (``KBO7``, ``KJJ7``)."""
    return _GROUP.fullmatch(token) is not None


def _colour_in(letter: str, token: str, source: str, pos: int) -> Colour:
    try:
        return Colour.from_letter(letter)
    except InvalidNotationError:
        raise InvalidNotationError(f"{shorten(token)}{_where(source, pos)}: unknown colour {shorten(letter)} "
                                   "(expected K, B, O or R)") from None


TileLike = Union[Tile, str]


class TileSet:
    """An immutable multiset of tiles, backed by the core's bitsets.

    Build one from notation (``TileSet.parse("R1-3 J")``), from tiles or tile strings
    (``TileSet(["R1", Tile.joker()])``) or from a count array (``TileSet.from_counts``).
    ``|`` is the multiset sum, ``-`` the difference (an error unless contained), ``&`` the intersection,
    ``<=`` the sub-multiset test. Iteration is in canonical order.

    >>> a, b = TileSet.parse("R1 R1 J"), TileSet.parse("R1")
    >>> str(a - b), str(a | b), b <= a, a.count("R1")
    ('R1 J', 'R1 R1 R1 J', True, 2)
    """

    __slots__ = ("_s",)
    _s: _core.TileSet

    def __init__(self, tiles: Iterable[TileLike] = ()) -> None:
        if isinstance(tiles, str):
            raise InvalidNotationError(f"use TileSet.parse({shorten(tiles)}) to read notation")
        codes = [t._code if type(t) is Tile else _as_tile(t).code
                 for t in _iterable(tiles, "a TileSet is made from an iterable of tiles")]
        try:
            core = _core.TileSet(codes)
        except TileCountError:
            raise TileCountError(_too_many(codes)) from None
        object.__setattr__(self, "_s", core)

    @classmethod
    def _wrap(cls, core: _core.TileSet) -> TileSet:
        out = object.__new__(cls)
        object.__setattr__(out, "_s", core)
        return out

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> TileSet:
        """Reads space-separated tiles, with the shorthands ``R1-5`` and ``KBO7``; with ``rules``, also checks
        that the set has no more copies of a tile than the rule set holds.

        >>> TileSet.parse("KBO7 R1-3")
        TileSet.parse('K7 B7 O7 R1 R2 R3')
        """
        tiles: list[Tile] = []
        for parsed, _token, _pos in parse_tokens(text, rules):
            tiles.extend(parsed)
        out = cls(tiles)
        if rules is not None:
            out.check(rules, what=repr(text))
        return out

    @classmethod
    def from_counts(cls, counts: npt.ArrayLike) -> TileSet:
        """The set whose count of each tile code is ``counts[code]`` (a length-65 array; 64 is the joker).

        >>> TileSet.from_counts(TileSet.parse("R2 R2 J").to_counts())
        TileSet.parse('R2 R2 J')
        """
        import numpy as np

        try:
            arr = np.asarray(counts)
        except (TypeError, ValueError) as exc:  # ragged nested lists
            raise TileCountError(f"counts must be an integer array of length {_JOKER_CODE + 1}, "
                                 f"got {type(counts).__name__} ({exc})") from None
        if arr.dtype.kind not in "iu":
            raise TileCountError(f"counts must be an integer array of length {_JOKER_CODE + 1}, "
                                 f"got {type(counts).__name__} of dtype {arr.dtype}")
        if arr.shape != (_JOKER_CODE + 1,):
            raise TileCountError(f"counts must be a 1-d array of length {_JOKER_CODE + 1} indexed by tile code, "
                                 f"got shape {arr.shape}")
        bad = np.flatnonzero((arr < 0) | (arr > _core.MAX_COUNT))
        if bad.size:
            raise TileCountError(f"count {arr[bad[0]]} at code {bad[0]} ({Tile.from_code(int(bad[0]))}) "
                                 f"is outside 0..{_core.MAX_COUNT}")
        return cls._wrap(_core.TileSet.from_counts(arr.astype(np.int64)))

    @classmethod
    def full(cls, rules: RuleSet) -> TileSet:
        """Every tile of a rule set (106 in the standard game)."""
        checked = _rules_arg(rules)
        if checked is None:
            raise RummikubError("TileSet.full needs a RuleSet, got None")
        return cls._wrap(checked.params.full_set())

    def to_counts(self) -> npt.NDArray[np.uint8]:
        """A length-65 ``uint8`` array: the count of each tile code (``Tile.code``; 64 is the joker)."""
        out: npt.NDArray[np.uint8] = self._s.to_counts()
        return out

    def check(self, rules: RuleSet, what: str = "tile set") -> None:
        """Raises :class:`TileCountError` unless every tile exists in ``rules`` within its number of copies."""
        checked = _rules_arg(rules)
        if checked is None:
            raise RummikubError("TileSet.check needs a RuleSet, got None")
        if not self._s.fits(checked.params):
            full = TileSet.full(rules)
            bad = [str(t) for t in sorted(set(self)) if self.count(t) > full.count(t)]
            raise TileCountError(f"{what} holds more copies than the rule set has of: {' '.join(bad)}")

    def count(self, tile: TileLike) -> int:
        """How many copies of ``tile`` the set holds."""
        return self._s.count(tile._code if type(tile) is Tile else _as_tile(tile).code)

    def value(self, joker_value: int = 30) -> int:
        """The sum of the numbers, each joker counting ``joker_value`` (the rack penalty by default)."""
        _check_joker_value(joker_value)
        return int(self._s.value(joker_value))

    @property
    def jokers(self) -> int:
        """The number of jokers."""
        return int(self._s.count(_JOKER_CODE))

    def tiles(self) -> list[Tile]:
        """The tiles in canonical order, one entry per copy."""
        tiles = _TILES
        return [tiles[c] for c in self._s.codes()]

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles())

    def __len__(self) -> int:
        return int(self._s.size())

    def __bool__(self) -> bool:
        return self._s.size() > 0

    def __contains__(self, tile: object) -> bool:
        if isinstance(tile, str):  # like ``5 in ts``: text that is not a tile is simply not in the set
            try:
                tile = Tile.parse(tile, _widest_rules())
            except RummikubError:
                return False
        if not isinstance(tile, Tile):
            return False
        return self._s.count(tile.code) > 0

    def __or__(self, other: TileSet) -> TileSet:
        if not isinstance(other, TileSet):
            return NotImplemented
        try:
            return TileSet._wrap(self._s.sum(other._s))
        except TileCountError:
            raise TileCountError(f"{shorten(self)} | {shorten(other)}: " + _too_many(self._s.codes() + other._s.codes())) from None

    __add__ = __or__

    def __sub__(self, other: TileSet) -> TileSet:
        if not isinstance(other, TileSet):
            return NotImplemented
        if not self._s.contains(other._s):
            missing = other._wrap(other._s.difference(other._s.intersection(self._s)))
            raise TileCountError(f"cannot remove {other or '(no tiles)'} from {self or '(no tiles)'}: "
                                 f"it lacks {missing}")
        return TileSet._wrap(self._s.difference(other._s))

    def __and__(self, other: TileSet) -> TileSet:
        if not isinstance(other, TileSet):
            return NotImplemented
        return TileSet._wrap(self._s.intersection(other._s))

    def __le__(self, other: TileSet) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        return bool(other._s.contains(self._s))

    def __ge__(self, other: TileSet) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        return bool(self._s.contains(other._s))

    def __lt__(self, other: TileSet) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        return self <= other and self != other

    def __gt__(self, other: TileSet) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        return self >= other and self != other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileSet):
            return NotImplemented
        return bool(self._s == other._s)

    def __hash__(self) -> int:
        return hash(self._s)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TileSet is immutable")

    def __str__(self) -> str:
        texts = _TILE_TEXTS
        return " ".join([texts[c] for c in self._s.codes()])

    def __repr__(self) -> str:
        tiles = self.tiles()
        if any(not t.is_joker and t.code % _MAX_NUMBERS >= 13 for t in tiles):  # not standard notation
            return f"TileSet([{', '.join(map(repr, tiles))}])"
        return f"TileSet.parse({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_tileset_from_codes, (tuple(self._s.codes()),))

    def pretty(self) -> str:
        """A grid for debugging: one row per colour, one column per number (counts), then jokers."""
        rows = []
        for colour in Colour:
            counts = [self._s.count(colour * _MAX_NUMBERS + n) for n in range(13)]
            rows.append(colour.letter + " " + " ".join(str(c) if c else "." for c in counts))
        rows.append(f"J {self.jokers}")
        return "\n".join(rows)


def core_of(tiles: TileSet) -> _core.TileSet:
    """Internal interface for the modules that call the core: the core multiset behind ``tiles`` (shared, not
    copied; core multisets are values that no method changes)."""
    return tiles._s


def of_core(core: _core.TileSet) -> TileSet:
    """Internal interface for the modules that call the core: the TileSet of a core multiset (a search result's),
    wrapped without a copy or a check (the core's multisets are always well formed)."""
    out = _new_tileset(TileSet)
    _set_s(out, core)
    return out


_new_tileset = object.__new__
_set_s = TileSet.__dict__["_s"].__set__  # the slot's setter (TileSet.__setattr__ refuses every name)


def _tileset_from_codes(codes: tuple[int, ...]) -> TileSet:
    return TileSet(Tile.from_code(c) for c in codes)


def _too_many(codes: list[int]) -> str:
    counts: dict[int, int] = {}
    for c in codes:
        counts[c] = counts.get(c, 0) + 1
    over = [f"{n} x {Tile.from_code(c)}" for c, n in sorted(counts.items()) if n > _core.MAX_COUNT]
    return f"a TileSet holds at most {_core.MAX_COUNT} copies of one tile, got {', '.join(over)}"


def _iterable(obj: Any, what: str, error: type[RummikubError] = InvalidTileError) -> Iterable[Any]:
    """``obj`` when it can be iterated; ``error`` naming it otherwise."""
    try:
        iter(obj)
    except TypeError:
        raise error(f"{what}, got {type(obj).__name__} {shorten(obj)}") from None
    return obj  # type: ignore[no-any-return]


def _as_tile(t: object, rules: RuleSet | None = None) -> Tile:
    if isinstance(t, Tile):
        return t
    if isinstance(t, str):
        return Tile.parse(t, rules)
    raise InvalidTileError(f"expected a Tile or a tile string like 'R10', got {type(t).__name__} {shorten(t)}")
