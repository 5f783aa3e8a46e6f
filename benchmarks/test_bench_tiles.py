"""Benchmarks of the foundation: TileSet operations and meld validation, each against a plain-Python
reference in the same group, so the report shows the ratio.

    PYTHONPATH=python python -m pytest benchmarks/test_bench_tiles.py           # timings
    python -m pytest benchmarks --benchmark-disable                             # once each, as tests

Each benchmark runs a batch of 64 operations per round, so the per-call overhead of the harness is small.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rummikub import Meld, Tile, TileSet

Pairs = list[tuple[TileSet, TileSet]]
CPairs = list[tuple[Counter[str], Counter[str]]]


def run(benchmark: Any, fn: Callable[[], Any]) -> Any:
    return benchmark.pedantic(fn, rounds=200, iterations=1, warmup_rounds=5) if benchmark.enabled else benchmark(fn)


# --- tileset ---------------------------------------------------------------------------------------


@pytest.mark.benchmark(group="tileset: sum")
def test_sum_core(benchmark: Any, rack_pairs: Pairs) -> None:
    out = run(benchmark, lambda: [a | b for a, b in rack_pairs])
    assert all(len(s) == 28 for s in out)


@pytest.mark.benchmark(group="tileset: sum")
def test_sum_counter(benchmark: Any, counter_pairs: CPairs) -> None:
    out = run(benchmark, lambda: [a + b for a, b in counter_pairs])
    assert all(sum(s.values()) == 28 for s in out)


@pytest.mark.benchmark(group="tileset: difference")
def test_difference_core(benchmark: Any, rack_pairs: Pairs) -> None:
    halves = [(a | b, b) for a, b in rack_pairs]
    out = run(benchmark, lambda: [s - b for s, b in halves])
    assert out == [a for a, _ in rack_pairs]


@pytest.mark.benchmark(group="tileset: difference")
def test_difference_counter(benchmark: Any, counter_pairs: CPairs) -> None:
    halves = [(a + b, b) for a, b in counter_pairs]

    def diff(s: Counter[str], b: Counter[str]) -> Counter[str]:
        if any(s[k] < n for k, n in b.items()):
            raise ValueError("not contained")
        return s - b

    out = run(benchmark, lambda: [diff(s, b) for s, b in halves])
    assert out == [a for a, _ in counter_pairs]


@pytest.mark.benchmark(group="tileset: containment")
def test_contains_core(benchmark: Any, rack_pairs: Pairs) -> None:
    pairs = [(a | b, b) for a, b in rack_pairs] + rack_pairs
    out = run(benchmark, lambda: [b <= s for s, b in pairs])
    assert out[:64] == [True] * 64


@pytest.mark.benchmark(group="tileset: containment")
def test_contains_counter(benchmark: Any, counter_pairs: CPairs) -> None:
    pairs = [(a + b, b) for a, b in counter_pairs] + counter_pairs
    out = run(benchmark, lambda: [all(s[k] >= n for k, n in b.items()) for s, b in pairs])
    assert out[:64] == [True] * 64


TILES = [Tile.parse(t) for t in ("R1", "K13", "B7", "J")]


@pytest.mark.benchmark(group="tileset: count")
def test_count_core(benchmark: Any, rack_pairs: Pairs) -> None:
    out = run(benchmark, lambda: [a.count(t) for a, _ in rack_pairs for t in TILES])
    assert sum(out) >= 0


@pytest.mark.benchmark(group="tileset: count")
def test_count_counter(benchmark: Any, counter_pairs: CPairs) -> None:
    names = [str(t) for t in TILES]
    out = run(benchmark, lambda: [a[t] for a, _ in counter_pairs for t in names])
    assert sum(out) >= 0


@pytest.mark.benchmark(group="tileset: value")
def test_value_core(benchmark: Any, rack_pairs: Pairs) -> None:
    out = run(benchmark, lambda: [a.value() for a, _ in rack_pairs])
    assert all(v > 0 for v in out)


@pytest.mark.benchmark(group="tileset: value")
def test_value_counter(benchmark: Any, counter_pairs: CPairs) -> None:
    def value(c: Counter[str]) -> int:
        return sum((30 if t == "J" else int(t[1:])) * n for t, n in c.items())

    out = run(benchmark, lambda: [value(a) for a, _ in counter_pairs])
    assert all(v > 0 for v in out)


@pytest.mark.benchmark(group="tileset: hash")
def test_hash_core(benchmark: Any, rack_pairs: Pairs) -> None:
    out = run(benchmark, lambda: [hash(a) for a, _ in rack_pairs])
    assert len(set(out)) == len({a for a, _ in rack_pairs})


@pytest.mark.benchmark(group="tileset: hash")
def test_hash_counter(benchmark: Any, counter_pairs: CPairs) -> None:
    out = run(benchmark, lambda: [hash(frozenset(a.items())) for a, _ in counter_pairs])
    assert len(set(out)) == len({frozenset(a.items()) for a, _ in counter_pairs})


# --- meld ------------------------------------------------------------------------------------------

SEQUENCES = [[Tile.parse(t) for t in text.split()] for text in (
    "R1 R2 R3", "R5 J R7", "K7 B7 O7 R7", "K7 B7 J", "B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13",
    "R12 R13 R1", "K7 K7 B7", "R1 B2 O3", "J R8 R9", "O9 O10 J J",
)]
VALID = [True, True, True, True, True, False, False, False, True, True]


def reference_meld(tiles: list[Tile]) -> bool:
    """Plain Python: a group (one number, distinct colours, 3..4) or a run (one colour, consecutive 3..13)."""
    real = [t for t in tiles if not t.is_joker]
    n = len(tiles)
    if not real or n < 3:
        return False
    numbers = [t.number for t in real]
    colours = [t.colour for t in real]
    if len(set(numbers)) == 1 and len(set(colours)) == len(real) and n <= 4:
        return True
    if len(set(colours)) != 1 or len(set(numbers)) != len(real) or n > 13:
        return False
    return any(all(s <= x < s + n for x in numbers) for x in [0] for s in range(1, 15 - n))  # type: ignore[operator]


def core_meld(tiles: list[Tile]) -> bool:
    try:
        Meld(tiles)
    except ValueError:
        return False
    return True


@pytest.mark.benchmark(group="meld: validate 10 sequences")
def test_meld_core(benchmark: Any) -> None:
    assert run(benchmark, lambda: [core_meld(s) for s in SEQUENCES]) == VALID


@pytest.mark.benchmark(group="meld: validate 10 sequences")
def test_meld_reference(benchmark: Any) -> None:
    assert run(benchmark, lambda: [reference_meld(s) for s in SEQUENCES]) == VALID
