"""The server over the ASGI test client: AI rooms played to the end, friend rooms, spectators, the draft check,
hints, the turn clock, external bots, the next game of a match and a rematch."""

from __future__ import annotations

import time
from typing import Any

from tests.integration.server_support import client, hello, make_room, my_move, next_of, play_to_end, \
    wait_turn_or_end


def test_ai_room_starts_at_once_and_plays_to_the_end_then_next_game_and_rematch() -> None:
    with client() as c:
        made = make_room(c, ["human", "easy"])
        assert c.get(f"/api/rooms/{made['room']}").json()["status"] == "playing"
        with c.websocket_connect(made["ws"]) as ws:
            state = hello(ws, made, 0)
            assert state["seat"] == 0 and state["view"]["player"] == 0 and state["view"]["rack"]
            assert state["room"]["seats"][0]["connected"] is True
            end = play_to_end(ws, state)
            outcome = end["view"]["outcome"]
            assert outcome is not None and end["room"]["status"] == "game_over"
            match = end["room"]["match"]
            assert match["games_played"] == 1 and match["total_games"] == 2
            assert sum(match["wins"]) == 1 and match["totals"] == [float(s) if "/" in s else int(s)
                                                                    for s in outcome["scores"]]
            ws.send_json({"type": "next_game"})
            second = next_of(ws, "state")
            assert second["room"]["status"] == "playing" and second["room"]["match"]["game"] == 2
            assert second["view"]["turn"] == 0 or second["view"]["history"]
            ws.send_json({"type": "next_game"})  # the second game is not over
            seen: list[dict[str, Any]] = []
            assert next_of(ws, "error", seen)["code"] == "not_now"
            latest = [m for m in seen if m["type"] == "state"]
            end2 = play_to_end(ws, latest[-1] if latest else second)
            assert end2["room"]["status"] == "match_over" and end2["room"]["match"]["over"]
            assert end2["room"]["match"]["games_played"] == 2 and end2["room"]["match"]["winners"]
            ws.send_json({"type": "rematch"})
            third = next_of(ws, "state")
            assert third["room"]["match"]["number"] == 2 and third["room"]["match"]["games_played"] == 0
            assert third["room"]["status"] == "playing"


def test_friend_room_waits_for_every_person_and_spectators_see_public_information() -> None:
    with client() as c:
        made = make_room(c, ["human", "human", "medium"])
        keys = [s.get("key") for s in made["seats"]]
        assert keys[0] and keys[1] and keys[0] != keys[1] and keys[2] is None and "url" not in made["seats"][2]
        assert made["seats"][1]["url"] == f"/room/{made['room']}#seat=1&key={keys[1]}"
        with c.websocket_connect(made["ws"]) as a:
            first = hello(a, made, 0)
            assert first["room"]["status"] == "waiting" and first["view"] is None
            with c.websocket_connect(made["ws"]) as watch:
                watch.send_json({"type": "hello", "watch": True})
                w = watch.receive_json()
                assert w["seat"] is None and w["view"] is None
                with c.websocket_connect(made["ws"]) as b:
                    started = hello(b, made, 1)
                    assert started["room"]["status"] == "playing"
                    assert started["view"]["rack"] and started["view"]["player"] == 1
                    seen = next_of(watch, "state")
                    while seen["view"] is None:
                        seen = next_of(watch, "state")
                    assert seen["view"]["player"] is None and seen["view"]["rack"] is None
                    assert seen["room"]["watchers"] == 1
                    assert [s["joined"] for s in seen["room"]["seats"][:2]] == [True, True]
                    watch.send_json({"type": "action", "action": {"kind": "draw"}})
                    assert next_of(watch, "error")["code"] == "spectator"


