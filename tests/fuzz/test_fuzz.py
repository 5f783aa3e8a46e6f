"""Fuzzing in the normal suite, kept short: the parsers, the record reader, the game's actions and the extension's
entry points on generated input (tests/fuzz/gen.py). ``RUMMIKUB_FUZZ_EXAMPLES`` scales every harness (default
100 examples each; the extension's driver makes 40 calls per example); ``fuzz/`` holds the coverage-guided
(atheris) harnesses for long runs, see CONTRIBUTING.md.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub import Game, RuleSet
from tests.helpers.processes import child_env
from tests.fuzz import gen

EXAMPLES = int(os.environ.get("RUMMIKUB_FUZZ_EXAMPLES", "100"))
ROOT = Path(__file__).resolve().parents[2]
fuzz_settings = settings(max_examples=EXAMPLES, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@fuzz_settings
@given(st.data(), st.sampled_from(["standard", "large", "sabra"]))
def test_parsers_read_or_refuse(data: st.DataObject, preset: str) -> None:
    gen.check_parsers(gen.notation(gen.HypothesisSource(data)), RuleSet.preset(preset))


@fuzz_settings
@given(st.text(max_size=60))
def test_parsers_on_any_text(text: str) -> None:
    gen.check_parsers(text, RuleSet())


@functools.lru_cache(maxsize=None)
def _records() -> tuple[str, ...]:
    """Real records to mutate: short random games of every preset (made once)."""
    import json

    out = []
    for seed, turns in enumerate((0, 5, 20, 40, 60, 80, 30, 50)):
        game, _ = gen.random_game(gen.RandomSource(random.Random(seed)), turns)
        out.append(json.dumps(game.record))
    return tuple(out)


@fuzz_settings
@given(st.data())
def test_mutated_records_load_or_refuse(data: st.DataObject) -> None:
    import json

    src = gen.HypothesisSource(data)
    record = json.loads(gen.pick(src, _records()))
    gen.check_record(gen.mutate_record(src, record))


def test_unmutated_records_round_trip() -> None:
    import json

    for text in _records():
        assert Game.from_record(json.loads(text)).to_json() == Game.from_json(text).to_json()


@settings(fuzz_settings, max_examples=max(1, EXAMPLES // 4))
@given(st.data())
def test_random_actions_refused_change_nothing(data: st.DataObject) -> None:
    src = gen.HypothesisSource(data)
    game, clock = gen.random_game(src, src.integer(0, 25))
    for _ in range(12):
        if game.is_over:
            break
        gen.check_action(game, clock, gen.random_action_text(src, game))


@pytest.mark.parametrize("seed", range(2))
def test_extension_entry_points_never_crash(seed: int) -> None:
    """Random calls into rummikub._core in a subprocess (a crash would end pytest): every call returns or raises
    a ValueError or TypeError."""
    calls = max(100, EXAMPLES * 20)
    env: dict[str, Any] = child_env()
    done = subprocess.run([sys.executable, "-m", "tests.fuzz.gen", str(seed), str(calls)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=600)
    last = done.stderr.strip().splitlines()[-3:]
    assert done.returncode == 0, f"exit {done.returncode} after the call: {last}"
    made, outcomes = done.stdout.split("\n", 1)
    assert int(made) == calls
    counts = json.loads(outcomes)
    assert counts["returned"] >= calls // 10 and counts["refused"] >= calls // 10, counts  # both paths exercised


def test_the_action_fuzzer_exercises_both_outcomes() -> None:
    """The action generator makes legal plays as well as refused ones (else the harness above proves little)."""
    src = gen.RandomSource(random.Random(11))
    accepted = refused = 0
    for _ in range(12):
        game, clock = gen.random_game(src, src.integer(0, 20))
        for _ in range(15):
            if game.is_over:
                break
            if gen.check_action(game, clock, gen.random_action_text(src, game)):
                accepted += 1
            else:
                refused += 1
    assert accepted >= 5 and refused >= 20, (accepted, refused)
