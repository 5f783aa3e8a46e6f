"""Turn legality: is ``before -> after`` a legal play for a player holding ``rack``?

:func:`check_turn` is the single verdict the game uses for every committed turn, and the independent
re-checker of the search (``docs/search-semantics.md`` is its contract, rule by rule). It never asks the
C++ search for its verdict on a turn: meld validity and the best reading of a meld come from the core
(:class:`~rummikub.meld.Meld`, :func:`best_value`), the most an opening's own tiles can score from the core's
search (:func:`best_opening`), a quick proof that a turn keeps the joker rule from the core's turn check
(:func:`jokers_witness`, which never refuses), the rest is small exhaustive Python.

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
``joker_not_replaced``              §8: a joker left its set (or moved to another set) and no real copy of the
                                    tile it stood for replaces it
``joker_replacement_elsewhere``     §8: the replacing tile is on the table, but not in the set the joker left
``joker_replacement_not_from_rack`` §8 ``replace_from_rack``: the replacing tile did not come from the rack
``freed_joker_without_rack_tiles``  §8: the freed joker's new set holds too few rack tiles
=================================== ===============================================================

The game adds ``not_your_turn``, ``game_over``, ``pool_empty`` (a draw with no pool), ``pool_not_empty``
(a pass while tiles remain) and ``turn_timeout``; the draft adds ``invalid_edit``.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

from . import _core, _memo
from ._errors import IllegalMoveError, InvalidMeldError
from .meld import Meld, Table, search_codes
from .rules import RuleSet
from .search import Play, _search_rules, solve
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
    JOKER_REPLACEMENT_ELSEWHERE = "joker_replacement_elsewhere"
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
#
# The rule. Read the old table's jokers (a run's joker stands for its slot; the k jokers of a group for k
# distinct missing colours: every choice is a reading). A set of the new table is a *home* of an old joker j
# standing for t = (c, n) when it holds t and a former set-mate's place: for a joker of a run [a, b], a run of
# colour c holding n and n-1 (if a < n) or n+1 (if n < b); for a joker of a group, a group of number n. (The
# group rule says "holding a colour the old group held besides c"; with at most 4 colours every group of n
# holding t does: both sets hold >= 2 of the 3 other colours, and two 2-subsets of a 3-set meet. The core
# refuses more than 4 colours.) The turn is legal when, for some reading, every old joker either
#   stays:     a distinct joker of the new table stands for t in a home of j, or
#   is taken:  (only a player who had opened) a distinct real t lies in a home of j (under replace_from_rack
#              a copy from the rack), and the freed joker sits in a set holding >= r rack tiles (r = 1, or 2
#              under replace_from_rack; the rack's jokers count, freed jokers do not).
# Which copy of a tile is the rack's is free, but one choice serves both the replacing tiles and the counts.
#
# The cost. A rule set holds at most 4 jokers (RuleSet refuses more, and check_turn refuses a table holding
# more), so everything that is enumerated is bounded by a constant: the readings of the old table (at most 3
# per group, 3^4), which old jokers are taken (2^4), where the staying ones sit among the new table's at
# most 4 joker places (4^4), how many freed jokers go to each set with an open joker place, and, under
# replace_from_rack, for each taken joker whether its replacing tile is in one of the (at most 4) sets that
# hold a freed joker, and which. What grows with the table is never enumerated:
#   * the replacing tiles: taken jokers -> (set, tile) places holding that real tile in a home, each place
#     used once (a set holds one copy of a tile), is a bipartite matching, found as a max flow;
#   * the rack's tiles beside the freed jokers: each set holding freed jokers needs d more rack tiles; set ->
#     (set, tile) -> tile, each tile t at most P[t] times (the rack's copies), is a max flow;
#   * under replace_from_rack both draw on the rack's copies: once it is fixed which taken jokers have their
#     replacing tile inside a freed joker's set (that copy is then the rack's and also counts there), the
#     other replacing tiles lie in other sets, so one flow (source -> taken joker -> (set, tile) -> tile, and
#     source -> freed set -> (set, tile) -> tile, tile -> sink with the rack's copies left) decides both:
#     a legal choice of copies gives such a flow, and a flow gives a legal choice (the (set, tile) places of
#     the two kinds lie in different sets, so no copy is used twice).
# Each max flow is polynomial (augmenting paths: at most |jokers| + 2 * |freed sets| augmentations over a
# graph with O(tiles of the new table) edges), so check_turn's joker check is O(table size) per turn.
#
# The common case first. Before that enumeration, jokers_witness tries one reading greedily (each old joker
# stays on the first free seat of a home, else takes the first free place of a real copy of its tile in a home;
# the freed jokers go where the rack's tiles, counted once, suffice): O(jokers x sets) work. When it finds a
# way the turn is legal and nothing else is needed; when it does not, the enumeration above decides and words
# the refusal, so verdicts and messages are those of the enumeration alone. The witness is the core's
# (cpp/src/turn.cpp), and the game's check_committed (game/legal.py) uses it on its fast path, also in the core.


_K = TypeVar("_K")


def _counts(items: Iterable[_K]) -> dict[_K, int]:
    """How many times each item occurs, in order of first occurrence (a plain-dict Counter, cheaper to make)."""
    out: dict[_K, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def _max_flow(edges: Iterable[tuple[object, object, int]], source: object, sink: object) -> int:
    """The maximum flow from ``source`` to ``sink`` over directed ``edges`` (u, v, capacity): augmenting
    paths found breadth-first (Edmonds-Karp), polynomial in the graph's size."""
    cap: dict[object, dict[object, int]] = {}
    for u, v, c in edges:
        cap.setdefault(u, {})
        cap.setdefault(v, {})
        cap[u][v] = cap[u].get(v, 0) + c
        cap[v].setdefault(u, 0)
    if source not in cap or sink not in cap:
        return 0
    flow = 0
    while True:
        parent: dict[object, object] = {source: source}
        queue = [source]
        for u in queue:
            if u == sink:
                break
            for v, c in cap[u].items():
                if c > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return flow
        push, v = None, sink
        while v != source:
            u = parent[v]
            push = cap[u][v] if push is None else min(push, cap[u][v])
            v = u
        assert push is not None
        v = sink
        while v != source:
            u = parent[v]
            cap[u][v] -= push
            cap[v][u] += push
            v = u
        flow += push


