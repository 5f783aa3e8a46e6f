"""Bad input never breaks the server or a room: oversize, non-JSON, wrong shape, wrong key, out of turn,
flooding. Each gets an error message (never a traceback), the connection stays usable (except a failed
hello), and the room's state is exactly what it was."""

from __future__ import annotations

import json
import time

import pytest
from starlette.websockets import WebSocketDisconnect

from rummikub.server.limits import MAX_MESSAGE_BYTES
from tests.integration.server_support import client, hello, make_room, next_of, wait_turn_or_end


def _room_state(c: object, room: str) -> tuple[object, ...]:
    hub = c.app.state.hub  # type: ignore[attr-defined]
    r = hub.rooms[room]
    return (r.status, r.game.to_json(), r.match_no)


def _no_traceback(message: dict[str, object]) -> None:
    assert message["type"] == "error"
    assert "Traceback" not in json.dumps(message) and "File \"" not in json.dumps(message)


def test_bad_messages_get_errors_and_leave_the_room_as_it_was() -> None:
    with client() as c:
        made = make_room(c, ["human", "human"])
        with c.websocket_connect(made["ws"]) as a, c.websocket_connect(made["ws"]) as b:
            sa = hello(a, made, 0)
            sb = hello(b, made, 1)
            while sa["view"] is None:  # the room starts when the second person arrives
                sa = next_of(a, "state")
            mover, other, seat = (a, b, 0) if sa["your_turn"] else (b, a, 1)
            turn = sa["view"]["turn"]
            before = _room_state(c, made["room"])
            bad: list[tuple[str, str]] = [
                ("x" * (MAX_MESSAGE_BYTES + 10), "too_large"),
                ("{not json", "bad_json"),
                ("[1, 2]", "bad_message"),
                (json.dumps({"type": "action"}), "bad_message"),
                (json.dumps({"type": "action", "action": {"kind": "play"}}), "bad_message"),
                (json.dumps({"type": "action", "action": {"kind": "fly"}}), "bad_message"),
                (json.dumps({"type": "frobnicate"}), "bad_message"),
                (json.dumps({"type": "hint", "extra": 1}), "bad_message"),
                (json.dumps({"type": "check", "draft": {"version": 1, "turn": 0, "player": 0, "sets": "R1"}}),
                 "bad_message"),
                (json.dumps({"type": "hello", "seat": seat, "key": "again"}), "hello_again"),
                (json.dumps({"type": "action", "action": {"kind": "play", "table": "R1 R2 R3 | K99"}}), "illegal"),
                (json.dumps({"type": "action", "action": {"kind": "play", "table": "R1 R2"}}), "illegal"),
                (json.dumps({"type": "next_game"}), "not_now"),
                (json.dumps({"type": "rematch"}), "not_now"),
            ]
            for text, code in bad:
                mover.send_text(text)
                answer = next_of(mover, "error")
                _no_traceback(answer)
                assert answer["code"] == code, (text[:80], answer)
            other.send_json({"type": "action", "action": {"kind": "draw"}, "id": "x1"})
            out_of_turn = next_of(other, "error")
            assert out_of_turn["code"] == "illegal" and out_of_turn["reason"] == "not_your_turn"
            assert out_of_turn["id"] == "x1"
            mover.send_bytes(b"\xff\xfe")
            assert next_of(mover, "error")["code"] == "bad_json"
            assert _room_state(c, made["room"]) == before
            mover.send_json({"type": "action", "action": {"kind": "draw"}})  # the room still plays
            after = next_of(mover, "state")
            while after["view"]["turn"] == turn:
                after = next_of(mover, "state")
            assert after["view"]["turn"] == turn + 1 and after["your_turn"] is False
            last = after["view"]["history"][-1]
            assert last["type"] == "draw" and last["player"] == seat


def test_a_wrong_key_or_seat_is_refused_and_the_connection_closed() -> None:
    with client() as c:
        made = make_room(c, ["human", "human", "easy"])
        wrong = [{"type": "hello", "seat": 0, "key": made["seats"][1]["key"]},
                 {"type": "hello", "seat": 2, "key": made["seats"][0]["key"]},  # a bot's seat
                 {"type": "hello", "seat": 5, "key": made["seats"][0]["key"]},
                 {"type": "hello", "seat": 0, "key": "x" * 100},
                 {"type": "action", "action": {"kind": "draw"}}]  # no hello first
        for message in wrong:
            with c.websocket_connect(made["ws"]) as ws:
                ws.send_json(message)
                answer = ws.receive_json()
                _no_traceback(answer)
                assert answer["code"] == "auth" and made["seats"][0]["key"] not in json.dumps(answer)
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()
        info = c.get(f"/api/rooms/{made['room']}").json()
        assert info["status"] == "waiting" and not any(s["joined"] for s in info["seats"])
        with c.websocket_connect("/ws/no-such-room") as ws:
            ws.send_json({"type": "hello", "watch": True})
            assert ws.receive_json()["code"] == "not_found"


def test_flooding_is_rate_limited_and_the_connection_keeps_working() -> None:
    with client(rate=5.0, burst=10) as c:
        made = make_room(c, ["human", "easy"])
        with c.websocket_connect(made["ws"]) as ws:
            state = wait_turn_or_end(ws, hello(ws, made, 0))
            before = _room_state(c, made["room"])
            for _ in range(200):
                ws.send_json({"type": "check", "draft": {"version": 1, "turn": 0, "player": 0, "sets": []}})
            answers = []
            limited = None
            while limited is None:
                m = ws.receive_json()
                answers.append(m["type"])
                if m["type"] == "error":
                    limited = m
            assert limited["code"] == "rate_limited"
            assert 9 <= answers.count("checked") <= 12  # the burst was served, the rest refused
            assert _room_state(c, made["room"]) == before
            time.sleep(0.5)  # tokens come back
            ws.send_json({"type": "action", "action": {"kind": "draw"}})
            after = next_of(ws, "state")
            assert after["view"]["turn"] == state["view"]["turn"] + 1
            assert after["view"]["history"][-1]["player"] == 0 and after["view"]["history"][-1]["type"] == "draw"
