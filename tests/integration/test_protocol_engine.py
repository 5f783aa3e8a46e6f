"""``rummikub engine`` driven through real pipes: the handshake, every request, errors that leave the
connection open, blank lines, oversize lines, ``quit`` and a clean end of input. Every line the engine
writes is validated against schemas/protocol.schema.json with ``jsonschema``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rummikub
from rummikub import Game, RuleSet, Table, TileSet, check_turn, plays, solve
from rummikub.bots import get_bot
from rummikub.protocol import MAX_LINE_BYTES, _fast_check, load_schema, validator

PACKAGE_ROOT = str(Path(rummikub.__file__).resolve().parent.parent)
ENGINE = [sys.executable, "-m", "rummikub.cli", "engine"]


def engine_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = PACKAGE_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


class Pipe:
    """The engine as a subprocess, spoken to line by line (raw bytes in, decoded and validated JSON out)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=engine_env())
        self.hello = self.read()

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.endswith(b"\n"), f"engine wrote {line!r} (stderr: {self.stderr()})"
        message: dict[str, Any] = json.loads(line)
        assert validator().is_valid(message), message
        return message

    def ask(self, request: dict[str, Any] | str) -> dict[str, Any]:
        line = request if isinstance(request, str) else json.dumps(request)
        self.write(line.encode() + b"\n")
        answer = self.read()
        if isinstance(request, dict) and answer["type"] == "result":
            assert validator(f"{request['type']}Result").is_valid(answer), answer
        return answer

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return "(running)"
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode()

    def finish(self) -> tuple[int, bytes, bytes]:
        out, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, out, err


@pytest.fixture(scope="module")
def engine() -> Any:
    pipe = Pipe()
    yield pipe
    code, out, err = pipe.finish()
    assert (code, out, err) == (0, b"", b"")


def test_handshake(engine: Pipe) -> None:
    hello = engine.hello
    assert validator("hello").is_valid(hello)
    assert hello["protocol"] == 1 and hello["engine"] == "rummikub" and hello["version"] == rummikub.__version__
    assert hello["capabilities"] == ["solve", "plays", "check", "arrange", "turn"]
    assert {"easy", "medium", "hard"} <= set(hello["bots"])


POSITIONS = [
    ("R5 J R7 | K7 B7 O7", "R8 K7 O1", True, "tiles"),
    ("", "R10 R11 R12 K1 K2 K3 B9", False, "tiles"),
    ("K1 K2 K3 K4 | R9 B9 O9", "K5 O9 J R1 B13", True, "value"),
    ("K1 K2 K3 K4 | R9 B9 O9", "K5 O9 J R1 B13", True, "penalty"),
    ("R1 R2 R3", "B5 O7", True, "tiles"),
]


@pytest.mark.parametrize("table,rack,opened,objective", POSITIONS)
def test_solve_matches_the_library(engine: Pipe, table: str, rack: str, opened: bool, objective: Any) -> None:
    answer = engine.ask({"id": "s", "type": "solve", "table": table, "rack": rack, "opened": opened,
                         "objective": objective})
    want = solve(table, rack, opened=opened, objective=objective)
    assert answer["id"] == "s" and answer["type"] == "result"
    if want is None:
        assert answer["play"] is None
    else:
        got = answer["play"]
        assert (got["tiles"], got["value"], got["count"]) == (str(want.tiles), want.value, len(want.tiles))
        assert Table.parse(got["table"]).canonical() == want.table.canonical()
        assert got["rack_left"] == str(TileSet.parse(rack) - want.tiles)
        # the answer is a legal turn by the independent checker
        assert check_turn(Table.parse(table), TileSet.parse(rack), Table.parse(got["table"]), rules=RuleSet(),
                          opened=opened) == want.tiles


