"""``rummikub replay RECORD`` through a real process: a full record prints racks, a public record only counts,
both end with the scores; a broken record is an error message and exit status 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers.processes import child_env

from rummikub import Game
from rummikub.bots import get_bot

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = child_env()
    return subprocess.run([sys.executable, "-m", "rummikub.cli", "replay", *args], input=stdin, text=True,
                          capture_output=True, env=env, timeout=120)


def _finished_game() -> Game:
    game = Game.new(players=3, preset="classic", seed=12, clock=lambda: 1_000.0)
    bots = [get_bot("medium", 1), get_bot("hard", 2), get_bot("easy", 3)]
    while not game.is_terminal():
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    return game


def test_full_and_public_records(tmp_path: Path) -> None:
    game = _finished_game()
    full, public = tmp_path / "full.json", tmp_path / "public.json"
    full.write_text(game.to_json())
    public.write_text(json.dumps(game.public_record()))
    shown = _run(str(full))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "game record: classic, 3 players, seed 12, player %d starts" % game.first_player
    assert sum(line.startswith("deal ") for line in lines) == 3
    assert sum(line.startswith("turn ") for line in lines) == game.turn
    assert any(line.strip().startswith("rack ") for line in lines)
    assert lines[-2].startswith("game over:") and lines[-1].startswith("scores")
    assert lines[-1].count("player ") == 3
    assert f"table {game.table_text}" in shown.stdout
    seen = _run(str(public))
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.splitlines()[0].startswith("public record: classic, 3 players, player")
    assert "deal " not in seen.stdout and " rack " not in seen.stdout
    for p in range(3):
        assert str(game.rack(p)) not in seen.stdout or not game.rack(p)
    assert seen.stdout.splitlines()[-2:] == lines[-2:]
    # the counts agree turn by turn
    counts = [line for line in lines if line.strip().startswith("racks ")]
    assert counts == [line for line in seen.stdout.splitlines() if line.strip().startswith("racks ")]
    hidden = _run(str(full), "--no-racks")
    assert hidden.returncode == 0 and "deal " not in hidden.stdout
    piped = _run("-", stdin=game.to_json())
    assert piped.stdout == shown.stdout


def test_broken_records_are_errors(tmp_path: Path) -> None:
    game = _finished_game()
    record = game.record
    del record["events"][3]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    for args in ([str(broken)], [str(tmp_path / "missing.json")], ["-"]):
        done = _run(*args, stdin="{not json")
        assert done.returncode == 1 and done.stderr.startswith("rummikub replay: ") and "Traceback" not in done.stderr
