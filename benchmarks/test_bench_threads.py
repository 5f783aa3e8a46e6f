"""Searches across threads: ``solve_batch(..., threads=k)`` and ``plays()`` from a thread pool (every search
releases the GIL). The positions are the mid-game positions of seeded games between four medium bots (each
turn's table and the mover's rack, opened players only), so runs compare like with like. ``plays()`` runs on
the first 200 of them whose listing stays within 100,000 search states: one huge listing (some take millions)
would otherwise be most of the work and leave the other threads idle.

    PYTHONPATH=python python -m pytest benchmarks/test_bench_threads.py       # timings
    PYTHONPATH=python python benchmarks/test_bench_threads.py                 # the speed-up table
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from rummikub import Game, SearchLimitError, Table, TileSet
from rummikub.bots import get_bot
from rummikub.search import plays, solve_batch

THREADS = max(2, min(4, os.cpu_count() or 2))


def positions(games: int = 6, seed: int = 1) -> list[tuple[Table, TileSet]]:
    """(table, rack) of every turn of opened players in ``games`` classic 4-player games of medium bots."""
    out = []
    bot = get_bot("medium")
    for g in range(games):
        game = Game.new(players=4, preset="classic", seed=seed + g, first_player=0)
        while not game.is_over and game.turn < 400:
            p = game.current_player
            if game.opened(p) and len(game.table):
                out.append((game.table, game.rack(p)))
            game.apply(bot.choose(game.view(p)))
    return out


def batch_arrays(pos: list[tuple[Table, TileSet]]) -> tuple[Any, Any]:
    """The positions as solve_batch's (n, 65) count arrays."""
    return (np.array([t.tiles().to_counts() for t, _ in pos], dtype=np.int64),
            np.array([r.to_counts() for _, r in pos], dtype=np.int64))


def listable(pos: list[tuple[Table, TileSet]], count: int = 200, states: int = 100_000
             ) -> list[tuple[Table, TileSet]]:
    """The first ``count`` positions whose legal plays are listed within ``states`` search states."""
    out = []
    for table, rack in pos:
        try:
            len(plays(table, rack, limit=states))
        except SearchLimitError:
            continue
        out.append((table, rack))
    return out[:count]


def count_plays(pos: list[tuple[Table, TileSet]], threads: int) -> int:
    """Lists every position's legal plays, ``threads`` at a time; returns how many plays in all. The pool takes
    the positions in chunks (8 a thread, interleaved so that each holds large and small ones alike): a listing
    here takes about 0.1 ms, of the order of what a pool spends handing out one task."""
    def some(part: list[tuple[Table, TileSet]]) -> int:
        return sum(len(plays(table, rack, limit=None)) for table, rack in part)
    if threads == 1:
        return some(pos)
    parts = threads * 8
    with ThreadPoolExecutor(threads) as ex:
        return sum(ex.map(some, [pos[i::parts] for i in range(parts)]))


def batch_pool(tables: Any, racks: Any, threads: int) -> int:
    """solve_batch split into chunks over a Python thread pool (the alternative to ``threads=``)."""
    chunks = np.array_split(np.arange(len(tables)), threads * 8)
    with ThreadPoolExecutor(threads) as ex:
        found = ex.map(lambda ix: int(solve_batch(tables[ix], racks[ix])["tiles"].sum()), chunks)  # type: ignore
        return sum(found)


@pytest.fixture(scope="module")
def pos() -> list[tuple[Table, TileSet]]:
    return positions()


@pytest.mark.benchmark(group="threads: solve_batch")
@pytest.mark.parametrize("threads", [1, THREADS])
def test_solve_batch_threads(benchmark: Any, pos: list[tuple[Table, TileSet]], threads: int) -> None:
    tables, racks = batch_arrays(pos)
    out = benchmark(solve_batch, tables, racks, threads=threads)
    single = solve_batch(tables, racks)
    assert np.array_equal(np.asarray(out["tiles"]), np.asarray(single["tiles"])) and out["stats"] == single["stats"]


@pytest.mark.benchmark(group="threads: plays")
@pytest.mark.parametrize("threads", [1, THREADS])
def test_plays_threads(benchmark: Any, pos: list[tuple[Table, TileSet]], threads: int) -> None:
    some = listable(pos)
    total = benchmark(count_plays, some, threads)
    assert total == count_plays(some, 1) > 0


def _best(fn: Callable[[], object], rounds: int = 5) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


if __name__ == "__main__":  # pragma: no cover - the speed-up table
    k = int(sys.argv[1]) if len(sys.argv) > 1 else THREADS
    ps = positions()
    tables, racks = batch_arrays(ps)
    some = listable(ps)
    rows = [
        ("solve_batch, threads=k", lambda: solve_batch(tables, racks), lambda: solve_batch(tables, racks, threads=k)),
        ("solve_batch, Python pool", lambda: solve_batch(tables, racks), lambda: batch_pool(tables, racks, k)),
        ("plays(), Python pool", lambda: count_plays(some, 1), lambda: count_plays(some, k)),
    ]
    print(f"{len(ps)} positions (plays: {len(some)} of them), {k} threads on {os.cpu_count()} cores")
    for name, serial, parallel in rows:
        t1, tk = _best(serial), _best(parallel)
        print(f"{name:28s} 1 thread {t1 * 1e3:8.1f} ms   {k} threads {tk * 1e3:8.1f} ms   speed-up {t1 / tk:.2f}x")
