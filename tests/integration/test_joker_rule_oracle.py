"""``check_turn`` and the independent oracle's re-checker (tests/helpers/oracle.py) read the joker rule of
docs/rules.md §8 alike: on thousands of tiny random turns (numbers 1-6, up to 4 jokers, every joker policy,
opened or not, openings with and without extension), both accept exactly the same turns.

Each position is a small table holding jokers (runs and groups, a group with two jokers now and then) and a
small rack; each turn rebuilds the table from its tiles and part of the rack, keeping some of the table's
sets as they are and splitting the rest into random valid sets (each a random concrete reading): legal and
illegal turns alike, many of them moving, keeping or retrieving a joker.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("scipy.optimize")

from tests.helpers import oracle as O  # noqa: E402
from tests.helpers.verdicts import exhaustive, verdict  # noqa: E402

from rummikub import RuleSet, Table, TileSet, legality  # noqa: E402
from rummikub._errors import IllegalMoveError  # noqa: E402
from rummikub.game.legal import check_committed  # noqa: E402
from rummikub.legality import check_turn  # noqa: E402
from rummikub.meld import Meld  # noqa: E402

POLICIES = ("replace", "replace_from_rack", "free")


def _rules(rng: random.Random) -> RuleSet:
    jokers = rng.choice([2, 2, 2, 4])
    return RuleSet(name="tiny", numbers=6, colours=4, copies=2 if jokers == 2 else 3, jokers=jokers, rack_size=5,
                   joker_retrieval=rng.choice(POLICIES), opening_threshold=rng.choice([0, 5, 9, 12]),
                   extend_after_opening=rng.random() < 0.5, joker_in_opening=rng.random() < 0.7)


@lru_cache(maxsize=8)
def _all_sets(numbers: int, colours: int, copies: int, jokers: int, min_len: int) -> dict[O.Tile, list[O.CMeld]]:
    """Every concrete set of the tile set with at most 2 jokers (every length, every joker placement, every
    group reading), by each numbered tile it holds (more jokers join them in :func:`_split`)."""
    R = O.Rules(numbers, colours, copies, jokers, min_len)
    full = Counter({(c, n): copies for c in range(colours) for n in range(1, numbers + 1)})
    out: dict[O.Tile, list[O.CMeld]] = {}
    for cm in O.enumerate_melds(R, full, min(jokers, 2), all_lengths=True, colour_matters=None):
        for t in cm.real:
            out.setdefault(t, []).append(cm)
    return out


def _sets_of(rules: RuleSet) -> dict[O.Tile, list[O.CMeld]]:
    return _all_sets(rules.numbers, rules.colours, rules.copies, rules.jokers, rules.min_len)


def _need(cm: O.CMeld) -> Counter[O.Tile]:
    return Counter(cm.real) + Counter({O.JK: len(cm.slots)})


def _fits(cm: O.CMeld, left: Counter[O.Tile]) -> bool:
    if left[O.JK] < len(cm.slots):
        return False
    for t in cm.real:
        if not left[t]:
            return False
    return True


def _meld_of(cm: O.CMeld, rules: RuleSet) -> Meld:
    if cm.kind == "run":
        tiles = sorted(cm.real + cm.slots)
        return Meld.run(tiles[0][0], tiles[0][1], len(tiles), jokers=[k for k, t in enumerate(tiles) if t in cm.slots],
                        rules=rules)
    return Meld.group(cm.real[0][1], [c for c, _ in cm.real], jokers=len(cm.slots), rules=rules)


def _absorb(cm: O.CMeld, R: O.Rules) -> O.CMeld | None:
    """``cm`` with one more joker (a run's next slot up or down, a group's missing colour), or None."""
    held = set(cm.real) | set(cm.slots)
    if cm.kind == "run":
        colour = cm.real[0][0]
        numbers = [n for _, n in held]
        for n in (max(numbers) + 1, min(numbers) - 1):
            if 1 <= n <= R.numbers:
                return O.CMeld("run", cm.real, cm.slots + ((colour, n),))
        return None
    number = cm.real[0][1]
    missing = [(c, number) for c in range(R.colours) if (c, number) not in held]
    return O.CMeld("group", cm.real, cm.slots + (missing[0],)) if missing else None


def _split(avail: Counter[O.Tile], sets: dict[O.Tile, list[O.CMeld]], rng: random.Random, R: O.Rules,
           prefer_jokers: bool = False) -> list[O.CMeld] | None:
    """``avail`` split into random valid sets (each step covers the lowest tile left; jokers left at the end
    join a random set that can take one), or None when a few tries all got stuck."""
    for t in avail:
        if t != O.JK and not any(_fits(cm, avail) for cm in sets.get(t, ())):
            return None  # a tile no set can take
    for _ in range(4):
        left, out = Counter(avail), []
        while +left:
            numbered = sorted(t for t in +left if t != O.JK)
            if not numbered:
                break
            options = sets.get(numbered[0], [])
            cm = None
            for _ in range(30):  # a random set through that tile that fits (with a joker, if preferred)
                pick = rng.choice(options)
                if _fits(pick, left) and (pick.slots or not prefer_jokers or not left[O.JK]):
                    cm = pick
                    break
            if cm is None:
                fits = [c for c in options if _fits(c, left)]
                if not fits:
                    break
                cm = rng.choice(fits)
            out.append(cm)
            left -= _need(cm)
        while out and left[O.JK] and not +(left - Counter({O.JK: left[O.JK]})):
            k = rng.randrange(len(out))
            bigger = _absorb(out[k], R)
            if bigger is None:
                break
            out[k] = bigger
            left[O.JK] -= 1
        if not +left:
            return out
    return None


def position(seed: int) -> tuple[RuleSet, Table, TileSet, bool, list[Table]] | None:
    """A tiny random position (rules, table, rack, opened) and random tables after a turn; None if the random
    choices did not make one."""
    rng = random.Random(seed)
    rules = _rules(rng)
    R = O.rules_of(rules)
    sets = _sets_of(rules)
    every = [cm for group in sets.values() for cm in group]
    pool = Counter({(c, n): R.copies for c in range(R.colours) for n in range(1, R.numbers + 1)})
    pool[O.JK] = R.jokers
    table_sets: list[O.CMeld] = []
    for _ in range(rng.choice([1, 2, 2, 3])):
        want_joker = rng.random() < 0.7
        for _ in range(1000):  # a random set that the pool holds (with a joker, mostly)
            cm = rng.choice(every)
            if _fits(cm, pool) and (cm.slots or not want_joker or not pool[O.JK]):
                break
        else:
            return None
        table_sets.append(cm)
        pool -= _need(cm)
    # the rack: mostly tiles that could join the table's sets (a colour of a group's number, a run's
    # neighbour), sometimes any tile of the pool
    near = {(c, n) for cm in table_sets for _, n in cm.real for c in range(R.colours)}
    near |= {(c, n + d) for cm in table_sets for c, n in cm.real + cm.slots for d in (-1, 1)}
    rack: Counter[O.Tile] = Counter()
    if rng.random() < 0.25:  # a set of its own, which may open (then rearrange the table, with extension)
        for _ in range(100):
            cm = rng.choice(every)
            if len(cm) == 3 and not cm.slots and _fits(cm, pool):
                rack += _need(cm)
                pool -= _need(cm)
                break
    for _ in range(rng.choice([1, 1, 2, 3, 4]) - (3 if rack else 0)):
        tiles = sorted(+pool)
        close = [t for t in tiles if t in near or t == O.JK]
        t = rng.choice(close if close and rng.random() < 0.8 else tiles)
        rack[t] += 1
        pool[t] -= 1
    table = Table([_meld_of(cm, rules) for cm in table_sets])
    afters: list[Table] = []
    for _ in range(25):
        if len(afters) == 6:
            break
        part = Counter({t: rng.randint(0, k) for t, k in rack.items()})
        if not +part:
            continue
        kept = [cm for cm in table_sets if rng.random() < 0.35]
        rest = sum((_need(cm) for cm in table_sets), Counter()) - sum((_need(cm) for cm in kept), Counter())
        split = _split(rest + part, sets, rng, R, prefer_jokers=rng.random() < 0.5)
        if split is not None:
            afters.append(Table([_meld_of(cm, rules) for cm in kept + split]))
    opened = rng.random() < 0.6
    return rules, table, TileSet([O.fmt(t) for t in rack.elements()]), opened, afters


def disagreements(seed: int) -> tuple[list[str], int, Counter[str]]:
    """The turns of position ``seed`` where check_turn and the oracle differ, the number compared, and the
    verdicts seen (check_turn's reasons, "legal")."""
    made = position(seed)
    if made is None:
        return [], 0, Counter()
    rules, table, rack, opened, afters = made
    inst = O.instance(table, rack, rules, opened)
    out, seen = [], Counter()
    for after in afters:
        try:
            check_turn(table, rack, after, rules=rules, opened=opened)
            ours = "legal"
        except IllegalMoveError as exc:
            ours = exc.reason
        try:
            O.check_play(inst, O.counts_of(after.tiles() - table.tiles()), O.melds_of(after))
            theirs = "legal"
        except O.Illegal as exc:
            theirs = f"illegal ({exc})"
        seen[ours] += 1
        if (ours == "legal") != (theirs == "legal"):
            out.append(f"seed {seed} ({rules.joker_retrieval}, opened={opened}, threshold={rules.opening_threshold}, "
                       f"extend={rules.extend_after_opening}, jokers={rules.jokers}): {table} + rack {rack} -> "
                       f"{after}: check_turn {ours}, oracle {theirs}")
    return out, len(afters), seen


def _run(first: int, count: int) -> tuple[int, Counter[str]]:
    problems: list[str] = []
    compared = 0
    seen: Counter[str] = Counter()
    for seed in range(first, first + count):
        bad, n, verdicts = disagreements(seed)
        problems += bad
        compared += n
        seen += verdicts
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:10])
    return compared, seen


