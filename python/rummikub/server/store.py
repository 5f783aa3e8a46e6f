"""Storage: what the server writes before it acknowledges anything, behind one small interface.

:class:`Store` is the whole interface a room needs: :meth:`Store.write` commits a batch of writes atomically and
durably, :meth:`Store.load_room` reads one room back, :meth:`Store.room_ids` lists rooms by status.
:class:`SQLiteStore` is the embedded default; a server database (PostgreSQL) would implement the same four
methods. One writer commits whatever has queued up in a single transaction (a group commit: one fsync for
many turns): :class:`LoopWriter` on the event loop itself, or :class:`Writer` on a thread of its own.

>>> store = SQLiteStore(":memory:")
>>> store.write([CreateRoom("r1", 1.0, '{"seats": ["human", "easy"]}', "waiting",
...                         (SeatRow(0, "human", "ab12"), SeatRow(1, "easy", None)))])
>>> room = store.load_room("r1")
>>> room.status, [s.kind for s in room.seats], store.room_ids(["waiting"])
('waiting', ['human', 'easy'], ['r1'])
>>> store.close()
"""

from __future__ import annotations

import asyncio
import json
import queue
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, Union

__all__ = ["Store", "SQLiteStore", "Writer", "LoopWriter", "SeatRow", "StoredRoom", "CreateRoom", "SetStatus", "SeatJoined",
           "StartMatch", "SaveGame", "Write"]


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored: its index, kind (``human``, ``external`` or a bot level) and its key's hash."""

    seat: int
    kind: str
    key_hash: str | None
    joined: bool = False


@dataclass(frozen=True)
class CreateRoom:
    """A new room with its configuration (JSON text) and seats."""

    room_id: str
    created: float
    config: str
    status: str
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class SetStatus:
    """A room's status changes (``waiting``, ``playing``, ``game_over``, ``match_over``)."""

    room_id: str
    status: str


@dataclass(frozen=True)
class SeatJoined:
    """A seat's owner connected for the first time."""

    room_id: str
    seat: int


@dataclass(frozen=True)
class StartMatch:
    """A match begins (the first, or a rematch): its header, which holds the secret seed."""

    room_id: str
    match_no: int
    header: str


@dataclass(frozen=True)
class SaveGame:
    """A game's progress: its header when it starts (the record without events: rules, seed, deal), then
    after every turn the new events (each with its number in the game, 1, 2, ...) and the turn's deadline."""

    room_id: str
    match_no: int
    game_no: int
    header: str | None
    deadline: float | None
    events: tuple[tuple[int, str], ...] = ()


Write = Union[CreateRoom, SetStatus, SeatJoined, StartMatch, SaveGame]


@dataclass
class StoredRoom:
    """A room as read back: configuration, status, seats, the current match's header and its games' full
    records (assembled from each game's header, its events and its deadline)."""

    room_id: str
    created: float
    config: str
    status: str
    match_no: int
    seats: list[SeatRow]
    match_header: str | None = None
    games: list[str] = field(default_factory=list)


class Store(Protocol):
    """Where rooms live between processes. ``write`` returns only once the writes are durable."""

    def write(self, writes: Sequence[Write]) -> None:
        """Commits ``writes`` in one transaction (all or none) before returning."""

    def load_room(self, room_id: str) -> StoredRoom | None:
        """The room ``room_id`` with its current match, or None."""

    def room_ids(self, statuses: Iterable[str]) -> list[str]:
        """The ids of the rooms whose status is one of ``statuses``."""

    def close(self) -> None:
        """Releases the store."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY, created REAL NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL,
    match_no INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS rooms_status ON rooms(status);
CREATE TABLE IF NOT EXISTS seats (
    room_id TEXT NOT NULL REFERENCES rooms(id), seat INTEGER NOT NULL, kind TEXT NOT NULL, key_hash TEXT,
    joined INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room_id, seat));
CREATE TABLE IF NOT EXISTS matches (
    room_id TEXT NOT NULL REFERENCES rooms(id), match_no INTEGER NOT NULL, header TEXT NOT NULL,
    PRIMARY KEY (room_id, match_no));
CREATE TABLE IF NOT EXISTS games (
    room_id TEXT NOT NULL, match_no INTEGER NOT NULL, game_no INTEGER NOT NULL, header TEXT NOT NULL,
    deadline REAL, events INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room_id, match_no, game_no),
    FOREIGN KEY (room_id, match_no) REFERENCES matches(room_id, match_no));
CREATE TABLE IF NOT EXISTS turns (
    room_id TEXT NOT NULL, match_no INTEGER NOT NULL, game_no INTEGER NOT NULL, seq INTEGER NOT NULL,
    event TEXT NOT NULL, PRIMARY KEY (room_id, match_no, game_no, seq));
"""


