"""Cross-checks of the exact search against the independent MILP oracle (tests/helpers/oracle.py).

The fast tests run in CI; ``-m slow`` runs the full cross-check of issue 3 (>= 5,000 positions). Every play
the search returns is re-checked twice: by the oracle's own re-checker (which also computes the play's key)
and by ``rummikub.legality.check_turn``.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("scipy.optimize")

from tests.helpers import oracle as O  # noqa: E402
from tests.helpers.positions import ODD_RULES, Position, joker_stream, make_position, position_stream  # noqa: E402
from tests.helpers.verdicts import assert_arrange_agrees  # noqa: E402

from rummikub import RuleSet, Table, TileSet  # noqa: E402
from rummikub.legality import check_turn  # noqa: E402
from rummikub.search import plays, solve  # noqa: E402


def categories(pos: Position) -> set[str]:
    """The coverage categories of the issue a position falls in."""
    r = pos.rules
    n = len(pos.table.tiles())
    size = "empty" if n == 0 else "small" if n <= 12 else "medium" if n <= 25 else "large" if n <= 40 else "full"
    out = {f"table:{size}", f"table_jokers:{min(pos.table.tiles().jokers, 2)}", f"rack_jokers:{min(pos.rack.jokers, 2)}",
           f"objective:{pos.objective}", f"policy:{r.joker_retrieval}"}
    opening = not pos.opened and r.opening_threshold > 0
    if opening:
        out.add("opening")
        out.add(f"opening:extend={r.extend_after_opening}")
        out.add(f"opening:joker_in_opening={r.joker_in_opening}")
    else:
        out.add("opened")
    if r.copies == 3 and r.jokers == 4:
        out.add("set:160")
        out.add(f"set:160:jokers={pos.table.tiles().jokers + pos.rack.jokers}")
    for name, odd in ODD_RULES.items():
        if (r.numbers, r.colours, r.copies, r.min_len) == (odd.numbers, odd.colours, odd.copies, odd.min_len):
            out.add(f"rules:{name}")
    return out


REQUIRED = (["table:empty", "table:small", "table:medium", "table:large", "table:full"]
            + [f"{w}_jokers:{k}" for w in ("table", "rack") for k in range(3)]
            + [f"objective:{o}" for o in ("tiles", "value", "penalty")]
            + [f"policy:{p}" for p in ("free", "replace", "replace_from_rack")]
            + ["opening", "opening:extend=True", "opening:extend=False", "opening:joker_in_opening=True",
               "opening:joker_in_opening=False", "set:160", "set:160:jokers=4"]
            + [f"rules:{name}" for name in ODD_RULES])


def cross_check(pos: Position) -> str | None:
    """None when the search agrees with the oracle on this position, else a description of the problem.
    Raises O.OracleTimeout when the oracle's integer program ran out of time."""
    inst = O.instance(pos.table, pos.rack, pos.rules, pos.opened)
    want = O.optimum(inst, pos.objective)
    play = solve(pos.table, pos.rack, rules=pos.rules, opened=pos.opened, objective=pos.objective)
    if play is None:
        return None if want is None else f"search found no play; oracle's best key is {want}"
    P = O.counts_of(play.tiles)
    try:
        got = O.check_play(inst, P, O.melds_of(play.table), pos.objective)
    except O.Illegal as exc:
        return f"oracle re-check rejects {play}: {exc}"
    try:
        placed = check_turn(pos.table, pos.rack, play.table, rules=pos.rules, opened=pos.opened)
    except ValueError as exc:
        return f"check_turn rejects {play}: {exc}"
    if placed != play.tiles:
        return f"check_turn says {placed} were placed, the play says {play.tiles}"
    if want is None:
        return f"search found {play} (key {got}); the oracle says there is no legal play"
    if got != want:
        return f"search's play has key {got}, the oracle's optimum is {want}: {play}"
    return None


def run_stream(seed: int, count: int, budget_timeouts: float = 0.01, stream: Any = position_stream
               ) -> tuple[Counter[str], float]:
    failures: list[str] = []
    seen: Counter[str] = Counter()
    timeouts: list[str] = []
    start = time.perf_counter()
    for pos in stream(seed, count):
        try:
            problem = cross_check(pos)
        except O.OracleTimeout:
            timeouts.append(pos.label)
            continue
        seen.update(categories(pos))
        if problem:
            failures.append(f"{pos}\n  -> {problem}")
    elapsed = time.perf_counter() - start
    assert not failures, f"{len(failures)} disagreements of {count}:\n" + "\n".join(failures[:10])
    assert len(timeouts) <= budget_timeouts * count, f"oracle timed out on {len(timeouts)}: {timeouts[:20]}"
    seen["__timeouts__"] = len(timeouts)
    return seen, elapsed


