"""How search results cross from the core into Python objects: melds travel as int codes
(``_core.meld_code``) and become the shared Meld objects of meld.py, tables carry their codes into the next
search, and ``plays()`` keeps its plays in the core until one is asked for."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from tests.helpers.positions import class_positions, position_stream

from rummikub import Colour, Meld, RuleSet, Table, TileSet, _core, _memo
from rummikub import meld as meld_module
from rummikub.meld import _melds_of_codes, search_codes
from rummikub.search import Play, SearchStats, arrange, plays, solve

WIDE = RuleSet(name="wide", numbers=16)  # the engine's whole code space: numbers 1..16


def clear_meld_caches() -> None:
    _memo.clear("meld.")


@pytest.fixture(autouse=True)
def fresh_meld_caches() -> None:
    """Each test starts from empty meld caches (other tests empty some of them behind the search's back)."""
    clear_meld_caches()


def every_meld(rules: RuleSet, max_jokers: int) -> Iterator[Meld]:
    """Every run and group of ``rules`` with at most ``max_jokers`` jokers."""
    for colour in range(rules.colours):
        for length in range(rules.min_len, rules.numbers + 1):
            for start in range(1, rules.numbers - length + 2):
                for k in range(min(max_jokers, length - 1) + 1):
                    for slots in combinations(range(length), k):
                        yield Meld.run(colour, start, length, jokers=slots, rules=rules)
    for number in range(1, rules.numbers + 1):
        for size in range(1, rules.colours + 1):
            for colours in combinations(list(Colour)[:rules.colours], size):
                for jokers in range(min(max_jokers, rules.colours - size) + 1):
                    if size + jokers >= max(3, rules.min_len):
                        yield Meld.group(number, colours, jokers=jokers, rules=rules)


def test_meld_codes_are_distinct_and_read_back() -> None:
    melds = list(every_meld(WIDE, 2))
    assert len(melds) > 10_000  # runs up to 16 long in 4 colours, groups of 16 numbers
    codes = [_core.meld_code(m._m) for m in melds]
    assert len(set(codes)) == len(melds)
    for m, code in zip(melds, codes):
        back = _core.meld_of_code(code)
        assert back == m._m and back.key() == m.key
    # the widest fields: a 16-tile run of the last colour with a joker in its last slot
    edge = Meld.run(3, 1, 16, jokers=[15], rules=WIDE)
    assert _core.meld_of_code(_core.meld_code(edge._m)).key() == (0, 3, 1, 16, 1 << 15, 0)
    for bad in (-1, 1 << 33, 1 << 40):
        with pytest.raises(ValueError, match="out of range"):
            _core.meld_of_code(bad)


def test_melds_of_codes_are_the_shared_melds() -> None:
    melds = [Meld.parse(t) for t in ("R1 R2 R3", "K5 J K7", "KBO7", "K9 B9 J", "R10 R11 R12 R13")]
    codes = tuple(_core.meld_code(m._m) for m in melds)
    first = _melds_of_codes(codes)
    assert first == tuple(melds) and [m.key for m in first] == [m.key for m in melds]
    again = _melds_of_codes(codes)
    assert all(a is b for a, b in zip(first, again))
    assert all(a is Meld._wrap(m._m) for a, m in zip(first, melds))
    assert _melds_of_codes(codes[:1]) == (melds[0],) and _melds_of_codes(()) == ()


def test_the_code_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meld_module, "_MAX_INFOS", 50)
    clear_meld_caches()
    melds = list(every_meld(RuleSet(), 0))[:400]
    for start in range(0, len(melds), 7):
        chunk = melds[start:start + 7]
        got = _melds_of_codes(tuple(_core.meld_code(m._m) for m in chunk))
        assert got == tuple(chunk)
        assert _memo.sizes()["meld.by_code"] <= 50
    clear_meld_caches()


