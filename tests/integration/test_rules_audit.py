"""The rules audit (docs/rules.md §6, §8, §9, §12): each reproduction of the audit, as the rules document
settles it, and the search (``solve``, ``plays``) agreeing with the turn check on every one of them."""

from __future__ import annotations


import re
from pathlib import Path

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


# --- §8: a joker stays only in its home set; a taken joker's tile takes its place --------------------------------
#
# A table joker stays when it remains in its set (or the set that continues it: beside a former set-mate's
# place) standing for the same tile; anywhere else it counts as taken, and the real tile it stood for must end
# the turn in the set it left. classic is joker_retrieval=replace, sabra replace_from_rack.


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_a_joker_moved_to_another_set_counts_as_taken(preset: str) -> None:
    # the joker of K9 B9 O9 J is R9; in J R10 R11 it is R9 again, but in another set: taken, and no R9
    assert _verdict(preset, "K9 B9 O9 J", "R10 R11", "K9 B9 O9 | J R10 R11") == "refused joker_not_replaced"
    # the same with the joker's other candidate colour (B3 O3 R3 J: K3), and a rack joker beside it
    assert _verdict(preset, "B3 O3 R3 J", "J K4", "B3 O3 R3 | J K4 J") == "refused joker_not_replaced"


def test_the_refusal_names_the_joker_and_its_tile() -> None:
    with pytest.raises(IllegalMoveError) as exc:
        check_turn(Table.parse("K9 B9 O9 J"), TileSet.parse("R10 R11"), Table.parse("K9 B9 O9 | J R10 R11"),
                   rules=_rules("classic"), opened=True)
    message = str(exc.value)
    assert "joker standing for R9" in message and "moved to another set (J R10 R11)" in message
    assert "counts as taken" in message and "no R9" in message


@pytest.mark.parametrize("preset", ["sabra", "digital"])
def test_before_opening_a_moved_joker_is_taken(preset: str) -> None:
    moved, kept = "B3 O3 R3 | J R10 R11 R12", "B3 O3 R3 J | R10 R11 R12"
    # sabra opens with extension, but the joker left its group: only a player who had opened may take it;
    # digital's jokers are free
    assert _verdict(preset, "B3 O3 R3 J", "R10 R11 R12", moved, opened=False) == \
        ("R10 R11 R12" if preset == "digital" else "refused joker_retrieved_before_opening")
    assert _verdict(preset, "B3 O3 R3 J", "R10 R11 R12", kept, opened=False) == "R10 R11 R12"


def test_extend_after_opening_alone_does_not_let_a_new_player_take_a_joker() -> None:
    rules = _rules("classic").replace(extend_after_opening=True)
    with pytest.raises(IllegalMoveError) as exc:
        check_turn(Table.parse("B3 O3 R3 J"), TileSet.parse("R10 R11 R12"), Table.parse("B3 O3 R3 | J R10 R11 R12"),
                   rules=rules, opened=False)
    assert exc.value.reason == "joker_retrieved_before_opening"
    assert "K3 in B3 O3 R3 J" in str(exc.value)


def test_a_joker_that_keeps_its_tile_in_another_set_needs_a_rack_tile_beside_it() -> None:
    # the joker was B4 in the group and is B4 in the run: moved, so taken; the B4 replacing it is in the
    # group (fine), but the freed joker's run holds no rack tile
    assert _verdict("classic", "K4 O4 J | B5 B6 B7", "B4", "K4 B4 O4 | J B5 B6 B7") == \
        "refused freed_joker_without_rack_tiles"
    # the rack's B4 in the run instead: the joker stays in its group, still standing for B4
    assert _verdict("classic", "K4 O4 J | B5 B6 B7", "B4", "K4 O4 J | B4 B5 B6 B7") == "B4"


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_the_replacing_tile_must_take_the_jokers_place(preset: str) -> None:
    # the B10 that the joker of K10 O10 R10 J stood for is played into a run, not into the group
    assert _verdict(preset, "K10 O10 R10 J", "B10 B11", "K10 O10 R10 | B10 B11 J") == \
        "refused joker_replacement_elsewhere"
    # into the group, it replaces the joker; the freed joker sits beside two rack tiles
    assert _verdict(preset, "K10 O10 R10 J", "B10 B11 B12 B13", "K10 B10 O10 R10 | B11 B12 J") == "B10 B11 B12"


