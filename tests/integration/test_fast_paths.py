"""The fast paths of a turn (issue 5) give the same answers as the slow ones: the joker shortcut and the core's
joker witness in check_turn, the core's quick check of the game's check_committed, remembered meld verdicts
(per rule set), the shared per-meld data and its bounded caches, the per-viewer history copies and the draft
made on first use."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

import rummikub.action as game_module
import rummikub.legality as legality
import rummikub.meld as meld_module
from rummikub import Game, IllegalMoveError, Meld, RuleSet, Table, TileCountError, TileSet, _memo
from rummikub.bots import get_bot
from rummikub.game import PlayerView
from rummikub.game.legal import check_committed
from rummikub.legality import check_turn
from rummikub.search import Play, SearchStats, arrange, solve


def _verdict(before: Table, rack: TileSet, after: Table, rules: RuleSet, opened: bool,
             check: Callable[..., TileSet] = check_turn) -> str:
    try:
        return "ok " + str(check(before, rack, after, rules=rules, opened=opened))
    except IllegalMoveError as exc:
        return f"{exc.reason}: {exc}"


def _joker_positions(preset: str, seed: int) -> list[tuple[Table, TileSet, Table, RuleSet]]:
    """Turns of opened players on tables holding jokers: the search's best play and rearrangements of the
    table with a few rack tiles (``arrange`` places jokers anywhere, so many retrieve or move a joker)."""
    rng = random.Random(seed)
    game = Game.new(players=2, preset=preset, seed=seed, first_player=0, turn_seconds=None)
    bot = get_bot("medium", seed)
    out = []
    while not game.is_over and game.turn < 200:
        p = game.current_player
        table, rack = game.table, game.rack(p)
        if game.opened(p) and any(m.jokers for m in table):
            best = solve(table, rack, rules=game.rules)
            if best is not None:
                out.append((table, rack, best.table, game.rules))
            for _ in range(4):
                extra = TileSet(rng.sample(list(rack), rng.randint(1, min(3, len(rack)))))
                after = arrange(table.tiles() | extra, game.rules)
                if after is not None:
                    out.append((table, rack, after, game.rules))
        game.apply(bot.choose(game.view(p)), p)
    return out


@pytest.mark.parametrize("preset", ["classic", "sabra"])  # joker_retrieval "replace" and "replace_from_rack"
def test_joker_shortcut_agrees_with_the_full_search(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    positions = [pos for seed in (1, 2, 3, 4) for pos in _joker_positions(preset, seed)]
    fast = [_verdict(b, r, a, rules, True) for b, r, a, rules in positions]
    committed = [_verdict(b, r, a, rules, True, check_committed) for b, r, a, rules in positions]
    # Without the shortcut and the witness every turn goes through the permutation search over the jokers.
    monkeypatch.setattr(legality, "_jokers_stay", lambda table_jokers, after_jokers: False)
    monkeypatch.setattr(legality, "jokers_witness", lambda *args, **kwargs: False)
    slow = [_verdict(b, r, a, rules, True) for b, r, a, rules in positions]
    assert fast == slow
    assert committed == slow
    refused = {v.split(":")[0] for v in fast if not v.startswith("ok")}
    assert len(positions) > 50 and sum(v.startswith("ok") for v in fast) > 10
    assert refused & {"joker_not_replaced", "joker_replacement_not_from_rack", "freed_joker_without_rack_tiles"}


def test_meld_verdicts_are_remembered_per_rule_set() -> None:
    pairs = RuleSet().replace(min_len=2)
    before, rack, after = Table.parse("R1 R2 R3"), TileSet.parse("K5 K6"), Table.parse("R1 R2 R3 | K5 K6", pairs)
    for _ in range(2):  # the second round reads the remembered verdicts
        assert str(check_turn(before, rack, after, rules=pairs, opened=True)) == "K5 K6"
        with pytest.raises(IllegalMoveError) as exc:
            check_turn(before, rack, after, rules=RuleSet(), opened=True)
        assert exc.value.reason == "loose_tile" and "K5 K6" in str(exc.value)


def test_derived_meld_data_caches_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meld_module, "_MAX_INFOS", 4)
    monkeypatch.setattr(legality, "_MAX_VALID_MELDS", 4)
    monkeypatch.setattr(game_module, "_MAX_MELD_TEXTS", 4)
    _memo.clear()  # start empty (other tests filled them), so that these melds are new to each
    game_module._MELD_TEXTS.clear()
    assert _memo.sizes()["meld.infos"] == _memo.sizes()["legality.valid_melds"] == 0
    melds = [Meld.run(colour, start, 3, jokers=[1] if start == 1 else []) for colour in range(4) for start in range(1, 4)]
    table = Table(melds)
    assert game_module.table_to_text(table).split(" | ")[:2] == ["K1 J K3", "K2 K3 K4"]
    with pytest.raises(IllegalMoveError) as exc:  # every meld is checked (and remembered) first
        check_turn(Table(), TileSet(), table, rules=RuleSet(), opened=True)
    assert exc.value.reason == "not_in_rack"
    for name in ("meld.infos", "meld.wrapped", "legality.valid_melds"):
        assert 0 < _memo.sizes()[name] <= 4, name
    assert 0 < len(game_module._MELD_TEXTS) <= 4
    # the melds made before the caches were cleared still know everything about themselves
    assert [str(m) for m in melds[:3]] == ["K1 J K3", "K2 K3 K4", "K3 K4 K5"]
    assert str(melds[9].stands_for[0]) == "R2" and melds[10].stands_for == ()
    assert melds[0].value == 6 and melds[0].tileset() == TileSet.parse("K1 J K3")


def test_melds_from_the_core_are_shared_and_immutable() -> None:
    a, b = Meld.run(0, 5, 3, jokers=[1]), Meld.run(0, 5, 3, jokers=[1])
    assert a is b and a == Meld.parse("K5 J K7") and a is not Meld.parse("K5 J K7")
    with pytest.raises(AttributeError):
        a._key = (0, 0, 0, 0, 0, 0)
    assert a.key == Meld.parse("K5 J K7").key and str(a) == "K5 J K7"


def test_table_tiles_with_too_many_copies_names_the_tile() -> None:
    table = Table([Meld.parse("R1 R2 R3")] * 8)
    with pytest.raises(TileCountError, match="R1"):
        table.tiles()
    assert Table([Meld.parse("R1 R2 R3")] * 7).tiles().count("R1") == 7


def test_views_hand_out_read_only_history() -> None:
    game = Game.new(players=3, preset="pressman-2015", seed=5)
    for _ in range(4):
        game.apply("draw")
    for p in range(3):
        view = game.view(p)
        assert view.to_dict()["history"] == game.history(p)
        with pytest.raises(TypeError):
            view.history[0]["tampered"] = True  # type: ignore[index]
        with pytest.raises(TypeError):
            del view.history[1]["type"]  # type: ignore[attr-defined]
        mine = next(e for e in view.history if "tiles" in e)
        with pytest.raises(AttributeError):
            mine["tiles"].append("K1")  # tuples inside: nothing to edit
        handed = game.history(p)
        handed[0]["tampered"] = True
        handed[0].get("tiles", []).append("K1")
        assert game.history(p) != handed and game.view(p).to_dict()["history"] == game.history(p)
    record = game.record
    record["events"][0]["tiles"].append("K1")
    assert game.record != record
    # an event list replaced wholesale (as tests do to build twins) is read afresh
    twin = Game.new(players=3, preset="pressman-2015", seed=5)
    twin.view(0)
    twin._events = list(game._events)
    assert twin.view(0).to_dict()["history"] == game.history(0)


def test_the_draft_is_made_on_first_use() -> None:
    game = Game.new(players=2, preset="classic", seed=3, turn_seconds=None)
    game.apply("draw")
    assert game._draft is None  # a turn that never looks at the draft never builds one
    p = game.current_player
    assert game.draft.rack == game.rack(p) and str(game.draft) == str(game.table) and not game.draft.started
    tile = next(iter(game.rack(p)))
    game.draft.place(tile)
    assert game.draft.started and game.draft is game.draft
    game.apply("draw")
    assert not game.draft.started and game.draft.rack == game.rack(game.current_player)


def test_views_are_whole_player_views() -> None:
    game = Game.new(players=2, preset="classic", seed=2)
    game.apply("draw")
    for p in [0, 1, None]:
        view = game.view(p) if p is not None else game.spectator_view()
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(PlayerView)}
        assert set(vars(view)) == set(fields) and view == PlayerView(**fields)
        assert repr(view) == repr(PlayerView(**fields))
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.turn = 0  # type: ignore[misc]


def test_search_results_are_whole_dataclasses() -> None:
    play = solve("K5 B5 O5 J", "K1 K2 R5")
    assert play is not None
    fields = {f.name: getattr(play, f.name) for f in dataclasses.fields(Play)}
    assert set(vars(play)) == set(fields) and play == Play(**fields) and repr(play) == repr(Play(**fields))
    # the counters are the core's SearchStats, equal to one made from their dict
    assert play.stats.states > 0 and play.stats == SearchStats(**play.stats.to_dict())
    assert hash(play.stats) == hash(SearchStats(**play.stats.to_dict()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.value = 0  # type: ignore[misc]


def test_a_solved_play_skips_the_check_of_its_own_position_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game applying the very Play that solve() returned for its very position (table, rack, rules and opened:
    the same objects) takes the search's placed tiles instead of checking the turn again; any other Play (an
    equal copy, one solved for another position, one the game's position has moved on from) is checked."""
    import rummikub.game.state as state

    checked: list[int] = []

    def counting(*args: object, **kwargs: object) -> TileSet:
        checked.append(1)
        return check_committed(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(state, "check_committed", counting)
    game = Game.new(players=2, preset="classic", seed=4, first_player=0, clock=lambda: 0.0)
    solved = 0
    while not game.is_over and solved < 6:
        p = game.current_player
        view = game.view(p)
        wrong = solve(view.table, view.rack, rules=view.rules, opened=not view.has_opened)
        if wrong is not None:  # solved as if the player's opening were otherwise: checked
            try:
                game.copy().apply(wrong, p)
            except IllegalMoveError:
                pass
            assert len(checked) == 1
            checked.clear()
        play = solve(view.table, view.rack, rules=view.rules, opened=view.has_opened)
        if play is None:
            game.apply("draw", p)
            continue
        rack_before = game.rack(p)
        other = game.copy()  # the same position: the same objects
        copy = dataclasses.replace(play)  # an equal Play, not the one solve returned
        other.apply(copy, p)
        assert len(checked) == 1
        game.apply(play, p)
        assert len(checked) == 1  # not checked again
        assert game.history()[-1] == other.history()[-1] and game.rack(p) == other.rack(p) == rack_before - play.tiles
        assert game.to_json() == other.to_json()
        checked.clear()
        solved += 1
        if not game.is_over:  # the position moved on: the same play again is checked (and refused)
            with pytest.raises(IllegalMoveError):
                game.apply(play, game.current_player)
            assert len(checked) == 1
            checked.clear()
    assert solved == 6


@pytest.mark.parametrize("cache", [4, 1 << 14])
def test_tables_of_new_meld_codes_are_made_whatever_the_cache(monkeypatch: pytest.MonkeyPatch, cache: int) -> None:
    """A search result's meld codes become the table's melds when none is known yet, also when the cache fills
    (and is cleared) while they are made; with room, each code's Meld is made once and shared."""
    table = Table.parse("K1 K2 K3 | B1 B2 B3 | O1 O2 O3 | R1 R2 R3 | K5 B5 O5 | K7 K8 K9 | K5 B5 O5")
    codes = meld_module.search_codes(table)
    monkeypatch.setattr(meld_module, "_MAX_INFOS", cache)
    _memo.clear()
    made = meld_module.table_of_codes(codes)
    assert list(made) == list(table) and str(made) == str(table) and made[4] is made[6]
    if cache > len(codes):
        assert all(meld_module._BY_CODE[code] is meld for code, meld in zip(codes, made))
        assert meld_module.table_of_codes(codes)[0] is made[0]
