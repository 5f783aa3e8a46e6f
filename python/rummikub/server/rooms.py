"""Rooms: seats, the match being played, its clock and bots, and the connections watching it.

A :class:`Room` lives in one process and owns one :class:`~rummikub.Match`. Everything that changes it runs
under the room's lock and in the same order: apply to the game, write to the store (and wait until it is
durable), then tell every connection (each gets only its own seat's view, spectators the public one), then
reschedule the clock and the bots. So a client never sees a state the store does not hold.

:class:`Hub` holds the rooms of a process: it creates them, loads them back from the store after a restart
(every unfinished room at start-up, the others on first use) and shuts them down.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from .._errors import RummikubError
from ..bots import BotLike
from ..game import Game
from ..match import Match
from ..rules import RuleSet
from . import engine
from .auth import check_key, hash_key, new_key, new_room_id
from .store import CreateRoom, LoopWriter, SaveGame, SeatJoined, SeatRow, SetStatus, StartMatch, Store, StoredRoom, Write, Writer

__all__ = ["Settings", "Hub", "Room", "Conn", "RoomError", "PEOPLE", "SEAT_KINDS"]

log = logging.getLogger("rummikub.server")
T = TypeVar("T")

PEOPLE = ("human", "external")
"""Seat kinds that connect over the WebSocket with their seat key."""
SEAT_KINDS = PEOPLE + engine.BOT_KINDS

WAITING, PLAYING, GAME_OVER, MATCH_OVER = "waiting", "playing", "game_over", "match_over"
ACTIVE = (WAITING, PLAYING, GAME_OVER)


@dataclass
class Settings:
    """How a server behaves. ``clock`` gives absolute seconds (the games' deadlines are on it)."""

    bot_delay: float = 0.6
    """Seconds a bot waits before it moves (so people can follow; 0 in tests)."""
    clock: engine.Clock = time.time
    rate: float = 20.0
    """Messages per second a connection may send (sustained)..."""
    burst: int = 60
    """...and at once."""
    max_rooms: int = 20_000
    """Rooms held in memory at most; creating more is refused."""
    outbox: int = 256
    """Messages queued for a slow connection before it is dropped."""
    min_turn_seconds: float = 1.0
    writer: str = "thread"
    """``thread``: commits on a writer thread (:class:`~rummikub.server.store.Writer`: the event loop never
    waits for the disk); ``loop``: on the event loop (:class:`~rummikub.server.store.LoopWriter`: no thread
    hand-off; for a disk whose commits take well under a millisecond)."""
    max_rounds: int = 10


class RoomError(Exception):
    """A request the room refuses: ``code`` and ``message`` go to the client as an error message."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def to_message(self, msg_id: object = None) -> dict[str, Any]:
        """The ``{"type": "error", ...}`` message."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message, **self.extra}
        if msg_id is not None:
            out["id"] = msg_id
        return out


class Conn:
    """The sending side of one WebSocket connection: a bounded queue of JSON texts that a sender task drains.
    A connection that falls ``outbox`` messages behind is closed rather than slowing its room down."""

    __slots__ = ("seat", "watch", "queue", "closed")

    def __init__(self, seat: int | None, outbox: int) -> None:
        self.seat = seat
        self.watch = seat is None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(outbox)
        self.closed = False

    def send(self, message: Mapping[str, Any]) -> None:
        """Queues a message (dropped if the connection is closed)."""
        self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queues a JSON text; closes the connection when its queue is full."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Asks the sender task to stop (it then closes the socket)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        if self.queue.full():  # make room for the stop mark
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Room:
    """One room: its rules and seats, the current match, and its connections."""

    def __init__(self, hub: Hub, room_id: str, created: float, rules: RuleSet, kinds: Sequence[str], rounds: int,
                 key_hashes: Sequence[str | None], joined: Sequence[bool], bot_seeds: Sequence[int | None], *,
                 status: str = WAITING, match_no: int = 0, match: Match | None = None,
                 seed: int | None = None) -> None:
        self.hub = hub
        self.seed = seed  # the first match's seed when the room was created with one (None: random)
        self.id = room_id
        self.created = created
        self.rules = rules
        self.kinds = list(kinds)
        self.rounds = rounds
        self.key_hashes = list(key_hashes)
        self.joined = list(joined)
        self.bot_seeds = list(bot_seeds)
        self.status = status
        self.match_no = match_no
        self.match = match
        self.bots: dict[int, BotLike] = {}
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.game_saved = match is not None and match.current_game is not None  # its header is in the store
        self.saved_events = 0 if match is None or match.current_game is None else \
            engine.event_count(match.current_game)
        self._timer: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self.closed = False

    # ---- reading -------------------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Seats in the room."""
        return len(self.kinds)

    @property
    def game(self) -> Game | None:
        """The game being played (or just finished), None before the room starts."""
        return None if self.match is None else self.match.current_game

    @property
    def game_no(self) -> int:
        """The index of the current game in the match."""
        return 0 if self.match is None else len(self.match.games) - 1

    def is_ai_room(self) -> bool:
        """One person and built-in bots only: such a room starts at once."""
        return self.kinds.count("human") == 1 and all(k in engine.BOT_KINDS for k in self.kinds if k != "human")

    def info(self) -> dict[str, Any]:
        """Public room information: rules, seats (kind, connected, joined), status and the match's scores."""
        connected = [False] * self.players
        watchers = 0
        for c in self.conns:
            if c.seat is None:
                watchers += 1
            else:
                connected[c.seat] = True
        match: dict[str, Any] | None = None
        if self.match is not None:
            match = {"number": self.match_no, "game": self.game_no + 1, **engine.scores(self.match)}
        return {"room": self.id, "status": self.status, "rules": self.rules.to_dict(), "players": self.players,
                "seats": [{"seat": i, "kind": k, "connected": connected[i] or k in engine.BOT_KINDS,
                           "joined": self.joined[i]} for i, k in enumerate(self.kinds)],
                "watchers": watchers, "match": match}

    def state(self, seat: int | None, info: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator)."""
        game = self.game
        view = None
        your_turn = can_draw = can_pass = False
        if game is not None:
            view = engine.spectator_dict(game) if seat is None else engine.view_dict(game, seat)
            your_turn = self.status == PLAYING and not game.is_over and seat == game.current_player
            can_draw = your_turn and game.pool_size > 0
            can_pass = your_turn and game.pool_size == 0
        return {"type": "state", "seat": seat, "view": view, "room": dict(info or self.info()),
                "your_turn": your_turn, "can_draw": can_draw, "can_pass": can_pass}

    def broadcast(self) -> None:
        """Sends every connection its own state (one view per seat, made once)."""
        info = self.info()
        texts: dict[int | None, str] = {}
        for c in list(self.conns):
            text = texts.get(c.seat)
            if text is None:
                text = texts[c.seat] = json.dumps(self.state(c.seat, info), separators=(",", ":"))
            c.send_text(text)

    # ---- connections ---------------------------------------------------------------------------------------

    def authenticate(self, seat: int | None, key: object) -> None:
        """Checks a hello: a seat of a person with its key, or a spectator (``seat`` None)."""
        if seat is None:
            return
        if not 0 <= seat < self.players or self.kinds[seat] not in PEOPLE or not check_key(key, self.key_hashes[seat]):
            raise RoomError("auth", "wrong seat or key")

    async def join(self, conn: Conn) -> None:
        """Adds an authenticated connection; the room starts once every person has connected once."""
        async with self.lock:
            self.conns.add(conn)
            seat = conn.seat
            if seat is not None and not self.joined[seat]:
                self.joined[seat] = True
                writes: list[Write] = [SeatJoined(self.id, seat)]
                if self.status == WAITING and all(self.joined[i] for i, k in enumerate(self.kinds) if k in PEOPLE):
                    writes += self._start_match(self.seed)
                await self._persist(writes)
            self.broadcast()
            self._schedule()

    async def leave(self, conn: Conn) -> None:
        """Removes a connection (the others see the seat disconnected)."""
        async with self.lock:
            self.conns.discard(conn)
            if not self.closed:
                self.broadcast()

    # ---- requests ------------------------------------------------------------------------------------------

    def _seat_of(self, conn: Conn) -> int:
        if conn.seat is None:
            raise RoomError("spectator", "a spectator cannot do that")
        return conn.seat

    async def act(self, conn: Conn, action: Mapping[str, Any]) -> None:
        """Applies a seat's action; the change is stored, then everyone is told. Refused: RoomError."""
        seat = self._seat_of(conn)
        async with self.lock:
            game = self.game
            if game is None or self.status != PLAYING:
                raise RoomError("not_playing", f"the room is {self.status}, not playing")
            if engine.advance_clock(game, self.hub.settings.clock()) is not None:  # the time ran out first
                await self._committed()
                raise RoomError("illegal", "the turn's time ran out before the action; the timeout was applied",
                                reason="turn_timeout")
            before = engine.event_count(game)
            refused: RoomError | None = None
            try:
                engine.apply_action(game, seat, action)
            except RummikubError as exc:
                reason = str(getattr(exc, "reason", "illegal"))
                refused = RoomError("illegal", str(exc)[:500], reason=reason)
            if engine.event_count(game) != before:  # a move, or the timeout the action found
                await self._committed()
            if refused is not None:
                raise refused

    async def check(self, conn: Conn, draft: Mapping[str, Any]) -> dict[str, Any]:
        """The check answer for a draft of the seat's own turn (untimed, no penalty, changes nothing)."""
        seat = self._seat_of(conn)
        async with self.lock:
            game = self.game
            if game is None:
                raise RoomError("not_playing", "the room has not started")
            try:
                answer = engine.check_draft(game, seat, draft)
            except RummikubError as exc:
                answer = {"legal": False, "problems": [{"set": None, "code": str(getattr(exc, "reason", "invalid")),
                                                        "message": str(exc)[:500]}], "opening_points": None}
        return {"type": "checked", **answer}

    async def hint(self, conn: Conn) -> dict[str, Any]:
        """The solver's best play for the seat now (None when it is not its turn or there is none)."""
        seat = self._seat_of(conn)
        async with self.lock:
            game = self.game
            position = None if game is None or self.status != PLAYING else engine.hint_position(game, seat)
        action = None if position is None else await self.hub.in_worker(engine.solve_hint, position)
        return {"type": "hint", "action": action}

    async def next_game(self, conn: Conn) -> None:
        """Starts the match's next game once the current one is over."""
        self._seat_of(conn)
        async with self.lock:
            if self.status != GAME_OVER or self.match is None:
                raise RoomError("not_now", f"the next game starts only after a game of an unfinished match "
                                           f"(the room is {self.status})")
            self.match.next_game()
            self.saved_events = 0
            self.game_saved = False
            await self._persist(self._save_game() + [SetStatus(self.id, PLAYING)], status=PLAYING)
            self.broadcast()
            self._schedule()

    async def rematch(self, conn: Conn) -> None:
        """A new match with the same rules and seats, once the current game is over."""
        self._seat_of(conn)
        async with self.lock:
            if self.status not in (GAME_OVER, MATCH_OVER):
                raise RoomError("not_now", f"a rematch starts only after a game (the room is {self.status})")
            await self._persist(self._start_match())
            self.broadcast()
            self._schedule()

    # ---- changes -------------------------------------------------------------------------------------------

    def _start_match(self, seed: int | None = None) -> list[Write]:
        """Starts a new match and its first game (in memory), shuffled from ``seed`` (None: a fresh random seed);
        returns the writes that store it (the match's header keeps the seed, secret until the game ends)."""
        self.match = engine.new_match(self.players, self.rules, rounds=self.rounds, clock=self.hub.settings.clock,
                                      seed=seed)
        self.match_no += 1
        self.match.next_game()
        self.saved_events = 0
        self.game_saved = False
        self.status = PLAYING
        header = json.dumps(engine.match_header(self.match))
        return [StartMatch(self.id, self.match_no, header), *self._save_game(), SetStatus(self.id, PLAYING)]

    def _save_game(self) -> list[Write]:
        """The write that stores the current game's events since the last save (its header at its start)."""
        game = self.game
        assert game is not None
        header = None if self.game_saved else engine.game_header(game)
        events = engine.events_since(game, self.saved_events)
        return [SaveGame(self.id, self.match_no, self.game_no, header, engine.deadline(game),
                         tuple((self.saved_events + i + 1, json.dumps(e)) for i, e in enumerate(events)))]

    def _status_now(self) -> str:
        game = self.game
        if game is None:
            return WAITING
        if not game.is_over:
            return PLAYING
        assert self.match is not None
        return MATCH_OVER if self.match.is_over else GAME_OVER

    async def _persist(self, writes: list[Write], status: str | None = None) -> None:
        """Writes and waits until durable; on failure the room goes back to what the store holds."""
        try:
            await self.hub.writer.write(*writes)
        except Exception:
            log.exception("room %s: the store refused a write; reloading the room", self.id)
            self._reload()
            raise RoomError("storage", "the server could not store the change; the room is as it was") from None
        if status is not None:
            self.status = status
        game = self.game
        self.saved_events = 0 if game is None else engine.event_count(game)
        self.game_saved = game is not None

    async def _committed(self) -> None:
        """After a turn: store it (with the room's new status), tell everyone, reschedule clock and bots."""
        status = self._status_now()
        writes = self._save_game()
        if status != self.status:
            writes.append(SetStatus(self.id, status))
        await self._persist(writes, status=status)
        self.broadcast()
        self._schedule()

    def _reload(self) -> None:
        stored = self.hub.store.load_room(self.id)
        if stored is None:  # pragma: no cover - a room is stored before it exists in memory
            return
        fresh = self.hub.room_from_stored(stored)
        self.status, self.match_no, self.match, self.joined = fresh.status, fresh.match_no, fresh.match, fresh.joined
        self.saved_events, self.game_saved = fresh.saved_events, fresh.game_saved

    # ---- the clock and the bots ----------------------------------------------------------------------------

    def _schedule(self) -> None:
        """Starts the timer for the turn's deadline and the bot whose turn it is (replacing older ones)."""
        current = asyncio.current_task()
        for task in (self._timer, self._bot_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        self._timer = self._bot_task = None
        game = self.game
        if self.closed or game is None or self.status != PLAYING or game.is_over:
            return
        turn = (self.match_no, self.game_no, engine.event_count(game))
        when = engine.deadline(game)
        if when is not None:
            self._timer = asyncio.create_task(self._clock_wait(when, turn), name=f"clock {self.id}")
        seat = game.current_player
        if self.kinds[seat] in engine.BOT_KINDS:
            self._bot_task = asyncio.create_task(self._bot_move(seat, turn), name=f"bot {self.id}")

    def _turn_key(self) -> tuple[int, int, int] | None:
        game = self.game
        return None if game is None else (self.match_no, self.game_no, engine.event_count(game))

    async def _clock_wait(self, when: float, turn: tuple[int, int, int]) -> None:
        clock = self.hub.settings.clock
        await asyncio.sleep(max(0.0, when - clock()) + 0.005)
        async with self.lock:
            game = self.game
            if self.closed or game is None or self._turn_key() != turn or self.status != PLAYING:
                return
            engine.advance_clock(game, clock())
            if self._turn_key() != turn:
                await self._committed()
            else:  # woke a little early on this clock: wait again
                self._schedule()

    async def _bot_move(self, seat: int, turn: tuple[int, int, int]) -> None:
        delay = self.hub.settings.bot_delay
        if delay > 0:
            await asyncio.sleep(delay)
        async with self.lock:
            game = self.game
            if self.closed or game is None or self._turn_key() != turn:
                return
            choose = engine.bot_action(self._bot(seat), game, seat)
        try:
            action = await self.hub.in_worker(choose)
        except Exception:
            log.exception("room %s: bot %s failed; it draws or passes", self.id, self.kinds[seat])
            action = None
        async with self.lock:
            game = self.game
            if self.closed or game is None or self._turn_key() != turn:
                return
            if engine.advance_clock(game, self.hub.settings.clock()) is None:  # else the bot ran out of time
                try:
                    if action is None:
                        raise RummikubError("no action")
                    engine.apply_action(game, seat, action)
                except RummikubError:
                    log.warning("room %s: bot %s answered %r, refused; it draws or passes", self.id,
                                self.kinds[seat], action)
                    engine.apply_action(game, seat, {"kind": "draw" if game.pool_size else "pass"})
            await self._committed()

    def _bot(self, seat: int) -> BotLike:
        bot = self.bots.get(seat)
        if bot is None:
            seed = self.bot_seeds[seat]
            bot = self.bots[seat] = engine.make_bot(self.kinds[seat], seed if seed is not None else 0)
        return bot

    def resume(self) -> None:
        """After loading: restart the clock and the bots where the room stands."""
        self._schedule()

    async def close(self) -> None:
        """Stops the room's tasks and connections (the store already holds everything)."""
        self.closed = True
        tasks = [t for t in (self._timer, self._bot_task) if t is not None and not t.done()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for c in list(self.conns):
            c.close()

    # ---- records -------------------------------------------------------------------------------------------

    def record(self, game_index: int | None, seat: int | None, key: object) -> dict[str, Any]:
        """A game's public record; with a seat's key, the full record once that game is over."""
        if self.match is None or not self.match.games:
            raise RoomError("not_started", "the room has not started yet")
        games = self.match.games
        index = len(games) - 1 if game_index is None else game_index
        if not 0 <= index < len(games):
            raise RoomError("not_found", f"game {game_index} does not exist (the match has {len(games)} games)")
        game = games[index]
        if seat is None:
            return engine.public_record(game)
        self.authenticate(seat, key)
        if not game.is_over:
            raise RoomError("not_over", "the full record is available once the game is over")
        return engine.full_record(game)


class Hub:
    """The rooms of one process, their store and its writer."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.writer: Writer | LoopWriter = LoopWriter(store) if self.settings.writer == "loop" else Writer(store)
        self.rooms: dict[str, Room] = {}
        self.action_ms: collections.deque[float] = collections.deque(maxlen=20_000)
        self.actions = 0
        self.workers = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="rummikub-bot")

    def stats(self) -> dict[str, Any]:
        """Operational figures (no room ids, no secrets): rooms, connections, turns stored, and the time from
        an action's arrival to its state being queued for every connection (stored durably first)."""
        ordered = sorted(self.action_ms)

        def pct(p: float) -> float | None:
            return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 3) if ordered else None

        return {"rooms": len(self.rooms), "connections": sum(len(r.conns) for r in self.rooms.values()),
                "actions": self.actions, "action_ms": {"p50": pct(50), "p99": pct(99), "max": pct(100)},
                "store": {"commits": self.writer.commits, "writes": self.writer.writes}}

    async def in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs ``fn(*args)`` on the worker threads (bots and hints: the search releases the GIL); as many
        workers as cores, so a burst of bot turns queues instead of crowding the event loop off the GIL."""
        return await asyncio.get_running_loop().run_in_executor(self.workers, fn, *args)

    def room_from_stored(self, stored: StoredRoom) -> Room:
        """A room object from its stored form (the match replayed from its records)."""
        config = json.loads(stored.config)
        rules = RuleSet.from_dict(config["rules"])
        match = None
        if stored.match_header is not None:
            match = engine.match_from_parts(json.loads(stored.match_header), stored.games, self.settings.clock)
        return Room(self, stored.room_id, stored.created, rules, [s.kind for s in stored.seats], config["rounds"],
                    [s.key_hash for s in stored.seats], [s.joined for s in stored.seats], config["bot_seeds"],
                    status=stored.status, match_no=stored.match_no, match=match, seed=config.get("seed"))

    def load_active(self) -> int:
        """Loads every unfinished room and restarts its clock and bots; returns how many."""
        for room_id in self.store.room_ids(ACTIVE):
            self.get(room_id)
        return len(self.rooms)

    def get(self, room_id: str) -> Room | None:
        """The room ``room_id`` (loaded from the store on first use), or None."""
        room = self.rooms.get(room_id)
        if room is None:
            stored = self.store.load_room(room_id)
            if stored is None:
                return None
            try:
                room = self.room_from_stored(stored)
            except Exception:  # a damaged room stays unavailable; the others are served
                log.exception("room %s cannot be loaded from the store", room_id)
                return None
            self.rooms[room_id] = room
            room.resume()
        return room

    async def create(self, rules: RuleSet, kinds: Sequence[str], rounds: int = 1,
                     seed: int | None = None) -> tuple[Room, list[str | None]]:
        """Creates and stores a room; returns it with each seat's key (None for bots). An AI room starts.
        ``seed`` shuffles the first match (for reproducible games; a rematch is shuffled afresh)."""
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError("busy", "the server holds as many rooms as it may; try again later")
        if not rules.min_players <= len(kinds) <= rules.max_players:
            raise RoomError("bad_request", f"{len(kinds)} seats: the rules {rules.name!r} allow "
                                           f"{rules.min_players}..{rules.max_players}")
        unknown = [k for k in kinds if k not in SEAT_KINDS]
        if unknown:
            raise RoomError("bad_request", f"unknown seat kind {unknown[0]!r}; choose from {', '.join(SEAT_KINDS)}")
        if not any(k in PEOPLE for k in kinds):
            raise RoomError("bad_request", "a room needs at least one human or external seat")
        if not 1 <= rounds <= self.settings.max_rounds:
            raise RoomError("bad_request", f"rounds must be within 1..{self.settings.max_rounds}, got {rounds}")
        if rules.turn_seconds is not None and rules.turn_seconds < self.settings.min_turn_seconds:
            raise RoomError("bad_request", f"turn_seconds must be at least {self.settings.min_turn_seconds}")
        room_id = new_room_id()
        keys = [new_key() if k in PEOPLE else None for k in kinds]
        hashes = [None if k is None else hash_key(k) for k in keys]
        seeds = [secrets.randbits(63) if k in engine.BOT_KINDS else None for k in kinds]
        config = {"rules": rules.to_dict(), "seats": list(kinds), "rounds": rounds, "bot_seeds": seeds, "seed": seed}
        seats = tuple(SeatRow(i, k, hashes[i]) for i, k in enumerate(kinds))
        now = time.time()
        room = Room(self, room_id, now, rules, kinds, rounds, hashes, [False] * len(kinds), seeds, seed=seed)
        writes: list[Write] = [CreateRoom(room_id, now, json.dumps(config), WAITING, seats)]
        async with room.lock:
            if room.is_ai_room():
                writes += room._start_match(seed)
            await self.writer.write(*writes)
            room.saved_events = engine.event_count(room.game) if room.game is not None else 0
            room.game_saved = room.game is not None
            self.rooms[room_id] = room
            room._schedule()
        return room, keys

    async def close(self) -> None:
        """Stops every room and the writer (after the queued writes) and closes the store."""
        for room in list(self.rooms.values()):
            await room.close()
        self.workers.shutdown(wait=False, cancel_futures=True)
        if isinstance(self.writer, Writer):
            await asyncio.to_thread(self.writer.close)
        else:
            self.writer.close()
