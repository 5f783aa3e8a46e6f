"""The arena: seeded tournaments between bots, measured the way engine authors measure engines.

Game ``i`` of a tournament seeded ``s`` deals from a seed derived from ``(s, i // players)``: each deal is
played ``players`` times with the line-up rotated one seat each time (seat 0 always starts), so every bot plays
every seat of every deal and no bot profits from its seat or from a lucky deal. Each bot gets its own seed
derived from ``(s, i, seat)``. Games run in worker processes and are put back in game order, and the turn clock
is frozen, so a tournament's results are identical whatever the number of workers or the machine's speed.

External bots: a player ``cmd:COMMAND`` is a separate program (any language) that speaks the engine protocol
(docs/protocol.md) on its standard input and output: the arena starts it (no shell; the command is split like
a POSIX shell would), reads its ``hello``, sends it ``{"id": n, "type": "turn", "observation": {...}}`` on its
turns and reads ``{"id": n, "type": "result", "action": {...}}`` within ``move_seconds``. A crash, a timeout, a
malformed answer or an illegal action forfeits the turn (the player draws, or passes with an empty pool); the
forfeits are counted per player and cause. A program that crashed is started again for the next game. Every
program started is stopped when the tournament ends, also on Ctrl-C. Tournaments with external players run
in this process (``jobs`` 1); their results are as deterministic as the programs (the same observations come
in the same order), unless a program answers near its time limit.

>>> result = run_arena(["medium", "easy"], games=4, seed=1, preset="pressman-2015", jobs=1)
>>> result.games, sorted(result.summary()["bots"])
(4, ['easy', 'medium'])
>>> run_arena(["medium", "easy"], games=4, seed=1, preset="pressman-2015", jobs=2).games_digest() == result.games_digest()
True
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import math
import os
import signal
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TextIO

from ._errors import IllegalMoveError, InvalidNotationError, RummikubError, SearchLimitError, shorten
from .bots import BotLike, fallback, get_bot
from .game import Game, PlayerView
from .cli import add_rules_options, plural, rules_from_args
from .protocol import FORFEIT_CAUSES, EngineProcess, ExternalPlayerError
from .rules import DEFAULT_PRESET, RuleSet

__all__ = ["GameResult", "ArenaResult", "GameProfile", "PROFILE_PARTS", "play_game", "run_arena", "profile_games",
           "wilson_interval", "elo_ratings", "elo_from_score", "add_arena_parser", "arena_main", "derive_seed", "ExternalBot", "EXTERNAL_PREFIX",
           "FORFEIT_CAUSES", "DEFAULT_MOVE_SECONDS"]

_MAX_TURNS = 5000
EXTERNAL_PREFIX = "cmd:"
"""A player named ``cmd:COMMAND`` is the external program ``COMMAND``."""
DEFAULT_MOVE_SECONDS = 10.0
"""How long an external program may take to answer one turn."""


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across Python versions and processes).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)
    True
    """
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _frozen_clock() -> float:
    return 0.0


