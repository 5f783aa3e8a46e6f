"""The ``rummikub serve`` and ``rummikub play`` commands.

``rummikub serve --host 127.0.0.1 --port 8000 --db rummikub.db`` runs the server (rooms resume from the database).
``rummikub play --vs hard,medium --preset classic`` starts a private server on a free local port, creates a room
against those bots and opens the browser on it (``--no-browser`` prints the address instead).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path
from typing import Any

from ..rules import PRESETS

__all__ = ["add_serve_parser", "serve_main", "play_main", "default_play_db"]

WS_MAX_BYTES = 64 * 1024
"""Frames above this close the connection at the protocol level (the app answers ``too_large`` from 16 KiB)."""


def add_serve_parser(subparsers: Any) -> None:
    """Adds ``serve`` and ``play`` to an ``argparse`` subparsers object (each sets ``func``)."""
    serve = subparsers.add_parser("serve", help="run the game server (rooms, pages, WebSocket play)",
                                  description="Serves rooms for people and bots over HTTP and WebSockets; "
                                              "every turn is stored in the SQLite database before it is shown.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument("--db", default="rummikub.db", help="the SQLite database file (default: rummikub.db)")
    serve.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before moving (default 0.6)")
    serve.add_argument("--writer", default="thread", choices=("thread", "loop"),
                       help="commit on a writer thread (default) or on the event loop")
    serve.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    serve.set_defaults(func=serve_main)

    play = subparsers.add_parser("play", help="play against bots in your browser",
                                 description="Starts a local server on a free port, creates a room with you and "
                                             "the bots, and opens your browser on it.")
    play.add_argument("--vs", default="medium", help="the bots, comma-separated: easy, medium, hard (default: medium)")
    play.add_argument("--preset", default="standard", choices=sorted(PRESETS), help="rule preset (default: standard)")
    play.add_argument("--turn-seconds", type=float, default=None, help="a turn clock in seconds (default: the preset's)")
    play.add_argument("--rounds", type=int, default=1, help="rounds in the match (a round is one game per player)")
    play.add_argument("--db", default=None, help=f"the SQLite database (default: {default_play_db()})")
    play.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    play.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before moving (default 0.8)")
    play.add_argument("--no-browser", action="store_true", help="print the room's address instead of opening it")
    play.set_defaults(func=play_main)


def default_play_db() -> str:
    """Where ``rummikub play`` keeps its games: ``$XDG_DATA_HOME/rummikub/play.db``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "rummikub", "play.db")


def _server(app: Any, host: str, port: int, log_level: str) -> Any:
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_BYTES,
                            lifespan="on", access_log=log_level == "debug")
    return uvicorn.Server(config)


def serve_main(args: argparse.Namespace) -> int:
    """``rummikub serve``."""
    from .app import create_app
    from .rooms import Settings

    if args.bot_delay < 0:
        print("rummikub serve: --bot-delay must be >= 0", file=sys.stderr)
        return 2
    app = create_app(args.db, Settings(bot_delay=args.bot_delay, writer=args.writer))
    sys.setswitchinterval(0.001)  # hand the GIL between the event loop and the writer/bot threads sooner
    _server(app, args.host, args.port, args.log_level).run()
    return 0


def play_main(args: argparse.Namespace) -> int:
    """``rummikub play``: a local server, a room against bots, the browser on it."""
    from .app import create_app
    from .rooms import Settings

    bots = [b.strip() for b in args.vs.split(",") if b.strip()]
    if not bots or any(b not in ("easy", "medium", "hard") for b in bots):
        print(f"rummikub play: --vs takes easy, medium or hard, comma-separated; got {args.vs!r}", file=sys.stderr)
        return 2
    db = args.db or default_play_db()
    if db != ":memory:":
        Path(db).parent.mkdir(parents=True, exist_ok=True)
    rules: dict[str, Any] = {"preset": args.preset, "overrides": {}}
    if args.turn_seconds is not None:
        rules["overrides"]["turn_seconds"] = args.turn_seconds
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]
    server = _server(create_app(db, Settings(bot_delay=args.bot_delay)), "127.0.0.1", port, "warning")
    failed: list[str] = []

    def open_room() -> None:
        while not server.started:
            if server.should_exit:
                return
            time.sleep(0.05)
        body = json.dumps({"rules": rules, "seats": ["human", *bots], "rounds": args.rounds}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/rooms", data=body, method="POST",
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                made = json.load(answer)
        except Exception as exc:  # the server says why (bad rules, ...)
            detail = exc.read().decode() if hasattr(exc, "read") else str(exc)
            failed.append(detail)
            server.should_exit = True
            return
        url = f"http://127.0.0.1:{port}{made['seats'][0]['url']}"
        print(f"rummikub play: your game is at {url}", flush=True)
        print("rummikub play: stop the server with Ctrl-C (the game is kept in " + db + ")", flush=True)
        if not args.no_browser:
            webbrowser.open(url)

    threading.Thread(target=open_room, daemon=True).start()
    server.run(sockets=[sock])
    if failed:
        print(f"rummikub play: the room could not be created: {failed[0]}", file=sys.stderr)
        return 1
    return 0
