"""Every view of many random bot games validates against the shipped JSON Schema, round-trips exactly, and
leaks nothing hidden: another player's rack, the pool's order or the seed, in any form (the JSON, the
numeric encoding, the public record). The leak test builds a twin game that looks the same to the viewer but
deals the hidden tiles differently (other racks, the pool, and the tiles others drew), and requires every
form the viewer gets to be identical.

The number of games is ``RUMMIKUB_VIEW_GAMES`` (default: a quick sample); the ``slow`` test plays 1,000.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import numpy as np
import pytest

from rummikub import Action, Draft, Game, PlayerView, Tile, TileSet
from rummikub.bots import get_bot
from rummikub.schemas import load_schema, schema_names, validator

PRESETS = ["standard", "classic", "digital", "sabra", "large"]
BOTS = ["easy", "medium", "hard"]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_764_590_000.0

    def __call__(self) -> float:
        return self.now


def _twin(game: Game, viewer: int | None, rng: random.Random) -> Game:
    """The game with every tile ``viewer`` cannot see dealt afresh (same counts): the other racks, the pool
    (and its order), and the tiles the others drew."""
    twin = game.copy()
    hidden_players = [q for q in range(game.players) if q != viewer]
    hidden = [t for q in hidden_players for t in game.rack(q)] + list(game._pool)
    rng.shuffle(hidden)
    start = 0
    for q in hidden_players:
        size = len(game.rack(q))
        twin._racks[q] = TileSet(hidden[start:start + size])
        start += size
    twin._pool = hidden[start:]
    full = list(TileSet.full(game.rules))
    twin._events = [dict(e, tiles=tuple(str(t) for t in rng.sample(full, len(e["tiles"]))))
                    if e["type"] == "draw" and e["player"] != viewer else e for e in game._events]
    twin._public_events = {}
    return twin


def _forms(view: PlayerView) -> tuple[str, str]:
    """The view's JSON and its numeric encoding, as text (NaN compares equal to itself as text)."""
    arrays = {k: np.asarray(v).ravel().tolist() for k, v in view.to_arrays().items()}
    return view.to_json(), json.dumps(arrays)


class ViewChecker:
    """Validates every view against the observation schema. A history is an array of independent events and
    each view's history extends the previous view's (checked), so each event is validated once per viewer
    and the rest of the view in full: the same verdict as validating every whole view, in linear time."""

    def __init__(self) -> None:
        from jsonschema import Draft202012Validator

        from rummikub.schemas import BASE_URI, registry

        self.observation = validator("observation")
        self.event = Draft202012Validator({"$ref": BASE_URI + "observation.schema.json#/$defs/public_event"},
                                          registry=registry())
        self.seen: dict[int | None, list[dict[str, Any]]] = {}

    def validate(self, viewer: int | None, data: dict[str, Any], whole: bool = False) -> None:
        if whole:
            self.observation.validate(data)
        history = data["history"]
        before = self.seen.get(viewer, [])
        assert history[:len(before)] == before, "a view's history changed what an earlier view showed"
        for event in history[len(before):]:
            self.event.validate(event)
        self.seen[viewer] = history
        self.observation.validate(dict(data, history=[]))


def _check_state(game: Game, rng: random.Random, seed: int, leaks: bool, checker: ViewChecker,
                 whole: bool = False) -> None:
    for viewer in [*range(game.players), None]:
        view = game.view(viewer) if viewer is not None else game.spectator_view()
        data = view.to_dict()
        checker.validate(viewer, data, whole)
        assert PlayerView.from_dict(json.loads(json.dumps(data))) == view
        text = json.dumps(data)
        assert "seed" not in data and str(seed) not in text
        for q in range(game.players):
            if q != viewer and len(game.rack(q)) >= 3:
                assert str(game.rack(q)) not in text
        if leaks:
            twin = _twin(game, viewer, rng)
            mirror = twin.view(viewer) if viewer is not None else twin.spectator_view()
            assert _forms(mirror) == _forms(view), f"viewer {viewer} can tell the hidden tiles apart"
            if viewer is None:
                assert twin.public_record() == game.public_record()
    public = game.public_record()
    validator("record").validate(public)
    text = json.dumps(public)
    assert "deal" not in public and "seed" not in public and str(seed) not in text
    assert " ".join(map(str, reversed(game._pool[-8:]))) not in text or len(game._pool) < 8