def test_check_answers_for_legal_and_invalid_drafts_and_changes_nothing() -> None:
    with client() as c:
        made = make_room(c, ["human", "easy"])
        with c.websocket_connect(made["ws"]) as ws:
            state = wait_turn_or_end(ws, hello(ws, made, 0))
            view = state["view"]
            bad = {"version": 1, "turn": view["turn"], "player": 0,
                   "sets": [{"id": "s1", "tiles": view["rack"].split()[0] + " " + view["rack"].split()[1]}]}
            ws.send_json({"type": "check", "draft": bad, "id": 7})
            answer = next_of(ws, "checked")
            assert answer["id"] == 7 and answer["legal"] is False and answer["problems"]
            assert any(p["set"] == "s1" for p in answer["problems"])
            ws.send_json({"type": "hint"})
            hint = next_of(ws, "hint")["action"]
            if hint is not None:
                sets = [{"id": f"s{i + 1}", "tiles": t.strip()} for i, t in enumerate(hint["table"].split("|"))]
                ws.send_json({"type": "check", "draft": {"version": 1, "turn": view["turn"], "player": 0,
                                                         "sets": sets}})
                good = next_of(ws, "checked")
                assert good["legal"] is True and good["problems"] == []
                assert good["opening_points"] is None or good["opening_points"] >= 30
            stale = dict(bad, turn=view["turn"] + 5)
            ws.send_json({"type": "check", "draft": stale})
            assert next_of(ws, "checked")["legal"] is False
            info = c.get(f"/api/rooms/{made['room']}").json()
            assert info["status"] == "playing"
            ws.send_json({"type": "action", "action": {"kind": "draw"}})
            after = next_of(ws, "state")
            assert after["view"]["turn"] == view["turn"] + 1  # the checks changed nothing: the turn was still ours


def test_the_clock_draws_the_penalty_when_a_turn_runs_out_and_untimed_rooms_never_do() -> None:
    with client() as c:
        made = make_room(c, ["human", "easy"], rules={"preset": "standard", "overrides": {"turn_seconds": 1}})
        with c.websocket_connect(made["ws"]) as ws:
            state = wait_turn_or_end(ws, hello(ws, made, 0))
            deadline = state["view"]["deadline"]
            assert deadline is not None and deadline > time.time() - 0.5
            size = state["view"]["rack_sizes"][0]
            start = time.monotonic()
            after = next_of(ws, "state")
            while after["view"]["turn"] == state["view"]["turn"]:
                after = next_of(ws, "state")
            assert time.monotonic() - start >= 0.5
            timeouts = [e for e in after["view"]["history"] if e.get("cause") == "timeout"]
            assert timeouts and timeouts[-1]["player"] == 0, after["view"]["history"][-1]
            assert after["view"]["rack_sizes"][0] == size + 1
        untimed = make_room(c, ["human", "easy"])
        with c.websocket_connect(untimed["ws"]) as ws:
            state = wait_turn_or_end(ws, hello(ws, untimed, 0))
            assert state["view"]["deadline"] is None
            time.sleep(1.2)
            info = c.get(f"/api/rooms/{untimed['room']}").json()
            assert info["status"] == "playing"
            ws.send_json({"type": "action", "action": {"kind": "draw"}})
            assert next_of(ws, "state")["view"]["turn"] == state["view"]["turn"] + 1


def test_an_external_bot_plays_its_seat_over_the_socket() -> None:
    with client() as c:
        made = make_room(c, ["external", "easy"])
        assert made["seats"][0]["kind"] == "external" and made["seats"][0]["key"]
        assert c.get(f"/api/rooms/{made['room']}").json()["status"] == "waiting"
        with c.websocket_connect(made["ws"]) as ws:
            state = hello(ws, made, 0)
            assert state["room"]["status"] == "playing"
            state = my_move(ws, wait_turn_or_end(ws, state), use_hint=False)
            assert any(e["type"] == "draw" and e["player"] == 0 for e in state["view"]["history"])


def test_large_rooms_take_six_seats_and_others_four() -> None:
    with client() as c:
        made = make_room(c, ["human"] + ["easy"] * 5, rules={"preset": "large"})
        assert len(made["seats"]) == 6
        answer = c.post("/api/rooms", json={"rules": {"preset": "standard"}, "seats": ["human"] + ["easy"] * 4})
        assert answer.status_code == 422 and answer.json()["code"] == "bad_request"
