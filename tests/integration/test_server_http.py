"""The server's HTTP side: creating rooms (and refusing bad requests), public room information, records
(public during the game, full with a seat's key once it is over), pages and security headers."""

from __future__ import annotations

import json

from tests.integration.server_support import client, hello, make_room, play_to_end


def test_room_requests_are_validated() -> None:
    with client() as c:
        bad = [
            ({"seats": ["human"]}, "bad_request"),
            ({"seats": ["human", "grandmaster"]}, "bad_request"),
            ({"seats": ["easy", "medium"]}, "bad_request"),  # nobody to play
            ({"seats": ["human", "easy"], "rules": {"preset": "nope"}}, "bad_rules"),
            ({"seats": ["human", "easy"], "rules": {"preset": "standard", "overrides": {"colour": 3}}}, "bad_rules"),
            ({"seats": ["human", "easy"], "rules": {"numbers": "many"}}, "bad_rules"),
            ({"seats": ["human", "easy"], "rules": {"preset": "standard", "overrides": {"turn_seconds": 0.01}}},
             "bad_request"),
            ({"seats": ["human", "easy"], "rounds": 0}, "bad_request"),
            ({"seats": ["human", "easy"], "password": "x"}, "bad_request"),
            ([1, 2], "bad_request"),
        ]
        for body, code in bad:
            answer = c.post("/api/rooms", json=body)
            assert answer.status_code == 422, (body, answer.text)
            assert answer.json()["code"] == code, (body, answer.json())
        assert c.post("/api/rooms", content=b"{oops", headers={"content-type": "application/json"}).status_code == 400
        assert c.post("/api/rooms", content=b"x" * 20000).status_code == 413
        made = make_room(c, ["human", "easy"], rules={"preset": "classic", "overrides": {"turn_seconds": 30}},
                         rounds=2)
        info = c.get(f"/api/rooms/{made['room']}").json()
        assert info["rules"]["turn_seconds"] == 30 and info["match"]["total_games"] == 4
        assert c.get("/api/rooms/nope").status_code == 404


def test_records_are_public_during_the_game_and_full_only_with_a_key_after_it() -> None:
    with client() as c:
        made = make_room(c, ["human", "easy"])
        room = made["room"]
        key = made["seats"][0]["key"]
        public = c.get(f"/api/rooms/{room}/record").json()
        text = json.dumps(public)
        assert "deal" not in public and "seed" not in text and "racks" not in text
        info = json.dumps(c.get(f"/api/rooms/{room}").json())
        assert "seed" not in info and key not in info
        early = c.get(f"/api/rooms/{room}/record", params={"seat": 0, "key": key})
        assert early.status_code == 409 and early.json()["code"] == "not_over"
        with c.websocket_connect(made["ws"]) as ws:
            play_to_end(ws, hello(ws, made, 0))
        assert c.get(f"/api/rooms/{room}/record", params={"seat": 0, "key": "wrong"}).status_code == 403
        full = c.get(f"/api/rooms/{room}/record", params={"seat": 0, "key": key})
        assert full.status_code == 200
        record = full.json()
        assert record["deal"]["racks"] and record["outcome"] is not None and record["events"]
        public_after = c.get(f"/api/rooms/{room}/record").json()
        assert "deal" not in public_after and public_after["outcome"] == record["outcome"]
        assert c.get(f"/api/rooms/{room}/record", params={"game": 3}).status_code == 404


def test_pages_and_security_headers() -> None:
    with client() as c:
        made = make_room(c, ["human", "easy"])
        for path in ("/", f"/room/{made['room']}"):
            page = c.get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            assert "default-src 'self'" in page.headers["content-security-policy"]
            assert page.headers["x-content-type-options"] == "nosniff"
        assert c.get("/room/nope").status_code == 404