class ExternalBot:
    """A bot that is a separate program speaking the engine protocol (a ``cmd:`` player): :meth:`choose`
    sends the view as a ``turn`` request and reads the action within ``move_seconds``, raising
    :class:`~rummikub.protocol.ExternalPlayerError` (``cause`` crash, timeout or malformed) when it cannot.
    :meth:`start` starts the program (again, when it is not running); :meth:`close` stops it.

    >>> import shlex, sys
    >>> bot = ExternalBot(shlex.join([sys.executable, "-m", "rummikub.cli", "engine"]), move_seconds=30)
    >>> bot.start(); bot.hello["engine"]
    'rummikub'
    >>> bot.close()
    """

    def __init__(self, command: str, move_seconds: float = DEFAULT_MOVE_SECONDS, *, hello_seconds: float = 30.0,
                 stderr: Any = None) -> None:
        if not command.strip():
            raise RummikubError(f"an external player needs a command after {EXTERNAL_PREFIX!r}")
        if not move_seconds > 0:
            raise RummikubError(f"move_seconds must be positive, got {shorten(move_seconds)}")
        self.command = command
        self.move_seconds = move_seconds
        self.hello_seconds = hello_seconds
        self.stderr = stderr
        self.name = EXTERNAL_PREFIX + command
        self.pids: list[int] = []  # every process started, for the record
        self._process: EngineProcess | None = None
        self._failure: ExternalPlayerError | None = None

    @property
    def failure(self) -> ExternalPlayerError | None:
        """Why the last start failed (its handshake), or None."""
        return self._failure

    @property
    def hello(self) -> dict[str, Any]:
        """The program's handshake (after :meth:`start`)."""
        return {} if self._process is None else self._process.hello

    def start(self) -> None:
        """Starts the program unless it runs; a failed handshake makes every turn until the next start a
        forfeit of the same cause. A command that cannot be started at all raises :class:`RummikubError`."""
        if self._process is not None and self._process.alive:
            return
        self.close()
        self._failure = None
        try:
            process = EngineProcess(self.command, hello_seconds=self.hello_seconds, stderr=self.stderr)
        except ExternalPlayerError as exc:
            self._failure = exc
            return
        self._process = process
        self.pids.append(process.pid)
        if "turn" not in process.hello["capabilities"]:
            self._failure = ExternalPlayerError("malformed", f"{process.name} does not announce the 'turn' "
                                                             f"capability: {process.hello['capabilities']}")

    def choose(self, view: PlayerView) -> Any:
        """The program's action for ``view`` (an :class:`~rummikub.Action`)."""
        from .action import Action

        if self._failure is not None:
            raise self._failure
        if self._process is None:
            raise ExternalPlayerError("crash", f"{self.name!r} is not running")
        answer = self._process.request({"type": "turn", "observation": view.to_dict()}, timeout=self.move_seconds)
        if answer["type"] == "error":
            raise ExternalPlayerError("malformed", f"{self.name!r} answered an error instead of an action: "
                                                   f"{str(answer.get('code'))[:40]}: {str(answer.get('message'))[:200]}")
        try:
            return Action.from_dict(answer["action"], rules=view.rules)
        except (RummikubError, KeyError, TypeError, AttributeError) as exc:
            raise ExternalPlayerError("malformed", f"{self.name!r} answered a bad action "
                                                   f"{str(answer.get('action'))[:200]!r}: {exc}") from None

    def close(self) -> None:
        """Stops the program (end of input, then terminate, then kill); safe to call at any time."""
        process, self._process = self._process, None
        if process is not None:
            process.close()

    def __repr__(self) -> str:
        return f"<ExternalBot {self.command!r}>"


def is_external(name: str) -> bool:
    """True for a ``cmd:`` player.

    >>> is_external("cmd:./mybot"), is_external("medium")
    (True, False)
    """
    return name.startswith(EXTERNAL_PREFIX)