def _is_home(key: tuple[int, ...], colour: int, number: int, run: bool, low: int = 0, high: int = 0) -> bool:
    """Is the set with meld key ``key`` a home of a joker standing for (``colour``, ``number``), given that it
    holds that tile's place? The same kind of set, and a former set-mate's place: for the joker of a run
    [``low``, ``high``], a run of its colour that also holds the number before it (when ``low`` < ``number``) or
    after it (when ``number`` < ``high``); for a group's joker, any group of its number."""
    kind, c, first, length = key[:4]
    if run:
        last = first + length - 1
        return (not kind and c == colour and first <= number <= last
                and ((low < number and first < number) or (number < high and number < last)))
    return bool(kind) and first == number


def _stands_for(key: tuple[int, ...], colour: int, number: int) -> bool:
    """Can a joker of the set with meld key ``key`` stand for (``colour``, ``number``)? A run's joker in that
    tile's slot; a group's joker, in a group of that number without that colour."""
    kind, c, first, length, slots, colours = key[:6]
    if kind:
        return first == number and not colours >> colour & 1
    return c == colour and first <= number < first + length and bool(slots >> (number - first) & 1)


class _OldJoker:
    """A joker of the table before the turn, under one reading: the tile it stands for, its set, and (a run's
    joker) the numbers of that run."""

    __slots__ = ("meld", "tile", "colour", "number", "run", "low", "high")

    def __init__(self, meld: int, colour: int, number: int, run: bool, low: int = 0, high: int = 0) -> None:
        self.meld, self.tile, self.run, self.low, self.high = meld, Tile(colour, number), run, low, high
        self.colour, self.number = colour, number


def _old_readings(before: Table, colours: int) -> list[tuple[_OldJoker, ...]]:
    """Every reading of the jokers of ``before``: a run's joker stands for its slot; the ``k`` jokers of a
    group for ``k`` *distinct* missing colours (docs/rules.md §8: two jokers in one group cover two colours)."""
    per_meld: list[list[tuple[_OldJoker, ...]]] = []
    for index, meld in enumerate(before):
        if not meld.jokers:
            continue
        kind, colour, number, length, mask, mask_colours = meld.key[:6]
        if kind == 0:
            per_meld.append([tuple(_OldJoker(index, colour, number + i, True, number, number + length - 1)
                                   for i in range(length) if mask >> i & 1)])
        else:
            missing = [c for c in range(colours) if not mask_colours >> c & 1]
            per_meld.append([tuple(_OldJoker(index, c, number, False) for c in chosen)
                             for chosen in itertools.combinations(missing, meld.jokers)])
    return [tuple(j for part in combo for j in part) for combo in itertools.product(*per_meld)]