FAST_COUNT = int(os.environ.get("RUMMIKUB_ORACLE_FAST", "100"))


def test_oracle_agrees_fast() -> None:
    """A CI-sized slice of the stream; the full run is test_oracle_agrees_full."""
    seen, _ = run_stream(seed=11, count=FAST_COUNT, budget_timeouts=0.05)
    assert seen["opening"] and seen["opened"] and seen["policy:replace"] and seen["table_jokers:1"]


FULL_CHUNKS = 50
FULL_CHUNK = 100
_full_seen: Counter[str] = Counter()


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(FULL_CHUNKS))
def test_oracle_agrees_full(chunk: int) -> None:
    """Issue 3: zero disagreements on >= 5,000 generated positions (50 chunks of 100)."""
    seen, elapsed = run_stream(seed=1000 + chunk, count=FULL_CHUNK, budget_timeouts=0.05)
    _full_seen.update(seen)
    print(f"chunk {chunk}: {FULL_CHUNK} positions in {elapsed:.1f} s, {seen['__timeouts__']} oracle timeouts",
          flush=True)


JOKER_CHUNKS = 10


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(JOKER_CHUNKS))
def test_oracle_agrees_jokers(chunk: int) -> None:
    """1,000 joker-heavy positions (1-2 jokers on the table and on the rack, every policy) on top of the
    full run: where the search's joker pruning does its work."""
    seen, elapsed = run_stream(seed=chunk, count=FULL_CHUNK, budget_timeouts=0.1, stream=joker_stream)
    assert seen["table_jokers:2"] and seen["rack_jokers:2"]
    print(f"joker chunk {chunk}: {FULL_CHUNK} positions in {elapsed:.1f} s, {seen['__timeouts__']} oracle timeouts",
          flush=True)


@pytest.mark.slow
def test_oracle_full_covers_every_category() -> None:
    """Runs after the chunks (same module, declared later): every category of the issue was exercised."""
    if not _full_seen:
        pytest.skip("run together with test_oracle_agrees_full")
    missing = [c for c in REQUIRED if not _full_seen[c]]
    assert not missing, f"categories never generated: {missing}"
    print({c: _full_seen[c] for c in sorted(_full_seen)})


def test_stream_covers_every_category() -> None:
    """The generator reaches every category of the issue within the full run's positions."""
    seen: Counter[str] = Counter()
    for chunk in range(FULL_CHUNKS):
        for pos in position_stream(1000 + chunk, FULL_CHUNK):
            seen.update(categories(pos))
    missing = [c for c in REQUIRED if not seen[c]]
    assert not missing, f"categories never generated: {missing}"
    assert sum(1 for c in range(FULL_CHUNKS) for _ in range(FULL_CHUNK)) >= 5000


# --- plays(): the set of P equals the oracle's feasible set --------------------------------------------

def _small_positions() -> list[Position]:
    out = []
    presets = [RuleSet.preset("standard"), RuleSet.preset("digital"), RuleSet.preset("sabra"),
               RuleSet.preset("large"), ODD_RULES["minlen4"]]
    for i in range(30):
        rules = presets[i % len(presets)]
        size = [(0, 0), (3, 9), (6, 14)][i % 3]
        tj = 0 if size == (0, 0) else [0, 1, 1, 2][i % 4]
        out.append(make_position(500 + i, rules, table_tiles=size, rack_size=[4, 5, 6][i % 3], table_jokers=tj,
                                 rack_jokers=min([0, 1, 0][i % 3], rules.jokers - tj), opened=size != (0, 0) and i % 5 != 1,
                                 label="plays"))
    return out


