"""The ASGI application: HTTP routes for rooms and pages, the WebSocket for play.

Routes (JSON unless a page):

- ``GET /`` the lobby page (``static/index.html``); ``GET /room/<id>`` the game page (``static/room.html``); the
  page reads its seat and key from the URL fragment, which browsers never send, so keys stay out of logs.
- ``GET /static/...`` the page's files (nothing is fetched from another host).
- ``POST /api/rooms`` ``{"rules": <rules json>, "seats": ["human", "medium"], "rounds": 1}`` -> 201
  ``{"room": id, "seats": [{"seat": 0, "kind": "human", "key": K, "url": "/room/<id>#seat=0&key=K"}, ...],
  "watch": "/room/<id>#watch"}``.
- ``GET /api/rooms/<id>`` public room information; ``GET /api/rooms/<id>/record[?game=N][&seat=S&key=K]``
  a game's public record, or with a seat's key the full record once that game is over.
- ``GET /api/stats`` operational figures: rooms, connections, actions, action latency (arrival to every
  connection's state queued, stored first), store commits.
- ``WS /ws/<id>``: see :mod:`rummikub.server`.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(":memory:", Settings(bot_delay=0))) as client:
...     made = client.post("/api/rooms", json={"rules": {"preset": "standard"}, "seats": ["human", "easy"]})
...     info = client.get(f"/api/rooms/{made.json()['room']}").json()
>>> made.status_code, info["status"], [s["kind"] for s in info["seats"]]
(201, 'playing', ['human', 'easy'])
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._errors import RummikubError
from . import engine
from .limits import MAX_BODY_BYTES, MAX_MESSAGE_BYTES, TokenBucket, validate_message, validate_room_request
from .rooms import Conn, Hub, Room, RoomError, Settings
from .store import SQLiteStore, Store

__all__ = ["create_app", "Settings", "STATIC"]

log = logging.getLogger("rummikub.server")

STATIC = Path(str(resources.files("rummikub").joinpath("server/static")))
"""The page's files (HTML, CSS, JavaScript modules)."""

_SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                 b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class _SecurityHeaders:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


def create_app(db: str | Store = ":memory:", settings: Settings | None = None) -> Starlette:
    """The server application on a store (an SQLite path, or any :class:`~rummikub.server.store.Store`).

    Rooms are loaded back from the store at start-up (unfinished rooms resume, clocks and bots included)."""
    settings = settings or Settings()
    holder: dict[str, Hub] = {}

    def hub() -> Hub:
        return holder["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = SQLiteStore(db) if isinstance(db, str) else db
        holder["hub"] = the_hub = Hub(store, settings)
        loaded = the_hub.load_active()
        log.info("rummikub server: %d unfinished rooms resumed", loaded)
        app.state.hub = the_hub
        try:
            yield
        finally:
            await the_hub.close()

    async def page(name: str) -> Response:
        path = STATIC / name
        if path.is_file():
            return FileResponse(path, headers={"cache-control": "no-cache"})
        return HTMLResponse(f"<!doctype html><title>rummikub</title><p>The page ({name}) is not installed.</p>")

    async def lobby(request: Request) -> Response:
        return await page("index.html")

    async def room_page(request: Request) -> Response:
        if _room_or_none(request.path_params["room_id"]) is None:
            return HTMLResponse("<!doctype html><title>rummikub</title><p>No such room.</p>", status_code=404)
        return await page("room.html")

    def _room_or_none(room_id: str) -> Room | None:
        if len(room_id) > 64:
            return None
        return hub().get(room_id)

    async def read_json(request: Request) -> Any:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY_BYTES):
            raise HTTPException(413, f"the body must be at most {MAX_BODY_BYTES} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise HTTPException(413, f"the body must be at most {MAX_BODY_BYTES} bytes")
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise HTTPException(400, "the body is not JSON") from None

    async def create_room(request: Request) -> Response:
        body = await read_json(request)
        problem = validate_room_request(body)
        if problem is not None:
            return _error(422, "bad_request", problem)
        try:
            rules = engine.rules_from_json(body.get("rules", {"preset": "standard"}))
        except (RummikubError, TypeError) as exc:
            return _error(422, "bad_rules", str(exc)[:300])
        try:
            room, keys = await hub().create(rules, body["seats"], body.get("rounds", 1), body.get("seed"))
        except RoomError as exc:
            return _error(503 if exc.code == "busy" else 422, exc.code, exc.message)
        seats: list[dict[str, Any]] = []
        for i, kind in enumerate(room.kinds):
            seat: dict[str, Any] = {"seat": i, "kind": kind}
            key = keys[i]
            if key is not None:
                seat["key"] = key
                seat["url"] = f"/room/{room.id}#seat={i}&key={key}"
            seats.append(seat)
        return JSONResponse({"room": room.id, "seats": seats, "watch": f"/room/{room.id}#watch",
                             "ws": f"/ws/{room.id}"}, status_code=201)

    async def room_info(request: Request) -> Response:
        room = _room_or_none(request.path_params["room_id"])
        if room is None:
            return _error(404, "not_found", "no such room")
        return JSONResponse(room.info())

    async def room_record(request: Request) -> Response:
        room = _room_or_none(request.path_params["room_id"])
        if room is None:
            return _error(404, "not_found", "no such room")
        q = request.query_params
        try:
            game = int(q["game"]) - 1 if "game" in q else None
            seat = int(q["seat"]) if "seat" in q else None
        except ValueError:
            return _error(400, "bad_request", "game and seat must be integers")
        try:
            async with room.lock:
                record = room.record(game, seat, q.get("key"))
        except RoomError as exc:
            status = {"auth": 403, "not_found": 404}.get(exc.code, 409)
            return _error(status, exc.code, exc.message)
        return JSONResponse(record, headers={"content-disposition": f'inline; filename="rummikub-{room.id}.json"'})

    async def stats(request: Request) -> Response:
        return JSONResponse(hub().stats())

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, "http", str(exc.detail))

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(ws, hub(), settings)

    routes = [
        Route("/", lobby),
        Route("/room/{room_id}", room_page),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", room_info),
        Route("/api/rooms/{room_id}/record", room_record),
        Route("/api/stats", stats),
        WebSocketRoute("/ws/{room_id}", websocket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(_SecurityHeaders)],
                     exception_handlers={HTTPException: http_error})


