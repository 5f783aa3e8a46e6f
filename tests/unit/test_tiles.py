"""Tile and TileSet: property tests against collections.Counter, and every tile of the standard and
160-tile sets through str / parse / repr / pickle."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import numpy as np
import pytest
from tests.helpers.strategies import ALL_CODES, LARGE, MAX_COUNT, STANDARD, WIDE, counters, tiles_of, tileset_of
from hypothesis import assume, given
from hypothesis import strategies as st

import rummikub
from rummikub import JOKER, Colour, RuleSet, Tile, TileCountError, TileSet

NAMESPACE = vars(rummikub)  # what a pasted repr may refer to: Tile, TileSet, Colour, ...
COLOUR_ORDER = "KBOR"


def number_of(code: int) -> int:
    return code % 16 + 1


def colour_of(code: int) -> int:
    return code // 16


def model_value(c: Counter[int], joker_value: int) -> int:
    """The plain rack value: numbers summed, each joker ``joker_value``."""
    return sum((joker_value if code == JOKER.code else number_of(code)) * n for code, n in c.items())


def fits(c: Counter[int]) -> bool:
    return all(n <= MAX_COUNT for n in c.values())


def sub_multiset(a: Counter[int], b: Counter[int]) -> bool:
    """a <= b as multisets."""
    return all(b[k] >= n for k, n in a.items())


# --- Tile ------------------------------------------------------------------------------------------

EVERY_TILE = sorted(set(tiles_of(STANDARD)) | set(tiles_of(LARGE)) | set(tiles_of(WIDE)))


@pytest.mark.parametrize("rules", [STANDARD, LARGE], ids=["standard", "large"])
def test_every_tile_round_trips(rules: RuleSet) -> None:
    for t in tiles_of(rules):
        text = str(t)
        assert Tile.parse(text) is t
        assert Tile.parse(text, rules) is t
        assert Tile.parse(text.lower()) is t, "input is case-insensitive"
        assert Tile.parse(f"  {text}\t") is t
        assert repr(t) == f"Tile.parse({text!r})"
        assert eval(repr(t), NAMESPACE) is t
        assert pickle.loads(pickle.dumps(t)) is t, "unpickling gives the interned tile"
        assert copy.copy(t) is t and copy.deepcopy(t) is t
        assert Tile.from_code(t.code) is t
        if t.is_joker:
            assert text == "J" and t.colour is None and t.number is None
        else:
            assert text == f"{COLOUR_ORDER[t.colour]}{t.number}"
            assert Tile(t.colour, t.number) is t
            assert t.colour is not None and t.colour.letter == text[0]


def test_tiles_beyond_13_paste_back() -> None:
    """Tiles of a 16-number rule set have no standard notation; their repr still pastes back."""
    for t in tiles_of(WIDE):
        assert eval(repr(t), NAMESPACE) is t
        assert Tile.parse(str(t), WIDE) is t


def test_tile_counts_of_the_presets() -> None:
    assert len(tiles_of(STANDARD)) == 53 and len(tiles_of(LARGE)) == 53
    assert STANDARD.tile_count == 106 and LARGE.tile_count == 160


def test_tile_order_is_canonical() -> None:
    """Colour K B O R, then number, jokers last; the order is the code order."""
    expected = sorted(EVERY_TILE, key=lambda t: (1, 0, 0) if t.is_joker else (0, int(t.colour), t.number))
    assert expected == EVERY_TILE
    assert EVERY_TILE[-1] is JOKER
    assert Tile.parse("K13") < Tile.parse("B1") < Tile.parse("O1") < Tile.parse("R1") < Tile.parse("R13") < JOKER
    for a in EVERY_TILE:
        for b in EVERY_TILE:
            assert (a < b) == (a.code < b.code)
            assert (a <= b) == (a.code <= b.code)
            assert (a > b) == (a.code > b.code)
            assert (a == b) == (a is b) == (hash(a) == hash(b))


def test_tile_is_immutable_and_interned() -> None:
    t = Tile(Colour.RED, 7)
    assert t is Tile.parse("r7") is Tile(3, 7) is Tile.from_code(3 * 16 + 6)
    with pytest.raises(AttributeError):
        t._code = 5  # type: ignore[misc]
    assert Tile(np.int64(3), np.int64(7)) is t, "numpy integers are accepted"
    assert Tile.from_code(np.int64(t.code)) is t


@given(st.sampled_from(EVERY_TILE), st.integers(0, 1000))
def test_tile_value(t: Tile, joker_value: int) -> None:
    assert t.value(joker_value) == (joker_value if t.is_joker else t.number)
    assert t.value() == (30 if t.is_joker else t.number)


@given(st.sampled_from(tiles_of(STANDARD)), st.data())
def test_tile_parse_any_case(t: Tile, data: st.DataObject) -> None:
    text = "".join(data.draw(st.sampled_from([ch.lower(), ch.upper()])) for ch in str(t))
    assert Tile.parse(text) is t


# --- TileSet against Counter -----------------------------------------------------------------------


@given(counters())
def test_construction_len_count_contains(c: Counter[int]) -> None:
    s = tileset_of(c)
    assert len(s) == sum(c.values())
    assert bool(s) == (len(c) > 0)
    assert s.jokers == c[JOKER.code]
    for code in ALL_CODES:
        t = Tile.from_code(code)
        assert s.count(t) == c[code]
        assert (t in s) == (c[code] > 0)
        if code % 16 < 13:
            assert s.count(str(t)) == c[code]
            assert (str(t) in s) == (c[code] > 0)
    assert 5 not in s and None not in s


@given(counters())
def test_iteration_is_canonical(c: Counter[int]) -> None:
    s = tileset_of(c)
    expected = [Tile.from_code(code) for code in sorted(c.elements())]  # code order: K B O R, number, J
    assert list(s) == expected == s.tiles()
    assert [t.code for t in s] == sorted(c.elements())
    assert str(s) == " ".join(map(str, expected))


@given(counters(), counters())
def test_sum(a: Counter[int], b: Counter[int]) -> None:
    sa, sb = tileset_of(a), tileset_of(b)
    total = a + b
    if fits(total):
        assert Counter(t.code for t in sa | sb) == total
        assert sa + sb == sa | sb == sb | sa
        assert sa | TileSet() == sa
    else:
        with pytest.raises(TileCountError, match="at most 7 copies"):
            sa | sb


@given(counters(max_count=7), counters(max_count=7))
def test_sum_overflow_is_refused(a: Counter[int], b: Counter[int]) -> None:
    sa, sb = tileset_of(a), tileset_of(b)
    if fits(a + b):
        assert len(sa | sb) == len(sa) + len(sb)
    else:
        with pytest.raises(TileCountError) as info:
            sa + sb
        over = min(code for code, n in (a + b).items() if n > MAX_COUNT)
        assert str(Tile.from_code(over)) in str(info.value)


@given(counters(), counters())
def test_difference(a: Counter[int], b: Counter[int]) -> None:
    sa, sb = tileset_of(a), tileset_of(b)
    if sub_multiset(b, a):
        assert Counter(t.code for t in sa - sb) == a - b
        assert (sa - sb) | sb == sa
    else:
        with pytest.raises(TileCountError, match="cannot remove") as info:
            sa - sb
        lacking = b - a
        assert str(tileset_of(lacking)) in str(info.value), "the message names what is missing"
    both = tileset_of(a + b) if fits(a + b) else None
    if both is not None:
        assert both - sb == sa and both - sa == sb


@given(counters(), counters())
def test_intersection(a: Counter[int], b: Counter[int]) -> None:
    sa, sb = tileset_of(a), tileset_of(b)
    assert Counter(t.code for t in sa & sb) == a & b
    assert sa & sb == sb & sa
    assert (sa & sb) <= sa and (sa & sb) <= sb


@given(counters(max_count=2), counters(max_count=2))
def test_comparisons(a: Counter[int], b: Counter[int]) -> None:
    sa, sb = tileset_of(a), tileset_of(b)
    le = sub_multiset(a, b)
    ge = sub_multiset(b, a)
    assert (sa <= sb) == le
    assert (sa >= sb) == ge
    assert (sa < sb) == (le and a != b)
    assert (sa > sb) == (ge and a != b)
    assert (sa == sb) == (a == b)
    assert (sa != sb) == (a != b)
    if a == b:
        assert hash(sa) == hash(sb)


@given(counters(max_count=2))
def test_subsets_compare(a: Counter[int]) -> None:
    s = tileset_of(a)
    for code in a:
        smaller = s - TileSet([Tile.from_code(code)])
        assert smaller < s and s > smaller and smaller <= s and not s <= smaller
        assert smaller != s


@given(counters(), st.integers(0, 1000))
def test_value(c: Counter[int], joker_value: int) -> None:
    s = tileset_of(c)
    assert s.value(joker_value) == model_value(c, joker_value)
    assert s.value() == model_value(c, 30)
    assert s.value(joker_value) == sum(t.value(joker_value) for t in s)


@given(counters())
def test_hash_and_equality_follow_the_multiset(c: Counter[int]) -> None:
    s = tileset_of(c)
    shuffled = TileSet(reversed(list(s)))
    assert s == shuffled and hash(s) == hash(shuffled)
    assert len({s, shuffled, tileset_of(Counter(c))}) == 1
    assert s != list(s) and (s == list(s)) is False


@given(counters())
def test_str_parse_repr_pickle(c: Counter[int]) -> None:
    s = tileset_of(c)
    assert eval(repr(s), NAMESPACE) == s
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(s) == s
    if all(code == JOKER.code or code % 16 < 13 for code in c):
        assert TileSet.parse(str(s)) == s
        assert TileSet.parse(str(s).lower()) == s
        assert repr(s) == f"TileSet.parse({str(s)!r})"


@given(counters(max_count=7))
def test_counts_round_trip(c: Counter[int]) -> None:
    s = tileset_of(c)
    counts = s.to_counts()
    assert counts.dtype == np.uint8 and counts.shape == (65,)
    assert counts.tolist() == [c[code] for code in range(65)]
    assert TileSet.from_counts(counts) == s
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
        assert TileSet.from_counts(counts.astype(dtype)) == s
    assert TileSet.from_counts(counts.tolist()) == s


@given(counters())
def test_immutable(c: Counter[int]) -> None:
    s = tileset_of(c)
    with pytest.raises(AttributeError):
        s._s = None  # type: ignore[misc]
    before = str(s)
    _ = s | TileSet.parse("R1"), s & s, s - TileSet()
    assert str(s) == before


# --- full sets and rule checks ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "size", "copies", "jokers"), [("standard", 106, 2, 2), ("large", 160, 3, 4)])
def test_full_set(name: str, size: int, copies: int, jokers: int) -> None:
    rules = RuleSet.preset(name)
    full = TileSet.full(rules)
    assert len(full) == size == rules.tile_count
    assert full.jokers == jokers
    for t in tiles_of(rules):
        assert full.count(t) == (jokers if t.is_joker else copies)
    assert set(full) == set(tiles_of(rules))
    assert full.value(0) == 4 * copies * sum(range(1, 14))
    full.check(rules)
    assert TileSet.parse(str(full), rules) == full


def test_full_set_of_custom_rules() -> None:
    rules = RuleSet(numbers=9, colours=3, copies=1, jokers=0, rack_size=5)
    full = TileSet.full(rules)
    assert len(full) == 27 == rules.tile_count
    assert str(full) == " ".join(f"{c}{n}" for c in "KBO" for n in range(1, 10))


@given(counters(max_count=4, codes=ALL_CODES))
def test_check_against_rules(c: Counter[int]) -> None:
    s = tileset_of(c)
    for rules in (STANDARD, LARGE):
        limit = {t.code: (rules.jokers if t.is_joker else rules.copies) for t in tiles_of(rules)}
        ok = all(n <= limit.get(code, 0) for code, n in c.items())
        if ok:
            s.check(rules)
            assert s <= TileSet.full(rules)
        else:
            with pytest.raises(TileCountError, match="more copies"):
                s.check(rules)
            assert not s <= TileSet.full(rules)


def test_check_names_the_tiles() -> None:
    with pytest.raises(TileCountError, match="R1 J"):
        TileSet.parse("R1 R1 R1 J J J").check(STANDARD)
    TileSet.parse("R1 R1 R1 J J J").check(LARGE)
    with pytest.raises(TileCountError, match=r"'R1 R1 R1'.*R1"):
        TileSet.parse("R1 R1 R1", STANDARD)


def test_pretty_grid() -> None:
    grid = TileSet.parse("K1 K1 R13 J").pretty().splitlines()
    assert grid[0].startswith("K 2 .") and grid[3].endswith(" 1") and grid[4] == "J 1"


@given(st.lists(st.sampled_from(tiles_of(STANDARD)), max_size=12))
def test_constructor_accepts_strings_and_tiles(ts: list[Tile]) -> None:
    assume(all(n <= MAX_COUNT for n in Counter(ts).values()))
    assert TileSet(ts) == TileSet(map(str, ts)) == TileSet(iter(ts))
    assert TileSet(ts) == TileSet.parse(" ".join(map(str, ts)))
    assert TileSet(ts) == TileSet.parse(", ".join(map(str, ts)))
