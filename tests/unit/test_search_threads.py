"""solve_batch's ``threads``: the same answers and counters whatever the number of workers."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummikub import RuleSet, RummikubError, TileSet
from rummikub.search import solve_batch


def _batch(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    full = TileSet.full(RuleSet()).tiles()
    tables, racks = [], []
    for _ in range(n):
        rng.shuffle(full)
        tables.append(TileSet(full[:12]).to_counts())
        racks.append(TileSet(full[12:20]).to_counts())
    return np.array(tables, dtype=np.int64), np.array(racks, dtype=np.int64)


@pytest.mark.parametrize("threads", [2, 3, 7, 64])
def test_threads_give_the_single_thread_answers(threads: int) -> None:
    tables, racks = _batch(40, threads)
    one = solve_batch(tables, racks, opened=False)
    many = solve_batch(tables, racks, opened=False, threads=threads)
    for key in ("found", "played", "tiles", "value", "key"):
        assert np.array_equal(one[key], many[key]), key  # type: ignore[arg-type]
    assert one["stats"] == many["stats"]
    assert int(np.asarray(one["tiles"]).sum()) > 0


@pytest.mark.parametrize("bad", [0, -1, 257, True, 1.5, "2"])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    tables, racks = _batch(2, 1)
    with pytest.raises(RummikubError, match="threads"):
        solve_batch(tables, racks, threads=bad)  # type: ignore[arg-type]


def test_an_empty_batch_with_threads() -> None:
    empty = np.zeros((0, 65), dtype=np.int64)
    assert len(solve_batch(empty, empty, threads=4)["found"]) == 0  # type: ignore[arg-type]