async def _serve_socket(ws: WebSocket, hub: Hub, settings: Settings) -> None:
    """One WebSocket connection: authenticate with the first message, then answer requests in order."""
    await ws.accept()
    room_id = ws.path_params["room_id"]
    room = hub.get(room_id) if len(room_id) <= 64 else None
    if room is None:
        await ws.send_json(RoomError("not_found", "no such room").to_message())
        await ws.close(code=4404)
        return
    bucket = TokenBucket(settings.rate, settings.burst)
    conn: Conn | None = None
    sender: asyncio.Task[None] | None = None
    limited_at = -1.0
    hinting = False

    def reply(message: dict[str, Any]) -> None:
        if conn is not None:
            conn.send(message)

    async def direct(message: dict[str, Any]) -> None:
        # before authentication there is no queue: answer directly
        await ws.send_text(json.dumps(message, separators=(",", ":")))

    async def run_hint(c: Conn, msg_id: object) -> None:
        nonlocal hinting
        try:
            answer = await room.hint(c)
        except RoomError as exc:
            answer = exc.to_message()
        except Exception:
            log.exception("room %s: hint failed", room.id)
            answer = RoomError("internal", "the hint failed").to_message()
        finally:
            hinting = False
        if msg_id is not None:
            answer["id"] = msg_id
        c.send(answer)

    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                if len(data) > MAX_MESSAGE_BYTES:
                    text = "x" * (MAX_MESSAGE_BYTES + 1)
                else:
                    try:
                        text = data.decode("utf-8")
                    except UnicodeDecodeError:
                        text = ""
            error: RoomError | None = None
            msg_id: object = None
            if not bucket.take():
                now = bucket.stamp
                if now - limited_at >= 1.0:  # one notice a second, not one per message
                    limited_at = now
                    error = RoomError("rate_limited", f"too many messages: at most {settings.rate:g} a second "
                                                      f"(bursts of {settings.burst})")
                else:
                    continue
            elif len(text) > MAX_MESSAGE_BYTES:
                error = RoomError("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
            else:
                try:
                    data_in = json.loads(text)
                except ValueError:
                    data_in = _BAD_JSON
                if data_in is _BAD_JSON:
                    error = RoomError("bad_json", "the message is not JSON")
                else:
                    problem = validate_message(data_in)
                    if problem is not None:
                        error = RoomError("bad_message", problem)
                        if isinstance(data_in, dict) and isinstance(data_in.get("id"), (str, int)):
                            msg_id = data_in["id"] if len(str(data_in["id"])) <= 64 else None
                    else:
                        msg_id = data_in.get("id")
                        kind = data_in["type"]
                        try:
                            if conn is None:
                                if kind != "hello":
                                    raise RoomError("auth", "say hello first: {\"type\": \"hello\", ...}")
                                seat = None if data_in.get("watch") else int(data_in["seat"])  # 1.0 is JSON's 1
                                room.authenticate(seat, data_in.get("key"))
                                conn = Conn(seat, settings.outbox)
                                sender = asyncio.create_task(_send_loop(ws, conn))
                                await room.join(conn)
                            elif kind == "hello":
                                raise RoomError("hello_again", "this connection has already said hello")
                            elif kind == "action":
                                started = time.perf_counter()
                                try:
                                    await room.act(conn, data_in["action"])
                                finally:
                                    hub.actions += 1
                                    hub.action_ms.append((time.perf_counter() - started) * 1e3)
                            elif kind == "check":
                                answer = await room.check(conn, data_in["draft"])
                                if msg_id is not None:
                                    answer["id"] = msg_id
                                conn.send(answer)
                            elif kind == "hint":
                                if hinting:
                                    raise RoomError("busy", "a hint is still being worked out")
                                room._seat_of(conn)
                                hinting = True
                                asyncio.create_task(run_hint(conn, msg_id))
                            elif kind == "next_game":
                                await room.next_game(conn)
                            elif kind == "rematch":
                                await room.rematch(conn)
                        except RoomError as exc:
                            error = exc
                        except Exception:  # a bug: tell the client without details, keep serving
                            log.exception("room %s: request %s failed", room.id, kind)
                            error = RoomError("internal", "the server failed on that request")
            if error is not None:
                out = error.to_message(msg_id)
                if conn is None:
                    await direct(out)
                    if error.code == "auth":
                        await ws.close(code=4401)
                        return
                else:
                    reply(out)
            if conn is not None and conn.closed:
                break
    except WebSocketDisconnect:
        pass
    finally:
        if conn is not None:
            await room.leave(conn)
            conn.close()
        if sender is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, 5)
        with contextlib.suppress(Exception):
            await ws.close()


_BAD_JSON = object()


async def _send_loop(ws: WebSocket, conn: Conn) -> None:
    """Drains a connection's queue into its socket until the stop mark (or a send fails)."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:
        conn.closed = True
    with contextlib.suppress(Exception):
        await ws.close()