def test_solve_tables_are_made_of_shared_melds_and_know_their_codes() -> None:
    checked = 0
    for p in class_positions("small", 12) + list(position_stream(7, 60)):
        play = solve(p.table, p.rack, rules=p.rules, opened=p.opened, objective=p.objective)
        if play is None:
            continue
        checked += 1
        assert play.table.tiles() == p.table.tiles() | play.tiles
        # a Table (a private subclass that makes its melds on first read, then is a plain Table)
        assert type(play.tiles) is TileSet and isinstance(play.table, Table)
        for m in play.table:
            assert type(m) is Meld and Meld.parse(str(m), p.rules) == m
            assert m is Meld._wrap(m._m)  # the one shared Meld of its key
        assert type(play.table) is Table
        # the codes the result table carries are those of its melds, so the next search reads them as they are
        assert play.table._codes == tuple(_core.meld_code(m._m) for m in play.table)
        assert search_codes(Table(list(play.table))) == play.table._codes
        again = solve(play.table, p.rack - play.tiles, rules=p.rules, opened=True, objective=p.objective)
        if again is not None:
            assert again.table.tiles() == play.table.tiles() | again.tiles
    assert checked > 40


def test_results_equal_properly_constructed_instances() -> None:
    # search.py fills Play without its dataclass __init__: it must be the same value
    table = Table.parse("R5 J R7 | K7 B7 O7")
    play = solve(table, "R8 K7 O1 R9")
    assert play is not None
    made = Play(TileSet.parse(str(play.tiles)), Table.parse(str(play.table)), play.value,
                SearchStats(play.stats.states, play.stats.transitions, play.stats.runs))
    assert play == made and hash(play) == hash(made) and repr(play) == repr(made) and str(play) == str(made)
    assert play.stats == made.stats and repr(play.stats) == repr(made.stats) and hash(play.stats) == hash(made.stats)
    assert play.stats.to_dict() == made.stats.to_dict() and play.stats.runs >= 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.value = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        play.stats.states = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(play.stats)) == play.stats
    assert dataclasses.replace(play, value=1).value == 1 and copy.copy(play) == play
    assert pickle.loads(pickle.dumps(play)) == play


def test_arrange_returns_shared_melds() -> None:
    tiles = TileSet.parse("R1 R2 R3 R4 K4 B4 J")
    table = arrange(tiles)
    assert table is not None and table.tiles() == tiles
    assert all(m is Meld._wrap(m._m) for m in table)
    assert table._codes == tuple(_core.meld_code(m._m) for m in table)  # the codes the core returned
    assert arrange(TileSet.parse("R1 R2")) is None


def test_len_and_membership_build_no_plays() -> None:
    p = class_positions("medium", 1, base_seed=10_000)[0]
    table_codes = search_codes(p.table)  # the position's own melds are made before the caches are emptied
    clear_meld_caches()
    ps = plays(p.table, p.rack, rules=p.rules)
    n = len(ps)
    assert n > 64 and bool(ps)
    assert TileSet() not in ps and "R1" not in ps
    assert ps.stats.states > 0
    assert _memo.sizes()["meld.by_code"] == _memo.sizes()["meld.wrapped"] == _memo.sizes()["meld.infos"] == 0
    first = next(iter(ps))
    assert _memo.sizes()["meld.by_code"] == 0  # a play's table makes its Meld objects when first read
    assert len(first.table) > 0 and _memo.sizes()["meld.by_code"] > 0
    assert search_codes(p.table) == table_codes and first.tiles in ps


FEW = [("R1 R2 R3", "R4 R5 K9", True), ("K5 B5 O5", "R5 J", True), ("", "R10 R11 R12 K1 K2 K3 B7", False),
       ("R5 J R7 | K7 B7 O7", "R6 R8 K1", True), ("", "R1 R2", False)]
POSITIONS = [(p.table, p.rack, p.rules, p.opened) for p in class_positions("small", 4)] + [
    (Table.parse(t), TileSet.parse(r), RuleSet(), opened) for t, r, opened in FEW]


@pytest.mark.parametrize("table, rack, rules, opened", POSITIONS, ids=lambda x: str(x)[:30])
def test_iteration_membership_and_get_agree(table: Table, rack: TileSet, rules: RuleSet, opened: bool) -> None:
    # the small positions have hundreds of plays (looked up through the core's hash table), the few ones a
    # handful (looked up by a scan) or none
    ps = plays(table, rack, rules=rules, opened=opened)
    listed = list(ps)
    assert len(listed) == len(ps) and list(ps) == listed and bool(ps) == bool(listed)
    assert len({q.tiles for q in listed}) == len(listed)
    sizes = [len(q.tiles) for q in listed]
    assert sizes == sorted(sizes, reverse=True)  # best first: most tiles
    for q in listed:
        assert q.tiles in ps and ps.get(q.tiles) == q and q.stats == ps.stats
        assert q.table.tiles() == table.tiles() | q.tiles
    assert ps.played_tiles() == [q.tiles for q in listed]
    played = {q.tiles for q in listed}
    singles = {TileSet.parse(str(x)) for x in rack}
    for t in singles - played:
        assert t not in ps and ps.get(t) is None
    assert "not a tile set" not in ps


