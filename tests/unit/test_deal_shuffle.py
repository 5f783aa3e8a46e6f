"""The deal's shuffle (game/state.py) is random.shuffle's exact sequence: a record replays its deal from the seed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.game import state


def shuffled_both_ways(rng: random.Random, seed: int, size: int) -> tuple[list[int], list[int], random.Random]:
    expected, got = list(range(size)), list(range(size))
    reference = random.Random(seed)
    reference.shuffle(expected)
    state._shuffle(rng, got)
    return expected, got, reference


def test_the_same_permutation_and_generator_state_over_many_seeds_and_sizes() -> None:
    sizes = [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 64, 65, 104, 106, 127, 128, 129, 160, 1000, 4095, 4096]
    for seed in range(300):
        for size in sizes[: 12 if seed % 10 else len(sizes)]:
            rng = random.Random(seed)
            expected, got, reference = shuffled_both_ways(rng, seed, size)
            assert got == expected, (seed, size)
            assert rng.getstate() == reference.getstate(), (seed, size)
            assert rng.random() == reference.random()  # and the generator goes on alike


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=5000))
def test_the_same_permutation_for_any_seed_and_size(seed: int, size: int) -> None:
    rng = random.Random(seed)
    rng.random()  # a generator part-way through its stream
    reference_rng = random.Random(seed)
    reference_rng.random()
    expected, got = list(range(size)), list(range(size))
    reference_rng.shuffle(expected)
    state._shuffle(rng, got)
    assert got == expected and rng.getstate() == reference_rng.getstate()


def test_a_subclass_of_random_shuffles_its_own_way() -> None:
    class Halves(random.Random):
        def random(self) -> float:
            return 0.5

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    items = list(range(10))
    state._shuffle(Halves(1), items)
    assert items == list(range(9, -1, -1))


def test_seeded_deals_are_those_of_random_shuffle() -> None:
    # Game.new deals the shuffled full set: the racks and pool are random.shuffle's permutation of the set
    from rummikub import Game, RuleSet

    for seed in range(20):
        rules = RuleSet.preset("classic")
        game = Game.new(players=4, rules=rules, seed=seed, first_player=0)
        deck = [t.code for t in state._full_set(rules)[0]]
        random.Random(seed).shuffle(deck)
        racks = [sorted(deck[i * 14:(i + 1) * 14]) for i in range(4)]
        assert [sorted(t.code for t in game.rack(p)) for p in range(4)] == racks
        assert [t.code for t in reversed(game._pool)] == deck[56:]


def test_new_deals_the_full_set_and_checks_its_arguments() -> None:
    # Game.new skips the check that the racks and pool are the full set (it deals the set itself): the check passes
    from rummikub import Game, RuleSet, RummikubError

    for preset in ("classic", "standard", "digital"):
        for seed in range(5):
            for first in (None, 1):
                game = Game.new(players=3, preset=preset, seed=seed, first_player=first)
                game._check_tile_count()
                assert sum(game.rack_sizes()) + game.pool_size == game.rules.tile_count
    for bad in (3, -1, True, "0"):
        try:
            Game.new(players=3, seed=1, first_player=bad)  # type: ignore[arg-type]
        except RummikubError as exc:
            assert "first_player" in str(exc)
        else:
            raise AssertionError(f"first_player {bad!r} accepted")
    try:
        Game.new(players=2, seed=1, clock=5)  # type: ignore[arg-type]
    except RummikubError as exc:
        assert "clock" in str(exc)
    else:
        raise AssertionError("a clock that is not callable accepted")

    class Counted(Game):
        made = 0

        def __init__(self, *args: object, **kwargs: object) -> None:
            Counted.made += 1
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    game = Counted.new(players=2, seed=4, rules=RuleSet.preset("classic"))
    assert type(game) is Counted and Counted.made == 1 and game.pool_size == 106 - 28


def test_the_core_step_checks_its_arguments_and_stops_when_the_words_run_out() -> None:
    import pytest

    from rummikub import RummikubError, _core

    items = list(range(8))
    assert _core.shuffle_words(items, 0, b"\xff" * 8) == 0 and items == list(range(8))
    # index 7 takes k = 4 bits: a word whose top 4 bits are 15 is dropped, one whose top bits are 2 swaps 7 and 2
    assert _core.shuffle_words(items, 7, (0xF0000000).to_bytes(4, "little") + (0x20000000).to_bytes(4, "little")
                               + b"\x00\x00") == 6
    assert items == [0, 1, 7, 3, 4, 5, 6, 2]
    for top in (-1, 8):
        with pytest.raises(RummikubError, match="not an index"):
            _core.shuffle_words(items, top, b"")
    with pytest.raises(TypeError):
        _core.shuffle_words(tuple(items), 3, b"")  # type: ignore[arg-type]