class SQLiteStore:
    """The embedded store: one SQLite file in WAL mode with ``synchronous=FULL``.

    WAL lets readers run beside the one writer; ``FULL`` syncs the log at every commit, so a turn that was
    acknowledged survives a killed process *and* a power cut (``NORMAL`` would survive only the first).
    The cost is one fsync per commit, which :class:`Writer`'s group commit shares among every turn queued
    at that moment. A lock serialises use of the one connection.
    """

    def __init__(self, path: str, *, synchronous: str = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, got {synchronous!r}")
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)

    def write(self, writes: Sequence[Write]) -> None:
        """See :meth:`Store.write`."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                for w in writes:
                    self._one(db, w)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _one(db: sqlite3.Connection, w: Write) -> None:
        if isinstance(w, CreateRoom):
            db.execute("INSERT INTO rooms (id, created, config, status) VALUES (?, ?, ?, ?)",
                       (w.room_id, w.created, w.config, w.status))
            db.executemany("INSERT INTO seats (room_id, seat, kind, key_hash, joined) VALUES (?, ?, ?, ?, ?)",
                           [(w.room_id, s.seat, s.kind, s.key_hash, int(s.joined)) for s in w.seats])
        elif isinstance(w, SetStatus):
            db.execute("UPDATE rooms SET status = ? WHERE id = ?", (w.status, w.room_id))
        elif isinstance(w, SeatJoined):
            db.execute("UPDATE seats SET joined = 1 WHERE room_id = ? AND seat = ?", (w.room_id, w.seat))
        elif isinstance(w, StartMatch):
            db.execute("INSERT INTO matches (room_id, match_no, header) VALUES (?, ?, ?)",
                       (w.room_id, w.match_no, w.header))
            db.execute("UPDATE rooms SET match_no = ? WHERE id = ?", (w.match_no, w.room_id))
        elif w.header is not None:
            db.execute("INSERT INTO games (room_id, match_no, game_no, header, deadline, events) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       (w.room_id, w.match_no, w.game_no, w.header, w.deadline, len(w.events)))
            SQLiteStore._turns(db, w)
        else:
            cursor = db.execute("UPDATE games SET deadline = ?, events = events + ? "
                                "WHERE room_id = ? AND match_no = ? AND game_no = ?",
                                (w.deadline, len(w.events), w.room_id, w.match_no, w.game_no))
            if cursor.rowcount != 1:
                raise sqlite3.IntegrityError(f"no game {w.game_no} of match {w.match_no} in room {w.room_id}")
            SQLiteStore._turns(db, w)

    @staticmethod
    def _turns(db: sqlite3.Connection, w: SaveGame) -> None:
        db.executemany("INSERT INTO turns (room_id, match_no, game_no, seq, event) VALUES (?, ?, ?, ?, ?)",
                       [(w.room_id, w.match_no, w.game_no, seq, event) for seq, event in w.events])

    def load_room(self, room_id: str) -> StoredRoom | None:
        """See :meth:`Store.load_room`."""
        with self._lock:
            db = self._db
            row = db.execute("SELECT created, config, status, match_no FROM rooms WHERE id = ?",
                             (room_id,)).fetchone()
            if row is None:
                return None
            seats = [SeatRow(s, k, h, bool(j)) for s, k, h, j in db.execute(
                "SELECT seat, kind, key_hash, joined FROM seats WHERE room_id = ? ORDER BY seat", (room_id,))]
            room = StoredRoom(room_id, row[0], row[1], row[2], row[3], seats)
            header = db.execute("SELECT header FROM matches WHERE room_id = ? AND match_no = ?",
                                (room_id, room.match_no)).fetchone()
            if header is not None:
                room.match_header = header[0]
                games = db.execute("SELECT game_no, header, deadline FROM games WHERE room_id = ? AND match_no = ? "
                                   "ORDER BY game_no", (room_id, room.match_no)).fetchall()
                for game_no, text, deadline in games:
                    record = json.loads(text)
                    record["events"] = [json.loads(e) for (e,) in db.execute(
                        "SELECT event FROM turns WHERE room_id = ? AND match_no = ? AND game_no = ? ORDER BY seq",
                        (room_id, room.match_no, game_no))]
                    record["outcome"] = None  # the replay works it out
                    record["deadline"] = deadline
                    room.games.append(json.dumps(record))
            return room

    def room_ids(self, statuses: Iterable[str]) -> list[str]:
        """See :meth:`Store.room_ids`."""
        wanted = list(statuses)
        with self._lock:
            marks = ", ".join("?" * len(wanted))
            return [r for (r,) in self._db.execute(
                f"SELECT id FROM rooms WHERE status IN ({marks}) ORDER BY created", wanted)]

    def close(self) -> None:
        """See :meth:`Store.close`."""
        with self._lock:
            self._db.close()


_Item = tuple[Sequence[Write], "asyncio.Future[None]", asyncio.AbstractEventLoop]


class Writer:
    """Runs a store's writes on one thread, committing everything queued at once in one transaction.

    ``await writer.write(...)`` returns once the writes are durable; writes are applied in the order they
    were queued. When a batch fails, its items are retried one by one so only the faulty write fails.
    """

    def __init__(self, store: Store, *, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self.commits = 0
        self.writes = 0
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="rummikub-store-writer", daemon=True)
        self._thread.start()

    async def write(self, *writes: Write) -> None:
        """Queues ``writes`` (one transaction with whatever else is queued) and waits until they are durable."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((writes, done, loop))
        await done

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Item]) -> None:
        try:
            self.store.write([w for writes, _, _ in batch for w in writes])
        except Exception:
            if len(batch) == 1:
                writes, done, loop = batch[0]
                self._settle(done, loop, _WriteFailed("the store refused a write"))
                return
            for item in batch:
                self._commit([item])
            return
        self.commits += 1
        self.writes += len(batch)
        for _, done, loop in batch:
            self._settle(done, loop, None)

    @staticmethod
    def _settle(done: asyncio.Future[None], loop: asyncio.AbstractEventLoop, error: Exception | None) -> None:
        def settle() -> None:
            if done.done():
                return
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

        try:
            loop.call_soon_threadsafe(settle)
        except RuntimeError:  # the loop has closed: nobody waits any more
            pass

    def close(self) -> None:
        """Finishes the queued writes, stops the thread and closes the store."""
        self._queue.put(None)
        self._thread.join()
        self.store.close()


