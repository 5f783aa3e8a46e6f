"""Regression guards on the search's deterministic work counters.

The counters (programme states) are identical on every machine, so unlike timings they can be asserted: each
budget below is the work the search did when it was set, plus 2%. A change that makes the search do more work
fails here; raise a budget only with the reason in the commit (and lower it when the search gets cheaper, so
that the guard keeps biting). ``benchmarks/search_counters.py`` prints the same counters on more positions.
"""

from __future__ import annotations

import resource
import sys
from collections.abc import Callable, Iterable

import pytest
from tests.helpers.positions import Position, class_positions, make_position

from rummikub import RuleSet, SearchLimitError, TileSet, _core
from rummikub.search import arrange, plays, solve
from rummikub.tiles import core_of

# Programme states summed over the positions of each case, plus 2%. How each budget moved, and why, is in the
# git log of this file.
BUDGETS = {
    "solve small": 12_046,
    "solve medium": 32_936,  # the joker home rule: one position's best play became illegal, one needs more runs
    "solve large": 45_431,
    "solve openings": 672,
    "solve 160-tile set": 59_293,
    "arrange 50 tiles": 4_527,
    "plays medium": 285_101,  # the plays are the rack tiles placed carried over a guide's moves (no dominance)
    "arrange 116 tiles, no partition": 960_922,
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
    return sum(_core.arrange(core_of(p.table.tiles()), rules.params).stats.states for p in tables)


# A multiset of the large preset that cannot be arranged: the depth-first search alone would walk about 56 million
# states to prove it; after its budget, the sweep's dominance proves it in under a million.
HARD_MULTISET = (
    "K1 K2 K2 K3 K3 K4 K5 K5 K5 K6 K7 K7 K8 K8 K9 K10 K10 K10 K13 K13 B1 B1 B2 B2 B3 B3 B3 B4 B4 B5 B5 B5 B6 B6 "
    "B7 B7 B7 B8 B9 B9 B9 B10 B11 B11 B12 B12 B13 B13 B13 O1 O1 O1 O2 O2 O2 O3 O3 O3 O4 O4 O4 O5 O5 O5 O6 O6 O6 O7 "
    "O7 O7 O8 O9 O9 O10 O10 O11 O12 O12 O12 O13 O13 R1 R1 R1 R2 R2 R2 R3 R3 R3 R4 R4 R4 R5 R5 R5 R6 R6 R6 R7 R7 R8 "
    "R8 R9 R10 R10 R11 R11 R11 R12 R12 R13 J J J J"
)


def _arranged_hard() -> int:
    rules = RuleSet.preset("large")
    found = _core.arrange(core_of(TileSet.parse(HARD_MULTISET)), rules.params)
    assert found.table is None
    return int(found.stats.states)


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
    "arrange 116 tiles, no partition": _arranged_hard,
}


@pytest.mark.parametrize("case", list(CASES))
def test_work_within_budget(case: str) -> None:
    states = CASES[case]()
    budget = BUDGETS[case] * 102 // 100
    assert states > 0
    assert states <= budget, f"{case}: {states:,} states, budget {budget:,} (see this module's docstring)"


def test_arrange_is_bounded_by_its_limit() -> None:
    """The multiset that once took half a minute and 3.5 GB is answered within the default limit, and a
    smaller limit raises SearchLimitError instead of searching on."""
    rules = RuleSet.preset("large")
    assert arrange(HARD_MULTISET, rules) is None
    with pytest.raises(SearchLimitError, match="search limit"):
        arrange(HARD_MULTISET, rules, limit=10_000)


def test_plays_limit_counts_memory() -> None:
    """A rack that plays in millions of ways is refused at the default limit by the memory its sets of placed
    tiles would hold, before the layer that would pass it is allocated (the whole process stays far under the
    limit's 1 GB)."""
    rules = RuleSet.preset("large")
    rack = ("K1 K2 K4 K6 K7 K9 K10 K12 K13 B1 B2 B3 B4 B5 B6 B8 B9 B10 B11 B12 B13 O1 O2 O4 O5 O7 O8 O10 O11 O13 "
            "R1 R3 R4 R6 R7 R9 R10 R12 R13")
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    with pytest.raises(SearchLimitError):
        len(plays("R1-13 | KJJ5 | B7 J J | O1-13 | K1-13", rack, rules=rules))
    if sys.platform.startswith("linux") and peak_before < 256 * 1024:
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 512 * 1024
