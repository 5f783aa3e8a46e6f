"""Benchmarks of the exact search (issue 3), against rummikub-solver on the same positions in the same run.

Positions are reproducible from seeds (tests/helpers/positions.py): tables built from random valid sets (every third
with a joker) and racks of 14 from the remaining tiles, in classes small (20-29 table tiles), medium
(30-39), large (40-50) and openings (empty table, not opened); plus the 160-tile set with 4 jokers, arrange
of 50-tile tables and plays() on medium tables.

``pytest benchmarks -k search`` times everything (pytest-benchmark groups ``search-<class>``) and writes
benchmarks/results/search.md: per class the median, p90, p99 and max time of one call (each position timed
as the best of 3 calls), the peer's times on the first of those positions and the ratio of the medians. The
ratio's two sides are timed side by side, position by position (our best of 3 calls, then the peer's one call:
a repeated call of the peer's on the same position is far faster than a new one, HiGHS starting warm), so that
the host's changes of speed during a run weigh on both alike.
``pytest benchmarks --benchmark-disable`` runs each benchmark once on a few positions, as a smoke test.
The peer is skipped cleanly when rummikub-solver is not installed.

Targets (reported, not asserted): mid-game median >= 1000x faster than the peer; p99 < 1 ms on every class of
14-tile racks; openings median < 5 us; arrange of a 50-tile table median < 5 us; 160-tile set with 4 jokers
p99 < 10 ms; plays() of a 14-tile rack on a medium table median < 0.5 ms.
"""

from __future__ import annotations

import io
import os
import platform
import statistics
import sys
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root: tests.helpers
from benchmarks.timing import summary, time_each, time_side_by_side  # noqa: E402
from tests.helpers.positions import Position, class_positions, make_position  # noqa: E402

import peer as peer_mod  # noqa: E402

from rummikub import RuleSet  # noqa: E402
from rummikub.search import arrange, plays, solve  # noqa: E402

COUNT = int(os.environ.get("RUMMIKUB_BENCH_POSITIONS", "300"))  # positions per class
PEER_COUNT = int(os.environ.get("RUMMIKUB_BENCH_PEER", "40"))  # of those, how many the peer also solves
QUICK_COUNT = 5
REPEAT = 3
RESULTS = Path(__file__).resolve().parent / "results" / "search.md"

_rows: dict[str, dict[str, Any]] = {}








def _quick(benchmark: Any) -> bool:
    return bool(getattr(benchmark, "disabled", False))


def _solve(pos: Position) -> Any:
    # No state limit: the benchmark times the exact search, tail included (the 160-tile tail needs >6M states).
    return solve(pos.table, pos.rack, rules=pos.rules, opened=pos.opened, objective=pos.objective, limit=None)


def _peer_solver(rules: RuleSet) -> Any:
    if not peer_mod.available():
        return None
    with redirect_stdout(io.StringIO()):  # HiGHS prints a banner once
        return peer_mod.PeerSolver(rules)


def _peer_solve(peer: Any, pos: Position) -> int:
    with redirect_stdout(io.StringIO()):
        return int(peer.solve(pos.table, pos.rack, pos.opened))


def _record(name: str, core: list[float], peer: tuple[list[float], list[float]] | None = None, note: str = "") -> None:
    """A row of the table: the core's times on every position; with ``peer``, the core's and the peer's times on
    the same positions, timed side by side (time_side_by_side), whose medians give the ratio."""
    row: dict[str, Any] = {"core": summary(core), "note": note}
    if peer:
        core_same, peer_times = peer
        row["peer"] = summary(peer_times)
        row["core_same"] = summary(core_same)
        row["ratio"] = row["peer"]["median"] / row["core_same"]["median"]
    _rows[name] = row


@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    yield
    if _rows and all(r["core"]["n"] > QUICK_COUNT for r in _rows.values()):
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(_report())


def _us(x: float) -> str:
    return f"{x * 1e6:,.1f}"