def test_a_table_tile_that_never_moves_does_not_replace_a_joker() -> None:
    # the R7 that would replace the R7 joker sits in the run, not in the 7s group
    for preset in ("classic", "sabra"):
        assert _verdict(preset, "K7 B7 O7 J | R5 R6 R7", "K1 K2", "K7 B7 O7 | R5 R6 R7 | K1 K2 J") == \
            "refused joker_replacement_elsewhere"
    # a table R7 moved into the group does replace it (classic; sabra wants the rack's R7)
    assert _verdict("classic", "K7 B7 O7 J | R4 R5 R6 R7", "K1 K2", "K7 B7 O7 R7 | R4 R5 R6 | K1 K2 J") == "K1 K2"
    assert _verdict("sabra", "K7 B7 O7 J | R4 R5 R6 R7", "K1 K2", "K7 B7 O7 R7 | R4 R5 R6 | K1 K2 J") == \
        "refused joker_replacement_not_from_rack"


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_jokers_that_stay(preset: str) -> None:
    # same run, same tile
    assert _verdict(preset, "R5 J R7", "R8", "R5 J R7 R8") == "R8"
    # the R8 at the run's high end, beside R7: the joker's place; the freed joker beside K1 K2
    assert _verdict(preset, "R5 R6 R7 J", "R8 K1 K2", "R5 R6 R7 R8 | K1 K2 J") == "K1 K2 R8"
    # a split run keeps its joker on either side: J = R4 beside R3, or beside R5
    assert _verdict(preset, "R1 R2 R3 J R5 R6 R7", "R8", "R1 R2 R3 J | R5 R6 R7 R8") == "R8"
    assert _verdict(preset, "R1 R2 R3 J R5 R6 R7", "R8", "R1 R2 R3 | J R5 R6 R7 R8") == "R8"
    # a group joker stays when a colour joins its group
    assert _verdict(preset, "K7 B7 J", "O7", "K7 B7 O7 J") == "O7"


def test_a_joker_at_a_runs_low_end_stays_only_beside_its_old_neighbour() -> None:
    # J R7 R8 R9: the joker is R6 at the low end; it stays only in a run that holds R7 beside it
    assert _verdict("classic", "J R7 R8 R9", "R4 R5", "R4 R5 J R7 R8 R9") == "R4 R5"
    assert _verdict("classic", "J R7 R8 R9", "R4 R5", "R4 R5 J | R7 R8 R9") == "refused joker_not_replaced"


# --- §8: two jokers in one group are read together -----------------------------------------------------------


def test_two_group_jokers_stand_for_distinct_colours() -> None:
    # K11 R11 J J: the jokers are B11 and O11; two O11 do not replace them both
    assert _verdict("classic", "K11 R11 J J", "O11 O11", "K11 O11 R11 | J O11 J") == "refused joker_not_replaced"
    assert _verdict("sabra", "K11 R11 J J", "O11 O11", "K11 O11 R11 | J O11 J") == "refused joker_not_replaced"
    # OJJ11: one joker stays (B11, in a group of 11s); an O11 replaces the O11 joker and the freed joker sits
    # beside the other O11: one rack tile, enough under classic, not under sabra
    assert _verdict("classic", "K11 R11 J J", "O11 O11", "K11 O11 R11 | OJJ11") == "O11 O11"
    assert _verdict("sabra", "K11 R11 J J", "O11 O11", "K11 O11 R11 | OJJ11") == \
        "refused freed_joker_without_rack_tiles"
    # with B11 as well, both are replaced: legal under replace
    assert _verdict("classic", "K11 R11 J J", "O11 O11 B11 O12", "K11 B11 O11 R11 | J O11 O12 J") == \
        "B11 O11 O11 O12"


