"""rummikub.protocol in-process (no pipes): framing of request lines, rules, the check answer's details and
the engine's state (rules and bots cached per connection)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from rummikub import Game, RuleSet
from rummikub.protocol import Engine, ProtocolError, _lines


def test_lines_frames_requests_and_skips_long_ones() -> None:
    data = b'{"a": 1}\r\n\n' + b"x" * 20 + b"\nshort\n" + b"y" * 30 + b"\nlast"
    assert list(_lines(io.BytesIO(data), 10)) == [b'{"a": 1}', b"", 20, b"short", 30, b"last"]
    assert list(_lines(io.BytesIO(b"z" * 25), 10)) == [25]  # a long last line without a newline
    assert list(_lines(io.BytesIO(b""), 10)) == []


def test_rules_of_a_request() -> None:
    engine = Engine()
    assert engine.rules(None) == RuleSet.preset("standard")
    assert engine.rules({"preset": "digital"}) == RuleSet.preset("digital")
    assert engine.rules({"opening_threshold": 10}).opening_threshold == 10
    for bad, named in [({"preset": "standard", "override": {}}, "override"),
                       ({"preset": "standard", "overrides": {"bogus": 1}}, "bogus"), ("nope", "nope"),
                       ({"preset": "standard", "overrides": {"copies": None}}, "copies")]:
        with pytest.raises(ProtocolError, match=named) as exc:
            engine.rules(bad)
        assert exc.value.code == "bad_rules"


def ask(engine: Engine, **request: Any) -> dict[str, Any]:
    return engine.handle_line(json.dumps({"id": 1, **request}))


def test_check_group_notation_and_opening_points() -> None:
    engine = Engine()
    # an opening of a run and a group with a joker (the joker counts what it stands for: 11)
    answer = ask(engine, type="check", rack="R9 R10 J K11 B11 O11 K1", new_table="R9 R10 J | K11 B11 O11",
                 opened=False)
    assert answer["legal"] is True and answer["opening_points"] == 30 + 33 and answer["played"] == "K11 B11 O11 R9 R10 J"
    # the table's own sets do not count towards the opening
    answer = ask(engine, type="check", table="K1 K2 K3", rack="R9 R10 R11", new_table="K1 K2 K3 | R9 R10 R11",
                 opened=False)
    assert answer["opening_points"] == 30 and answer["legal"] is True
    # group: notation reads as a group
    answer = ask(engine, type="check", rack="K7 J J", new_table="group:K7 J J", opened=True)
    assert answer["legal"] is True and answer["played"] == "K7 J J"


def test_rules_and_bots_are_cached_per_engine() -> None:
    engine = Engine()
    assert engine.rules("classic") is engine.rules("classic")
    assert engine.rules({"preset": "classic", "overrides": {"turn_seconds": 9}}).turn_seconds == 9
    game = Game.new(players=2, preset="standard", seed=9)
    observation = game.view(game.current_player).to_dict()
    first = ask(engine, type="turn", observation=observation, bot="easy", seed=4)
    assert first["type"] == "result"
    assert list(engine._bots) == [("easy", 4)]
    ask(engine, type="turn", observation=observation, bot="easy", seed=4)
    ask(engine, type="turn", observation=observation, bot="medium")
    assert list(engine._bots) == [("easy", 4), ("medium", None)]


def test_quit_closes_and_validation_can_be_turned_off() -> None:
    engine = Engine(validate=False)
    assert ask(engine, type="solve", rack="R1", opend=False)["type"] == "result"  # not checked: ignored
    assert ask(engine, type="solve", rack=7)["code"] == "bad_notation"  # the handlers still refuse it
    assert not engine.closed
    assert ask(engine, type="quit") == {"id": 1, "type": "result"}
    assert engine.closed
