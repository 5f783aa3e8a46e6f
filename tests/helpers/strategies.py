"""Hypothesis strategies and the rule sets the tests draw from, so every test builds tiles and tile sets the
same way.

>>> from tests.helpers.strategies import STANDARD, tiles_of
>>> len(tiles_of(STANDARD))  # 52 numbered tiles and the joker
53
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import strategies as st

from rummikub import JOKER, Colour, Meld, RuleSet, Table, Tile, TileSet, arrange, plays
from rummikub._errors import RummikubError, SearchLimitError

__all__ = ["STANDARD", "LARGE", "WIDE", "MAX_COUNT", "ALL_CODES", "tiles_of", "tiles", "counters", "tileset_of",
           "racks", "turns"]

STANDARD = RuleSet()
LARGE = RuleSet.preset("large")
WIDE = RuleSet(name="wide", numbers=16)  # the engine's whole code space: numbers 1..16

MAX_COUNT = 7  # copies of one tile a TileSet can hold (the bitset's 3-bit counts)


def tiles_of(rules: RuleSet) -> list[Tile]:
    """Every distinct tile of a rule set (numbered tiles in canonical order, then the joker)."""
    numbered = [Tile(c, n) for c in Colour if c < rules.colours for n in range(1, rules.numbers + 1)]
    return numbered + ([JOKER] if rules.jokers else [])


ALL_CODES = [t.code for t in tiles_of(WIDE)]  # 64 numbered codes and the joker


def tiles(rules: RuleSet = STANDARD) -> st.SearchStrategy[Tile]:
    """A tile of ``rules`` (the joker included)."""
    return st.sampled_from(tiles_of(rules))


def counters(max_count: int = 4, codes: list[int] | None = None, max_size: int = 14) -> st.SearchStrategy[Counter[int]]:
    """A Counter of tile codes with counts in 1..max_count: the plain-Python model of a TileSet."""
    keys = st.sampled_from(codes if codes is not None else ALL_CODES)
    return st.dictionaries(keys, st.integers(1, max_count), max_size=max_size).map(Counter)


def tileset_of(counter: Counter[int]) -> TileSet:
    """The TileSet holding ``counter``'s tiles (built through the public constructor)."""
    return TileSet(Tile.from_code(code) for code, n in counter.items() for _ in range(n))


def racks(rules: RuleSet = STANDARD, max_size: int = 20) -> st.SearchStrategy[TileSet]:
    """A sub-multiset of the full set of ``rules``."""
    full = TileSet.full(rules).tiles()
    return st.lists(st.integers(0, len(full) - 1), unique=True, max_size=max_size).map(
        lambda idx: TileSet(full[i] for i in idx))


Turn = tuple[Table, TileSet, Table, bool]


def _random_meld(rng: random.Random, rules: RuleSet, left: Counter[Tile]) -> Meld | None:
    """A valid set drawn from the tiles ``left`` (taken from it), jokers in about a third of the places, or None
    when the draw does not fit."""
    if rng.random() < 0.5:
        colour, length = Colour(rng.randrange(rules.colours)), rng.randint(max(3, rules.min_len), 5)
        first = rng.randint(1, rules.numbers - length + 1)
        wanted = [Tile(colour, n) for n in range(first, first + length)]
    else:
        number = rng.randint(1, rules.numbers)
        wanted = [Tile(c, number) for c in rng.sample(list(Colour)[: rules.colours], rng.randint(3, rules.colours))]
    tiles = [JOKER if rng.random() < 0.3 and left[JOKER] > sum(t.is_joker for t in wanted) else t for t in wanted]
    if all(t.is_joker for t in tiles) or any(Counter(tiles)[t] > left[t] for t in tiles):
        return None
    try:
        meld = Meld.parse(" ".join(map(str, tiles)), rules)
    except RummikubError:  # jokers the notation reads another way, past the numbers
        return None
    left.subtract(tiles)
    return meld


