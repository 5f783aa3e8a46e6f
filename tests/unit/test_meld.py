"""Melds and tables: every multiset of 3 to 5 tiles of the standard set (up to 2 jokers) against an
independent reference, plus the constructors, notation, equality, hashing and pickling.

The reference below imports nothing from rummikub: it says, in plain Python, what a group and a run
are, and lists every way a multiset can be read as one meld.
"""

from __future__ import annotations

import itertools
import pickle
import random
import time
from collections import Counter
from typing import NamedTuple

import numpy as np
import pytest
from tests.helpers.strategies import LARGE, STANDARD
from hypothesis import given
from hypothesis import strategies as st

import rummikub
from rummikub import (
    JOKER,
    Colour,
    InvalidMeldError,
    InvalidNotationError,
    Meld,
    MeldKind,
    RuleSet,
    Table,
    Tile,
    TileCountError,
    TileSet,
    _core,
)

# --- the reference ---------------------------------------------------------------------------------
# A tile is (colour, number) with colour 0..3 (K B O R) or None for a joker.

J = None
RefTile = tuple[int, int] | None


class Reading(NamedTuple):
    kind: str  # "group" or "run"
    number: int  # a group's number, or a run's first number
    colour: int  # a run's colour (-1 for a group)
    value: int  # every slot counts the number it stands for


def ref_readings(tiles: list[RefTile], numbers: int = 13, colours: int = 4, min_len: int = 3) -> list[Reading]:
    """Every reading of the multiset as one meld.

    A group is max(3, min_len)..colours tiles of one number in distinct colours. A run is min_len..numbers
    tiles standing for consecutive numbers of one colour, inside 1..numbers (no wrap). A joker fills any
    one slot. A meld holds at least one numbered tile.
    """
    real = [t for t in tiles if t is not None]
    n = len(tiles)
    if not real or n < min_len:
        return []
    out = []
    tile_numbers = [num for _, num in real]
    tile_colours = [col for col, _ in real]
    if len(set(tile_numbers)) == 1 and len(set(tile_colours)) == len(real) and max(3, min_len) <= n <= colours:
        out.append(Reading("group", tile_numbers[0], -1, tile_numbers[0] * n))
    if len(set(tile_colours)) == 1 and len(set(tile_numbers)) == len(real):
        for start in range(1, numbers - n + 2):
            if all(start <= x < start + n for x in tile_numbers):
                out.append(Reading("run", start, tile_colours[0], sum(range(start, start + n))))
    return out


def ref_best(tiles: list[RefTile], **rules: int) -> int:
    """The highest value of any reading, or -1 when the tiles are no meld."""
    return max((r.value for r in ref_readings(tiles, **rules)), default=-1)


def to_ref(t: Tile) -> RefTile:
    return None if t.is_joker else (int(t.colour), t.number)  # type: ignore[arg-type]


def reading_of(m: Meld) -> Reading:
    """The engine's reading of a meld, in the reference's terms (computed from its slot tiles)."""
    slots = m.tiles
    if m.kind is MeldKind.GROUP:
        return Reading("group", m.number, -1, m.number * len(slots))
    assert m.colour is not None
    return Reading("run", m.number, int(m.colour), sum(range(m.number, m.number + len(slots))))


def check_meld(m: Meld, given: list[Tile], readings: list[Reading], rules: RuleSet = STANDARD) -> None:
    """The engine's meld holds exactly the given tiles, in a reading the reference lists, at its value."""
    assert Counter(m.tiles) == Counter(given), (m, given)
    assert m.tileset() == TileSet(given)
    r = reading_of(m)
    assert r in readings, (m, r, readings)
    assert m.value == r.value
    assert len(m) == len(given) and m.jokers == given.count(JOKER)
    assert Meld.parse(str(m), rules) == m, f"{m} does not read back as itself"
    if m.kind is MeldKind.RUN:
        for i, t in enumerate(m.tiles):
            assert t is JOKER or t == Tile(r.colour, r.number + i)
        assert m.stands_for == tuple(Tile(r.colour, r.number + i) for i, t in enumerate(m.tiles) if t is JOKER)
    else:
        missing = frozenset(Tile(c, r.number) for c in Colour if Tile(c, r.number) not in given)
        assert m.stands_for == (missing,) * m.jokers


