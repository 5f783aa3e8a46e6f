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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Union

from . import _core
from ._core import SearchStats
from .action import Action
from ._errors import InvalidNotationError, RummikubError, TileCountError, shorten
from .meld import Table, _CodedTable, search_codes, table_of_codes
from .rules import RuleSet
from .tiles import TileSet, _set_s, core_of, of_core

if TYPE_CHECKING:  # numpy is imported by solve_batch, so that `import rummikub` does not load it
    import numpy as np
    import numpy.typing as npt
__all__ = ["Objective", "Play", "SearchStats", "LegalPlays", "DEFAULT_PLAYS_LIMIT", "DEFAULT_SOLVE_LIMIT",
           "DEFAULT_ARRANGE_LIMIT", "arrange", "solve", "plays", "solve_batch"]

# SearchStats is the core's own class (rummikub._core.SearchStats): read-only counters ``states``,
# ``transitions``, ``runs`` and ``limited``, comparable, hashable and picklable, with ``to_dict()`` for JSON.

Objective = Literal["tiles", "value", "penalty"]
# The core takes an objective as its number (_core.Objective's value), which converts faster than the enum.
_OBJECTIVES: dict[str, int] = {name: int(_core.Objective[name.upper()].value) for name in ("tiles", "value", "penalty")}
_POLICIES = {
    "free": _core.JokerPolicy.FREE,
    "replace": _core.JokerPolicy.REPLACE,
    "replace_from_rack": _core.JokerPolicy.REPLACE_FROM_RACK,
}
_STANDARD = RuleSet()
TableLike = Union[Table, str]
TilesLike = Union[TileSet, str]
_NO_STATS = SearchStats()


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
    stats: SearchStats = field(default=_NO_STATS, compare=False, repr=False)


def _rules(rules: RuleSet | None) -> RuleSet:
    if rules is None:
        return _STANDARD
    if not isinstance(rules, RuleSet):
        raise RummikubError(f"rules must be a RuleSet, got {type(rules).__name__} {shorten(rules)}")
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
    except RummikubError as exc:
        raise RummikubError(f"rule set {shorten(rules.name)}: {exc}") from None


def _table(table: TableLike, rules: RuleSet) -> Table:
    if isinstance(table, str):
        return Table.parse(table, rules)
    if not isinstance(table, Table):
        raise InvalidNotationError(f"table must be a Table or a string, got {type(table).__name__} {shorten(table)}")
    return table


def _tiles(tiles: TilesLike, rules: RuleSet, what: str) -> TileSet:
    if isinstance(tiles, str):
        return TileSet.parse(tiles, rules)
    if not isinstance(tiles, TileSet):
        raise InvalidNotationError(f"{what} must be a TileSet or a string, got {type(tiles).__name__} {shorten(tiles)}")
    return tiles


def _position(table: TableLike, rack: TilesLike, rules: RuleSet | None) -> tuple[Table, TileSet, RuleSet]:
    r = _rules(rules)
    return _table(table, r), _tiles(rack, r, "rack"), r


def _play(played: _core.TileSet, codes: tuple[int, ...], value: int, stats: SearchStats) -> Play:
    """A Play from the core's result: played tiles, the new table's meld codes, the value."""
    # Filled as _frozen.frozen() fills a frozen dataclass, its keyword packing spelled out, straight into the
    # instance's own dict (cheaper than a new dict given whole): that saves about a fifth of the Python side of
    # a solve (tests check these instances equal properly constructed ones).
    out = _new(Play)
    tiles = _new(TileSet)  # (of_core, inline)
    _set_s(tiles, played)
    fields = out.__dict__
    fields["tiles"] = tiles
    fields["table"] = table_of_codes(codes)  # the next search reuses the codes
    fields["value"] = value
    fields["stats"] = stats
    return out


_new = object.__new__


def _objective(objective: str) -> int:
    try:
        return _OBJECTIVES[objective]
    except (KeyError, TypeError):
        raise RummikubError(f"objective must be one of {', '.join(_OBJECTIVES)}, got {shorten(objective)}") from None


