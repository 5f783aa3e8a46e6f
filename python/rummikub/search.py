"""The exact search: arrange tiles into sets, find the best play, list every legal play.

Everything here runs in the C++ core (a dynamic programme over numbers and colours; see
``docs/search-semantics.md`` for exactly what is legal and what each objective maximises).

>>> play = solve(Table.parse("R5 J R7 | K7 B7 O7"), TileSet.parse("R8 K7 O1"))
>>> str(play.tiles), play.table.tiles() == Table.parse("R5 J R7 | K7 B7 O7").tiles() | play.tiles
('R8', True)
>>> solve(Table(), TileSet.parse("R10 R11 R12 K1"), opened=False).value
33
>>> str(arrange(TileSet.parse("R1 R2 R3 R4 K4 B4")))
'R1 R2 R3 | K4 B4 R4'
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal, Union

import numpy as np
import numpy.typing as npt

from . import _core
from .action import Action
from ._errors import InvalidNotationError, RummikubError, SearchLimitError, TileCountError
from .meld import Table, _melds_of_codes, _table_codes
from .rules import RuleSet
from .tiles import TileSet

__all__ = ["Objective", "Play", "SearchStats", "LegalPlays", "DEFAULT_PLAYS_LIMIT", "DEFAULT_SOLVE_LIMIT", "arrange",
           "solve", "plays", "solve_batch"]

Objective = Literal["tiles", "value", "penalty"]
_OBJECTIVES = {"tiles": _core.Objective.TILES, "value": _core.Objective.VALUE, "penalty": _core.Objective.PENALTY}
_POLICIES = {
    "free": _core.JokerPolicy.FREE,
    "replace": _core.JokerPolicy.REPLACE,
    "replace_from_rack": _core.JokerPolicy.REPLACE_FROM_RACK,
}
_STANDARD = RuleSet()
TableLike = Union[Table, str]
TilesLike = Union[TileSet, str]


@dataclass(frozen=True)
class SearchStats:
    """Deterministic work counters of one search: programme states created, transitions evaluated, and
    programme runs (one per joker option or opening subset)."""

    states: int = 0
    transitions: int = 0
    runs: int = 0


@dataclass(frozen=True, eq=False)
class Play(Action):
    """A legal play: the rack tiles placed and the whole new table. An :class:`~rummikub.Action` (kind play,
    compared as actions are: by the new table), so ``game.apply(solve(...))`` works.

    ``value`` is the face value of the placed tiles, each joker counting the number it stands for.
    ``stats`` are the work counters of the search that found it.
    """

    tiles: TileSet
    table: Table
    value: int
    stats: SearchStats = field(default=SearchStats(), compare=False, repr=False)


def _rules(rules: RuleSet | None) -> RuleSet:
    if rules is None:
        return _STANDARD
    if not isinstance(rules, RuleSet):
        raise RummikubError(f"rules must be a RuleSet, got {type(rules).__name__} {rules!r}")
    return rules


def _search_rules(rules: RuleSet) -> _core.SearchRules:
    """The core's form of ``rules``, remembered by identity (hashing a RuleSet's 21 fields on every call cost
    microseconds per search; the entry keeps the RuleSet alive, so its id is not reused while cached)."""
    hit = _SEARCH_RULES_BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    made = _search_rules_of(rules)
    if len(_SEARCH_RULES_BY_ID) >= 64:
        _SEARCH_RULES_BY_ID.clear()
    _SEARCH_RULES_BY_ID[id(rules)] = (rules, made)
    return made


_SEARCH_RULES_BY_ID: dict[int, tuple[RuleSet, _core.SearchRules]] = {}


@functools.lru_cache(maxsize=64)
def _search_rules_of(rules: RuleSet) -> _core.SearchRules:
    try:
        return _core.SearchRules(rules.params, rules.opening_threshold, rules.joker_in_opening,
                                 rules.extend_after_opening, _POLICIES[rules.joker_retrieval], rules.joker_penalty)
    except ValueError as exc:
        raise RummikubError(f"rule set {rules.name!r}: {exc}") from None


def _table(table: TableLike, rules: RuleSet) -> Table:
    if isinstance(table, str):
        return Table.parse(table, rules)
    if not isinstance(table, Table):
        raise InvalidNotationError(f"table must be a Table or a string, got {type(table).__name__} {table!r}")
    return table


def _tiles(tiles: TilesLike, rules: RuleSet, what: str) -> TileSet:
    if isinstance(tiles, str):
        return TileSet.parse(tiles, rules)
    if not isinstance(tiles, TileSet):
        raise InvalidNotationError(f"{what} must be a TileSet or a string, got {type(tiles).__name__} {tiles!r}")
    return tiles


def _position(table: TableLike, rack: TilesLike, rules: RuleSet | None) -> tuple[Table, TileSet, RuleSet]:
    r = _rules(rules)
    return _table(table, r), _tiles(rack, r, "rack"), r


def _refused(exc: ValueError, table: Table, rack: TileSet, rules: RuleSet) -> RummikubError:
    """The error to raise when the core refuses a position: the tile counts are checked here (only on
    failure, so the hot path builds no message) to name the offending input."""
    try:
        table.tiles().check(rules, what=f"table {str(table)!r}")
        rack.check(rules, what=f"rack {str(rack)!r}")
        (table.tiles() | rack).check(rules, what=f"table {str(table)!r} with rack {str(rack)!r}")
    except RummikubError as rich:
        return rich
    return RummikubError(f"table {str(table)!r} with rack {str(rack)!r}: {exc}")


def _stats(states: int, transitions: int, runs: int) -> SearchStats:
    # Filled as _frozen.frozen() fills a frozen dataclass, its keyword packing and update() spelled out: with
    # the Play below that saves ~0.7 us of the ~3.5 us Python side of a solve (tests/test_search_wrapping.py
    # checks these instances equal properly constructed ones).
    out = _new(SearchStats)
    d = out.__dict__
    d["states"] = states
    d["transitions"] = transitions
    d["runs"] = runs
    return out


def _play(played: _core.TileSet, codes: tuple[int, ...], value: int, stats: SearchStats) -> Play:
    """A Play from the core's compact result: played tiles, the new table's meld codes, the value."""
    out = _new(Play)  # filled as _stats above
    d = out.__dict__
    d["tiles"] = TileSet._wrap(played)
    d["table"] = Table._wrap(_melds_of_codes(codes), codes)  # the next search on this table reuses the codes
    d["value"] = value
    d["stats"] = stats
    return out


_new = object.__new__


def _objective(objective: str) -> _core.Objective:
    try:
        return _OBJECTIVES[objective]
    except (KeyError, TypeError):
        raise RummikubError(f"objective must be one of {', '.join(_OBJECTIVES)}, got {objective!r}") from None


def arrange(tiles: TilesLike, rules: RuleSet | None = None) -> Table | None:
    """Partitions every tile into valid sets, or returns None when that is impossible.

    Jokers in the result say what they stand for.

    >>> str(arrange(TileSet.parse("K1 K2 K3 J")))
    'K1 K2 K3 J'
    >>> arrange(TileSet.parse("K1 K2")) is None
    True
    """
    r = _rules(rules)
    ts = _tiles(tiles, r, "tiles")
    try:
        codes, _counters = _core.arrange(ts._s, r.params)
    except ValueError as exc:
        ts.check(r, what=f"tiles {str(ts)!r}")
        raise RummikubError(f"tiles {str(ts)!r}: {exc}") from None
    return None if codes is None else Table._wrap(_melds_of_codes(codes))


DEFAULT_SOLVE_LIMIT = 6_000_000
"""Search states (96 bytes each, plus their layers' index and spare room) one programme run of :func:`solve`
may hold before it gives up."""


def _limit(limit: int | None) -> int:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise RummikubError(f"limit must be a positive int or None, got {limit!r}")
    return limit or 0


def _limited(exc: ValueError, table: Table, rack: TileSet, rules: RuleSet) -> RummikubError:
    if str(exc).startswith("search limit"):
        return SearchLimitError(f"rack {str(rack)!r} on table {str(table)!r}: {exc}")
    return _refused(exc, table, rack, rules)


def solve(table: TableLike, rack: TilesLike, *, rules: RuleSet | None = None, opened: bool = True,
          objective: Objective = "tiles", limit: int | None = DEFAULT_SOLVE_LIMIT) -> Play | None:
    """The best legal play from ``rack`` onto ``table``, or None when no rack tile can be played.

    ``opened`` says whether the player opened before this turn; until then the opening rule of ``rules``
    applies. ``objective`` is ``"tiles"`` (most tiles, then most value), ``"value"`` (most face value,
    jokers at what they stand for, then most tiles) or ``"penalty"`` (lowest rack total left, a joker
    counting the joker penalty). Ties are broken deterministically. Every joker policy of the rules is
    honoured (``docs/search-semantics.md``). A few rare positions (big 160-tile tables with several free
    jokers) need millions of search states: past ``limit`` states in one programme run (None: no limit)
    :class:`SearchLimitError` is raised rather than memory exhausted.

    >>> str(solve("K5 B5 O5 J", "K1 K2 R5").tiles)
    'K1 K2 R5'
    >>> solve("K5 B5 O5 J", "K1 K2") is None
    True
    """
    if not isinstance(opened, bool):
        raise RummikubError(f"opened must be a bool, got {opened!r}")
    obj = _objective(objective)
    nodes = _limit(limit)
    t, k, r = _position(table, rack, rules)
    try:
        played, codes, value, states, transitions, runs = _core.solve(_table_codes(t), k._s, _search_rules(r),
                                                                      opened, obj, nodes)
    except ValueError as exc:
        raise _limited(exc, t, k, r) from None
    return None if played is None else _play(played, codes, value, _stats(states, transitions, runs))


class LegalPlays:
    """Every distinct legal play of a position (distinct multisets of rack tiles), computed on first use;
    the core builds a play's new table only when that play is first read.

    Iterates best first (most tiles, then most value), supports ``len``, ``bool`` and ``in`` (with a
    TileSet of rack tiles).

    >>> ps = plays("R1 R2 R3", "R4 R5 K9")
    >>> len(ps), TileSet.parse("R4 R5") in ps, TileSet.parse("K9") in ps
    (2, True, False)
    """

    def __init__(self, table: Table, rack: TileSet, rules: RuleSet, opened: bool, limit: int | None) -> None:
        self._position = (table, rack, rules)
        self._args = (_table_codes(table), rack._s, _search_rules(rules), opened, limit or 0)
        # The plays stay in the core until asked for: len() and `in` build no Python object per play.
        self._list: _core.PlayList | None = None
        self._stats = SearchStats()

    def _load(self) -> _core.PlayList:
        if self._list is None:
            try:
                found, (states, transitions, runs) = _core.all_plays(*self._args)
            except ValueError as exc:
                if "too many plays" in str(exc):
                    table, rack, _rules = self._position
                    raise SearchLimitError(f"plays of rack {str(rack)!r} on table {str(table)!r}: {exc}") from None
                raise _refused(exc, *self._position) from None
            self._stats = _stats(states, transitions, runs)
            self._list = found
        return self._list

    def _played(self) -> list[TileSet]:
        """The played tiles of every play, best first (without building the plays' tables)."""
        return [TileSet._wrap(s) for s in self._load().played()]

    @property
    def stats(self) -> SearchStats:
        """The work counters of the enumeration."""
        self._load()
        return self._stats

    def __iter__(self) -> Iterator[Play]:
        found = self._load()
        stats = self._stats
        for start in range(0, len(found), _CHUNK):
            for played, codes, value in found.slice(start, start + _CHUNK):
                yield _play(played, codes, value, stats)

    def __len__(self) -> int:
        return len(self._load())

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, tiles: object) -> bool:
        if not isinstance(tiles, TileSet):
            return False
        return self._load().index(tiles._s) >= 0

    def get(self, tiles: TilesLike) -> Play | None:
        """The play placing exactly ``tiles`` (a TileSet or its notation), or None when that is not legal.

        >>> str(plays("R1 R2 R3", "R4 R5 K9").get("R4 R5").table)
        'R1 R2 R3 R4 R5'
        """
        ts = _tiles(tiles, self._position[2], "tiles")
        found = self._load()
        index = found.index(ts._s)
        return None if index < 0 else _play(*found.play(index), self._stats)


_CHUNK = 64  # plays fetched from the core per call while iterating

DEFAULT_PLAYS_LIMIT = 4_000_000
"""Search states (96 bytes each, plus their layers' index and spare room) that :func:`plays` may hold before
it gives up."""


def plays(table: TableLike, rack: TilesLike, *, rules: RuleSet | None = None, opened: bool = True,
          limit: int | None = DEFAULT_PLAYS_LIMIT) -> LegalPlays:
    """Every distinct legal play (each distinct multiset of rack tiles that can be placed, with one
    arrangement), for bots that choose among plays by their own criteria.

    A big rack on a big table can have tens of thousands of plays; when the enumeration would hold more
    than ``limit`` search states (None: no limit) it raises :class:`RummikubError` instead of exhausting
    memory, and :func:`solve` with an objective is the way to go.

    >>> [str(p.tiles) for p in plays("K5 B5 O5", "R5 J")]
    ['J', 'R5']
    """
    if not isinstance(opened, bool):
        raise RummikubError(f"opened must be a bool, got {opened!r}")
    _limit(limit)
    t, k, r = _position(table, rack, rules)
    if not (t.tiles() | k)._s.fits(r.params):
        raise _refused(ValueError("too many copies"), t, k, r)
    return LegalPlays(t, k, r, opened, limit)


def solve_batch(tables: npt.ArrayLike, racks: npt.ArrayLike, *, rules: RuleSet | None = None,
                opened: bool | npt.ArrayLike = True, objective: Objective = "tiles",
                limit: int | None = DEFAULT_SOLVE_LIMIT) -> dict[str, npt.NDArray[np.generic]]:
    """Best plays of many positions at once, without the GIL.

    ``tables`` and ``racks`` are ``(n, 65)`` count arrays indexed by tile code (``TileSet.to_counts``).
    A table given as counts has no joker assignments, so its jokers count as free (as under the
    ``free`` policy). Returns arrays: ``found`` (bool), ``played`` (``(n, 65)`` counts), ``tiles``,
    ``value``, ``key`` (the objective key), plus ``stats``.

    >>> out = solve_batch([Table.parse("R1-3").tiles().to_counts()], [TileSet.parse("R4 K9").to_counts()])
    >>> bool(out["found"][0]), int(out["tiles"][0])
    (True, 1)
    """
    r = _rules(rules)
    t = np.atleast_2d(np.asarray(tables))
    k = np.atleast_2d(np.asarray(racks))
    for name, arr in (("tables", t), ("racks", k)):
        if arr.dtype.kind not in "iub":
            raise TileCountError(f"{name} must be an integer count array, got dtype {arr.dtype}")
    o = np.broadcast_to(np.asarray(opened, dtype=bool), (t.shape[0],)).copy()
    nodes = _limit(limit)
    try:
        out: dict[str, npt.NDArray[np.generic]] = _core.solve_batch(
            t.astype(np.int64), k.astype(np.int64), _search_rules(r), o, _objective(objective), nodes)
    except ValueError as exc:
        if str(exc).startswith("search limit"):
            raise SearchLimitError(f"solve_batch: {exc}") from None
        raise TileCountError(str(exc)) from None
    return out
