"""Coverage-guided fuzzing of the package with atheris (libFuzzer for Python), one target per run:

    pip install atheris
    PYTHONPATH=python:. python fuzz/fuzz_rummikub.py parsers -max_total_time=60
    PYTHONPATH=python:. python fuzz/fuzz_rummikub.py records -max_total_time=600 fuzz/corpus/records

Targets: ``parsers`` (tile, set, table and action notation), ``records`` (mutated records of real games through
``Game.from_record``), ``actions`` (random actions against random games: a refused one changes nothing) and
``core`` (random calls into ``rummikub._core``; a crash is reported by libFuzzer with the input that made it).
Every option after the target goes to libFuzzer (``-runs=N``, ``-max_total_time=S``, a corpus folder, ...).
The checks are those of the hypothesis harnesses (tests/fuzz/gen.py); a failure writes ``crash-*`` with the
input, which ``python fuzz/fuzz_rummikub.py TARGET crash-...`` replays.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, Callable

import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports(include=["rummikub"]):
    import rummikub  # noqa: F401 - instrumented for coverage
    from rummikub import RuleSet

from tests.fuzz import gen

_PRESETS = [RuleSet.preset(name) for name in ("standard", "large", "sabra")]
_RECORDS: list[dict[str, Any]] = []


def parsers(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    rules = _PRESETS[fdp.ConsumeIntInRange(0, len(_PRESETS) - 1)]
    if fdp.ConsumeBool():
        text = fdp.ConsumeUnicodeNoSurrogates(200)
    else:
        text = gen.notation(gen.BytesSource(fdp))
    gen.check_parsers(text, rules)


def records(data: bytes) -> None:
    if not _RECORDS:  # real games to mutate, made once
        for seed, turns in enumerate((0, 5, 20, 40, 60, 80)):
            _RECORDS.append(gen.random_game(gen.RandomSource(random.Random(seed)), turns)[0].record)
    src = gen.BytesSource(atheris.FuzzedDataProvider(data))
    gen.check_record(gen.mutate_record(src, json.loads(json.dumps(gen.pick(src, _RECORDS)))))


def actions(data: bytes) -> None:
    src = gen.BytesSource(atheris.FuzzedDataProvider(data))
    game, clock = gen.random_game(src, src.integer(0, 20))
    for _ in range(8):
        if game.is_over:
            break
        gen.check_action(game, clock, gen.random_action_text(src, game))


def core(data: bytes) -> None:
    from rummikub import _core

    src = gen.BytesSource(atheris.FuzzedDataProvider(data))
    for _ in range(4):
        label, call = gen.core_call(src, _core)
        try:
            call()
        except (ValueError, TypeError):
            pass


TARGETS: dict[str, Callable[[bytes], None]] = {"parsers": parsers, "records": records, "actions": actions,
                                               "core": core}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: python fuzz/fuzz_rummikub.py {{{','.join(TARGETS)}}} [libFuzzer options]")
    target = TARGETS[sys.argv[1]]
    atheris.Setup([sys.argv[0], *sys.argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
