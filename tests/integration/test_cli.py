"""The ``rummikub`` command line: every command's output checked against the API it prints, the shared
rules options (``--preset``, ``--rule``), one-line errors with their exit statuses, ``--version`` and
``python -m rummikub``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rummikub
from rummikub import DEFAULT_PRESET, RuleSet, SearchLimitError, Table, TileSet, plays, solve
from rummikub import search as search_module
from rummikub.cli import main, parse_rule, plural
from rummikub.commands.solve import DEFAULT_LIST_LIMIT

TABLE = "R1 R2 R3 | K5 B5 O5 | B9 B10 B11 B12"
RACK = "R4 R5 K9 J R5 B13 K4 K6 O8 O9 O10"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *needles: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


# ---- version and entry points ------------------------------------------------------------------------------


def test_version_option_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"rummikub {rummikub.__version__}\n"
    from rummikub._version import __version__

    assert rummikub.__version__ == __version__ and __version__.count(".") >= 2


def test_python_dash_m_rummikub_runs_the_command_line() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(rummikub.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-m", "rummikub", "--version"], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"rummikub {rummikub.__version__}\n"


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert_one_line_error(err, "rummikub: error:", "COMMAND")


def test_import_rummikub_does_not_load_numpy() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(rummikub.__file__).resolve().parent.parent))
    code = "import sys, rummikub; print('numpy' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "False", proc.stderr


# ---- check -----------------------------------------------------------------------------------------------


def test_check_prints_the_table_with_counts_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "R1-3 | KBO7")
    table = Table.parse("R1-3 | KBO7")
    assert code == 0 and err == ""
    assert out.splitlines() == [str(table), f"value {table.value}, 6 tiles, 2 sets"]
    code, out, _ = run(capsys, "check", "R1-3")
    assert code == 0 and out.splitlines()[1] == "value 6, 3 tiles, 1 set"


def test_check_takes_the_shared_rules_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "R1 R2")
    assert code == 1
    assert_one_line_error(err, "rummikub check:", "'R1 R2'")
    code, out, err = run(capsys, "check", "R1 R2", "--rule", "min_len=2")
    assert code == 0 and err == "" and out.splitlines()[1] == "value 3, 2 tiles, 1 set"
    three_r1 = "K1 B1 R1 | R1 R2 R3 | O1 R1 K1"  # three copies of R1: the 160-tile set has them
    assert run(capsys, "check", three_r1)[0] == 1
    code, out, _ = run(capsys, "check", three_r1, "--preset", "large")
    assert code == 0 and out.splitlines()[1] == "value 12, 9 tiles, 3 sets"
    code, _, err = run(capsys, "check", "R1-3", "--rules", "large")  # the old option name is gone
    assert code == 2
    assert_one_line_error(err, "--rules")


def test_check_bad_notation_is_one_line_and_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "R1 X2 R3")
    assert code == 1 and out == ""
    assert_one_line_error(err, "rummikub check:", "'X2'")


# ---- solve -----------------------------------------------------------------------------------------------


def test_solve_prints_the_best_play_with_words_a_user_understands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--table", "R5 J R7 | K7 B7 O7", "--rack", "R8 K7 O1")
    play = solve("R5 J R7 | K7 B7 O7", "R8 K7 O1")
    assert code == 0 and err == "" and play is not None
    lines = out.splitlines()
    assert lines[0] == f"play    {play.tiles}  (1 tile, {play.value} points)"
    assert lines[1] == f"table   {play.table}"
    assert lines[2] == f"rack    {TileSet.parse('R8 K7 O1') - play.tiles}"
    assert lines[3].startswith(f"search  {plural(play.stats.states, 'state')}, "
                               f"{plural(play.stats.runs, 'pass', 'passes')}, ")
    assert "programme" not in out and "1 tiles" not in out


def test_solve_without_a_play_says_to_draw(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--rack", "R1 K5 O9", "--opening")
    assert code == 0 and out.splitlines()[0] == "no legal play: draw a tile"


def test_solve_rules_overrides_change_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    # R1 R2 R3 is worth 6: not enough to open under the standard rules, enough with no threshold
    code, out, _ = run(capsys, "solve", "--rack", "R1 R2 R3", "--opening")
    assert code == 0 and out.startswith("no legal play")
    code, out, _ = run(capsys, "solve", "--rack", "R1 R2 R3", "--opening", "--rule", "opening_threshold=0")
    assert code == 0 and out.splitlines()[0] == "play    R1 R2 R3  (3 tiles, 6 points)"
    # two overrides at once, on another preset
    code, out, _ = run(capsys, "solve", "--rack", "R1 R2", "--opening", "--preset", "digital",
                       "--rule", "opening_threshold=0", "--rule", "min_len=2", "--json")
    data = json.loads(out)
    assert code == 0 and data["play"]["tiles"] == "R1 R2" and data["play"]["count"] == 2


def test_solve_json_matches_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--table", TABLE, "--rack", RACK, "--objective", "value", "--json")
    play = solve(TABLE, RACK, objective="value")
    assert code == 0 and play is not None
    data = json.loads(out)["play"]
    assert (data["tiles"], data["table"], data["value"], data["count"]) == (
        str(play.tiles), str(play.table), play.value, len(play.tiles))


def test_solve_all_lists_plays_with_their_tables_up_to_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    every = list(plays(TABLE, RACK))
    assert len(every) > 20
    code, out, err = run(capsys, "solve", "--table", TABLE, "--rack", RACK, "--all", "--limit", "7")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["#", "tiles", "points", "placed", "new", "table"]
    rows = lines[1:8]
    start = lines[0].index("new table")
    for i, (row, p) in enumerate(zip(rows, every), 1):
        number, count, value = row.split()[:3]
        assert (int(number), int(count), int(value)) == (i, len(p.tiles), p.value)
        assert row[start:] == str(p.table)  # the new table, in its own column
        assert str(p.tiles) in row[:start]
    assert lines[8] == f"{len(every)} legal plays; the best 7 shown (--limit N to change)"
    assert lines[9].startswith("search  ") and len(lines) == 10


def test_solve_all_limit_zero_shows_every_play_and_json_counts_them(capsys: pytest.CaptureFixture[str]) -> None:
    every = list(plays(TABLE, RACK))
    code, out, _ = run(capsys, "solve", "--table", TABLE, "--rack", RACK, "--all", "--limit", "0")
    assert code == 0 and len(out.splitlines()) == 1 + len(every) + 2
    assert out.splitlines()[-2] == f"{len(every)} legal plays"
    code, out, _ = run(capsys, "solve", "--table", TABLE, "--rack", RACK, "--all", "--json", "--limit", "3")
    data = json.loads(out)
    assert (data["count"], data["shown"]) == (len(every), 3)
    assert [(p["tiles"], p["table"]) for p in data["plays"]] == [(str(p.tiles), str(p.table)) for p in every[:3]]
    assert DEFAULT_LIST_LIMIT == 1000
    code, _, err = run(capsys, "solve", "--rack", RACK, "--all", "--limit", "-1")
    assert code == 2
    assert_one_line_error(err, "--limit", "'-1'")


def test_solve_all_past_the_search_limit_says_what_to_do(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    original = search_module.plays
    monkeypatch.setattr(search_module, "plays", lambda *a, **k: original(*a, **{**k, "limit": 100}))
    with pytest.raises(SearchLimitError):
        len(search_module.plays(TABLE, RACK))
    code, out, err = run(capsys, "solve", "--table", TABLE, "--rack", RACK, "--all")
    assert code == 1 and out == ""
    assert_one_line_error(err, "rummikub solve:", "too many plays", "without --all")


# ---- errors: one line, status 2 for options, 1 for input ------------------------------------------------


@pytest.mark.parametrize("argv, needles", [
    (["--preset", "nope"], ["argument --preset", "unknown preset 'nope'", "standard"]),
    (["--rule", "openning_threshold=0"], ["argument --rule", "no rule called 'openning_threshold'"]),
    (["--rule", "min_len=three"], ["min_len takes a whole number", "'three'"]),
    (["--rule", "joker_in_opening=maybe"], ["joker_in_opening takes true or false", "'maybe'"]),
    (["--rule", "joker_retrieval=sometimes"], ["joker_retrieval takes one of replace, replace_from_rack, free"]),
    (["--rule", "turn_seconds=soon"], ["turn_seconds takes a number of seconds or none"]),
    (["--rule", "min_len"], ["expected FIELD=VALUE"]),
    (["--rule", "rack_size=40"], ["4 racks of 40 do not fit in 106 tiles"]),
    (["--rule", "min_len=-1"], ["min_len"]),
    (["--objective", "fun"], ["argument --objective", "'fun'"]),
])
def test_bad_options_are_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                               needles: list[str]) -> None:
    code, out, err = run(capsys, "solve", "--rack", "R1", *argv)
    assert code == 2 and out == ""
    assert_one_line_error(err, "rummikub solve: error:", *needles)


@pytest.mark.parametrize("argv, needle", [
    (["--rack", "R1 X7"], "'X7'"),
    (["--rack", "R1", "--table", "R1 R2"], "'R1 R2'"),
    (["--rack", "R1 R1 R1"], "R1"),  # three copies of a tile the standard set holds twice
])
def test_bad_input_is_one_line_and_status_1(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, "solve", *argv)
    assert code == 1 and out == ""
    assert_one_line_error(err, "rummikub solve:", needle)


def test_parse_rule_converts_to_each_field_type() -> None:
    assert parse_rule("opening_threshold=0") == ("opening_threshold", 0)
    assert parse_rule(" extend_after_opening = YES ") == ("extend_after_opening", True)
    assert parse_rule("joker_in_opening=off") == ("joker_in_opening", False)
    assert parse_rule("turn_seconds=none") == ("turn_seconds", None)
    assert parse_rule("turn_seconds=45") == ("turn_seconds", 45)
    assert parse_rule("turn_seconds=2.5") == ("turn_seconds", 2.5)
    assert parse_rule("joker_retrieval=free") == ("joker_retrieval", "free")
    assert parse_rule("name=house") == ("name", "house")
    rules = RuleSet.preset("classic").replace(**dict([parse_rule("turn_seconds=none"), parse_rule("jokers=0")]))
    assert rules.turn_seconds is None and rules.jokers == 0


# ---- arena and the one default preset -------------------------------------------------------------------


def test_one_default_preset_across_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert DEFAULT_PRESET == "standard" and RuleSet.preset(DEFAULT_PRESET) == RuleSet()
    code, out, _ = run(capsys, "arena", "--players", "easy,easy", "--games", "1", "--quiet")
    assert code == 0 and out.splitlines()[0].startswith("1 game, 2 players, preset standard, seed 1:")
    for command in (["solve", "--rack", "R1"], ["check", "R1-3"]):
        assert f"(default {DEFAULT_PRESET})" in _help(capsys, command[0])


def test_arena_takes_the_shared_rules_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "arena", "--players", "easy,medium", "--games", "2", "--quiet",
                       "--preset", "sabra", "--rule", "opening_threshold=0")
    assert code == 0
    assert out.splitlines()[0].startswith("2 games, 2 players, preset sabra (opening_threshold=0), seed 1:")
    code, _, err = run(capsys, "arena", "--players", "easy,easy", "--games", "1", "--preset", "nope")
    assert code == 2
    assert_one_line_error(err, "rummikub arena: error:", "unknown preset 'nope'")
    code, _, err = run(capsys, "arena", "--players", "easy", "--games", "1", "--quiet")
    assert code == 1
    assert_one_line_error(err, "1 player (easy)")


def _help(capsys: pytest.CaptureFixture[str], command: str) -> str:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    return " ".join(out.split())  # argparse wraps help text: compare words
