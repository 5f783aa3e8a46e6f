"""Input generators and checks shared by the fuzz harnesses: the hypothesis tests in this folder and the atheris
harnesses in ``fuzz/``. Every generator reads its choices from a :class:`Source`, so the same code is driven by
hypothesis (which shrinks a failure), by ``random.Random`` (the extension's subprocess driver) or by atheris's
coverage-guided bytes.

Each ``check_*`` function runs one fuzz case and raises ``AssertionError`` when the package misbehaves: an
exception that is not the documented kind, a refused action that changed the game, a record that loads but
does not round-trip.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from rummikub import (
    Action,
    Game,
    IllegalMoveError,
    Meld,
    RuleSet,
    RummikubError,
    Table,
    Tile,
    TileSet,
)

T = TypeVar("T")

PRESETS = ["standard", "classic", "pressman-2015", "digital", "sabra", "large"]


class Source(Protocol):
    """Where a generator takes its choices from."""

    def integer(self, lo: int, hi: int) -> int:
        """An int in ``lo..hi`` (both included)."""

    def text(self, max_len: int) -> str:
        """Any unicode text of at most ``max_len`` characters."""


class RandomSource:
    """Choices from ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def text(self, max_len: int) -> str:
        n = self.rng.randint(0, max_len)
        return "".join(chr(self.rng.choice((self.rng.randint(32, 126), self.rng.randint(0, 0x2FFF))))
                       for _ in range(n))


class HypothesisSource:
    """Choices drawn from hypothesis's ``st.data()`` (so failures shrink)."""

    def __init__(self, data: Any) -> None:
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def integer(self, lo: int, hi: int) -> int:
        return int(self.data.draw(self.st.integers(lo, hi)))

    def text(self, max_len: int) -> str:
        return str(self.data.draw(self.st.text(max_size=max_len)))


class BytesSource:
    """Choices from atheris's ``FuzzedDataProvider`` (coverage-guided bytes)."""

    def __init__(self, provider: Any) -> None:
        self.fdp = provider

    def integer(self, lo: int, hi: int) -> int:
        return int(self.fdp.ConsumeIntInRange(lo, hi))

    def text(self, max_len: int) -> str:
        return str(self.fdp.ConsumeUnicodeNoSurrogates(max_len))


def pick(src: Source, items: Sequence[T]) -> T:
    return items[src.integer(0, len(items) - 1)]


def chance(src: Source, percent: int) -> bool:
    return src.integer(0, 99) < percent


# ---- notation ------------------------------------------------------------------------------------------------

_FRAGMENTS = ["R", "K", "B", "O", "J", "r", "k", "j", "1", "3", "9", "10", "13", "0", "01", "013", "14", "16", "99",
              " ", " ", " ", "|", " | ", "-", "R1-13", "group:", "\t", "\n", "é", "x", "R10", "KJJ5", "KB7",
              "R1 R2 R3", "K5 B5 O5", "J J", "play ", "draw", "pass", ",", "(", ")", "KBOR3", "+", "1e3", "٣",
              "R١", "Ｒ1", "\x00", "R" + "1" * 30]


def notation(src: Source) -> str:
    """Text near the notation: fragments of tiles, sets, tables and actions; now and then any text."""
    if chance(src, 10):
        return src.text(40)
    return "".join(pick(src, _FRAGMENTS) for _ in range(src.integer(0, 14)))


def check_parsers(text: str, rules: RuleSet) -> None:
    """Every parser reads ``text`` or raises a RummikubError; what reads prints back to the same value."""
    readers: list[tuple[Callable[[str], Any], Callable[[Any], str]]] = [
        (lambda s: Tile.parse(s, rules), str),
        (lambda s: TileSet.parse(s, rules), str),
        (lambda s: Meld.parse(s, rules), str),
        (lambda s: Table.parse(s, rules), str),
        (lambda s: Action.parse(s, rules), str),
    ]
    for read, show in readers:
        try:
            value = read(text)
        except RummikubError as exc:
            assert len(str(exc)) < 1000, f"a {len(str(exc))}-character message"
            continue
        assert read(show(value)) == value, (text, show(value))
    try:
        Action.from_dict({"kind": "play", "table": text}, rules)
    except RummikubError:
        pass
    rack = TileSet.parse("R1 J")
    assert text in rack or text not in rack  # membership answers, never raises (a bool either way)


# ---- records -------------------------------------------------------------------------------------------------

