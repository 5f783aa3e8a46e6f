"""The engine protocol: JSON lines between ``rummikub engine`` and any program, in the spirit of UCI.

One JSON object per line, UTF-8, each way. The engine first prints a ``hello`` (protocol version, engine name
and version, capabilities); then every request (``solve``, ``plays``, ``check``, ``arrange``, ``turn``,
``quit``) carries an ``id`` and gets exactly one answer with that id: ``{"type": "result", ...}`` or
``{"type": "error", "code": ..., "message": ...}``. A bad line gets an error answer and the engine reads on;
end of input ends it cleanly. ``docs/protocol.md`` is the specification; ``schemas/protocol.schema.json``
describes every message (JSON Schema draft 2020-12) and the engine validates every request against it.

:class:`Engine` answers requests in-process (``handle_line``) and runs the stdio loop (``serve``);
:class:`EngineProcess` is the other end: it starts a program that speaks the protocol (``rummikub engine``,
an external bot) and exchanges messages with it under a time limit (the arena's ``cmd:`` players use it).

>>> engine = Engine()
>>> engine.hello()["capabilities"]
['solve', 'plays', 'check', 'arrange', 'turn']
>>> engine.handle_line('{"id": 1, "type": "solve", "table": "R5 J R7 | KBO7", "rack": "R8 K7 O1"}')["play"]["tiles"]
'R8'
>>> answer = engine.handle_line('{"id": 2, "type": "solve", "rack": "R99"}')
>>> answer["type"], answer["code"]
('error', 'bad_notation')
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import IO, Any, Callable

from ._errors import (
    shorten,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidTileError,
    RummikubError,
    SearchLimitError,
    TileCountError,
)
from .legality import check_turn
from .meld import Meld, Table
from .rules import RuleSet, rules_from_json
from .tiles import TileSet

__all__ = ["PROTOCOL_VERSION", "CAPABILITIES", "ERROR_CODES", "MAX_LINE_BYTES", "DEFAULT_PLAYS", "MAX_PLAYS",
           "ProtocolError", "Engine", "load_schema", "validator", "serve",
           "EngineProcess", "ExternalPlayerError", "FORFEIT_CAUSES"]

PROTOCOL_VERSION = 1
"""The protocol's version, announced in ``hello``; a change that breaks a client raises it."""

CAPABILITIES = ("solve", "plays", "check", "arrange", "turn")
"""The requests ``rummikub engine`` answers (besides ``quit``)."""

ERROR_CODES = ("bad_json", "line_too_long", "bad_request", "unknown_type", "bad_notation", "bad_rules",
               "bad_position", "search_limit", "too_many_plays", "unknown_bot", "bad_observation", "internal")
"""Every ``code`` an error answer may carry (docs/protocol.md says when)."""

MAX_LINE_BYTES = 1 << 20
"""The longest request line read (bytes, newline excluded); a longer line gets ``line_too_long``."""

DEFAULT_PLAYS = 1000
MAX_PLAYS = 100_000
"""``plays`` answers at most ``limit`` plays (default :data:`DEFAULT_PLAYS`, at most :data:`MAX_PLAYS`)."""

_DEFAULT_PRESET = "standard"
_REQUEST_TYPES = (*CAPABILITIES, "quit")
_MAX_SHOWN = 120  # characters of an offending input quoted in a message


