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


def summary(xs: list[float]) -> dict[str, float]:
    """The count, median, p90, p99 and max of ``xs``."""
    return {"n": len(xs), "median": statistics.median(xs), "p90": percentile(xs, 0.9),
            "p99": percentile(xs, 0.99), "max": max(xs)}
