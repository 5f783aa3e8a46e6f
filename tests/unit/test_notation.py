"""Notation round-trips: every tile of both sets, every meld of the standard and large sets, random
tables; and the input shorthands (``R1-5`` runs, ``KBO7`` groups, ``KJJ7`` groups with jokers)."""

from __future__ import annotations

import itertools

import pytest
from tests.helpers.strategies import LARGE, STANDARD, tiles_of
from hypothesis import given
from hypothesis import strategies as st

import rummikub
from rummikub import JOKER, Colour, InvalidNotationError, Meld, MeldKind, RuleSet, Table, Tile, TileSet

NAMESPACE = vars(rummikub)


def every_meld(rules: RuleSet, max_run: int, max_jokers: int) -> list[Meld]:
    """Every run of 3..max_run tiles and every group of the rule set, with up to max_jokers jokers."""
    out = []
    for colour in Colour:
        for length in range(3, max_run + 1):
            for start in range(1, rules.numbers - length + 2):
                for j in range(0, min(max_jokers, length - 1) + 1):
                    for slots in itertools.combinations(range(length), j):
                        out.append(Meld.run(colour, start, length, jokers=slots, rules=rules))
    for number in range(1, rules.numbers + 1):
        for k in range(1, 5):
            for colours in itertools.combinations(list(Colour), k):
                for j in range(0, max_jokers + 1):
                    if 3 <= k + j <= 4:
                        out.append(Meld.group(number, colours, jokers=j, rules=rules))
    return out


STANDARD_MELDS = every_meld(STANDARD, max_run=13, max_jokers=2)
LARGE_MELDS = every_meld(LARGE, max_run=6, max_jokers=4)


@pytest.mark.parametrize("rules", [STANDARD, LARGE], ids=["standard", "large"])
def test_every_tile(rules: RuleSet) -> None:
    for t in tiles_of(rules):
        for text in (str(t), str(t).lower(), f" {t} "):
            assert Tile.parse(text, rules) is t
            assert TileSet.parse(text, rules) == TileSet([t])
        assert eval(repr(t), NAMESPACE) is t
    full = TileSet.full(rules)
    assert TileSet.parse(str(full), rules) == full
    assert TileSet.parse(str(full).lower().replace(" ", ", "), rules) == full


@pytest.mark.parametrize("melds", [STANDARD_MELDS, LARGE_MELDS], ids=["standard", "large"])
def test_every_meld_round_trips(melds: list[Meld]) -> None:
    assert len(set(melds)) == len(melds)
    for m in melds:
        text = str(m)
        back = Meld.parse(text, LARGE)
        assert back == m and str(back) == text and back.kind is m.kind and back.value == m.value
        assert Meld.parse(text.lower(), LARGE) == m
        assert eval(repr(m), NAMESPACE) == m
        assert TileSet.parse(text) == m.tileset()


def test_meld_counts() -> None:
    # DESIGN.md: 1,173 distinct sets of runs 3..5 and groups 3..4 with up to 2 jokers (standard game).
    # Those are multisets of tiles; as melds (each joker in its slot) there are more.
    short = [m for m in STANDARD_MELDS if m.kind is MeldKind.GROUP or len(m) <= 5]
    assert len({m.tileset() for m in short}) == 1173
    assert len({m.tileset() for m in short if m.jokers == 0}) == 185
    assert len(short) == 1649


@st.composite
def tables(draw: st.DrawFn, rules: RuleSet = STANDARD) -> list[Meld]:
    """Up to 8 melds that fit together in the rule set's tiles."""
    full, used, melds = TileSet.full(rules), TileSet(), []
    for m in draw(st.lists(st.sampled_from(STANDARD_MELDS), max_size=8)):
        if (used | m.tileset()) <= full:
            used, melds = used | m.tileset(), melds + [m]
    return melds


@given(tables())
def test_tables_round_trip(melds: list[Meld]) -> None:
    table = Table(melds)
    text = str(table)
    assert text == " | ".join(map(str, melds))
    back = Table.parse(text, STANDARD)
    assert back == table and list(back) == melds and str(back) == text
    assert Table.parse(text.lower()) == table
    assert Table.parse(text.replace(" | ", "|")) == table
    assert eval(repr(table), NAMESPACE) == table
    assert back.tiles() == TileSet(t for m in melds for t in m.tiles)


