"""``_core.can_arrange``: arrange's yes/no answer for two multisets together (the hard bot's threat check), without
the melds."""

from __future__ import annotations

import random

import pytest

from rummikub import RuleSet, TileSet, _core
from rummikub._errors import TileCountError
from rummikub.tiles import core_of
from tests.helpers.positions import make_position


def test_agrees_with_arrange_on_threat_checks() -> None:
    """A valid table plus a few tiles drawn from the rest: the same answer and the same search states as
    ``arrange`` of the two together, whichever part holds which tiles; both answers occur."""
    rules = RuleSet()
    answers = set()
    for seed in range(30):
        pos = make_position(seed, rules, table_tiles=(24, 40), table_jokers=seed % 3, rack_size=14, label="threat")
        table = core_of(pos.table.tiles())
        extra = core_of(TileSet(random.Random(seed).sample(list(pos.rack.tiles()), 1 + seed % 4)))
        whole = _core.arrange(table.sum(extra), rules.params)
        want = (whole.table is not None, whole.stats.states)
        assert _core.can_arrange(table, extra, rules.params) == want
        assert _core.can_arrange(extra, table, rules.params) == want
        answers.add(want[0])
    assert answers == {True, False}


def test_small_cases() -> None:
    params = RuleSet().params
    run = core_of(TileSet.parse("R1 R2"))
    assert _core.can_arrange(run, core_of(TileSet.parse("R3")), params)[0]
    assert not _core.can_arrange(run, core_of(TileSet.parse("R4")), params)[0]
    assert _core.can_arrange(core_of(TileSet()), core_of(TileSet()), params) == (True, 0)


def test_refuses_what_no_tile_set_holds() -> None:
    params = RuleSet().params
    three = core_of(TileSet.parse("R1 R1 R1"))
    with pytest.raises(TileCountError, match="R1"):
        _core.can_arrange(three, core_of(TileSet()), params)  # the classic set has two copies of each tile
    with pytest.raises(TileCountError, match="7 copies"):
        _core.can_arrange(core_of(TileSet.parse("R1 " * 4)), core_of(TileSet.parse("R1 " * 4)), params)