def _opened(opened: object) -> bool:
    if not isinstance(opened, bool):
        raise RummikubError(f"opened must be a bool, got {shorten(opened)}")
    return opened


DEFAULT_ARRANGE_LIMIT = 2_000_000
"""The states one run of :func:`arrange` may hold before it gives up, and through them its memory (256 bytes a
state of the limit: 0.5 GB). The 116-tile multiset that needs the most of any found takes about 1,000,000
states and half a second."""


def arrange(tiles: TilesLike, rules: RuleSet | None = None, *,
            limit: int | None = DEFAULT_ARRANGE_LIMIT) -> Table | None:
    """Partitions every tile into valid sets, or returns None when that is impossible.

    Jokers in the result say what they stand for. Past ``limit`` search states in one run (None: no limit)
    :class:`SearchLimitError` is raised rather than time and memory spent without bound.

    >>> str(arrange(TileSet.parse("K1 K2 K3 J")))
    'K1 K2 K3 J'
    >>> arrange(TileSet.parse("K1 K2")) is None
    True
    """
    r = _STANDARD if rules is None else rules if type(rules) is RuleSet else _rules(rules)  # (_rules, inline)
    ts = tiles if type(tiles) is TileSet else _tiles(tiles, r, "tiles")
    codes = _core.arrange_table(ts._s, r.params, limit)  # (core_of, inline)
    return None if codes is None else table_of_codes(codes)


DEFAULT_SOLVE_LIMIT = 4_000_000
"""The states one programme run of :func:`solve` may hold before it gives up, and through them its memory: a run
also stops once its layers hold 256 bytes for each state of the limit, so the default bounds a search at
1 GB (``docs/performance.md``, "Memory")."""


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
    # The checks of _objective, _position, _search_rules and _opened in the same order, their common cases inline
    # (a Python call each cost a tenth of a small search's time).
    obj = _OBJECTIVES.get(objective) if type(objective) is str else None
    if obj is None:
        obj = _objective(objective)
    r = _STANDARD if rules is None else rules if type(rules) is RuleSet else _rules(rules)
    t = table if type(table) is Table or type(table) is _CodedTable else _table(table, r)  # (a search's table)
    k = rack if type(rack) is TileSet else _tiles(rack, r, "rack")
    hit = _SEARCH_RULES_BY_ID.get(id(r))
    core_rules = hit[1] if hit is not None and hit[0] is r else _search_rules(r)
    if opened is not True and opened is not False:
        _opened(opened)
    codes = t._codes  # (search_codes and core_of, inline)
    parts = _core.solve_play(search_codes(t) if codes is None else codes, k._s, core_rules, opened, obj, limit)
    if parts is None:
        return None
    play = _play(*parts)
    global _LAST_SOLVED
    _LAST_SOLVED = (play, t, k, r, opened)
    return play