def play_checked_game(preset: str, players: int, seed: int, *, leak_every: int = 5) -> Game:
    rng = random.Random(seed)
    clock = FakeClock()
    game = Game.new(players, preset=preset, seed=seed, clock=clock)
    bots = [get_bot(rng.choice(BOTS), seed * 10 + i) for i in range(players)]
    action_schema, draft_schema = validator("action"), validator("draft")
    checker = ViewChecker()
    while not game.is_terminal():
        _check_state(game, rng, seed, game.turn % leak_every == 0, checker)
        p = game.current_player
        draft = game.draft
        draft_schema.validate(draft.to_dict())
        draft_schema.validate(draft.check())
        assert Draft.from_dict(game.view(p), draft.to_dict()).to_dict() == draft.to_dict()
        action = bots[p].choose(game.view(p))
        action_schema.validate(action.to_dict())
        assert Action.from_dict(action.to_dict(), game.rules) == action
        assert action in game.legal_actions()
        clock.now += rng.choice([1.0, 5.0, 30.0])
        if game.deadline is not None and rng.random() < 0.03:
            clock.now = game.deadline + 1
            event = game.advance_clock()
            assert event is not None
        else:
            game.apply(action)
    _check_state(game, rng, seed, True, checker, whole=True)
    record = game.record
    validator("record").validate(record)
    assert Game.from_json(json.dumps(record)).record == record
    return game


def _cases(count: int) -> list[tuple[str, int, int]]:
    out = []
    for i in range(count):
        preset = PRESETS[i % len(PRESETS)]
        top = 6 if preset == "large" else 4
        out.append((preset, 2 + (i // len(PRESETS)) % (top - 1), 10**12 + 7919 * i))
    return out


def test_schemas_are_valid_and_shipped() -> None:
    from jsonschema import Draft202012Validator

    assert {"action", "observation", "record", "draft"} <= set(schema_names())
    for name in schema_names():
        Draft202012Validator.check_schema(load_schema(name))
        assert load_schema(name)["$id"].endswith(f"/{name}.schema.json")


def test_the_schemas_refuse_what_they_should() -> None:
    game = Game.new(players=2, seed=3)
    view = game.view(0).to_dict()
    bad: list[tuple[str, Any]] = [
        ("observation", dict(view, rack=5)), ("observation", dict(view, extra=1)),
        ("observation", {k: v for k, v in view.items() if k != "pool_size"}),
        ("action", {"kind": "play"}), ("action", {"kind": "draw", "table": "R1 R2 R3"}),
        ("record", dict(game.public_record(), deal={"racks": [], "pool": ""})),
        ("draft", {"version": 1, "turn": 0, "player": 0, "sets": [{"id": "one", "tiles": "K1"}]}),
    ]
    for name, data in bad:
        assert not validator(name).is_valid(data), (name, data)


@pytest.mark.parametrize("preset, players, seed", _cases(int(os.environ.get("RUMMIKUB_VIEW_GAMES", "6"))))
def test_every_view_of_random_games(preset: str, players: int, seed: int) -> None:
    game = play_checked_game(preset, players, seed)
    assert game.outcome is not None


@pytest.mark.slow
def test_every_view_of_a_thousand_games() -> None:
    for preset, players, seed in _cases(int(os.environ.get("RUMMIKUB_VIEW_GAMES_SLOW", "1000"))):
        play_checked_game(preset, players, seed, leak_every=10)


def test_a_twin_is_told_apart_when_something_leaks() -> None:
    """The leak check itself can fail: a view that carried a hidden tile would differ from its twin's."""
    rng = random.Random(1)
    game = Game.new(players=3, seed=5)
    twin = _twin(game, 0, rng)
    assert _forms(twin.view(0)) == _forms(game.view(0))
    assert twin.rack(1) != game.rack(1) or twin._pool != game._pool
    leaky = twin.view(0)
    object.__setattr__(leaky, "rack_sizes", tuple(len(twin.rack(q)) + (q == 1) for q in range(3)))
    assert _forms(leaky) != _forms(game.view(0))
    assert Tile.parse("J") in TileSet.full(game.rules)