# --- exhaustive: every multiset of 3..5 tiles of the standard set, at most 2 jokers ------------------
# 4,501,926 multisets. The comparison is arranged to take seconds, not minutes: the multisets are
# enumerated as numpy arrays; the reference is asked about every multiset whose numbered tiles share a
# colour or a number (about 150,000), the others ("mixed": two numbered tiles differing in both colour and
# number) being no meld by the definitions above; the core judges all of them in one tight loop; and
# Meld() (the public constructor, in canonical, reversed and shuffled order) reads every multiset that is
# not mixed plus every 97th mixed one.

STD_TILES = [Tile(c, n) for c in Colour for n in range(1, 14)] + [JOKER]
JOKER_INDEX = len(STD_TILES) - 1


def standard_multisets(k: int) -> np.ndarray:
    """Every multiset of k tiles of the standard set with at most 2 copies of any tile (jokers included),
    as rows of sorted indices into STD_TILES."""
    flat = itertools.chain.from_iterable(itertools.combinations_with_replacement(range(len(STD_TILES)), k))
    rows = np.fromiter(flat, dtype=np.int16).reshape(-1, k)
    keep = np.ones(len(rows), dtype=bool)
    for i in range(k - 2):
        keep &= rows[:, i] != rows[:, i + 2]  # sorted rows: a third copy sits two places on
    return rows[keep]


def mixed_rows(rows: np.ndarray) -> np.ndarray:
    """For each row: do two of its numbered tiles differ in both colour and number?"""
    real = rows != JOKER_INDEX
    colour, number = rows // 13, rows % 13
    def spread(values: np.ndarray) -> np.ndarray:
        hi = np.where(real, values, -1).max(axis=1)
        lo = np.where(real, values, 99).min(axis=1)
        return hi > lo
    return spread(colour) & spread(number)


def test_every_standard_multiset_of_3_to_5_tiles() -> None:
    started = time.perf_counter()
    params = STANDARD.params
    code_of = np.array([t.code for t in STD_TILES])
    ref_of = [to_ref(t) for t in STD_TILES]
    best_meld_value, CoreTileSet = _core.best_meld_value, _core.TileSet
    rng = random.Random(2)
    counted = Counter[str]()
    for k in (3, 4, 5):
        rows = standard_multisets(k)
        mixed = mixed_rows(rows)
        # The core, on every multiset.
        core_best = np.array([best_meld_value(CoreTileSet(codes), params) for codes in code_of[rows].tolist()])
        # The reference: mixed multisets are no meld; the others are read in full.
        expected = np.full(len(rows), -1)
        readings_of: dict[int, list[Reading]] = {}
        for i in np.flatnonzero(~mixed):
            readings = ref_readings([ref_of[j] for j in rows[i]])
            readings_of[i] = readings
            expected[i] = max((r.value for r in readings), default=-1)
        wrong = np.flatnonzero(core_best != expected)
        assert not len(wrong), [([str(STD_TILES[j]) for j in rows[i]], core_best[i], expected[i]) for i in wrong[:10]]
        # Meld(), the public constructor, in several orders.
        for i in itertools.chain(readings_of, np.flatnonzero(mixed)[::97]):
            tiles = [STD_TILES[j] for j in rows[i]]
            readings = readings_of.get(i)
            if readings is None:
                readings = ref_readings([to_ref(t) for t in tiles])
                assert not readings
            shuffled = tiles[:]
            rng.shuffle(shuffled)
            for order in (tiles, tiles[::-1], shuffled):
                if readings:
                    check_meld(Meld(order), order, readings)
                else:
                    with pytest.raises(InvalidMeldError) as info:
                        Meld(order)
                    assert " ".join(map(str, order)) in str(info.value)
        counted[f"{k} tiles"] = len(rows)
        counted[f"{k} tiles valid"] = int((expected >= 0).sum())
        counted[f"{k} tiles through Meld()"] = len(readings_of) + len(np.flatnonzero(mixed)[::97])
    elapsed = time.perf_counter() - started
    print(f"\n{dict(counted)} in {elapsed:.1f} s")
    assert counted["3 tiles"] + counted["4 tiles"] + counted["5 tiles"] == 4_501_926
    # DESIGN.md: 1,173 distinct sets (runs of 3-5, groups of 3-4) with up to 2 jokers in the standard game.
    assert counted["3 tiles valid"] + counted["4 tiles valid"] + counted["5 tiles valid"] == 1173


