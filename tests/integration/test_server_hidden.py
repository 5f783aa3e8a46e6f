"""Hidden information: every message each seat and a spectator receive over a whole game is checked against the
game's full record (read after the end): a seat's view holds its own rack exactly and nothing of the other
racks, the pool order or the seeds; the spectator's holds no rack at all."""

from __future__ import annotations

import json
import threading
from typing import Any

from rummikub import Game
from tests.integration.server_support import client, hello, make_room, next_of, play_to_end

SECRET_KEYS = {"seed", "deal", "racks", "pool", "key", "key_hash"}


def _walk_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        out = set(value)
        for v in value.values():
            out |= _walk_keys(v)
        return out
    if isinstance(value, list):
        out = set()
        for v in value:
            out |= _walk_keys(v)
        return out
    return set()


def _racks_after_each_event(record: dict[str, Any]) -> list[list[str]]:
    """The racks after 0, 1, 2, ... events, by replaying the record's prefixes."""
    out = []
    for n in range(len(record["events"]) + 1):
        game = Game.from_record(dict(record, events=record["events"][:n], outcome=None))
        out.append([str(game.rack(p)) for p in range(game.players)])
    return out


def test_every_message_of_a_whole_game_reveals_only_what_its_receiver_may_see() -> None:
    with client() as c:
        made = make_room(c, ["human", "medium", "human"])
        received: dict[Any, list[dict[str, Any]]] = {0: [], 2: [], "watch": []}
        texts: dict[Any, list[str]] = {0: [], 2: [], "watch": []}
        with c.websocket_connect(made["ws"]) as w0, c.websocket_connect(made["ws"]) as w2, \
                c.websocket_connect(made["ws"]) as watch:
            watch.send_json({"type": "hello", "watch": True})
            received["watch"].append(watch.receive_json())
            first0 = hello(w0, made, 0)
            first2 = hello(w2, made, 2)
            received[0].append(first0)
            received[2].append(first2)
            errors: list[BaseException] = []

            def player(ws: Any, first: dict[str, Any], seat: int) -> None:
                try:
                    play_to_end(ws, first, received[seat])
                except BaseException as exc:  # pragma: no cover - reported below
                    errors.append(exc)

            def spectator() -> None:
                try:
                    while True:
                        m = next_of(watch, "state", received["watch"])
                        if m["room"]["status"] in ("game_over", "match_over"):
                            return
                except BaseException as exc:  # pragma: no cover - reported below
                    errors.append(exc)

            threads = [threading.Thread(target=player, args=(w0, first0, 0)),
                       threading.Thread(target=player, args=(w2, first2, 2)), threading.Thread(target=spectator)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert not errors, errors
        room = c.app.state.hub.rooms[made["room"]]  # type: ignore[attr-defined]
        record = room.match.games[0].record
        match_seed = room.match.seed
        for who, messages in received.items():
            texts[who] = [json.dumps(m) for m in messages]
    racks = _racks_after_each_event(record)
    secrets_text = [str(record["seed"]), str(match_seed), made["seats"][0]["key"], made["seats"][2]["key"]]
    pool = record["deal"]["pool"].split()
    pool_prefix = " ".join(pool[:6])  # the next tiles to be drawn, in order
    states = 0
    for who, messages in received.items():
        seat = None if who == "watch" else who
        for message, text in zip(messages, texts[who]):
            assert not (_walk_keys(message) & SECRET_KEYS), (who, _walk_keys(message) & SECRET_KEYS)
            for secret in secrets_text:
                assert secret not in text
            assert pool_prefix not in text
            if message["type"] != "state" or message["view"] is None:
                continue
            states += 1
            view = message["view"]
            assert message["seat"] == seat and view["player"] == seat
            events = view["history"]
            n = len(events)
            if seat is None:
                assert view["rack"] is None
                assert all("tiles" not in e for e in events if e["type"] == "draw")
            else:
                assert view["rack"] == racks[n][seat], (seat, n)
                assert all("tiles" not in e for e in events if e["type"] == "draw" and e["player"] != seat)
            assert view["rack_sizes"] == [len(r.split()) for r in racks[n]]
    assert states > 20

