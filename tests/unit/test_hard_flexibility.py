"""The hard bot's flexibility of the kept tiles (HardBot._partners, summed in the core by _core.NeighbourSums) is
exactly, float for float, the loop it describes in Python: the bot's scores are compared exactly, so a sum made in
another order could flip a choice. Also: NeighbourSums refuses malformed tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import RuleSet, TileSet, _core
from rummikub._errors import RummikubError
from rummikub.bots.hard import _NEAR_OFF, _NEAR_ON, HardBot, _neighbours
from rummikub.tiles import core_of

_JOKER = 64


def _reference(rack: TileSet, unseen: _core.TileSet, numbers: int) -> list[float]:
    """The flexibility as HardBot._partners documents it, added in Python."""
    codes = set(core_of(rack).codes())
    codes.discard(_JOKER)
    counts = unseen.to_counts().tolist()
    out = [0.0] * (_JOKER + 1)
    for code in codes:
        near = 0.0
        for k, w in _neighbours(numbers)[code]:
            near += w * (_NEAR_ON[counts[k]] if k in codes else _NEAR_OFF[counts[k]])
        near /= 3.0
        out[code] = min(1.0, near)
    return out


@settings(max_examples=300, deadline=None)
@given(preset=st.sampled_from(["classic", "large"]), data=st.data())
def test_partners_are_the_python_sums(preset: str, data: st.DataObject) -> None:
    rules = RuleSet.preset(preset)
    full = rules.params.full_set().codes()
    picked = data.draw(st.lists(st.integers(0, len(full) - 1), unique=True, max_size=len(full)))
    split = data.draw(st.integers(0, len(picked)))
    rack = TileSet._wrap(_core.TileSet([full[i] for i in picked[:split]]))
    seen = _core.TileSet([full[i] for i in picked])  # the rack and some table tiles
    unseen = rules.params.full_set().difference(seen)
    got = HardBot._partners(rack, unseen, rules.numbers)
    assert got == _reference(rack, unseen, rules.numbers)
    assert all(0.0 <= x <= 1.0 for x in got) and got[_JOKER] == 0.0


def test_partners_of_a_rack_with_close_tiles() -> None:
    rules = RuleSet.preset("classic")
    rack = TileSet.parse("R1 R2 R4 K2 B2 J")
    unseen = rules.params.full_set().difference(core_of(rack))
    got = HardBot._partners(rack, unseen, rules.numbers)
    on, off = _NEAR_ON, _NEAR_OFF  # by unseen copies: one of each rack tile, two of the others
    code = {t: TileSet.parse(t)._s.codes()[0] for t in ("R1", "R2", "R4", "K2", "B2")}
    # R2: R1 (rack), R3, R4 (rack, weight 0.5), then K2 (rack), B2 (rack), O2
    assert got[code["R2"]] == min(1.0, (0.0 + on[1] + off[2] + 0.5 * on[1] + on[1] + on[1] + off[2]) / 3.0) == 1.0
    # R1: R2 (rack), R3 (weight 0.5), then K1, B1, O1
    assert got[code["R1"]] == (0.0 + on[1] + 0.5 * off[2] + off[2] + off[2] + off[2]) / 3.0
    # K2: K1, K3, K4 (weight 0.5), then B2 (rack), O2, R2 (rack)
    assert got[code["K2"]] == (0.0 + off[2] + off[2] + 0.5 * off[2] + on[1] + off[2] + on[1]) / 3.0
    assert sum(x > 0.0 for x in got) == 5 and got[_JOKER] == 0.0


@pytest.mark.parametrize("args", [
    ([[]] * 63, [0.0] * 8, [0.0] * 8),
    ([[(64, 1.0)]] + [[]] * 63, [0.0] * 8, [0.0] * 8),
    ([[(-1, 1.0)]] + [[]] * 63, [0.0] * 8, [0.0] * 8),
    ([[]] * 64, [0.0] * 7, [0.0] * 8),
])
def test_neighbour_sums_refuse_malformed_tables(args: tuple[list[list[tuple[int, float]]], list[float],
                                                            list[float]]) -> None:
    with pytest.raises(RummikubError):
        _core.NeighbourSums(*args, 3.0, 1.0)


def test_neighbour_sums_are_never_made_without_their_tables() -> None:
    """``NeighbourSums.__new__`` alone (as copy and pickle call it) constructs, so it needs the tables too."""
    with pytest.raises(TypeError):
        _core.NeighbourSums.__new__(_core.NeighbourSums)
    made = _core.NeighbourSums.__new__(_core.NeighbourSums, [[]] * 64, [0.0] * 8, [0.0] * 8, 3.0, 1.0)
    assert made.of(_core.TileSet([0, 1]), _core.TileSet([2])) == [0.0] * 65