def test_iteration_crosses_chunks_in_order() -> None:
    p = class_positions("medium", 2, base_seed=10_000)[1]
    ps = plays(p.table, p.rack, rules=p.rules)
    listed = list(ps)
    assert len(listed) == len(ps) > 130  # three chunks or more
    got = iter(ps)
    assert [next(got) for _ in range(70)] == listed[:70]
    assert [ps.get(q.tiles) for q in listed[60:70]] == listed[60:70]


def test_tables_are_built_on_request_and_survive_other_searches() -> None:
    # the core lists the plays at once but builds a play's table only when it is first asked for, from the
    # search layers the list keeps: searches in between (which reuse the core's scratch memory and memos) and
    # another thread change nothing
    positions = class_positions("medium", 6, base_seed=10_000)
    expected = [list(plays(p.table, p.rack, rules=p.rules)) for p in positions]
    pending = [plays(p.table, p.rack, rules=p.rules) for p in positions]
    assert [len(ps) for ps in pending] == [len(e) for e in expected]
    for p in class_positions("large", 20) + class_positions("medium", 20, base_seed=20_000):
        solve(p.table, p.rack, rules=p.rules, opened=p.opened, objective=p.objective)
        len(plays(p.table, p.rack, rules=p.rules))
    with ThreadPoolExecutor(max_workers=1) as pool:
        got = pool.submit(lambda: [list(ps) for ps in pending]).result()
    assert got == expected
    for p, listed in zip(positions, got):
        for q in listed:
            assert q.table.tiles() == p.table.tiles() | q.tiles


def test_a_found_table_makes_its_melds_when_first_read() -> None:
    table = Table.parse("R1 R2 R3 | K5 B5 O5 | O9 O10 J")
    codes = search_codes(table)
    clear_meld_caches()
    play = solve(table, TileSet.parse("R4 R5 O8 K9"))
    assert play is not None and search_codes(play.table) != codes
    assert _memo.sizes()["meld.by_code"] == 0  # the new table holds only its codes so far
    assert play.table.tiles() == table.tiles() | play.tiles  # read through its melds
    assert _memo.sizes()["meld.by_code"] > 0
    again = solve(table, TileSet.parse("R4 R5 O8 K9"))
    assert again is not None and again.table == play.table and str(again.table) == str(play.table)
    assert tuple(again.table) == _melds_of_codes(search_codes(play.table))
    assert pickle.loads(pickle.dumps(again.table)) == play.table and copy.copy(again.table) == play.table
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        getattr(again.table, "nope")


def test_a_found_table_is_a_table_before_and_after_its_melds_are_made() -> None:
    # a search's table makes its melds on first read; everything a user does with it gives what the same plain
    # Table gives, whether it comes first or after another read has made the melds
    table = Table.parse("R1 R2 R3 | K5 B5 O5 | O9 O10 J")
    plain = Table.parse("K5 B5 O5 | R1 R2 R3 R4 R5 | O8 O9 O10 J")  # in the order the search gives
    checks = {
        "repr": lambda t: repr(t) == repr(plain),
        "str": lambda t: str(t) == str(plain),
        "eq": lambda t: t == plain and plain == t and t != Table() and t != str(plain),
        "hash": lambda t: hash(t) == hash(plain),
        "pickle": lambda t: pickle.loads(pickle.dumps(t)) == plain and type(pickle.loads(pickle.dumps(t))) is Table,
        "copy": lambda t: copy.copy(t) == plain and copy.deepcopy(t) == plain,
        "isinstance": lambda t: isinstance(t, Table) and isinstance(t, Sequence),
        "len": lambda t: len(t) == 3 and bool(t),
        "index": lambda t: t[0] == plain[0] and t[-1] == plain[-1] and list(t) == list(plain),
        "slice": lambda t: t[1:] == plain[1:] and type(t[1:]) is Table and t[:0] == Table(),
        "add": lambda t: t + Table() == plain and type(t + [plain[0]]) is Table and len(t + [plain[0]]) == 4,
        "tiles": lambda t: t.tiles() == plain.tiles() and t.value == plain.value,
        "jokers": lambda t: t.joker_slots() == plain.joker_slots(),
        "canonical": lambda t: t.canonical() == plain and type(t.canonical()) is Table,
        "contains": lambda t: plain[1] in t and Meld.parse("K1 K2 K3") not in t,
    }
    for name, check in checks.items():
        for read_first in (False, True):
            play = solve(table, TileSet.parse("R4 R5 O8 K9"))
            assert play is not None and play.table._codes is not None
            if read_first:
                play.table[0]
                assert type(play.table) is Table
            assert check(play.table), name
            with pytest.raises(AttributeError, match="immutable"):
                play.table._melds = ()  # type: ignore[misc]
            with pytest.raises(AttributeError, match="'Table' object has no attribute 'nope'"):
                getattr(play.table, "nope")
    assert not hasattr(Table, "__getattr__")  # attribute reads on a plain Table stay on CPython's fast path


