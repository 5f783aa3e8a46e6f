"""Benchmarks of whole bot games on one core: four medium bots, four hard bots (classic preset, 4 players,
the arena's own game loop with its frozen clock). Each round plays the same seeded games, so runs compare like
with like; ``extra_info`` records games per second and the mean number of turns.

    PYTHONPATH=python python -m pytest benchmarks/test_bench_bots.py                 # timings
    PYTHONPATH=python python benchmarks/test_bench_bots.py medium 200                # games/s
    PYTHONPATH=python python benchmarks/test_bench_bots.py medium 200 --profile      # where the time goes
    PYTHONPATH=python python benchmarks/test_bench_bots.py hard 20 --cprofile        # cProfile's top functions

``--profile`` times, without a profiler's overhead on every call, the parts of a game: the search (every call
into the core's searches), the legality check of each committed turn, building views, drawing, the bots' own
Python around their searches (the search's Python wrapper included), and the rest (the game loop, applying actions, records). Each part's time
excludes the parts it calls. Prefix ``taskset -c 0`` to pin one core; times are CPU time of this process.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from rummikub.arena import play_game


def play_games(bot: str, games: int, seed: int = 1, preset: str = "classic") -> list[int]:
    """Plays ``games`` 4-player games of four ``bot`` bots; returns each game's number of turns."""
    return [play_game([bot] * 4, i, seed, preset).turns for i in range(games)]


def _bench(benchmark: Any, bot: str, games: int, rounds: int) -> None:
    if benchmark.enabled:
        turns = benchmark.pedantic(play_games, args=(bot, games), rounds=rounds, iterations=1, warmup_rounds=0)
        mean = benchmark.stats.stats.mean
        benchmark.extra_info["games_per_second"] = games / mean
    else:
        turns = benchmark(play_games, bot, games)
    benchmark.extra_info["mean_turns"] = sum(turns) / len(turns)
    assert all(t > 0 for t in turns)


@pytest.mark.benchmark(group="bots: 4-player games (classic)")
def test_four_medium_bots(benchmark: Any) -> None:
    _bench(benchmark, "medium", games=20, rounds=3)


@pytest.mark.benchmark(group="bots: 4-player games (classic)")
def test_four_hard_bots(benchmark: Any) -> None:
    _bench(benchmark, "hard", games=5, rounds=2)


PARTS = ("search", "legality check", "views", "drawing", "bots", "the rest")


@contextmanager
def timed_parts() -> Iterator[dict[str, float]]:
    """While active, the CPU seconds spent in each of :data:`PARTS` (each part excluding the parts it calls),
    measured by wrapping the functions that make up a turn; the wrappers are removed on exit."""
    from rummikub import _core
    from rummikub.bots.easy import EasyBot
    from rummikub.bots.hard import HardBot
    from rummikub.bots.medium import MediumBot
    from rummikub.game import state

    totals = dict.fromkeys(PARTS, 0.0)
    stack: list[float] = []  # time spent in wrapped callees, per active wrapper
    clock = time.process_time

    def wrap(fn: Callable[..., Any], part: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            stack.append(0.0)
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = clock() - start
                inner = stack.pop()
                totals[part] += elapsed - inner
                if stack:
                    stack[-1] += elapsed
        return timed

    patches: list[tuple[Any, str, str]] = [(_core, name, "search") for name in
                                           ("solve", "all_plays", "arrange", "solve_batch", "check_position")]
    patches += [(state, "check_committed", "legality check"), (state.Game, "_view", "views"),
                (state.Game, "_draw", "drawing")]
    patches += [(cls, "choose", "bots") for cls in (EasyBot, MediumBot, HardBot)]
    saved = [(owner, name, owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name))
             for owner, name, _ in patches]
    for owner, name, part in patches:
        setattr(owner, name, wrap(getattr(owner, name), part))
    start = clock()
    try:
        yield totals
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)
        totals["the rest"] = clock() - start - sum(v for k, v in totals.items() if k != "the rest")


def profile_report(bot: str, games: int) -> str:
    """Plays ``games`` games and returns the table of where their time went (``--profile``)."""
    with timed_parts() as parts:
        play_games(bot, games)
    total = sum(parts.values())
    lines = [f"four {bot} bots, {games} classic 4-player games: {total:.2f} s CPU, {games / total:.1f} games/s",
             f"{'part':16s} {'seconds':>8s} {'share':>6s}"]
    for part in PARTS:
        lines.append(f"{part:16s} {parts[part]:8.3f} {parts[part] / total:6.1%}")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - the command-line entry point
    bot = sys.argv[1] if len(sys.argv) > 1 else "medium"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    if "--profile" in sys.argv:
        print(profile_report(bot, n))
        sys.exit(0)
    if "--cprofile" in sys.argv:
        prof = cProfile.Profile()
        start = time.process_time()
        prof.runcall(play_games, bot, n)
        elapsed = time.process_time() - start
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    else:
        play_games(bot, 2)  # warm up (imports, the search's scratch memory)
        start = time.process_time()
        play_games(bot, n)
        elapsed = time.process_time() - start
    print(f"four {bot} bots: {n} games in {elapsed:.2f} s CPU = {n / elapsed:.1f} games/s")
