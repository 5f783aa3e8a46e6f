"""The arena: seeded tournaments between bots, measured the way engine authors measure engines.

Game ``i`` of a tournament seeded ``s`` deals from a seed derived from ``(s, i // players)``: each deal is
played ``players`` times with the line-up rotated one seat each time (seat 0 always starts), so every bot plays
every seat of every deal and no bot profits from its seat or from a lucky deal. Each bot gets its own seed
derived from ``(s, i, seat)``. Games run in worker processes and are put back in game order, and the turn clock
is frozen, so a tournament's results are identical whatever the number of workers or the machine's speed.

>>> result = run_arena(["medium", "easy"], games=4, seed=1, preset="pressman-2015", jobs=1)
>>> result.games, sorted(result.summary()["bots"])
(4, ['easy', 'medium'])
>>> run_arena(["medium", "easy"], games=4, seed=1, preset="pressman-2015", jobs=2).games_digest() == result.games_digest()
True
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TextIO

from ._errors import IllegalMoveError, InvalidNotationError, RummikubError, SearchLimitError
from .bots import BotLike, fallback, get_bot
from .game import Game
from .rules import PRESETS, RuleSet

__all__ = ["GameResult", "ArenaResult", "play_game", "run_arena", "wilson_interval", "elo_ratings",
           "elo_from_score", "add_arena_parser", "arena_main", "derive_seed"]

_MAX_TURNS = 5000


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across Python versions and processes).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)
    True
    """
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _frozen_clock() -> float:
    return 0.0


