"""Brute force over tiny positions (numbers 1-6, two jokers, every joker policy, opened or not, openings with
and without extension): the search, the turn check and the independent oracle read the joker rules of
docs/rules.md §6 and §8 alike.

For each position:

* every play of ``plays`` (one per placeable multiset) passes ``check_turn`` and the oracle's re-checker, and
  the multisets it lists are exactly those the oracle finds placeable (every sub-multiset of the rack);
* ``solve``'s play passes both;
* random rearrangements of the table and part of the rack (legal or not) get the same verdict from
  ``check_turn`` and from the oracle's re-checker.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter

import pytest

pytest.importorskip("scipy.optimize")

from tests.helpers import oracle as O  # noqa: E402
from tests.helpers.positions import Position, make_position  # noqa: E402

from rummikub import RuleSet, Table, TileSet  # noqa: E402
from rummikub._errors import IllegalMoveError  # noqa: E402
from rummikub.legality import check_turn  # noqa: E402
from rummikub.meld import Meld  # noqa: E402
from rummikub.search import plays, solve  # noqa: E402

TINY = RuleSet(name="tiny", numbers=6, colours=4, copies=2, jokers=2, rack_size=5)


def tiny_positions(seed: int, count: int) -> list[Position]:
    out = []
    for i in range(seed * 1_000_000, seed * 1_000_000 + count):
        rng = random.Random(i)
        rules = TINY.replace(joker_retrieval=rng.choice(["replace", "replace_from_rack", "free"]),
                             opening_threshold=rng.choice([0, 9, 9, 12]),
                             extend_after_opening=rng.random() < 0.5, joker_in_opening=rng.random() < 0.7)
        pair = rng.random() < 0.25  # a group holding both jokers (make_position puts one joker per set)
        table_jokers = 0 if pair else rng.choice([0, 1, 1, 2, 2])
        rack_jokers = 0 if pair else min(rng.choice([0, 0, 1, 2]), 2 - table_jokers)
        try:
            pos = make_position(i, rules, table_tiles=(0, 6) if pair else (3, 9),
                                rack_size=rng.choice([2, 3, 4, 5]), table_jokers=table_jokers,
                                rack_jokers=rack_jokers, opened=rng.random() < 0.5, objective="tiles",
                                label=f"tiny-{i}")
        except RuntimeError:
            continue
        if pair:
            number = rng.randint(1, rules.numbers)
            colours = rng.sample(range(rules.colours), rng.choice([1, 2]))
            group = Meld.group(number, colours, jokers=2, rules=rules)
            table = Table(list(pos.table) + [group])
            if any(k > rules.copies for t, k in Counter((table.tiles() + pos.rack).tiles()).items()
                   if not t.is_joker):
                continue
            pos = dataclasses.replace(pos, table=table)
        out.append(pos)
    return out


def _meld_of(cm: O.CMeld, rules: RuleSet) -> Meld:
    if cm.kind == "run":
        tiles = sorted(cm.real + cm.slots)
        colour, start = tiles[0][0], tiles[0][1]
        return Meld.run(colour, start, len(tiles), jokers=[k for k, t in enumerate(tiles) if t in cm.slots],
                        rules=rules)
    return Meld.group(cm.real[0][1], [c for c, _ in cm.real], jokers=len(cm.slots), rules=rules)


def random_afters(pos: Position, rng: random.Random, tries: int) -> list[Table]:
    """Tables made of the position's table tiles and a random part of its rack, split at random into valid
    sets (each a random concrete reading): legal turns and illegal ones alike."""
    R = O.rules_of(pos.rules)
    table, rack = O.counts_of(pos.table.tiles()), O.counts_of(pos.rack)
    out: list[Table] = []
    for _ in range(tries):
        part = Counter({t: rng.randint(0, k) for t, k in rack.items()})
        avail = +(table + part)
        melds = O.enumerate_melds(R, avail, avail[O.JK], colour_matters=None)
        left, chosen = Counter(avail), []
        while +left:
            fits = [cm for cm in melds if not (Counter(cm.real) + Counter({O.JK: len(cm.slots)})) - left]
            if not fits:
                break
            cm = rng.choice(fits)
            chosen.append(cm)
            left -= Counter(cm.real) + Counter({O.JK: len(cm.slots)})
        if not +left and chosen:
            out.append(Table([_meld_of(cm, pos.rules) for cm in chosen]))
    return out


def brute_check(pos: Position, rng: random.Random) -> tuple[str | None, int]:
    """None when everything agrees on ``pos`` (else the disagreement), and the number of turns compared."""
    inst = O.instance(pos.table, pos.rack, pos.rules, pos.opened)
    kw = {"rules": pos.rules, "opened": pos.opened}
    listed = set()
    for play in plays(pos.table, pos.rack, **kw):
        listed.add(play.tiles)
        try:
            check_turn(pos.table, pos.rack, play.table, **kw)
        except IllegalMoveError as exc:
            return f"check_turn rejects plays()'s {play.table}: {exc}", 0
        try:
            O.check_play(inst, O.counts_of(play.tiles), O.melds_of(play.table))
        except O.Illegal as exc:
            return f"the oracle rejects plays()'s {play.table}: {exc}", 0
    feasible = {TileSet([O.fmt(t) for t in sub.elements()]) for sub in O.sub_multisets(inst.rack)
                if O.feasible(inst, sub)}
    if feasible != listed:
        return f"plays() lists {sorted(map(str, listed))}, the oracle {sorted(map(str, feasible))}", 0
    best = solve(pos.table, pos.rack, **kw)
    if (best is None) != (not feasible):
        return f"solve gives {best}, the oracle finds {len(feasible)} placeable multisets", 0
    compared = len(listed)
    for after in random_afters(pos, rng, 12):
        try:
            check_turn(pos.table, pos.rack, after, **kw)
            ours = None
        except IllegalMoveError as exc:
            ours = exc.reason
        try:
            O.check_play(inst, O.counts_of(after.tiles() - pos.table.tiles()), O.melds_of(after))
            theirs = None
        except O.Illegal as exc:
            theirs = str(exc)
        except ValueError:  # no rack tile, or tiles the oracle's re-checker does not take: both must refuse
            theirs = "refused"
        if (ours is None) != (theirs is None):
            return f"{pos.table} -> {after} (rack {pos.rack}): check_turn {ours or 'accepts'}, " \
                   f"oracle {theirs or 'accepts'}", compared
        compared += 1
    return None, compared


CHUNK = int(os.environ.get("RUMMIKUB_BRUTE_CHUNK", "1000"))


def _run(seed: int, count: int) -> int:
    compared = 0
    problems = []
    for pos in tiny_positions(seed, count):
        problem, n = brute_check(pos, random.Random(pos.label))
        compared += n
        if problem:
            problems.append(f"{pos.label} ({pos.rules.joker_retrieval}, opened={pos.opened}, threshold="
                            f"{pos.rules.opening_threshold}, extend={pos.rules.extend_after_opening}): {problem}")
    assert not problems, "\n".join(problems[:10])
    return compared


def test_joker_brute_force_fast() -> None:
    assert _run(0, 40) > 40


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(1, 6))
def test_joker_brute_force(chunk: int) -> None:
    assert _run(chunk, CHUNK) > CHUNK
