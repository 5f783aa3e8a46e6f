"""Regressions of a hostile caller's inputs: deep JSON, record fields of the wrong type, huge inputs quoted in
errors, rule sets the search cannot play, histories handed out to bots, and the arena's command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.processes import child_env

from rummikub import Action, Game, InvalidNotationError, InvalidRecordError, PlayerView, RuleSet, RummikubError
from rummikub._errors import shorten
from rummikub.game import Draft
from rummikub.rules import rules_from_json

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "Z" * 1_000_000
ROOT = Path(__file__).resolve().parents[2]


def _game() -> Game:
    game = Game.new(players=2, seed=3)
    game.apply("draw")
    game.apply("draw")
    return game


def _record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(_game().to_json())
    return record


# ---- deep JSON -----------------------------------------------------------------------------------------------


def test_deep_json_is_a_clear_error_everywhere() -> None:
    with pytest.raises(InvalidRecordError, match="nested too deep") as err:
        Game.from_json(DEEP)
    assert err.value.reason == "format" and len(str(err.value)) < 200
    with pytest.raises(InvalidNotationError, match="nested too deep"):
        PlayerView.from_json(DEEP)
    from rummikub.match import Match

    with pytest.raises(InvalidRecordError, match="nested too deep"):
        Match.from_json(DEEP)


def test_deep_values_inside_dicts_are_clear_errors() -> None:
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(RummikubError, match="numbers must be an int"):
        rules_from_json({"numbers": deep})
    with pytest.raises(InvalidNotationError):
        Action.from_dict({"kind": deep})
    game = _game()
    with pytest.raises(InvalidNotationError):
        Draft.from_dict(game, {"version": 1, "turn": game.turn, "player": game.current_player, "sets": [deep]})
    record = _record()
    record["events"][0] = {"type": "draw", "player": 0, "tiles": deep}
    with pytest.raises(InvalidRecordError):
        Game.from_record(record)


def test_protocol_engine_answers_deep_json() -> None:
    from rummikub.protocol import Engine

    answer = Engine().handle_line(DEEP)
    assert answer["type"] == "error" and answer["code"] == "bad_json"
    assert len(json.dumps(answer)) < 600


# ---- record fields -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, True, False, 2**70, 1.0, "0", None, [0]])
def test_first_player_field_is_named_with_its_value(value: object) -> None:
    record = _record()
    record["first_player"]["player"] = value
    with pytest.raises(InvalidRecordError, match="first_player.player must be a player index in 0..1") as err:
        Game.from_record(record)
    assert repr(value) in str(err.value)


@pytest.mark.parametrize("field, value", [("players", True), ("players", 2.0), ("players", 2**70),
                                          ("seed", True), ("seed", 3.0)])
def test_header_ints_are_ints(field: str, value: object) -> None:
    record = _record()
    record[field] = value
    with pytest.raises(InvalidRecordError, match=field):
        Game.from_record(record)


def test_a_bool_player_is_not_player_one() -> None:
    record = _record()
    k = next(i for i, e in enumerate(record["events"]) if e["player"] == 1)
    record["events"][k]["player"] = True  # true == 1 in Python: must still be refused
    with pytest.raises(InvalidRecordError, match="player must be a player index, got True") as err:
        Game.from_record(record)
    assert err.value.reason == "format"
    record["events"][k]["player"] = 1
    assert Game.from_record(record).to_json() == _game().to_json()


def test_outcome_fields_are_typed() -> None:
    game = Game.new(players=2, seed=1, preset="standard")
    while not game.is_over:
        game.apply("draw" if game.pool_size else "pass")
    record = json.loads(game.to_json())
    assert Game.from_record(record).to_json() == game.to_json()
    winners = record["outcome"]["winners"]
    record["outcome"]["rack_values"] = [bool(v) if v in (0, 1) else float(v) for v in record["outcome"]["rack_values"]]
    with pytest.raises(InvalidRecordError, match="outcome"):
        Game.from_record(record)
    view = game.view(0).to_dict()
    view["outcome"]["winners"] = [True for _ in winners] or [True]
    with pytest.raises(InvalidNotationError, match="winners must be a list of integers"):
        PlayerView.from_dict(view)
    view["outcome"] = {"termination": "pool_exhausted", "winners": [0], "scores": ["1e999999999", "0"],
                       "rack_values": [0, 0]}
    with pytest.raises(InvalidNotationError, match="scores"):  # refused as read, never computed as a number
        PlayerView.from_dict(view)


def test_observation_indices_are_bounded() -> None:
    data = _game().view(0).to_dict()
    for field, value in (("player", 2), ("player", True), ("current_player", 5), ("turn", 1.0)):
        bad = dict(data, **{field: value})
        with pytest.raises(InvalidNotationError, match=field):
            PlayerView.from_dict(bad)


def test_draft_ints_are_ints() -> None:
    game = _game()
    data = game.draft.to_dict()
    with pytest.raises(InvalidNotationError, match="draft player must be an int, got (True|False)"):
        Draft.from_dict(game, dict(data, player=data["player"] == 0))


# ---- huge inputs are quoted short ----------------------------------------------------------------------------


def test_shorten_cuts_and_counts() -> None:
    assert shorten("abc") == "'abc'"
    cut = shorten(HUGE)
    assert cut.endswith("... (1000000 characters)") and len(cut) < 120
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    assert len(shorten(deep)) < 120  # no RecursionError, no megabyte
    assert len(shorten(list(range(10**6)))) < 120


@pytest.mark.parametrize("call", [
    lambda: RuleSet.preset(HUGE),
    lambda: RuleSet(name=HUGE, copies=9),
    lambda: RuleSet(numbers=HUGE),  # type: ignore[arg-type]
    lambda: RuleSet().replace(**{HUGE: 1}),
    lambda: rules_from_json({"preset": "classic", "overrides": {"turn_seconds": HUGE}}),
    lambda: Game.from_record(dict(_record(), format=HUGE)),
    lambda: Game.new(players=HUGE),  # type: ignore[arg-type]
    lambda: Game.new(players=2, seed=HUGE),  # type: ignore[arg-type]
    lambda: _game().view(HUGE),  # type: ignore[arg-type]
    lambda: _game().apply(["R1"] * 10**5),  # type: ignore[arg-type]
    lambda: PlayerView.from_dict({"version": HUGE}),
    lambda: Action.from_dict({"kind": HUGE}),
    lambda: Action.parse(HUGE),
])
def test_errors_do_not_repeat_huge_inputs(call: Any) -> None:
    with pytest.raises(RummikubError) as err:
        call()
    assert len(str(err.value)) < 400, str(err.value)[:500]


# ---- rule sets the search cannot play ------------------------------------------------------------------------


@pytest.mark.parametrize("field, value", [("copies", 4), ("copies", 7), ("jokers", 5), ("jokers", 7),
                                          ("min_len", 8)])
def test_rule_sets_past_the_search_are_refused_up_front(field: str, value: int) -> None:
    with pytest.raises(RummikubError, match=f"{field} must be at most"):
        RuleSet(numbers=16, rack_size=5).replace(**{field: value})
    with pytest.raises(RummikubError, match=f"{field} must be at most"):
        rules_from_json({"preset": "standard", "overrides": {field: value}})


def test_the_largest_rule_sets_the_search_takes_are_played() -> None:
    from rummikub import solve

    large = RuleSet.preset("large")
    assert (large.copies, large.jokers) == (3, 4)
    game = Game.new(players=6, preset="large", seed=2)
    assert solve(game.table, game.rack(game.current_player), rules=large, opened=True) is not None
    long_sets = RuleSet(numbers=13, min_len=7, opening_threshold=0, rack_size=10)
    assert solve("", "R1 R2 R3 R4 R5 R6 R7", rules=long_sets, opened=True) is not None


# ---- records and histories are values ------------------------------------------------------------------------


def test_editing_handed_out_histories_does_not_rewrite_the_game() -> None:
    game = _game()
    before = game.to_json()
    view = game.view(game.first_player)  # the first event is this player's draw: its tiles are in the view
    with pytest.raises((TypeError, AttributeError)):
        view.history[0]["tiles"].append("R1")
    with pytest.raises(TypeError):
        view.history[0]["player"] = 1  # type: ignore[index]
    # every other way out hands over fresh copies: editing them changes nothing
    game.history()[0]["tiles"].append("R1")
    game.history(game.first_player)[0]["tiles"].append("R1")
    game.record["events"][0]["tiles"].append("R1")
    game.record["deal"]["racks"][0] = ""
    game.record["first_player"]["draws"].clear()
    game.public_record()["events"][0]["count"] = 99
    game.public_record()["first_player"]["draws"].clear()
    view.to_dict()["history"][0]["tiles"].append("R1")
    assert game.to_json() == before
    assert Game.from_json(game.to_json()).to_json() == before


def test_a_timeout_event_is_a_fresh_copy() -> None:
    now = [0.0]
    game = Game.new(players=2, seed=4, preset="classic", clock=lambda: now[0])
    now[0] = 1000.0
    event = game.advance_clock()
    assert event is not None and event["cause"] == "timeout"
    before = game.to_json()
    event["tiles"].append("R1")
    assert game.to_json() == before
    assert Game.from_json(before, clock=lambda: now[0]).to_json() == before


# ---- the arena's command line --------------------------------------------------------------------------------


def _arena(*args: str, env_path: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = child_env(*([env_path] if env_path else []))
    return subprocess.run([sys.executable, "-m", "rummikub", "arena", "--quiet", *args], capture_output=True,
                          text=True, env=env, timeout=timeout)


@pytest.mark.parametrize("target, message", [
    ("{tmp}/missing/out.json", "does not exist"),
    ("{tmp}", "is a folder"),
    ("", "empty string"),
])
def test_arena_json_path_fails_before_the_games(tmp_path: Path, target: str, message: str) -> None:
    done = _arena("--games", "10000", "--json", target.format(tmp=tmp_path))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # no game was played: the results table was never printed


def test_arena_json_unwritable_file_fails_before_the_games(tmp_path: Path) -> None:
    target = "/proc/version"  # refused even to root
    if os.access(target, os.W_OK) and os.geteuid() != 0:  # pragma: no cover - an unusual system
        pytest.skip("no unwritable file here")
    done = _arena("--games", "10000", "--json", target)
    assert done.returncode == 1 and "cannot write --json '/proc/version'" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    if os.geteuid() != 0:
        locked = tmp_path / "locked.json"
        locked.write_text("{}")
        locked.chmod(0o444)
        done = _arena("--games", "10000", "--json", str(locked))
        assert done.returncode == 1 and "cannot write" in done.stderr and locked.read_text() == "{}"


def test_arena_json_is_written_after_the_games(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("old")
    done = _arena("--games", "2", "--players", "easy,easy", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["games"] == 2


def test_arena_bot_class_without_a_seed_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "noseedbot.py").write_text(textwrap.dedent("""
        class NoSeed:
            def __init__(self):
                pass

            def choose(self, view):
                return "draw"
        """))
    done = _arena("--games", "2", "--players", "noseedbot:NoSeed,easy", env_path=str(tmp_path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "rummikub arena: bot 'noseedbot:NoSeed' must take the seed: it is called as " \
                                  "NoSeed(seed)"


def test_arena_jobs_are_capped() -> None:
    from rummikub.arena import run_arena, usable_cpus

    result = run_arena(["easy", "easy"], games=2, seed=1, jobs=100_000)
    assert result.jobs == min(2, usable_cpus()) and "capped" in result.note
    assert result.games_digest() == run_arena(["easy", "easy"], games=2, seed=1, jobs=1).games_digest()
    done = _arena("--games", "2", "--players", "easy,easy", "--jobs", "100000")
    assert done.returncode == 0 and "jobs 100000 capped" in done.stdout


def test_match_and_public_records_check_their_ints() -> None:
    from rummikub.match import Match
    from rummikub.replay import replay_lines

    with pytest.raises(RummikubError, match="seed must be an int, got True"):
        Match(2, seed=True)
    public = _game().public_record()
    for players in (10**12, True, 2.0):
        with pytest.raises(InvalidRecordError, match="players"):
            list(replay_lines(dict(public, players=players)))
    bad = json.loads(json.dumps(public))
    bad["events"][0]["count"] = "x"
    with pytest.raises(InvalidRecordError, match="a draw of 'x' tiles"):
        list(replay_lines(bad))
    bad["events"][0] = dict(bad["events"][0], player=True, count=1)
    with pytest.raises(InvalidRecordError, match="not an event of this game"):
        list(replay_lines(bad))


# ---- notation ------------------------------------------------------------------------------------------------


def test_membership_of_text_that_is_not_a_tile_is_false() -> None:
    from rummikub import TileSet

    rack = TileSet.parse("R1 J")
    assert "R1" in rack and "J" in rack and "r1" in rack
    for text in ("xx", "", "R14", "R013", "R1 R2", HUGE, "R" + "1" * 10_000):
        assert text not in rack
    assert 5 not in rack and None not in rack
    wide = TileSet.parse("R16", RuleSet(numbers=16))
    assert "R16" in wide  # membership reads every tile the engine knows, whatever the rule set


@pytest.mark.parametrize("text", ["R013", "R01", "K01-3", "R1-013", "KB07"])
def test_leading_zeros_are_refused(text: str) -> None:
    from rummikub import InvalidNotationError as Refused, TileSet

    with pytest.raises(Refused, match="leading zero"):
        TileSet.parse(text)


def test_solve_batch_errors_name_the_argument() -> None:
    import numpy as np

    from rummikub import Table, TileCountError, TileSet, solve_batch

    t = Table.parse("R1-3").tiles().to_counts()
    r = TileSet.parse("R4 K9").to_counts()
    with pytest.raises(RummikubError, match=r"opened must be a bool or one bool per position \(2\), got 3"):
        solve_batch([t, t], [r, r], opened=[True, False, True])
    with pytest.raises(RummikubError, match="opened must be a bool"):
        solve_batch([t], [r], opened="False")  # type: ignore[arg-type]
    with pytest.raises(TileCountError, match="tables must be an .n, 65. integer count array .* different lengths"):
        solve_batch([[1, 2], [3]], [r])
    with pytest.raises(TileCountError, match="got 2 tables and 1 racks"):
        solve_batch([t, t], [r])
    with pytest.raises(TileCountError, match=r"racks must be an \(n, 65\) count array .* got shape \(1, 64\)"):
        solve_batch([t], [r[:64]])
    with pytest.raises(TileCountError, match="tables must hold integer tile counts, got float64"):
        solve_batch([t.astype(float)], [r])
    empty = solve_batch([], [])
    assert empty["found"].shape == (0,) and empty["played"].shape == (0, 65)
    assert solve_batch(np.zeros((0, 65)), np.zeros((0, 65), dtype=int))["tiles"].shape == (0,)
    one = solve_batch(t, r)
    assert bool(one["found"][0]) and int(one["tiles"][0]) == 1


def test_quoted_control_characters_stay_short() -> None:
    """Found by the parser fuzzer: escapes made a quoted 99-character input 400 characters long, three times
    over in one table error."""
    from rummikub import Table

    text = "\x13" * 99
    assert len(shorten(text)) < 120
    with pytest.raises(RummikubError) as err:
        Table.parse(text)
    assert len(str(err.value)) < 500


def test_arena_leaves_no_empty_json_file_when_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    done = _arena("--games", "2", "--players", "easy,ghost", "--json", str(out))
    assert done.returncode == 1 and "unknown bot 'ghost'" in done.stderr
    assert not out.exists()