class _NewTable:
    """What the joker rule reads of the table after the turn: each set's key (kind, colour, numbers, joker
    places), real tiles and jokers, and the sets holding each real tile."""

    def __init__(self, after: Table) -> None:
        self.melds = list(after)
        self.keys = [m.key for m in self.melds]
        self.holders: dict[Tile, list[int]] = {}
        self.real: list[frozenset[Tile]] = []
        self.jokers = [m.jokers for m in self.melds]
        for i, m in enumerate(self.melds):
            real = frozenset(t for t in m.tiles if not t.is_joker)
            self.real.append(real)
            for t in real:
                self.holders.setdefault(t, []).append(i)

    def is_home(self, j: _OldJoker, i: int) -> bool:
        """Is set ``i`` a home of ``j`` (given that it holds ``j``'s tile)?"""
        return _is_home(self.keys[i], j.colour, j.number, j.run, j.low, j.high)

    def stay_places(self, j: _OldJoker) -> list[int]:
        """The sets where ``j`` may stay: each home holding a joker that can stand for ``j``'s tile."""
        return [i for i, key in enumerate(self.keys)
                if self.jokers[i] and _stands_for(key, j.colour, j.number) and self.is_home(j, i)]

    def replace_places(self, j: _OldJoker) -> list[int]:
        """The sets that hold a real copy of ``j``'s tile in a home of ``j``."""
        return [i for i in self.holders.get(j.tile, ()) if self.is_home(j, i)]


def _stay_assignments(new: _NewTable, staying: Sequence[_OldJoker]) -> Iterable[dict[int, int]]:
    """Each way to seat the ``staying`` jokers (at most 4) on distinct joker places of the new table, as the
    number seated per set; a group seats distinct colours, at most as many as it has jokers."""
    options = [new.stay_places(j) for j in staying]
    seen: set[tuple[tuple[int, int], ...]] = set()
    for choice in itertools.product(*options):
        # a run's slot seats one joker (its tile); a group seats distinct colours, at most its jokers
        seats = [(i, j.tile) for j, i in zip(staying, choice)]
        if len(set(seats)) != len(seats):
            continue
        per_set = _counts(i for i, _ in seats)
        if any(k > new.jokers[i] for i, k in per_set.items()):
            continue
        key = tuple(sorted(per_set.items()))
        if key not in seen:
            seen.add(key)
            yield per_set


def _freed_splits(open_places: Mapping[int, int], freed: int) -> Iterable[dict[int, int]]:
    """Every way to put ``freed`` jokers on the open joker places (set -> count) of the new table."""
    sets = sorted(i for i, k in open_places.items() if k)
    for counts in itertools.product(*[range(min(open_places[i], freed) + 1) for i in sets]):
        if sum(counts) == freed:
            yield {i: k for i, k in zip(sets, counts) if k}


def _replacements_fit(new: _NewTable, taken: Sequence[_OldJoker], budget: Mapping[Tile, int] | None,
                      avoid: frozenset[int] = frozenset(),
                      demands: Mapping[int, int] | None = None, forced: frozenset[tuple[int, Tile]] = frozenset()
                      ) -> bool:
    """One max flow: can each ``taken`` joker get its own replacing copy (a distinct (set, tile) place in a
    home, outside the sets ``avoid``) and each set of ``demands`` that many more of the rack's tiles (places
    other than ``forced``), with tile ``t`` used at most ``budget[t]`` times (None: replacing copies are not
    limited, and ``demands`` must be empty)?"""
    edges: list[tuple[object, object, int]] = []
    need = 0
    for k, j in enumerate(taken):
        need += 1
        edges.append(("s", ("j", k), 1))
        for i in new.replace_places(j):
            if i not in avoid:
                edges.append((("j", k), ("p", i, j.tile), 1))
    for i, d in (demands or {}).items():
        if d <= 0:
            continue
        need += d
        edges.append(("s", ("m", i), d))
        for t in new.real[i]:
            if (i, t) not in forced and (budget is None or budget.get(t, 0) > 0):
                edges.append((("m", i), ("p", i, t), 1))
    places = {(v[1], v[2]) for _, v, _ in edges if isinstance(v, tuple) and v[0] == "p"}
    for i, t in places:
        if budget is None:
            edges.append((("p", i, t), "t", 1))
        else:
            edges.append((("p", i, t), ("t", t), 1))
    if budget is not None:
        for t in {t for _, t in places}:
            edges.append((("t", t), "t", budget.get(t, 0)))
    return need == 0 or _max_flow(edges, "s", "t") == need


