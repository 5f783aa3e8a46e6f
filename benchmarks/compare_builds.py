"""Whole bot games of this build against a baseline build, side by side in one run: the same seeded games
(four bots of one kind, classic preset, 4 players, the arena's game loop), one core, rounds alternating between
the builds so that the host's drift weighs on both alike.

    PYTHONPATH=python python benchmarks/compare_builds.py --baseline ../base/python
    PYTHONPATH=python python benchmarks/compare_builds.py --baseline ../base/python --instructions

``--baseline`` is the ``python`` folder of another checkout with its extension built (``git worktree add
../base REV`` then ``tools/dev-build.sh`` there). Each measurement is a fresh process (``taskset -c CPU`` when
available) that plays two warm-up games, then times the games in CPU seconds. The table gives each build's
median games per second (with the range over the rounds) and the median of the per-round ratios.

``--instructions`` counts instructions instead, under ``valgrind --tool=callgrind``: the games' count minus a
run of the warm-up alone, per game. Counts are exact and repeatable, so one round is enough; they decide where
timings on a shared host cannot.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
THIS_BUILD = HERE.parent / "python"

# The child: warm-up games, then the timed games; prints the CPU seconds of the timed ones. It uses only
# ``rummikub.arena.play_game``, which every build has, so any two builds compare. Game 4 * i of a tournament is
# deal i from the first seat: four bots of one kind would play each deal four times alike from the four seats.
CHILD = """
import sys, time
from rummikub.arena import play_game
bot, games = sys.argv[1], int(sys.argv[2])
for i in range(2):
    play_game([bot] * 4, 4 * (10_000 + i), 1, "classic")
start = time.process_time()
for i in range(games):
    play_game([bot] * 4, 4 * i, 1, "classic")
print(time.process_time() - start)
"""


def _env(build: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(build)
    return env


def _pin(cpu: int | None) -> list[str]:
    return ["taskset", "-c", str(cpu)] if cpu is not None and shutil.which("taskset") else []


def cpu_seconds(build: Path, bot: str, games: int, cpu: int | None) -> float:
    """The CPU seconds ``games`` games of four ``bot`` bots take with the package at ``build``."""
    out = subprocess.run([*_pin(cpu), sys.executable, "-c", CHILD, bot, str(games)], env=_env(build),
                         check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def instructions(build: Path, bot: str, games: int) -> int:
    """The instructions ``games`` games of four ``bot`` bots execute with the package at ``build`` (callgrind's
    total for the process)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        # (a fixed hash seed: string hashing otherwise moves the count by about 1% from process to process)
        env = {**_env(build), "PYTHONHASHSEED": "0"}
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
                        CHILD, bot, str(games)], env=env, check=True, capture_output=True, text=True)
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"no instruction total in {out}")
        return int(found.group(1))


def _check_build(path: Path) -> Path:
    path = path.resolve()
    if not any((path / "rummikub").glob("_core*.so")):
        raise SystemExit(f"--baseline {path}: no built rummikub extension there (run tools/dev-build.sh in that "
                         "checkout)")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, help="the python folder of the baseline checkout")
    parser.add_argument("--bots", default="medium:200,hard:20",
                        help="kinds of bot and games per measurement (default medium:200,hard:20)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per build (default 5)")
    parser.add_argument("--cpu", type=int, default=0, help="the core to pin to (default 0; -1: no pinning)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead of timing")
    args = parser.parse_args(argv)
    baseline = _check_build(args.baseline)
    builds = {"this build": THIS_BUILD, "baseline": baseline}
    runs: list[tuple[str, int]] = []
    for item in args.bots.split(","):
        bot, _, games = item.partition(":")
        runs.append((bot, int(games or 20)))
    cpu = None if args.cpu < 0 else args.cpu
    if args.instructions:
        print("| bots | games | this build, instructions a game | baseline | ratio |\n|---|---|---|---|---|")
        for bot, games in runs:
            per = {name: (instructions(path, bot, games) - instructions(path, bot, 0)) / games
                   for name, path in builds.items()}
            print(f"| four `{bot}` | {games} | {per['this build'] / 1e6:.2f}M | {per['baseline'] / 1e6:.2f}M | "
                  f"{per['baseline'] / per['this build']:.2f}x |")
        return
    print(f"| bots | games | this build, games/s | baseline, games/s | ratio (median of {args.rounds} rounds) |\n"
          "|---|---|---|---|---|")
    for bot, games in runs:
        rates: dict[str, list[float]] = {name: [] for name in builds}
        for _ in range(args.rounds):
            for name, path in builds.items():
                rates[name].append(games / cpu_seconds(path, bot, games, cpu))
        ratios = [a / b for a, b in zip(rates["this build"], rates["baseline"])]
        cells = [f"{statistics.median(r):.1f} ({min(r):.1f}-{max(r):.1f})" for r in rates.values()]
        print(f"| four `{bot}` | {games} | {cells[0]} | {cells[1]} | {statistics.median(ratios):.2f}x |")


if __name__ == "__main__":
    main()
