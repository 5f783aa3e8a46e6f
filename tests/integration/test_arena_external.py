"""The arena with ``cmd:`` players: external programs speaking the engine protocol through real pipes, against
the built-in bots. A crash, a timeout, a malformed answer and an illegal action each forfeit the turn and are
counted by cause; every process the arena started is gone afterwards, also after Ctrl-C (SIGINT) and when a
program ignores end of input and SIGTERM."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rummikub
from rummikub import Game, RummikubError
from rummikub.arena import ExternalBot, run_arena
from rummikub.bots import get_bot

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).resolve().parent / "protocol_bots"
GREEDY = ROOT / "examples" / "bots" / "greedy.py"
PACKAGE_ROOT = str(Path(rummikub.__file__).resolve().parent.parent)
PY = shlex.quote(sys.executable)


def cmd(script: Path, *args: object) -> str:
    return "cmd:" + shlex.join([sys.executable, str(script), *map(str, args)])


@pytest.fixture(autouse=True)
def _package_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", PACKAGE_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (read from /proc, no third-party package)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


def pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def turns_of(turns: int, seat: int, players: int) -> int:
    """How many turns the player at ``seat`` had in a game of ``turns`` turns (seat 0 starts)."""
    return len(range(seat, turns, players))


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_greedy_stdlib_bot_plays_legal_games_deterministically() -> None:
    players = [cmd(GREEDY), "medium"]
    one = run_arena(players, games=2, seed=5, preset="standard", move_seconds=20)
    two = run_arena(players, games=2, seed=5, preset="standard", move_seconds=20)
    assert one.games_digest() == two.games_digest()
    greedy = one.summary()["bots"][players[0]]
    assert greedy["seats"] == 2 and greedy["illegal"] == 0
    assert set(greedy["forfeits"].values()) == {0}
    assert "forfeited" not in one.table()


def test_greedy_bot_lays_tiles_with_legal_plays() -> None:
    game = Game.new(players=2, preset="standard", seed=8, clock=lambda: 0.0)
    greedy, medium = ExternalBot(cmd(GREEDY)[4:], move_seconds=20), get_bot("medium", 1)
    greedy.start()
    kinds = []
    try:
        while not game.is_terminal():
            p = game.current_player
            if p == 0:
                action = greedy.choose(game.view(p))
                kinds.append(action.kind.value)
            else:
                action = medium.choose(game.view(p))
            game.apply(action, p)  # raises IllegalMoveError on an illegal play
    finally:
        greedy.close()
    assert kinds.count("play") >= 2 and "draw" in kinds


def test_engine_as_an_external_player_equals_the_builtin_bot() -> None:
    """`rummikub engine` answers `turn` with the medium bot: as a cmd: player it plays exactly as medium."""
    engine = "cmd:" + shlex.join([sys.executable, "-m", "rummikub.cli", "engine"])
    via_pipe = run_arena([engine, "easy"], games=2, seed=3, preset="standard", move_seconds=30)
    local = run_arena(["medium", "easy"], games=2, seed=3, preset="standard")
    assert [(r.winners, r.scores, r.turns, r.termination) for r in via_pipe.results] == \
           [(r.winners, r.scores, r.turns, r.termination) for r in local.results]
    assert sum(sum(r.forfeits_of(s).values()) for r in via_pipe.results for s in range(2)) == 0


def test_faulty_bots_forfeit_by_cause_and_leave_no_process(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    players = [cmd(BOTS / "crash.py", pid_file), cmd(BOTS / "silent.py", pid_file), cmd(BOTS / "malformed.py"),
               cmd(BOTS / "illegal.py")]
    causes = ["crash", "timeout", "malformed", "illegal"]
    start = time.monotonic()
    result = run_arena(players, games=1, seed=2, preset="standard", move_seconds=0.25, jobs=3)
    assert time.monotonic() - start < 60
    assert "jobs 1" in result.note and "note:" in result.table()
    game = result.results[0]
    for seat, (name, cause) in enumerate(zip(players, causes)):
        turns = turns_of(game.turns, seat, 4)
        assert turns > 5
        assert game.forfeits_of(seat) == {c: (turns if c == cause else 0) for c in causes}, (name, game.turns)
    assert game.illegal == (0, 0, 0, turns_of(game.turns, 3, 4))
    assert game.termination == "blocked" or game.termination  # nobody plays: the pool empties, everyone passes
    table = result.table()
    assert "timeout" in table and "crash" in table and "malformed" in table
    summary = result.summary()["bots"]
    assert summary[players[1]]["forfeits"]["timeout"] == turns_of(game.turns, 1, 4)
    started = pids(pid_file)
    assert len(started) >= 2  # the crash bot was started once per game, the silent bot once
    assert not any(alive(p) for p in started)


def test_crashed_bot_is_restarted_for_the_next_game(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    result = run_arena([cmd(BOTS / "crash.py", pid_file), "easy"], games=2, seed=4, preset="standard",
                       move_seconds=5)
    assert len(pids(pid_file)) == 2
    assert [r.forfeits_of(r.seats.index(f"cmd:{shlex.join([sys.executable, str(BOTS / 'crash.py'), str(pid_file)])}"))
            ["crash"] > 0 for r in result.results] == [True, True]
    assert not any(alive(p) for p in pids(pid_file))


def test_a_program_that_ignores_eof_and_sigterm_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    bot = ExternalBot(cmd(BOTS / "stubborn.py", pid_file)[4:], move_seconds=1)
    bot.start()
    assert bot.hello["engine"] == "stubborn"
    [pid] = pids(pid_file)
    assert alive(pid)
    bot.close()
    assert not alive(pid)


def test_bad_commands_fail_early() -> None:
    with pytest.raises(RummikubError, match="cannot start"):
        run_arena(["cmd:/nonexistent/bot --fast", "easy"], games=1, preset="standard")
    with pytest.raises(RummikubError, match="handshake"):
        run_arena([f"cmd:{PY} -c \"print('hi')\"", "easy"], games=1, preset="standard")
    with pytest.raises(RummikubError, match="command"):
        run_arena(["cmd:  ", "easy"], games=1, preset="standard")


@pytest.mark.skipif(os.name != "posix", reason="sends signals")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_every_program(tmp_path: Path, sig: int) -> None:
    pid_file = tmp_path / "pids"
    env = dict(os.environ)
    arena = subprocess.Popen([sys.executable, "-m", "rummikub.cli", "arena", "--quiet", "--preset", "standard",
                              "--games", "3", "--move-seconds", "30",
                              "--players", f"{cmd(BOTS / 'stubborn.py', pid_file)},{cmd(BOTS / 'silent.py', pid_file)}"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 60
        while len(pids(pid_file)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        started = pids(pid_file)
        assert len(started) == 2 and all(alive(p) for p in started)
        time.sleep(0.5)  # the arena is waiting for an answer that never comes
        arena.send_signal(sig)
        out, err = arena.communicate(timeout=30)
    finally:
        if arena.poll() is None:
            arena.kill()
    assert arena.returncode == 130, err
    assert b"interrupted" in err and b"Traceback" not in err
    assert not any(alive(p) for p in started)