FAST = int(os.environ.get("RUMMIKUB_JOKER_ORACLE_FAST", "1500"))


def test_check_turn_agrees_with_the_oracle() -> None:
    compared, seen = _run(0, FAST)
    # the positions exercise the rule: many legal turns, and every joker refusal
    assert compared > FAST
    assert seen["legal"] > FAST // 4
    for reason in ("joker_not_replaced", "joker_replacement_elsewhere", "freed_joker_without_rack_tiles",
                   "joker_retrieved_before_opening"):
        assert seen[reason] > 0, (reason, seen)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(1, 6))
def test_check_turn_agrees_with_the_oracle_slow(chunk: int) -> None:
    _run(chunk * 1_000_000, 10_000)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_check_turn_agrees_with_the_oracle_anywhere(seed: int) -> None:
    bad, _, _ = disagreements(seed)
    assert not bad, bad[0]


def _oracle_halves_agree(seed: int) -> list[str]:
    """The oracle's integer program and its re-checker agree on position ``seed``: the program's best play
    for each placeable multiset passes the re-checker, and every turn the re-checker accepts places a
    multiset the program finds placeable."""
    made = position(seed)
    if made is None:
        return []
    rules, table, rack, opened, afters = made
    inst = O.instance(table, rack, rules, opened)
    out = []
    for sub in O.sub_multisets(inst.rack):
        found = O.solve_play(inst, fixed=sub)
        if found is not None:
            try:
                O.check_play(inst, found[1], found[2])
            except O.Illegal as exc:
                out.append(f"seed {seed}: the program's play {found[2]} fails the re-checker: {exc}")
    for after in afters:
        P = O.counts_of(after.tiles() - table.tiles())
        try:
            O.check_play(inst, P, O.melds_of(after))
        except O.Illegal:
            continue
        if not O.feasible(inst, P):
            out.append(f"seed {seed}: {after} is accepted by the re-checker, but the program finds {P} unplaceable")
    return out