class ProtocolError(RummikubError):
    """A request the engine refuses: ``code`` is one of :data:`ERROR_CODES`, the message names the input."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _short(value: object) -> str:
    if isinstance(value, str):
        return shorten(value, _MAX_SHOWN)
    try:
        text = json.dumps(value, default=repr)
    except (RecursionError, ValueError, TypeError):  # nested too deep to write out again
        return shorten(value, _MAX_SHOWN)
    return shorten(text, _MAX_SHOWN)


# ---- schema ----------------------------------------------------------------------------------------------


def load_schema() -> dict[str, Any]:
    """The protocol's JSON Schema (``rummikub/schemas/protocol.schema.json``) as a dict.

    >>> sorted(load_schema()["$defs"])[:3]
    ['arrange', 'arrangeResult', 'check']
    """
    from . import schemas

    return schemas.load_schema("protocol")


@lru_cache(maxsize=None)
def validator(definition: str | None = None) -> Any:
    """A compiled ``jsonschema`` validator of the whole protocol schema, or of one of its ``$defs``
    (``"solve"``, ``"solveResult"``, ``"hello"``, ...). Made once per definition.

    >>> validator("arrange").is_valid({"id": 1, "type": "arrange", "tiles": "R1 R2 R3"})
    True
    >>> validator("arrange").is_valid({"id": 1, "type": "arrange"})
    False
    """
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    from . import schemas

    root = load_schema()
    if definition is not None and definition not in root["$defs"]:
        raise RummikubError(f"the protocol schema has no definition {definition!r}")
    schema = root if definition is None else {"$ref": f"{root['$id']}#/$defs/{definition}"}
    return Draft202012Validator(schema, registry=schemas.registry())


def _fast_check(definition: str) -> Callable[[Any], bool] | None:
    """The compiled check of one protocol definition (about 5 us for a ``solve`` request instead of 100-200 us
    with ``jsonschema``), or None without fastjsonschema (tests/integration/test_protocol_engine.py checks
    that both validators agree)."""
    from . import schemas

    return schemas.fast_check("protocol", definition)


def _schema_problem(instance: Any, definition: str) -> str | None:
    """None when ``instance`` is valid under ``$defs/<definition>``, else what is wrong (naming the field)."""
    fast = _fast_check(definition)
    if fast is not None and fast(instance):
        return None
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped, unused-ignore]

    error = best_match(validator(definition).iter_errors(instance))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    message = error.message if len(error.message) <= 2 * _MAX_SHOWN else error.message[:2 * _MAX_SHOWN] + "..."
    return f"{'field ' + repr(where) if where else 'the request'}: {message}"


# ---- rules and positions ---------------------------------------------------------------------------------


def _notation_error(exc: RummikubError, what: str, text: str) -> ProtocolError:
    if isinstance(exc, TileCountError):
        return ProtocolError("bad_position", f"{what} {_short(text)}: {exc}")
    return ProtocolError("bad_notation", f"{what} {_short(text)}: {exc}")


def _table(text: str, rules: RuleSet, what: str = "table") -> Table:
    from .action import table_from_text

    try:
        if "group:" not in text:  # Table.parse reads the same sets, twice as fast (it keeps no tile order)
            return Table.parse(text, rules)
        return table_from_text(text, rules)
    except RummikubError as exc:
        raise _notation_error(exc, what, text) from None


def _tiles(text: str, rules: RuleSet, what: str, *, check: bool = True) -> TileSet:
    try:
        tiles = TileSet.parse(text, rules)
        if check:
            tiles.check(rules, what=what)
    except RummikubError as exc:
        raise _notation_error(exc, what, text) from None
    return tiles


def _play_json(play: Any, rack: TileSet | None = None) -> dict[str, Any]:
    from .action import table_to_text

    out: dict[str, Any] = {"tiles": str(play.tiles), "table": table_to_text(play.table), "value": play.value,
                           "count": len(play.tiles)}
    if rack is not None:
        out["rack_left"] = str(rack - play.tiles)
        out["stats"] = {"states": play.stats.states, "transitions": play.stats.transitions, "runs": play.stats.runs}
    return out


# ---- the engine ------------------------------------------------------------------------------------------


Handler = Callable[["Engine", dict[str, Any]], dict[str, Any]]


class Engine:
    """Answers protocol requests. ``handle_line`` takes one line and returns the answer (a dict); ``serve``
    runs the loop over binary streams. The only state is a cache of rules and of the bots ``turn`` uses
    (one per bot name and seed, so a seeded bot draws the same random numbers as in a local game).

    ``validate`` checks every request against the schema first (the default; turning it off only saves
    the validation's time, the handlers still refuse bad input with an error answer).

    >>> Engine().handle_line('{"id": "a", "type": "arrange", "tiles": "K1 K2 K3 J"}')
    {'id': 'a', 'type': 'result', 'table': 'K1 K2 K3 J'}
    """

    def __init__(self, *, validate: bool = True, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.validate = validate
        self.max_line_bytes = max_line_bytes
        self._rules: dict[str, RuleSet] = {}
        self._bots: dict[tuple[str, int | None], Any] = {}
        self.closed = False

    def hello(self) -> dict[str, Any]:
        """The handshake the engine prints first."""
        from . import __version__
        from .bots import bot_names

        return {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": "rummikub", "version": __version__,
                "capabilities": list(CAPABILITIES), "bots": bot_names(),
                "limits": {"max_line_bytes": self.max_line_bytes, "max_plays": MAX_PLAYS}}

    # -- dispatch --

    def handle_line(self, line: str | bytes) -> dict[str, Any]:
        """The answer to one request line (never raises for bad input)."""
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                return _error(None, "bad_json", f"the line is not UTF-8: {exc}")
        try:
            request = json.loads(line)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested thousands deep
            return _error(None, "bad_json", f"the line {_short(line.strip())} is not JSON: {exc}")
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """The answer to one decoded request."""
        if not isinstance(request, dict):
            return _error(None, "bad_request", f"a request is a JSON object, got {_short(request)}")
        rid = request.get("id")
        if isinstance(rid, bool) or not isinstance(rid, (str, int)) or (isinstance(rid, str) and len(rid) > 200):
            return _error(None, "bad_request", f"request {_short(request)}: 'id' must be a string (at most 200 "
                                               f"characters) or an integer, got {_short(rid)}")
        kind = request.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return _error(rid, "unknown_type", f"request {rid!r}: unknown type {_short(kind)}; expected one of "
                                               f"{', '.join(_REQUEST_TYPES)}")
        try:
            if self.validate:
                problem = _schema_problem(request, str(kind))
                if problem is not None:
                    return _error(rid, "bad_request", f"{kind} request {rid!r}: {problem}")
            answer = handler(self, request)
        except ProtocolError as exc:
            return _error(rid, exc.code, f"{kind} request {rid!r}: {exc}")
        except SearchLimitError as exc:
            return _error(rid, "search_limit", f"{kind} request {rid!r}: {exc}")
        except (InvalidNotationError, InvalidTileError, InvalidMeldError) as exc:
            return _error(rid, "bad_notation", f"{kind} request {rid!r}: {exc}")
        except RummikubError as exc:
            return _error(rid, "bad_position", f"{kind} request {rid!r}: {exc}")
        except Exception as exc:  # noqa: BLE001 - an answer, never a traceback, and the loop goes on
            return _error(rid, "internal", f"{kind} request {rid!r}: internal error {type(exc).__name__}: {exc}")
        return {"id": rid, "type": "result", **answer}

    def rules(self, obj: Any) -> RuleSet:
        """The rules of a request (cached by their JSON text); ``bad_rules`` when they do not make a RuleSet."""
        key = obj if isinstance(obj, str) else json.dumps(obj, sort_keys=True)
        found = self._rules.get(key)
        if found is None:
            try:
                found = RuleSet.preset(_DEFAULT_PRESET) if obj is None else rules_from_json(obj)
            except (RummikubError, TypeError) as exc:
                raise ProtocolError("bad_rules", f"rules {_short(obj)}: {exc}") from None
            if len(self._rules) >= 256:
                self._rules.clear()
            self._rules[key] = found
        return found

    # -- requests --

    def _solve(self, req: dict[str, Any]) -> dict[str, Any]:
        from .search import DEFAULT_SOLVE_LIMIT, solve

        rules = self.rules(req.get("rules"))
        table = _table(req.get("table", ""), rules)
        rack = _tiles(req["rack"], rules, "rack", check=False)  # the search checks the tile counts
        play = solve(table, rack, rules=rules, opened=bool(req.get("opened", True)),
                     objective=req.get("objective", "tiles"), limit=req.get("limit", DEFAULT_SOLVE_LIMIT))
        return {"play": None if play is None else _play_json(play, rack)}

    def _plays(self, req: dict[str, Any]) -> dict[str, Any]:
        from .search import plays

        rules = self.rules(req.get("rules"))
        table = _table(req.get("table", ""), rules)
        rack = _tiles(req["rack"], rules, "rack", check=False)  # the search checks the tile counts
        limit = req.get("limit", DEFAULT_PLAYS)
        found = plays(table, rack, rules=rules, opened=bool(req.get("opened", True)))
        if len(found) > limit:
            raise ProtocolError("too_many_plays", f"rack {_short(str(rack))} on table {_short(str(table))} has "
                                f"{len(found)} legal plays, more than the limit {limit}; raise 'limit' (at most "
                                f"{MAX_PLAYS}) or ask 'solve' for the best one")
        return {"plays": [_play_json(p) for p in found], "count": len(found)}

    def _check(self, req: dict[str, Any]) -> dict[str, Any]:
        rules = self.rules(req.get("rules"))
        opened = bool(req.get("opened", True))
        before = _table(req.get("table", ""), rules)
        rack = _tiles(req["rack"], rules, "rack")
        _fits(before, rack, rules)
        melds, problems = _read_sets(req["new_table"], rules)
        after = Table(melds)
        points = None if opened or rules.opening_threshold <= 0 else _opening_points(before, after, rack)
        if problems:
            return {"legal": False, "problems": problems, "opening_points": points, "played": None}
        try:
            played = check_turn(before, rack, after, rules=rules, opened=opened)
        except IllegalMoveError as exc:
            return {"legal": False, "opening_points": points, "played": None,
                    "problems": [{"set": None, "code": exc.reason, "message": str(exc)}]}
        return {"legal": True, "problems": [], "opening_points": points, "played": str(played)}

    def _arrange(self, req: dict[str, Any]) -> dict[str, Any]:
        from .action import table_to_text
        from .search import arrange

        rules = self.rules(req.get("rules"))
        tiles = _tiles(req["tiles"], rules, "tiles")
        table = arrange(tiles, rules)
        return {"table": None if table is None else table_to_text(table)}

    def _turn(self, req: dict[str, Any]) -> dict[str, Any]:
        from .bots import fallback, get_bot
        from .game import PlayerView

        name = req.get("bot", "medium")
        seed = req.get("seed")
        try:
            view = PlayerView.from_dict(req["observation"])
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ProtocolError("bad_observation", f"observation: {type(exc).__name__}: {exc}") from None
        if view.player is None or view.rack is None:
            raise ProtocolError("bad_observation", "the observation is a spectator's; a turn needs the view of "
                                                   "the player to move")
        if view.outcome is not None or view.current_player != view.player:
            raise ProtocolError("bad_observation", f"it is not player {view.player}'s turn in the observation "
                                                   f"(current player {view.current_player}, "
                                                   f"{'game over' if view.outcome is not None else 'game on'})")
        bot = self._bots.get((name, seed))
        if bot is None:
            if ":" in name:  # module:Name would import code: only the registered bots over the protocol
                raise ProtocolError("unknown_bot", f"bot {_short(name)}: only the built-in bots are served")
            try:
                bot = get_bot(name, seed)
            except RummikubError as exc:
                raise ProtocolError("unknown_bot", str(exc)) from None
            if len(self._bots) >= 64:
                self._bots.clear()
            self._bots[(name, seed)] = bot
        try:
            action = bot.choose(view)
        except SearchLimitError:  # past the search's state limit: the bot draws (or passes), as in the arena
            action = fallback(view)
        return {"action": _action_json(action)}

    def _quit(self, req: dict[str, Any]) -> dict[str, Any]:
        self.closed = True
        return {}

    # -- the loop --

    def serve(self, inp: IO[bytes], out: IO[bytes]) -> int:
        """Prints the hello, then answers every request line of ``inp`` on ``out`` (flushed after every line)
        until end of input or ``quit``; returns the exit status (0)."""
        write = out.write
        flush = out.flush
        write(_encode(self.hello()))
        flush()
        for line in _lines(inp, self.max_line_bytes):
            if isinstance(line, int):
                answer = _error(None, "line_too_long", f"a request line of {line} bytes is longer than the "
                                                       f"limit of {self.max_line_bytes} bytes")
            elif not line.strip():
                continue  # blank lines are not requests
            else:
                answer = self.handle_line(line)
            write(_encode(answer))
            flush()
            if self.closed:
                break
        return 0


_HANDLERS: dict[str, Handler] = {
    "solve": Engine._solve, "plays": Engine._plays, "check": Engine._check, "arrange": Engine._arrange,
    "turn": Engine._turn, "quit": Engine._quit,
}


def _error(rid: Any, code: str, message: str) -> dict[str, Any]:
    return {"id": rid, "type": "error", "code": code, "message": message}


def _encode(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(", ", ": ")) + "\n").encode("utf-8")


def _lines(inp: IO[bytes], limit: int) -> Iterator[bytes | int]:
    """The lines of ``inp`` without their newline; a line longer than ``limit`` is skipped to its end and
    yields its length so far (an int) instead."""
    readline = inp.readline
    while True:
        line = readline(limit + 2)
        if not line:
            return
        if line.endswith(b"\n"):
            line = line[:-1]
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) <= limit:
                yield line
                continue
            yield len(line)
            continue
        if len(line) <= limit:  # the last line, without a newline
            yield line
            return
        size = len(line)
        while line and not line.endswith(b"\n"):  # skip the rest of the long line
            line = readline(1 << 16)
            size += len(line)
        yield size - line.endswith(b"\n") - line.endswith(b"\r\n")


def _fits(table: Table, rack: TileSet, rules: RuleSet) -> None:
    try:
        (table.tiles() | rack).check(rules, what="the table and the rack together")
    except RummikubError as exc:
        raise ProtocolError("bad_position", f"rack {_short(str(rack))} on table {_short(str(table))}: {exc}") from None


def _read_sets(text: str, rules: RuleSet) -> tuple[list[Meld], list[dict[str, Any]]]:
    """The sets of a proposed table and, for each set that is not a valid group or run, a problem."""
    from .action import table_from_text

    if not text.strip():
        return [], []
    melds: list[Meld] = []
    problems: list[dict[str, Any]] = []
    for i, piece in enumerate(text.split("|"), start=1):
        piece = piece.strip()
        try:
            if piece.startswith("group:"):
                melds.extend(table_from_text(piece, rules))
            else:
                melds.append(Meld.parse(piece, rules))
        except InvalidMeldError as exc:
            try:
                tiles = TileSet.parse(piece.removeprefix("group:"), rules)
            except RummikubError as inner:
                raise _notation_error(inner, f"set {i} of new_table", piece.strip()) from None
            code = "loose_tile" if len(tiles) < rules.min_len else "invalid_set"
            problems.append({"set": f"s{i}", "code": code, "message": f"set {i}: {exc}"})
        except RummikubError as exc:
            raise _notation_error(exc, f"set {i} of new_table", piece) from None
    return melds, problems


def _opening_points(before: Table, after: Table, rack: TileSet) -> int:
    """The points of the sets of ``after`` made only of rack tiles (the sets an opening counts)."""
    left = {m.key: 0 for m in before}
    for m in before:
        left[m.key] += 1
    points = 0
    available = rack
    for meld in after:
        if left.get(meld.key, 0) > 0:
            left[meld.key] -= 1
            continue
        tiles = meld.tileset()
        if tiles <= available:
            available = available - tiles
            points += meld.value
    return points


def _action_json(action: Any) -> dict[str, Any]:
    from .action import Action

    if not isinstance(action, Action):  # a bot registered by a user may answer anything
        raise ProtocolError("internal", f"the bot answered {_short(repr(action))}, not an Action")
    return action.to_dict()


def serve(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None, *,
          validate: bool = True) -> int:
    """Runs the engine on standard input and output (or the given binary streams); returns 0."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    try:
        return Engine(validate=validate).serve(inp, out)
    except BrokenPipeError:  # the client went away: nothing left to answer
        if stdout is None:  # and nothing left to flush at exit either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


# ---- the other end: a program that speaks the protocol ----------------------------------------------------


FORFEIT_CAUSES = ("crash", "timeout", "malformed", "illegal")
"""Why an external player's turn was forfeited (replaced by a draw, or a pass with an empty pool)."""


class ExternalPlayerError(RummikubError):
    """An external program failed to answer: ``cause`` is ``"crash"`` (it exited or closed its output),
    ``"timeout"`` (no answer in time) or ``"malformed"`` (an answer that is not a valid result)."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(message)
        self.cause = cause


class EngineProcess:
    """A program that speaks the protocol, run as a subprocess with pipes (no shell): reads its ``hello``,
    then :meth:`request` sends one message and waits for the answer with the same id, at most ``timeout``
    seconds. Late answers to earlier requests are skipped by id. :meth:`close` stops the program (end of
    input, then terminate, then kill) and is safe to call twice; the object is also a context manager.

    ``command`` is an argument list, or a string split like a POSIX shell would (``shlex.split``).

    >>> import sys
    >>> with EngineProcess([sys.executable, "-m", "rummikub.cli", "engine"]) as engine:
    ...     engine.request({"type": "arrange", "tiles": "R1 R2 R3"})["table"]
    'R1 R2 R3'
    """

    def __init__(self, command: str | Sequence[str], *, hello_seconds: float = 30.0,
                 env: Mapping[str, str] | None = None, cwd: str | None = None,
                 stderr: int | IO[Any] | None = None, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise RummikubError(f"an external program needs a command, got {shorten(command)}")
        self.command = args
        self.max_line_bytes = max_line_bytes
        self._lines: queue.Queue[bytes | int | None] = queue.Queue()
        self._next_id = 0
        self._dead = ""
        popen_env = dict(os.environ if env is None else env)
        try:
            self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                          env=popen_env, cwd=cwd, bufsize=0, **_own_process_group())
        except OSError as exc:
            raise RummikubError(f"cannot start {shlex.join(args)!r}: {exc}") from None
        self._reader = threading.Thread(target=self._read, name=f"protocol-reader-{self._proc.pid}", daemon=True)
        self._reader.start()
        try:
            self.hello = self._hello(hello_seconds)
        except BaseException:  # a failed handshake, or Ctrl-C while waiting for it: never leave it running
            self.close(grace=0.2)
            raise

    @property
    def pid(self) -> int:
        """The process id of the program."""
        return self._proc.pid

    def poll(self) -> int | None:
        """The program's exit status, or None while it runs."""
        return self._proc.poll()

    @property
    def alive(self) -> bool:
        """True while the program runs and has not failed."""
        return not self._dead and self._proc.poll() is None

    def _read(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        try:
            for line in _lines(stdout, self.max_line_bytes):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _receive(self, deadline: float, what: str) -> Any:
        """The next message (decoded), or ExternalPlayerError."""
        if self._dead:
            raise ExternalPlayerError("crash", f"{self.name}: {self._dead}")
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise ExternalPlayerError("timeout", f"{self.name}: no answer to {what} in time") from None
        if line is None:
            status = self._wait_status()
            self._dead = f"exited (status {status})" if status is not None else "closed its output"
            raise ExternalPlayerError("crash", f"{self.name} {self._dead} instead of answering {what}")
        if isinstance(line, int):
            raise ExternalPlayerError("malformed", f"{self.name}: an answer to {what} of {line} bytes, over "
                                                   f"the limit of {self.max_line_bytes}")
        try:
            return json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: nested thousands deep
            raise ExternalPlayerError("malformed", f"{self.name}: answer to {what} is not JSON: "
                                                   f"{_short(line.decode('utf-8', 'replace'))}") from None

    def _wait_status(self) -> int | None:
        try:
            return self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return None

    def _hello(self, seconds: float) -> dict[str, Any]:
        message = self._receive(time.monotonic() + seconds, "the handshake")
        if not validator("hello").is_valid(message):
            raise ExternalPlayerError("malformed", f"{self.name}: the first line is not a hello: {_short(message)}")
        if message["protocol"] != PROTOCOL_VERSION:
            raise ExternalPlayerError("malformed", f"{self.name} speaks protocol {message['protocol']}, "
                                                   f"not {PROTOCOL_VERSION}")
        hello: dict[str, Any] = message
        return hello

    @property
    def name(self) -> str:
        """The command, for messages."""
        return repr(shlex.join(self.command))

    def send(self, message: Mapping[str, Any]) -> Any:
        """Writes one message (``id`` added when missing); returns its id."""
        if self._dead:
            raise ExternalPlayerError("crash", f"{self.name}: {self._dead}")
        if "id" not in message:
            self._next_id += 1
            message = {"id": self._next_id, **message}
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(_encode(message))
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            status = self._wait_status()
            self._dead = f"exited (status {status})" if status is not None else "closed its input"
            raise ExternalPlayerError("crash", f"{self.name} {self._dead}") from None
        return message["id"]

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Sends ``message`` and returns the answer with its id (a result or an error answer), waiting at
        most ``timeout`` seconds (None: forever). Raises :class:`ExternalPlayerError` (``cause`` crash,
        timeout or malformed)."""
        rid = self.send(message)
        deadline = time.monotonic() + (1e9 if timeout is None else timeout)
        what = f"request {rid!r}"
        while True:
            answer = self._receive(deadline, what)
            if not isinstance(answer, dict) or answer.get("type") not in ("result", "error"):
                raise ExternalPlayerError("malformed", f"{self.name}: answer to {what} is not a result or an "
                                                       f"error: {_short(answer)}")
            if answer.get("id") == rid:
                return answer
            if answer.get("id") is None and answer.get("type") == "error":
                raise ExternalPlayerError("malformed", f"{self.name} could not read {what}: "
                                                       f"{_short(answer.get('message'))}")
            # an answer to an earlier request that timed out: skip it

    def close(self, grace: float = 1.0) -> int | None:
        """Stops the program: closes its input (a well-behaved program exits at end of input), waits up to
        ``grace`` seconds, then terminates it, then kills it. Returns its exit status."""
        proc = self._proc
        if proc.stdin is not None and not proc.stdin.closed:
            try:
                if not self._dead and proc.poll() is None:
                    self._next_id += 1
                    proc.stdin.write(_encode({"id": self._next_id, "type": "quit"}))
                proc.stdin.close()
            except OSError:
                pass
        for stop in (None, proc.terminate, proc.kill):
            if stop is not None and proc.poll() is None:
                try:
                    stop()
                except OSError:
                    pass
            try:
                status = proc.wait(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        else:  # pragma: no cover - a kill that did not take
            status = proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        self._dead = self._dead or "stopped"
        return status

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<EngineProcess {self.name} pid={self.pid}>"


def _own_process_group() -> dict[str, Any]:
    """Popen arguments that keep a child out of the terminal's Ctrl-C: the arena stops its children itself."""
    if os.name == "posix":
        return {"start_new_session": True}
    return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}  # pragma: no cover

