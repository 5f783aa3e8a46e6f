"""``rummikub serve``: a game server with rooms for friends and bots, persistent by default.

One process serves HTTP (rooms, pages, records) and a WebSocket per player; SQLite (WAL) keeps every room,
seat, match and committed turn before anything is acknowledged, so a killed server resumes every room where it
was, clocks included. See :mod:`rummikub.server.app` for the HTTP routes and ``docs/deploy.md`` for running it.

WebSocket ``/ws/<room>`` (JSON text messages, schema ``rummikub/schemas/server.schema.json``). The first message
authenticates: ``{"type": "hello", "seat": 0, "key": "..."}`` or ``{"type": "hello", "watch": true}``. Then:

============================================== ===========================================================
client -> server                               server -> client
============================================== ===========================================================
``{"type": "action", "action": <action>}``     ``state`` to everyone, or ``error`` (code ``illegal``, with the
                                               rule's ``reason``) to the sender
``{"type": "check", "draft": <draft>}``        ``{"type": "checked", "legal", "problems", "opening_points"}``
``{"type": "hint"}``                           ``{"type": "hint", "action": <action> | null}``
``{"type": "next_game"}`` / ``"rematch"``      ``state`` to everyone
============================================== ===========================================================

Every message may carry an ``"id"`` (string or integer), echoed in its ``checked``, ``hint`` or ``error`` answer.
After every change each connection receives ``{"type": "state", "seat": 0 | null, "view": <observation> |
null (before the room starts), "room": <public room info>, "your_turn", "can_draw", "can_pass"}``. Room info:
``{"room", "status": "waiting" | "playing" | "game_over" | "match_over", "rules", "players", "seats": [{"seat",
"kind", "connected", "joined"}], "watchers", "match": null | {"number", "game", "games_played", "total_games",
"rounds", "wins", "totals", "winners", "over"}}``.

Errors are ``{"type": "error", "code", "message"}``; the connection stays open except after code ``auth``.
Codes: ``auth``, ``hello_again``, ``bad_json``, ``bad_message``, ``too_large``, ``rate_limited``, ``illegal``,
``not_playing``, ``not_now``, ``spectator``, ``busy``, ``storage``, ``internal``, ``not_found``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .rooms import Settings

__all__ = ["create_app", "Settings"]


def __getattr__(name: str) -> Any:
    """The application and its settings, imported on first use: the command line registers ``serve`` and
    ``play`` without loading Starlette and uvicorn."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .rooms import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
