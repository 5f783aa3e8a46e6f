"""Benchmarks of whole bot games on one core: four medium bots, four hard bots (classic preset, 4 players,
the arena's own game loop with its frozen clock). Each round plays the same seeded games, so runs compare like
with like; ``extra_info`` records games per second and the mean number of turns.

    PYTHONPATH=python python -m pytest benchmarks/test_bench_bots.py                 # timings
    PYTHONPATH=python python benchmarks/test_bench_bots.py medium 200                # games/s
    PYTHONPATH=python python benchmarks/test_bench_bots.py medium 200 --profile      # where the time goes
    PYTHONPATH=python python benchmarks/test_bench_bots.py hard 20 --cprofile        # cProfile's top functions
    PYTHONPATH=python python benchmarks/test_bench_bots.py table                     # docs/performance.md's table
    PYTHONPATH=python valgrind --tool=callgrind python benchmarks/test_bench_bots.py medium 40   # instructions
    (minus the same with 0 games: the imports and two warm-up games)

``--profile`` times, without a profiler's overhead on every call, the parts of a game (``rummikub.arena.profile_games``,
also ``rummikub arena --profile``): the search (every call into the core's searches), the legality check of each
committed turn, building views, drawing, the bots' own Python around their searches (the search's Python wrapper
included), and the rest (the game loop, applying actions, records). Each part's time excludes the parts it calls.
Prefix ``taskset -c 0`` to pin one core; times are CPU time of this process.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from typing import Any

import pytest

from rummikub.arena import play_game, profile_games


def play_games(bot: str, games: int, seed: int = 1, preset: str = "classic") -> list[int]:
    """Plays ``games`` 4-player games of four ``bot`` bots, each a different deal; returns each game's number of
    turns. (Game 4i of a tournament is deal i from the first seat: games 4i to 4i+3 play one deal from the four
    seats, alike when the four bots are.)"""
    return [play_game([bot] * 4, 4 * i, seed, preset).turns for i in range(games)]


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


def profile_report(bot: str, games: int) -> str:
    """Plays ``games`` games and returns the table of where their time went (``--profile``; the same as
    ``rummikub arena --players BOT,BOT,BOT,BOT --preset classic --games N --profile``)."""
    return profile_games([bot] * 4, games, seed=1, preset="classic").table()


def markdown_table(runs: tuple[tuple[str, int], ...] = (("medium", 200), ("hard", 20))) -> str:
    """The table of docs/performance.md (``table``): for each (bot, games), games per second and the share of
    each part of the profile."""
    from rummikub.arena import PROFILE_PARTS

    lines = ["| bots | games | games per second | " + " | ".join(PROFILE_PARTS) + " |",
             "|---|---|---|" + "---|" * len(PROFILE_PARTS)]
    for bot, games in runs:
        p = profile_games([bot] * 4, games, seed=1, preset="classic")
        shares = " | ".join(f"{100 * p.parts[part] / p.seconds:.1f}%" for part in PROFILE_PARTS)
        lines.append(f"| four `{bot}` | {games} | {games / p.seconds:.1f} | {shares} |")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - the command-line entry point
    if sys.argv[1:2] == ["table"]:
        print(markdown_table())
        sys.exit(0)
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
    if n:  # (0 games: the warm-up alone, the baseline of an instruction count)
        print(f"four {bot} bots: {n} games in {elapsed:.2f} s CPU = {n / elapsed:.1f} games/s")
