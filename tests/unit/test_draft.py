"""Drafts for user interfaces: stable set ids, new sets anywhere, tiles in the order given, problems per set
with reasons, the live opening points, JSON in and out, and no edits once the turn is over."""

from __future__ import annotations

from typing import Any

import pytest

from rummikub import Action, Draft, Game, IllegalMoveError, InvalidNotationError, RuleSet, Table, TileSet
from rummikub.schemas import validator


def _draft(table: str, rack: str, opened: bool = True, rules: RuleSet | None = None) -> Draft:
    return Draft(Table.parse(table), TileSet.parse(rack), rules or RuleSet(), opened=opened)


def test_ids_are_stable_and_never_reused() -> None:
    d = _draft("R1 R2 R3 | K7 B7 O7", "R4 K1 K2 K3")
    assert d.ids == ("s1", "s2")
    new = d.insert_set(["K1", "K2"], before="s2")
    assert new == "s3" and d.ids == ("s1", "s3", "s2")
    d.place("K3", new, position=0)
    assert [str(t) for t in d[new]] == ["K3", "K1", "K2"]
    d.undo()
    d.undo()
    assert d.ids == ("s1", "s2")
    assert d.insert_set("K1 K2 K3") == "s4"  # s3 is not handed out again
    d.move("R3", "s1", "s4")
    assert d.ids == ("s1", "s2", "s4")   # no index shifted: every set keeps its id
    right = d.split("s4", 1)
    assert right == "s5" and d.ids == ("s1", "s2", "s4", "s5")
    d.merge("s4", "s5")
    assert d.ids == ("s1", "s2", "s4")


def test_problems_per_set_and_for_the_whole_draft() -> None:
    d = _draft("", "K9 B9 O9 R1 R2", opened=False)
    assert d.opening_points == 0 and d.check() == {"legal": False, "problems": d.problems(), "opening_points": 0}
    nines = d.insert_set(["K9", "B9", "O9"])
    ones = d.insert_set(["R1", "R2"])
    problems = d.problems()
    assert problems == [{"set": ones, "code": "loose_tile", "message": "2 tiles: a set needs at least 3"}]
    assert d.opening_points == 27 and not d.legal
    d.merge(nines, ones)
    assert d.problems()[0]["set"] == nines and d.problems()[0]["code"] == "invalid_set"
    d.undo()
    d.take_back("R1")
    d.take_back("R2")
    problems = d.problems()
    assert [(p["set"], p["code"]) for p in problems] == [(None, "opening_too_low")]
    assert "27" in problems[0]["message"] and "30" in problems[0]["message"]
    for answer in (d.check(), d.to_dict()):
        validator("draft").validate(answer)
    opened = _draft("R1 R2 R3", "R4", opened=True)
    assert opened.opening_points is None


def test_editing_errors_change_nothing() -> None:
    d = _draft("R1 R2 R3 | K7 B7 O7", "R4 K1")
    d.place("R4", "s1")
    before = d._snapshot()
    attempts: list[Any] = [
        lambda: d.place("R13"), lambda: d.place("K1", "s9"), lambda: d.place("K1", "s1", position=9),
        lambda: d.move("K9", "s1"), lambda: d.move("R1", "s7"), lambda: d.split("s1", 0), lambda: d.split("s1", 4),
        lambda: d.merge("s1", "s1"), lambda: d.take_back("R1"), lambda: d.insert_set([]),
        lambda: d.insert_set(["K1"], before="nope"), lambda: d.redo(),
    ]
    for attempt in attempts:
        with pytest.raises(IllegalMoveError) as info:
            attempt()
        assert info.value.reason == "invalid_edit"
        assert d._snapshot() == before


def test_json_round_trip_against_a_game_and_a_view() -> None:
    game = Game.new(players=2, seed=21)
    p = game.current_player
    rack = list(game.rack(p))
    draft = game.draft
    draft.insert_set(rack[:2])
    draft.place(rack[2], draft.ids[-1], position=1)
    data = draft.to_dict()
    assert data["turn"] == 0 and data["player"] == p and data["sets"][0] == {
        "id": "s1", "tiles": f"{rack[0]} {rack[2]} {rack[1]}"}
    validator("draft").validate(data)
    for source in (game, game.view(p)):
        again = Draft.from_dict(source, data)
        assert again.to_dict() == data and again.placed == draft.placed and again.started
        assert again.check() == draft.check()
        again.undo()
        assert not again.started and again.to_dict()["sets"] == []
    # a client cannot conjure tiles, or draft for another player or turn
    bad_tile = dict(data, sets=[{"id": "s1", "tiles": " ".join(map(str, rack)) + " " + str(rack[0])}])
    for bad, reason in ((bad_tile, "invalid_edit"), (dict(data, turn=3), "stale_draft"),
                        (dict(data, player=1 - p), "not_your_turn")):
        with pytest.raises(IllegalMoveError) as info:
            Draft.from_dict(game, bad)
        assert info.value.reason == reason
    for malformed in ({}, dict(data, version=2), dict(data, sets=[{"id": "x1", "tiles": "K1"}]),
                      dict(data, sets=[{"id": "s1", "tiles": "Q1"}]), dict(data, sets="s1")):
        with pytest.raises((InvalidNotationError, IllegalMoveError)):
            Draft.from_dict(game, malformed)
    with pytest.raises(ValueError):
        Draft.from_dict(game.spectator_view(), data)


def test_a_draft_commits_with_the_order_kept() -> None:
    rules = RuleSet()
    racks = [TileSet.parse("R10 R11 R12 K1"), TileSet.parse("B1 B2 B3")]
    game = Game.from_deal(racks, list(TileSet.full(rules) - racks[0] - racks[1]), rules=rules)
    draft = game.draft
    draft.insert_set(["R12", "R10", "R11"])
    assert draft.legal and draft.opening_points == 33
    game.commit()
    assert game.table_text == "R12 R10 R11" and game.history()[-1]["table"] == "R12 R10 R11"
    assert game.table == Table.parse("R10 R11 R12") and str(game.table) == "R10 R11 R12"
    assert draft.ended and not draft.legal and str(game.draft) == "R12 R10 R11"
