"""Shared fixtures and hypothesis strategies for the test suite.

Strategies live here so every test file builds tiles and tile sets the same way; import them with
``from conftest import ...`` (pytest puts this folder on sys.path).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rummikub import JOKER, Colour, RuleSet, Tile, TileSet

# Deterministic and unhurried under CI (2 shared cores); the default profile still explores at random.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "default"))

STANDARD = RuleSet()
LARGE = RuleSet.preset("large")
WIDE = RuleSet(name="wide", numbers=16)  # the engine's whole code space: numbers 1..16

MAX_COUNT = 7  # copies of one tile a TileSet can hold (the bitset's 3-bit counts)


def tiles_of(rules: RuleSet) -> list[Tile]:
    """Every distinct tile of a rule set (numbered tiles in canonical order, then the joker)."""
    numbered = [Tile(c, n) for c in Colour if c < rules.colours for n in range(1, rules.numbers + 1)]
    return numbered + ([JOKER] if rules.jokers else [])


ALL_CODES = [t.code for t in tiles_of(WIDE)]  # 64 numbered codes and the joker


@pytest.fixture
def standard() -> RuleSet:
    return STANDARD


@pytest.fixture
def large() -> RuleSet:
    return LARGE


@pytest.fixture(params=["standard", "large"])
def preset_rules(request: pytest.FixtureRequest) -> RuleSet:
    """The standard (106-tile) and the large (160-tile) rule sets."""
    return RuleSet.preset(request.param)


# --- hypothesis strategies --------------------------------------------------------------------------


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
