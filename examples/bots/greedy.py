#!/usr/bin/env python3
"""A Rummikub bot that speaks the engine protocol using only Python's standard library.

It never imports the ``rummikub`` package: the protocol (docs/protocol.md) is all it needs, so the same bot
could be written in any language. Run it in the arena:

    rummikub arena --players "cmd:python examples/bots/greedy.py",medium --games 4

Strategy: lay new runs and groups made only from its own rack (jokers stay on the rack), the most tiles it
finds greedily; before it has opened, only when those sets reach the opening threshold. Otherwise draw, or
pass when the pool is empty. It never touches the sets on the table, so every play it makes is legal.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

COLOURS = "KBOR"  # black, blue, orange, red: the project's notation


def parse_rack(text: str) -> Counter[tuple[str, int]]:
    """The numbered tiles of a rack in notation ("R1 K13 J"), as (colour letter, number) counts; jokers out."""
    tiles: Counter[tuple[str, int]] = Counter()
    for token in text.split():
        if token.upper() != "J":
            tiles[(token[0].upper(), int(token[1:]))] += 1
    return tiles


def take_runs(tiles: Counter[tuple[str, int]], colours: str, numbers: int, min_len: int) -> list[list[tuple[str, int]]]:
    """Takes runs (one colour, consecutive numbers) from ``tiles``, longest stretches first."""
    sets = []
    found = True
    while found:
        found = False
        for colour in colours:
            n = 1
            while n <= numbers:
                if tiles[(colour, n)] == 0:
                    n += 1
                    continue
                end = n
                while end + 1 <= numbers and tiles[(colour, end + 1)] > 0:
                    end += 1
                if end - n + 1 >= min_len:
                    run = [(colour, k) for k in range(n, end + 1)]
                    for tile in run:
                        tiles[tile] -= 1
                    sets.append(run)
                    found = True
                n = end + 1
    return sets


def take_groups(tiles: Counter[tuple[str, int]], colours: str, numbers: int, min_len: int) -> list[list[tuple[str, int]]]:
    """Takes groups (one number, different colours) from ``tiles``."""
    sets = []
    for n in range(1, numbers + 1):
        while True:
            group = [(colour, n) for colour in colours if tiles[(colour, n)] > 0]
            if len(group) < min_len:
                break
            for tile in group:
                tiles[tile] -= 1
            sets.append(group)
    return sets


def best_sets(rack: Counter[tuple[str, int]], rules: dict) -> list[list[tuple[str, int]]]:
    """New sets from the rack: runs then groups, or groups then runs, whichever places more tiles."""
    colours = COLOURS[: rules["colours"]]
    numbers, min_len = rules["numbers"], rules["min_len"]
    options = []
    for order in ((take_runs, take_groups), (take_groups, take_runs)):
        tiles = Counter(rack)
        sets = []
        for take in order:
            sets += take(tiles, colours, numbers, min_len)
        options.append(sets)
    return max(options, key=lambda sets: (sum(map(len, sets)), sum(n for s in sets for _, n in s)))


def choose(observation: dict) -> dict:
    """The action for an observation (docs/protocol.md): a play with the whole new table, draw or pass."""
    rules = observation["rules"]
    player = observation["player"]
    sets = best_sets(parse_rack(observation["rack"]), rules)
    points = sum(n for s in sets for _, n in s)
    opened = observation["opened"][player]
    if sets and (opened or points >= rules["opening_threshold"]):
        new = " | ".join(" ".join(f"{c}{n}" for c, n in s) for s in sets)
        table = observation["table"]
        return {"kind": "play", "table": f"{table} | {new}" if table else new}
    return {"kind": "draw"} if observation["pool_size"] > 0 else {"kind": "pass"}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> int:
    send({"type": "hello", "protocol": 1, "engine": "greedy", "version": "1", "capabilities": ["turn"]})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            rid, kind = request.get("id"), request.get("type")
        except (ValueError, AttributeError):
            send({"id": None, "type": "error", "code": "bad_json", "message": f"not a JSON object: {line[:80]!r}"})
            continue
        if kind == "turn":
            send({"id": rid, "type": "result", "action": choose(request["observation"])})
        elif kind == "quit":
            send({"id": rid, "type": "result"})
            break
        else:
            send({"id": rid, "type": "error", "code": "unknown_type", "message": f"unknown type {kind!r}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
