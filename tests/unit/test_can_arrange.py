"""``_core.can_arrange``: arrange's yes/no answer for two multisets together (the hard bot's threat check), without
the melds."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub import RuleSet, TileSet, _core
from rummikub._errors import TileCountError
from rummikub.tiles import core_of
from tests.helpers.positions import make_position


def mirrored(tiles: _core.TileSet, numbers: int) -> _core.TileSet:
    """The tiles with every number n read as ``numbers + 1 - n`` (a run is a run, a group a group)."""
    m = _core.MAX_NUMBERS
    return _core.TileSet([c if c == _core.JOKER else c // m * m + numbers - 1 - c % m for c in tiles.codes()])


def test_agrees_with_arrange_on_threat_checks() -> None:
    """A valid table plus a few tiles drawn from the rest: the same answer as ``arrange`` of the two together, and
    the same search states as ``arrange`` of them, or of their mirror when the second part's tiles lie higher,
    whichever part holds which tiles; both answers and both directions occur."""
    rules = RuleSet()
    answers = set()
    directions = set()
    for seed in range(30):
        pos = make_position(seed, rules, table_tiles=(24, 40), table_jokers=seed % 3, rack_size=14, label="threat")
        table = core_of(pos.table.tiles())
        extra = core_of(TileSet(random.Random(seed).sample(list(pos.rack.tiles()), 1 + seed % 4)))
        whole = _core.arrange(table.sum(extra), rules.params)
        down = _core.arrange(mirrored(table.sum(extra), rules.params.numbers), rules.params)
        found = whole.table is not None
        assert (down.table is not None) == found
        for a, b in ((table, extra), (extra, table)):
            got = _core.can_arrange(a, b, rules.params)
            assert got in ((found, whole.stats.states), (found, down.stats.states))
            directions.add(got[1] == down.stats.states and got[1] != whole.stats.states)
        answers.add(found)
    assert answers == {True, False}
    assert directions == {True, False}


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


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), checks=st.integers(2, 8))
def test_guides_change_no_answer(seed: int, checks: int) -> None:
    """Threat checks as the hard bot makes them in one move (one table, several racks of 1-4 tiles drawn from the
    rest, with shared guides): each answer is the unguided search's, and a check repeated after the others is
    answered alike."""
    rules = RuleSet()
    rng = random.Random(seed)
    pos = make_position(seed, rules, table_tiles=(30, 60), table_jokers=seed % 3, rack_size=14, label="guided")
    table = core_of(pos.table.tiles())
    rack = list(pos.rack.tiles())
    guides = _core.ArrangeGuides()
    extras = [core_of(TileSet(rng.sample(rack, rng.randint(1, 4)))) for _ in range(checks)]
    for extra in extras + extras[:1]:
        want = _core.can_arrange(table, extra, rules.params)[0]
        assert _core.can_arrange(table, extra, rules.params, None, guides)[0] == want


def test_guides_follow_the_last_path() -> None:
    """A multiset checked again with the guides of its first check takes one state a step (13 numbers of 4 colour
    steps and a group step), where the first check took more; a failed check adds no path."""
    rules = RuleSet()
    seen = 0
    for seed in range(40):
        pos = make_position(seed, rules, table_tiles=(40, 60), table_jokers=2, rack_size=14, label="guided")
        table = core_of(pos.table.tiles())
        extra = core_of(TileSet(random.Random(seed).sample(list(pos.rack.tiles()), 3)))
        guides = _core.ArrangeGuides()
        found, first = _core.can_arrange(table, extra, rules.params, None, guides)
        again = _core.can_arrange(table, extra, rules.params, None, guides)
        if found and first > 65:
            assert again == (True, 65)
            seen += 1
        elif not found:
            assert again == (False, first)
    assert seen >= 3


def test_guides_must_be_arrange_guides() -> None:
    params = RuleSet().params
    run = core_of(TileSet.parse("R1 R2 R3"))
    with pytest.raises(TypeError, match="ArrangeGuides or None, got str"):
        _core.can_arrange(run, core_of(TileSet()), params, None, "guides")  # type: ignore[arg-type]
    assert _core.can_arrange(run, core_of(TileSet()), params, None, None) == _core.can_arrange(
        run, core_of(TileSet()), params)
