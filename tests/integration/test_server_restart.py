"""A killed server loses nothing: ``rummikub serve`` runs as a real process, a game is played part way over a
real WebSocket, the process is SIGKILLed, a new one starts on the same database, and the game goes on from
exactly where it was (table, racks, turn, the clock's deadline, history) to its end."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.integration.server_support import free_port, http_json, serve_process


def _receive(ws: ClientConnection, kind: str = "state") -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message


def _until_my_turn(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    while not (state["your_turn"] or state["room"]["status"] != "playing"):
        state = _receive(ws)
    return state


def _move(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hint"}))
    action = _receive(ws, "hint")["action"] or {"kind": "draw" if state["can_draw"] else "pass"}
    ws.send(json.dumps({"type": "action", "action": action}))
    turn = state["view"]["turn"]
    while True:
        after = _receive(ws)
        if after["view"]["turn"] != turn:
            return after


def test_a_sigkilled_server_resumes_every_room_exactly(tmp_path: Any) -> None:
    db = str(tmp_path / "rooms.db")
    port = free_port()
    url = f"ws://127.0.0.1:{port}"
    rules = {"preset": "standard", "overrides": {"turn_seconds": 900}}
    with serve_process(db, port) as proc:
        status, made = http_json(port, "/api/rooms", {"rules": rules, "seats": ["human", "medium", "easy"]})
        assert status == 201
        key = made["seats"][0]["key"]
        with connect(f"{url}{made['ws']}") as ws:
            ws.send(json.dumps({"type": "hello", "seat": 0, "key": key}))
            state = _until_my_turn(ws, _receive(ws))
            for _ in range(4):
                state = _until_my_turn(ws, _move(ws, state))
                assert state["room"]["status"] == "playing"
            before = state
            os.kill(proc.pid, signal.SIGKILL)  # mid-game, with the connection open
            proc.wait(10)
    assert before["view"]["deadline"] is not None and before["view"]["turn"] >= 12
    with serve_process(db, port):
        status, info = http_json(port, f"/api/rooms/{made['room']}")
        assert status == 200 and info["status"] == "playing"
        with connect(f"{url}{made['ws']}") as ws:
            ws.send(json.dumps({"type": "hello", "seat": 0, "key": key}))
            resumed = _receive(ws)
            assert resumed["view"] == before["view"]  # table, rack, turn, deadline, history: all of it
            assert resumed["your_turn"] and resumed["room"]["match"] == before["room"]["match"]
            state = resumed
            for _ in range(400):
                state = _until_my_turn(ws, state)
                if state["room"]["status"] != "playing":
                    break
                state = _move(ws, state)
            assert state["view"]["outcome"] is not None
            assert state["view"]["history"][:len(before["view"]["history"])] == before["view"]["history"]
        status, record = http_json(port, f"/api/rooms/{made['room']}/record?seat=0&key={key}")
        assert status == 200 and record["outcome"] == state["view"]["outcome"]
        assert len(record["events"]) == len(state["view"]["history"])
