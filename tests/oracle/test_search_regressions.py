"""Positions where the existing Python solver (rummikub-solver on PyPI) goes wrong; the exact search must
get each right. Every answer is also confirmed by the independent oracle (tests/helpers/oracle.py) and by
``rummikub.legality.check_turn``, so none of the expectations below stands alone.
"""

from __future__ import annotations

import pytest

pytest.importorskip("scipy.optimize")

from tests.helpers import oracle as O  # noqa: E402

from rummikub import RuleSet, Table, TileSet  # noqa: E402
from rummikub.legality import check_turn  # noqa: E402
from rummikub.search import plays, solve  # noqa: E402

STANDARD = RuleSet()
FREE = RuleSet().replace(joker_retrieval="free")
REPLACE = RuleSet().replace(joker_retrieval="replace")


def best(table: str, rack: str, rules: RuleSet = STANDARD, opened: bool = True, objective: str = "tiles"):  # type: ignore[no-untyped-def]
    """solve(), re-checked by check_turn and by the oracle (same optimum key)."""
    t, k = Table.parse(table, rules), TileSet.parse(rack, rules)
    play = solve(t, k, rules=rules, opened=opened, objective=objective)
    inst = O.instance(t, k, rules, opened)
    want = O.optimum(inst, objective)
    if play is None:
        assert want is None, f"search found no play, the oracle's best key is {want}"
        return None
    assert check_turn(t, k, play.table, rules=rules, opened=opened) == play.tiles
    assert O.check_play(inst, O.counts_of(play.tiles), O.melds_of(play.table), objective) == want
    return play


def test_opening_three_runs_of_4_5_6_opens() -> None:
    # 3 x (4+5+6) = 45 points; rummikub-solver's initial mode misses openings made of several small sets
    play = best("", "K4 K5 K6 B4 B5 B6 O4 O5 O6 R13", opened=False)
    assert play is not None
    assert TileSet.parse("K4 K5 K6 B4 B5 B6 O4 O5 O6") <= play.tiles
    assert sum(m.value for m in play.table) >= 45


def test_opening_two_groups_of_8s_opens() -> None:
    play = best("", "K8 B8 O8 K8 B8 R8 K1", opened=False)  # two groups of 8s: 48 points
    assert play is not None
    assert play.tiles == TileSet.parse("K8 B8 O8 K8 B8 R8")
    assert len(play.table) == 2 and all(m.kind.value == "group" for m in play.table)


def test_opening_below_threshold_does_not_open() -> None:
    assert best("", "K9 B9 O9", opened=False) is None  # 27 points
    assert best("", "R8 R9 J", opened=False) is None  # best reading R8 R9 R10 = 27
    play = best("", "R8 R9 J R11", opened=False)  # 38 with J as R10
    assert play is not None and play.value == 38


def test_lone_rack_joker_joins_a_group() -> None:
    play = best("K5 B5 O5", "J")
    assert play is not None and play.tiles == TileSet.parse("J")
    assert len(play.table) == 1 and len(play.table[0]) == 4


def test_table_joker_stays_and_run_goes_down() -> None:
    play = best("K5 B5 O5 J", "K1 K2 K3")
    assert play is not None and play.tiles == TileSet.parse("K1 K2 K3")


def test_free_policy_takes_the_surplus_joker() -> None:
    play = best("K5 B5 O5 J", "K1 K2", rules=FREE)
    assert play is not None and play.tiles == TileSet.parse("K1 K2")
    assert Table.parse("K1 K2 J | K5 B5 O5") == play.table


def test_replace_policy_forbids_taking_the_joker_without_its_tile() -> None:
    assert best("K5 B5 O5 J", "K1 K2", rules=REPLACE) is None
    assert not plays("K5 B5 O5 J", "K1 K2", rules=REPLACE)


def test_replacing_tile_frees_the_joker() -> None:
    play = best("K5 B5 O5 J", "K1 K2 R5", rules=REPLACE)
    assert play is not None and play.tiles == TileSet.parse("K1 K2 R5")
    assert Table.parse("K1 K2 J | K5 B5 O5 R5") == play.table


def test_replace_from_rack_needs_two_rack_tiles_with_the_freed_joker() -> None:
    sabra = RuleSet.preset("sabra")
    play = best("K5 B5 O5 J", "K1 K2 R5", rules=sabra)
    assert play is not None and play.tiles == TileSet.parse("K1 K2 R5")
    # the replacing R5 must come from the rack, so a table R5 does not free the joker
    assert best("K5 B5 O5 J | R5 R6 R7 R8", "K1 K2", rules=sabra) is None
    play = best("K5 B5 O5 J | R5 R6 R7 R8", "K1 K2", rules=REPLACE)
    assert play is not None and play.tiles == TileSet.parse("K1 K2")


def test_opening_cannot_touch_the_table() -> None:
    # R4 fits the table run but an opening (without extend_after_opening) uses the rack alone
    play = best("R1 R2 R3", "R4 K10 K11 K12", opened=False)
    assert play is not None and play.tiles == TileSet.parse("K10 K11 K12")
    ext = RuleSet().replace(extend_after_opening=True)
    play = best("R1 R2 R3", "R4 K10 K11 K12", rules=ext, opened=False)
    assert play is not None and play.tiles == TileSet.parse("R4 K10 K11 K12")


def test_joker_not_counted_in_opening_when_excluded() -> None:
    no_joker = RuleSet().replace(joker_in_opening=False)
    assert best("", "R10 R11 J", opened=False) is not None  # 33 with the joker
    assert best("", "R10 R11 J", rules=no_joker, opened=False) is None


@pytest.mark.parametrize("objective, placed", [("tiles", "K1 K2 K4 K5 J"), ("value", "R12 R13 J"),
                                                ("penalty", "R12 R13 J")])
def test_objectives_choose_differently(objective: str, placed: str) -> None:
    # one joker, two uses: K1 K2 J K4 K5 (5 tiles, 15 points, rack -42) or R12 R13 J (3 tiles, 36, rack -55)
    play = best("", "K1 K2 K4 K5 R12 R13 J", opened=True, objective=objective)
    assert play is not None and play.tiles == TileSet.parse(placed)


def test_value_counts_rack_joker_at_highest_free_slot() -> None:
    # Found by the oracle's full run (stream1023-92): the contract values P's joker at the highest free slot
    # (R13), not where legality must put the retrieved joker (the 6-group).
    # P = B6 O7 R11 R12 J: O7 frees the table joker, which must sit with 2 rack tiles (R11 R12 J); the rack
    # joker sits in B6 O6 J. value(P) = 6 + 7 + 11 + 12 + 13 = 49 (docs/search-semantics.md item 4).
    rules = RuleSet().replace(joker_retrieval="replace_from_rack")
    play = best("O6 J O8 O9 | B4 B5 B6", "K5 K10 B6 O2 O3 O7 O9 R11 R12 J", rules=rules, objective="value")
    assert play is not None and play.value == 49
