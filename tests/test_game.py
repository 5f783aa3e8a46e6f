"""The game: turns, drafts with undo, the clock, the end, views and records."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import pytest

from rummikub import (
    Action,
    Colour,
    Draft,
    Game,
    IllegalMoveError,
    InvalidRecordError,
    Meld,
    PlayerView,
    RuleSet,
    Table,
    TileSet,
    TurnTimeoutError,
)
from rummikub.game import table_from_text, table_to_text
from rummikub.scoring import Termination

# A tiny set for scripted games: K B O 1..5, one copy, no jokers (15 tiles), no opening threshold.
TINY = RuleSet(name="tiny", numbers=5, colours=3, copies=1, jokers=0, rack_size=3, opening_threshold=0,
               max_players=3)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def tiny_game(racks: list[str], pool: str, rules: RuleSet = TINY, clock: FakeClock | None = None) -> Game:
    return Game.from_deal(racks, pool, rules=rules, clock=clock)


def full_tiny_pool(racks: list[str], rules: RuleSet = TINY) -> str:
    used = TileSet.parse(" ".join(racks))
    return " ".join(map(str, TileSet.full(rules) - used))


# --- setup ---------------------------------------------------------------------------------------------------

def test_new_game_setup() -> None:
    game = Game.new(players=4, preset="classic", seed=7)
    assert game.players == 4 and game.pool_size == 50 and game.turn == 0 and not game.is_over
    assert all(len(game.rack(p)) == 14 for p in range(4))
    assert game.current_player == game.first_player
    legal = game.legal_actions()
    assert Action.draw() in legal and Action.pass_() not in legal
    assert game.rules.turn_seconds == 60 and game.deadline is not None
    assert not any(game.opened(p) for p in range(4))
    assert Game.new(players=4, preset="classic", seed=7, turn_seconds=None).deadline is None
    assert Game.new(players=2, seed=1).rules.name == "standard" and Game.new(players=2, seed=1).deadline is None


def test_from_deal_checks_the_tile_count() -> None:
    racks = ["K1 K2 K3", "B1 B2 B3"]
    with pytest.raises(InvalidRecordError) as info:
        tiny_game(racks, "O1 O2")
    assert info.value.reason == "tile_count" and "missing" in str(info.value)
    with pytest.raises(InvalidRecordError) as info:
        tiny_game(racks, full_tiny_pool(racks) + " K1")
    assert info.value.reason in ("tile_count", "notation")


# --- turns ---------------------------------------------------------------------------------------------------

def test_turn_order_draw_and_pass() -> None:
    racks = ["K1 K2 K3", "B1 B2 B4"]
    rules = TINY.replace(max_players=2)
    game = tiny_game(racks, full_tiny_pool(racks, rules), rules)  # pool: K4 K5 B3 B5 O1 ... O5
    with pytest.raises(IllegalMoveError) as info:
        game.apply(Action.draw(), player=1)
    assert info.value.reason == "not_your_turn"
    with pytest.raises(IllegalMoveError) as info:
        game.apply(Action.pass_())
    assert info.value.reason == "pool_not_empty"
    game.apply(Action.draw())
    assert str(game.rack(0)) == "K1 K2 K3 K4" and game.current_player == 1 and game.pool_size == 8
    while game.pool_size:
        game.apply("draw")
    legal = game.legal_actions()
    assert Action.pass_() in legal and Action.draw() not in legal and list(legal)[-1] == Action.pass_()
    with pytest.raises(IllegalMoveError) as info:
        game.apply(Action.draw())
    assert info.value.reason == "pool_empty"


def test_going_out_ends_the_game() -> None:
    racks = ["K1 K2 K3", "B1 B2 B4"]
    pool = full_tiny_pool(racks, TINY.replace(max_players=2))
    game = tiny_game(racks, pool)
    game.apply(Action.play("K1 K2 K3"))
    assert game.is_over and game.is_terminal() and game.outcome is not None
    assert game.outcome.termination is Termination.RUMMIKUB and game.outcome.winners == (0,)
    assert game.outcome.scores == (7, -7) and game.returns() == (7.0, -7.0)
    assert not game.legal_actions() and len(game.legal_actions()) == 0 and list(game.legal_actions()) == []
    with pytest.raises(IllegalMoveError) as info:
        game.apply("draw")
    assert info.value.reason == "game_over"


def test_pool_exhausted_after_a_full_round_of_passes() -> None:
    racks = ["K1 K2 K4", "B1 B2 B4", "O1 O3 O5"]
    pool = full_tiny_pool(racks)
    game = tiny_game(racks, pool)
    for _ in range(6):                                        # pool: 6 -> 0
        game.apply("draw")
    assert game.pool_size == 0
    game.apply("pass"); game.apply("pass")
    assert not game.is_over
    rack = game.rack(game.current_player)
    # a play resets the count of consecutive passes
    melds = [m for m in ("K1 K2 K3", "K3 K4 K5", "K2 K3 K4", "O3 O4 O5", "B3 B4 B5") if TileSet.parse(m) <= rack]
    if melds:
        game.apply(Action.play(melds[0]))
    else:
        game.apply("pass")
    while not game.is_over:
        game.apply("pass")
    outcome = game.outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EXHAUSTED
    values = [game.rack(p).value() for p in range(3)]
    assert outcome.rack_values == tuple(values) and sum(outcome.scores) == 0
    low = min(values)
    assert outcome.winners == tuple(p for p in range(3) if values[p] == low)
    passes = [e for e in game.record["events"][-3:]]
    assert all(e["type"] == "pass" for e in passes)


# --- drafts --------------------------------------------------------------------------------------------------

def opened_game() -> Game:
    """Ada has opened; the table holds B4 B5 B6 and K8 O8 R8; she holds B3 B8 and more."""
    rules = RuleSet.preset("pressman-2015")
    racks = [TileSet.parse("B3 B8 K1 K2 K3 O11 O12 O13"), TileSet.parse("R1 R2 R5")]
    table = Table.parse("B4 B5 B6 | K8 O8 R8")
    pool = list(TileSet.full(rules) - racks[0] - racks[1] - table.tiles())
    game = Game.from_deal([racks[0] | table.tiles(), racks[1]], pool, rules=rules)
    game.apply("play B4 B5 B6 | K8 O8 R8 | O11 O12 O13")  # Ada opens (36)
    game.apply("draw")                                     # Ben draws
    return game


def test_draft_editing_undo_redo_reset() -> None:
    game = opened_game()
    draft = game.draft
    assert [s.tiles for s in draft.sets] == [tuple(m.tiles) for m in game.table] and not draft.started
    assert draft.ids == ("s1", "s2", "s3")
    draft.place("B3", "s1", 0)
    draft.place("B8", "s2")
    assert str(draft.placed) == "B3 B8" and draft.valid and draft.legal
    assert draft.split("s1", 2) == "s4"    # B3 B4 | B5 B6: invalid while editing
    assert not draft.valid and [p["set"] for p in draft.problems()] == ["s1", "s4"]
    assert draft.ids == ("s1", "s4", "s2", "s3")
    draft.merge("s1", "s4")
    assert draft.valid and draft.ids == ("s1", "s2", "s3")
    assert draft.move("B8", "s2", None, before="s1") == "s5"  # B8 alone in a new first set
    assert not draft.valid and draft.ids[0] == "s5"
    draft.take_back("B8")
    assert str(draft.placed) == "B3" and draft.rack.count("B8") == 1
    draft.undo()
    draft.undo()
    assert draft.valid and str(draft.placed) == "B3 B8"
    draft.redo()
    assert not draft.valid
    draft.reset()
    assert not draft.started and draft.placed == TileSet()
    draft.undo()                           # reset is undoable
    assert draft.started
    draft.reset()
    # editing errors change nothing
    before = draft._snapshot()
    for bad in (lambda: draft.place("R13"), lambda: draft.move("K1", "s1"), lambda: draft.split("s1", 0),
                lambda: draft.merge("s2", "s2"), lambda: draft.take_back("B4"), lambda: draft.place("B3", "s9"),
                lambda: draft.redo(), lambda: draft.insert_set(["B3"], before="s9"),
                lambda: draft.insert_set(["K1", "K1"])):
        with pytest.raises(IllegalMoveError) as info:
            bad()
        assert info.value.reason == "invalid_edit"
        assert draft._snapshot() == before


def test_refused_commits_change_nothing() -> None:
    game = opened_game()
    attempts: list[tuple[str, Any]] = [
        ("no_rack_tile", lambda: game.commit()),
        ("no_rack_tile", lambda: game.apply("play K8 O8 R8 | O11 O12 O13 | B4 B5 B6")),
        ("table_tile_removed", lambda: game.apply("play B4 B5 B6 | O11 O12 O13")),
        ("not_in_rack", lambda: game.apply("play B4 B5 B6 | K8 O8 R8 | O11 O12 O13 | R11 R12 R13")),
        ("invalid_set", lambda: game.apply("play B4 B5 B6 | K8 O8 R8 | O11 O12 O13 | K1 K2 K4")),
        ("not_your_turn", lambda: game.apply("play B3 B4 B5 B6 | K8 O8 R8 | O11 O12 O13", player=1)),
    ]
    for reason, attempt in attempts:
        before = game._snapshot()
        with pytest.raises(IllegalMoveError) as info:
            attempt()
        assert info.value.reason == reason, str(info.value)
        assert game._snapshot() == before
    # a draft with a loose tile: refused, and the draft is kept for more editing
    new = game.draft.place("K1")
    before = game._snapshot()
    with pytest.raises(IllegalMoveError) as info:
        game.commit()
    assert info.value.reason == "loose_tile" and game._snapshot() == before
    game.draft.place("K2", new)
    game.draft.place("K3", new, position=0)
    game.commit()
    event = game.history()[-1]
    assert event["played"] == "K1 K2 K3" and event["table"].endswith("| K3 K1 K2")


def test_commit_keeps_the_order_of_the_tiles_in_each_set() -> None:
    game = opened_game()
    draft = game.draft
    draft.move("K8", "s2", "s2")               # K8 to the end: O8 R8 K8
    draft.place("B8", "s2")                    # O8 R8 K8 B8
    new = draft.insert_set(["B3"], before="s1")
    assert str(draft) == "B3 | B4 B5 B6 | O8 R8 K8 B8 | O11 O12 O13" and draft.ids == (new, "s1", "s2", "s3")
    draft.merge(new, "s1")
    game.commit()
    assert game.table_text == "B3 B4 B5 B6 | O8 R8 K8 B8 | O11 O12 O13"
    assert game.view(1).to_dict()["table"] == game.table_text
    assert str(game.draft) == game.table_text and game.draft.ids == ("s1", "s2", "s3")
    assert Game.from_json(game.to_json()).table_text == game.table_text
    game.apply("draw")
    # a play given as a plain Table (as bots give) leaves the sets it did not touch as they were laid
    game.apply(Action.play(game.table + Table.parse("K1 K2 K3")))
    assert game.table_text == "B3 B4 B5 B6 | O8 R8 K8 B8 | O11 O12 O13 | K1 K2 K3"


def test_a_draft_from_an_ended_turn_refuses_edits() -> None:
    game = opened_game()
    old = game.draft
    old.place("B3", "s1", 0)
    game.apply("draw")
    assert old.ended and not old.legal and old.problems()[0]["code"] == "stale_draft"
    assert game.draft is not old and not game.draft.started
    for edit in (lambda: old.place("B8", "s2"), old.undo, old.reset, lambda: old.take_back("B3")):
        with pytest.raises(IllegalMoveError) as info:
            edit()
        assert info.value.reason == "stale_draft"
    with pytest.raises(IllegalMoveError) as info:
        Draft.from_dict(game, old.to_dict())
    assert info.value.reason == "stale_draft"


# --- the clock -----------------------------------------------------------------------------------------------

def clock_game(**overrides: Any) -> tuple[Game, FakeClock]:
    clock = FakeClock()
    game = Game.new(players=2, preset="classic", seed=5, clock=clock, **overrides)
    return game, clock


def test_timeout_without_a_move_draws_one() -> None:
    game, clock = clock_game()
    p = game.current_player
    assert game.deadline == 160.0
    clock.now += 59.5
    assert game.advance_clock() is None and game.deadline - clock.now == pytest.approx(0.5)
    clock.now += 0.5
    event = game.advance_clock()
    assert event is not None and event["cause"] == "timeout" and len(event["tiles"]) == 1
    assert len(game.rack(p)) == 15 and game.current_player != p and game.pool_size == 77
    assert game.deadline == clock.now + 60
    assert game.advance_clock(now=clock.now + 59) is None
    assert game.advance_clock(now=clock.now + 61) is not None and game.deadline == clock.now + 121


def test_an_action_after_the_deadline_is_refused_and_changes_nothing() -> None:
    game, clock = clock_game()
    p = game.current_player
    rack = game.rack(p)
    game.draft.place(rack.tiles()[0])
    clock.now += 61
    before = game._snapshot()
    for attempt in (game.commit, lambda: game.apply("draw")):
        with pytest.raises(TurnTimeoutError) as info:
            attempt()
        assert isinstance(info.value, IllegalMoveError) and info.value.reason == "turn_timeout"
        assert info.value.deadline == 160.0 and info.value.now == 161.0
        assert game._snapshot() == before
    # the caller advances the clock: the unfinished move is undone and three tiles drawn
    event = game.advance_clock()
    assert event is not None and event["cause"] == "failed_move"
    assert game.table == Table() and len(game.rack(p)) == 17 and rack <= game.rack(p)
    assert game.pool_size == 78 - 3


def test_commit_valid_draft_on_timeout() -> None:
    rules = RuleSet.preset("classic").replace(commit_valid_draft_on_timeout=True)
    clock = FakeClock()
    racks = [TileSet.parse("R10 R11 R12 K1"), TileSet.parse("B1 B2 B3")]
    pool = list(TileSet.full(rules) - racks[0] - racks[1])
    game = Game.from_deal(racks, pool, rules=rules, clock=clock)
    game.draft.insert_set(["R12", "R10", "R11"])
    clock.now += 60
    event = game.advance_clock()
    assert event is not None and event["type"] == "play" and event["cause"] == "timeout"
    assert game.table == Table.parse("R10 R11 R12") and game.opened(0) and game.table_text == "R12 R10 R11"
    # an illegal draft at timeout is still a failed move
    game.draft.place("B1")
    clock.now += 60
    event = game.advance_clock()
    assert event is not None and event["cause"] == "failed_move" and len(game.rack(1)) == 6


def test_timeouts_replay_and_a_resumed_game_keeps_its_deadline() -> None:
    game, clock = clock_game()
    clock.now += 60
    game.advance_clock()
    game.draft.place(game.rack(game.current_player).tiles()[0])
    clock.now += 60
    game.advance_clock()
    clock.now += 10
    later = FakeClock()
    later.now = clock.now + 55                      # another process, 55 s later
    replayed = Game.from_json(game.to_json(), clock=later)
    assert replayed.to_json() == game.to_json()
    assert [e["cause"] for e in replayed.record["events"]] == ["timeout", "failed_move"]
    assert replayed.deadline == game.deadline == 280.0
    with pytest.raises(TurnTimeoutError):
        replayed.apply("draw")                      # the turn's 60 s ran out 5 s ago
    assert replayed.advance_clock() is not None


# --- views and hidden information ----------------------------------------------------------------------------

def test_views_hide_other_racks_and_the_pool() -> None:
    game = Game.new(players=3, preset="pressman-2015", seed=3)
    drawer = game.current_player
    game.apply("draw")
    spectator = game.spectator_view()
    assert spectator.player is None and spectator.rack is None and not spectator.is_my_turn
    for p in [0, 1, 2, None]:
        view = game.view(p) if p is not None else spectator
        assert isinstance(view, PlayerView)
        assert view.rack == (game.rack(p) if p is not None else None) and view.table == game.table
        assert view.rack_sizes == game.rack_sizes() and view.pool_size == game.pool_size
        draw = view.history[0]
        assert draw["type"] == "draw" and draw["count"] == 1
        assert ("tiles" in draw) == (p == drawer)
        text = view.to_json()
        for other in range(3):
            if other != p:
                assert str(game.rack(other)) not in text
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.view(0).pool_size = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        game.view(0).history[0]["count"] = 5  # type: ignore[index]
    assert game.view(game.current_player).is_my_turn and game.view(game.current_player).can_draw


# --- records -------------------------------------------------------------------------------------------------

def scripted_game() -> Game:
    game = opened_game()
    game.apply("play B3 B4 B5 B6 | K8 B8 O8 R8 | O11 O12 O13")
    game.apply("draw")
    return game


def test_record_round_trip() -> None:
    game = scripted_game()
    text = game.to_json()
    replayed = Game.from_json(text)
    assert replayed._snapshot() == game._snapshot()
    assert replayed.to_json() == text
    seeded = Game.new(players=3, preset="sabra", seed=12)
    seeded.apply("draw"); seeded.apply("draw")
    again = Game.from_json(seeded.to_json())
    assert again._snapshot() == seeded._snapshot() and again.seed == 12


def _broken(record: dict[str, Any], change: Any) -> str:
    data = json.loads(json.dumps(record))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("change, reason", [
    (lambda d: d["deal"].__setitem__("pool", d["deal"]["pool"] + " K1"), "tile_count"),
    (lambda d: d["deal"]["racks"].__setitem__(1, "R1 R2"), "tile_count"),
    (lambda d: d["events"][0].__setitem__("table", "B4 B5 B6 | K8 O8 R8 | O11 O12"), "invalid_set"),
    (lambda d: d["events"][0].__setitem__("table", "B4 B5 B6 | K1 K2 K3"), "opening_too_low"),
    (lambda d: d["events"][2].__setitem__("table", "B4 B5 B6 | K8 O8 R8 | O11 O12 O13"), "no_rack_tile"),
    (lambda d: d["events"][1].__setitem__("player", 0), "out_of_turn"),
    (lambda d: d["events"][1].__setitem__("tiles", ["K13"]), "draw_mismatch"),
    (lambda d: d["events"][1].__setitem__("cause", "timeout"), "no_clock"),
    (lambda d: d["events"].append({"type": "pass", "player": 0}), "pool_not_empty"),
    (lambda d: d["events"].append({"type": "jump", "player": 0}), "format"),
    (lambda d: d.__setitem__("format", "chess"), "format"),
    (lambda d: d.__setitem__("outcome", {"termination": "rummikub"}), "outcome_mismatch"),
    (lambda d: d["rules"].__setitem__("colours", 9), "rules"),
])
def test_broken_records_are_refused(change: Any, reason: str) -> None:
    game = scripted_game()
    with pytest.raises(InvalidRecordError) as info:
        Game.from_json(_broken(game.record, change))
    assert info.value.reason == reason, str(info.value)


def test_seeded_record_must_match_its_seed() -> None:
    game = Game.new(players=2, preset="digital", seed=4)
    record = game.record
    record["seed"] = 5
    with pytest.raises(InvalidRecordError) as info:
        Game.from_record(record)
    assert info.value.reason == "deal_mismatch"
    with pytest.raises(InvalidRecordError):
        Game.from_json("{not json")


def test_group_of_one_tile_and_jokers_survives_the_record() -> None:
    table = Table([Meld.group(7, [Colour.BLACK], jokers=2), Meld.parse("R5 J R7")])
    text = table_to_text(table)
    assert text.endswith(" | R5 J R7")
    assert table_from_text(text) == table and table_from_text(text)[0].kind.value == "group"


def test_shared_win_fractions_in_the_record() -> None:
    racks = ["K1 K2 K4", "B1 B2 B4"]
    rules = TINY.replace(max_players=2)
    game = tiny_game(racks, full_tiny_pool(racks, rules), rules)
    while game.pool_size:
        game.apply("draw")
    while not game.is_over:
        game.apply("pass")
    assert game.outcome is not None and sum(game.outcome.scores) == 0
    assert all(isinstance(s, Fraction) for s in game.outcome.scores)
    assert Game.from_json(game.to_json()).outcome == game.outcome


def test_a_bot_plays_from_its_view_only() -> None:
    """The bot path: read game.view(player), answer with an Action (a Play from the search is one)."""
    search = pytest.importorskip("rummikub.search")
    game = Game.new(players=3, preset="digital", seed=17)
    while not game.is_over and game.turn < 400:
        view = game.view(game.current_player)
        assert view.is_my_turn
        play = search.solve(view.table, view.rack, rules=view.rules, opened=view.has_opened)
        if play is not None:
            assert play in game.legal_actions()
            game.apply(play, player=view.player)
        else:
            game.apply(Action.draw() if view.can_draw else Action.pass_(), player=view.player)
    assert game.is_over and game.outcome is not None and sum(game.outcome.scores) == 0
    assert Game.from_json(game.to_json()).outcome == game.outcome


def test_legal_actions_list_the_legal_plays_then_the_draw() -> None:
    from rummikub.legality import check_turn

    game = opened_game()
    legal = game.legal_actions()
    found = list(legal)
    assert len(found) == len(legal) == legal.count() > 1, "Ada can add B3 and B8"
    assert found[-1] == Action.draw() and Action.pass_() not in legal
    for play in found[:-1]:
        snapshot = game._snapshot()
        assert play.kind.value == "play" and play in legal
        assert play.table is not None
        assert check_turn(game.table, game.rack(0), play.table, rules=game.rules, opened=True) == play.tiles
        assert game._snapshot() == snapshot
    # any legal arrangement is `in`, whether or not iteration yields it; an illegal one is not
    assert Action.play("B3 B4 B5 B6 | K8 O8 R8 | O11 O12 O13") in legal
    assert Action.play("B4 B5 B6 | K8 O8 R8 | O11 O12 O13") not in legal
    assert "draw" not in legal  # only Actions
    copy = game.copy()
    copy.apply(found[0])
    assert game._snapshot() != copy._snapshot() and game.turn + 1 == copy.turn
    assert Game.from_json(game.to_json())._snapshot() == game._snapshot()
