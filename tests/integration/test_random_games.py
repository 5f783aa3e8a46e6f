"""Random play: complete games over every preset, played by random legal moves through the real game API.

After every turn: every tile is accounted for, the table is valid, and a refused commit changed nothing.
After every game: the scores sum to zero and replaying the record gives the identical final state.
Every legal move comes from the search's ``plays`` and is committed through ``check_turn`` (so the two
independent implementations of the rules are cross-checked on every turn).

The number of games is ``RUMMIKUB_RANDOM_GAMES`` (default: a quick sample). The ``slow`` test plays
``RUMMIKUB_RANDOM_TURNS_SLOW`` turns in all (default 1,000,000, every preset in turn, the invariants checked
after each) in 20 chunks, selectable one at a time (``-m slow -k "test_random_turns_slow[3]"``). It runs at
about 450 turns per second of CPU time, so a chunk takes about two minutes of one core and the whole run about
40 minutes (longer on a shared machine). ``python -m tests.integration.test_random_games --turns N`` plays a
sample.
Golden transcripts (a few seeded games per preset) live in tests/data/golden/ and are replayed here;
regenerate them with ``PYTHONPATH=python python -m tests.integration.test_random_games --golden``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

from rummikub import (
    Action,
    SearchLimitError,
    Game,
    Meld,
    IllegalMoveError,
    InvalidRecordError,
    RuleSet,
    Table,
    TileSet,
    TurnTimeoutError,
)
from rummikub.game import table_to_text
from rummikub.legality import check_meld
from rummikub.rules import PRESETS as _PRESETS

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
PRESETS = list(_PRESETS)  # every preset the package ships

_search_plays: Any = None
_search_solve: Any = None
if os.environ.get("RUMMIKUB_RANDOM_MOVER", "search") == "search":
    try:
        from rummikub.search import plays as _search_plays
        from rummikub.search import solve as _search_solve
    except ImportError:  # pragma: no cover - before the search exists
        pass


class FakeClock:
    """An injectable clock: tests move time by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _stand_in_plays(game: Game, openings: bool = True) -> list[Table]:
    """Without the search: rack-only sets (the best opening) and single tiles added to a set's end."""
    from rummikub.legality import best_opening

    rack, table, rules = game.rack(game.current_player), game.table, game.rules
    out = []
    value, melds = best_opening(rack, rules) if openings else (0, [])
    opened = game.opened(game.current_player)
    if melds and (opened or value >= rules.opening_threshold) and (
            opened or rules.joker_in_opening or not any(m.jokers for m in melds)):
        out.append(Table(list(table) + melds))
    if game.opened(game.current_player) and len(table):
        pairs = [(i, tile) for i in range(len(table)) for tile in set(rack)]
        random.Random(len(pairs) * 31 + len(rack)).shuffle(pairs)
        for i, tile in pairs[:40]:
            meld = table[i]
            if True:
                for tiles in ((tile, *meld.tiles), (*meld.tiles, tile)):
                    try:
                        new = Meld(tiles, rules)
                    except ValueError:
                        continue
                    if new.jokers and set(new.stands_for) != set(meld.stands_for):
                        continue  # the joker would move: not a simple addition
                    out.append(Table([*table[:i], new, *table[i + 1:]]))
    return out


STATS: Counter[str] = Counter()


