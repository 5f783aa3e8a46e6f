"""Shared inputs of the benchmarks: fixed, seeded racks and tables, so runs compare like with like.

Run the suite with ``pytest benchmarks`` (timings, grouped; compare the core with its plain-Python
reference in each group) or ``pytest benchmarks --benchmark-disable`` (each benchmark once, as a test).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummikub import RuleSet, TileSet

STANDARD = RuleSet()


def seeded_racks(n: int, size: int, seed: int) -> list[TileSet]:
    """``n`` racks of ``size`` tiles dealt from shuffled standard sets."""
    rng = random.Random(seed)
    full = TileSet.full(STANDARD).tiles()
    racks = []
    for _ in range(n):
        rng.shuffle(full)
        racks.append(TileSet(full[:size]))
    return racks


@pytest.fixture(scope="session")
def rack_pairs() -> list[tuple[TileSet, TileSet]]:
    """Pairs (a, b) of 14-tile racks; b's first 7 tiles are also in a, so a - b7 is defined."""
    return list(zip(seeded_racks(64, 14, 1), seeded_racks(64, 14, 2)))


@pytest.fixture(scope="session")
def counter_pairs(rack_pairs: list[tuple[TileSet, TileSet]]) -> list[tuple[Counter[str], Counter[str]]]:
    """The same pairs as Counters of tile strings: the plain-Python reference's multisets."""
    return [(Counter(map(str, a)), Counter(map(str, b))) for a, b in rack_pairs]
