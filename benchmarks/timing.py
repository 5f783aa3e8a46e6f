"""Timing helpers shared by the benchmark suites: the best of a few calls per item, and the summary statistics
the result tables report (median, p90, p99, max)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


def time_each(fn: Callable[[Any], Any], items: list[Any], repeat: int) -> list[float]:
    """Seconds per item: the best of ``repeat`` calls of ``fn(item)``."""
    out = []
    for item in items:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            fn(item)
            best = min(best, time.perf_counter_ns() - t0)
        out.append(best / 1e9)
    return out


def time_side_by_side(fns: list[Callable[[Any], Any]], items: list[Any], repeats: list[int]) -> list[list[float]]:
    """Seconds per item for each of ``fns``: the best of ``repeats[k]`` calls of ``fns[k](item)``, the functions
    timed one after the other on each item. They are timed within moments of each other, so that a change in the
    host's speed during the run weighs on all of them alike and leaves their ratio as it was."""
    out: list[list[float]] = [[] for _ in fns]
    for item in items:
        for k, fn in enumerate(fns):
            out[k] += time_each(fn, [item], repeats[k])
    return out


def summary(xs: list[float]) -> dict[str, float]:
    """The count, median, p90, p99 and max of ``xs``."""
    return {"n": len(xs), "median": statistics.median(xs), "p90": percentile(xs, 0.9),
            "p99": percentile(xs, 0.99), "max": max(xs)}
