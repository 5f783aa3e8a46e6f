"""Regression guards on the search's deterministic work counters.

The counters (programme states) are identical on every machine, so unlike timings they can be asserted: each
budget below is the work the search did when it was set, plus 2%. A change that makes the search do more work
fails here; raise a budget only with the reason in the commit (and lower it when the search gets cheaper, so
that the guard keeps biting). ``benchmarks/search_counters.py`` prints the same counters on more positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from tests.helpers.positions import Position, class_positions, make_position

from rummikub import RuleSet, _core
from rummikub.search import plays, solve

# Programme states summed over the positions of each case when the budgets were last set (2026-11-30, when
# dominance became a matching over whole nodes; before, a node was only compared with the one-step weakenings of
# another: small 14,575, medium 40,987, large 79,838, the 160-tile set 114,967 and plays 306,710. At c9d9d8b,
# earlier that day, the solve cases took small 33,676, medium 98,782 and large 161,163 states; before
# free jokers became alike in the programme and the retrieval rule was first relaxed, small 19,446, medium
# 65,110, large 90,270 and the 160-tile set 476,151, then 123,198 before its sub-unit passes at every level;
# 114,518 before a dominance rule that cost more lookups than the states it saved was dropped; small 16,029,
# medium 44,303, large 81,581 and the 160-tile set 115,170 before rack tiles that need a joker were bounded by
# what the jokers can reach and every input of a position deepened under one floor).
BUDGETS = {
    "solve small": 13_095,
    "solve medium": 34_383,
    "solve large": 49_204,
    "solve openings": 672,
    "solve 160-tile set": 79_912,
    "arrange 50 tiles": 4_942,
    "plays medium": 287_503,
}


def _solved(positions: Iterable[Position]) -> int:
    total = 0
    for p in positions:
        play = solve(p.table, p.rack, rules=p.rules, opened=p.opened, objective=p.objective, limit=None)
        if play is not None:
            total += play.stats.states
    return total


def _arranged(count: int) -> int:
    rules = RuleSet()
    tables = [make_position(i, rules, table_tiles=(50, 50), table_jokers=i % 3, rack_size=1, label="arrange50")
              for i in range(count)]
    return sum(_core.arrange(p.table.tiles()._s, rules.params).stats.states for p in tables)


def _listed(positions: Iterable[Position]) -> int:
    return sum(plays(p.table, p.rack, rules=p.rules).stats.states for p in positions)


CASES: dict[str, Callable[[], int]] = {
    "solve small": lambda: _solved(class_positions("small", 40)),
    "solve medium": lambda: _solved(class_positions("medium", 40)),
    "solve large": lambda: _solved(class_positions("large", 40)),
    "solve openings": lambda: _solved(class_positions("openings", 40)),
    "solve 160-tile set": lambda: _solved(
        make_position(i, RuleSet.preset("large"), table_tiles=(30, 50), table_jokers=2, rack_jokers=2,
                      label="large-set") for i in range(8)),
    "arrange 50 tiles": lambda: _arranged(40),
    "plays medium": lambda: _listed(class_positions("medium", 10, base_seed=10_000)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_work_within_budget(case: str) -> None:
    states = CASES[case]()
    budget = BUDGETS[case] * 102 // 100
    assert states > 0
    assert states <= budget, f"{case}: {states:,} states, budget {budget:,} (see this module's docstring)"
