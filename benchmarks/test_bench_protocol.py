"""Benchmark of the engine protocol (issue 16): a ``solve`` round trip through ``rummikub engine`` over real
pipes against the in-process :func:`rummikub.solve` call on the same positions.

Positions are the seeded classes of tests/helpers/positions.py (small: 20-29 table tiles, medium: 30-39, openings:
empty table, not opened), written in the project's notation. For each position the benchmark times, each as
the best of 3 calls:

- ``in-process``: ``solve(table_text, rack_text, ...)``, the library reading the same notation the request
  carries (what a Python program holding notation does);
- ``in-process, parsed``: ``solve(Table, TileSet, ...)`` on objects already built;
- ``engine, in-process``: ``Engine().handle_line(line)`` in this process: the protocol's own work (JSON in and
  out, the schema check, notation, search, the answer) without pipes;
- ``round trip``: write the request line to the engine's stdin, read the answer line from its stdout
  (a minimal client: ``json.dumps``, one write, one ``readline``, ``json.loads``), with the engine validating
  every request against the schema (its default), and again with ``--no-validate``;
- ``pipe floor``: the same client and lines echoed back by a trivial Python process (no engine).

The overhead of a position is its time minus its in-process time; the report gives medians (and the round
trip's p90) per class (``benchmarks/results/protocol.md``). Target (reported, not asserted): median overhead
per request under 100 us against the in-process call with notation. On a loaded machine the round trip is
dominated by waking the engine's process (compare the pipe floor): the engine's own overhead is the
``engine, in-process`` column.

``pytest benchmarks -k protocol`` times everything; ``pytest benchmarks -k protocol --benchmark-disable``
runs each benchmark once on a few positions, as a smoke test.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root: tests.helpers
from benchmarks.timing import summary, time_each  # noqa: E402
from tests.helpers.positions import Position, class_positions  # noqa: E402

import rummikub  # noqa: E402
from rummikub.action import table_to_text  # noqa: E402
from rummikub.protocol import Engine  # noqa: E402
from rummikub.search import solve  # noqa: E402

COUNT = int(os.environ.get("RUMMIKUB_BENCH_POSITIONS", "300"))  # positions per class
QUICK_COUNT = 5
REPEAT = 3
RESULTS = Path(__file__).resolve().parent / "results" / "protocol.md"
PACKAGE_ROOT = str(Path(rummikub.__file__).resolve().parent.parent)

_rows: dict[str, dict[str, Any]] = {}
_stages: dict[str, float] = {}


class _Engine:
    """``rummikub engine`` behind a minimal blocking client: one write and one readline per request."""

    def __init__(self, *extra: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = PACKAGE_ROOT + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen([sys.executable, "-m", "rummikub.cli", "engine", *extra], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._write = self.proc.stdin.write
        self._readline = self.proc.stdout.readline
        assert json.loads(self._readline())["type"] == "hello"
        self._id = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self._id += 1
        self._write((json.dumps({"id": self._id, **request}) + "\n").encode())
        answer: dict[str, Any] = json.loads(self._readline())
        assert answer["id"] == self._id and answer["type"] == "result", answer
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=30) == 0


class _Echo(_Engine):
    """The floor: a Python process that writes every line back (the same client, pipes and JSON, no engine)."""

    CODE = ("import sys\nread, out = sys.stdin.buffer.readline, sys.stdout.buffer\nout.write(b'{\"type\": \"hello\"}\\n')\n"
            "out.flush()\nfor line in iter(read, b''):\n    out.write(line.replace(b'\"solve\"', b'\"result\"'))\n"
            "    out.flush()\n")

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", self.CODE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._write = self.proc.stdin.write
        self._readline = self.proc.stdout.readline
        assert json.loads(self._readline())["type"] == "hello"
        self._id = 0


def _request(pos: Position) -> dict[str, Any]:
    return {"type": "solve", "table": table_to_text(pos.table), "rack": str(pos.rack), "opened": pos.opened,
            "objective": pos.objective, "rules": "standard"}








@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    yield
    if len(_rows) == 3 and all(r["n"] > QUICK_COUNT for r in _rows.values()):
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(_report())


def _load() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on this platform
        return "unknown"


def _us(x: float) -> str:
    return f"{x * 1e6:,.1f}"


def _report() -> str:
    lines = ["# Protocol benchmarks", "",
             f"`pytest benchmarks -k protocol` on {platform.machine()} / Python {platform.python_version()}. "
             f"Microseconds per `solve` (each position: "
             f"best of {REPEAT} calls). In-process: `solve(table_text, rack_text)` (the same notation as the "
             "request); parsed: `solve(Table, TileSet)`. Round trip: request line written to `rummikub engine`, "
             "answer line read back over pipes, the engine validating each request against the schema. "
             "Overhead: round trip minus in-process, per position. Pipe floor: the same client and request "
             "lines echoed back by a trivial Python process (no engine). Engine, in-process: "
             "`Engine().handle_line(line)` in the benchmark's process (the protocol's own work, no pipes); its "
             "overhead: that minus in-process. Medians unless said. All columns are measured position by "
             f"position, interleaved; the machine's load (`os.getloadavg()` {_load()}) weighs on the pipes.", "",
             "| class | n | in-process | parsed | engine, in-process | its overhead | round trip | overhead | "
             "overhead p90 | round trip, no validation | pipe floor |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in _rows.items():
        lines.append(f"| {name} | {r['n']} | {_us(r['inproc']['median'])} | {_us(r['parsed']['median'])} | "
                     f"{_us(r['local']['median'])} | {_us(r['over_local']['median'])} | "
                     f"{_us(r['trip']['median'])} | {_us(r['over']['median'])} | {_us(r['over']['p90'])} | "
                     f"{_us(r['trip_nv']['median'])} | {_us(r['echo']['median'])} |")
    lines += ["", "Target: median overhead per request under 100 us against the in-process call with notation.", ""]
    if _stages:
        lines += ["The protocol's own stages on the small positions (median us per request, in-process, best of "
                  f"{REPEAT}): what the engine does beyond the library's `solve` with notation.", "",
                  "| stage | median us |", "|---|---|"]
        lines += [f"| {name} | {_us(t)} |" for name, t in _stages.items()]
        lines += [f"| sum | {_us(sum(_stages.values()))} |", ""]
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["small", "medium", "openings"])
def test_bench_protocol_solve(benchmark: Any, name: str) -> None:
    quick = bool(getattr(benchmark, "disabled", False))
    repeat = 1 if quick else REPEAT
    positions = class_positions(name, QUICK_COUNT if quick else COUNT)
    requests = [_request(p) for p in positions]
    engine, plain, echo = _Engine(), _Engine("--no-validate"), _Echo()
    try:
        benchmark.group = f"protocol-{name}"
        benchmark.extra_info["positions"] = len(positions)
        benchmark.pedantic(lambda: [engine.ask(r) for r in requests], rounds=1 if quick else 3, iterations=1)
        # the engine answers what the library answers
        for pos, req in zip(positions, requests):
            want = solve(pos.table, pos.rack, rules=pos.rules, opened=pos.opened, objective=pos.objective)
            got = engine.ask(req)["play"]
            assert (None if want is None else str(want.tiles)) == (None if got is None else got["tiles"])

        def inproc(r: dict[str, Any]) -> Any:
            return solve(r["table"], r["rack"], opened=r["opened"], objective=r["objective"])

        def parsed(p: Position) -> Any:
            return solve(p.table, p.rack, rules=p.rules, opened=p.opened, objective=p.objective)

        # interleaved position by position, so that the machine's load weighs on every column alike
        t_inproc, t_parsed, t_trip, t_trip_nv, t_echo, t_local = [], [], [], [], [], []
        local = Engine()
        for i, (pos, req) in enumerate(zip(positions, requests)):
            line = json.dumps({"id": i, **req})
            t_local += time_each(local.handle_line, [line], repeat)
            t_inproc += time_each(inproc, [req], repeat)
            t_parsed += time_each(parsed, [pos], repeat)
            t_trip += time_each(engine.ask, [req], repeat)
            t_trip_nv += time_each(plain.ask, [req], repeat)
            t_echo += time_each(echo.ask, [req], repeat)
    finally:
        engine.close()
        plain.close()
        echo.close()
    _rows[name] = {"n": len(positions), "inproc": summary(t_inproc), "parsed": summary(t_parsed),
                   "trip": summary(t_trip), "trip_nv": summary(t_trip_nv),
                   "over": summary([a - b for a, b in zip(t_trip, t_inproc)]),
                   "over_parsed": summary([a - b for a, b in zip(t_trip, t_parsed)]),
                   "over_nv": summary([a - b for a, b in zip(t_trip_nv, t_inproc)]), "echo": summary(t_echo),
                   "local": summary(t_local), "over_local": summary([a - b for a, b in zip(t_local, t_inproc)])}


def test_bench_protocol_stages(benchmark: Any) -> None:
    """The engine's work beyond the library's: read the JSON line, check it against the schema, build the
    answer, write the JSON line (timed stage by stage, in-process, no pipes)."""
    from rummikub.protocol import _encode, _play_json, _schema_problem

    quick = bool(getattr(benchmark, "disabled", False))
    positions = class_positions("small", QUICK_COUNT if quick else COUNT)
    requests = [{"id": i, **_request(p)} for i, p in enumerate(positions)]
    lines = [json.dumps(r) for r in requests]
    found = [(solve(p.table, p.rack, rules=p.rules, opened=p.opened), p.rack) for p in positions]
    answers = [{"id": i, "type": "result", "play": None if play is None else _play_json(play, rack)}
               for i, (play, rack) in enumerate(found)]
    benchmark.group = "protocol-stages"
    benchmark.pedantic(lambda: [_schema_problem(r, "solve") for r in requests], rounds=1, iterations=1)
    assert all(_schema_problem(r, "solve") is None for r in requests)
    repeat = 1 if quick else REPEAT
    stages: dict[str, Callable[[int], Any]] = {
        "json.loads of the request": lambda i: json.loads(lines[i]),
        "schema check": lambda i: _schema_problem(requests[i], "solve"),
        "answer fields": lambda i: found[i][0] is not None and _play_json(found[i][0], found[i][1]),
        "json.dumps of the answer": lambda i: _encode(answers[i]),
    }
    for name, fn in stages.items():
        _stages[name] = statistics.median(time_each(fn, list(range(len(requests))), repeat))