def test_solve_rules_presets_and_overrides(engine: Pipe) -> None:
    # a 25-point opening: refused under the standard threshold, played with the threshold overridden
    request = {"id": 1, "type": "solve", "rack": "K7 B7 O7 R4", "opened": False}
    assert engine.ask(request)["play"] is None
    low = engine.ask({**request, "rules": {"preset": "standard", "overrides": {"opening_threshold": 20}}})
    assert low["play"]["tiles"] == "K7 B7 O7"
    full = engine.ask({**request, "rules": RuleSet().replace(opening_threshold=20).to_dict()})
    assert full["play"] == low["play"]
    assert engine.ask({**request, "rules": "sabra"})["play"] is None


def test_solve_state_limit(engine: Pipe) -> None:
    answer = engine.ask({"id": 9, "type": "solve", "table": "R1 R2 R3 | K4 B4 O4", "rack": "R4 K5 J", "limit": 1})
    assert answer["type"] == "error" and answer["code"] == "search_limit" and answer["id"] == 9
    assert engine.ask({"id": 10, "type": "solve", "table": "R1 R2 R3", "rack": "R4", "limit": None})["play"]


def test_plays_and_its_limit(engine: Pipe) -> None:
    table, rack = "R1 R2 R3 | K5 B5 O5", "R4 R5 K6 K7 R6 J"
    want = list(plays(table, rack))
    answer = engine.ask({"id": "p", "type": "plays", "table": table, "rack": rack})
    assert answer["count"] == len(want) == len(answer["plays"]) > 3
    assert [p["tiles"] for p in answer["plays"]] == [str(p.tiles) for p in want]
    too_many = engine.ask({"id": "q", "type": "plays", "table": table, "rack": rack, "limit": 3})
    assert too_many["code"] == "too_many_plays" and too_many["id"] == "q"
    assert f"{len(want)} legal plays" in too_many["message"] and "limit 3" in too_many["message"]
    over = engine.ask({"id": "r", "type": "plays", "table": table, "rack": rack, "limit": 10**6})
    assert over["code"] == "bad_request" and "'limit'" in over["message"]
    assert engine.ask({"id": "s", "type": "plays", "rack": "K1 O5"}) == {"id": "s", "type": "result", "plays": [],
                                                                         "count": 0}


def test_check(engine: Pipe) -> None:
    ok = engine.ask({"id": 1, "type": "check", "table": "B4 B5 B6 | K8 O8 R8", "rack": "B3 B8 K2",
                     "new_table": "B3 B4 B5 B6 | K8 B8 O8 R8"})
    assert ok["legal"] is True and ok["problems"] == [] and ok["played"] == "B3 B8" and ok["opening_points"] is None
    opening = engine.ask({"id": 2, "type": "check", "rack": "K9 B9 O9 R1", "new_table": "K9 B9 O9",
                          "opened": False})
    assert opening["legal"] is False and opening["opening_points"] == 27
    assert [p["code"] for p in opening["problems"]] == ["opening_too_low"] and opening["problems"][0]["set"] is None
    sets = engine.ask({"id": 3, "type": "check", "table": "R1 R2 R3", "rack": "K5 O5 B5 R7 R8",
                       "new_table": "R1 R2 R3 | R7 R8 | K5 O5 B5 | K5 R8 R9"})
    assert sets["legal"] is False
    assert [(p["set"], p["code"]) for p in sets["problems"]] == [("s2", "loose_tile"), ("s4", "invalid_set")]
    removed = engine.ask({"id": 4, "type": "check", "table": "R1 R2 R3 R4", "rack": "K5 O5 B5",
                          "new_table": "R1 R2 R3 | K5 O5 B5"})
    assert removed["problems"][0]["code"] == "table_tile_removed" and "R4" in removed["problems"][0]["message"]


def test_arrange(engine: Pipe) -> None:
    assert engine.ask({"id": 1, "type": "arrange", "tiles": "R1 R2 R3 R4 K4 B4"})["table"] == "R1 R2 R3 | K4 B4 R4"
    assert engine.ask({"id": 2, "type": "arrange", "tiles": "K1 K2"})["table"] is None