_JUNK: list[Any] = [None, True, False, 0, 1, -1, 2, 2**31, 2**70, 1.5, float("inf"), "", "x", "R1", [], {}, [0],
                    {"a": 1}, "draw", "play", "move", "timeout", "rummikub-game/2", "R1 R2 R3"]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, path + (i,))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


def mutate_record(src: Source, record: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``record`` with one to four random edits: a value replaced (by junk, a neighbouring int, a
    tile string changed), a key deleted, an event dropped, duplicated or moved."""
    out: dict[str, Any] = json.loads(json.dumps(record))
    for _ in range(src.integer(1, 4)):
        events = out.get("events")
        kind = src.integer(0, 5)
        if kind == 0 and isinstance(events, list) and events:
            del events[src.integer(0, len(events) - 1)]
            continue
        if kind == 1 and isinstance(events, list) and events:
            i = src.integer(0, len(events) - 1)
            events.insert(src.integer(0, len(events)), json.loads(json.dumps(events[i])))
            continue
        paths = [p for p in _paths(out) if p]
        if not paths:
            break
        path = pick(src, paths)
        parent, key = _get(out, path[:-1]), path[-1]
        old = parent[key]
        if kind == 2 and isinstance(parent, dict):
            del parent[key]
        elif kind == 3 and isinstance(old, int) and not isinstance(old, bool):
            parent[key] = old + pick(src, [-1, 1, -2**40, 2**40])
        elif kind == 4 and isinstance(old, str) and old:
            pieces = old.split(" ")
            pieces[src.integer(0, len(pieces) - 1)] = pick(src, ["R1", "J", "K13", "O7", "B14", "", "|", "R1 R1"])
            parent[key] = " ".join(pieces)
        else:
            parent[key] = pick(src, _JUNK)
    return out


def check_record(record: dict[str, Any]) -> None:
    """``Game.from_record`` loads the record or raises a RummikubError; a loaded game round-trips."""
    try:
        game = Game.from_record(record)
    except RummikubError as exc:
        assert len(str(exc)) < 2000, f"a {len(str(exc))}-character message"
        return
    text = game.to_json()
    assert Game.from_json(text).to_json() == text
    try:
        Game.from_json(json.dumps(record))
    except RummikubError:  # pragma: no cover - from_record accepted it
        raise AssertionError("from_json refuses what from_record accepts") from None


def sample_record(src: Source) -> dict[str, Any]:
    """The record of a short random game (a few plays, draws, and with a clock, timeouts)."""
    game, _ = random_game(src, turns=src.integer(0, 30))
    return game.record


# ---- games and actions ---------------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def random_game(src: Source, turns: int) -> tuple[Game, FakeClock]:
    """A game of a random preset after ``turns`` turns of best plays (``solve``), draws and timeouts."""
    from rummikub import SearchLimitError, solve

    preset = pick(src, PRESETS)
    rules = RuleSet.preset(preset)
    clock = FakeClock()
    game = Game.new(src.integer(rules.min_players, min(rules.max_players, 4)), preset=preset, seed=src.integer(0, 2**32),
                    clock=clock)
    for _ in range(turns):
        if game.is_over:
            break
        if rules.turn_seconds and chance(src, 5):
            clock.now += rules.turn_seconds + 1
            game.advance_clock()
            continue
        p = game.current_player
        play = None
        if chance(src, 60):
            try:
                play = solve(game.table, game.rack(p), rules=rules, opened=game.opened(p), limit=200_000)
            except SearchLimitError:
                play = None
        if play is not None:
            game.apply(play)
        else:
            game.apply("draw" if game.pool_size else "pass")
        clock.now += 1
    return game, clock


def random_action_text(src: Source, game: Game) -> str:
    """A play built from the table's sets and the mover's rack, edited at random (most are illegal), or a
    draw/pass, or notation junk."""
    kind = src.integer(0, 9)
    if kind == 0:
        return pick(src, ["draw", "pass"])
    if kind == 1:
        return notation(src)
    sets = [list(map(str, m.tiles)) for m in game.table]
    rack = list(map(str, game.rack(game.current_player)))
    for _ in range(src.integer(0, 5)):
        edit = src.integer(0, 5)
        if edit == 0 and rack:  # a rack tile into a set or a new set
            tile = rack.pop(src.integer(0, len(rack) - 1))
            if sets and chance(src, 70):
                target = sets[src.integer(0, len(sets) - 1)]
                target.insert(src.integer(0, len(target)), tile)
            else:
                sets.append([tile])
        elif edit == 1 and sets:  # a set dropped
            del sets[src.integer(0, len(sets) - 1)]
        elif edit == 2 and sets:  # a tile moved between sets
            a = sets[src.integer(0, len(sets) - 1)]
            if a:
                tile = a.pop(src.integer(0, len(a) - 1))
                sets[src.integer(0, len(sets) - 1)].append(tile)
        elif edit == 3 and sets:  # a set split
            i = src.integer(0, len(sets) - 1)
            cut = src.integer(0, len(sets[i]))
            sets[i:i + 1] = [sets[i][:cut], sets[i][cut:]]
        elif edit == 4:  # a tile from nowhere
            sets.append([pick(src, ["R1", "J", "K13", "B7", "O9"]) for _ in range(src.integer(1, 4))])
        elif edit == 5 and rack and len(rack) >= 3:  # three rack tiles as a new set
            sets.append([rack.pop(0) for _ in range(3)])
    return "play " + " | ".join(" ".join(s) for s in sets if s or chance(src, 10))


def check_action(game: Game, clock: FakeClock, text: str) -> bool:
    """Applies ``text``: a refused action leaves ``to_json()`` (and everything else) identical; an accepted
    one keeps every tile accounted for and the record round-trips. Returns True when it was accepted."""
    before_json, before = game.to_json(), game._snapshot()
    try:
        game.apply(text)
    except RummikubError as exc:
        assert isinstance(exc, (IllegalMoveError, RummikubError))
        assert game.to_json() == before_json and game._snapshot() == before, f"refused {text!r} changed the game"
        return False
    everything = game.table.tiles() | TileSet(game._pool)
    for p in range(game.players):
        everything = everything | game.rack(p)
    assert everything == TileSet.full(game.rules)
    text_after = game.to_json()
    assert Game.from_json(text_after, clock=clock).to_json() == text_after
    return True


# ---- the extension -------------------------------------------------------------------------------------------

_INTS = [0, 1, 2, 3, 4, 7, 13, 15, 16, 17, 31, 63, 64, 65, -1, -2, 2**31 - 5, 2**31 - 1, 2**31, 2**32, 2**63 - 1,
         2**63, 2**64, -2**31, -2**63, 10**30]
_SIG = re.compile(r"^(\w+)\((.*)\) ->", re.S)


def _params(doc: str) -> list[tuple[str, str]]:
    """``(name, type)`` of each parameter of a pybind11 signature line (``self`` dropped)."""
    found = _SIG.match(doc.strip().splitlines()[0] if doc else "")
    if not found:
        return []
    out, depth, current = [], 0, ""
    for ch in found.group(2) + ",":
        if ch == "," and depth == 0:
            name, _, kind = current.strip().partition(":")
            if name and name.strip() != "self" and not name.startswith("*"):
                out.append((name.strip(), kind.split("=")[0].strip()))
            current = ""
            continue
        depth += ch in "[(" and 1 or 0
        depth -= ch in "])" and 1 or 0
        current += ch
    return out


def core_value(src: Source, kind: str, name: str, core: Any) -> Any:
    """A value for a parameter of type ``kind`` (pybind11's spelling): usually of that type and small, often
    at an edge, sometimes of another type altogether."""
    import numpy as np

    if chance(src, 8):
        return pick(src, [None, "x", 1.5, [], [[1]], object(), -1, 2**64, b"R1", np.zeros(3)])
    if "limit" in name:
        return pick(src, [None, 0, 1, 100, 10_000, 100_000, 2**64, -1])
    if "Params" in kind:
        return pick(src, [core.Params(), core.Params(13, 4, 3, 4, 3), core.Params(3, 2, 1, 0, 2),
                          core.Params(16, 4, 2, 2, 3)])
    if "SearchRules" in kind:
        params = pick(src, [core.Params(), core.Params(13, 4, 3, 4, 3), core.Params(3, 2, 1, 1, 2)])
        try:
            return core.SearchRules(params, pick(src, [0, 30, 100]), chance(src, 50), chance(src, 50),
                                    pick(src, list(core.JokerPolicy.__members__.values())), 30)
        except (TypeError, ValueError):
            return None
    if "TileSet" in kind:
        codes = [pick(src, [0, 1, 2, 12, 13, 16, 17, 20, 48, 60, 63, 64]) if chance(src, 70) else src.integer(-2, 70)
                 for _ in range(src.integer(0, 12))]
        try:
            return core.TileSet(codes)
        except (TypeError, ValueError):
            return core.TileSet()
    for enum_name in ("MeldKind", "Objective", "JokerPolicy"):
        if enum_name in kind:
            members = list(getattr(core, enum_name).__members__.values())
            return pick(src, members) if chance(src, 80) else src.integer(-3, 12)
    if "Meld" in kind:
        try:
            return core.meld_of_code(src.integer(0, 2**20))
        except (TypeError, ValueError):
            return None
    if "ArrayLike" in kind or "NDArray" in kind:
        rows = src.integer(0, 3)
        width = pick(src, [65, 65, 65, 64, 1])
        if "bool" in kind:
            return np.array([chance(src, 50) for _ in range(pick(src, [rows, rows, rows + 1]))], dtype=bool)
        arr = np.zeros((rows, width), dtype=pick(src, [np.int64, np.int64, np.int32, np.float64, np.uint8]))
        for _ in range(src.integer(0, 8)):
            if rows:
                arr[src.integer(0, rows - 1), src.integer(0, width - 1)] = src.integer(0, 4)
        return arr
    if "Sequence" in kind:
        return [src.integer(0, 2**21) if chance(src, 70) else pick(src, _INTS) for _ in range(src.integer(0, 4))]
    if "bool" in kind:
        return chance(src, 50)
    return pick(src, _INTS) if chance(src, 60) else src.integer(-5, 70)


def core_call(src: Source, core: Any) -> tuple[str, Callable[[], Any]]:
    """A random call into ``rummikub._core``: a module function, a constructor, a method of an instance
    (built properly or through ``__new__``), or an enum made from an int."""
    functions = sorted(n for n in dir(core) if not n.startswith("_") and callable(getattr(core, n))
                       and type(getattr(core, n)).__name__ == "builtin_function_or_method")
    classes = sorted(n for n in dir(core) if not n.startswith("_") and isinstance(getattr(core, n), type))
    kind = src.integer(0, 9)
    if kind <= 4 and functions:
        fname = pick(src, functions)
        fn = getattr(core, fname)
        args = [core_value(src, t, n, core) for n, t in _params(fn.__doc__ or "")]
        return f"{fname}{tuple(map(_brief, args))}", lambda: _consume(fn(*args))
    cname = pick(src, classes)
    cls = getattr(core, cname)
    if kind == 5:
        try:
            obj = cls.__new__(cls)
        except TypeError:
            return f"{cname}.__new__", lambda: None
    else:
        sig = _params((cls.__init__.__doc__ or "").replace("__init__", cname, 1))
        args = [core_value(src, t, n, core) for n, t in sig]
        try:
            obj = cls(*args)
        except (TypeError, ValueError):
            return f"{cname}{tuple(map(_brief, args))}", lambda: None
    methods = [m for m in dir(obj) if not m.startswith("_") and m not in ("name", "value")
               and callable(getattr(obj, m, None))] + ["__len__", "__repr__", "__hash__"]
    mname = pick(src, methods)
    method = getattr(obj, mname, None)
    if method is None:
        return f"{cname}.{mname}", lambda: None
    margs = [core_value(src, t, n, core) for n, t in _params((getattr(method, "__doc__", "") or ""))]
    return f"{cname}.{mname}{tuple(map(_brief, margs))}", lambda: _consume(method(*margs))


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def _consume(result: Any) -> Any:
    """Touches what a call returned (lengths, reads), so a broken result object shows."""
    for attr in ("tiles", "jokers", "codes", "size", "__len__"):
        fn = getattr(result, attr, None)
        if callable(fn):
            try:
                fn()
            except (TypeError, ValueError):
                pass
    return result


def run_core_calls(seed: int, calls: int, trace: Any = None) -> int:
    """Makes ``calls`` random calls into the extension; each must return or raise a ValueError or TypeError
    (anything else is an AssertionError naming the call; a crash ends the process, and ``trace``, a text file,
    has each call's label written before it is made). Returns the calls made."""
    from rummikub import _core as core

    src = RandomSource(random.Random(seed))
    for _ in range(calls):
        label, call = core_call(src, core)
        if trace is not None:
            trace.write(label + "\n")
            trace.flush()
        try:
            call()
        except (ValueError, TypeError):
            CORE_OUTCOMES["refused"] += 1
        except Exception as exc:  # noqa: BLE001 - the finding
            raise AssertionError(f"{label} raised {type(exc).__name__}: {exc}") from None
        else:
            CORE_OUTCOMES["returned"] += 1
    return calls


CORE_OUTCOMES: dict[str, int] = {"returned": 0, "refused": 0}


if __name__ == "__main__":  # the subprocess driver of the extension fuzz test
    import sys

    print(run_core_calls(int(sys.argv[1]), int(sys.argv[2]), sys.stderr))
    print(json.dumps(CORE_OUTCOMES))
