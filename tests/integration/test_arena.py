"""The arena: results independent of the number of workers, seat rotation over shared deals, the statistics
(Wilson intervals, Elo from pairwise results) against independent computations, and the command line."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from scipy import optimize, stats

from rummikub import RummikubError
from rummikub.arena import (
    ArenaResult,
    GameResult,
    elo_from_score,
    elo_ratings,
    PROFILE_PARTS,
    lineup,
    main,
    play_game,
    profile_games,
    run_arena,
    wilson_interval,
)


def test_results_do_not_depend_on_jobs() -> None:
    one = run_arena(["medium", "easy", "hard"], games=6, seed=3, preset="pressman-2015", jobs=1)
    two = run_arena(["medium", "easy", "hard"], games=6, seed=3, preset="pressman-2015", jobs=2)
    assert [r.to_dict() for r in one.results] == [r.to_dict() for r in two.results]
    assert one.games_digest() == two.games_digest()
    other = run_arena(["medium", "easy", "hard"], games=6, seed=4, preset="pressman-2015", jobs=1)
    assert other.games_digest() != one.games_digest()


def test_seat_rotation_and_shared_deals() -> None:
    players = ["hard", "medium", "easy", "easy"]
    result = run_arena(players, games=8, seed=2, preset="digital")
    assert [r.index for r in result.results] == list(range(8))
    for block in range(2):
        games = result.results[4 * block:4 * block + 4]
        assert len({g.seed for g in games}) == 1  # one deal, played from every seat
        for seat in range(4):
            assert Counter(g.seats[seat] for g in games) == Counter(players)
    assert result.results[0].seed != result.results[4].seed
    for r in result.results:
        assert sum(r.scores) == 0 and r.illegal == (0, 0, 0, 0)
    s = result.summary()
    assert sum(b["wins"] for b in s["bots"].values()) == pytest.approx(8)
    assert s["bots"]["easy"]["seats"] == 16 and s["bots"]["hard"]["seats"] == 8


def test_lineup_rotates() -> None:
    assert [lineup(["a", "b", "c"], i) for i in range(4)] == [
        ("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a"), ("a", "b", "c")]


def test_play_game_is_reproducible() -> None:
    a = play_game(["hard", "medium"], index=3, seed=9, preset="sabra")
    b = play_game(["hard", "medium"], index=3, seed=9, preset="sabra")
    assert a == b and a.seats == ("medium", "hard")


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (60, 100), (999, 1000), (1000, 1000), (12.5, 40)])
def test_wilson_interval_matches_its_definition(k: float, n: int) -> None:
    """The Wilson interval is the set of p whose score test does not reject: |p_hat - p| = z sqrt(p(1-p)/n)."""
    lo, hi = wilson_interval(k, n)
    z = stats.norm.ppf(0.975)
    p_hat = k / n

    def gap(p: float) -> float:
        return abs(p_hat - p) - z * math.sqrt(p * (1 - p) / n)

    assert 0 <= lo <= p_hat <= hi <= 1
    if lo > 0:
        assert gap(lo) == pytest.approx(0, abs=1e-9)
    if hi < 1:
        assert gap(hi) == pytest.approx(0, abs=1e-9)
    assert gap((lo + hi) / 2) < 0


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(10 / 11) == pytest.approx(400)
    assert elo_from_score(0.25) == pytest.approx(-elo_from_score(0.75))
    assert elo_from_score(1.0) == 1000


def test_elo_ratings_are_the_maximum_likelihood_fit() -> None:
    pairs = {("a", "b"): (70.0, 100), ("a", "c"): (90.0, 100), ("b", "c"): (65.0, 100)}
    ratings = elo_ratings(pairs)
    assert sum(ratings.values()) / 3 == pytest.approx(1500)
    assert ratings["a"] > ratings["b"] > ratings["c"]

    # Independent fit: maximise the Bradley-Terry likelihood with scipy (plus the same weak prior: one draw
    # of each player against a virtual player of average strength).
    names = ["a", "b", "c"]

    def nll(x: list[float]) -> float:
        r = dict(zip(names, [x[0], x[1], -x[0] - x[1]]))
        total = 0.0
        for (p, q), (w, n) in pairs.items():
            e = 1 / (1 + math.exp(r[q] - r[p]))
            total -= w * math.log(e) + (n - w) * math.log(1 - e)
        for p in names:
            e = 1 / (1 + math.exp(-r[p]))
            total -= 0.5 * math.log(e) + 0.5 * math.log(1 - e)
        return total

    fit = optimize.minimize(nll, [0.0, 0.0], method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12})
    x = [fit.x[0], fit.x[1], -fit.x[0] - fit.x[1]]
    for name, v in zip(names, x):
        assert ratings[name] == pytest.approx(1500 + 400 * v / math.log(10), abs=0.05)


def _result(index: int, seats: tuple[str, ...], winners: tuple[int, ...], scores: tuple[int, ...]) -> GameResult:
    return GameResult(index=index, seed=index, seats=seats, winners=winners,
                      scores=tuple(Fraction(s) for s in scores), turns=10, termination="rummikub",
                      illegal=(0,) * len(seats))


def test_pairwise_and_summary_by_hand() -> None:
    results = [
        _result(0, ("x", "y", "z"), (0,), (30, -10, -20)),   # x > y > z
        _result(1, ("z", "x", "y"), (2,), (-5, -25, 30)),    # y > z > x
        _result(2, ("y", "z", "x"), (0, 1), (5, 5, -10)),    # y = z (shared win) > x
    ]
    arena = ArenaResult(("x", "y", "z"), "classic", 1, results, seconds=2.0)
    pairs = arena.pairwise()
    assert pairs == {("x", "y"): (1.0, 3), ("x", "z"): (1.0, 3), ("y", "z"): (2.5, 3)}
    s = arena.summary()
    assert s["bots"]["y"]["wins"] == pytest.approx(1.5) and s["bots"]["z"]["wins"] == pytest.approx(0.5)
    assert s["bots"]["x"]["mean_score"] == pytest.approx((30 - 25 - 10) / 3)
    assert s["timing"]["games_per_second"] == pytest.approx(1.5)
    assert s["bots"]["y"]["elo"] > s["bots"]["z"]["elo"] > s["bots"]["x"]["elo"]
    assert "y vs z" in arena.table()


def test_bad_arguments() -> None:
    with pytest.raises(RummikubError, match="unknown preset 'nope'"):
        run_arena(["easy", "easy"], games=1, preset="nope")
    with pytest.raises(RummikubError, match="5 players"):
        run_arena(["easy"] * 5, games=1, preset="classic")
    with pytest.raises(RummikubError, match="unknown bot 'wizard'"):
        run_arena(["easy", "wizard"], games=1)
    with pytest.raises(RummikubError, match="games must be a positive int"):
        run_arena(["easy", "easy"], games=0)


def test_command_line(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    out = f"{tmp_path}/results.json"
    assert main(["arena", "--players", "medium,easy", "--games", "4", "--seed", "5", "--preset", "digital",
                 "--json", out]) == 0
    captured = capsys.readouterr()
    assert "medium vs easy" in captured.out and "95% CI" in captured.out
    assert captured.err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(open(out).read())
    assert data["games"] == 4 and len(data["results"]) == 4
    assert data["bots"]["medium"]["seats"] == 4
    assert main(["arena", "--players", "medium,ghost", "--games", "1"]) == 1
    assert "unknown bot 'ghost'" in capsys.readouterr().err


def test_rummikub_command_has_arena(capsys: pytest.CaptureFixture[str]) -> None:
    from rummikub.cli import main as cli_main

    assert cli_main(["arena", "--players", "easy,medium", "--games", "2", "--preset", "sabra", "--quiet"]) == 0
    assert "easy vs medium" in capsys.readouterr().out
    assert cli_main(["arena", "--players", "easy", "--games", "2"]) == 1
    assert "1 player (easy)" in capsys.readouterr().err


@pytest.fixture
def listing_hard_bot() -> Iterator[str]:
    """A hard bot that lists every legal play, registered for the test: its name."""
    from rummikub.bots import BOTS, register_bot
    from rummikub.bots.hard import HardBot

    register_bot("hard-listing", lambda seed: HardBot(seed, max_enumeration=4096))
    yield "hard-listing"
    del BOTS["hard-listing"]


def test_profile_games_times_every_part_and_plays_the_same_games(listing_hard_bot: str) -> None:
    from rummikub import _core
    from rummikub.game import Game, state

    players = ["hard", listing_hard_bot, "medium"]
    saved = (_core.solve, _core.arrange, state.check_committed, Game._view, Game._draw)
    profile = profile_games(players, games=3, seed=4, preset="classic")
    assert (_core.solve, _core.arrange, state.check_committed, Game._view, Game._draw) == saved  # restored
    assert list(profile.parts) == list(PROFILE_PARTS)
    assert profile.turns == sum(play_game(players, i, 4, "classic").turns for i in range(3))
    for part in ("search", "legality check", "views", "drawing", "bots"):
        assert profile.parts[part] > 0, part
    assert profile.parts["the rest"] > -0.01  # the whole minus the timed parts (clock resolution aside)
    assert math.isclose(profile.seconds, sum(profile.parts.values()))
    data = profile.to_dict()
    assert data["games"] == 3 and data["turns"] == profile.turns and set(data["parts"]) == set(PROFILE_PARTS)
    table = profile.table()
    assert all(part in table for part in PROFILE_PARTS) and "games/s" in table
    # every search call counted: the hard bots solve (or list plays) and check threats, medium solves (the search's
    # seconds are the calls' seconds); the slowest 1% and the slowest 10 are shares of that time, the larger the larger
    assert {"solve_play", "all_plays", "can_arrange"} <= set(profile.searches)
    assert all(calls > 0 and seconds > 0 for calls, seconds in profile.searches.values())
    assert math.isclose(sum(s for _, s in profile.searches.values()), profile.parts["search"], rel_tol=1e-6)
    count, share, ten = profile.tail
    total_calls = sum(c for c, _ in profile.searches.values())
    assert count == -(-total_calls // 100) and 0 < share <= ten <= 1  # (under 1,000 calls: 1% is at most 10)
    assert "all_plays" in table and "the slowest 1% of the search calls" in table
    assert data["searches"]["all_plays"]["calls"] == profile.searches["all_plays"][0]
    assert data["search_tail"]["slowest_10_share"] == ten
    with pytest.raises(RummikubError, match="unknown bot 'wizard'"):
        profile_games(["easy", "wizard"], games=1)
    with pytest.raises(RummikubError, match="external"):
        profile_games(["easy", "cmd:true"], games=1)


def test_command_line_profile(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    out = f"{tmp_path}/profile.json"
    assert main(["arena", "--players", "medium,easy", "--games", "2", "--preset", "digital", "--profile",
                 "--json", out]) == 0
    printed = capsys.readouterr().out
    assert "legality check" in printed and "games/s" in printed and "95% CI" not in printed
    data = json.loads(open(out).read())
    assert data["games"] == 2 and set(data["parts"]) == set(PROFILE_PARTS)