@dataclass(frozen=True)
class GameResult:
    """One finished arena game. ``seats[s]`` is the bot name at seat ``s`` (seat 0 starts); ``scores`` and
    ``win_shares`` are per seat; ``illegal`` counts refused answers per seat (each replaced by a draw/pass);
    ``forfeits`` counts, per seat, the turns forfeited for each cause of :data:`FORFEIT_CAUSES` (crash,
    timeout, malformed, illegal; the last equals ``illegal``)."""

    index: int
    seed: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[Fraction, ...]
    turns: int
    termination: str
    illegal: tuple[int, ...]
    forfeits: tuple[tuple[int, ...], ...] = ()
    seconds: float = field(default=0.0, compare=False)

    def win_share(self, seat: int) -> Fraction:
        """The part of the win that ``seat`` gets."""
        return Fraction(1, len(self.winners)) if seat in self.winners else Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (scores as exact fraction strings)."""
        return {"index": self.index, "seed": self.seed, "seats": list(self.seats), "winners": list(self.winners),
                "scores": [str(s) for s in self.scores], "turns": self.turns, "termination": self.termination,
                "illegal": list(self.illegal), "forfeits": [self.forfeits_of(s) for s in range(len(self.seats))]}

    def forfeits_of(self, seat: int) -> dict[str, int]:
        """The forfeited turns of ``seat`` by cause (every cause, zeros included)."""
        counts = self.forfeits[seat] if seat < len(self.forfeits) else (0, 0, 0, self.illegal[seat])
        return dict(zip(FORFEIT_CAUSES, counts))


def lineup(players: Sequence[str], index: int) -> tuple[str, ...]:
    """The bots by seat for game ``index``: the line-up rotated by ``index`` seats.

    >>> lineup(["hard", "medium", "easy", "easy"], 1)
    ('easy', 'hard', 'medium', 'easy')
    """
    n = len(players)
    return tuple(players[(s - index) % n] for s in range(n))


def play_game(players: Sequence[str], index: int = 0, seed: int = 0, preset: str | RuleSet = DEFAULT_PRESET, *,
              external: Mapping[int, BotLike] | None = None) -> GameResult:
    """Plays game ``index`` of a tournament seeded ``seed`` between ``players`` (bot names, the line-up before
    rotation) and returns its result. Bots see only their own :class:`~rummikub.game.PlayerView`.
    ``external`` gives, by index in ``players``, bots made outside (the :class:`ExternalBot` of each ``cmd:``
    player); every other player is made by name with its seed.

    >>> r = play_game(["medium", "easy"], index=0, seed=1, preset="digital")
    >>> r.seats, sum(r.scores), r.illegal
    (('medium', 'easy'), Fraction(0, 1), (0, 0))
    """
    n = len(players)
    rules = preset if isinstance(preset, RuleSet) else RuleSet.preset(preset)
    seats = lineup(players, index)
    deal_seed = derive_seed(seed, index // n)
    external = external or {}
    bots: list[BotLike] = []
    for s, name in enumerate(seats):
        entry = (s - index) % n  # seats[s] == players[entry]
        bots.append(external[entry] if entry in external else get_bot(name, derive_seed(seed, index, s)))
    for bot in bots:
        if isinstance(bot, ExternalBot):
            bot.start()  # again, if it crashed in an earlier game
    start = time.perf_counter()
    game = Game.new(players=n, rules=rules, seed=deal_seed, first_player=0, clock=_frozen_clock)
    illegal = [0] * n
    forfeits = [[0] * len(FORFEIT_CAUSES) for _ in range(n)]
    # The game's state read from its attributes (properties and view()'s checks cost a Python call each, every turn)
    while game._outcome is None:
        if game._turn > _MAX_TURNS:
            raise RummikubError(f"game {index} (seed {seed}) did not end in {_MAX_TURNS} turns")
        p = game._current
        view = game._view(p)
        action: Any
        try:
            action = bots[p].choose(view)
        except SearchLimitError:  # a position past the search's state limit: the bot draws (or passes)
            action = fallback(view)
        except ExternalPlayerError as exc:  # an external program failed to answer: the turn is forfeited
            forfeits[p][FORFEIT_CAUSES.index(exc.cause)] += 1
            action = None
        if action is not None:
            try:
                game.apply(action)  # (as player p, who is to move: apply checks nothing more)
            except (IllegalMoveError, InvalidNotationError):  # refused or not an action: the turn is a draw
                illegal[p] += 1
                forfeits[p][FORFEIT_CAUSES.index("illegal")] += 1
                action = None
        if action is None:
            game.apply(fallback(view))
    outcome = game.outcome
    assert outcome is not None
    return GameResult(index=index, seed=deal_seed, seats=seats, winners=outcome.winners, scores=outcome.scores,
                      turns=game.turn, termination=outcome.termination.value, illegal=tuple(illegal),
                      forfeits=tuple(map(tuple, forfeits)), seconds=time.perf_counter() - start)


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
    note: str = ""

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
            forfeits = dict.fromkeys(FORFEIT_CAUSES, 0)
            for r in self.results:
                for s, seat_name in enumerate(r.seats):
                    if seat_name == name:
                        seats += 1
                        wins += float(r.win_share(s))
                        score += r.scores[s]
                        illegal += r.illegal[s]
                        for cause, count in r.forfeits_of(s).items():
                            forfeits[cause] += count
            lo, hi = wilson_interval(wins, seats)
            bots[name] = {"seats": int(seats), "wins": wins, "win_rate": wins / seats if seats else 0.0,
                          "win_ci95": [lo, hi], "mean_score": float(score / int(seats)) if seats else 0.0,
                          "illegal": illegal, "forfeits": forfeits}
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
        lines = [f"{plural(s['games'], 'game')}, {n} players, preset {s['preset']}, seed {s['seed']}: "
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
        for name, b in s["bots"].items():
            lost = {cause: n for cause, n in b["forfeits"].items() if n}
            if lost:
                lines.append(f"forfeited turns of {name}: " + ", ".join(f"{n} {cause}" for cause, n in lost.items())
                             + f" ({sum(lost.values())} in all, each replaced by a draw or pass)")
        if self.note:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)


def usable_cpus() -> int:
    """The processors this process may run on (its affinity where the system tells it): ``jobs`` beyond this,
    or beyond the number of games, are capped.

    >>> usable_cpus() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def _chunks(games: int, size: int) -> Iterator[list[int]]:
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def run_arena(players: Sequence[str], games: int, seed: int = 1, *, preset: str | RuleSet = DEFAULT_PRESET,
              jobs: int = 1, progress: bool = False, stream: TextIO | None = None,
              move_seconds: float = DEFAULT_MOVE_SECONDS, external_stderr: Any = None) -> ArenaResult:
    """Plays ``games`` games between ``players`` (bot names; the same name may sit twice) in ``jobs`` worker
    processes (1: in this process) and returns the results in game order. ``preset`` is a preset's name or a
    :class:`RuleSet`. ``progress`` shows a bar on ``stream`` (stderr by default).

    A player ``cmd:COMMAND`` is an external program (see the module docstring), given ``move_seconds`` per
    turn; its standard error goes to ``external_stderr`` (a file object or ``subprocess.DEVNULL``; default:
    this process's). With external players the games run in this process whatever ``jobs`` says (the
    result's ``note`` says so).

    >>> r = run_arena(["medium", "easy"], games=2, seed=3, preset="digital")
    >>> [g.seats for g in r.results]
    [('medium', 'easy'), ('easy', 'medium')]
    """
    players = tuple(players)
    rules = _check_line_up(players, games, preset)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise RummikubError(f"jobs must be a positive int, got {shorten(jobs)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RummikubError(f"seed must be an int, got {shorten(seed)}")
    note = ""
    external: dict[int, ExternalBot] = {}
    if any(is_external(name) for name in players):
        if jobs != 1:
            note = f"external players: the games ran in this process (jobs 1, not {jobs})"
            jobs = 1
    elif jobs > 1:
        usable = min(games, usable_cpus())
        if jobs > usable:  # more workers than games or processors only costs start-up time
            note = (f"jobs {jobs} capped at {usable} (the {plural(games, 'game')} and {usable_cpus()} "
                    f"usable {'processor' if usable_cpus() == 1 else 'processors'})")
            jobs = usable
        if isinstance(move_seconds, bool) or not isinstance(move_seconds, (int, float)) or not move_seconds > 0:
            raise RummikubError(f"move_seconds must be a positive number, got {shorten(move_seconds)}")
    bar = _progress(games, progress, stream)
    start = time.perf_counter()
    results: list[GameResult] = []
    try:
        for i, name in enumerate(players):
            if is_external(name):
                bot = external[i] = ExternalBot(name[len(EXTERNAL_PREFIX):], move_seconds, stderr=external_stderr)
                bot.start()
                if bot.failure is not None:
                    raise RummikubError(f"player {shorten(name)} failed its handshake: {bot.failure}")
        if jobs == 1:
            for i in range(games):
                results.append(play_game(players, i, seed, rules, external=external))
                bar.update(1)
        else:
            size = max(1, min(len(players) * 4, games // (jobs * 8) or 1))
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                tasks = ((players, chunk, seed, rules) for chunk in _chunks(games, size))
                for chunk_results in pool.map(_play_chunk, tasks):
                    results.extend(chunk_results)
                    bar.update(len(chunk_results))
    finally:
        for bot in external.values():
            bot.close()
        bar.close()
    results.sort(key=lambda r: r.index)
    return ArenaResult(players, rules.name, seed, results, time.perf_counter() - start, jobs, note)


PROFILE_PARTS = ("search", "legality check", "views", "drawing", "bots", "the rest")
"""The parts of a game's time that :func:`profile_games` measures, in the order it prints them."""


@dataclass(frozen=True)
class GameProfile:
    """Where the CPU time of some games went (:func:`profile_games`): seconds per part of
    :data:`PROFILE_PARTS`, each part without the parts it calls."""

    players: tuple[str, ...]
    preset: str
    games: int
    turns: int
    parts: Mapping[str, float]
    searches: Mapping[str, tuple[int, float]] = field(default_factory=dict)
    """Per function of the core's searches that the games called (``solve_play``, ``all_plays``, ...): how many
    calls, and their seconds (part of the search's)."""
    tail: tuple[int, float, float] = (0, 0.0, 0.0)
    """How the search's time spreads over its calls: the number of calls in the slowest 1% of them, their share of
    the search's time, and the share of the ten slowest calls."""

    @property
    def seconds(self) -> float:
        """The CPU seconds of the games, all parts together."""
        return sum(self.parts.values())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the games, their turns, CPU seconds, games per second and seconds per part."""
        total = self.seconds
        return {"players": list(self.players), "preset": self.preset, "games": self.games, "turns": self.turns,
                "seconds": total, "games_per_second": self.games / total if total else 0.0,
                "parts": dict(self.parts),
                "searches": {name: {"calls": calls, "seconds": seconds}
                             for name, (calls, seconds) in self.searches.items()},
                "search_tail": {"slowest_1_percent_calls": self.tail[0], "slowest_1_percent_share": self.tail[1],
                                "slowest_10_share": self.tail[2]}}

    def table(self) -> str:
        """The profile as a text table: seconds and share of each part."""
        total = self.seconds or 1e-12
        lines = [f"{plural(self.games, 'game')} ({', '.join(self.players)}; preset {self.preset}; "
                 f"{self.turns / max(1, self.games):.1f} turns a game): {self.seconds:.2f} s CPU, "
                 f"{self.games / total:.1f} games/s",
                 f"{'part':16s} {'seconds':>8s} {'share':>6s} {'us/turn':>8s}"]
        for part in PROFILE_PARTS:
            seconds = self.parts[part]
            lines.append(f"{part:16s} {seconds:8.3f} {seconds / total:6.1%} {1e6 * seconds / max(1, self.turns):8.1f}")
        if self.searches:
            search = self.parts["search"] or 1e-12
            lines.append(f"{'search call':16s} {'calls':>8s} {'seconds':>8s} {'share':>6s} {'us/call':>8s}")
            for name, (calls, seconds) in sorted(self.searches.items(), key=lambda item: -item[1][1]):
                lines.append(f"{name:16s} {calls:8d} {seconds:8.3f} {seconds / search:6.1%} "
                             f"{1e6 * seconds / max(1, calls):8.1f}")
            count, share, ten = self.tail
            calls = sum(c for c, _ in self.searches.values())
            lines.append(f"the slowest 1% of the search calls ({count:,} of {calls:,}) take {share:.1%} of the "
                         f"search's time, the slowest 10 take {ten:.1%}")
        return "\n".join(lines)


def _check_line_up(players: tuple[str, ...], games: int, preset: str | RuleSet) -> RuleSet:
    """The rules of ``preset``, once the number of players suits them, every bot named (not ``cmd:``) exists
    and ``games`` is a positive int; RummikubError otherwise."""
    rules = preset if isinstance(preset, RuleSet) else RuleSet.preset(preset)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise RummikubError(f"{plural(len(players), 'player')} ({shorten(', '.join(players), quote=False)}): rules "
                            f"{shorten(rules.name)} allow {rules.min_players}..{rules.max_players}")
    for name in dict.fromkeys(players):
        if not is_external(name):
            get_bot(name, 0)  # fail early on an unknown bot
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RummikubError(f"games must be a positive int, got {shorten(games)}")
    return rules


def profile_games(players: Sequence[str], games: int, seed: int = 1,
                  preset: str | RuleSet = DEFAULT_PRESET) -> GameProfile:
    """Plays the tournament's first ``games`` games (as :func:`run_arena` with ``jobs`` 1: the same results)
    and measures where their CPU time goes, without a profiler's cost on every call: the functions that make
    up a turn are wrapped while the games run. The parts (:data:`PROFILE_PARTS`): the search (every call into
    the core's searches), the legality check of each committed turn, building views, drawing, the bots' own
    Python around their searches (the search's Python wrapper included), and the rest (the game loop,
    applying actions, the records). Each part's time excludes the parts it calls. Each call into the core's
    searches is timed on its own too: the profile gives each search function's calls and seconds, and how much of
    the search's time its slowest calls take (a few large positions can hold much of it).

    The parts are timed with the wall clock (``time.perf_counter``: a tenth of a microsecond a reading, where
    the CPU-time clock takes one to two, ten readings a turn, which would fall mostly on "the rest") and scaled
    together to the games' CPU time, so the seconds add up to that CPU time and the shares are the wall
    clock's. The first game is played once untimed beforehand, so one-time costs (modules imported on first
    use, the search's scratch memory growing) do not count against the parts they happen to fall in.

    >>> p = profile_games(["medium", "easy"], games=2, seed=1, preset="digital")
    >>> sorted(p.parts) == sorted(PROFILE_PARTS), p.games, p.seconds > 0
    (True, 2, True)
    """
    from . import _core
    from .game import state

    players = tuple(players)
    if any(is_external(name) for name in players):
        raise RummikubError("profile_games times built-in and registered bots; an external (cmd:) player's time "
                            "is another process's")
    rules = _check_line_up(players, games, preset)
    totals = dict.fromkeys(PROFILE_PARTS, 0.0)
    stack: list[float] = []  # the time spent in timed callees, per active timed call
    clock = time.perf_counter
    calls: dict[str, list[float]] = {}  # per core search function: each call's seconds

    def timed(fn: Any, part: str, name: str | None = None) -> Any:
        each = None if name is None else calls.setdefault(name, [])

        def run(*args: Any, **kwargs: Any) -> Any:
            stack.append(0.0)
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = clock() - start
                totals[part] += elapsed - stack.pop()
                if stack:
                    stack[-1] += elapsed
                if each is not None:
                    each.append(elapsed)
        return run

    class _TimedBot:
        def __init__(self, bot: BotLike) -> None:
            self.choose = timed(bot.choose, "bots")

    make_bot = get_bot

    def timed_get_bot(name: str, seed: int | None = None) -> BotLike:
        return _TimedBot(make_bot(name, seed))

    patches: list[tuple[Any, str, str]] = [(_core, name, "search") for name in
                                           ("solve", "solve_play", "all_plays", "arrange", "arrange_table",
                                            "can_arrange", "solve_batch", "check_position")]
    patches += [(state, "check_committed", "legality check"), (state.Game, "_view", "views"),
                (state.Game, "_draw", "drawing")]
    saved = [(owner, name, owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name))
             for owner, name, _ in patches]
    module = sys.modules[__name__]
    if games > 0:
        play_game(players, 0, seed, rules)  # the warm-up (see above)
    turns = 0
    cpu = time.process_time()
    start = clock()
    try:
        for owner, name, part in patches:
            setattr(owner, name, timed(getattr(owner, name), part, name if part == "search" else None))
        setattr(module, "get_bot", timed_get_bot)
        for i in range(games):
            turns += play_game(players, i, seed, rules).turns
    finally:
        setattr(module, "get_bot", make_bot)
        for owner, name, original in saved:
            setattr(owner, name, original)
        wall = clock() - start
        cpu = time.process_time() - cpu
        totals["the rest"] = max(0.0, wall - sum(v for k, v in totals.items() if k != "the rest"))
        scale = cpu / max(wall, 1e-12)
        for part in totals:
            totals[part] *= scale
    every = sorted((t * scale for each in calls.values() for t in each), reverse=True)
    search = sum(every) or 1e-12
    slowest = -(-len(every) // 100)  # (1%, rounded up)
    tail = (slowest, sum(every[:slowest]) / search, sum(every[:10]) / search)
    searches = {name: (len(each), sum(each) * scale) for name, each in calls.items() if each}
    return GameProfile(players, rules.name, games, turns, totals, searches, tail)


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
                   help="comma-separated bots, one per seat (easy, medium, hard, module:Name, or cmd:COMMAND for "
                        "an external program speaking the engine protocol); default hard,medium,easy,easy")
    p.add_argument("--move-seconds", type=float, default=DEFAULT_MOVE_SECONDS,
                   help=f"time an external (cmd:) player has for one turn (default {DEFAULT_MOVE_SECONDS:g})")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (default 1; capped at the games and the usable processors)")
    add_rules_options(p)
    p.add_argument("--json", metavar="PATH", type=_json_path,
                   help="also write the summary and every game's result as JSON (checked before the games start)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--profile", action="store_true",
                   help="instead of the results, print where the games' CPU time goes (search, legality check, "
                        "views, drawing, the bots' own Python, the rest); the games run in this process")
    p.set_defaults(func=arena_main)
    return p


def arena_main(args: argparse.Namespace) -> int:
    """Runs ``rummikub arena`` from parsed arguments; returns the exit status. The ``--json`` file is opened
    (not yet truncated) before the first game, so an unwritable path fails before any result is lost."""
    players = [s.strip() for s in str(args.players).split(",") if s.strip()]
    if args.json is None:
        return _run(args, players, None)
    existed = os.path.exists(args.json)
    try:
        out = open(args.json, "a", encoding="utf-8")
    except OSError as exc:
        raise RummikubError(f"cannot write --json {shorten(args.json)}: {exc.strerror or exc}") from None
    status = 1
    try:
        with out:
            status = _run(args, players, out)
    finally:
        if status != 0 and not existed:  # refused or interrupted: leave no empty file behind
            with contextlib.suppress(OSError):
                os.remove(args.json)
    return status


def _json_path(text: str) -> str:
    """``--json PATH`` (an argparse type): not empty, not a folder, in a folder that exists."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file path, got an empty string")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{shorten(text)} is a folder, not a file")
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"the folder {shorten(folder)} does not exist")
    return text


def _run(args: argparse.Namespace, players: list[str], out: TextIO | None) -> int:
    if getattr(args, "profile", False):
        profile = profile_games(players, args.games, args.seed, preset=rules_from_args(args))
        print(profile.table())
        if out is not None:
            out.seek(0)
            out.truncate()
            out.write(json.dumps(profile.to_dict(), indent=2))
            out.write("\n")
        return 0
    previous = signal.getsignal(signal.SIGTERM)
    if any(is_external(name) for name in players):
        signal.signal(signal.SIGTERM, _interrupt)  # stop the external programs on a plain kill too
    try:
        result = run_arena(players, args.games, args.seed, preset=rules_from_args(args), jobs=args.jobs,
                           progress=not args.quiet, move_seconds=args.move_seconds)
    except KeyboardInterrupt:
        print("rummikub arena: interrupted (every external program it started was stopped)", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(result.table())
    if out is not None:
        out.seek(0)
        out.truncate()
        out.write(result.to_json())
        out.write("\n")
    return 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


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
