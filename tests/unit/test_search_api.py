"""Bad input to solve / arrange / plays / solve_batch: each is a RummikubError (a ValueError) naming it."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from rummikub import InvalidNotationError, RuleSet, RummikubError, Table, TileCountError, TileSet
from rummikub.search import arrange, plays, solve

R1 = TileSet.parse("R1")

BAD: list[tuple[str, Callable[[], Any], type[RummikubError], str]] = [
    ("table int", lambda: solve(5, R1), InvalidNotationError, "5"),  # type: ignore[arg-type]
    ("table list", lambda: solve(["R1 R2 R3"], R1), InvalidNotationError, "R1 R2 R3"),  # type: ignore[arg-type]
    ("rack list", lambda: solve(Table(), [1, 2]), InvalidNotationError, "[1, 2]"),  # type: ignore[arg-type]
    ("rack copies", lambda: solve(Table(), TileSet.parse("R1 R1 R1")), TileCountError, "R1"),
    ("rack string copies", lambda: solve("", "K7 K7 K7"), TileCountError, "K7"),
    ("rack jokers", lambda: solve(Table(), TileSet.parse("J J J")), TileCountError, "J"),
    ("table+rack copies", lambda: solve(Table.parse("R1 R2 R3 | R1 R2 R3"), R1), TileCountError, "R1"),
    ("table+rack jokers", lambda: solve(Table.parse("R1 J R3 | K5 B5 J"), TileSet.parse("J")), TileCountError, "J"),
    ("tile outside numbers", lambda: solve("", "R12 R13", rules=RuleSet().replace(numbers=10)),
     RummikubError, "R12"),
    ("colour outside colours", lambda: solve("", "R1 R2 R3", rules=RuleSet().replace(colours=3, max_players=3)),
     RummikubError, "R"),
    ("unknown objective", lambda: solve(Table(), R1, objective="fun"), RummikubError, "fun"),  # type: ignore[arg-type]
    ("objective type", lambda: solve(Table(), R1, objective=3), RummikubError, "3"),  # type: ignore[arg-type]
    ("opened str", lambda: solve(Table(), R1, opened="yes"), RummikubError, "yes"),  # type: ignore[arg-type]
    ("rules str", lambda: solve(Table(), R1, rules="standard"), RummikubError, "standard"),  # type: ignore[arg-type]
    ("arrange copies", lambda: arrange(TileSet.parse("R1 R1 R1")), TileCountError, "R1"),
    ("arrange int", lambda: arrange(42), InvalidNotationError, "42"),  # type: ignore[arg-type]
    ("arrange rules", lambda: arrange(R1, rules=3), RummikubError, "3"),  # type: ignore[arg-type]
    ("plays copies", lambda: plays(Table(), TileSet.parse("J J J")), TileCountError, "J"),
    ("plays opened", lambda: plays(Table(), R1, opened=None), RummikubError, "None"),  # type: ignore[arg-type]
    ("plays table+rack", lambda: plays("K9 B9 O9 | K9 B9 O9", "K9"), TileCountError, "K9"),
    ("plays get int", lambda: plays("R1 R2 R3", "R4").get(42), InvalidNotationError, "42"),  # type: ignore[arg-type]
    ("plays get list", lambda: plays("R1 R2 R3", "R4").get(["R4"]),  # type: ignore[arg-type]
     InvalidNotationError, "R4"),
    ("plays get notation", lambda: plays("R1 R2 R3", "R4").get("R4 X9"), InvalidNotationError, "X9"),
    ("bad notation", lambda: solve("R1 R2 X3", R1), InvalidNotationError, "X3"),
    ("invalid table set", lambda: solve("R1 R2 R4", R1), RummikubError, "R1 R2 R4"),
]


@pytest.mark.parametrize("name, call, error, named", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_clear_value_error(name: str, call: Callable[[], Any], error: type[RummikubError],
                                          named: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert named in str(info.value), f"{name}: message {str(info.value)!r} does not name {named!r}"


def test_solve_batch_bad_input() -> None:
    from rummikub import search
    if not hasattr(search, "solve_batch"):
        pytest.skip("no solve_batch")
    good = np.zeros((1, 65), dtype=np.int64)
    with pytest.raises(RummikubError, match="float"):
        search.solve_batch(np.zeros((1, 65)), good)
    too_many = good.copy()
    too_many[0, 3] = 3  # three copies of one tile
    with pytest.raises(RummikubError):
        search.solve_batch(good, too_many)
    with pytest.raises(RummikubError, match="fun"):
        search.solve_batch(good, good, objective="fun")  # type: ignore[arg-type]


def test_string_and_object_inputs_agree_and_are_deterministic() -> None:
    a = solve("R5 J R7 | K7 B7 O7", "R8 K7 O1 R4 J", objective="value")
    b = solve(Table.parse("R5 J R7 | K7 B7 O7"), TileSet.parse("R8 K7 O1 R4 J"), objective="value")
    assert a is not None and b is not None
    assert (a.tiles, a.table.canonical(), a.value) == (b.tiles, b.table.canonical(), b.value)
    assert [str(m) for m in a.table] == [str(m) for m in b.table]


def test_no_play_is_none_not_an_error() -> None:
    assert solve("", "K1 B5", opened=True) is None
    assert solve("", "K1 K2 K3", opened=False) is None  # 6 points do not open
    assert arrange(TileSet.parse("K1 K2")) is None
    assert not plays("", "K1 B5")
    assert arrange(TileSet()) == Table()
