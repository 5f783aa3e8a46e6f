"""Observations: a PlayerView to JSON and back, the spectator's view, the numeric encoding, and the game's
OpenSpiel-like surface (copy, returns, terminal, the clock as state)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from rummikub import Action, Game, InvalidNotationError, PlayerView, RuleSet, TileSet, TurnTimeoutError


class FakeClock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _played_game(seed: int = 8, turns: int = 12) -> Game:
    from rummikub.bots import get_bot

    game = Game.new(players=3, preset="classic", seed=seed, clock=FakeClock())
    bots = [get_bot("medium", 1), get_bot("easy", 2), get_bot("hard", 3)]
    for _ in range(turns):
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    return game


def test_views_round_trip_exactly() -> None:
    game = _played_game()
    for view in [game.view(p) for p in range(3)] + [game.spectator_view()]:
        data = view.to_dict()
        assert json.loads(json.dumps(data)) == data
        again = PlayerView.from_dict(data)
        assert again == view and again.to_dict() == data
        assert PlayerView.from_json(view.to_json()) == view
        assert data["deadline"] == game.deadline == 1_700_000_060.0


def test_the_spectator_sees_no_rack_and_no_drawn_tile() -> None:
    game = _played_game()
    view = game.spectator_view()
    assert view.player is None and view.rack is None and view.is_spectator
    assert not view.is_my_turn and not view.has_opened and not view.can_draw
    assert all("tiles" not in e for e in view.history if e["type"] == "draw")
    assert game.history(public=True) == view.to_dict()["history"]


@pytest.mark.parametrize("change", [
    lambda d: d.pop("rack"), lambda d: d.__setitem__("version", 2), lambda d: d.__setitem__("rack", None),
    lambda d: d.__setitem__("opened", [True]), lambda d: d.__setitem__("pool_size", -1),
    lambda d: d.__setitem__("table", "R1 R2"), lambda d: d.__setitem__("deadline", "soon"),
    lambda d: d.__setitem__("rules", {"colours": 9}), lambda d: d.__setitem__("history", [1]),
])
def test_malformed_observations_are_refused(change: object) -> None:
    data = _played_game(turns=2).view(0).to_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError):
        PlayerView.from_dict(data)
    with pytest.raises(InvalidNotationError):
        PlayerView.from_json("{oops")


def test_numeric_encoding() -> None:
    game = _played_game()
    for p in [0, 1, 2, None]:
        view = game.view(p) if p is not None else game.spectator_view()
        a = view.to_arrays()
        assert a["rack"].shape == a["table"].shape == a["unseen"].shape == (65,)
        assert a["rack"].dtype == np.uint8
        assert int(a["rack"].sum() + a["table"].sum() + a["unseen"].sum()) == game.rules.tile_count
        mine = TileSet() if p is None else game.rack(p)
        assert np.array_equal(a["rack"], mine.to_counts())
        assert np.array_equal(a["table"], game.table.tiles().to_counts())
        hidden = TileSet(game._pool)
        for q in range(3):
            if q != p:
                hidden = hidden | game.rack(q)
        assert np.array_equal(a["unseen"], hidden.to_counts())
        assert a["rack_sizes"].tolist() == list(game.rack_sizes()) and int(a["pool_size"]) == game.pool_size
        assert a["opened"].tolist() == [game.opened(q) for q in range(3)]
        assert int(a["player"]) == (-1 if p is None else p) and int(a["current"]) == game.current_player
        assert float(a["deadline"]) == game.deadline and not bool(a["terminal"])
    untimed = Game.new(players=2, seed=1).view(0).to_arrays()
    assert math.isnan(float(untimed["deadline"]))


def test_copy_is_independent_and_returns_are_zero_until_the_end() -> None:
    game = _played_game(turns=4)
    game.draft.place(next(iter(game.rack(game.current_player))))
    copy = game.copy()
    assert copy.to_json() == game.to_json() and copy._snapshot() == game._snapshot()
    copy.draft.undo()
    assert game.draft.started and not copy.draft.started
    copy.apply("draw")
    assert game.turn == 4 and copy.turn == 5 and len(game.history()) == 4
    assert game.returns() == (0.0, 0.0, 0.0) and not game.is_terminal()
    while not copy.is_terminal():
        copy.apply(next(iter(copy.legal_actions())))
    assert sum(copy.returns()) == 0 and copy.returns() == tuple(float(s) for s in copy.outcome.scores)  # type: ignore[union-attr]
    assert copy.deadline is None and copy.advance_clock(now=1e12) is None


def test_the_clock_is_state() -> None:
    clock = FakeClock(1000.0)
    game = Game.new(players=2, preset="classic", seed=4, clock=clock)
    assert game.deadline == 1060.0 and game.view(0).deadline == 1060.0
    clock.now = 1030.0
    game.apply(Action.draw())
    assert game.deadline == 1090.0                      # the next turn counts from the action
    assert game.advance_clock(now=1089.9) is None
    before = game.to_json()
    clock.now = 1095.0
    with pytest.raises(TurnTimeoutError) as info:
        game.apply(Action.draw())
    assert info.value.reason == "turn_timeout" and "advance" in str(info.value) and game.to_json() == before
    event = game.advance_clock()
    assert event is not None and event["cause"] == "timeout" and game.deadline == 1155.0
    with pytest.raises(ValueError):
        game.advance_clock(now="later")  # type: ignore[arg-type]
    # a resumed game keeps its absolute deadline, whatever its clock says
    resumed = Game.from_json(game.to_json(), clock=FakeClock(1100.0))
    assert resumed.deadline == 1155.0 and resumed.advance_clock() is None
    resumed.apply("draw")
    assert resumed.deadline == 1160.0
    # an untimed game never times out
    untimed = Game.new(players=2, seed=4, clock=clock, rules=RuleSet())
    assert untimed.deadline is None and untimed.advance_clock(now=1e12) is None


def test_views_and_games_pickle() -> None:
    import copy
    import pickle

    game = Game.new(players=2, seed=1)
    game.apply("draw")
    game.draft.place(next(iter(game.rack(game.current_player))))
    for view in (game.view(0), game.spectator_view()):
        assert pickle.loads(pickle.dumps(view)) == view and copy.deepcopy(view) == view
    again = pickle.loads(pickle.dumps(game))
    assert again._snapshot() == game._snapshot() and again.draft.started
    again.draft.reset()
    assert game.draft.started and not again.draft.started
