"""The joker home rule (docs/search-semantics.md, item 3) on the positions that motivated it: ``solve``'s best
play under every objective has the oracle's optimum key, and the oracle's re-checker accepts it."""

from __future__ import annotations

import pytest

pytest.importorskip("scipy.optimize")

from tests.helpers import oracle as O  # noqa: E402

from rummikub import RuleSet, Table, TileSet  # noqa: E402
from rummikub.search import solve  # noqa: E402

CLASSIC = RuleSet.preset("classic")
SABRA = RuleSet.preset("sabra")
EXTEND = CLASSIC.replace(extend_after_opening=True)

CASES = [
    ("K9 B9 O9 J", "R10 R11", CLASSIC, True),
    ("B3 O3 R3 J", "J K4", CLASSIC, True),
    ("K9 B9 O9 J", "R10 R11 R12", EXTEND, False),
    ("K9 B9 O9 J", "R10 R11 R12", SABRA, False),
    ("K4 B4 O4 J | B5 B6 B7", "B4", CLASSIC, True),
    ("K10 O10 R10 J", "B10 B11", CLASSIC, True),
    ("K7 B7 O7 J | R5 R6 R7", "K1 K2", CLASSIC, True),
    ("K11 R11 J J", "O11 O11", CLASSIC, True),
    ("K11 R11 J J", "O11 O11", SABRA, True),
    ("R5 J R7", "R8", CLASSIC, True),
    ("R5 R6 R7 J", "R8 K1 K2", CLASSIC, True),
    ("R5 R6 R7 J", "R8 K1 K2", SABRA, True),
    ("J R7 R8 R9", "R4 R5", CLASSIC, True),
    ("R1 R2 R3 J R5 R6 R7", "R4 K1 K2", CLASSIC, True),
    ("K10 O10 J | B9 B10 B11", "B10 K7 R7", SABRA, True),
    ("K10 O10 J | B9 B10 B11", "B10 K7 R7 K8 K9", SABRA, True),
]


@pytest.mark.parametrize("table, rack, rules, opened", CASES, ids=[f"{t} + {r} ({u.name})" for t, r, u, _ in CASES])
@pytest.mark.parametrize("objective", ["tiles", "value", "penalty"])
def test_solve_meets_the_home_rule(table: str, rack: str, rules: RuleSet, opened: bool, objective: str) -> None:
    before, tiles = Table.parse(table), TileSet.parse(rack)
    inst = O.instance(before, tiles, rules, opened)
    want = O.optimum(inst, objective)
    play = solve(before, tiles, rules=rules, opened=opened, objective=objective)
    if want is None:
        assert play is None, f"the oracle finds no legal play, the search gives {play}"
        return
    assert play is not None, f"the search finds no play, the oracle's best key is {want}"
    assert O.check_play(inst, O.counts_of(play.tiles), O.melds_of(play.table), objective) == want


def test_a_low_end_joker_keeps_the_number_after_it() -> None:
    """``J R7 R8 R9`` (the joker is R6) with ``R4 R5``: the joker stays only beside R7."""
    play = solve(Table.parse("J R7 R8 R9"), TileSet.parse("R4 R5"), rules=CLASSIC)
    assert play is not None
    assert str(play.table) == "R4 R5 J R7 R8 R9"
