"""check_turn: a table of legal and illegal turns for every preset and every joker policy, each refusal
with its expected reason (docs/rules.md §5-§8, docs/search-semantics.md)."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import Draft, Game, IllegalMoveError, Meld, RuleSet, Table, TileSet
import rummikub.legality as legality
from rummikub.legality import Reason, best_opening, check_turn, opening_value

PRESETS = ["classic", "pressman-2015", "digital", "sabra", "large"]
POLICIES = ["replace", "replace_from_rack", "free"]

Expect = Callable[[RuleSet], str]


def always(reason: str) -> Expect:
    return lambda rules: reason


def by_policy(replace: str, from_rack: str, free: str) -> Expect:
    return lambda rules: {"replace": replace, "replace_from_rack": from_rack, "free": free}[rules.joker_retrieval]


def before_opening(no_extend: str, extend: Expect) -> Expect:
    return lambda rules: extend(rules) if rules.extend_after_opening else no_extend


# (name, table before, rack, table after, opened, expected reason or "ok")
CASES: list[tuple[str, str, str, str, bool, Expect]] = [
    ("opening from the rack", "", "R10 R11 R12 K1", "R10 R11 R12", False, always("ok")),
    ("opening with a table tile", "K5 K6 K7 K8", "R10 R11 R12 K9", "K5 K6 K7 K8 K9 | R10 R11 R12", False,
     before_opening("opening_touches_table", always("ok"))),
    ("opening that needs the table tile", "R4 R5 R6 R7", "R8 R9 R10 K1", "R4 R5 R6 R7 R8 R9 R10", False,
     before_opening("opening_touches_table", always("opening_too_low"))),
    ("opening too low", "", "K9 B9 O9", "K9 B9 O9", False, always("opening_too_low")),
    ("opening beside an untouched table", "R1 R2 R3", "K13 B13 O13", "R1 R2 R3 | K13 B13 O13", False,
     always("ok")),
    ("rearranging without a rack tile", "R4 R5 R6 R7 R8 R9", "K1", "R4 R5 R6 | R7 R8 R9", True,
     always("no_rack_tile")),
    ("taking a joker before opening", "R5 J R7", "R6 K10 B10 O10", "R5 R6 R7 | K10 B10 O10 J", False,
     before_opening("opening_touches_table",
                    by_policy("joker_retrieved_before_opening", "joker_retrieved_before_opening", "ok"))),
    ("taking a joker without the exact replacement", "R5 R6 R7 J", "K1 K2 B11", "R5 R6 R7 | K1 K2 J", True,
     by_policy("joker_not_replaced", "joker_not_replaced", "ok")),
    ("retrieving a joker with the tile from the rack", "R5 R6 R7 J", "R8 K1 K2", "R5 R6 R7 R8 | K1 K2 J", True,
     always("ok")),
    ("retrieving a joker with a tile from the table", "R5 R6 R7 J | K8 B8 O8 R8", "K1 K2",
     "R5 R6 R7 R8 | K8 B8 O8 | K1 K2 J", True, by_policy("ok", "joker_replacement_not_from_rack", "ok")),
    ("the freed joker with one rack tile", "R5 R6 R7 J | K2 K3 K4", "R8 K5", "R5 R6 R7 R8 | K2 K3 K4 K5 J", True,
     by_policy("ok", "freed_joker_without_rack_tiles", "ok")),
    ("the freed joker with no rack tile", "R5 R6 R7 J | K2 K3 K4", "R8", "R5 R6 R7 R8 | K2 K3 K4 J", True,
     by_policy("freed_joker_without_rack_tiles", "freed_joker_without_rack_tiles", "ok")),
    ("a freed joker kept for later", "R5 R6 R7 J", "R8 K1", "R5 R6 R7 R8", True, always("joker_kept")),
    ("a table tile returned to the rack", "R4 R5 R6 R7", "K1 K2 K3", "R4 R5 R6 | K1 K2 K3", True,
     always("table_tile_removed")),
    ("a tile that is not in the rack", "", "K1 K2", "K1 K2 K3", True, always("not_in_rack")),
    ("a run joker stays while its run grows", "R5 J R7", "R8", "R5 J R7 R8", True, always("ok")),
    ("a group joker stays when a colour is added", "K7 B7 J", "O7", "K7 B7 O7 J", True, always("ok")),
    ("a joker moved to another set, standing for the same tile", "K9 B9 O9 J", "R10 R11 K1",
     "K9 B9 O9 | J R10 R11", True, by_policy("joker_not_replaced", "joker_not_replaced", "ok")),
    ("the replacing tile in another set", "K10 O10 R10 J", "B10 B11", "K10 O10 R10 | B10 B11 J", True,
     by_policy("joker_replacement_elsewhere", "joker_replacement_elsewhere", "ok")),
    ("a split run keeps its joker beside a former neighbour", "R1 R2 R3 J R5 R6 R7", "R8",
     "R1 R2 R3 | J R5 R6 R7 R8", True, always("ok")),
    ("a run's end joker cut off from its neighbour", "J R7 R8 R9", "R4 R5", "R4 R5 J | R7 R8 R9", True,
     by_policy("joker_not_replaced", "joker_not_replaced", "ok")),
    ("the run split (RULES §7)", "R4 R5 R6 R7 R8", "R6", "R4 R5 R6 | R6 R7 R8", True, always("ok")),
    ("the guide's two additions (RULES §7)", "B4 B5 B6 | K8 O8 R8", "B3 B8", "B3 B4 B5 B6 | K8 B8 O8 R8", True,
     always("ok")),
]


def _rules(preset: str, policy: str) -> RuleSet:
    return RuleSet.preset(preset).replace(joker_retrieval=policy)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_turn_table(preset: str, policy: str, case: tuple[str, str, str, str, bool, Expect]) -> None:
    name, before, rack, after, opened, expect = case
    rules = _rules(preset, policy)
    expected = expect(rules)
    b, a, r = Table.parse(before, rules), Table.parse(after, rules), TileSet.parse(rack, rules)
    if expected == "ok":
        played = check_turn(b, r, a, rules=rules, opened=opened)
        assert played == a.tiles() - b.tiles()
    else:
        with pytest.raises(IllegalMoveError) as info:
            check_turn(b, r, a, rules=rules, opened=opened)
        assert info.value.reason == expected, str(info.value)
        assert str(info.value)  # a human message


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("sets, reason", [
    (["K1"], "loose_tile"),
    (["K7 K7 B7"], "invalid_set"),     # two same-colour tiles in a group
    (["R12 R13 R1"], "invalid_set"),   # 13-1 wrap
    (["R7 R7 B7"], "invalid_set"),     # two red 7s with a blue 7 is not a group (RULES §2)
])
def test_invalid_sets_through_the_game(preset: str, policy: str, sets: list[str], reason: str) -> None:
    rules = _rules(preset, policy)
    tiles = TileSet.parse(" ".join(sets))
    others = TileSet.full(rules) - tiles
    rest = list(others)
    racks = [tiles | TileSet(rest[:rules.rack_size - len(tiles)])]
    rest = rest[rules.rack_size - len(tiles):]
    racks.append(TileSet(rest[:rules.rack_size]))
    game = Game.from_deal(racks, rest[rules.rack_size:], rules=rules.replace(turn_seconds=None))
    game._opened[0] = True  # the set itself is what fails
    game._start_turn(None)
    # through the draft
    for text in sets:
        where = None
        for tile in TileSet.parse(text).tiles() if text != "R12 R13 R1" else [t for t in text.split()]:
            where = game.draft.place(tile, where)
    before = game._snapshot()
    with pytest.raises(IllegalMoveError) as info:
        game.commit()
    assert info.value.reason == reason, str(info.value)
    assert game._snapshot() == before
    # and as a whole proposed table
    if reason != "loose_tile":
        with pytest.raises(IllegalMoveError) as info:
            game.apply("play " + " | ".join(sets))
        assert info.value.reason == "invalid_set"
        assert game._snapshot() == before


def test_joker_in_opening_variant() -> None:
    rules = RuleSet.preset("pressman-2015")
    no = rules.replace(joker_in_opening=False)
    table, rack, after = Table(), TileSet.parse("R8 R9 J R11"), Table.parse("R8 R9 J R11")
    assert str(check_turn(table, rack, after, rules=rules, opened=False)) == "R8 R9 R11 J"
    with pytest.raises(IllegalMoveError) as info:
        check_turn(table, rack, after, rules=no, opened=False)
    assert info.value.reason == "joker_in_opening"
    # with extend_after_opening the joker may be played but does not count
    sabra = RuleSet.preset("sabra")
    with pytest.raises(IllegalMoveError) as info:
        check_turn(table, rack, after, rules=sabra, opened=False)
    assert info.value.reason == "opening_too_low" and "jokers do not count" in str(info.value)
    rack2 = TileSet.parse("K10 B10 O10 R1 R2 J")
    assert check_turn(table, rack2, Table.parse("K10 B10 O10 | R1 R2 J"), rules=sabra, opened=False) == rack2


def test_threshold_zero_switches_the_opening_off() -> None:
    rules = RuleSet.preset("classic").replace(opening_threshold=0)
    played = check_turn(Table.parse("R4 R5 R6"), TileSet.parse("R7"), Table.parse("R4 R5 R6 R7"), rules=rules,
                        opened=False)
    assert str(played) == "R7"


def test_group_joker_retrieval_either_missing_colour() -> None:
    rules = RuleSet.preset("classic")
    before = Table.parse("K7 B7 J")
    for colour in ("O7", "R7"):
        after = Table.parse(f"K7 B7 {colour} | K1 K2 J")
        assert str(check_turn(before, TileSet.parse(f"{colour} K1 K2"), after, rules=rules, opened=True)) \
            == f"K1 K2 {colour}"
    with pytest.raises(IllegalMoveError) as info:
        check_turn(before, TileSet.parse("K1 K2 K3"), Table.parse("K1 K2 K3 J"), rules=rules, opened=True)
    assert info.value.reason == "table_tile_removed"


def test_rules_of_the_after_table_are_checked() -> None:
    loose = RuleSet(min_len=2)
    meld = Meld.parse("R5 R6", loose)
    with pytest.raises(IllegalMoveError) as info:
        check_turn(Table(), TileSet.parse("R5 R6"), Table([meld]), rules=RuleSet(), opened=True)
    assert info.value.reason == "loose_tile"


def test_draft_problems_and_legal() -> None:
    rules = RuleSet.preset("classic")
    draft = Draft(Table.parse("B4 B5 B6 | K8 O8 R8"), TileSet.parse("B3 B8 K1"), rules, opened=True)
    assert [p["code"] for p in draft.problems()] == ["no_rack_tile"] and draft.problems()[0]["set"] is None
    loose = draft.place("K1")
    assert not draft.valid and [(p["set"], p["code"]) for p in draft.problems()] == [(loose, "loose_tile")]
    draft.take_back("K1")
    draft.place("B3", "s1", 0)
    assert draft.valid and draft.legal and draft.problems() == []


@pytest.mark.parametrize("rack, value", [
    ("R10 R11 R12", 33), ("R9 R10 R11", 30), ("R8 R9 R10", 27), ("K9 B9 O9", 27), ("K13 B13 O13 R13", 52), ("R8 R9 J", 27),
    ("R8 R9 J R11", 38), ("R1 R2 R3 R4 R5 R6", 21), ("K1 K2", 0), ("K13 B13 J J", 52),
])
def test_opening_value(rack: str, value: int) -> None:
    assert opening_value(TileSet.parse(rack), RuleSet()) == value
    best, melds = best_opening(TileSet.parse(rack), RuleSet())
    assert best == value and sum(m.value for m in melds) == value
    assert sum((m.tileset() for m in melds), TileSet()) <= TileSet.parse(rack)


def test_opening_value_uses_a_joker_where_it_counts_most() -> None:
    # the joker can complete one set or the other: the search must find the better one
    tiles = TileSet.parse("K1 K2 B13 O13 J")
    assert opening_value(tiles, RuleSet()) == 39


def test_reason_values_are_stable() -> None:
    assert Reason("opening_too_low") is Reason.OPENING_TOO_LOW
    assert str(Reason.NO_RACK_TILE) == "no_rack_tile"


def test_four_taken_jokers_on_a_full_table_are_checked_quickly() -> None:
    """The joker check enumerates only the (at most 4) jokers' choices; which copy of a tile replaces or
    stands beside a joker is decided by max flow, so a table of 150 tiles with three copies of everything
    costs little."""
    rules = RuleSet.preset("large")
    runs = " | ".join(" ".join(f"{c}{n}" for n in range(1, 14)) for c in "KKKBBBOO")
    before = Table.parse(runs + " | R1 R2 J | R5 J R7 | R9 R10 J | J R12 R13", rules)
    rack = TileSet.parse("R3 R4 R6 R8 R11 R11 O5 O6 O7", rules)
    after = Table.parse(runs + " | R1 R2 R3 R4 | R5 R6 R7 R8 | R9 R10 R11 | R11 R12 R13 | O5 O6 O7 J J J J", rules)
    start = time.process_time()
    for policy in ("replace", "replace_from_rack"):
        assert check_turn(before, rack, after, rules=rules.replace(joker_retrieval=policy), opened=True) == rack
        # one R11 in a group of 11s: one of the two R11 jokers has no replacing tile in its place (in "R11 J J",
        # a run R11 R12 R13, it would replace the joker of J R12 R13: places held by jokers count)
        moved = Table.parse(runs + " | R1 R2 R3 R4 | R5 R6 R7 R8 | R9 R10 R11 R12 R13 | O5 O6 O7 J J | RJJ11", rules)
        with pytest.raises(IllegalMoveError) as exc:
            check_turn(before, rack, moved, rules=rules.replace(joker_retrieval=policy), opened=True)
        assert exc.value.reason in ("joker_not_replaced", "joker_replacement_elsewhere"), str(exc.value)
    assert time.process_time() - start < 2.0


def test_a_table_with_more_jokers_than_the_rules_is_refused() -> None:
    rules = RuleSet(jokers=2, opening_threshold=0)
    before = Table.parse("R1 R2 J | K1 K2 J")
    after = Table.parse("R1 J J | K1 K2 J | R2 R3 R4")
    with pytest.raises(IllegalMoveError) as exc:
        check_turn(before, TileSet.parse("J R3 R4"), after, rules=rules, opened=True)
    assert exc.value.reason == "invalid_set" and "3 jokers" in str(exc.value)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5)), max_size=14), st.lists(st.integers(1, 2), min_size=6,
                                                                                         max_size=6))
def test_max_flow_is_a_maximum_bipartite_b_matching(edges: list[tuple[int, int]], capacity: list[int]) -> None:
    """_max_flow against brute force: left nodes 0-4 (demand 1 each) to right nodes 0-5 (``capacity``)."""
    pairs = sorted(set(edges))
    graph = [("s", ("l", a), 1) for a in range(5)] + [(("l", a), ("r", b), 1) for a, b in pairs]
    graph += [(("r", b), "t", capacity[b]) for b in range(6)]
    best = 0
    for chosen in itertools.product(*[[None] + [b for a2, b in pairs if a2 == a] for a in range(5)]):
        used = Counter(b for b in chosen if b is not None)
        if all(k <= capacity[b] for b, k in used.items()):
            best = max(best, sum(used.values()))
    assert legality._max_flow(graph, "s", "t") == best