def _joker_moved(rng: random.Random, rules: RuleSet, before: Table, left: Counter[Tile]) -> tuple[Table, TileSet]:
    """``before`` with one table joker moved out of its set into a new run beside two new tiles of the colour
    of the tile it stood for (``J R8 R9`` for R7): the joker keeps its tile but, most often, leaves its homes;
    and those two tiles. ``before`` and no tiles when no joker can move so."""
    for index in rng.sample(range(len(before)), len(before)):
        meld = before[index]
        rest = list(meld.tiles)
        if not meld.jokers:
            continue
        rest.remove(JOKER)
        kept = arrange(TileSet(rest), rules)
        stood = rng.choice(sorted(next(c for i, c in before.joker_slots() if i == index)))
        colour, number = stood.colour, stood.number
        pair = ([Tile(colour, number + 1), Tile(colour, number + 2)] if number + 2 <= rules.numbers
                else [Tile(colour, number - 2), Tile(colour, number - 1)])
        if kept is None or any(left[t] < 1 for t in pair) or pair[0] == pair[1]:
            continue
        left.subtract(pair)
        run = Meld.parse(" ".join(map(str, [JOKER, *pair] if pair[0].number > number else [*pair, JOKER])), rules)
        others = [m for i, m in enumerate(before) if i != index]
        return Table([*others, *kept, run]), TileSet(pair)
    return before, TileSet()


@st.composite
def turns(draw: st.DrawFn, rules: RuleSet) -> Turn:
    """A turn (table before, rack, table after, opened) under ``rules``: a table of random sets with many
    jokers, a rack from the tiles left, and an after table that is a legal play from the search, or the
    before table and some rack tiles arranged afresh (jokers move, often illegally), or the before table with
    new sets of rack tiles, or a table joker moved into a new run beside two rack tiles, or one of these with a
    set left out (table tiles leave the table); now and then the rack loses a tile (the played tiles are then
    not all on it)."""
    rng = draw(st.randoms(use_true_random=True))  # the usual distributions: a shrunk one rarely makes sets
    left = Counter(TileSet.full(rules).tiles())
    melds = [m for m in (_random_meld(rng, rules, left) for _ in range(rng.randint(0, 5))) if m is not None]
    before = Table(melds)
    sets = [m for m in (_random_meld(rng, rules, left) for _ in range(rng.randint(1, 3))) if m is not None]
    loose = rng.sample(list(left.elements()), rng.randint(0 if sets else 1, 4))
    left.subtract(loose)
    rack = TileSet([t for m in sets for t in m.tiles] + loose)
    opened = rng.random() < 0.7
    kind = rng.randrange(5)
    after: Table | None = None
    if kind == 0:
        try:
            legal = list(plays(before, rack, rules=rules, opened=opened))
        except SearchLimitError:
            legal = []
        after = rng.choice(legal).table if legal else None
    # else (or when nothing is legal) some of the rack's sets, perhaps with a loose tile, on the table: arranged
    # afresh with the table's tiles, or added as they are
    placed = [t for m in rng.sample(sets, rng.randint(0, len(sets))) for t in m.tiles] + loose[: rng.randint(0, 1)]
    if after is None and kind in (0, 1):
        after = arrange(before.tiles() | TileSet(placed), rules)
    if after is None:
        new = arrange(TileSet(placed), rules)
        after = before + (new if new is not None else Table(sets[:1]))
    if kind == 4:
        after, extra = _joker_moved(rng, rules, before, left)
        rack = rack | extra
    if kind == 3 and len(after) > 1:
        drop = rng.randrange(len(after))
        after = Table([m for i, m in enumerate(after) if i != drop])
    if rng.random() < 0.15:  # a tile gone from the rack: the played tiles may not all be there
        kept = list(rack)
        del kept[rng.randrange(len(kept))]
        rack = TileSet(kept)
    return before, rack, after, opened
