"""LegalPlays' per-play figures (tallies), the played tiles of chosen plays and indexing: each agrees with the
plays as iteration builds them, and bad input is a RummikubError naming it."""

from __future__ import annotations

import functools
import operator
import random
import re

import numpy as np
import pytest

from rummikub import RummikubError, TileSet
from rummikub.search import LegalPlays, plays
from rummikub.tiles import core_of
from tests.helpers.positions import position_stream


def _listings(count: int) -> list[tuple[LegalPlays, TileSet]]:
    """Listings of varied positions (rule variants, jokers, opened or not), with the racks they come from."""
    out = []
    for pos in position_stream(11, count):
        if len(pos.rack) > 10:  # keep the listings small
            continue
        out.append((plays(pos.table, pos.rack, rules=pos.rules, opened=pos.opened), pos.rack))
    return out


def test_tallies_agree_with_the_plays() -> None:
    """tiles, value and jokers are those of each play's placed tiles; kept is the float that adding the kept tiles'
    weights one by one gives in canonical order (bit for bit), with random weights and without (1 per tile)."""
    rng = random.Random(5)
    checked = 0
    for legal, rack in _listings(80):
        weights = [rng.uniform(-2.0, 3.0) for _ in range(65)]
        weights[rng.randrange(65)] = 1e-17  # terms of very different sizes: the order of the additions shows
        t = legal.tallies(weights)
        ones = legal.tallies()
        played = legal.played_tiles()
        assert [len(a) for a in (t["tiles"], t["value"], t["jokers"], t["kept"])] == [len(played)] * 4
        assert t["kept"].dtype == np.float64 and t["tiles"].dtype == np.int64
        for i, tiles in enumerate(played):
            kept = core_of(rack).difference(core_of(tiles)).codes()
            assert t["tiles"][i] == len(tiles)
            assert t["value"][i] == core_of(tiles).value(0)
            assert t["jokers"][i] == tiles.jokers
            # exact: the same additions in the same order (not sum(), which compensates from Python 3.12 on)
            assert t["kept"][i] == functools.reduce(operator.add, (weights[c] for c in kept), 0.0)
            assert ones["kept"][i] == len(kept)
            checked += 1
    assert checked > 100


def test_played_tiles_of_chosen_plays_and_indexing() -> None:
    for legal, _ in _listings(30):
        every = legal.played_tiles()
        n = len(every)
        if n == 0:
            assert legal.played_tiles([]) == []
            with pytest.raises(IndexError, match="out of range for 0 plays"):
                legal[0]
            continue
        picks = [n - 1, 0, -1, n // 2]
        assert legal.played_tiles(picks) == [every[i] for i in picks]
        listed = list(legal)
        for i in (0, n - 1, -1, -n):
            assert legal[i] == listed[i]
            assert legal[i].tiles == listed[i].tiles and legal[i].value == listed[i].value


@pytest.mark.parametrize("call, message", [
    (lambda ps: ps.tallies([1.0] * 64), "65 floats, one per tile code (Tile.code), got 64"),
    (lambda ps: ps.tallies([[1.0] * 65]), "65 floats, one per tile code, got [[1.0"),
    (lambda ps: ps.tallies(2.0), "got 2.0"),
    (lambda ps: ps.tallies(["heavy"] * 65), "heavy"),
    (lambda ps: ps.played_tiles([0, 5]), "play index 5 out of range for 2 plays"),
    (lambda ps: ps.played_tiles([-3]), "play index -3"),
    (lambda ps: ps.played_tiles([0.5]), "0.5"),
    (lambda ps: ps.played_tiles(3), "3"),
    (lambda ps: ps["R4"], "R4"),
    (lambda ps: ps[True], "True"),
])
def test_bad_input_is_named(call: object, message: str) -> None:
    ps = plays("R1 R2 R3", "R4 R5 K9")
    with pytest.raises(RummikubError, match=re.escape(message)):
        call(ps)  # type: ignore[operator]


def test_index_out_of_range_is_an_index_error() -> None:
    ps = plays("R1 R2 R3", "R4 R5 K9")
    with pytest.raises(IndexError, match="play index 2 out of range for 2 plays"):
        ps[2]
    with pytest.raises(IndexError, match="play index -3"):
        ps[-3]