def _report() -> str:
    lines = ["# Search benchmarks", "",
             f"`pytest benchmarks -k search` on {platform.machine()} / Python {platform.python_version()}. "
             f"Times in microseconds per call "
             f"(each position: best of {REPEAT} calls, through the public Python API). Peer: rummikub-solver "
             "(HiGHS) on the first positions of each class, same run; ratio = peer median / core median on "
             "those same positions, the two timed side by side (position by position).", "",
             "| class | n | median | p90 | p99 | max | peer n | peer median | peer p90 | peer max | ratio | note |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in _rows.items():
        c = r["core"]
        p = r.get("peer")
        peer_cells = (f"{p['n']} | {_us(p['median'])} | {_us(p['p90'])} | {_us(p['max'])} | {r['ratio']:,.0f}x"
                      if p else "- | - | - | - | -")
        lines.append(f"| {name} | {c['n']} | {_us(c['median'])} | {_us(c['p90'])} | {_us(c['p99'])} | "
                     f"{_us(c['max'])} | {peer_cells} | {r['note']} |")
    lines += ["", "Targets: mid-game (small/medium/large) median >= 1000x faster than the peer; p99 < 1 ms on "
              "small, medium, large, openings and arrange50; openings and arrange50 median < 5 us; large-set "
              "(160 tiles, 4 jokers) p99 < 10 ms; plays-medium median < 0.5 ms.", ""]
    return "\n".join(lines)


# --- solve() per class, with the peer on the same positions -----------------------------------------------

@pytest.mark.parametrize("name", ["small", "medium", "large", "openings"])
def test_bench_solve_class(benchmark: Any, name: str) -> None:
    quick = _quick(benchmark)
    positions = class_positions(name, QUICK_COUNT if quick else COUNT)
    benchmark.group = f"search-{name}"
    benchmark.extra_info["positions"] = len(positions)
    benchmark.pedantic(lambda: [_solve(p) for p in positions], rounds=1 if quick else 3, iterations=1)
    found = sum(_solve(p) is not None for p in positions)
    assert found > 0  # the classes are built so that most racks can play something
    core = time_each(_solve, positions, 1 if quick else REPEAT)
    side_by_side = None
    peer = _peer_solver(RuleSet())
    if peer is not None:
        sub = positions[: QUICK_COUNT if quick else PEER_COUNT]
        core_same, peer_times = time_side_by_side([_solve, lambda p: _peer_solve(peer, p)], sub,
                                                  [1 if quick else REPEAT, 1])
        side_by_side = (core_same, peer_times)
        # the peer never places more tiles than the exact search (it may place fewer: it is not exact)
        for p in sub:
            ours = _solve(p)
            assert _peer_solve(peer, p) <= (0 if ours is None else len(ours.tiles)) or p.table.tiles().jokers
    _record(name, core, side_by_side, f"{found}/{len(positions)} positions have a play")


# --- 160-tile set with 4 jokers ---------------------------------------------------------------------------

def test_bench_large_set_4_jokers(benchmark: Any) -> None:
    quick = _quick(benchmark)
    rules = RuleSet.preset("large")
    n = QUICK_COUNT if quick else max(QUICK_COUNT, COUNT // 6)
    positions = [make_position(i, rules, table_tiles=(30, 50), table_jokers=2, rack_jokers=2, label="large-set")
                 for i in range(n)]
    benchmark.group = "search-large-set"
    benchmark.pedantic(lambda: [_solve(p) for p in positions], rounds=1, iterations=1)
    core = time_each(_solve, positions, 1)  # some positions take seconds: one call each
    peer = _peer_solver(rules)
    side_by_side = None
    if peer is not None:
        core_same, peer_times = time_side_by_side([_solve, lambda p: _peer_solve(peer, p)],
                                                  positions[: QUICK_COUNT if quick else PEER_COUNT], [1, 1])
        side_by_side = (core_same, peer_times)
    _record("large-set (160, 4 jokers)", core, side_by_side, "2 jokers on the table, 2 on the rack")


# --- arrange of a 50-tile table ---------------------------------------------------------------------------

def test_bench_arrange_50(benchmark: Any) -> None:
    quick = _quick(benchmark)
    rules = RuleSet()
    tables = [make_position(i, rules, table_tiles=(50, 50), table_jokers=i % 3, rack_size=1, label="arrange50")
              .table.tiles() for i in range(QUICK_COUNT if quick else COUNT)]
    benchmark.group = "search-arrange50"
    benchmark.pedantic(lambda: [arrange(t, rules) for t in tables], rounds=1 if quick else 3, iterations=1)
    assert all(arrange(t, rules) is not None for t in tables)  # built from valid sets
    core = time_each(lambda t: arrange(t, rules), tables, 1 if quick else REPEAT)
    _record("arrange50", core, None, "50 tiles, 0-2 jokers")


# --- plays() of a 14-tile rack on a medium table ---------------------------------------------------------

def test_bench_plays_medium(benchmark: Any) -> None:
    quick = _quick(benchmark)
    positions = class_positions("medium", QUICK_COUNT if quick else COUNT // 3, base_seed=10_000)
    benchmark.group = "search-plays-medium"
    benchmark.pedantic(lambda: [len(plays(p.table, p.rack, rules=p.rules)) for p in positions], rounds=1,
                       iterations=1)
    counts = [len(plays(p.table, p.rack, rules=p.rules)) for p in positions]
    core = time_each(lambda p: len(plays(p.table, p.rack, rules=p.rules)), positions, 1 if quick else REPEAT)
    _record("plays-medium", core, None, f"median {statistics.median(counts):.0f} plays, max {max(counts)}")