@dataclass(frozen=True)
class GameResult:
    """One finished arena game. ``seats[s]`` is the bot name at seat ``s`` (seat 0 starts); ``scores`` and
    ``win_shares`` are per seat; ``illegal`` counts refused answers per seat (each replaced by a draw/pass)."""

    index: int
    seed: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[Fraction, ...]
    turns: int
    termination: str
    illegal: tuple[int, ...]
    seconds: float = field(default=0.0, compare=False)

    def win_share(self, seat: int) -> Fraction:
        """The part of the win that ``seat`` gets."""
        return Fraction(1, len(self.winners)) if seat in self.winners else Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (scores as exact fraction strings)."""
        return {"index": self.index, "seed": self.seed, "seats": list(self.seats), "winners": list(self.winners),
                "scores": [str(s) for s in self.scores], "turns": self.turns, "termination": self.termination,
                "illegal": list(self.illegal)}


def lineup(players: Sequence[str], index: int) -> tuple[str, ...]:
    """The bots by seat for game ``index``: the line-up rotated by ``index`` seats.

    >>> lineup(["hard", "medium", "easy", "easy"], 1)
    ('easy', 'hard', 'medium', 'easy')
    """
    n = len(players)
    return tuple(players[(s - index) % n] for s in range(n))


def play_game(players: Sequence[str], index: int = 0, seed: int = 0, preset: str | RuleSet = "classic") -> GameResult:
    """Plays game ``index`` of a tournament seeded ``seed`` between ``players`` (bot names, the line-up before
    rotation) and returns its result. Bots see only their own :class:`~rummikub.game.PlayerView`.

    >>> r = play_game(["medium", "easy"], index=0, seed=1, preset="digital")
    >>> r.seats, sum(r.scores), r.illegal
    (('medium', 'easy'), Fraction(0, 1), (0, 0))
    """
    n = len(players)
    rules = preset if isinstance(preset, RuleSet) else RuleSet.preset(preset)
    seats = lineup(players, index)
    deal_seed = derive_seed(seed, index // n)
    bots: list[BotLike] = [get_bot(name, derive_seed(seed, index, s)) for s, name in enumerate(seats)]
    start = time.perf_counter()
    game = Game.new(players=n, rules=rules, seed=deal_seed, first_player=0, clock=_frozen_clock)
    illegal = [0] * n
    while not game.is_over:
        if game.turn > _MAX_TURNS:
            raise RummikubError(f"game {index} (seed {seed}) did not end in {_MAX_TURNS} turns")
        p = game.current_player
        view = game.view(p)
        try:
            action = bots[p].choose(view)
        except SearchLimitError:  # a position past the search's state limit: the bot draws (or passes)
            action = fallback(view)
        try:
            game.apply(action, p)
        except (IllegalMoveError, InvalidNotationError):  # refused or not an action: the turn is a draw
            illegal[p] += 1
            game.apply(fallback(view), p)
    outcome = game.outcome
    assert outcome is not None
    return GameResult(index=index, seed=deal_seed, seats=seats, winners=outcome.winners, scores=outcome.scores,
                      turns=game.turn, termination=outcome.termination.value, illegal=tuple(illegal),
                      seconds=time.perf_counter() - start)


def _play_chunk(args: tuple[tuple[str, ...], list[int], int, str | RuleSet]) -> list[GameResult]:
    players, indices, seed, preset = args
    return [play_game(players, i, seed, preset) for i in indices]


# ---- statistics ------------------------------------------------------------------------------------------

_Z95 = 1.959963984540054


def wilson_interval(successes: float, n: float, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``successes`` may be fractional (draws
    count half, shared wins their share).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_from_score(score: float) -> float:
    """The Elo difference that an expected score (0..1) means: ``400 log10(s / (1 - s))``, clamped at
    +-1000 for a perfect score.

    >>> round(elo_from_score(0.75), 1)
    190.8
    """
    score = min(max(score, 1e-3), 1 - 1e-3)
    return max(-1000.0, min(1000.0, 400 * math.log10(score / (1 - score))))


def elo_ratings(pairs: dict[tuple[str, str], tuple[float, int]], anchor: float = 1500.0) -> dict[str, float]:
    """Elo-style ratings (Bradley-Terry maximum likelihood, draws half a win) from pairwise results:
    ``pairs[(a, b)] = (points of a against b, games)``. The ratings average ``anchor``.

    >>> r = elo_ratings({("a", "b"): (75.0, 100)})
    >>> round(r["a"] - r["b"])  # 191 without the prior's pull towards the average
    190
    """
    names = sorted({n for ab in pairs for n in ab})
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for (a, b), (pts, n) in pairs.items():
        wins[a] += pts
        wins[b] += n - pts
        games[(a, b)] = games.get((a, b), 0.0) + n
        games[(b, a)] = games.get((b, a), 0.0) + n
    # A small prior (one draw against a virtual average player) keeps perfect scores finite.
    strength = {n: 1.0 for n in names}
    for _ in range(2000):
        new = {}
        for a in names:
            denom = 1.0 / (strength[a] + 1.0)
            for b in names:
                if b != a and games.get((a, b)):
                    denom += games[(a, b)] / (strength[a] + strength[b])
            new[a] = (wins[a] + 0.5) / denom
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new)) if new else 1.0
        new = {k: v / mean for k, v in new.items()}
        done = all(abs(new[k] - strength[k]) < 1e-10 * strength[k] for k in names)
        strength = new
        if done:
            break
    return {n: anchor + 400 * math.log10(strength[n]) for n in names}


@dataclass
class ArenaResult:
    """A tournament's games (in game order) and its timing; :meth:`summary` computes the statistics."""

    players: tuple[str, ...]
    preset: str
    seed: int
    results: list[GameResult]
    seconds: float = 0.0
    jobs: int = 1

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.results)

    def games_digest(self) -> str:
        """A hash of every game's result (not the timing): equal digests mean identical tournaments."""
        text = json.dumps([r.to_dict() for r in self.results], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def pairwise(self) -> dict[tuple[str, str], tuple[float, int]]:
        """Head-to-head points between different bots, game by game: a bot beats another when it won and the
        other did not, or neither won and it scored more (kept fewer points); equal is half a point each.
        Keys are ordered by the line-up; values are (points of the first, encounters)."""
        order = {name: i for i, name in reversed(list(enumerate(self.players)))}
        out: dict[tuple[str, str], list[float]] = {}
        for r in self.results:
            for i in range(len(r.seats)):
                for j in range(i + 1, len(r.seats)):
                    a, b = r.seats[i], r.seats[j]
                    if a == b:
                        continue
                    wa, wb = r.win_share(i), r.win_share(j)
                    if wa != wb:
                        pts = 1.0 if wa > wb else 0.0
                    elif r.scores[i] != r.scores[j]:
                        pts = 1.0 if r.scores[i] > r.scores[j] else 0.0
                    else:
                        pts = 0.5
                    if order[a] > order[b]:
                        a, b, pts = b, a, 1.0 - pts
                    acc = out.setdefault((a, b), [0.0, 0])
                    acc[0] += pts
                    acc[1] += 1
        return {k: (v[0], int(v[1])) for k, v in out.items()}

    def summary(self) -> dict[str, Any]:
        """Per bot: seats played, wins (shared wins in part), win rate with its 95% Wilson interval, mean
        score per game; head-to-head points with intervals and Elo differences; Elo-style ratings; mean game
        length; games per second."""
        bots: dict[str, dict[str, Any]] = {}
        for name in dict.fromkeys(self.players):
            seats = wins = 0.0
            score = Fraction(0)
            illegal = 0
            for r in self.results:
                for s, seat_name in enumerate(r.seats):
                    if seat_name == name:
                        seats += 1
                        wins += float(r.win_share(s))
                        score += r.scores[s]
                        illegal += r.illegal[s]
            lo, hi = wilson_interval(wins, seats)
            bots[name] = {"seats": int(seats), "wins": wins, "win_rate": wins / seats if seats else 0.0,
                          "win_ci95": [lo, hi], "mean_score": float(score / int(seats)) if seats else 0.0,
                          "illegal": illegal}
        pairs = self.pairwise()
        head = []
        for (a, b), (pts, n) in pairs.items():
            lo, hi = wilson_interval(pts, n)
            head.append({"bot": a, "opponent": b, "points": pts, "games": n, "score": pts / n if n else 0.0,
                         "score_ci95": [lo, hi], "elo_diff": elo_from_score(pts / n) if n else 0.0,
                         "elo_diff_ci95": [elo_from_score(lo), elo_from_score(hi)]})
        ratings = elo_ratings(pairs) if pairs else {name: 1500.0 for name in bots}
        for name in bots:
            bots[name]["elo"] = ratings.get(name, 1500.0)
        turns = sum(r.turns for r in self.results)
        return {"players": list(self.players), "preset": self.preset, "seed": self.seed, "games": self.games,
                "bots": bots, "head_to_head": head,
                "mean_turns": turns / self.games if self.games else 0.0,
                "terminations": {t: sum(1 for r in self.results if r.termination == t)
                                 for t in sorted({r.termination for r in self.results})},
                "digest": self.games_digest(),
                "timing": {"seconds": self.seconds, "jobs": self.jobs,
                           "games_per_second": self.games / self.seconds if self.seconds else 0.0}}

    def to_json(self, indent: int | None = 2) -> str:
        """The summary and every game's result as JSON."""
        data = self.summary()
        data["results"] = [r.to_dict() for r in self.results]
        return json.dumps(data, indent=indent)

    def table(self) -> str:
        """The results as a text table."""
        s = self.summary()
        n = len(self.players)
        lines = [f"{s['games']} games, {n} players, preset {s['preset']}, seed {s['seed']}: "
                 f"mean game {s['mean_turns']:.1f} turns, {s['timing']['games_per_second']:.1f} games/s "
                 f"({s['timing']['jobs']} job{'s' if s['timing']['jobs'] != 1 else ''})",
                 "",
                 f"{'bot':<12} {'seats':>6} {'wins':>8} {'win %':>7} {'95% CI':>15} {'score/game':>11} "
                 f"{'elo':>6}"]
        for name, b in sorted(s["bots"].items(), key=lambda kv: -kv[1]["elo"]):
            lo, hi = b["win_ci95"]
            lines.append(f"{name:<12} {b['seats']:>6} {b['wins']:>8.1f} {100 * b['win_rate']:>6.1f}% "
                         f"{f'{100 * lo:.1f}-{100 * hi:.1f}%':>15} {b['mean_score']:>11.2f} {b['elo']:>6.0f}")
        lines.append(f"(equal strength: {100 / n:.1f}% wins per seat)")
        if s["head_to_head"]:
            lines += ["", f"{'head to head':<22} {'games':>6} {'score':>7} {'95% CI':>15} {'elo diff':>9}"]
            for h in s["head_to_head"]:
                lo, hi = h["score_ci95"]
                lines.append(f"{h['bot'] + ' vs ' + h['opponent']:<22} {h['games']:>6} {100 * h['score']:>6.1f}% "
                             f"{f'{100 * lo:.1f}-{100 * hi:.1f}%':>15} {h['elo_diff']:>+9.0f}")
        illegal = sum(b["illegal"] for b in s["bots"].values())
        if illegal:
            lines.append(f"WARNING: {illegal} illegal answers (each replaced by a draw or pass)")
        return "\n".join(lines)


def _chunks(games: int, size: int) -> Iterator[list[int]]:
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def run_arena(players: Sequence[str], games: int, seed: int = 1, *, preset: str = "classic", jobs: int = 1,
              progress: bool = False, stream: TextIO | None = None) -> ArenaResult:
    """Plays ``games`` games between ``players`` (bot names; the same name may sit twice) in ``jobs`` worker
    processes (1: in this process) and returns the results in game order. ``progress`` shows a bar on
    ``stream`` (stderr by default).

    >>> r = run_arena(["medium", "easy"], games=2, seed=3, preset="digital")
    >>> [g.seats for g in r.results]
    [('medium', 'easy'), ('easy', 'medium')]
    """
    players = tuple(players)
    if preset not in PRESETS:
        raise RummikubError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
    rules = RuleSet.preset(preset)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise RummikubError(f"{len(players)} players ({', '.join(players)}): preset {preset!r} allows "
                            f"{rules.min_players}..{rules.max_players}")
    for name in dict.fromkeys(players):
        get_bot(name, 0)  # fail early on an unknown bot
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RummikubError(f"games must be a positive int, got {games!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise RummikubError(f"jobs must be a positive int, got {jobs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RummikubError(f"seed must be an int, got {seed!r}")
    bar = _progress(games, progress, stream)
    start = time.perf_counter()
    results: list[GameResult] = []
    try:
        if jobs == 1:
            for i in range(games):
                results.append(play_game(players, i, seed, preset))
                bar.update(1)
        else:
            size = max(1, min(len(players) * 4, games // (jobs * 8) or 1))
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                tasks = ((players, chunk, seed, preset) for chunk in _chunks(games, size))
                for chunk_results in pool.map(_play_chunk, tasks):
                    results.extend(chunk_results)
                    bar.update(len(chunk_results))
    finally:
        bar.close()
    results.sort(key=lambda r: r.index)
    return ArenaResult(players, preset, seed, results, time.perf_counter() - start, jobs)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool, stream: TextIO | None) -> Any:
    stream = stream or sys.stderr
    if not enabled or not stream.isatty():
        return _NoBar()
    try:
        tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return _NoBar()
    return tqdm(total=total, file=stream, unit="game", desc="arena")


# ---- command line ----------------------------------------------------------------------------------------


def add_arena_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Adds the ``arena`` subcommand to an ``argparse`` subparsers object; ``arena_main(args)`` runs it."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help="play seeded bot tournaments and report wins, confidence intervals and Elo",
        description="Plays seeded games between bots (seat rotation, each deal played from every seat) in "
                    "parallel worker processes and prints a results table.")
    p.add_argument("--players", default="hard,medium,easy,easy",
                   help="comma-separated bots, one per seat (easy, medium, hard, or module:Name); "
                        "default hard,medium,easy,easy")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--preset", default="classic", help=f"rule preset: {', '.join(PRESETS)} (default classic)")
    p.add_argument("--json", metavar="PATH", help="also write the summary and every game's result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=arena_main)
    return p


def arena_main(args: argparse.Namespace) -> int:
    """Runs ``rummikub arena`` from parsed arguments; returns the exit status."""
    players = [s.strip() for s in str(args.players).split(",") if s.strip()]
    result = run_arena(players, args.games, args.seed, preset=args.preset, jobs=args.jobs,
                       progress=not args.quiet)
    print(result.table())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            fh.write(result.to_json())
            fh.write("\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rummikub.arena ...``: the arena without the rest of the command line."""
    parser = argparse.ArgumentParser(prog="rummikub")
    sub = parser.add_subparsers(dest="command", required=True)
    add_arena_parser(sub)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except RummikubError as exc:
        print(f"rummikub arena: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