@pytest.mark.parametrize("pos", _small_positions(), ids=lambda p: f"{p.rules.name}-{p.seed}")
def test_plays_equal_oracle_feasible_sets(pos: Position) -> None:
    inst = O.instance(pos.table, pos.rack, pos.rules, pos.opened)
    want = {frozenset(P.items()) for P in O.sub_multisets(inst.rack) if O.feasible(inst, P)}
    listed = list(plays(pos.table, pos.rack, rules=pos.rules, opened=pos.opened))
    got = [frozenset(O.counts_of(p.tiles).items()) for p in listed]
    assert len(got) == len(set(got)), f"plays() repeats a P: {pos}"
    assert set(got) == want, (f"{pos}\n only search: {[dict(s) for s in set(got) - want]}\n"
                              f" only oracle: {[dict(s) for s in want - set(got)]}")
    for p in listed:
        O.check_play(inst, O.counts_of(p.tiles), O.melds_of(p.table))
        assert check_turn(pos.table, pos.rack, p.table, rules=pos.rules, opened=pos.opened) == p.tiles


# --- arrange(): arrangeable exactly when the oracle says so ---------------------------------------------

def _arrange_cases() -> list[tuple[RuleSet, TileSet]]:
    import random
    rng = random.Random(77)
    cases = []
    for i in range(60):
        rules = [RuleSet(), RuleSet.preset("large"), ODD_RULES["colours3"], ODD_RULES["minlen4"]][i % 4]
        pos = make_position(900 + i, rules, table_tiles=(6, 30), table_jokers=i % 3, rack_size=3, label="arr")
        tiles = pos.table.tiles()
        if i % 2:  # perturb: add one or two rack tiles, which often makes it unarrangeable
            extra = rng.sample(pos.rack.tiles(), rng.randint(1, 2))
            tiles = tiles | TileSet(extra)
        cases.append((rules, tiles))
    return cases


@pytest.mark.parametrize("case", _arrange_cases(), ids=lambda c: str(len(c[1])))
def test_arrange_matches_oracle(case: tuple[RuleSet, TileSet]) -> None:
    rules, tiles = case
    assert_arrange_agrees(tiles, rules)


# --- solve_batch (when present): same keys as solve ------------------------------------------------------

def test_solve_batch_matches_solve() -> None:
    from rummikub import search
    if not hasattr(search, "solve_batch"):
        pytest.skip("no solve_batch")
    import numpy as np
    rules = RuleSet.preset("digital")  # batch tables carry no joker assignment: jokers count as free
    poss = [make_position(40 + i, rules, table_tiles=(0, 0) if i % 4 == 0 else (10, 40), table_jokers=i % 2,
                          opened=i % 4 != 0, label="batch") for i in range(24)]
    for objective in ("tiles", "value", "penalty"):
        out: dict[str, Any] = search.solve_batch(np.array([p.table.tiles().to_counts() for p in poss]),
                                                 np.array([p.rack.to_counts() for p in poss]), rules=rules,
                                                 opened=np.array([p.opened for p in poss]), objective=objective)
        for i, p in enumerate(poss):
            one = solve(p.table, p.rack, rules=rules, opened=p.opened, objective=objective)
            assert bool(out["found"][i]) == (one is not None), p
            if one is None:
                continue
            inst = O.instance(p.table, p.rack, rules, p.opened)
            want = O.optimum(inst, objective)
            played = TileSet.from_counts(out["played"][i])
            assert played <= p.rack and len(played) == int(out["tiles"][i])
            n, value = int(out["tiles"][i]), int(out["value"][i])
            got = {"tiles": (n, value), "value": (value, n),
                   "penalty": (played.value(rules.joker_penalty), n)}[objective]
            assert got == want, (str(p), objective, got, want)


def test_retrieved_joker_plays_found_by_the_relaxation() -> None:
    """A position of the slow stream (chunk 2) where the search once missed the optimum by a tile: two table jokers
    under ``replace``, no rack joker, and the best play (six tiles) frees a joker. The retrieval rule's relaxation
    must keep every play that meets the rule, or the option's best is lost."""
    rules = RuleSet(numbers=10, colours=4, copies=2, jokers=2, min_len=3, opening_threshold=30,
                    joker_in_opening=False, extend_after_opening=False, joker_retrieval="replace")
    pos = Position(rules, Table.parse("O1 O2 O3 O4 O5 O6 | K7 B7 O7 | B1 J B3 | K4 J K6 K7 K8 K9 | R3 R4 R5 R6 R7 | "
                                      "K9 B9 O9 R9 | K8 B8 O8", rules),
                   TileSet.parse("K5 K5 B1 B8 B10 O1 R2 R9", rules), label="relaxation")
    assert cross_check(pos) is None
    play = solve(pos.table, pos.rack, rules=rules, opened=True)
    assert play is not None and len(play.tiles) == 6