_LAST_SOLVED: tuple[Play, Table, TileSet, RuleSet, bool] | None = None
"""The last play :func:`solve` returned, with its position: (play, table, rack, rules, opened) as given. A game
applying that very play to that very position (the same objects: all immutable) skips the legality check, which the
search's result already passed (a bot's turn is a solve then an apply). Replaced whole, so a reader sees one
consistent entry whatever the threads do."""


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
        self._rules = rules
        self._args = (search_codes(table), core_of(rack), _search_rules(rules), opened, limit)
        # The plays stay in the core until asked for: len() and `in` build no Python object per play.
        self._list: _core.PlayList | None = None

    def _load(self) -> _core.PlayList:
        if self._list is None:
            self._list = _core.all_plays(*self._args)
        return self._list

    def played_tiles(self, indices: Iterable[int] | None = None) -> list[TileSet]:
        """The played tiles of every play, best first, or of the plays at ``indices`` (negative ones count
        from the end), without building the plays' tables.

        >>> ps = plays("R1 R2 R3", "R4 R5 K9")
        >>> [str(t) for t in ps.played_tiles()], [str(t) for t in ps.played_tiles([1, 0])]
        (['R4 R5', 'R4'], ['R4', 'R4 R5'])
        """
        found = self._load()
        if indices is None:
            return [of_core(s) for s in found.played()]
        try:
            return [of_core(s) for s in found.played(indices if type(indices) is list else list(indices))]
        except TypeError:  # not an iterable of ints (the core's conversion refuses it)
            raise RummikubError(f"indices must be ints, got {shorten(indices)}") from None
        except IndexError as exc:
            raise RummikubError(f"indices: {exc}") from None

    def tallies(self, weights: Sequence[float] | None = None) -> dict[str, npt.NDArray[np.generic]]:
        """Figures of every play as arrays, best first, computed in the core without a Python object per play:
        ``tiles`` (the rack tiles it places), ``value`` (their face value, jokers 0), ``jokers`` (the jokers it
        places), and ``kept``: the weights of the rack tiles it keeps (the rack minus the placed tiles), one term
        per tile, with ``weights`` 65 floats indexed by tile code (``Tile.code``; each tile weighs 1 without).
        The terms are added one by one in code order (jokers last), so ``kept`` is exactly the float that a loop
        ``s += weights[tile.code]`` over the kept tiles in canonical order gives: a bot can score every play with
        array arithmetic and build TileSets only for the few it keeps.

        >>> ps = plays("R1 R2 R3", "R4 R5 K9")
        >>> t = ps.tallies([0.5] * 65)
        >>> t["tiles"].tolist(), t["value"].tolist(), t["jokers"].tolist(), t["kept"].tolist()
        ([2, 1], [9, 4], [0, 0], [0.5, 1.0])
        """
        try:
            arrays = self._load().tallies(weights)
        except TypeError:  # not a sequence of floats (the core's conversion refuses it)
            raise RummikubError(f"weights must be 65 floats, one per tile code, got {shorten(weights)}") from None
        return dict(zip(("tiles", "value", "jokers", "kept"), arrays))

    def __getitem__(self, index: int) -> Play:
        """The play at ``index`` (best first; negative indices count from the end).

        >>> str(plays("R1 R2 R3", "R4 R5 K9")[-1].tiles)
        'R4'
        """
        if isinstance(index, bool) or not isinstance(index, int):
            raise RummikubError(f"a play index must be an int, got {shorten(index)}")
        found = self._load()
        if not -len(found) <= index < len(found):
            raise IndexError(f"play index {index} out of range for {len(found)} plays")
        play = found.play(index)
        return _play(play.played, play.table, play.value, found.stats)


    @property
    def stats(self) -> SearchStats:
        """The work counters of the enumeration."""
        return self._load().stats

    def __iter__(self) -> Iterator[Play]:
        found = self._load()
        stats = found.stats
        for start in range(0, len(found), _CHUNK):
            for play in found.slice(start, start + _CHUNK):
                yield _play(play.played, play.table, play.value, stats)

    def __len__(self) -> int:
        return len(self._load())

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, tiles: object) -> bool:
        if not isinstance(tiles, TileSet):
            return False
        return self._load().index(core_of(tiles)) >= 0

    def get(self, tiles: TilesLike) -> Play | None:
        """The play placing exactly ``tiles`` (a TileSet or its notation), or None when that is not legal.

        >>> str(plays("R1 R2 R3", "R4 R5 K9").get("R4 R5").table)
        'R1 R2 R3 R4 R5'
        """
        ts = _tiles(tiles, self._rules, "tiles")
        found = self._load()
        index = found.index(core_of(ts))
        if index < 0:
            return None
        play = found.play(index)
        return _play(play.played, play.table, play.value, found.stats)


_CHUNK = 64  # plays fetched from the core per call while iterating

DEFAULT_PLAYS_LIMIT = 4_000_000
"""The states :func:`plays` may hold before it gives up, and through them its memory: it also stops once its
programmes and the plays found hold 256 bytes for each state of the limit, so the default bounds it at 1 GB."""