def _jokers_stay(before: Table, after: Table) -> bool:
    """A shortcut: True when every set of ``before`` holding a joker is also a set of ``after`` (counted with
    repeats), so that every table joker stays where it was, standing for the same tile."""
    left = _counts(m.key for m in after if m.jokers)
    for m in before:
        if m.jokers:
            if not left.get(m.key):
                return False
            left[m.key] -= 1
    return True


def jokers_witness(before: Table, after: Table, played: Iterable[int], rules: RuleSet, *,
                   opening: bool = False) -> bool:
    """True when a quick greedy look (the core's, ``_core.jokers_witness``; cpp/include/rummikub/turn.h) finds
    one legal way to read the turn ``before -> after`` under the joker rule (``replace`` or
    ``replace_from_rack``, see the comment above): a reading of the old table's jokers in which each either
    stays (a joker of ``after`` stands for its tile in one of its homes, on a seat of its own) or, unless
    ``opening``, is taken (its own real copy of the tile in one of its homes, the freed joker on a joker place
    of ``after`` in a set holding enough rack tiles, the rack's copies counted once). ``played`` holds the
    codes of the rack tiles played, with repeats.

    Every choice is made greedily, first fit, so False says nothing (the exhaustive :func:`_check_jokers`
    decides); True is a witness, so it agrees with that check. Cost: O(jokers x sets of ``after``).

    >>> rules = RuleSet()
    >>> before, after = Table.parse("R5 J R7"), Table.parse("R5 R6 R7 | R8 J R10")
    >>> jokers_witness(before, after, [t.code for t in TileSet.parse("R6 R8 R10")], rules)
    True
    >>> jokers_witness(before, after, [t.code for t in TileSet.parse("R6 R8 R10")], rules, opening=True)
    False
    """
    return bool(_core.jokers_witness(search_codes(before), search_codes(after), _core.TileSet(list(played)),
                                     _search_rules(rules), opening))


def _taken_note(j: _OldJoker, before: Table, new: _NewTable) -> str:
    """'the joker standing for R9 moved to another set (J R10 R11), so it counts as taken'."""
    old = before[j.meld]
    for i, m in enumerate(new.melds):
        if new.jokers[i] and not new.is_home(j, i) and _stands_for(new.keys[i], j.colour, j.number):
            return (f"the joker standing for {j.tile} in {old} moved to another set ({m}), so it counts as taken "
                    "even though it stands for the same tile there")
    return (f"the joker standing for {j.tile} in {old} left that set (no joker stands for {j.tile} in it or in the "
            "set that continues it), so it counts as taken")


