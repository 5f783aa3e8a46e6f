"""Whole games played through ``rummikub engine`` over real pipes: this test keeps the game (with the
package) and sends each player's observation as a ``turn`` request; the engine's process answers every
action. The exchange itself uses only ``json`` and ``subprocess``, as a client in any language would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rummikub
from rummikub import Action, Game
from rummikub.bots import get_bot
from rummikub.protocol import validator

PACKAGE_ROOT = str(Path(rummikub.__file__).resolve().parent.parent)


class Engine:
    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = PACKAGE_ROOT + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen([sys.executable, "-m", "rummikub.cli", "engine"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.hello = json.loads(self.proc.stdout.readline())
        self.next_id = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.next_id += 1
        self.proc.stdin.write((json.dumps({"id": self.next_id, **request}) + "\n").encode())
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        assert answer["id"] == self.next_id
        return answer

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def _frozen() -> float:
    return 0.0


def play_local(players: list[tuple[str, int | None]], seed: int) -> Game:
    game = Game.new(players=len(players), preset="standard", seed=seed, clock=_frozen)
    bots = [get_bot(name, s) for name, s in players]
    while not game.is_terminal():
        p = game.current_player
        game.apply(bots[p].choose(game.view(p)), p)
    return game


@pytest.mark.parametrize("players,seed", [([("medium", None), ("easy", 7)], 11),
                                         ([("hard", 1), ("easy", 2), ("medium", 3)], 12)])
def test_whole_game_through_the_engine(players: list[tuple[str, int | None]], seed: int) -> None:
    engine = Engine()
    assert "turn" in engine.hello["capabilities"]
    game = Game.new(players=len(players), preset="standard", seed=seed, clock=_frozen)
    plays = 0
    while not game.is_terminal():
        p = game.current_player
        observation = game.view(p).to_dict()
        request = {"type": "turn", "observation": observation, "bot": players[p][0], "seed": players[p][1]}
        assert validator("turn").is_valid({"id": 0, **request})
        answer = engine.ask(request)
        assert answer["type"] == "result", answer
        assert validator("turnResult").is_valid(answer)
        action = Action.from_dict(answer["action"], rules=game.rules)
        plays += action.kind == "play"
        game.apply(action, p)  # refused (IllegalMoveError) if the engine's answer were illegal
        assert game.turn < 2000
    assert engine.close() == 0
    assert plays > 5
    # the same bots with the same seeds, in this process, play the identical game
    local = play_local(players, seed)
    assert game.returns() == local.returns()
    assert game.public_record() == local.public_record()


def test_turn_refuses_what_is_not_a_turn() -> None:
    engine = Engine()
    game = Game.new(players=2, preset="standard", seed=3, clock=_frozen)
    other = 1 - game.current_player
    cases = [
        ({"observation": game.view(other).to_dict()}, "bad_observation", f"player {other}"),
        ({"observation": game.spectator_view().to_dict()}, "bad_observation", "spectator"),
        ({"observation": game.view(game.current_player).to_dict(), "bot": "grandmaster"}, "unknown_bot",
         "grandmaster"),
        ({"observation": game.view(game.current_player).to_dict(), "bot": "os:system"}, "unknown_bot", "os:system"),
        ({"observation": {**game.view(game.current_player).to_dict(), "rack": "R1 X9"}}, "bad_observation", "X9"),
    ]
    for extra, code, named in cases:
        answer = engine.ask({"type": "turn", **extra})
        assert answer["type"] == "error" and answer["code"] in (code, "bad_request"), answer
        assert named in answer["message"] or answer["code"] == "bad_request", answer
    # and the connection goes on
    answer = engine.ask({"type": "turn", "observation": game.view(game.current_player).to_dict()})
    assert answer["type"] == "result" and answer["action"]["kind"] in ("play", "draw")
    assert engine.close() == 0