def plays(table: TableLike, rack: TilesLike, *, rules: RuleSet | None = None, opened: bool = True,
          limit: int | None = DEFAULT_PLAYS_LIMIT) -> LegalPlays:
    """Every distinct legal play (each distinct multiset of rack tiles that can be placed, with one
    arrangement), for bots that choose among plays by their own criteria.

    A big rack on a big table can have tens of thousands of plays; when the enumeration would hold more
    than ``limit`` search states (None: no limit) it raises :class:`SearchLimitError` instead of exhausting
    memory, and :func:`solve` with an objective is the way to go.

    >>> [str(p.tiles) for p in plays("K5 B5 O5", "R5 J")]
    ['J', 'R5']
    """
    t, k, r = _position(table, rack, rules)
    _core.check_position(search_codes(t), core_of(k), _search_rules(r), limit)  # refuses now, searches later
    return LegalPlays(t, k, r, _opened(opened), limit)


def solve_batch(tables: npt.ArrayLike, racks: npt.ArrayLike, *, rules: RuleSet | None = None,
                opened: bool | npt.ArrayLike = True, objective: Objective = "tiles",
                limit: int | None = DEFAULT_SOLVE_LIMIT, threads: int = 1) -> dict[str, object]:
    """Best plays of many positions at once, without the GIL; ``threads`` workers (1..256) share the batch
    (the answers are the same whatever their number; ``os.cpu_count()`` uses every core).

    ``tables`` and ``racks`` are ``(n, 65)`` count arrays indexed by tile code (``TileSet.to_counts``).
    A table given as counts has no joker assignments, so its jokers count as free (as under the
    ``free`` policy). Returns arrays: ``found`` (bool), ``played`` (``(n, 65)`` counts), ``tiles``,
    ``value``, ``key`` (the objective key), plus ``stats`` (a :class:`SearchStats` summed over the batch).

    >>> out = solve_batch([Table.parse("R1-3").tiles().to_counts()], [TileSet.parse("R4 K9").to_counts()])
    >>> bool(out["found"][0]), int(out["tiles"][0])
    (True, 1)
    """
    import numpy as np

    r = _rules(rules)
    arrays = []
    for name, given in (("tables", tables), ("racks", racks)):
        try:
            arr = np.asarray(given)
        except (TypeError, ValueError):  # ragged nested lists
            raise TileCountError(f"{name} must be an (n, 65) integer count array (one row of 65 tile counts per "
                                 f"position), got rows of different lengths: {shorten(given)}") from None
        if arr.size == 0 and arr.ndim <= 2:  # no positions: [] or an (0, 65) array of any dtype
            arr = np.zeros((0, 65), dtype=np.int64)
        arr = np.atleast_2d(arr)
        if arr.dtype.kind not in "iub":
            raise TileCountError(f"{name} must hold integer tile counts, got {arr.dtype} values")
        if arr.ndim != 2 or arr.shape[1] != 65:
            raise TileCountError(f"{name} must be an (n, 65) count array (one row of 65 tile counts per position, "
                                 f"indexed by Tile.code), got shape {arr.shape}")
        arrays.append(np.ascontiguousarray(arr, dtype=np.int64))
    if arrays[0].shape[0] != arrays[1].shape[0]:
        raise TileCountError(f"tables and racks must hold as many positions each, got {arrays[0].shape[0]} tables "
                             f"and {arrays[1].shape[0]} racks")
    flags = np.asarray(opened)
    if flags.dtype != np.bool_ or flags.ndim > 1:
        raise RummikubError(f"opened must be a bool or a 1-d bool array, got {shorten(opened)}")
    try:
        o = np.ascontiguousarray(np.broadcast_to(flags, (arrays[0].shape[0],)))
    except ValueError:
        raise RummikubError(f"opened must be a bool or one bool per position ({arrays[0].shape[0]}), got "
                            f"{flags.shape[0]} bools") from None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise RummikubError(f"threads must be an int, got {shorten(threads)}")
    found = _core.solve_batch(arrays[0], arrays[1], _search_rules(r), o, _objective(objective), limit, threads)
    return {"found": found.found, "played": found.played, "tiles": found.tiles, "value": found.value,
            "key": found.key, "stats": found.stats}