def test_best_value_examples() -> None:
    """docs/rules.md §3 and §6: the best reading of an ambiguous joker counts."""
    def best(text: str) -> int:
        return _core.best_meld_value(TileSet.parse(text)._s, STANDARD.params)

    assert best("R8 R9 J") == 27  # J as R10
    assert best("R10 R11 R12") == 33
    assert best("K9 B9 O9") == 27
    assert best("K13 B13 O13 R13") == 52
    assert best("R8 R9 R10 R11") == 38
    assert best("R12 R13 J") == 36  # J as R11: no wrap
    assert best("R13 J J") == 39  # a group of 13s beats the run R11 R12 R13
    assert best("R1 J J") == 6  # the run R1 R2 R3 beats the group of 1s
    assert best("R12 R13 R1") == -1
    assert best("J J J") == -1


# --- other rule sets: random sequences against the reference ---------------------------------------


@st.composite
def rules_and_tiles(draw: st.DrawFn) -> tuple[RuleSet, list[Tile]]:
    numbers = draw(st.integers(3, 16))
    colours = draw(st.integers(1, 4))
    min_len = draw(st.integers(2, min(5, numbers)))
    jokers = draw(st.integers(0, 4))
    rules = RuleSet(name="random", numbers=numbers, colours=colours, min_len=min_len, jokers=jokers, rack_size=1,
                    max_players=2, copies=draw(st.integers(1, 3)))
    pool = [Tile(c, n) for c in range(colours) for n in range(1, numbers + 1)] + [JOKER] * (jokers > 0)
    # Biased towards melds: mostly one colour or one number.
    shape = draw(st.sampled_from(["colour", "number", "any"]))
    if shape == "colour":
        c = draw(st.integers(0, colours - 1))
        pool = [t for t in pool if t.is_joker or t.colour == c]
    elif shape == "number":
        x = draw(st.integers(1, numbers))
        pool = [t for t in pool if t.is_joker or t.number == x]
    tiles = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=min(numbers, 16) + 1))
    return rules, tiles


def test_two_tile_run_with_a_joker() -> None:
    rules = RuleSet(min_len=2)
    assert Meld([JOKER, Tile.parse("K1")], rules).value == 3  # J K1 is the run K1 K2 (J as K2)


@given(rules_and_tiles())
def test_other_rule_sets(case: tuple[RuleSet, list[Tile]]) -> None:
    rules, tiles = case
    kw = {"numbers": rules.numbers, "colours": rules.colours, "min_len": rules.min_len}
    readings = ref_readings([to_ref(t) for t in tiles], **kw)
    try:
        m = Meld(tiles, rules)
    except InvalidMeldError:
        assert not readings, (tiles, readings)
    else:
        check_meld(m, tiles, readings, rules)
    if max(Counter(tiles).values()) <= 7:  # what a TileSet can hold
        assert _core.best_meld_value(TileSet(tiles)._s, rules.params) == ref_best([to_ref(t) for t in tiles], **kw)


def test_large_set_melds() -> None:
    """The 160-tile set: four jokers fill runs and refuse groups beyond four tiles."""
    m = Meld.parse("R5 J J J J", LARGE)
    assert m.kind is MeldKind.RUN and str(m) == "R5 J J J J" and m.value == 5 + 6 + 7 + 8 + 9
    assert Meld.parse("K7 J J J", LARGE).kind is MeldKind.RUN  # positional: K7 K8 K9 K10
    assert Meld.parse("K7 B7 J J", LARGE).kind is MeldKind.GROUP
    with pytest.raises(InvalidMeldError):
        Meld.parse("K7 B7 J J J", LARGE)


# --- Meld.run and Meld.group against the reference ---------------------------------------------------


