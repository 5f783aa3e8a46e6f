"""A search's limit stops it at a point that depends only on the position and the limit.

The limit bounds a programme run's states and the bytes its layers hold. The layers are recycled through the
thread's scratch, so a layer left by an earlier, larger search has more room than this search grew; the limit
counts what the search itself allocates, so a search near its limit gives the same verdict whatever its thread
searched before (a bot's choices depend only on its view and seed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rummikub import SearchLimitError, plays, solve

# A position whose search holds about a hundred states, and a larger one searched in between.
TABLE = "R1 R2 R3 | K4 K5 K6 | B7 O7 R7 | O10 O11 O12 O13"
RACK = "R4 R5 R6 K7 K8 B1 B2 B3 O1 O2 J"
LARGER_TABLE = "R1-13 | K1-13 | B1-13 | O1-13"
LARGER_RACK = "R4 R5 K7 B1 B2 B3 O1 O2 O3 O4 O9 K9 R9 J J"


def _solve(limit: int) -> object:
    return solve(TABLE, RACK, limit=limit)


def _plays(limit: int) -> object:
    return len(plays(TABLE, RACK, limit=limit))


def _passes(search: Callable[[int], object], limit: int) -> bool:
    try:
        search(limit)
    except SearchLimitError:
        return False
    return True


def _stop_point(search: Callable[[int], object]) -> int:
    """Returns the smallest limit the search passes (verdicts are monotone in the limit)."""
    lo, hi = 1, 1 << 20
    while lo < hi:
        mid = (lo + hi) // 2
        if _passes(search, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


@pytest.mark.parametrize("search", [_solve, _plays], ids=["solve", "plays"])
def test_the_stop_point_does_not_depend_on_earlier_searches(search: Callable[[int], object]) -> None:
    before = _stop_point(search)
    assert before > 2  # (the search needs states: the limit matters)
    assert not _passes(search, before - 1)
    for _ in range(2):
        solve(LARGER_TABLE, LARGER_RACK, limit=None)  # (leaves its larger layers in this thread's scratch)
        assert _passes(search, before) and not _passes(search, before - 1)
    assert _stop_point(search) == before


def test_a_search_within_its_states_is_not_stopped_by_memory_left_from_larger_ones() -> None:
    play = solve(TABLE, RACK, limit=None)
    assert play is not None
    states = play.stats.states  # (one programme run: it holds at most these, and the start state)
    assert play.stats.runs == 1
    solve(LARGER_TABLE, LARGER_RACK, limit=None)
    again = solve(TABLE, RACK, limit=states + 1)
    assert again is not None and again.stats == play.stats
