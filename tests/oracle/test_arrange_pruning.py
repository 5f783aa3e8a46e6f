"""Cross-checks of arrange's depth-first search, where it prunes, against the independent MILP oracle.

The search prunes a state that a state of the same depth which led nowhere dominates. The inputs here are
shaped like the hard bot's threat checks, where that pruning does most of its work: a valid table of 24-40 tiles plus a
few tiles drawn from those left over (a sampled hidden rack), arrangeable about three times in four. The search
must say "arrangeable" exactly when the oracle does, and return a partition of exactly the tiles given.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("scipy.optimize")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from tests.helpers.positions import make_position  # noqa: E402
from tests.helpers.verdicts import assert_arrange_agrees  # noqa: E402

from rummikub import RuleSet, Table, TileSet, _core  # noqa: E402
from rummikub.tiles import core_of  # noqa: E402


def threat_check(seed: int, extra: int, rules: RuleSet) -> TileSet:
    """A table of 24-40 tiles (0-2 jokers) and `extra` tiles drawn from the rest, as one multiset."""
    pos = make_position(seed, rules, table_tiles=(24, 40), table_jokers=seed % 3, rack_size=14, label="threat")
    rack = list(pos.rack.tiles())
    return pos.table.tiles() | TileSet(random.Random(seed).sample(rack, min(extra, len(rack))))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), extra=st.integers(1, 4))
def test_pruned_search_matches_oracle(seed: int, extra: int) -> None:
    assert_arrange_agrees(threat_check(seed, extra, RuleSet()), RuleSet())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), extra=st.integers(1, 3))
def test_pruned_search_matches_oracle_large_set(seed: int, extra: int) -> None:
    rules = RuleSet.preset("large")
    assert_arrange_agrees(threat_check(seed, extra, rules), rules)


def test_cases_exercise_the_pruning() -> None:
    """The cases above are the kind the pruning acts on: both answers occur, and many searches backtrack (take
    more than twice the states of one path through the 65 steps of the classic rules)."""
    rules = RuleSet()
    cases = [threat_check(seed, 1 + seed % 4, rules) for seed in range(40)]
    found = backtracked = 0
    for tiles in cases:
        out = _core.arrange(core_of(tiles), rules.params)
        found += out.table is not None
        backtracked += out.stats.states > 2 * 65
    assert 0 < found < len(cases)
    assert backtracked >= 5
    for tiles in cases[:12]:
        assert_arrange_agrees(tiles, rules)


def test_the_oracle_confirms_infeasible_without_presolve() -> None:
    """A threat check on which HiGHS's presolve reported "infeasible" though the tiles split into sets (B7 J J
    B10 among them): the oracle re-solves an infeasible answer without presolve, so both sides agree."""
    tiles = TileSet.parse("K2 K2 K3 K3 K4 K4 K5 K5 K6 K6 K10 K11 K11 K12 B7 B10 B11 B12 O10 O11 O12 R1 R2 R2 R3 R3 "
                          "R4 R4 R5 R10 R11 R11 R12 J J")
    assert_arrange_agrees(tiles, RuleSet())


def game_threat_check(seed: int, extra: int, rules: RuleSet) -> tuple[TileSet, TileSet]:
    """The hard bot's threat check as its games ask it: a table of 40-60 tiles holding both jokers, and `extra`
    tiles drawn from the rest (a sampled hidden rack), as the two multisets ``can_arrange`` takes."""
    pos = make_position(seed, rules, table_tiles=(40, 60), table_jokers=2, rack_size=14, label="game-threat")
    rack = list(pos.rack.tiles())
    return pos.table.tiles(), TileSet(random.Random(seed).sample(rack, min(extra, len(rack))))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), extra=st.integers(1, 4))
def test_can_arrange_matches_oracle_on_game_threat_checks(seed: int, extra: int) -> None:
    """``can_arrange`` (what the hard bot asks) says "arrangeable" exactly when the oracle does, on tables as
    large as its games' and both jokers free."""
    from tests.helpers import oracle as O  # (scipy: imported by the oracle tests only)

    rules = RuleSet()
    table, more = game_threat_check(seed, extra, rules)
    tiles = table | more
    inst = O.instance(Table(), tiles, rules.replace(joker_retrieval="free"), True)
    want = O.feasible(inst, O.counts_of(tiles))
    found, _ = _core.can_arrange(core_of(table), core_of(more), rules.params)
    assert found == want, f"can_arrange({table} + {more}) = {found}, oracle says arrangeable={want}"


@pytest.mark.parametrize("seed", range(8))
def test_guided_can_arrange_matches_oracle(seed: int) -> None:
    """``can_arrange`` guided by the arrangements of the same table with other racks (the hard bot's checks of one
    move share their guides) says "arrangeable" exactly when the oracle does."""
    from tests.helpers import oracle as O  # (scipy: imported by the oracle tests only)

    rules = RuleSet()
    extra = 1 + seed % 4
    table, more = game_threat_check(seed, extra, rules)
    rack = list(make_position(seed, rules, table_tiles=(40, 60), table_jokers=2, rack_size=14,
                              label="game-threat").rack.tiles())
    guides = _core.ArrangeGuides()
    for other in range(1, 4):
        sample = TileSet(random.Random(seed + other).sample(rack, min(extra, len(rack))))
        _core.can_arrange(core_of(table), core_of(sample), rules.params, None, guides)
    tiles = table | more
    inst = O.instance(Table(), tiles, rules.replace(joker_retrieval="free"), True)
    want = O.feasible(inst, O.counts_of(tiles))
    guided, _ = _core.can_arrange(core_of(table), core_of(more), rules.params, None, guides)
    assert guided == want, f"guided can_arrange({table} + {more}) = {guided}, oracle says arrangeable={want}"


def test_game_threat_checks_take_both_answers() -> None:
    """The cases above are arrangeable often, not always (each answer comes from the search, not a shortcut)."""
    rules = RuleSet()
    answers = [_core.can_arrange(*map(core_of, game_threat_check(seed, 1 + seed % 4, rules)), rules.params)
               for seed in range(40)]
    assert 0 < sum(found for found, _ in answers) < len(answers)
    assert all(states > 0 for _, states in answers)