def test_run_constructor_every_run() -> None:
    """Every run of the standard set with up to 2 jokers, and the runs that cannot be."""
    count = 0
    for colour in Colour:
        for start in range(-1, 16):
            for length in range(0, 16):
                fits = 1 <= start and start + length - 1 <= 13 and length >= 3
                slots = itertools.chain([()], itertools.combinations(range(length), 1),
                                        itertools.combinations(range(length), 2))
                for jokers in slots if fits else itertools.islice(slots, 3):
                    ok = fits and len(jokers) < length
                    if not ok:
                        with pytest.raises(InvalidMeldError, match=f"run of {length} from {start}|joker slot"):
                            Meld.run(colour, start, length, jokers=jokers)
                        continue
                    m = Meld.run(colour, start, length, jokers=jokers)
                    expected = [JOKER if i in jokers else Tile(colour, start + i) for i in range(length)]
                    assert list(m.tiles) == expected
                    assert m.kind is MeldKind.RUN and m.colour is colour and m.number == start
                    readings = ref_readings([to_ref(t) for t in expected])
                    check_meld(m, expected, readings)
                    assert Meld(expected) == m, "reading the slots in order gives the same meld"
                    assert Meld.run(int(colour), start, length, jokers=list(jokers)) == m
                    count += 1
    assert count == 4 * sum((14 - n) * (1 + n + n * (n - 1) // 2) for n in range(3, 14))


def test_group_constructor_every_group() -> None:
    count = 0
    for number in range(0, 15):
        for k in range(0, 5):
            for colours in itertools.combinations(list(Colour), k):
                for jokers in range(0, 3):
                    n = k + jokers
                    ok = 1 <= number <= 13 and 3 <= n <= 4 and k >= 1
                    if not ok:
                        with pytest.raises(InvalidMeldError, match=f"group of {number}"):
                            Meld.group(number, colours, jokers=jokers)
                        continue
                    m = Meld.group(number, colours, jokers=jokers)
                    expected = [Tile(c, number) for c in colours] + [JOKER] * jokers
                    assert list(m.tiles) == expected
                    assert m.kind is MeldKind.GROUP and m.colour is None and m.number == number
                    check_meld(m, expected, ref_readings([to_ref(t) for t in expected]))
                    assert Meld.group(number, reversed(colours), jokers) == m
                    count += 1
    # per number: 1 colour + 2 jokers (4), 2 + 1 or 2 jokers (6 + 6), 3 + 0 or 1 joker (4 + 4), all 4 (1)
    assert count == 13 * 25


# --- notation, equality, hashing, pickling -----------------------------------------------------------

EXAMPLES = [
    ("R5 J R7", "run", 18, "R5 J R7"),
    ("J R6 R7", "run", 18, "J R6 R7"),
    ("R8 R9 J", "run", 27, "R8 R9 J"),
    ("R12 R13 J", "run", 36, "J R12 R13"),
    ("R1-5", "run", 15, "R1 R2 R3 R4 R5"),
    ("r1-13", "run", 91, " ".join(f"R{n}" for n in range(1, 14))),
    ("KBO7", "group", 21, "K7 B7 O7"),
    ("R7 K7 B7", "group", 21, "K7 B7 R7"),
    ("KBOR13", "group", 52, "K13 B13 O13 R13"),
    ("K7 B7 J", "group", 21, "K7 B7 J"),
    ("J O1 J", "group", 3, "OJJ1"),  # no run starts below 1: read as a group, written as one
    ("OJJ1", "group", 3, "OJJ1"),
    ("KJJ7", "group", 21, "KJJ7"),
    ("K7 J J", "run", 24, "K7 J J"),
    ("KBJ7", "group", 21, "K7 B7 J"),
    ("K1 J J", "run", 6, "K1 J J"),
    ("K13 J J", "group", 39, "KJJ13"),
]


@pytest.mark.parametrize(("text", "kind", "value", "canonical"), EXAMPLES)
def test_meld_examples(text: str, kind: str, value: int, canonical: str) -> None:
    m = Meld.parse(text)
    assert m.kind == MeldKind(kind) and m.kind.value == kind
    assert m.value == value
    assert str(m) == canonical
    assert Meld.parse(str(m)) == m and str(Meld.parse(str(m))) == str(m)
    assert eval(repr(m), vars(rummikub)) == m
    assert pickle.loads(pickle.dumps(m)) == m
    assert hash(Meld.parse(canonical)) == hash(m)


def test_stands_for() -> None:
    assert Meld.parse("R5 J R7").stands_for == (Tile.parse("R6"),)
    assert Meld.parse("J R2 J").stands_for == (Tile.parse("R1"), Tile.parse("R3"))
    assert Meld.parse("K7 B7 J").stands_for == (frozenset({Tile.parse("O7"), Tile.parse("R7")}),)
    assert Meld.parse("K7 B7 O7 J").stands_for == (frozenset({Tile.parse("R7")}),)
    assert Meld.parse("R1 R2 R3").stands_for == ()


def test_meld_equality_and_hash() -> None:
    a, b = Meld.parse("K7 B7 O7"), Meld.parse("O7 K7 B7")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert Meld.parse("R5 J R7") != Meld.parse("R5 R6 J"), "a joker in another slot is another meld"
    assert Meld.parse("R5 R6 R7") != Meld.parse("K5 K6 K7")
    assert (a == "K7 B7 O7") is False
    with pytest.raises(AttributeError):
        a._m = None  # type: ignore[misc]


def test_meld_order_is_total() -> None:
    melds = [Meld.parse(t) for t, *_ in EXAMPLES]
    ordered = sorted(melds)
    assert sorted(reversed(melds)) == ordered
    assert all(x.key <= y.key for x, y in zip(ordered, ordered[1:]))


@given(st.sampled_from(EXAMPLES), st.randoms())
def test_meld_pickle_and_copy(example: tuple[str, str, int, str], rnd: random.Random) -> None:
    m = Meld.parse(example[0])
    assert pickle.loads(pickle.dumps(m, protocol=rnd.randint(0, pickle.HIGHEST_PROTOCOL))) == m


def test_meld_rules() -> None:
    two = RuleSet(min_len=2)
    assert Meld.parse("R1 R2", two).value == 3
    with pytest.raises(InvalidMeldError):
        Meld.parse("R1 R2")
    assert Meld.parse("R14 R15 R16", RuleSet(numbers=16)).value == 45


# --- tables ----------------------------------------------------------------------------------------


def test_table_parse_and_str() -> None:
    t = Table.parse("R1-5 | KBO7 | R8 R9 J")
    assert str(t) == "R1 R2 R3 R4 R5 | K7 B7 O7 | R8 R9 J"
    assert len(t) == 3 and t.value == 15 + 21 + 27
    assert [m.kind for m in t] == [MeldKind.RUN, MeldKind.GROUP, MeldKind.RUN]
    assert t[1] == Meld.parse("K7 B7 O7") and isinstance(t[1:], Table) and len(t[1:]) == 2
    assert Table.parse(str(t)) == t and str(Table.parse(str(t))) == str(t)
    assert eval(repr(t), vars(rummikub)) == t
    assert pickle.loads(pickle.dumps(t)) == t
    assert t.tiles() == TileSet.parse("R1-5 KBO7 R8 R9 J")
    assert Table.parse("") == Table() and str(Table()) == "" and len(Table.parse("   ")) == 0


def test_table_equality_ignores_meld_order() -> None:
    a = Table.parse("R5 J R7 | K7 B7 O7 | B1-4")
    b = Table.parse("B1 B2 B3 B4 | KBO7 | R5 J R7")
    assert a == b and hash(a) == hash(b)
    assert str(a) != str(b)
    assert a.canonical() == b.canonical() and str(a.canonical()) == str(b.canonical())
    assert a != Table.parse("R5 R6 J | K7 B7 O7 | B1-4"), "the joker's slot matters"
    assert Table.parse("R1-3 | R1-3") != Table.parse("R1-3"), "a table is a multiset of melds"
    assert a + Table.parse("KBOR1") == Table.parse("KBOR1 | R5 J R7 | K7 B7 O7 | B1-4")


def test_table_checks_counts_with_rules() -> None:
    Table.parse("R1-3 | R1-3 | R1-3")  # without rules only the melds are checked
    with pytest.raises(TileCountError, match="R1 R2 R3"):
        Table.parse("R1-3 | R1-3 | R1-3", STANDARD)
    Table.parse("R1-3 | R1-3 | R1-3", LARGE)


def test_table_errors_name_the_meld() -> None:
    with pytest.raises(InvalidMeldError, match=r"meld 2 of 'R1-3 \| R12 R13 R1'"):
        Table.parse("R1-3 | R12 R13 R1")
    with pytest.raises(InvalidNotationError, match="empty meld 2"):
        Table.parse("R1-3 || KBO5")