def _check_jokers(before: Table, after: Table, played: TileSet, rules: RuleSet, *, opening: bool = False) -> None:
    """The ``replace`` / ``replace_from_rack`` policy (docs/rules.md §8): see the comment above. With
    ``opening`` (an opening turn under ``extend_after_opening``) no joker may be taken: every one stays.

    Refusals name the first joker that fails in the reading that gets furthest (taken jokers without their
    tile, then with their tile elsewhere, then not from the rack, then a freed joker without rack tiles)."""
    if not before.joker_slots() or _jokers_stay(before, after):
        return
    limit = rules.jokers
    if after.tiles().jokers > limit:
        raise illegal(Reason.INVALID_SET, f"the table holds {after.tiles().jokers} jokers; these rules have "
                      f"{limit}")
    if jokers_witness(before, after, core_of(played).codes(), rules, opening=opening):
        return
    new = _NewTable(after)
    sabra = rules.joker_retrieval == "replace_from_rack"
    r = 2 if sabra else 1
    played_real = _counts(t for t in played.tiles() if not t.is_joker)
    stage, error = -1, None

    def fail(level: int, reason: Reason, message: Callable[[], str]) -> None:  # the message made only if kept
        nonlocal stage, error
        if level > stage:
            stage, error = level, illegal(reason, message() + " (docs/rules.md §8)")

    for reading in _old_readings(before, rules.colours):
        for size in ([0] if opening else range(len(reading) + 1)):
            for taken_ix in itertools.combinations(range(len(reading)), size):
                taken = [reading[k] for k in taken_ix]
                staying = [j for k, j in enumerate(reading) if k not in taken_ix]
                seatings = list(_stay_assignments(new, staying))
                if not seatings:
                    if opening:
                        lost = [j for j in staying if not new.stay_places(j)] or list(staying)
                        fail(0, Reason.JOKER_RETRIEVED_BEFORE_OPENING, lambda:
                             f"{_taken_note(lost[0], before, new)}; only a player who had opened before this turn "
                             "may take a joker from the table")
                    continue
                if not taken:
                    return
                # the replacing tiles, alone
                missing = next((j for j in taken if j.tile not in new.holders), None)
                if missing is not None:
                    fail(1, Reason.JOKER_NOT_REPLACED, lambda:
                         f"{_taken_note(missing, before, new)}; a taken joker must be replaced by a real "
                         f"{missing.tile} in the set it left, and no {missing.tile} is on the table")
                    continue
                elsewhere = next((j for j in taken if not new.replace_places(j)), None)
                if elsewhere is not None:
                    where = " | ".join(str(new.melds[i]) for i in new.holders[elsewhere.tile])
                    fail(2, Reason.JOKER_REPLACEMENT_ELSEWHERE, lambda:
                         f"{_taken_note(elsewhere, before, new)}; the real {elsewhere.tile} that replaces it must "
                         f"take its place, in the set it left (or the set that continues it), but the "
                         f"{elsewhere.tile} on the table is in {where}")
                    continue
                if not _replacements_fit(new, taken, None):  # two taken jokers, one replacing copy
                    shared = _fmt(sorted({j.tile for j in taken}))
                    fail(2, Reason.JOKER_NOT_REPLACED, lambda:
                         f"{_taken_note(taken[0], before, new)}; each taken joker ({shared}) needs its own real "
                         "tile in the set it left, and there are fewer such tiles than taken jokers")
                    continue
                if sabra and not _replacements_fit(new, taken, played_real):
                    j = taken[0]
                    fail(3, Reason.JOKER_REPLACEMENT_NOT_FROM_RACK, lambda:
                         f"{_taken_note(j, before, new)}; the {j.tile} that replaces it in the set it left must "
                         "come from the rack under joker_retrieval=replace_from_rack, and none does")
                    continue
                for seated in seatings:
                    open_places = {i: new.jokers[i] - seated.get(i, 0) for i in range(len(new.melds))
                                   if new.jokers[i] > seated.get(i, 0)}
                    for freed in _freed_splits(open_places, len(taken)):
                        demands = {i: max(0, r - (open_places[i] - f)) for i, f in freed.items()}
                        if _freed_fit(new, taken, demands, played_real, sabra):
                            return
                fail(4, Reason.FREED_JOKER_WITHOUT_RACK_TILES, lambda:
                     f"{_taken_note(taken[0], before, new)}; a taken joker must be played this turn in a set "
                     f"holding at least {r} tile{'s' if r > 1 else ''} from the rack, and no set with a joker in "
                     f"{after} does" + (" (a rack tile that replaces a joker counts only where it replaces it)"
                                        if sabra else ""))
    raise error or illegal(Reason.JOKER_NOT_REPLACED, "a joker left its set without being replaced")


def _freed_fit(new: _NewTable, taken: Sequence[_OldJoker], demands: Mapping[int, int],
               played_real: Mapping[Tile, int], sabra: bool) -> bool:
    """Given the freed jokers' sets and how many rack tiles each still needs (``demands``), is there a choice
    of the rack's copies that gives every set its tiles and (``sabra``) every taken joker a replacing copy
    from the rack? Under ``replace`` the replacing copies may be any (checked before), so one flow for the
    demands decides it; under ``replace_from_rack`` each taken joker's replacing copy is either inside one
    of the freed sets (tried: at most 5 choices per joker, at most 4 jokers) or outside all of them (flow)."""
    if not sabra:
        return _replacements_fit(new, (), played_real, demands=demands)
    freed_sets = frozenset(demands)
    options: list[list[int | None]] = []
    for j in taken:
        inside: list[int | None] = [i for i in new.replace_places(j) if i in freed_sets]
        options.append(inside + [None])
    for choice in itertools.product(*options):
        forced = [(i, j.tile) for j, i in zip(taken, choice) if i is not None]
        if len(set(forced)) != len(forced):
            continue
        budget = dict(played_real)
        for _, t in forced:
            budget[t] = budget.get(t, 0) - 1
        if any(k < 0 for k in budget.values()):
            continue
        left = dict(demands)
        for i, _ in forced:
            left[i] -= 1
        outside = [j for j, i in zip(taken, choice) if i is None]
        if _replacements_fit(new, outside, budget, avoid=freed_sets, demands=left, forced=frozenset(forced)):
            return True
    return False


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
        _check_jokers(before, after, played, rules, opening=True)