@contextlib.contextmanager
def _memory_cap(limit: int = 3 << 30) -> Iterator[None]:
    """Caps the address space (``limit`` bytes beyond what is mapped now) while the search runs, so a blow-up
    is a MemoryError, not a machine-wide out-of-memory kill."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:  # the cap is on top of what the process already maps
        with open("/proc/self/statm") as statm:
            limit += int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:  # pragma: no cover - no /proc
        pass
    cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft != resource.RLIM_INFINITY:
        cap = min(cap, soft)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def legal_tables(game: Game, rng: random.Random) -> list[Table]:
    """Candidate legal plays for the random mover.

    With the search: now and then every legal play (``plays``, for a uniformly random one), usually the best
    play for a random objective (``solve``) plus single-tile additions; without it, the stand-in moves.
    Each is committed through the game, so ``check_turn`` re-checks the search on every move."""
    if _search_plays is None:
        return _stand_in_plays(game)
    p = game.current_player
    rack, opened = game.rack(p), game.opened(p)
    if rng.random() < 0.04 and len(rack) <= 12:
        try:
            with _memory_cap(3 << 29):
                found = [play.table for play in _search_plays(game.table, rack, rules=game.rules, opened=opened)]
        except (MemoryError, SearchLimitError):  # a position past the enumeration's limit: counted, not hidden
            STATS["plays_memory_error"] += 1
        else:
            STATS["plays_calls"] += 1
            STATS["plays_found"] += len(found)
            return found
    objective = rng.choice(["tiles", "value", "penalty"])
    try:
        with _memory_cap(3 << 29):
            best = _search_solve(game.table, rack, rules=game.rules, opened=opened, objective=objective)
    except (MemoryError, SearchLimitError):  # rare 160-tile positions past the search's limit: reported, not hidden
        STATS["solve_memory_error"] += 1
        # No stand-in opening here: these racks are large, and the exhaustive Python opening search is
        # exponential in the rack (it once ran for over 10 minutes on one).
        return _stand_in_plays(game, openings=False)
    STATS["solve_calls"] += 1
    out = [best.table] if best is not None else []
    if opened and rng.random() < 0.5:
        out += _stand_in_plays(game, openings=False)
    return out


def check_invariants(game: Game) -> None:
    rules = game.rules
    everything = game.table.tiles() | TileSet(game._pool)
    for p in range(game.players):
        everything = everything | game.rack(p)
    assert everything == TileSet.full(rules), "tiles are not all accounted for"
    for meld in game.table:
        assert check_meld(meld, rules) is None, f"invalid set on the table: {meld}"
    assert sum(game.rack_sizes()) + len(game.table.tiles()) + game.pool_size == rules.tile_count


def try_illegal(game: Game, rng: random.Random) -> None:
    """Attempts a refused move and checks it changed nothing."""
    p = game.current_player
    rack = game.rack(p)
    kind = rng.randrange(4)
    if kind == 1 and rack:  # a loose rack tile in the draft
        game.draft.place(rng.choice(list(rack)))
    before = game._snapshot()
    try:
        if kind == 1 and rack:
            expected = {"loose_tile"}
            game.commit()
        elif kind == 2 and len(game.table):  # a table set back to the rack
            expected = {"table_tile_removed", "joker_kept"}
            game.apply(Action.play(Table(list(game.table)[1:])))
        elif kind == 3:  # a set holding a tile that is not in the rack
            number = rng.randrange(1, game.rules.numbers + 1)
            meld = Meld.group(number, [0, 1, 2], rules=game.rules)
            if meld.tileset() <= rack:
                meld = Meld.group(number, [0, 1, 2, 3][: game.rules.colours], rules=game.rules)
            expected = {"not_in_rack"} if not meld.tileset() <= rack else {"not_in_rack", "opening_too_low"}
            game.apply(Action.play(Table([*game.table, meld])))
        else:  # rearranging without a rack tile (or changing nothing)
            expected = {"no_rack_tile"}
            game.apply(Action.play(Table(list(reversed(game.table)))))
    except IllegalMoveError as exc:
        assert exc.reason in expected, (exc.reason, str(exc))
    else:
        if expected != {"not_in_rack", "opening_too_low"}:
            raise AssertionError("an illegal move was accepted")
        return
    assert game._snapshot() == before, "a refused move changed the game"
    if game.draft.started:
        game.draft.reset()


def play_random_game(preset: str, players: int, seed: int, *, illegal_rate: float = 0.05,
                     timeout_rate: float = 0.03, draft_rate: float = 0.2, play_rate: float | None = None) -> Game:
    rng = random.Random(seed * 7919 + players)
    rate = rng.choice([0.9, 0.9, 0.5, 0.25])  # some games dawdle until the pool runs out
    play_rate = rate if play_rate is None else play_rate
    clock = FakeClock()
    game = Game.new(players, preset=preset, seed=seed, clock=clock)
    rules = game.rules
    check_invariants(game)
    while not game.is_over:
        if rules.turn_seconds and rng.random() < timeout_rate:
            if rng.random() < 0.5 and len(game.rack(game.current_player)):
                game.draft.place(rng.choice(list(game.rack(game.current_player))))
            clock.now += rules.turn_seconds + 1
            if rng.random() < 0.5:  # an action after the deadline is refused and changes nothing
                before = game._snapshot()
                with pytest.raises(TurnTimeoutError):
                    game.apply(Action.draw() if game.pool_size else Action.pass_())
                assert game._snapshot() == before
            assert game.advance_clock() is not None
            check_invariants(game)
            continue
        if rng.random() < illegal_rate:
            try_illegal(game, rng)
        options = legal_tables(game, rng)
        if options and (rng.random() < play_rate or not game.pool_size and rng.random() < 0.5):
            target = rng.choice(options)
            mover = game.current_player
            rack_before = game.rack(mover)
            if rng.random() < draft_rate and build_in_draft(game, target):
                assert game.draft.legal, game.draft.problems()
                if rng.random() < 0.3:  # undo everything, redo everything
                    steps = 0
                    while game.draft.can_undo:
                        game.draft.undo()
                        steps += 1
                    assert not game.draft.started
                    for _ in range(steps):
                        game.draft.redo()
                game.commit()
            else:
                if game.draft.started:
                    game.draft.reset()
                game.apply(Action.play(target))
            played = TileSet.parse(game.history()[-1]["played"])
            assert game.table == target and played <= rack_before
            assert game.rack(mover) == rack_before - played and game.opened(mover)
        elif game.pool_size:
            game.apply(Action.draw())
        else:
            game.apply(Action.pass_())
        clock.now += 1
        check_invariants(game)
    outcome = game.outcome
    assert outcome is not None
    assert sum(outcome.scores) == 0
    replayed = Game.from_json(game.to_json())
    assert replayed._snapshot()[:-2] == game._snapshot()[:-2]
    assert replayed.to_json() == game.to_json()
    return game


def build_in_draft(game: Game, target: Table) -> bool:
    """Builds ``target`` in the draft by edits, like a UI would: each target set is built as the last set of
    the draft from rack tiles and from tiles moved out of the old sets (which disappear once empty).
    Returns True when the draft then reads as ``target``."""
    draft = game.draft
    old = list(draft.ids)  # the old sets come first; target sets are built after them
    to_place = Counter(target.tiles() - game.table.tiles())
    for meld in target:
        where: str | None = None  # None: the first tile starts a new set at the end
        for tile in meld.tiles:
            if to_place[tile] > 0:
                to_place[tile] -= 1
                where = draft.place(tile, where)
            else:
                source = next(i for i in old if tile in draft[i])
                if len(draft[source]) == 1:
                    old.remove(source)  # emptied: it disappears
                where = draft.move(tile, source, where)
        assert draft.ids[-1] == where
    assert not old and draft.rack == game.rack(game.current_player) - (target.tiles() - game.table.tiles())
    return draft.valid and draft.to_table() == target


def quick_count() -> int:
    return int(os.environ.get("RUMMIKUB_RANDOM_GAMES", "40"))


def _case(i: int) -> tuple[str, int, int]:
    """(preset, players, seed) of game ``i``: the presets in turn, 2..4 players (2..6 with large)."""
    preset = PRESETS[i % len(PRESETS)]
    top = 6 if preset == "large" else 4
    return preset, 2 + (i // len(PRESETS)) % (top - 1), i


def _games(count: int | None, offset: int) -> Iterator[tuple[str, int, int]]:
    i = offset
    while count is None or i < offset + count:
        yield _case(i)
        i += 1


def run_games(count: int | None, offset: int = 0, *, turns: int | None = None) -> dict[str, Any]:
    """Plays ``count`` random games, or with ``turns``, games until that many turns have been played; returns
    counts by preset and termination, and the time taken."""
    start = time.perf_counter()
    ended: Counter[str] = Counter()
    presets: Counter[str] = Counter()
    played = 0
    games = 0
    for preset, players, seed in _games(count, offset):
        if turns is not None and played >= turns:
            break
        game = play_random_game(preset, players, seed)
        assert game.outcome is not None
        ended[game.outcome.termination.value] += 1
        presets[f"{preset}/{players}"] += 1
        played += game.turn
        games += 1
    return {"games": games, "turns": played, "seconds": round(time.perf_counter() - start, 1),
            "terminations": dict(ended), "by_preset": dict(sorted(presets.items())), "search": dict(STATS)}


def test_random_games_quick() -> None:
    summary = run_games(quick_count())
    assert summary["games"] == quick_count()
    print(json.dumps(summary))


SLOW_CHUNKS = 20


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(SLOW_CHUNKS))
def test_random_turns_slow(chunk: int) -> None:
    """One twentieth of ``RUMMIKUB_RANDOM_TURNS_SLOW`` random turns (1,000,000 by default) over every preset."""
    total = int(os.environ.get("RUMMIKUB_RANDOM_TURNS_SLOW", "1000000"))
    target = -(-total // SLOW_CHUNKS)
    summary = run_games(None, offset=100_000 + chunk * 100_000, turns=target)
    assert summary["turns"] >= target
    assert {p.split("/")[0] for p in summary["by_preset"]} == set(PRESETS) or summary["games"] < len(PRESETS)
    if summary["games"] >= 500:  # dawdling games run the pool out: both endings are exercised
        assert set(summary["terminations"]) == {"rummikub", "pool_exhausted"}, summary["terminations"]
    print(json.dumps(summary))


# --- golden transcripts -----------------------------------------------------------------------------------

GOLDEN_CASES = [(preset, players, seed, None) for preset in PRESETS
                for players, seed in ((2, 1), (4, 2), (6 if preset == "large" else 3, 3))]
GOLDEN_CASES += [("pressman-2015", 3, 4, 0.02), ("sabra", 2, 5, 0.02)]  # dawdlers: the pool runs out


def _final_state(game: Game) -> dict[str, Any]:
    return {"racks": [str(game.rack(p)) for p in range(game.players)], "table": table_to_text(game.table),
            "pool_size": game.pool_size, "turn": game.turn,
            "outcome": game.outcome.to_dict() if game.outcome else None}


def _golden_path(preset: str, players: int, seed: int, rate: float | None) -> Path:
    return GOLDEN / f"{preset}-{players}p-seed{seed}{'-rate' + str(rate) if rate is not None else ''}.json"


def write_golden() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for preset, players, seed, rate in GOLDEN_CASES:
        game = play_random_game(preset, players, seed, play_rate=rate)
        data = {"record": game.record, "final": _final_state(game)}
        _golden_path(preset, players, seed, rate).write_text(json.dumps(data, indent=1) + "\n")


@pytest.mark.parametrize("preset, players, seed, rate", GOLDEN_CASES)
def test_golden_transcripts(preset: str, players: int, seed: int, rate: float | None) -> None:
    path = _golden_path(preset, players, seed, rate)
    if not path.exists():
        pytest.skip(f"{path.name} missing: run PYTHONPATH=python python -m tests.integration.test_random_games --golden")
    data = json.loads(path.read_text())
    game = Game.from_record(data["record"])
    assert _final_state(game) == data["final"]
    assert game.record == data["record"]
    # the same game as a version 1 record (no deadline) still replays
    old = dict(data["record"], format="rummikub-game/1")
    del old["deadline"]
    assert Game.from_record(old).record == data["record"]
    # the same seed still deals the same game
    assert Game.new(players, preset=preset, seed=seed, clock=FakeClock()).record["deal"] == data["record"]["deal"]
    # a transcript with one event removed no longer replays
    broken = json.loads(json.dumps(data["record"]))
    del broken["events"][len(broken["events"]) // 2]
    with pytest.raises(InvalidRecordError):
        Game.from_record(broken)


if __name__ == "__main__":
    if "--golden" in sys.argv:
        write_golden()
    elif "--turns" in sys.argv:  # a sample of the slow mode: python -m tests.integration.test_random_games --turns N
        print(json.dumps(run_games(None, offset=100_000, turns=int(sys.argv[sys.argv.index("--turns") + 1]))))
    else:
        print(json.dumps(run_games(int(sys.argv[1]) if len(sys.argv) > 1 else quick_count())))
