"""The hard bot's sampled racks (bots/hard.py's _sample_racks over _core.sample_tiles) are random.sample's exact
draws: the same racks and the generator left in the same state, so a seeded bot plays the same games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import RummikubError, _core
from rummikub.bots.hard import _sample_racks

# multisets of tile codes (two copies at most, jokers included), and sample sizes within them
_POOLS = st.lists(st.integers(min_value=0, max_value=64), max_size=106).map(
    lambda codes: _core.TileSet([c for i, c in enumerate(codes) if codes[:i].count(c) < 2]))


def sampled_both_ways(seed: int, pool: _core.TileSet, sizes: list[int]) -> None:
    rng, reference = random.Random(seed), random.Random(seed)
    rng.random()  # generators part-way through their streams
    reference.random()
    got = _sample_racks(rng, pool, sizes)
    expected = [_core.TileSet(reference.sample(pool.codes(), k)) for k in sizes]
    assert got == expected, (seed, pool.codes(), sizes)
    assert rng.getstate() == reference.getstate(), (seed, pool.codes(), sizes)


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), _POOLS, st.lists(st.integers(min_value=0, max_value=30), max_size=9))
def test_the_same_racks_and_generator_state_as_random_sample(seed: int, pool: _core.TileSet, sizes: list[int]) -> None:
    sampled_both_ways(seed, pool, [min(k, pool.size()) for k in sizes])


def test_both_of_samples_methods_and_every_size() -> None:
    # random.sample copies a population of at most 21 items (more for samples above 5) and keeps a set of indices
    # otherwise: pools on both sides of that size, samples from none to all of it
    full = _core.TileSet(list(range(13)) * 2 + [16, 17, 18, 64])
    for n in (0, 1, 2, 5, 20, 21, 22, 27, 30):
        pool = _core.TileSet(full.codes()[:n])
        for seed in range(40):
            sampled_both_ways(seed, pool, list(range(n + 1)) + [n, 0, min(n, 4)] * 3)


def test_a_subclass_of_random_samples_its_own_way() -> None:
    class Firsts(random.Random):
        def sample(self, population, k, *, counts=None):  # type: ignore[no-untyped-def]
            return list(population)[:k]

    pool = _core.TileSet([5, 3, 3, 64])
    assert _sample_racks(Firsts(1), pool, [2, 3]) == [_core.TileSet([3, 3]), _core.TileSet([3, 3, 5])]


def test_bad_sizes_and_generators_are_refused_with_the_rest_untouched() -> None:
    pool = _core.TileSet([1, 2, 3])
    for sizes in ([4], [-1], [1, 5]):
        with pytest.raises(RummikubError, match="sample_tiles: a sample of"):
            _core.sample_tiles(pool, sizes, random.Random(1).getrandbits)

    def broken(bits: int) -> int:
        raise ValueError("no bits today")

    with pytest.raises(ValueError, match="no bits today"):
        _core.sample_tiles(pool, [2], broken)
    with pytest.raises(AttributeError):
        _core.sample_tiles(pool, [2], lambda bits: "words")  # type: ignore[arg-type, return-value]  # (no to_bytes)
    assert pool.codes() == [1, 2, 3]
