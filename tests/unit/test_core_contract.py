"""The contract between the package and its C++ core (rummikub._core): results are typed classes, refusals are
the classes of rummikub._errors naming the input, and no argument a caller can pass crashes the extension."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import rummikub
from rummikub import (
    InvalidMeldError,
    RuleSet,
    RummikubError,
    SearchLimitError,
    Table,
    TileCountError,
    TileSet,
    _core,
    plays,
    solve,
    solve_batch,
)

PARAMS = _core.Params()
RULES = _core.SearchRules(PARAMS, 30, True, False, _core.JokerPolicy.REPLACE, 30)
BIG_TABLE = "R1 R2 R3 | K4 K5 K6 | B7 O7 R7 | O10 O11 O12 O13"
BIG_RACK = "R4 R5 R6 K7 K8 B1 B2 B3 O1 O2 J"


@pytest.mark.parametrize("make", [lambda: _core.Objective(7), lambda: _core.JokerPolicy(9),
                                  lambda: _core.MeldKind(7), lambda: _core.Objective(-1)])
def test_enums_refuse_values_out_of_range(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("name", ["PlayList", "PlayResult", "SolveResult", "ArrangeResult", "BatchResult", "Meld"])
def test_classes_the_core_makes_cannot_be_made_from_python(name: str) -> None:
    cls = getattr(_core, name)
    with pytest.raises(TypeError, match="made by the core"):
        cls.__new__(cls)
    with pytest.raises(TypeError):
        cls()


def test_bare_new_of_value_classes_gives_whole_values() -> None:
    empty = _core.TileSet.__new__(_core.TileSet)
    assert empty.size() == 0 and empty == _core.TileSet()
    made = _core.TileSet.__new__(_core.TileSet, [0, 0, 64])
    assert made.size() == 3 and made.count(0) == 2
    params = _core.Params.__new__(_core.Params)
    assert (params.numbers, params.colours, params.copies, params.jokers, params.min_len) == (13, 4, 2, 2, 3)
    assert _core.SearchStats.__new__(_core.SearchStats) == _core.SearchStats()
    with pytest.raises(TypeError):
        _core.SearchRules.__new__(_core.SearchRules)  # its arguments are required


def test_make_meld_checks_its_ranges_without_overflow() -> None:
    with pytest.raises(InvalidMeldError):
        _core.make_meld(_core.MeldKind.RUN, 0, 2**31 - 5, 10, 0, 0, PARAMS)
    with pytest.raises(InvalidMeldError):
        _core.make_meld(_core.MeldKind.RUN, 0, -(2**31) + 1, 10, 0, 0, PARAMS)
    assert _core.make_meld(_core.MeldKind.RUN, 0, 11, 3, 0, 0, PARAMS).tiles().size() == 3


@pytest.mark.parametrize("code", [(31 << 20) | (31 << 25) | (3 << 30), (0xF << 16) | (5 << 25) | (1 << 32),
                                  -1, 1 << 33, 1 << 40, 0])
def test_meld_of_code_refuses_codes_of_no_meld(code: int) -> None:
    with pytest.raises(InvalidMeldError, match="out of range"):
        _core.meld_of_code(code)


def test_meld_codes_round_trip() -> None:
    meld = _core.read_meld([0, 1, 64], PARAMS)
    assert _core.meld_of_code(_core.meld_code(meld)) == meld


def test_tileset_value_cannot_overflow() -> None:
    with pytest.raises(RummikubError, match="joker_value"):
        _core.TileSet([64] * 7).value(2**31 - 1)
    assert _core.TileSet([64] * 7).value(1_000_000) == 7_000_000


@pytest.mark.parametrize("limit", [2**64, 2**63, 0, -1, True, 1.5, "10"])
def test_bad_limits_are_refused_clearly(limit: object) -> None:
    with pytest.raises(RummikubError, match="limit"):
        solve("R1 R2 R3", "R4", limit=limit)  # type: ignore[arg-type]
    with pytest.raises(RummikubError, match="limit"):
        plays("R1 R2 R3", "R4", limit=limit)  # type: ignore[arg-type]  # at the call, not at len()
    counts = [Table.parse("R1 R2 R3").tiles().to_counts()]
    with pytest.raises(RummikubError, match="limit"):
        solve_batch(counts, [TileSet.parse("R4").to_counts()], limit=limit)  # type: ignore[arg-type]


def test_the_core_raises_the_package_classes() -> None:
    with pytest.raises(TileCountError, match="R1 R1 R1"):
        _core.solve((), _core.TileSet([48, 48, 48]), RULES, True, _core.Objective.TILES.value)
    with pytest.raises(InvalidMeldError, match="table meld 1"):
        _core.solve((5,), _core.TileSet([0]), RULES, True, _core.Objective.TILES.value)
    with pytest.raises(RummikubError, match="objective must be 0"):
        _core.solve((), _core.TileSet([0]), RULES, True, 3)  # (the objective is its number: Objective's value)
    # The limit bounds memory as well as states, and the refusal says both.
    with pytest.raises(SearchLimitError, match=r"search limit: .* 1 search state or 0.256 KB of search memory"):
        solve(BIG_TABLE, BIG_RACK, limit=1)
    with pytest.raises(SearchLimitError, match=r"too many plays .* 1000 search states or 256 KB of search memory"):
        len(plays(BIG_TABLE, BIG_RACK, limit=1000))
    with pytest.raises(RummikubError, match="at most 3 copies"):
        _core.SearchRules(_core.Params(copies=5), 30, True, False, _core.JokerPolicy.FREE, 30)


def test_refusals_name_the_input() -> None:
    with pytest.raises(TileCountError) as info:
        solve("R1 R2 R3 | R1 R2 R3", "R1 K5")
    assert "R1 R2 R3 | R1 R2 R3" in str(info.value) and "K5 R1" in str(info.value)
    with pytest.raises(TileCountError, match="J J J"):
        solve("", TileSet.parse("J J J"))
    with pytest.raises(SearchLimitError, match="R4 R5 R6"):
        solve(BIG_TABLE, BIG_RACK, limit=1)


def test_solve_batch_refuses_bad_opened() -> None:
    counts = [Table.parse("R1 R2 R3").tiles().to_counts()]
    rack = [TileSet.parse("R4").to_counts()]
    for opened in ("False", "no", None, [True, False]):
        with pytest.raises(RummikubError, match="opened"):
            solve_batch(counts, rack, opened=opened)  # type: ignore[arg-type]


def test_search_stats_is_the_core_class() -> None:
    assert rummikub.SearchStats is _core.SearchStats
    play = solve("R1 R2 R3", "R4 R5")
    assert play is not None
    stats = play.stats
    assert stats.states > 0 and stats.runs >= 1 and stats.limited == 0
    assert repr(stats).startswith("SearchStats(states=")
    same = _core.SearchStats(**stats.to_dict())
    assert same == stats and hash(same) == hash(stats) and same != _core.SearchStats()
    assert pickle.loads(pickle.dumps(stats)) == stats
    with pytest.raises(AttributeError):
        stats.states = 0  # type: ignore[misc]
    out = solve_batch([Table.parse("R1 R2 R3").tiles().to_counts()], [TileSet.parse("R4").to_counts()])
    assert isinstance(out["stats"], _core.SearchStats) and out["stats"].runs >= 1
    assert plays("R1 R2 R3", "R4").stats.states > 0


def test_solve_results_are_typed() -> None:
    result = _core.solve((), _core.TileSet([0, 1, 2, 20]), RULES, True, _core.Objective.TILES.value)
    assert isinstance(result, _core.SolveResult) and isinstance(result.stats, _core.SearchStats)
    play = result.play
    assert isinstance(play, _core.PlayResult)
    assert play.played == _core.TileSet([0, 1, 2]) and play.tiles == 3 and play.value == 6 and play.key > 0
    assert [_core.meld_of_code(c).tiles() for c in play.table] == [_core.TileSet([0, 1, 2])]
    parts = _core.solve_play((), _core.TileSet([0, 1, 2, 20]), RULES, True, _core.Objective.TILES.value)
    assert parts == (play.played, play.table, play.value, result.stats)  # (what solve() reads)
    none = _core.solve((), _core.TileSet([0]), RULES, True, _core.Objective.TILES.value)
    assert none.play is None and none.stats.runs >= 0
    assert _core.solve_play((), _core.TileSet([0]), RULES, True, _core.Objective.TILES.value) is None
    with pytest.raises(TypeError):
        _core.solve((), _core.TileSet([0]), RULES, 1, _core.Objective.TILES.value)  # type: ignore[arg-type]


def test_the_opening_value_comes_from_the_core() -> None:
    from rummikub.legality import best_opening, opening_value

    tiles = TileSet.parse("R10 R11 R12 K9 B9 O9 K1 J")
    value, melds = best_opening(tiles, RuleSet())
    play = solve(Table(), tiles, opened=True, objective="value")
    assert play is not None and value == play.value == opening_value(tiles, RuleSet())
    assert sum(m.value for m in melds) == value and Table(melds).tiles() <= tiles
