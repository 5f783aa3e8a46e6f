"""Turn legality: is ``before -> after`` a legal play for a player holding ``rack``?

:func:`check_turn` is the single verdict the game uses for every committed turn, and the independent
re-checker of the search (``docs/search-semantics.md`` is its contract, rule by rule). It never asks the
C++ search for its verdict on a turn: meld validity and the best reading of a meld come from the core
(:class:`~rummikub.meld.Meld`, :func:`best_value`), the most an opening's own tiles can score from the core's
search (:func:`best_opening`), the rest is small exhaustive Python.

>>> from rummikub import RuleSet, Table, TileSet
>>> rules = RuleSet.preset("classic")
>>> str(check_turn(Table(), TileSet.parse("R10 R11 R12 K1"), Table.parse("R10 R11 R12"), rules=rules, opened=False))
'R10 R11 R12'
>>> try:
...     check_turn(Table(), TileSet.parse("K9 B9 O9"), Table.parse("K9 B9 O9"), rules=rules, opened=False)
... except IllegalMoveError as exc:
...     print(exc.reason)
opening_too_low

Refusals carry ``exc.reason``, one of the :class:`Reason` values:

=================================== ===============================================================
reason                              rule (docs/rules.md)
=================================== ===============================================================
``invalid_set``                     §2: a set is not a valid group or run (two K7 in a group, 13-1 wrap)
``loose_tile``                      §5: a set shorter than the minimum length (a loose tile)
``table_tile_removed``              §5: a table tile left the table (went back to a rack)
``joker_kept``                      §8: a joker taken from the table is not on the table at the end
``not_in_rack``                     the played tiles are not all in the player's rack
``no_rack_tile``                    §5: no rack tile was played (rearranging alone is not a play)
``opening_touches_table``           §6: the opening used, moved or added to table tiles
``opening_too_low``                 §6: the opening sets are worth less than the threshold
``joker_in_opening``                §6 ``joker_in_opening=False``: a joker in the opening
``joker_retrieved_before_opening``  §8: a table joker left its place on the player's opening turn
``joker_not_replaced``              §8: a joker left the table set without the exact tile replacing it
``joker_replacement_not_from_rack`` §8 ``replace_from_rack``: the replacing tile did not come from the rack
``freed_joker_without_rack_tiles``  §8: the freed joker's new set holds too few rack tiles
=================================== ===============================================================

The game adds ``not_your_turn``, ``game_over``, ``pool_empty`` (a draw with no pool), ``pool_not_empty``
(a pass while tiles remain) and ``turn_timeout``; the draft adds ``invalid_edit``.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

from . import _core, _memo
from ._errors import IllegalMoveError, InvalidMeldError
from .meld import Meld, Table
from .rules import RuleSet
from .search import Play, solve
from .tiles import JOKER, Tile, TileSet, core_of

__all__ = ["Reason", "check_turn", "best_value", "opening_value", "best_opening", "illegal", "check_meld"]



class Reason(str, enum.Enum):
    """Stable names of the rules a refused move breaks (``IllegalMoveError.reason``)."""

    INVALID_SET = "invalid_set"
    LOOSE_TILE = "loose_tile"
    TABLE_TILE_REMOVED = "table_tile_removed"
    JOKER_KEPT = "joker_kept"
    NOT_IN_RACK = "not_in_rack"
    NO_RACK_TILE = "no_rack_tile"
    OPENING_TOUCHES_TABLE = "opening_touches_table"
    OPENING_TOO_LOW = "opening_too_low"
    JOKER_IN_OPENING = "joker_in_opening"
    JOKER_RETRIEVED_BEFORE_OPENING = "joker_retrieved_before_opening"
    JOKER_NOT_REPLACED = "joker_not_replaced"
    JOKER_REPLACEMENT_NOT_FROM_RACK = "joker_replacement_not_from_rack"
    FREED_JOKER_WITHOUT_RACK_TILES = "freed_joker_without_rack_tiles"
    # raised by the game, not by check_turn
    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    POOL_EMPTY = "pool_empty"
    POOL_NOT_EMPTY = "pool_not_empty"
    TURN_TIMEOUT = "turn_timeout"
    INVALID_EDIT = "invalid_edit"

    def __str__(self) -> str:
        return self.value


def illegal(reason: Reason, message: str) -> IllegalMoveError:
    """An :class:`IllegalMoveError` whose ``reason`` is ``reason.value``."""
    return IllegalMoveError(message, reason.value)


def best_value(tiles: TileSet, rules: RuleSet) -> int:
    """The value of the best reading of ``tiles`` as one set (docs/rules.md §3), or -1 when they form none.

    >>> best_value(TileSet.parse("R8 R9 J"), RuleSet())
    27
    """
    return int(_core.best_meld_value(core_of(tiles), rules.params))


def check_meld(meld: Meld, rules: RuleSet) -> str | None:
    """None when ``meld`` is a valid set under ``rules`` (it may have been built under other rules), else why not."""
    kind, colour, number, length, slots, colours = meld.key
    try:
        _core.make_meld(_core.MeldKind.RUN if kind == 0 else _core.MeldKind.GROUP, colour, number, length, slots,
                        colours, rules.params)
    except InvalidMeldError as exc:
        return str(exc)
    return None


_ParamsKey = tuple[int, int, int, int, int]
_VALID_MELDS: dict[_ParamsKey, set[tuple[int, ...]]] = _memo.register(  # sized by its largest rule set
    "legality.valid_melds", {}, size=lambda: max(map(len, _VALID_MELDS.values()), default=0))
_MAX_VALID_MELDS = 1 << 14


def _valid_melds(rules: RuleSet) -> set[tuple[int, ...]]:
    """The keys of melds :func:`check_meld` found valid under the tile-set parameters of ``rules`` (what
    ``rules.params`` is built from, all that the verdict depends on). Bounded: cleared when full."""
    params = (rules.numbers, rules.colours, rules.copies, rules.jokers, rules.min_len)
    valid = _VALID_MELDS.get(params)
    if valid is None:
        if len(_VALID_MELDS) >= 16:
            _VALID_MELDS.clear()
        valid = _VALID_MELDS[params] = set()
    return valid


def _fmt(tiles: Iterable[Tile]) -> str:
    return " ".join(map(str, tiles))


# --------------------------------------------------------------------------------------------------------------
# The opening value: the most a multiset can score as disjoint sets (best readings), found by the core's search.


def _best_sets(tiles: TileSet, rules: RuleSet) -> Play | None:
    """The play of ``tiles`` onto an empty table with the most face value (jokers at what they stand for): the
    disjoint sets of ``tiles`` worth the most, each at its best reading (None when they form no set)."""
    return solve(Table(), tiles, rules=rules, opened=True, objective="value")


def best_opening(tiles: TileSet, rules: RuleSet) -> tuple[int, list[Meld]]:
    """The highest total (best readings) of disjoint sets formed from ``tiles`` alone, and those sets.

    The core's exact search answers it; the game uses it for the ``extend_after_opening`` opening check, where
    a part of the played tiles must open on its own. Raises :class:`SearchLimitError` past the default search
    limit of :func:`~rummikub.solve` (a limit no rack of a real game comes near).

    >>> value, melds = best_opening(TileSet.parse("R10 R11 R12 K9 B9 O9 K1"), RuleSet())
    >>> value, sorted(map(str, melds))
    (60, ['K9 B9 O9', 'R10 R11 R12'])
    """
    play = _best_sets(tiles, rules)
    return (0, []) if play is None else (play.value, list(play.table))


def opening_value(tiles: TileSet, rules: RuleSet, target: int | None = None) -> int:
    """The highest total of disjoint sets formable from ``tiles`` (see :func:`best_opening`). ``target`` is
    accepted for callers that only need to know whether a total is reached; the answer is exact either way.

    >>> opening_value(TileSet.parse("R8 R9 J R11"), RuleSet())
    38
    """
    return _opening_value_cached(tiles, rules)


@lru_cache(maxsize=4096)
def _opening_value_cached(tiles: TileSet, rules: RuleSet) -> int:
    play = _best_sets(tiles, rules)
    return 0 if play is None else play.value


# --------------------------------------------------------------------------------------------------------------
# Joker policies (docs/rules.md §8, search-semantics.md 3)


_K = TypeVar("_K")


def _counts(items: Iterable[_K]) -> dict[_K, int]:
    """How many times each item occurs, in order of first occurrence (a plain-dict Counter, cheaper to make)."""
    out: dict[_K, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def _rack_tiles_reach(demands: dict[int, int], after: Sequence[Meld], played: Mapping[Tile, int]) -> bool:
    """Can the played numbered tiles (``played``: tile -> copies) be assigned to copies in ``after`` so that
    meld ``m`` holds at least ``demands[m]`` of them? (A meld holds at most one copy of a tile; demands are
    tiny, so brute force.)"""
    todo = [(m, d) for m, d in demands.items() if d > 0]
    left = dict(played)

    def place(k: int) -> bool:
        if k == len(todo):
            return True
        m, d = todo[k]
        eligible = [t for t in after[m].tiles if not t.is_joker and left.get(t, 0) > 0]
        for chosen in itertools.combinations(eligible, d):
            for t in chosen:
                left[t] -= 1
            ok = place(k + 1)
            for t in chosen:
                left[t] += 1
            if ok:
                return True
        return False

    return place(0)


def _readings(table: Table) -> list[tuple[tuple[int, Tile], ...]]:
    """Every way the jokers of ``table`` can be read, as sorted (meld index, tile) pairs, without repeats.

    A run's joker stands for its slot; the ``k`` jokers of a group stand for ``k`` *distinct* missing colours
    (docs/rules.md §8: two jokers in one group cover two colours). The number of readings is the product over
    the groups of C(missing, k): at most 3 per group of the ordinary set.
    """
    per_meld: dict[int, list[frozenset[Tile]]] = {}
    for index, slot in table.joker_slots():
        per_meld.setdefault(index, []).append(slot)
    options: list[list[tuple[tuple[int, Tile], ...]]] = []
    for index, slots in per_meld.items():
        if all(len(c) == 1 for c in slots):
            options.append([tuple((index, next(iter(c))) for c in slots)])
        else:  # a group: its jokers share one candidate set, and take distinct colours of it
            options.append([tuple((index, t) for t in chosen)
                            for chosen in itertools.combinations(sorted(slots[0]), len(slots))])
    seen: set[tuple[tuple[int, Tile], ...]] = set()
    out = []
    for combo in itertools.product(*options):
        reading = tuple(sorted(pair for part in combo for pair in part))
        if reading not in seen:
            seen.add(reading)
            out.append(reading)
    return out


def _tiles_of(reading: Sequence[tuple[int, Tile]]) -> dict[Tile, int]:
    return _counts(t for _, t in reading)


def _jokers_stay(before: Table, after: Table) -> bool:
    """True when some reading of both tables has every table joker standing for a tile that a joker of
    ``after`` stands for (each ``after`` joker matched once): no table joker is retrieved."""
    after_counts = [_tiles_of(r) for r in _readings(after)]
    for reading in _readings(before):
        need = _tiles_of(reading)
        if any(all(have.get(t, 0) >= k for t, k in need.items()) for have in after_counts):
            return True
    return False


def _check_jokers(before: Table, after: Table, played: TileSet, rules: RuleSet) -> None:
    """The ``replace`` / ``replace_from_rack`` policy after opening (search-semantics.md 3).

    For each reading of the table's jokers (``B``) and of the new table's (``A``), as many table jokers stay
    as the tiles they stand for allow (``min(B[t], A[t])`` for each tile ``t``): a joker that could stay
    and is retrieved instead only adds conditions, so the most staying is never worse. The rest are
    retrieved: each needs its tile (on the new table, or among the played tiles under
    ``replace_from_rack``), and lands on one of the ``A`` slots the staying jokers leave; the slots left
    after that hold the rack's jokers. The work is the readings of both tables times the ways to place the
    freed jokers on the open slots (counted by set, not by joker): no permutation of jokers is tried.
    """
    if not before.joker_slots():
        return
    before_readings = _readings(before)
    after_readings = _readings(after)
    r = 2 if rules.joker_retrieval == "replace_from_rack" else 1
    after_count = after.tiles().count  # the copies of a numbered tile on the table after the turn
    played_real = _counts(t for t in played.tiles() if not t.is_joker)
    stage, error = -1, None
    for a_reading in after_readings:
        slots_by_tile: dict[Tile, list[int]] = {}
        for m, t in a_reading:
            slots_by_tile.setdefault(t, []).append(m)
        for b_reading in before_readings:
            b = _tiles_of(b_reading)
            need = {t: k - min(k, len(slots_by_tile.get(t, ()))) for t, k in b.items()}
            need = {t: k for t, k in need.items() if k}
            if not need:
                return
            short = [t for t, k in need.items() if after_count(t) < k]
            if short:
                if stage < 0:
                    stage, error = 0, illegal(
                        Reason.JOKER_NOT_REPLACED,
                        f"a joker standing for {_fmt(sorted(need))} left its set, but no {_fmt(short)} "
                        "took its place: a table joker may leave only when the exact tile it stands for "
                        "replaces it (docs/rules.md §8)")
                continue
            if r == 2:
                short = [t for t, k in need.items() if played_real.get(t, 0) < k]
                if short:
                    if stage < 1:
                        stage, error = 1, illegal(
                            Reason.JOKER_REPLACEMENT_NOT_FROM_RACK,
                            f"a joker standing for {_fmt(short)} was retrieved, but the replacing "
                            f"{_fmt(short)} did not come from the rack (joker_retrieval=replace_from_rack)")
                    continue
            freed = sum(need.values())
            if _freed_jokers_fit(b, slots_by_tile, freed, after, played_real, r):
                return
            if stage < 2:
                stage, error = 2, illegal(
                    Reason.FREED_JOKER_WITHOUT_RACK_TILES,
                    f"the freed joker must be played this turn in a set holding at least {r} tile"
                    f"{'s' if r > 1 else ''} from the rack; no set with a joker in {after} does "
                    "(docs/rules.md §8)")
    raise error or illegal(Reason.JOKER_NOT_REPLACED, "a joker left its set without being replaced")


def _freed_jokers_fit(b: Mapping[Tile, int], slots_by_tile: Mapping[Tile, list[int]], freed: int, after: Table,
                      played_real: Mapping[Tile, int], r: int) -> bool:
    """Can the staying jokers take ``min(b[t], slots)`` of the slots of each tile ``t`` so that ``freed``
    of the remaining slots sit in sets each holding at least ``r`` played tiles (the rack's jokers, on the
    other remaining slots, count as played)? Choices are made by set (a multiset of set indices), so equal
    slots are tried once."""
    stay_choices: list[list[tuple[int, ...]]] = []
    for t, melds in slots_by_tile.items():
        k = min(b.get(t, 0), len(melds))
        stay_choices.append(sorted(set(itertools.combinations(sorted(melds), k))))
    tried: set[tuple[int, ...]] = set()
    for stays in itertools.product(*stay_choices):
        open_slots = sorted(_multiset_minus([m for ms in slots_by_tile.values() for m in ms],
                                            [m for part in stays for m in part]))
        key = tuple(open_slots)
        if key in tried:
            continue
        tried.add(key)
        for chosen in sorted(set(itertools.combinations(open_slots, freed))):
            rack_jokers = _counts(_multiset_minus(open_slots, list(chosen)))
            demands = {m: max(0, r - rack_jokers.get(m, 0)) for m in set(chosen)}
            if _rack_tiles_reach(demands, list(after), played_real):
                return True
    return False


def _multiset_minus(items: Sequence[int], remove: Sequence[int]) -> list[int]:
    left = _counts(remove)
    out = []
    for x in items:
        if left.get(x, 0):
            left[x] -= 1
        else:
            out.append(x)
    return out


# --------------------------------------------------------------------------------------------------------------


def check_turn(before: Table, rack: TileSet, after: Table, *, rules: RuleSet, opened: bool) -> TileSet:
    """The rack tiles ``P`` played by turning the table ``before`` into ``after``; raises
    :class:`IllegalMoveError` (with ``reason``, see :class:`Reason`) when the turn breaks docs/rules.md §5-§8.

    ``opened`` says whether the player had opened before this turn. The verdict follows
    ``docs/search-semantics.md`` exactly (it is the search's independent re-checker).

    >>> from rummikub import Table, TileSet, RuleSet
    >>> str(check_turn(Table.parse("B4 B5 B6 | K8 O8 R8"), TileSet.parse("B3 B8 K2"),
    ...                Table.parse("B3 B4 B5 B6 | K8 B8 O8 R8"), rules=RuleSet(), opened=True))
    'B3 B8'
    """
    valid = _valid_melds(rules)
    for i, meld in enumerate(after, start=1):
        if meld.key in valid:  # found valid under these rules before
            continue
        problem = check_meld(meld, rules)
        if problem is not None:
            reason = Reason.LOOSE_TILE if len(meld) < rules.min_len else Reason.INVALID_SET
            raise illegal(reason, f"set {i} ({meld}) is not valid under these rules: {problem}")
        if len(valid) >= _MAX_VALID_MELDS:
            valid.clear()
        valid.add(meld.key)
    before_tiles, after_tiles = before.tiles(), after.tiles()
    if not before_tiles <= after_tiles:
        missing = before_tiles - (before_tiles & after_tiles)
        if all(t.is_joker for t in missing):
            raise illegal(Reason.JOKER_KEPT, f"the joker{'s' if len(missing) > 1 else ''} taken from the table "
                          "must be played again this turn; no tile leaves the table for a rack (docs/rules.md §5, §8)")
        raise illegal(Reason.TABLE_TILE_REMOVED, f"{missing} left the table; no tile ever leaves the table "
                      "for a rack (docs/rules.md §5)")
    played = after_tiles - before_tiles
    if not played <= rack:
        extra = played - (played & rack)
        raise illegal(Reason.NOT_IN_RACK, f"{extra} {'is' if len(extra) == 1 else 'are'} not in the rack "
                      f"({rack or 'empty'})")
    if not played:
        raise illegal(Reason.NO_RACK_TILE, "a play must put at least one tile from the rack on the table; "
                      "rearranging the table alone is not a play (docs/rules.md §5)")
    if not opened and rules.opening_threshold > 0:
        _check_opening(before, after, played, rules)
    elif rules.joker_retrieval != "free":
        _check_jokers(before, after, played, rules)
    return played


def _check_opening(before: Table, after: Table, played: TileSet, rules: RuleSet) -> None:
    threshold = rules.opening_threshold
    if not rules.extend_after_opening:
        # the after melds not matched by a before meld, counted by key (a Counter of melds, without a Python
        # __hash__/__eq__ call per lookup): the first meld of each key, and how many copies are unmatched
        first: dict[tuple[int, ...], Meld] = {}
        remaining: dict[tuple[int, ...], int] = {}
        for meld in after:
            first.setdefault(meld.key, meld)
            remaining[meld.key] = remaining.get(meld.key, 0) + 1
        changed = []
        for meld in before:
            if remaining.get(meld.key, 0) > 0:
                remaining[meld.key] -= 1
            else:
                changed.append(meld)
        if changed:
            raise illegal(Reason.OPENING_TOUCHES_TABLE,
                          f"before opening, a player may not use, move or add to table tiles; "
                          f"{' | '.join(map(str, changed))} changed (docs/rules.md §6)")
        if played.jokers and not rules.joker_in_opening:
            raise illegal(Reason.JOKER_IN_OPENING, "jokers may not be used in the opening under these rules "
                          "(joker_in_opening=False)")
        new = [first[key] for key, copies in remaining.items() for _ in range(copies)]
        # each new set is credited as the table shows it: a joker counts as the tile its place stands for
        # (docs/rules.md §6), so `J R9 R10` is R8 R9 R10, 27
        total = sum(m.value for m in new)
        if total < threshold:
            raise illegal(Reason.OPENING_TOO_LOW,
                          f"the opening {' | '.join(map(str, new))} is worth {total}, "
                          f"{threshold - total} short of {threshold} (docs/rules.md §6)")
        return
    own = played if rules.joker_in_opening else played - TileSet([JOKER] * played.jokers)
    total = opening_value(own, rules, threshold)
    if total < threshold:
        note = "" if rules.joker_in_opening or not played.jokers else " (jokers do not count)"
        raise illegal(Reason.OPENING_TOO_LOW,
                      f"the played tiles {played} make sets of their own worth {total} at most{note}, "
                      f"{threshold - total} short of {threshold} (docs/rules.md §6)")
    if rules.joker_retrieval != "free":
        if before.joker_slots() and not _jokers_stay(before, after):
            raise illegal(Reason.JOKER_RETRIEVED_BEFORE_OPENING,
                          "a table joker left its place on the opening turn; only a player who had opened "
                          "before this turn may retrieve a joker (docs/rules.md §8)")