class LoopWriter:
    """:class:`Writer`'s interface, committing on the event loop's own thread: everything queued during one
    pass of the loop goes into one transaction. No thread hand-offs, so it is the quicker of the two where a
    commit is quick (a local SSD: a fraction of a millisecond); on a slow disk each commit stalls the loop,
    and :class:`Writer` is the better choice."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.commits = 0
        self.writes = 0
        self._pending: list[tuple[Sequence[Write], asyncio.Future[None]]] = []
        self._scheduled = False

    async def write(self, *writes: Write) -> None:
        """Queues ``writes`` for this pass of the loop and waits until they are durable."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((writes, done))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        await done

    def _flush(self) -> None:
        batch, self._pending, self._scheduled = self._pending, [], False
        self._commit(batch)

    def _commit(self, batch: list[tuple[Sequence[Write], asyncio.Future[None]]]) -> None:
        try:
            self.store.write([w for writes, _ in batch for w in writes])
        except Exception:
            if len(batch) > 1:
                for item in batch:
                    self._commit([item])
            elif not batch[0][1].done():
                batch[0][1].set_exception(_WriteFailed("the store refused a write"))
            return
        self.commits += 1
        self.writes += len(batch)
        for _, done in batch:
            if not done.done():
                done.set_result(None)

    def close(self) -> None:
        """Closes the store (writes still queued were never acknowledged)."""
        self.store.close()


class _WriteFailed(RuntimeError):
    pass
