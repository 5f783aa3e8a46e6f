"""plays() on tables whose joker has several readings or can stay or be retrieved: the core lists one input per
way, and an input's search starts from the layers the input before it made up to the first number where the two
differ. The listing must be exactly the rack subsets that solve() can place whole, each with solve()'s value."""

from __future__ import annotations

from itertools import product

import pytest

from rummikub import RuleSet, Table, TileSet
from rummikub.search import plays, solve

# A group joker reading K11 or B11 (the rack holds K11, the table B11): four inputs, two by two alike up to the 11s.
GROUP_TABLE = ("K1 B1 O1 | K2 O2 R2 | K2 B2 O2 | K3 B3 R3 | B4 O4 R4 | K4 K5 K6 K7 | B5 B6 B7 | O5 O6 O7 O8 | "
               "O6 O7 O8 | K6 K7 K8 K9 | R4 R5 R6 R7 R8 R9 | O11 R11 J | B9 B10 B11 | B12 O12 R12")
# A group joker reading O5 or R5 beside a run joker standing for B8.
TWO_JOKERS_TABLE = "K5 B5 J | B6 B7 J B9 | K1 K2 K3 | O9 O10 O11"

CASES = [
    ("classic", "replace", GROUP_TABLE, "K4 K10 K11 B4 O3 O11 O13 R6"),
    ("classic", "replace_from_rack", GROUP_TABLE, "K4 K10 K11 B11 O3 O11 O13 R6"),
    ("classic", "replace", TWO_JOKERS_TABLE, "O5 R5 R6 B8 B10 K4 O8"),
    ("classic", "replace_from_rack", TWO_JOKERS_TABLE, "O5 R5 R6 B8 O6 O12 K4"),
]


def _sub_racks(rack: TileSet) -> list[TileSet]:
    """Every non-empty sub-multiset of the rack."""
    names = [str(t) for t in rack.tiles()]
    kinds = sorted(set(names))
    counts = [names.count(k) for k in kinds]
    subs: list[TileSet] = []
    for take in product(*(range(c + 1) for c in counts)):
        chosen = [k for k, n in zip(kinds, take) for _ in range(n)]
        if chosen:
            subs.append(TileSet.parse(" ".join(chosen)))
    return subs


# A retrieved joker whose run cannot reach a rack tile of its colour any more (B1 B2 B3 with the freed joker as B4 or
# B5, the next blue rack tile B12 or B13): the sweep leaves such runs out as soon as they are made (Input::rack_gap),
# with one or two table jokers, with rack jokers or none, under either policy.
DOOMED_CASES = [
    ("classic", "replace", "K5 K6 J | B1 B2 B3 | O4 O5 O6 | R7 R8 R9", "K7 B5 B12 O8 R6 R11"),
    ("classic", "replace_from_rack", "K5 K6 J | B1 B2 B3 | O4 O5 O6 | R7 R8 R9", "K7 B5 B12 O8 R6 R11"),
    ("classic", "replace", "K5 K6 J | B1 B2 B3 | B6 B7 B8 | O2 O3 O4 | O9 O10 O11 | R3 R4 R5 R6",
     "K7 B13 O13 R2 R9 J"),
    ("classic", "replace", "K5 K6 J | B1 B2 J | B6 B7 B8 | O2 O3 O4 | O9 O10 O11 | R3 R4 R5 R6",
     "K7 B13 O13 R2 R9 B3"),
    ("classic", "replace_from_rack", "K5 K6 J | B1 B2 B3 | B6 B7 B8 | O2 O3 O4 | O9 O10 O11 | R3 R4 R5 R6",
     "K7 B13 O13 R2 R9 K8"),
]


@pytest.mark.parametrize(("preset", "policy", "table_text", "rack_text"), CASES + DOOMED_CASES)
def test_listing_is_every_subset_solve_places_whole(preset: str, policy: str, table_text: str,
                                                      rack_text: str) -> None:
    rules = RuleSet.preset(preset).replace(joker_retrieval=policy)
    table = Table.parse(table_text, rules)
    rack = TileSet.parse(rack_text, rules)
    listed = list(plays(table, rack, rules=rules, opened=True))
    got = {p.tiles: p.value for p in listed}
    assert len(got) == len(listed), "a rack subset is listed twice"
    want: dict[TileSet, int] = {}
    for sub in _sub_racks(rack):
        best = solve(table, sub, rules=rules, opened=True)
        if best is not None and best.tiles == sub:
            want[sub] = best.value
    assert want, "the case lists nothing: it tests nothing"
    assert got == want
    # Best first: most tiles, then most value.
    keys = [(len(p.tiles), p.value) for p in listed]
    assert keys == sorted(keys, reverse=True)