# --- §8: the search follows the same rule ---------------------------------------------------------------------


@pytest.mark.parametrize("preset, before, rack, opened", [
    ("classic", "K9 B9 O9 J", "R10 R11", True), ("sabra", "K9 B9 O9 J", "R10 R11", True),
    ("classic", "B3 O3 R3 J", "J K4", True), ("sabra", "B3 O3 R3 J", "J K4", True),
    ("sabra", "B3 O3 R3 J", "R10 R11 R12", False), ("digital", "B3 O3 R3 J", "R10 R11 R12", False),
    ("classic", "K4 O4 J | B5 B6 B7", "B4", True),
    ("classic", "K10 O10 R10 J", "B10 B11", True), ("sabra", "K10 O10 R10 J", "B10 B11", True),
    ("classic", "K7 B7 O7 J | R5 R6 R7", "K1 K2", True), ("sabra", "K7 B7 O7 J | R5 R6 R7", "K1 K2", True),
    ("classic", "K11 R11 J J", "O11 O11", True), ("sabra", "K11 R11 J J", "O11 O11", True),
    ("classic", "R5 R6 R7 J", "R8 K1 K2", True), ("classic", "J R7 R8 R9", "R4 R5", True),
])
def test_the_search_follows_the_joker_rule(preset: str, before: str, rack: str, opened: bool) -> None:
    """Every play ``solve`` and ``plays`` offer on the reproductions passes the turn check."""
    _search_agrees(preset, before, rack, opened=opened)


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_the_search_cannot_play_a_moved_joker(preset: str) -> None:
    # R10 R11 need the group's joker, which may not leave its group without an R9: no play at all
    assert solve(Table.parse("K9 B9 O9 J"), TileSet.parse("R10 R11"), rules=_rules(preset), opened=True) is None
    # B10 B11 need the joker too, and the B10 cannot be both in the group and in the run
    assert solve(Table.parse("K10 O10 R10 J"), TileSet.parse("B10 B11"), rules=_rules(preset), opened=True) is None


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


# --- §8: the worked examples table of docs/rules.md -------------------------------------------------------------


def _section8_examples() -> list[tuple[str, str, str, dict[str, str]]]:
    """The rows of the §8 worked-examples table: (before, rack, after, {policy: "legal" | "refused"})."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index("Worked examples (§8)")
    rows = []
    for line in text[start:].splitlines()[4:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.replace("\\|", "¦").strip("|").split("|")]
        before, rack, after = (re.search(r"`([^`]*)`", c).group(1).replace("¦", "|")  # type: ignore[union-attr]
                               for c in cells[:3])
        verdicts = {policy: cell.split(":")[0].split(" ")[0] for policy, cell in
                    zip(("replace", "replace_from_rack", "free"), cells[3:6])}
        rows.append((before, rack, after, verdicts))
    return rows


def test_the_section8_table_has_its_examples() -> None:
    assert len(_section8_examples()) >= 20


@pytest.mark.parametrize("policy", ["replace", "replace_from_rack", "free"])
@pytest.mark.parametrize("row", _section8_examples(), ids=lambda row: f"{row[0]} + {row[1]} -> {row[2]}")
def test_section8_worked_examples(row: tuple[str, str, str, dict[str, str]], policy: str) -> None:
    before, rack, after, verdicts = row
    rules = RuleSet.preset("classic").replace(joker_retrieval=policy)
    try:
        check_turn(Table.parse(before), TileSet.parse(rack), Table.parse(after), rules=rules, opened=True)
        got = "legal"
    except IllegalMoveError:
        got = "refused"
    assert got == verdicts[policy]
