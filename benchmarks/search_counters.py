"""Deterministic work counters of the search on the benchmark positions (no timing).

    PYTHONPATH=python python benchmarks/search_counters.py [positions per class]

Prints, per class of test_bench_search.py (and the 160-tile set with 2 jokers on the table and 2 on the rack),
the total and median programme states and transitions of ``solve`` (over the positions with a play: the
counters come with the play), then each class's median states by the jokers of the position. The counts are
identical on every machine, so they compare algorithmic changes without timing noise (the timings are
pytest-benchmark's job).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root: tests.helpers
from tests.helpers.positions import Position, class_positions, make_position  # noqa: E402

from rummikub import RuleSet  # noqa: E402
from rummikub.search import solve  # noqa: E402


def main(count: int) -> None:
    classes = {name: class_positions(name, count) for name in ("small", "medium", "large", "openings")}
    classes["large-set"] = [make_position(i, RuleSet.preset("large"), table_tiles=(30, 50), table_jokers=2,
                                          rack_jokers=2, label="large-set") for i in range(max(1, count // 2))]
    print(f"{'class':10s} {'n':>4s} {'states total':>13s} {'median':>7s} {'max':>9s} {'transitions':>12s} {'runs':>6s}")
    by_jokers: dict[str, dict[str, list[int]]] = {}
    for name, positions in classes.items():
        states, transitions, runs = [], 0, 0
        kinds: dict[str, list[int]] = {kind: [] for kind in JOKER_KINDS}
        for p in positions:
            play = solve(p.table, p.rack, rules=p.rules, opened=p.opened, objective=p.objective, limit=None)
            if play is None:
                continue
            states.append(play.stats.states)
            transitions += play.stats.transitions
            runs += play.stats.runs
            kinds[_joker_kind(p)].append(play.stats.states)
        by_jokers[name] = kinds
        print(f"{name:10s} {len(states):4d} {sum(states):13,d} {statistics.median(states):7,.0f} {max(states):9,d} "
              f"{transitions:12,d} {runs:6,d}")
    print("\nmedian states by the jokers of the position (positions in brackets):")
    print(f"{'class':10s}" + "".join(f" {kind:>22s}" for kind in JOKER_KINDS))
    for name, kinds in by_jokers.items():
        cells = [f"{statistics.median(v):,.0f} ({len(v)})" if v else "-" for v in kinds.values()]
        print(f"{name:10s}" + "".join(f" {cell:>22s}" for cell in cells))


JOKER_KINDS = ("no joker", "table joker", "rack joker", "both")


def _joker_kind(p: Position) -> str:
    """Which of JOKER_KINDS a position is: jokers on its table, on its rack, both or none."""
    on_table = any(tile.is_joker for meld in p.table for tile in meld)
    return JOKER_KINDS[on_table + 2 * (p.rack.jokers > 0)]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
