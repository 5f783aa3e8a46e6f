"""The game: turns, drafts with undo, the clock, the end, views and records."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import pytest

from rummikub import (
    Colour,
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
    assert game.action_kinds() == ("play", "draw")
    assert game.rules.turn_seconds == 60 and game.time_left() is not None
    assert not any(game.opened(p) for p in range(4))
    assert Game.new(players=4, preset="classic", seed=7, turn_seconds=None).time_left() is None


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
        game.draw(player=1)
    assert info.value.reason == "not_your_turn"
    with pytest.raises(IllegalMoveError) as info:
        game.pass_turn()
    assert info.value.reason == "pool_not_empty"
    game.draw()
    assert str(game.rack(0)) == "K1 K2 K3 K4" and game.current_player == 1 and game.pool_size == 8
    while game.pool_size:
        game.apply("draw")
    assert game.action_kinds() == ("play", "pass")
    with pytest.raises(IllegalMoveError) as info:
        game.draw()
    assert info.value.reason == "pool_empty"


def test_going_out_ends_the_game() -> None:
    racks = ["K1 K2 K3", "B1 B2 B4"]
    pool = full_tiny_pool(racks, TINY.replace(max_players=2))
    game = tiny_game(racks, pool)
    game.play("K1 K2 K3")
    assert game.is_over and game.outcome is not None
    assert game.outcome.termination is Termination.RUMMIKUB and game.outcome.winners == (0,)
    assert game.outcome.scores == (7, -7)
    assert game.action_kinds() == ()
    with pytest.raises(IllegalMoveError) as info:
        game.draw()
    assert info.value.reason == "game_over"


def test_pool_exhausted_after_a_full_round_of_passes() -> None:
    racks = ["K1 K2 K4", "B1 B2 B4", "O1 O3 O5"]
    pool = full_tiny_pool(racks)
    game = tiny_game(racks, pool)
    game.draw(); game.draw(); game.draw()                     # pool: 6 -> 3
    game.draw(); game.draw(); game.draw()                     # pool empty
    assert game.pool_size == 0
    game.pass_turn(); game.pass_turn()
    assert not game.is_over
    rack = game.rack(game.current_player)
    # a play resets the count of consecutive passes
    melds = [m for m in ("K1 K2 K3", "K3 K4 K5", "K2 K3 K4", "O3 O4 O5", "B3 B4 B5") if TileSet.parse(m) <= rack]
    if melds:
        game.play(melds[0])
    else:
        game.pass_turn()
    while not game.is_over:
        game.pass_turn()
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
    game.play("B4 B5 B6 | K8 O8 R8 | O11 O12 O13")  # Ada opens (36)
    game.draw()                                      # Ben draws
    return game


def test_draft_editing_undo_redo_reset() -> None:
    game = opened_game()
    draft = game.draft
    assert draft.sets == tuple(tuple(m.tiles) for m in game.table) and not draft.started
    draft.place("B3", 0, 0)
    draft.place("B8", 1)
    assert str(draft.placed) == "B3 B8" and draft.valid and draft.legal
    draft.split(0, 2)                      # B3 B4 | B5 B6: invalid while editing
    assert not draft.valid and len(draft.set_problems()) == 2
    draft.merge(0, 1)
    assert draft.valid
    draft.move("B8", 1, None)              # B8 alone in a new set
    assert not draft.valid
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
    for bad in (lambda: draft.place("R13"), lambda: draft.move("K1", 0), lambda: draft.split(0, 0),
                lambda: draft.merge(1, 1), lambda: draft.take_back("B4"), lambda: draft.place("B3", 9),
                lambda: draft.redo()):
        with pytest.raises(IllegalMoveError) as info:
            bad()
        assert info.value.reason == "invalid_edit"
        assert draft._snapshot() == before


def test_refused_commits_change_nothing() -> None:
    game = opened_game()
    attempts: list[tuple[str, Any]] = [
        ("no_rack_tile", lambda: game.commit()),
        ("no_rack_tile", lambda: game.play("B4 B5 | B6 K8 O8 R8" if False else "K8 O8 R8 | O11 O12 O13 | B4 B5 B6")),
        ("table_tile_removed", lambda: game.play("B4 B5 B6 | O11 O12 O13")),
        ("not_in_rack", lambda: game.play("B4 B5 B6 | K8 O8 R8 | O11 O12 O13 | R11 R12 R13")),
        ("invalid_set", lambda: game.play("B4 B5 B6 | K8 O8 R8 | O11 O12 O13 | K1 K2 K4")),
        ("not_your_turn", lambda: game.play("B3 B4 B5 B6 | K8 O8 R8 | O11 O12 O13", player=1)),
    ]
    for reason, attempt in attempts:
        before = game._snapshot()
        with pytest.raises(IllegalMoveError) as info:
            attempt()
        assert info.value.reason == reason, str(info.value)
        assert game._snapshot() == before
    # a draft with a loose tile: refused, and the draft is kept for more editing
    game.draft.place("K1")
    before = game._snapshot()
    with pytest.raises(IllegalMoveError) as info:
        game.commit()
    assert info.value.reason == "loose_tile" and game._snapshot() == before
    game.draft.place("K2", len(game.draft) - 1)
    game.draft.place("K3", len(game.draft) - 1)
    assert str(game.commit()) == "K1 K2 K3"


# --- the clock -----------------------------------------------------------------------------------------------

def clock_game(**overrides: Any) -> tuple[Game, FakeClock]:
    clock = FakeClock()
    game = Game.new(players=2, preset="classic", seed=5, clock=clock, **overrides)
    return game, clock


def test_timeout_without_a_move_draws_one() -> None:
    game, clock = clock_game()
    p = game.current_player
    clock.now += 59.5
    assert game.check_clock() is None and game.time_left() == pytest.approx(0.5)
    clock.now += 0.5
    event = game.check_clock()
    assert event is not None and event["cause"] == "timeout" and len(event["tiles"]) == 1
    assert len(game.rack(p)) == 15 and game.current_player != p and game.pool_size == 77
    assert game.time_left() == 60


def test_timeout_with_an_unfinished_move_restores_and_draws_three() -> None:
    game, clock = clock_game()
    p = game.current_player
    rack = game.rack(p)
    game.draft.place(rack.tiles()[0])
    clock.now += 61
    with pytest.raises(TurnTimeoutError) as info:
        game.commit()
    assert info.value.event["cause"] == "failed_move"
    assert game.table == Table() and len(game.rack(p)) == 17 and rack <= game.rack(p)
    assert game.pool_size == 78 - 3


def test_commit_valid_draft_on_timeout() -> None:
    rules = RuleSet.preset("classic").replace(commit_valid_draft_on_timeout=True)
    clock = FakeClock()
    racks = [TileSet.parse("R10 R11 R12 K1"), TileSet.parse("B1 B2 B3")]
    pool = list(TileSet.full(rules) - racks[0] - racks[1])
    game = Game.from_deal(racks, pool, rules=rules.replace(rack_size=3), clock=clock) if False else \
        Game.from_deal(racks, pool, rules=rules, clock=clock)
    for t in ("R10", "R11", "R12"):
        game.draft.place(t, 0 if len(game.draft) else None)
    clock.now += 60
    event = game.check_clock()
    assert event is not None and event["type"] == "play" and event["cause"] == "timeout"
    assert game.table == Table.parse("R10 R11 R12") and game.opened(0)
    # an illegal draft at timeout is still a failed move
    game.draft.place("B1")
    clock.now += 60
    event = game.check_clock()
    assert event is not None and event["cause"] == "failed_move" and len(game.rack(1)) == 6


def test_timeouts_replay() -> None:
    game, clock = clock_game()
    clock.now += 60
    game.check_clock()
    game.draft.place(game.rack(game.current_player).tiles()[0])
    clock.now += 60
    game.check_clock()
    replayed = Game.from_json(game.to_json(), clock=FakeClock())
    assert replayed.to_json() == game.to_json()
    assert [e["cause"] for e in replayed.record["events"]] == ["timeout", "failed_move"]


# --- views and hidden information ----------------------------------------------------------------------------

def test_views_hide_other_racks_and_the_pool() -> None:
    game = Game.new(players=3, preset="pressman-2015", seed=3)
    drawer = game.current_player
    game.draw()
    for p in range(3):
        view = game.view(p)
        assert isinstance(view, PlayerView)
        assert view.rack == game.rack(p) and view.table == game.table
        assert view.rack_sizes == game.rack_sizes() and view.pool_size == game.pool_size
        draw = view.history[0]
        assert draw["type"] == "draw" and draw["count"] == 1
        assert ("tiles" in draw) == (p == drawer)
        text = json.dumps([dataclasses.asdict(view)[k] for k in ("history", "rack_sizes", "opened")])
        for other in range(3):
            if other != p:
                assert str(game.rack(other)) not in text
        assert not any(isinstance(v, (list, tuple)) and len(v) == game.pool_size and v
                       for v in dataclasses.asdict(view).values() if not isinstance(v, str))
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.view(0).pool_size = 0  # type: ignore[misc]
    assert game.view(game.current_player).is_my_turn and game.view(game.current_player).can_draw


# --- records -------------------------------------------------------------------------------------------------

def scripted_game() -> Game:
    game = opened_game()
    game.play("B3 B4 B5 B6 | K8 B8 O8 R8 | O11 O12 O13")
    game.draw()
    return game


def test_record_round_trip() -> None:
    game = scripted_game()
    text = game.to_json()
    replayed = Game.from_json(text)
    assert replayed._snapshot() == game._snapshot()
    assert replayed.to_json() == text
    seeded = Game.new(players=3, preset="sabra", seed=12)
    seeded.draw(); seeded.draw()
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
        game.draw()
    while not game.is_over:
        game.pass_turn()
    assert game.outcome is not None and sum(game.outcome.scores) == 0
    assert all(isinstance(s, Fraction) for s in game.outcome.scores)
    assert Game.from_json(game.to_json()).outcome == game.outcome


def test_a_bot_plays_from_its_view_only() -> None:
    """The bot path: read game.view(player), answer with a whole table, "draw" or "pass"."""
    search = pytest.importorskip("rummikub.search")
    game = Game.new(players=3, preset="digital", seed=17)
    while not game.is_over and game.turn < 400:
        view = game.view(game.current_player)
        assert view.is_my_turn
        play = search.solve(view.table, view.rack, rules=view.rules, opened=view.has_opened)
        if play is not None:
            game.apply(play.table, player=view.player)
        else:
            game.apply("draw" if view.can_draw else "pass", player=view.player)
    assert game.is_over and game.outcome is not None and sum(game.outcome.scores) == 0
    assert Game.from_json(game.to_json()).outcome == game.outcome


def test_game_plays_lists_legal_plays() -> None:
    pytest.importorskip("rummikub.search")
    game = opened_game()
    found = list(game.plays())
    assert found, "Ada can add B3 and B8"
    for play in found[:50]:
        snapshot = game._snapshot()
        from rummikub.legality import check_turn

        assert check_turn(game.table, game.rack(0), play.table, rules=game.rules, opened=True) == play.tiles
        assert game._snapshot() == snapshot