BAD_LINES = [
    ("{not json", None, "bad_json", "not JSON"),
    ("[" * 100_000, None, "bad_json", "not JSON"),
    ("[1, 2]", None, "bad_request", "a request is a JSON object"),
    ('{"type": "solve", "rack": "R1"}', None, "bad_request", "'id'"),
    ('{"id": true, "type": "solve", "rack": "R1"}', None, "bad_request", "'id'"),
    ('{"id": 5, "type": "ponder"}', 5, "unknown_type", "'ponder'"),
    ('{"id": 6, "type": "solve"}', 6, "bad_request", "'rack' is a required property"),
    ('{"id": 7, "type": "solve", "rack": "R1", "opend": false}', 7, "bad_request", "'opend'"),
    ('{"id": 8, "type": "solve", "rack": ["R1"]}', 8, "bad_request", "field 'rack'"),
    ('{"id": 9, "type": "solve", "rack": "R1 X7"}', 9, "bad_notation", "'X7'"),
    ('{"id": 10, "type": "solve", "rack": "R14"}', 10, "bad_notation", "'R14'"),
    ('{"id": 11, "type": "solve", "table": "R1 R2", "rack": "R3"}', 11, "bad_notation", "'R1 R2'"),
    ('{"id": 12, "type": "solve", "rack": "R1", "rules": "chess"}', 12, "bad_rules", "'chess'"),
    ('{"id": 13, "type": "solve", "rack": "R1", "rules": {"preset": "standard", "overrides": {"copies": "two"}}}',
     13, "bad_rules", "copies"),
    ('{"id": 14, "type": "solve", "table": "R1 R2 R3 | R1 R2 R3", "rack": "R1"}', 14, "bad_position", "R1"),
    ('{"id": 15, "type": "arrange", "tiles": "J J J"}', 15, "bad_position", "J"),
    ('{"id": 16, "type": "turn", "observation": {"version": 1}}', 16, "bad_request", "observation"),
    ('{"id": "\u00e9\u00e8", "type": "solve", "rack": "R1", "objective": "fun"}', "\u00e9\u00e8", "bad_request",
     "'objective'"),
]


@pytest.mark.parametrize("line,rid,code,named", BAD_LINES)
def test_bad_requests_get_an_error_and_the_connection_goes_on(engine: Pipe, line: str, rid: Any, code: str,
                                                              named: str) -> None:
    answer = engine.ask(line)
    assert answer["type"] == "error" and answer["id"] == rid and answer["code"] == code, answer
    assert named in answer["message"]
    assert "Traceback" not in answer["message"]
    assert engine.ask({"id": "after", "type": "arrange", "tiles": "K1 K2 K3"})["table"] == "K1 K2 K3"


def test_invalid_utf8_blank_lines_and_crlf(engine: Pipe) -> None:
    engine.write(b"\xff\xfe\n")
    assert engine.read()["code"] == "bad_json"
    engine.write(b"\n   \n" + json.dumps({"id": 1, "type": "arrange", "tiles": "K1 K2 K3"}).encode() + b"\r\n")
    assert engine.read() == {"id": 1, "type": "result", "table": "K1 K2 K3"}  # blank lines get no answer