def test_a_table_checked_once_is_still_checked_against_each_call() -> None:
    # solve_play remembers the last table it checked and the last it found (per thread, by codes and the rules' tile
    # parameters); every other input is still checked, and another rule set checks the table again
    from rummikub._errors import InvalidMeldError, TileCountError

    wide = Table.parse("R12 R13 R14 | K5 B5 O5", WIDE)
    play = solve(wide, TileSet.parse("R15 K1", WIDE), rules=WIDE)
    assert play is not None and str(play.tiles) == "R15"
    with pytest.raises(InvalidMeldError, match="R12 R13 R14"):
        solve(wide, TileSet.parse("K1"))  # the same codes, under rules whose numbers stop at 13
    with pytest.raises(InvalidMeldError):
        solve(play.table, TileSet.parse("K1"))  # the found table, likewise
    assert solve(play.table, TileSet.parse("R16 K1", WIDE), rules=WIDE) is not None
    with pytest.raises(TileCountError, match="with rack"):
        solve(play.table, TileSet.parse("K5 K5", WIDE), rules=WIDE)  # a third K5: the rack is checked each time
    found = solve(play.table, TileSet.parse("K6 K7 K8", WIDE), rules=WIDE)
    assert found is not None and found.table.tiles() == play.table.tiles() | found.tiles
    fresh = Table.parse(str(found.table), WIDE)
    clear_meld_caches()
    for rack in ("K8 B5", "O6 O7 K4", "R11 R10"):  # on the found table (known), as on the same table parsed
        known, parsed = (solve(t, TileSet.parse(rack, WIDE), rules=WIDE) for t in (found.table, fresh))
        assert (known is None) == (parsed is None)
        if known is not None and parsed is not None:
            assert known.tiles == parsed.tiles and search_codes(known.table) == search_codes(parsed.table)
    with pytest.raises(InvalidMeldError, match="out of range"):
        _core.solve_play((-1,), TileSet()._s, _core.SearchRules(RuleSet().params, 30, True, True,
                                                                _core.JokerPolicy.REPLACE, 30), True, 0, None)


def test_solve_play_reads_table_codes_from_any_int_sequence() -> None:
    # a tuple or list of ints is read directly; other sequences and int-likes convert as a vector argument does,
    # and anything else is refused with TypeError
    import numpy as np

    rules = _core.SearchRules(RuleSet().params, 30, True, True, _core.JokerPolicy.REPLACE, 30)
    table = Table.parse("R1 R2 R3 | K5 B5 O5 | O9 O10 J")
    codes = search_codes(table)
    rack = TileSet.parse("R4 R5 O8 K9")._s
    expected = _core.solve_play(codes, rack, rules, True, 0, None)
    assert expected is not None
    for given in (list(codes), np.array(codes, dtype=np.int64), [np.int64(c) for c in codes], tuple(codes)):
        got = _core.solve_play(given, rack, rules, True, 0, None)  # type: ignore[arg-type]
        assert got is not None and got[:3] == expected[:3]
    assert _core.solve_play((), rack, rules, True, 0, None) is None  # no table, nothing of the rack forms a set
    for bad in ((1.5,), ("1",), (2**70,), (*codes, None), 5, None, "12"):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            _core.solve_play(bad, rack, rules, True, 0, None)  # type: ignore[arg-type]
