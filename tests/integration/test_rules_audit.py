"""The rules audit (docs/rules.md §6, §8, §9, §12): each reproduction of the audit, as the rules document
settles it, and the search (``solve``, ``plays``) agreeing with the turn check on every one of them."""

from __future__ import annotations


import pytest

from rummikub import RuleSet, RummikubError, Table, TileSet
from rummikub._errors import IllegalMoveError
from rummikub.legality import check_turn
from rummikub.search import plays, solve


def _rules(preset: str) -> RuleSet:
    return RuleSet.preset(preset)


def _verdict(preset: str, before: str, rack: str, after: str, opened: bool = True) -> str:
    """The played tiles, or ``refused <reason>``."""
    rules = _rules(preset)
    try:
        return str(check_turn(Table.parse(before), TileSet.parse(rack), Table.parse(after), rules=rules,
                              opened=opened))
    except IllegalMoveError as exc:
        return f"refused {exc.reason}"


def _search_agrees(preset: str, before: str, rack: str, opened: bool = True) -> Table | None:
    """solve's play and every play of ``plays`` pass check_turn; returns solve's table."""
    rules, table, tiles = _rules(preset), Table.parse(before), TileSet.parse(rack)
    play = solve(table, tiles, rules=rules, opened=opened)
    if play is not None:
        assert check_turn(table, tiles, play.table, rules=rules, opened=opened) == play.tiles
    for p in plays(table, tiles, rules=rules, opened=opened):
        assert check_turn(table, tiles, p.table, rules=rules, opened=opened) == p.tiles
    return None if play is None else play.table


# --- §8: a joker standing for the same tile, wherever it ends, stays (the engine's counting rule) ----------


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_joker_standing_for_the_same_tile_in_another_set_stays(preset: str) -> None:
    # the joker of K9 B9 O9 J may stand for R9; in J R10 R11 it is R9 again: it counts as staying
    assert _verdict(preset, "K9 B9 O9 J", "R10 R11", "K9 B9 O9 | J R10 R11") == "R10 R11"
    assert _search_agrees(preset, "K9 B9 O9 J", "R10 R11") is not None
    # the same in a group with the joker's other candidate colour
    assert _verdict(preset, "B3 O3 R3 J", "J K4", "B3 O3 R3 | J K4 J") == "K4 J"
    _search_agrees(preset, "B3 O3 R3 J", "J K4")


@pytest.mark.parametrize("preset", ["sabra", "digital"])
def test_before_opening_a_joker_that_stays_by_counting_may_move(preset: str) -> None:
    rules = _rules(preset)
    # digital is free: any joker moves; sabra: the joker still stands for K3 (J R10 R11 R12 is no run with it)
    table = _search_agrees(preset, "B3 O3 R3 J", "R10 R11 R12", opened=False)
    assert table is not None
    check_turn(Table.parse("B3 O3 R3 J"), TileSet.parse("R10 R11 R12"), table, rules=rules, opened=False)


def test_a_joker_that_keeps_its_tile_needs_no_rack_tile_beside_it() -> None:
    assert _verdict("classic", "K4 O4 J | B5 B6 B7", "B4", "K4 B4 O4 | J B5 B6 B7") == "B4"
    _search_agrees("classic", "K4 O4 J | B5 B6 B7", "B4")


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_the_replacing_tile_may_go_anywhere(preset: str) -> None:
    # the B10 that the joker of K10 O10 R10 J stood for is played into a run; its copy counts
    assert _verdict(preset, "K10 O10 R10 J", "B10 B11", "K10 O10 R10 | B10 B11 J") == "B10 B11"
    _search_agrees(preset, "K10 O10 R10 J", "B10 B11")


def test_the_replacing_tile_may_be_a_table_tile_that_never_moves() -> None:
    assert _verdict("classic", "K7 B7 O7 J | R5 R6 R7", "K1 K2", "K7 B7 O7 | R5 R6 R7 | K1 K2 J") == "K1 K2"
    assert _verdict("sabra", "K7 B7 O7 J | R5 R6 R7", "K1 K2", "K7 B7 O7 | R5 R6 R7 | K1 K2 J") == \
        "refused joker_replacement_not_from_rack"
    _search_agrees("classic", "K7 B7 O7 J | R5 R6 R7", "K1 K2")
    assert _search_agrees("sabra", "K7 B7 O7 J | R5 R6 R7", "K1 K2") is None


# --- §8: two jokers in one group are read together -----------------------------------------------------------