@pytest.mark.parametrize("first, count", [(0, 12), pytest.param(5_000_000, 400, marks=pytest.mark.slow)])
def test_the_oracles_program_and_rechecker_agree(first: int, count: int) -> None:
    problems = [p for seed in range(first, first + count) for p in _oracle_halves_agree(seed)]
    assert not problems, "\n".join(problems[:10])


def test_quick_paths_give_the_exhaustive_verdicts() -> None:
    """On the same tiny turns, check_turn (with its quick joker witness) and the game's check_committed (with its
    fast path) give exactly the verdict and message of the exhaustive joker check; the witness settles most of
    the legal turns that move a table joker."""
    moved = witnessed = 0
    for seed in range(FAST // 3):
        made = position(seed)
        if made is None:
            continue
        rules, table, rack, opened, afters = made
        for after in afters:
            full = verdict(exhaustive, table, rack, after, rules, opened)
            assert verdict(check_turn, table, rack, after, rules, opened) == full, (seed, str(after))
            assert verdict(check_committed, table, rack, after, rules, opened) == full, (seed, str(after))
            if full[0] == "legal" and rules.joker_retrieval != "free" and table.joker_slots() and \
                    sorted(m for m in table if m.jokers) != sorted(m for m in after if m.jokers):
                moved += 1
                witnessed += legality.jokers_witness(table, after, [t.code for t in after.tiles() - table.tiles()],
                                                     rules, opening=not opened and rules.opening_threshold > 0)
    assert moved > 100 and witnessed > moved * 3 // 4, (moved, witnessed)
