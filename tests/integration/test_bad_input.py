"""Bad input through every public constructor and parser: each raises its specific exception class (all
ValueError subclasses) with a message that names the input; nothing crashes the interpreter."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub import (
    Colour,
    InvalidMeldError,
    InvalidNotationError,
    InvalidTileError,
    Meld,
    RuleSet,
    RummikubError,
    Table,
    Tile,
    TileCountError,
    TileSet,
)

STANDARD = RuleSet()
HUGE = 2**100

# (callable, expected exception class, text the message must contain)
Case = tuple[Callable[[], Any], type[Exception], str]


def case(call: Callable[[], Any], exc: type[Exception], named: str, id: str) -> Any:
    return pytest.param(call, exc, named, id=id)


CASES = [
    # --- Tile.parse -----------------------------------------------------------------------------------
    case(lambda: Tile.parse("R14"), InvalidTileError, "'R14'", "parse R14"),
    case(lambda: Tile.parse("R0"), InvalidTileError, "'R0'", "parse R0"),
    case(lambda: Tile.parse("r00"), InvalidTileError, "'r00'", "parse r00"),
    case(lambda: Tile.parse("X5"), InvalidNotationError, "'X5'", "parse X5"),
    case(lambda: Tile.parse("5R"), InvalidNotationError, "'5R'", "parse 5R"),
    case(lambda: Tile.parse("R"), InvalidNotationError, "'R'", "parse R"),
    case(lambda: Tile.parse("R-1"), InvalidNotationError, "'R-1'", "parse R-1"),
    case(lambda: Tile.parse("R1.5"), InvalidNotationError, "'R1.5'", "parse R1.5"),
    case(lambda: Tile.parse("R\u0663"), InvalidNotationError, "'R\u0663'", "parse non-ASCII digit"),
    case(lambda: Tile.parse("R" + "9" * 5000), InvalidTileError, "99999", "parse 5000-digit number"),
    case(lambda: Tile.parse(""), InvalidNotationError, "''", "parse empty"),
    case(lambda: Tile.parse("   "), InvalidNotationError, "'   '", "parse blank"),
    case(lambda: Tile.parse("R1 R2"), InvalidNotationError, "'R1 R2'", "parse two tiles"),
    case(lambda: Tile.parse("R1-3"), InvalidNotationError, "'R1-3'", "parse a run"),
    case(lambda: Tile.parse("JJ"), InvalidNotationError, "'JJ'", "parse JJ"),
    case(lambda: Tile.parse("J1"), InvalidNotationError, "'J1'", "parse J1"),
    case(lambda: Tile.parse("R14", RuleSet.preset("large")), InvalidTileError, "'R14'", "parse R14 large"),
    case(lambda: Tile.parse("R7", RuleSet(colours=3)), InvalidTileError, "'R7'", "parse R7 with 3 colours"),
    case(lambda: Tile.parse(None), InvalidNotationError, "None", "parse None"),  # type: ignore[arg-type]
    case(lambda: Tile.parse(5), InvalidNotationError, "5", "parse int"),  # type: ignore[arg-type]
    case(lambda: Tile.parse(5.0), InvalidNotationError, "5.0", "parse float"),  # type: ignore[arg-type]
    case(lambda: Tile.parse(b"R5"), InvalidNotationError, "b'R5'", "parse bytes"),  # type: ignore[arg-type]
    case(lambda: Tile.parse(["R5"]), InvalidNotationError, "['R5']", "parse list"),  # type: ignore[arg-type]
    case(lambda: Tile.parse("R5", "standard"), RummikubError, "'standard'", "parse rules str"),  # type: ignore[arg-type]
    # --- Tile(...) and Tile.from_code -----------------------------------------------------------------
    case(lambda: Tile(Colour.RED, 0), InvalidTileError, "0", "Tile number 0"),
    case(lambda: Tile(Colour.RED, 17), InvalidTileError, "17", "Tile number 17"),
    case(lambda: Tile(Colour.RED, HUGE), InvalidTileError, str(HUGE), "Tile huge number"),
    case(lambda: Tile(Colour.RED, -1), InvalidTileError, "-1", "Tile negative number"),
    case(lambda: Tile(Colour.RED, 7.0), InvalidTileError, "7.0", "Tile float number"),  # type: ignore[arg-type]
    case(lambda: Tile(Colour.RED, "7"), InvalidTileError, "'7'", "Tile str number"),  # type: ignore[arg-type]
    case(lambda: Tile(Colour.RED, True), InvalidTileError, "True", "Tile bool number"),
    case(lambda: Tile(4, 7), InvalidTileError, "4", "Tile colour 4"),
    case(lambda: Tile(-1, 7), InvalidTileError, "-1", "Tile colour -1"),
    case(lambda: Tile("R", 7), InvalidTileError, "'R'", "Tile colour str"),  # type: ignore[arg-type]
    case(lambda: Tile(None, 7), InvalidTileError, "None", "Tile colour None"),  # type: ignore[arg-type]
    case(lambda: Tile(HUGE, 7), InvalidTileError, str(HUGE), "Tile huge colour"),
    case(lambda: Tile.from_code(65), InvalidTileError, "65", "from_code 65"),
    case(lambda: Tile.from_code(-1), InvalidTileError, "-1", "from_code -1"),
    case(lambda: Tile.from_code(HUGE), InvalidTileError, str(HUGE), "from_code huge"),
    case(lambda: Tile.from_code(1.0), InvalidTileError, "1.0", "from_code float"),  # type: ignore[arg-type]
    case(lambda: Tile.from_code(True), InvalidTileError, "True", "from_code bool"),
    case(lambda: Tile.from_code(None), InvalidTileError, "None", "from_code None"),  # type: ignore[arg-type]
    case(lambda: Tile.from_code("R1"), InvalidTileError, "'R1'", "from_code str"),  # type: ignore[arg-type]
    case(lambda: Tile.from_code([1]), InvalidTileError, "[1]", "from_code list"),  # type: ignore[arg-type]
    case(lambda: Tile.from_code(b"\x01"), InvalidTileError, "b'\\x01'", "from_code bytes"),  # type: ignore[arg-type]
    # --- TileSet(...) and TileSet.parse ---------------------------------------------------------------
    case(lambda: TileSet("R1 R2"), InvalidNotationError, "'R1 R2'", "TileSet str"),
    case(lambda: TileSet(None), InvalidTileError, "None", "TileSet None"),  # type: ignore[arg-type]
    case(lambda: TileSet(5), InvalidTileError, "5", "TileSet int"),  # type: ignore[arg-type]
    case(lambda: TileSet(5.5), InvalidTileError, "5.5", "TileSet float"),  # type: ignore[arg-type]
    case(lambda: TileSet([None]), InvalidTileError, "None", "TileSet [None]"),  # type: ignore[list-item]
    case(lambda: TileSet([1, 2]), InvalidTileError, "1", "TileSet ints"),  # type: ignore[list-item]
    case(lambda: TileSet([b"R1"]), InvalidTileError, "b'R1'", "TileSet bytes item"),  # type: ignore[list-item]
    case(lambda: TileSet(["R1", ["R2"]]), InvalidTileError, "['R2']", "TileSet nested list"),  # type: ignore[list-item]
    case(lambda: TileSet(["R14"]), InvalidTileError, "'R14'", "TileSet R14"),
    case(lambda: TileSet(["R1"] * 8), TileCountError, "8 x R1", "TileSet 8 copies"),
    case(lambda: TileSet(["J"] * 9), TileCountError, "9 x J", "TileSet 9 jokers"),
    case(lambda: TileSet.parse("R1 R2 R3 |"), InvalidNotationError, "'|'", "parse trailing |"),
    case(lambda: TileSet.parse("| R1 R2 R3"), InvalidNotationError, "'|'", "parse leading |"),
    case(lambda: TileSet.parse("R1,,R2"), InvalidNotationError, "'R1,,R2'", "parse double comma"),
    case(lambda: TileSet.parse(",R1"), InvalidNotationError, "',R1'", "parse leading comma"),
    case(lambda: TileSet.parse("R1, R2,"), InvalidNotationError, "'R1, R2,'", "parse trailing comma"),
    case(lambda: TileSet.parse("R1 X5"), InvalidNotationError, "'X5'", "parse X5 in a set"),
    case(lambda: TileSet.parse("R1 R14"), InvalidTileError, "'R14'", "parse R14 in a set"),
    case(lambda: TileSet.parse("R5-3"), InvalidNotationError, "'R5-3'", "parse downward run"),
    case(lambda: TileSet.parse("R12-14"), InvalidTileError, "'R12-14'", "parse run past 13"),
    case(lambda: TileSet.parse("R0-2"), InvalidTileError, "'R0-2'", "parse run from 0"),
    case(lambda: TileSet.parse("R1-"), InvalidNotationError, "'R1-'", "parse open run"),
    case(lambda: TileSet.parse("-"), InvalidNotationError, "'-'", "parse dash"),
    case(lambda: TileSet.parse("KK7"), InvalidNotationError, "'KK7'", "parse KK7"),
    case(lambda: TileSet.parse("KX7"), InvalidNotationError, "'KX7'", "parse KX7"),
    case(lambda: TileSet.parse("KB14"), InvalidTileError, "'KB14'", "parse KB14"),
    case(lambda: TileSet.parse("JJ7"), InvalidNotationError, "'JJ7'", "parse JJ7"),
    case(lambda: TileSet.parse("R1 R1 R1", STANDARD), TileCountError, "R1", "parse 3 copies standard"),
    case(lambda: TileSet.parse("J J J", STANDARD), TileCountError, "'J J J'", "parse 3 jokers standard"),
    case(lambda: TileSet.parse("R1 " * 4, RuleSet.preset("large")), TileCountError, "R1", "parse 4 copies large"),
    case(lambda: TileSet.parse(None), InvalidNotationError, "None", "TileSet.parse None"),  # type: ignore[arg-type]
    case(lambda: TileSet.parse(b"R1"), InvalidNotationError, "b'R1'", "TileSet.parse bytes"),  # type: ignore[arg-type]
    case(lambda: TileSet.parse(["R1"]), InvalidNotationError, "['R1']", "TileSet.parse list"),  # type: ignore[arg-type]
    case(lambda: TileSet.parse("R1", 13), RummikubError, "13", "TileSet.parse rules int"),  # type: ignore[arg-type]
    # --- TileSet.from_counts --------------------------------------------------------------------------
    case(lambda: TileSet.from_counts(np.zeros(64, int)), TileCountError, "(64,)", "counts short"),
    case(lambda: TileSet.from_counts(np.zeros(66, int)), TileCountError, "(66,)", "counts long"),
    case(lambda: TileSet.from_counts(np.zeros((65, 1), int)), TileCountError, "(65, 1)", "counts 2-d"),
    case(lambda: TileSet.from_counts(np.zeros((5, 13), int)), TileCountError, "(5, 13)", "counts grid"),
    case(lambda: TileSet.from_counts(np.int64(3)), TileCountError, "()", "counts scalar"),
    case(lambda: TileSet.from_counts(np.zeros(65)), TileCountError, "float64", "counts float"),
    case(lambda: TileSet.from_counts(np.zeros(65, bool)), TileCountError, "bool", "counts bool"),
    case(lambda: TileSet.from_counts(np.zeros(65, object)), TileCountError, "object", "counts object"),
    case(lambda: TileSet.from_counts(np.zeros(65, complex)), TileCountError, "complex", "counts complex"),
    case(lambda: TileSet.from_counts(np.full(65, -1)), TileCountError, "-1", "counts negative"),
    case(lambda: TileSet.from_counts(np.full(65, 8)), TileCountError, "count 8", "counts 8"),
    case(lambda: TileSet.from_counts(np.eye(65, dtype=np.int64)[64] * 2**40), TileCountError, str(2**40),
         "counts huge joker"),
    case(lambda: TileSet.from_counts(np.full(65, 2**63, dtype=np.uint64)), TileCountError, str(2**63),
         "counts uint64 2**63"),
    case(lambda: TileSet.from_counts(np.full(65, 255, dtype=np.uint8)), TileCountError, "255", "counts uint8 255"),
    case(lambda: TileSet.from_counts(None), TileCountError, "NoneType", "counts None"),  # type: ignore[arg-type]
    case(lambda: TileSet.from_counts("abc"), TileCountError, "str", "counts str"),
    case(lambda: TileSet.from_counts([0] * 64), TileCountError, "(64,)", "counts list short"),
    case(lambda: TileSet.from_counts([[0], [0, 1]]), TileCountError, "list", "counts ragged"),
    case(lambda: TileSet.from_counts([0.5] * 65), TileCountError, "float64", "counts list of floats"),
    # --- Meld(...) and Meld.parse ---------------------------------------------------------------------
    case(lambda: Meld("R1 R2 R3"), InvalidNotationError, "'R1 R2 R3'", "Meld str"),
    case(lambda: Meld(None), InvalidMeldError, "None", "Meld None"),  # type: ignore[arg-type]
    case(lambda: Meld(5), InvalidMeldError, "5", "Meld int"),  # type: ignore[arg-type]
    case(lambda: Meld([]), InvalidMeldError, "no tiles", "Meld empty"),
    case(lambda: Meld([None, "R2", "R3"]), InvalidTileError, "None", "Meld None tile"),  # type: ignore[list-item]
    case(lambda: Meld([1, 2, 3]), InvalidTileError, "1", "Meld ints"),  # type: ignore[list-item]
    case(lambda: Meld(["R1", "R2", "R14"]), InvalidTileError, "'R14'", "Meld R14"),
    case(lambda: Meld(["R1"] * 20), InvalidMeldError, "R1 R1 R1", "Meld 20 tiles"),
    case(lambda: Meld(["R12", "R13", "R1"]), InvalidMeldError, "'R12 R13 R1'", "Meld wrap"),
    case(lambda: Meld.parse("R12 R13 R1"), InvalidMeldError, "'R12 R13 R1'", "Meld.parse wrap"),
    case(lambda: Meld.parse("K7 K7 B7"), InvalidMeldError, "'K7 K7 B7'", "Meld.parse repeated colour"),
    case(lambda: Meld.parse("J J J"), InvalidMeldError, "'J J J'", "Meld.parse jokers only"),
    case(lambda: Meld.parse("R1 R2"), InvalidMeldError, "'R1 R2'", "Meld.parse too short"),
    case(lambda: Meld.parse("R1 R3 R5"), InvalidMeldError, "'R1 R3 R5'", "Meld.parse gap"),
    case(lambda: Meld.parse("R1 B2 O3"), InvalidMeldError, "'R1 B2 O3'", "Meld.parse mixed"),
    case(lambda: Meld.parse("R1 R1 R2"), InvalidMeldError, "'R1 R1 R2'", "Meld.parse repeated number"),
    case(lambda: Meld.parse("KBORJ5"), InvalidMeldError, "'KBORJ5'", "Meld.parse group of 5"),
    case(lambda: Meld.parse("KJ5"), InvalidMeldError, "'KJ5'", "Meld.parse group of 2"),
    case(lambda: Meld.parse("R1-13 J"), InvalidMeldError, "'R1-13 J'", "Meld.parse run of 14"),
    case(lambda: Meld.parse("R1 R13 J"), InvalidMeldError, "'R1 R13 J'", "Meld.parse gap too wide"),
    case(lambda: Meld.parse("R1-3 | R4-6"), InvalidNotationError, "'|'", "Meld.parse a table"),
    case(lambda: Meld.parse(""), InvalidNotationError, "''", "Meld.parse empty"),
    case(lambda: Meld.parse("R1 R2 R3 |"), InvalidNotationError, "'|'", "Meld.parse trailing |"),
    case(lambda: Meld.parse(None), InvalidNotationError, "None", "Meld.parse None"),  # type: ignore[arg-type]
    case(lambda: Meld.parse(123), InvalidNotationError, "123", "Meld.parse int"),  # type: ignore[arg-type]
    case(lambda: Meld.parse("R1-3", RuleSet), RummikubError, "RuleSet", "Meld.parse rules class"),  # type: ignore[arg-type]
    # --- Meld.run -------------------------------------------------------------------------------------
    case(lambda: Meld.run(Colour.RED, 12, 3), InvalidMeldError, "run of 3 from 12", "run past 13"),
    case(lambda: Meld.run(Colour.RED, 0, 3), InvalidMeldError, "run of 3 from 0", "run from 0"),
    case(lambda: Meld.run(Colour.RED, 1, 2), InvalidMeldError, "run of 2 from 1", "run too short"),
    case(lambda: Meld.run(Colour.RED, 1, 14), InvalidMeldError, "run of 14 from 1", "run too long"),
    case(lambda: Meld.run(Colour.RED, 1, -3), InvalidMeldError, "run of -3", "run negative length"),
    case(lambda: Meld.run(4, 1, 3), InvalidMeldError, "run of 3 from 1", "run colour 4"),
    case(lambda: Meld.run("R", 1, 3), InvalidMeldError, "'R'", "run colour str"),  # type: ignore[arg-type]
    case(lambda: Meld.run(None, 1, 3), InvalidMeldError, "None", "run colour None"),  # type: ignore[arg-type]
    case(lambda: Meld.run(Colour.RED, 1.0, 3), InvalidMeldError, "1.0", "run float start"),  # type: ignore[arg-type]
    case(lambda: Meld.run(Colour.RED, HUGE, 3), InvalidMeldError, str(HUGE), "run huge start"),
    case(lambda: Meld.run(Colour.RED, 1, HUGE), InvalidMeldError, str(HUGE), "run huge length"),
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[0, 1, 2]), InvalidMeldError, "run of 3 from 1", "run all jokers"),
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[3]), InvalidMeldError, "slot 3", "run joker slot 3"),
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[-1]), InvalidMeldError, "slot -1", "run joker slot -1"),
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[0, 0]), InvalidMeldError, "slot 0", "run joker slot twice"),
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[HUGE]), InvalidMeldError, str(HUGE), "run huge joker slot"),
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[None]), InvalidMeldError, "None", "run None slot"),  # type: ignore[list-item]
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=[0.0]), InvalidMeldError, "0.0", "run float slot"),  # type: ignore[list-item]
    case(lambda: Meld.run(Colour.RED, 1, 3, jokers=1), InvalidMeldError, "1", "run jokers int"),  # type: ignore[arg-type]
    case(lambda: Meld.run(Colour.RED, 1, 3, rules="x"), RummikubError, "'x'", "run rules str"),  # type: ignore[arg-type]
    # --- Meld.group -----------------------------------------------------------------------------------
    case(lambda: Meld.group(7, [0, 0]), InvalidMeldError, "group of 7", "group colour twice"),
    case(lambda: Meld.group(7, [0, 1]), InvalidMeldError, "group of 7", "group too short"),
    case(lambda: Meld.group(7, [0, 1, 2, 3], jokers=1), InvalidMeldError, "group of 7", "group of 5"),
    case(lambda: Meld.group(14, [0, 1, 2]), InvalidMeldError, "group of 14", "group number 14"),
    case(lambda: Meld.group(0, [0, 1, 2]), InvalidMeldError, "group of 0", "group number 0"),
    case(lambda: Meld.group(HUGE, [0, 1, 2]), InvalidMeldError, str(HUGE), "group huge number"),
    case(lambda: Meld.group(7.0, [0, 1, 2]), InvalidMeldError, "7.0", "group float number"),  # type: ignore[arg-type]
    case(lambda: Meld.group(None, [0, 1, 2]), InvalidMeldError, "None", "group None number"),  # type: ignore[arg-type]
    case(lambda: Meld.group(7, [], jokers=3), InvalidMeldError, "group of 7", "group jokers only"),
    case(lambda: Meld.group(7, [0, 1, 4]), InvalidMeldError, "4", "group colour 4"),
    case(lambda: Meld.group(7, [0, 1, "R"]), InvalidMeldError, "'R'", "group colour str"),  # type: ignore[list-item]
    case(lambda: Meld.group(7, [0, 1, True]), InvalidMeldError, "True", "group colour bool"),  # type: ignore[list-item]
    case(lambda: Meld.group(7, "KBO"), InvalidMeldError, "'K'", "group colours str"),  # type: ignore[arg-type]
    case(lambda: Meld.group(7, None), InvalidMeldError, "None", "group colours None"),  # type: ignore[arg-type]
    case(lambda: Meld.group(7, 3), InvalidMeldError, "3", "group colours int"),  # type: ignore[arg-type]
    case(lambda: Meld.group(7, [0, 1], jokers=-1), InvalidMeldError, "-1", "group negative jokers"),
    case(lambda: Meld.group(7, [0, 1], jokers=HUGE), InvalidMeldError, str(HUGE), "group huge jokers"),
    case(lambda: Meld.group(7, [0, 1], jokers=1.0), InvalidMeldError, "1.0", "group float jokers"),  # type: ignore[arg-type]
    case(lambda: Meld.group(7, [0, 1, 2], rules=5), RummikubError, "5", "group rules int"),  # type: ignore[arg-type]
    # --- Table(...) and Table.parse -------------------------------------------------------------------
    case(lambda: Table("R1-3"), InvalidNotationError, "'R1-3'", "Table str"),  # type: ignore[arg-type]
    case(lambda: Table(None), InvalidMeldError, "None", "Table None"),  # type: ignore[arg-type]
    case(lambda: Table(5), InvalidMeldError, "5", "Table int"),  # type: ignore[arg-type]
    case(lambda: Table([1]), InvalidMeldError, "1", "Table [int]"),  # type: ignore[list-item]
    case(lambda: Table(["R1-3"]), InvalidMeldError, "'R1-3'", "Table [str]"),  # type: ignore[list-item]
    case(lambda: Table([TileSet.parse("R1-3")]), InvalidMeldError, "TileSet", "Table [TileSet]"),  # type: ignore[list-item]
    case(lambda: Table.parse("R1 R2 R3 |"), InvalidNotationError, "'R1 R2 R3 |'", "Table trailing |"),
    case(lambda: Table.parse("| R1 R2 R3"), InvalidNotationError, "'| R1 R2 R3'", "Table leading |"),
    case(lambda: Table.parse("R1-3 || KBO5"), InvalidNotationError, "'R1-3 || KBO5'", "Table double |"),
    case(lambda: Table.parse("|"), InvalidNotationError, "'|'", "Table lone |"),
    case(lambda: Table.parse("R1,,R2"), InvalidNotationError, "'R1,,R2'", "Table double comma"),
    case(lambda: Table.parse("R1-3 | R12 R13 R1"), InvalidMeldError, "'R12 R13 R1'", "Table wrap"),
    case(lambda: Table.parse("R1-3 | K7 K7 B7"), InvalidMeldError, "'K7 K7 B7'", "Table repeated colour"),
    case(lambda: Table.parse("J J J"), InvalidMeldError, "'J J J'", "Table jokers only"),
    case(lambda: Table.parse("R1-3 | X5 X6 X7"), InvalidNotationError, "'X5'", "Table X5"),
    case(lambda: Table.parse("R1-3 | R12-14"), InvalidTileError, "'R12-14'", "Table R14"),
    case(lambda: Table.parse("R1-3 | R1-3 | R1-3", STANDARD), TileCountError, "R1 R2 R3", "Table 3 copies"),
    case(lambda: Table.parse("R1 R2 J | R5 R6 J | K1 B1 J", STANDARD), TileCountError, "J", "Table 3 jokers"),
    case(lambda: Table.parse(None), InvalidNotationError, "None", "Table.parse None"),  # type: ignore[arg-type]
    case(lambda: Table.parse(b"R1-3"), InvalidNotationError, "b'R1-3'", "Table.parse bytes"),  # type: ignore[arg-type]
    case(lambda: Table.parse(["R1-3"]), InvalidNotationError, "['R1-3']", "Table.parse list"),  # type: ignore[arg-type]
    case(lambda: Table.parse("R1-3", "x"), RummikubError, "'x'", "Table.parse rules str"),  # type: ignore[arg-type]
    # --- RuleSet --------------------------------------------------------------------------------------
    case(lambda: RuleSet(numbers=17), RummikubError, "numbers=17", "RuleSet numbers 17"),
    case(lambda: RuleSet(numbers=0), RummikubError, "numbers=0", "RuleSet numbers 0"),
    case(lambda: RuleSet(numbers=HUGE), RummikubError, str(HUGE), "RuleSet huge numbers"),
    case(lambda: RuleSet(numbers=-HUGE), RummikubError, str(-HUGE), "RuleSet huge negative numbers"),
    case(lambda: RuleSet(numbers="13"), RummikubError, "'13'", "RuleSet numbers str"),  # type: ignore[arg-type]
    case(lambda: RuleSet(numbers=13.0), RummikubError, "13.0", "RuleSet numbers float"),  # type: ignore[arg-type]
    case(lambda: RuleSet(numbers=None), RummikubError, "None", "RuleSet numbers None"),  # type: ignore[arg-type]
    case(lambda: RuleSet(numbers=True), RummikubError, "True", "RuleSet numbers bool"),
    case(lambda: RuleSet(colours=5), RummikubError, "colours=5", "RuleSet colours 5"),
    case(lambda: RuleSet(copies=0), RummikubError, "copies=0", "RuleSet copies 0"),
    case(lambda: RuleSet(copies=8), RummikubError, "copies=8", "RuleSet copies 8"),
    case(lambda: RuleSet(jokers=-1), RummikubError, "jokers=-1", "RuleSet jokers -1"),
    case(lambda: RuleSet(jokers=8), RummikubError, "jokers=8", "RuleSet jokers 8"),
    case(lambda: RuleSet(min_len=1), RummikubError, "min_len=1", "RuleSet min_len 1"),
    case(lambda: RuleSet(min_len=14), RummikubError, "min_len=14", "RuleSet min_len 14"),
    case(lambda: RuleSet(rack_size=0), RummikubError, "0", "RuleSet rack 0"),
    case(lambda: RuleSet(rack_size=100), RummikubError, "100", "RuleSet rack 100"),
    case(lambda: RuleSet(opening_threshold=-1), RummikubError, "-1", "RuleSet threshold -1"),
    case(lambda: RuleSet(opening_threshold=HUGE), RummikubError, str(HUGE), "RuleSet huge threshold"),
    case(lambda: RuleSet(joker_in_opening=1), RummikubError, "1", "RuleSet bool field int"),  # type: ignore[arg-type]
    case(lambda: RuleSet(joker_in_opening="yes"), RummikubError, "'yes'", "RuleSet bool field str"),  # type: ignore[arg-type]
    case(lambda: RuleSet(joker_retrieval="swap"), RummikubError, "'swap'", "RuleSet retrieval"),  # type: ignore[arg-type]
    case(lambda: RuleSet(match_winner=None), RummikubError, "None", "RuleSet match winner"),  # type: ignore[arg-type]
    case(lambda: RuleSet(first_player="last"), RummikubError, "'last'", "RuleSet first player"),  # type: ignore[arg-type]
    case(lambda: RuleSet(turn_seconds=0), RummikubError, "0", "RuleSet turn 0"),
    case(lambda: RuleSet(turn_seconds=-5), RummikubError, "-5", "RuleSet turn negative"),
    case(lambda: RuleSet(turn_seconds=float("nan")), RummikubError, "nan", "RuleSet turn nan"),
    case(lambda: RuleSet(turn_seconds=float("inf")), RummikubError, "inf", "RuleSet turn inf"),
    case(lambda: RuleSet(turn_seconds="60"), RummikubError, "'60'", "RuleSet turn str"),  # type: ignore[arg-type]
    case(lambda: RuleSet(turn_seconds=True), RummikubError, "True", "RuleSet turn bool"),
    case(lambda: RuleSet(joker_penalty=-1), RummikubError, "-1", "RuleSet penalty -1"),
    case(lambda: RuleSet(joker_penalty=HUGE), RummikubError, str(HUGE), "RuleSet huge penalty"),
    case(lambda: RuleSet(min_players=1), RummikubError, "min_players", "RuleSet 1 player"),
    case(lambda: RuleSet(max_players=8), RummikubError, "8 racks of 14", "RuleSet 8 players"),
    case(lambda: RuleSet(name=None), RummikubError, "None", "RuleSet name None"),  # type: ignore[arg-type]
    case(lambda: RuleSet(5), RummikubError, "5", "RuleSet positional int"),  # type: ignore[arg-type]
    case(lambda: RuleSet.preset("chess"), RummikubError, "'chess'", "preset unknown"),
    case(lambda: RuleSet.preset(""), RummikubError, "''", "preset empty"),
    case(lambda: RuleSet.preset(None), RummikubError, "None", "preset None"),  # type: ignore[arg-type]
    case(lambda: RuleSet.preset(["large"]), RummikubError, "['large']", "preset list"),  # type: ignore[arg-type]
    case(lambda: RuleSet.preset(b"large"), RummikubError, "b'large'", "preset bytes"),  # type: ignore[arg-type]
    case(lambda: RuleSet().replace(colour=3), RummikubError, "'colour'", "replace unknown field"),
    case(lambda: RuleSet().replace(numbers=99), RummikubError, "numbers=99", "replace numbers 99"),
    case(lambda: RuleSet().replace(numbers="x"), RummikubError, "'x'", "replace numbers str"),
    case(lambda: RuleSet().replace(_params=None), RummikubError, "'_params'", "replace private"),
    case(lambda: RuleSet.preset("large").replace(copies=9), RummikubError, "copies=9", "replace copies 9"),
    # --- methods that take a tile, a value or rules ---------------------------------------------------
    case(lambda: TileSet().count("R14"), InvalidTileError, "'R14'", "count R14"),
    case(lambda: TileSet().count(None), InvalidTileError, "None", "count None"),  # type: ignore[arg-type]
    case(lambda: TileSet.parse("R1") - TileSet.parse("R2"), TileCountError, "R2", "difference"),
    case(lambda: TileSet() - TileSet.parse("J"), TileCountError, "J", "difference from empty"),
    case(lambda: TileSet.parse("R1 " * 7) | TileSet.parse("R1"), TileCountError, "8 x R1", "sum overflow"),
    case(lambda: TileSet.parse("J").value(None), RummikubError, "None", "value None"),  # type: ignore[arg-type]
    case(lambda: TileSet.parse("J").value(1.5), RummikubError, "1.5", "value float"),  # type: ignore[arg-type]
    case(lambda: TileSet.parse("J").value(HUGE), RummikubError, str(HUGE), "value huge"),
    case(lambda: TileSet.parse("J").value(-1), RummikubError, "-1", "value negative"),
    case(lambda: Tile.parse("J").value("30"), RummikubError, "'30'", "tile value str"),  # type: ignore[arg-type]
    case(lambda: TileSet.full(None), RummikubError, "None", "full None"),  # type: ignore[arg-type]
    case(lambda: TileSet.full("standard"), RummikubError, "'standard'", "full str"),  # type: ignore[arg-type]
    case(lambda: TileSet().check(None), RummikubError, "None", "check None"),  # type: ignore[arg-type]
    case(lambda: TileSet().check({}), RummikubError, "{}", "check dict"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "exc", "named"), CASES)
def test_bad_input(call: Callable[[], Any], exc: type[Exception], named: str) -> None:
    with pytest.raises(exc) as info:
        call()
    assert issubclass(exc, ValueError) and isinstance(info.value, RummikubError)
    message = str(info.value)
    assert named in message, f"{type(info.value).__name__}({message!r}) does not name {named!r}"
    assert "Traceback" not in message and "incompatible function arguments" not in message


def test_every_error_is_a_value_error() -> None:
    import rummikub

    for name in rummikub.__all__:
        obj = getattr(rummikub, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, rummikub.RummikubError) and issubclass(obj, ValueError), name


def test_missing_arguments_are_type_errors() -> None:
    """Calling with the wrong signature is a programming error, reported as Python always does."""
    with pytest.raises(TypeError):
        Tile()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        RuleSet(colour=3)  # type: ignore[call-arg]


# --- nothing crashes -------------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.binary(), st.complex_numbers(),
    st.lists(st.one_of(st.integers(), st.text(max_size=4), st.none()), max_size=5),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.sampled_from([Tile.parse("R1"), TileSet.parse("R1"), Meld.parse("R1-3"), Table(), RuleSet(), Colour.RED,
                     np.int64(3), np.float32(1.5), np.zeros(65, np.int64), object(), type, ...]),
)
NOTATION = st.text(alphabet="KBORJkborj0123456789-|, \t\u0663xX", max_size=30)


def tolerated(call: Callable[[], Any]) -> None:
    """The call returns, or raises a RummikubError (never another exception, never a crash)."""
    try:
        call()
    except RummikubError:
        pass


@given(NOTATION)
def test_any_notation_is_parsed_or_refused(text: str) -> None:
    for parse in (Tile.parse, TileSet.parse, Meld.parse, Table.parse):
        tolerated(lambda: parse(text))  # noqa: B023
        tolerated(lambda: parse(text, STANDARD))  # noqa: B023


@given(st.text(max_size=40))
def test_any_text_is_parsed_or_refused(text: str) -> None:
    for parse in (Tile.parse, TileSet.parse, Meld.parse, Table.parse):
        tolerated(lambda: parse(text))  # noqa: B023


@given(JUNK)
def test_junk_through_every_constructor(junk: Any) -> None:
    calls: list[Callable[[], Any]] = [
        lambda: Tile.parse(junk), lambda: Tile.from_code(junk), lambda: Tile(junk, 1), lambda: Tile(0, junk),
        lambda: TileSet(junk), lambda: TileSet([junk]), lambda: TileSet.parse(junk),
        lambda: TileSet.from_counts(junk), lambda: Meld(junk), lambda: Meld([junk, "R2", "R3"]),
        lambda: Meld.parse(junk), lambda: Meld.run(junk, 1, 3), lambda: Meld.run(0, junk, 3),
        lambda: Meld.run(0, 1, junk), lambda: Meld.run(0, 1, 3, jokers=junk), lambda: Meld.group(junk, [0, 1, 2]),
        lambda: Meld.group(7, junk), lambda: Meld.group(7, [0, 1], jokers=junk), lambda: Table(junk),
        lambda: Table([junk]), lambda: Table.parse(junk), lambda: RuleSet.preset(junk),
        lambda: RuleSet(numbers=junk), lambda: RuleSet(turn_seconds=junk), lambda: RuleSet().replace(jokers=junk),
        lambda: TileSet().count(junk), lambda: TileSet().value(junk), lambda: TileSet.full(junk),
        lambda: TileSet.parse("R1", junk), lambda: Meld.parse("R1-3", junk), lambda: Table.parse("R1-3", junk),
    ]
    for call in calls:
        tolerated(call)


def test_messages_quote_long_input_in_full() -> None:
    """The message carries the input as given (repr), so a user can find it in a long line."""
    text = "R1 R2 R3 " * 20 + "X9"
    with pytest.raises(InvalidNotationError, match=re.escape("'X9' at position 180")):
        TileSet.parse(text)