@given(st.permutations(STANDARD_MELDS[:: len(STANDARD_MELDS) // 7][:7]))
def test_table_order(melds: list[Meld]) -> None:
    assert Table(melds) == Table(sorted(melds)) and str(Table(melds).canonical()) == str(Table(sorted(melds)))


SHORTHANDS = [
    ("R1-5", "R1 R2 R3 R4 R5"),
    ("r1-5", "R1 R2 R3 R4 R5"),
    ("K11-13", "K11 K12 K13"),
    ("B4-4", "B4"),
    ("KBO7", "K7 B7 O7"),
    ("rok7", "O7 R7 K7"),
    ("KBOR13", "K13 B13 O13 R13"),
    ("KJJ7", "K7 J J"),
    ("JKB2", "K2 B2 J"),
    ("R1-3 KBO7 J", "R1 R2 R3 K7 B7 O7 J"),
    ("R1-3, KBO7, J", "R1 R2 R3 K7 B7 O7 J"),
    ("R1,R2,R3", "R1 R2 R3"),
    ("  R1\tR2\nR3  ", "R1 R2 R3"),
    ("", ""),
]


@pytest.mark.parametrize(("short", "long"), SHORTHANDS)
def test_shorthands_in_sets(short: str, long: str) -> None:
    assert TileSet.parse(short) == TileSet.parse(long)
    assert str(TileSet.parse(short)) == str(TileSet(long.split()))


def test_shorthands_in_melds_and_tables() -> None:
    assert Meld.parse("R1-5") == Meld.run(Colour.RED, 1, 5)
    assert Meld.parse("KBO7") == Meld.group(7, [Colour.BLACK, Colour.BLUE, Colour.ORANGE])
    assert Meld.parse("R1-3 R4 J") == Meld.run(Colour.RED, 1, 5, jokers=[4])
    assert Meld.parse("J R2-3") == Meld.run(Colour.RED, 1, 3, jokers=[0])
    assert Meld.parse("KJJ7") == Meld.group(7, [Colour.BLACK], jokers=2)
    assert Meld.parse("K7 J J") == Meld.run(Colour.BLACK, 7, 3, jokers=[1, 2]), "tiles in order: a run"
    t = Table.parse("R1-5 | KBO7 | KJJ9 | K9 J J")
    assert [m.kind for m in t] == [MeldKind.RUN, MeldKind.GROUP, MeldKind.GROUP, MeldKind.RUN]
    assert str(t) == "R1 R2 R3 R4 R5 | K7 B7 O7 | KJJ9 | K9 J J"
    assert Table.parse(str(t)) == t


def test_group_with_one_numbered_tile_is_written_as_a_group() -> None:
    """`K7 J J` reads as a run, so a group of one numbered tile and jokers is written `KJJ7`."""
    for number in range(1, 14):
        for colour in Colour:
            for jokers in (2, 3):
                g = Meld.group(number, [colour], jokers=jokers, rules=LARGE)
                assert str(g) == f"{colour.letter}{'J' * jokers}{number}"
                assert Meld.parse(str(g), LARGE) == g
                assert Table.parse(f"{g} | {g}") == Table([g, g])


def test_canonical_output() -> None:
    """Output is upper case, single-spaced, in canonical order for sets and in slot order for melds."""
    assert str(TileSet.parse("j r13 k1 b5 o2 k1")) == "K1 K1 B5 O2 R13 J"
    assert str(Meld.parse("r7 j r5")) == "R7 J R5" or str(Meld.parse("r5 j r7")) == "R5 J R7"
    assert str(Meld.parse("o7 k7 b7")) == "K7 B7 O7"
    assert str(Table.parse(" r1-3|kbo7 ")) == "R1 R2 R3 | K7 B7 O7"


@pytest.mark.parametrize(("text", "position"), [("R1 R2 X3", 6), ("R1 R2, 5R", 7), ("R1-3 KK7", 5)])
def test_errors_give_the_position(text: str, position: int) -> None:
    with pytest.raises(InvalidNotationError, match=f"at position {position} of {text!r}"):
        TileSet.parse(text)


def test_joker_notation() -> None:
    assert Tile.parse("J") is Tile.parse("j") is JOKER
    assert str(JOKER) == "J" and repr(JOKER) == "Tile.parse('J')"
    with pytest.raises(InvalidNotationError):
        Tile.parse("JJ")
    with pytest.raises(InvalidNotationError, match="needs a colour letter"):
        TileSet.parse("JJ7")
