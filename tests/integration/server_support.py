"""Shared pieces of the server tests: a test client on a fresh app, creating rooms, and a simple player that
plays the solver's hint (or draws) whenever it is its turn."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from tests.helpers.processes import child_env

from rummikub.server import Settings, create_app

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def client(db: str = ":memory:", **settings: Any) -> Iterator[TestClient]:
    """A test client on a fresh app (lifespan run: the store is open, rooms are loaded)."""
    settings.setdefault("bot_delay", 0.0)
    settings.setdefault("rate", 1000.0)
    with TestClient(create_app(db, Settings(**settings))) as c:
        yield c


def make_room(c: TestClient, seats: list[str], rules: Any = None, **extra: Any) -> dict[str, Any]:
    """Creates a room; returns the 201 answer."""
    body = {"rules": rules or {"preset": "standard"}, "seats": seats, **extra}
    answer = c.post("/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def hello(ws: WebSocketTestSession, made: dict[str, Any], seat: int) -> dict[str, Any]:
    """Authenticates ``seat`` and returns the first state message."""
    ws.send_json({"type": "hello", "seat": seat, "key": made["seats"][seat]["key"]})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "state", message
    return message


def next_of(ws: WebSocketTestSession, kind: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Receives until a message of ``kind`` (state messages on the way are kept in ``seen``)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if seen is not None:
            seen.append(message)
        if message["type"] == kind:
            return message
        assert message["type"] != "error", message


def wait_turn_or_end(ws: WebSocketTestSession, state: dict[str, Any],
                     seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """From ``state``, receives states until it is this seat's turn or the game is over."""
    while not (state["your_turn"] or state["room"]["status"] in ("game_over", "match_over")):
        state = next_of(ws, "state", seen)
    return state


def my_move(ws: WebSocketTestSession, state: dict[str, Any], seen: list[dict[str, Any]] | None = None,
            use_hint: bool = True, check: bool = True) -> dict[str, Any]:
    """Checks and plays the hint (or draws / passes); returns the state after the move."""
    action: dict[str, Any] | None = None
    if use_hint:
        ws.send_json({"type": "hint", "id": "h"})
        answer = next_of(ws, "hint", seen)
        assert answer["id"] == "h"
        action = answer["action"]
    if action is not None and check:  # check the draft first, as the page does
        view = state["view"]
        sets = [{"id": f"s{i + 1}", "tiles": t.strip()} for i, t in enumerate(action["table"].split("|"))]
        ws.send_json({"type": "check", "draft": {"version": 1, "turn": view["turn"], "player": view["player"],
                                                 "sets": sets}})
        checked = next_of(ws, "checked", seen)
        assert checked["problems"] or checked["legal"], checked
    if action is None:
        action = {"kind": "draw" if state["can_draw"] else "pass"}
    turn = state["view"]["turn"]
    ws.send_json({"type": "action", "action": action})
    while True:
        message = next_of(ws, "state", seen)
        if message["view"]["turn"] != turn or message["view"]["outcome"] is not None:
            return message


def play_to_end(ws: WebSocketTestSession, state: dict[str, Any], seen: list[dict[str, Any]] | None = None,
                max_turns: int = 400) -> dict[str, Any]:
    """Plays this seat's turns until the game is over; the final state."""
    for _ in range(max_turns):
        state = wait_turn_or_end(ws, state, seen)
        if state["room"]["status"] in ("game_over", "match_over"):
            return state
        state = my_move(ws, state, seen)
    raise AssertionError("the game did not end")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


SERVE = "import sys; from rummikub.cli import main; sys.exit(main())"


@contextmanager
def serve_process(db: str, port: int, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """``rummikub serve`` as a real process on 127.0.0.1:``port``; waits until it answers HTTP."""
    env = child_env()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", db, "--bot-delay", "0", "--log-level", "warning", *extra],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_http(port, proc)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        assert proc.stderr is not None
        proc.stderr.close()


def wait_http(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """Waits until the server accepts connections (fails if the process ends first)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise AssertionError(f"the server exited with {proc.returncode}: {err}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the server did not start")


def http_json(port: int, path: str, body: Any = None) -> tuple[int, Any]:
    """A GET (or a POST with ``body``) to the server; (status, parsed JSON)."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers={"content-type": "application/json"},
                                     method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())

