"""Deterministic work counters of the search on the benchmark positions (no timing).

    PYTHONPATH=python python benchmarks/search_counters.py [positions per class]

Prints, per class of test_bench_search.py (and the 160-tile set with 2 jokers on the table and 2 on the rack),
the total and median programme states and transitions of ``solve`` (over the positions with a play: the
counters come with the play). The counts are identical on every machine, so they compare algorithmic changes
without timing noise (the timings are pytest-benchmark's job).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root: tests.helpers
from tests.helpers.positions import class_positions, make_position  # noqa: E402

from rummikub import RuleSet  # noqa: E402
from rummikub.search import solve  # noqa: E402


def main(count: int) -> None:
    classes = {name: class_positions(name, count) for name in ("small", "medium", "large", "openings")}
    classes["large-set"] = [make_position(i, RuleSet.preset("large"), table_tiles=(30, 50), table_jokers=2,
                                          rack_jokers=2, label="large-set") for i in range(max(1, count // 2))]
    print(f"{'class':10s} {'n':>4s} {'states total':>13s} {'median':>7s} {'max':>9s} {'transitions':>12s} {'runs':>6s}")
    for name, positions in classes.items():
        states, transitions, runs = [], 0, 0
        for p in positions:
            play = solve(p.table, p.rack, rules=p.rules, opened=p.opened, objective=p.objective, limit=None)
            if play is None:
                continue
            states.append(play.stats.states)
            transitions += play.stats.transitions
            runs += play.stats.runs
        print(f"{name:10s} {len(states):4d} {sum(states):13,d} {statistics.median(states):7,.0f} {max(states):9,d} "
              f"{transitions:12,d} {runs:6,d}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
