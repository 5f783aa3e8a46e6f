"""Seeded, reproducible search positions shared by the tests and the benchmarks.

A position is a table built from random valid sets (some holding jokers) and a rack drawn from the
tiles left over, under some rule set. The same arguments always give the same position.

>>> from tests.helpers.positions import make_position
>>> from rummikub import RuleSet
>>> p = make_position(7, RuleSet(), table_tiles=(20, 29), rack_size=14, table_jokers=1)
>>> 20 <= len(p.table.tiles()) <= 29 and len(p.rack) == 14 and p.table.tiles().jokers == 1
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterator

from rummikub import Colour, Meld, RuleSet, Table, Tile, TileSet

__all__ = ["Position", "make_position", "position_stream", "joker_stream", "CLASSES", "class_positions", "ODD_RULES"]


@dataclass(frozen=True)
class Position:
    """One search problem: rules, table, rack, whether the player opened, the objective, and a label."""

    rules: RuleSet
    table: Table
    rack: TileSet
    opened: bool = True
    objective: str = "tiles"
    label: str = ""
    seed: int = 0
    tags: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        r = self.rules
        return (f"[{self.label} seed={self.seed}] rules(n={r.numbers} c={r.colours} copies={r.copies} "
                f"j={r.jokers} min_len={r.min_len} thr={r.opening_threshold} jio={r.joker_in_opening} "
                f"extend={r.extend_after_opening} {r.joker_retrieval}) opened={self.opened} "
                f"objective={self.objective}\n  table: {self.table}\n  rack:  {self.rack}")


def _random_meld(rng: random.Random, rules: RuleSet, pool: dict[Tile, int], max_tiles: int,
                 want_joker: bool) -> list[Tile] | None:
    """Tiles (in slot order) of a random valid meld whose numbered tiles are all in ``pool``."""
    n, c, m = rules.numbers, rules.colours, rules.min_len
    for _ in range(40):
        if c >= max(3, m) and rng.random() < 0.4:
            size = rng.randint(max(3, m), c)  # groups: max(3, min_len)..colours tiles
            if size > max_tiles:
                continue
            number = rng.randint(1, n)
            colours = rng.sample(range(c), size)
            tiles = [Tile(Colour(k), number) for k in sorted(colours)]
        else:
            hi = min(n, m + 3, max_tiles)
            if hi < m:
                continue
            length = rng.choice([k for k in range(m, hi + 1) for _ in range(hi + 2 - k)])
            start = rng.randint(1, n - length + 1)
            colour = Colour(rng.randrange(c))
            tiles = [Tile(colour, start + i) for i in range(length)]
        if want_joker:
            slot = rng.randrange(len(tiles))
            tiles = tiles[:slot] + [Tile.joker()] + tiles[slot + 1:]
        need: dict[Tile, int] = {}
        for t in tiles:
            if not t.is_joker:
                need[t] = need.get(t, 0) + 1
        if all(pool.get(t, 0) >= k for t, k in need.items()) and (not want_joker or pool[Tile.joker()] > 0):
            return tiles
    return None


def make_position(seed: int, rules: RuleSet, *, table_tiles: tuple[int, int] = (0, 0), rack_size: int = 14,
                  table_jokers: int = 0, rack_jokers: int | None = None, opened: bool = True,
                  objective: str = "tiles", label: str = "") -> Position:
    """A reproducible position: a table of ``table_tiles[0]..table_tiles[1]`` tiles in random valid sets,
    ``table_jokers`` of them jokers (each in its own set), and a rack of ``rack_size`` tiles drawn from the
    rest; ``rack_jokers`` (None: whatever the draw gives) forces the number of jokers on the rack."""
    rng = random.Random(f"{seed}/{label}/{table_tiles}/{rack_size}/{table_jokers}/{rack_jokers}")
    lo, hi = table_tiles
    for _attempt in range(200):
        pool = {t: rules.copies for t in TileSet.full(rules) if not t.is_joker}
        pool[Tile.joker()] = rules.jokers
        melds: list[Meld] = []
        size, jokers_left = 0, table_jokers
        target = rng.randint(lo, hi) if hi > 0 else 0
        fails = 0
        while size < target and fails < 30:
            want_joker = jokers_left > 0 and (rng.random() < 0.5 or target - size < 9)
            tiles = _random_meld(rng, rules, pool, hi - size, want_joker)
            if tiles is None:
                fails += 1
                continue
            for t in tiles:
                pool[t] -= 1
            jokers_left -= want_joker
            melds.append(Meld(tiles, rules))
            size += len(tiles)
        if not lo <= size <= hi or jokers_left > 0:
            continue
        numbered = [t for t, k in pool.items() if not t.is_joker for _ in range(k)]
        free_jokers = pool[Tile.joker()]
        if rack_jokers is None:
            bag = numbered + [Tile.joker()] * free_jokers
            rng.shuffle(bag)
            rack = bag[:rack_size]
        else:
            if rack_jokers > free_jokers or rack_jokers > rack_size:
                raise ValueError(f"cannot put {rack_jokers} jokers on the rack: {free_jokers} left")
            rng.shuffle(numbered)
            rack = numbered[:rack_size - rack_jokers] + [Tile.joker()] * rack_jokers
        if len(rack) < rack_size:
            continue
        table = Table(melds)
        return Position(rules, table, TileSet(rack), opened, objective, label, seed)
    raise RuntimeError(f"could not build a table of {table_tiles} tiles with {table_jokers} jokers "
                       f"under {rules.name} (seed {seed})")


# Benchmark classes of issue 3: table sizes (inclusive), whether the player opened.
CLASSES: dict[str, tuple[tuple[int, int], bool]] = {
    "small": ((20, 29), True),
    "medium": ((30, 39), True),
    "large": ((40, 50), True),
    "openings": ((0, 0), False),
}


def class_positions(name: str, count: int, *, rules: RuleSet | None = None, base_seed: int = 0) -> list[Position]:
    """``count`` benchmark positions of class ``name`` (see :data:`CLASSES`); every third table holds a
    joker, racks are 14 tiles from the rest."""
    rules = rules or RuleSet()
    (lo, hi), opened = CLASSES[name]
    out = []
    for i in range(count):
        seed = base_seed + i
        jokers = 1 if (hi > 0 and i % 3 == 2) else 0
        out.append(make_position(seed, rules, table_tiles=(lo, hi), table_jokers=jokers, opened=opened,
                                 label=name))
    return out


ODD_RULES: dict[str, RuleSet] = {
    "numbers10": RuleSet().replace(name="numbers10", numbers=10),
    "colours3": RuleSet().replace(name="colours3", colours=3, max_players=3),
    "copies1": RuleSet().replace(name="copies1", copies=1, max_players=3),
    "minlen4": RuleSet().replace(name="minlen4", min_len=4),
}


def position_stream(seed: int, count: int) -> Iterator[Position]:
    """A varied stream of positions for the oracle cross-check (sizes, jokers, rule variants, objectives)."""
    rng = random.Random(seed)
    base = [RuleSet.preset("standard"), RuleSet.preset("digital"), RuleSet.preset("sabra"),
            RuleSet.preset("large")] + list(ODD_RULES.values())
    sizes = [(0, 0)] * 2 + [(3, 12)] * 3 + [(13, 25)] * 3 + [(26, 40)] * 2 + [(41, 60)]
    for i in range(count):
        rules = rng.choice(base)
        rules = rules.replace(
            joker_retrieval=rng.choice(["replace", "replace_from_rack", "free"]),
            extend_after_opening=rng.random() < 0.5,
            joker_in_opening=rng.random() < 0.7,
        )
        if rng.random() < 0.1:
            rules = rules.replace(opening_threshold=rng.choice([0, 10, 20]))
        size = rng.choice(sizes)
        if rules.copies == 1 and size[1] > 40:
            size = (26, 40)
        max_j = rules.jokers
        table_jokers = 0 if size[1] == 0 else min(rng.choice([0, 0, 0, 1, 1, 1, 2, 2, 3, 4]), max_j)
        rack_jokers = min(rng.choice([0, 0, 1, 1, 2]), max_j - table_jokers)
        rack_size = rng.choice([4, 6, 8, 10, 14])
        opened = size[1] > 0 and rng.random() < 0.75
        objective = rng.choice(["tiles", "value", "penalty"])
        try:
            yield make_position(seed * 100003 + i, rules, table_tiles=size, rack_size=rack_size,
                                table_jokers=table_jokers, rack_jokers=rack_jokers, opened=opened,
                                objective=objective, label=f"stream{seed}-{i}")
        except RuntimeError:
            yield make_position(seed * 100003 + i, rules, table_tiles=(3, 12), rack_size=rack_size,
                                table_jokers=min(table_jokers, 1), rack_jokers=rack_jokers, opened=opened,
                                objective=objective, label=f"stream{seed}-{i}b")


def joker_stream(seed: int, count: int) -> Iterator[Position]:
    """Joker-heavy positions for the oracle cross-check: 0-2 jokers on the table and 0-2 on the rack (mostly
    1-2 each), every policy and objective, openings with and without extension, under the standard, digital,
    sabra, large and min_len=4 rules. The search's joker pruning (lead runs, joker lookahead, the order of
    the stay/retrieve options) is checked here hardest."""
    bases = [RuleSet.preset("standard"), RuleSet.preset("digital"), RuleSet.preset("sabra"),
             RuleSet.preset("large"), ODD_RULES["minlen4"]]
    for i in range(seed * 100_000, seed * 100_000 + count):
        rng = random.Random(i)
        rules = rng.choice(bases).replace(joker_retrieval=rng.choice(["replace", "replace_from_rack", "free"]),
                                          extend_after_opening=rng.random() < 0.5,
                                          joker_in_opening=rng.random() < 0.7)
        table_jokers = rng.choice([1, 1, 2, 2, 0])
        rack_jokers = min(rng.choice([1, 1, 2, 0]), rules.jokers - table_jokers)
        size = rng.choice([(3, 12), (13, 25), (26, 40)])
        try:
            yield make_position(i * 7 + 3, rules, table_tiles=size, rack_size=rng.choice([6, 10, 14]),
                                table_jokers=table_jokers, rack_jokers=rack_jokers, opened=rng.random() < 0.8,
                                objective=rng.choice(["tiles", "value", "penalty"]), label=f"jokers{seed}-{i}")
        except RuntimeError:
            continue
