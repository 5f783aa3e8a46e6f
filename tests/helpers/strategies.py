"""Hypothesis strategies and the rule sets the tests draw from, so every test builds tiles and tile sets the
same way.

>>> from tests.helpers.strategies import STANDARD, tiles_of
>>> len(tiles_of(STANDARD))  # 52 numbered tiles and the joker
53
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from rummikub import JOKER, Colour, RuleSet, Tile, TileSet

__all__ = ["STANDARD", "LARGE", "WIDE", "MAX_COUNT", "ALL_CODES", "tiles_of", "tiles", "counters", "tileset_of",
           "racks"]

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