def test_two_group_jokers_stand_for_distinct_colours() -> None:
    # K11 R11 J J: the jokers are B11 and O11; two O11 do not replace them both
    assert _verdict("classic", "K11 R11 J J", "O11 O11", "K11 O11 R11 | J O11 J") == "refused joker_not_replaced"
    assert _verdict("sabra", "K11 R11 J J", "O11 O11", "K11 O11 R11 | OJJ11") == \
        "refused freed_joker_without_rack_tiles"
    assert _search_agrees("sabra", "K11 R11 J J", "O11 O11") is None
    assert _search_agrees("classic", "K11 R11 J J", "O11 O11") is not None
    # with B11 as well, both are replaced: legal under replace
    assert _verdict("classic", "K11 R11 J J", "O11 O11 B11 O12", "K11 B11 O11 R11 | J O11 O12 J") == \
        "B11 O11 O11 O12"


# --- §6: the opening --------------------------------------------------------------------------------------------


def test_opening_credits_the_joker_where_the_table_shows_it() -> None:
    # J R9 R10 is R8 R9 R10: 27; R9 R10 J is R9 R10 R11: 30
    assert _verdict("classic", "", "J R9 R10", "J R9 R10", opened=False) == "refused opening_too_low"
    assert _verdict("classic", "", "J R9 R10", "R9 R10 J", opened=False) == "R9 R10 J"
    table = _search_agrees("classic", "", "J R9 R10", opened=False)
    assert table is not None and table.value == 30


def test_opening_with_extension_merges_an_opening_into_the_table() -> None:
    # the rack's R8-R11 (38) open on their own, then join the table's run
    assert _verdict("digital", "R5 R6 R7", "R8 R9 R10 R11", "R5 R6 R7 R8 R9 R10 R11", opened=False) == \
        "R8 R9 R10 R11"
    assert _verdict("digital", "R5 R6 R7", "R8 R9 R10", "R5 R6 R7 R8 R9 R10", opened=False) == \
        "refused opening_too_low"
    _search_agrees("digital", "R5 R6 R7", "R8 R9 R10 R11", opened=False)


# --- §9, §12: presets ---------------------------------------------------------------------------------------------


def test_presets_commit_a_legal_draft_at_timeout() -> None:
    for name in ("classic", "standard", "wango"):
        assert _rules(name).commit_valid_draft_on_timeout
    assert not RuleSet().replace(commit_valid_draft_on_timeout=False).commit_valid_draft_on_timeout


def test_wango_preset() -> None:
    w = _rules("wango")
    assert (w.joker_retrieval, w.joker_in_opening, w.extend_after_opening, w.turn_seconds, w.opening_threshold) \
        == ("replace", True, False, None, 30)
    # a retrieved joker goes into a set with at least one rack tile
    assert _verdict("wango", "R5 R6 R7 J", "R8 K1 K2", "R5 R6 R7 R8 | K1 K2 J") == "K1 K2 R8"
    assert _verdict("wango", "R5 R6 R7 J | K2 K3 K4", "R8", "R5 R6 R7 R8 | K2 K3 K4 J") == \
        "refused freed_joker_without_rack_tiles"


# --- bounded time -------------------------------------------------------------------------------------------------


def test_rule_sets_with_more_jokers_than_the_search_handles_are_refused() -> None:
    """Seven jokers once made refusing one rearrangement try 7! x 3^6 joker assignments; such a rule set is
    now refused up front, since neither the search nor the bots could play it."""
    with pytest.raises(RummikubError, match="jokers"):
        RuleSet(jokers=7, opening_threshold=0, rack_size=16, max_players=2)


def test_refusing_four_rearranged_jokers() -> None:
    rules = RuleSet(jokers=4, opening_threshold=0, rack_size=16, max_players=2, copies=3)
    before = Table.parse("KJJ1 | KJJ2", rules)
    after = Table.parse("K1 J J | K2 J J | B5 B6 B7", rules)
    with pytest.raises(IllegalMoveError) as exc:
        check_turn(before, TileSet.parse("B5 B6 B7"), after, rules=rules, opened=True)
    assert exc.value.reason == "joker_not_replaced"


def test_refusing_a_46_tile_opening_is_fast() -> None:
    rules = RuleSet.preset("digital").replace(opening_threshold=2000, rack_size=46, max_players=2)
    runs = " | ".join(" ".join(f"{c}{n}" for n in range(1, 14)) for c in "KBO")
    after = Table.parse(runs + " | R1 R2 R3 R4 R5 J J", rules)
    played = after.tiles()
    assert len(played) == 46
    with pytest.raises(IllegalMoveError) as exc:  # answered by the core's opening search, not a Python one
        check_turn(Table(), played, after, rules=rules, opened=False)
    assert exc.value.reason == "opening_too_low"
    assert solve(Table(), played, rules=rules, opened=False) is None
