"""The store and the commands: a room resumes from its database in a new app (both writers), a faulty write
fails alone in its batch, and ``rummikub play --no-browser`` serves a room against bots."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rummikub.server.store import CreateRoom, LoopWriter, SeatRow, SetStatus, SQLiteStore, Writer
from tests.helpers.processes import child_env
from tests.integration.server_support import SERVE, client, hello, make_room, my_move, wait_turn_or_end


@pytest.mark.parametrize("writer", ["thread", "loop"])
def test_rooms_resume_from_the_database_in_a_new_app(tmp_path: Path, writer: str) -> None:
    db = str(tmp_path / "rooms.db")
    with client(db, writer=writer) as c:
        made = make_room(c, ["human", "easy"], rules={"preset": "standard", "overrides": {"turn_seconds": 600}})
        with c.websocket_connect(made["ws"]) as ws:
            state = wait_turn_or_end(ws, hello(ws, made, 0))
            for _ in range(3):
                state = wait_turn_or_end(ws, my_move(ws, state))
    with client(db, writer=writer) as c:
        assert c.get("/api/stats").json()["rooms"] == 1  # unfinished rooms are loaded at start-up
        with c.websocket_connect(made["ws"]) as ws:
            again = hello(ws, made, 0)
            assert again["view"] == state["view"] and again["your_turn"]


@pytest.mark.parametrize("kind", ["thread", "loop"])
def test_a_faulty_write_fails_alone_in_its_batch(tmp_path: Path, kind: str) -> None:
    store = SQLiteStore(str(tmp_path / "s.db"))
    writer: Writer | LoopWriter = Writer(store) if kind == "thread" else LoopWriter(store)

    async def main() -> list[object]:
        good = [CreateRoom(f"r{i}", 1.0, "{}", "waiting", (SeatRow(0, "human", None),)) for i in range(5)]
        duplicate = CreateRoom("r0", 1.0, "{}", "waiting", ())
        results = await asyncio.gather(*(writer.write(w) for w in good[:3]), writer.write(duplicate),
                                       *(writer.write(w) for w in good[3:]), writer.write(SetStatus("r4", "playing")),
                                       return_exceptions=True)
        return list(results)

    results = asyncio.run(main())
    assert [r is None for r in results] == [True, True, True, False, True, True, True]
    assert sorted(store.room_ids(["waiting"])) == ["r0", "r1", "r2", "r3"] and store.room_ids(["playing"]) == ["r4"]
    writer.close()


def test_play_serves_a_room_against_bots_and_prints_its_address(tmp_path: Path) -> None:
    env = child_env()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "play", "--vs", "easy,hard", "--preset", "classic",
                             "--db", str(tmp_path / "play.db"), "--no-browser", "--bot-delay", "0"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = ""
        end = time.monotonic() + 60
        while "http://" not in line and time.monotonic() < end:
            line = proc.stdout.readline()
        url = line[line.index("http://"):].strip()
        assert url.startswith("http://127.0.0.1:") and "#seat=0&key=" in url
        room = url.split("/room/")[1].split("#")[0]
        base = url.split("/room/")[0]
        with urllib.request.urlopen(f"{base}/api/rooms/{room}", timeout=30) as answer:
            info = json.load(answer)
        assert [s["kind"] for s in info["seats"]] == ["human", "easy", "hard"]
        assert info["status"] == "playing" and info["rules"]["name"] == "classic"
        with urllib.request.urlopen(url.split("#")[0], timeout=30) as page:
            assert page.status == 200
    finally:
        proc.terminate()
        proc.wait(30)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_a_damaged_room_is_unavailable_and_the_others_are_served(tmp_path: Path) -> None:
    import sqlite3

    db = str(tmp_path / "rooms.db")
    with client(db) as c:
        good = make_room(c, ["human", "easy"])
        bad = make_room(c, ["human", "easy"])
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE turns SET event = '{\"type\": \"fly\"}' WHERE room_id = ?", (bad["room"],))
        raw.execute("UPDATE games SET header = '{}' WHERE room_id = ?", (bad["room"],))
    with client(db) as c:
        assert c.get(f"/api/rooms/{bad['room']}").status_code == 404
        assert c.get(f"/api/rooms/{good['room']}").json()["status"] == "playing"
