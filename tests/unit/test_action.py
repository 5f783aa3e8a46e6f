"""Actions: one type for a play (the whole new table), a draw and a pass; text and JSON round trips; a Play
from the search is an Action; the legal actions of a position, lazily."""

from __future__ import annotations

import pickle

import pytest

from rummikub import (
    Action,
    ActionKind,
    Game,
    InvalidMeldError,
    InvalidNotationError,
    Play,
    RuleSet,
    SearchLimitError,
    Table,
    TileSet,
    plays,
    solve,
)
from rummikub.game import LegalActions


@pytest.mark.parametrize("text", ["draw", "pass", "play R1 R2 R3", "play K8 O8 R8 B8 | R5 J R7",
                                  "play KJJ7 | R10 R11 R12 R13"])
def test_text_and_json_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action and Action.from_dict(action.to_dict()) == action
    assert eval(repr(action), {"Action": Action}) == action
    assert pickle.loads(pickle.dumps(action)) == action and str(pickle.loads(pickle.dumps(action))) == text
    assert hash(Action.parse(text)) == hash(action)


def test_kinds_and_tables() -> None:
    assert Action.draw().kind is ActionKind.DRAW and Action.draw().table is None
    assert Action.pass_().kind is ActionKind.PASS and Action.pass_().to_dict() == {"kind": "pass"}
    play = Action.play("K8 O8 R8 B8 | R1-3")
    assert play.kind is ActionKind.PLAY and play.table == Table.parse("R1 R2 R3 | K8 B8 O8 R8")
    # the order given is kept for display, and ignored by equality
    assert play.to_dict() == {"kind": "play", "table": "K8 O8 R8 B8 | R1 R2 R3"}
    assert play == Action.play(Table.parse("R1 R2 R3 | K8 B8 O8 R8")) and play != Action.draw()
    assert len({play, Action.play("R1 R2 R3 | K8 B8 O8 R8"), Action.draw(), Action.parse("draw")}) == 2
    with pytest.raises(AttributeError):
        play.table = Table()  # type: ignore[misc]


@pytest.mark.parametrize("bad", ["", "jump", "draw R1", "play", "play R1 R2 R3 |", 7, None])
def test_bad_text_is_refused_with_the_input_named(bad: object) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Action.parse(bad)  # type: ignore[arg-type]
    assert repr(bad)[:12] in str(info.value)


@pytest.mark.parametrize("bad", [[], {"kind": "jump"}, {"kind": "play"}, {"kind": "draw", "table": "R1 R2 R3"},
                                 {"kind": "play", "table": 5}, {"kind": "draw", "extra": 1}])
def test_bad_json_is_refused(bad: object) -> None:
    with pytest.raises(InvalidNotationError):
        Action.from_dict(bad)


def test_an_invalid_set_is_an_invalid_meld() -> None:
    with pytest.raises(InvalidMeldError):
        Action.parse("play R1 R2 R4")
    with pytest.raises(InvalidMeldError, match="does not hold the tiles"):
        Action.play("R1 R2 R3", layout=[["R1", "R2"]])  # type: ignore[list-item]


def test_rules_bound_the_tiles() -> None:
    tiny = RuleSet(numbers=5, colours=3, copies=1, jokers=0, rack_size=3, max_players=3)
    with pytest.raises(ValueError):
        Action.parse("play R11 R12 R13", tiny)


def test_a_play_from_the_search_is_an_action() -> None:
    found = solve("R1 R2 R3", "R4 K9")
    assert isinstance(found, Play) and isinstance(found, Action) and found.kind is ActionKind.PLAY
    assert found == Action.play("R1 R2 R3 R4") and hash(found) == hash(Action.play("R1 R2 R3 R4"))
    assert str(found) == "play R1 R2 R3 R4" and found.to_dict() == {"kind": "play", "table": "R1 R2 R3 R4"}
    assert found.tiles == TileSet.parse("R4") and found.value == 4
    every = list(plays("R1 R2 R3", "R4 R5 K9"))
    assert all(isinstance(p, Action) for p in every)


def test_legal_actions_are_lazy_and_complete() -> None:
    game = Game.new(players=2, seed=11)
    legal = game.legal_actions()
    assert isinstance(legal, LegalActions) and bool(legal)
    assert legal._plays is None  # bool and `in` for the draw need no search
    assert Action.draw() in legal and Action.pass_() not in legal and "draw" not in legal
    actions = list(legal)
    assert actions[-1] == Action.draw() and len(actions) == len(legal) == legal.count()
    assert len(set(actions)) == len(actions)
    for action in actions[:-1]:
        copy = game.copy()
        copy.apply(action)
        assert copy.turn == 1 and game.turn == 0


def test_legal_actions_past_the_limit_say_so() -> None:
    table = "K1 K2 K3 K4 K5 K6 K7 | B1 B2 B3 B4 B5 B6 B7 | O1 O2 O3 O4 O5 O6 O7"
    rack = TileSet.parse("R1 R2 R3 R4 R5 R6 R7 R8 R9 K8 B8 O8 J J")
    rules = RuleSet()
    legal = LegalActions(Table.parse(table), rack, rules, opened=True, pool_size=10, over=False, limit=5)
    assert bool(legal) and Action.draw() in legal  # no search needed
    with pytest.raises(SearchLimitError, match=r"legal_actions\(limit=5\)"):
        len(legal)
    with pytest.raises(SearchLimitError):
        list(legal)
