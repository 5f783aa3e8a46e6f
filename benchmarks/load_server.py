"""Load benchmark for ``rummikub serve`` (a script, not a timed test): many simultaneous rooms over loopback.

Starts the server as its own process on a free 127.0.0.1 port with a fresh database, opens ``--rooms`` AI rooms
(one person and one bot each, created at a steady pace), and drives each person's seat with a WebSocket
client that plays as people do: a think pause, a check of the draft it means to play, a short pause, then
the solver's best play (worked out in this process, not by the server) or a draw. Finished games go on with
the next game of the match or a rematch, until ``--seconds`` have passed. Then it reports:

- rooms held: rooms whose client stayed connected and kept playing to the end of the run;
- action latency: from sending an action to receiving the state that shows it (stored durably first),
  p50 / p99 / max, and the same for draft checks; and the server's own figure (``/api/stats``: from the
  action's arrival to every connection's state queued), which leaves out this client's own delays;
- memory per room: the server's resident memory after the rooms minus before, divided by the rooms.

    python benchmarks/load_server.py --rooms 200 --seconds 60

Bounded: at most ``--rooms`` rooms (capped at 2000), ``--seconds`` (capped at 600), 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from rummikub import PlayerView, solve  # noqa: E402

SERVE = "import sys; from rummikub.cli import main; sys.exit(main())"


@dataclass
class Stats:
    action_ms: list[float] = field(default_factory=list)
    check_ms: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    held: int = 0
    check_refused: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def draft_of(view: dict[str, Any], table: str) -> dict[str, Any]:
    sets = [{"id": f"s{i + 1}", "tiles": t.strip()} for i, t in enumerate(table.split("|")) if t.strip()]
    return {"version": 1, "turn": view["turn"], "player": view["player"], "sets": sets}


def best_play(view_json: dict[str, Any]) -> str | None:
    view = PlayerView.from_dict(view_json)
    assert view.rack is not None
    play = solve(view.table, view.rack, rules=view.rules, opened=view.has_opened)
    return None if play is None else str(play.to_dict()["table"])


async def person(url: str, made: dict[str, Any], stats: Stats, end: float, think: float, rng: random.Random) -> None:
    import websockets

    async with websockets.connect(url + made["ws"], max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": 0, "key": made["seats"][0]["key"]}))
        pending_action: tuple[int, float] | None = None
        acted = False
        while time.monotonic() < end:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors.append(msg["code"] + ": " + msg["message"][:100])
                continue
            if msg["type"] != "state" or msg["view"] is None:
                continue
            view = msg["view"]
            if pending_action is not None and view["turn"] != pending_action[0]:
                stats.action_ms.append((time.perf_counter() - pending_action[1]) * 1e3)
                stats.actions += 1
                pending_action = None
                acted = True
            status = msg["room"]["status"]
            if status in ("game_over", "match_over"):
                stats.games += 1
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                await ws.send(json.dumps({"type": "next_game" if status == "game_over" else "rematch"}))
                continue
            if not msg["your_turn"] or pending_action is not None:
                continue
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            table = await asyncio.to_thread(best_play, view)
            if table is not None:
                t0 = time.perf_counter()
                await ws.send(json.dumps({"type": "check", "draft": draft_of(view, table)}))
                while True:
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if answer["type"] in ("checked", "error"):
                        break
                stats.check_ms.append((time.perf_counter() - t0) * 1e3)
                if answer["type"] == "error":
                    stats.errors.append(f"check: {answer}"[:200])
                elif not answer["legal"]:  # the client's fresh set ids may not match the table's (jokers)
                    stats.check_refused += 1
                await asyncio.sleep(rng.uniform(0.1, 0.4) * think)
            action = {"kind": "play", "table": table} if table is not None else \
                {"kind": "draw" if msg["can_draw"] else "pass"}
            pending_action = (view["turn"], time.perf_counter())
            await ws.send(json.dumps({"type": "action", "action": action}))
        if acted:
            stats.held += 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import httpx2  # the test extra's HTTP client (the one Starlette's test client uses)

    port = args.port or free_port()
    workdir = tempfile.mkdtemp(prefix="rummikub-load-")
    db = os.path.join(workdir, "load.db")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    profiled = f"import cProfile, sys; from rummikub.cli import main; cProfile.run('main()', {args.profile!r})"
    prefix = [sys.executable, "-c", profiled] if args.profile else [sys.executable, "-c", SERVE]
    server = subprocess.Popen([*prefix, "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--db", db, "--bot-delay", str(args.bot_delay), "--writer", args.writer, "--log-level", "warning"], env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        async with httpx2.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(200):
                try:
                    await http.get("/api/rooms/none")
                    break
                except httpx2.TransportError:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            rss_before = rss_kib(server.pid)
            start = time.monotonic()
            end = start + args.seconds
            stats = Stats()
            rng = random.Random(args.seed)
            tasks = []
            rules = {"preset": args.preset, "overrides": {}}
            for i in range(args.rooms):
                answer = await http.post("/api/rooms", json={"rules": rules, "seats": ["human", args.bot]})
                answer.raise_for_status()
                tasks.append(asyncio.create_task(person(f"ws://127.0.0.1:{port}", answer.json(), stats, end,
                                                        args.think, random.Random(rng.random()))))
                await asyncio.sleep(args.ramp / args.rooms)
            created = time.monotonic() - start
            await asyncio.sleep(max(0.0, end - time.monotonic()) * 0.5)
            rss_mid = rss_kib(server.pid)
            done = await asyncio.gather(*tasks, return_exceptions=True)
            rss_after = rss_kib(server.pid)
            server_stats = (await http.get("/api/stats")).json()
            failures = [repr(d)[:200] for d in done if isinstance(d, BaseException)]
            cpu = _cpu_seconds(server.pid)
    finally:
        server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    peak = max(rss_mid, rss_after)
    return {
        "rooms": args.rooms, "seconds": args.seconds, "writer": args.writer, "think_s": args.think, "bot": args.bot,
        "bot_delay_s": args.bot_delay, "rooms_created_in_s": round(created, 2),
        "rooms_held": stats.held, "actions": stats.actions, "games_finished": stats.games,
        "actions_per_s": round(stats.actions / args.seconds, 1),
        "action_ms": {"p50": round(pct(stats.action_ms, 50), 2), "p99": round(pct(stats.action_ms, 99), 2),
                      "max": round(max(stats.action_ms, default=float("nan")), 2),
                      "mean": round(statistics.fmean(stats.action_ms), 2) if stats.action_ms else None},
        "server_action_ms": server_stats["action_ms"], "store_commits": server_stats["store"],
        "check_ms": {"p50": round(pct(stats.check_ms, 50), 2), "p99": round(pct(stats.check_ms, 99), 2)},
        "server_rss_mib": {"before": round(rss_before / 1024, 1), "peak": round(peak / 1024, 1)},
        "memory_per_room_kib": round((peak - rss_before) / args.rooms, 1),
        "server_cpu_s": cpu, "client_cpu_s": round(_own_cpu(), 1), "checks_refused": stats.check_refused, "errors": len(stats.errors), "error_samples": stats.errors[:5],
        "client_failures": failures[:5], "cores": os.cpu_count(),
    }


def _own_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return round((int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK"), 1)
    except OSError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200, help="simultaneous rooms (default 200, at most 2000)")
    parser.add_argument("--seconds", type=float, default=60, help="length of the run (default 60, at most 600)")
    parser.add_argument("--think", type=float, default=2.0, help="a person's mean think time in seconds (default 2)")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which the rooms are created")
    parser.add_argument("--bot", default="medium", choices=("easy", "medium", "hard"), help="the bot in each room")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the server's bot delay (default 0.5 s)")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--writer", default="thread", choices=("thread", "loop"), help="the server's --writer")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, help="write the server's cProfile statistics to this file")
    args = parser.parse_args()
    if not 1 <= args.rooms <= 2000 or not 1 <= args.seconds <= 600:
        parser.error("--rooms must be within 1..2000 and --seconds within 1..600")
    report = asyncio.run(run(args))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