def test_oversize_line(engine: Pipe) -> None:
    big = json.dumps({"id": 1, "type": "solve", "rack": "R1 " * (MAX_LINE_BYTES // 3 + 10)}).encode()
    assert len(big) > MAX_LINE_BYTES
    engine.write(big + b"\n")
    answer = engine.read()
    assert answer["code"] == "line_too_long" and answer["id"] is None and str(MAX_LINE_BYTES) in answer["message"]
    assert engine.ask({"id": 2, "type": "arrange", "tiles": "K1 K2 K3"})["table"] == "K1 K2 K3"


def test_clean_end_of_input_and_quit() -> None:
    pipe = Pipe()
    pipe.write(json.dumps({"id": 1, "type": "arrange", "tiles": "K1 K2 K3"}).encode())  # no final newline
    code, out, err = pipe.finish()
    assert code == 0 and err == b""
    assert [json.loads(line) for line in out.splitlines()] == [{"id": 1, "type": "result", "table": "K1 K2 K3"}]
    pipe = Pipe()
    pipe.write(b'{"id": "bye", "type": "quit"}\n{"id": 2, "type": "arrange", "tiles": "K1 K2 K3"}\n')
    code, out, err = pipe.finish()
    assert code == 0 and err == b""
    assert [json.loads(line) for line in out.splitlines()] == [{"id": "bye", "type": "result"}]


def _observations() -> list[Any]:
    """Real observations of a game (player and spectator views, mid-game and at the end) and broken copies."""
    game = Game.new(players=3, preset="standard", seed=4, clock=lambda: 0.0)
    bots = [get_bot("medium"), get_bot("easy", 1), get_bot("hard", 2)]
    out: list[Any] = []
    while not game.is_terminal():
        p = game.current_player
        if game.turn % 15 == 0:
            out += [game.view(p).to_dict(), game.spectator_view().to_dict()]
        game.apply(bots[p].choose(game.view(p)), p)
    out += [game.view(0).to_dict()]
    good = out[-2]
    broken: list[Any] = [{**good, "rack": 5}, {**good, "rack": "R1 X9"}, {**good, "version": 2},
                         {**good, "history": [{"type": "teleport"}]}, {**good, "extra": 1},
                         {k: v for k, v in good.items() if k != "table"}, {**good, "rack_sizes": [-1, 2]},
                         {**good, "opened": "yes"}, {**good, "rules": {**good["rules"], "copies": "two"}}]
    return out + broken


def test_fast_validator_agrees_with_jsonschema() -> None:
    """The engine's fast check (fastjsonschema, draft-07) and jsonschema (draft 2020-12) agree on requests."""
    samples: list[Any] = [json.loads(line) for line, *_ in BAD_LINES if line.startswith("{\"id\"")]
    samples += [{"id": i, "type": t, **extra} for i, (t, extra) in enumerate([
        ("solve", {"rack": "R1"}), ("solve", {"rack": "R1", "limit": None}), ("solve", {"rack": "R1", "limit": 0}),
        ("solve", {"rack": "R1", "rules": {"preset": "x", "extra": 1}}), ("solve", {"rack": "R1", "rules": {}}),
        ("solve", {"rack": "R1", "rules": {"preset": "x", "overrides": []}}), ("solve", {"rack": "R1", "id": 1.5}),
        ("plays", {"rack": "R1", "limit": 100000}), ("plays", {"rack": "R1", "limit": 100001}),
        ("check", {"rack": "", "new_table": ""}), ("check", {"rack": "", "new_table": "", "opened": 1}),
        ("arrange", {"tiles": "R1"}), ("arrange", {"tiles": "R1", "rules": 3}), ("quit", {}), ("quit", {"x": 1}),
        ("solve", {"rack": "R1", "id": "x" * 201}), ("solve", {"rack": "R1", "id": None}),
    ])]
    samples += [{"id": i, "type": "turn", "observation": obs, **extra} for i, obs in enumerate(_observations())
                for extra in ({}, {"bot": "easy", "seed": 3}, {"seed": "3"}, {"bot": 1})]
    checked = 0
    seen: set[tuple[str, bool]] = set()
    for sample in samples:
        kind = sample.get("type")
        if kind not in ("solve", "plays", "check", "arrange", "turn", "quit"):
            continue
        fast = _fast_check(kind)
        assert fast is not None
        valid = validator(kind).is_valid(sample)
        assert fast(sample) == valid, sample
        seen.add((kind, valid))
        checked += 1
    assert checked > 30
    assert seen >= {(kind, valid) for kind in ("solve", "plays", "check", "arrange", "turn", "quit")
                    for valid in (True, False)}
    assert set(load_schema()["$defs"]) >= {"solve", "plays", "check", "arrange", "turn", "quit", "hello", "error"}
