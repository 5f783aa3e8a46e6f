"""What the server accepts from a client: message size, rate and shape.

Every incoming WebSocket message (and the body of ``POST /api/rooms``) is checked against
``rummikub/schemas/server.schema.json`` (JSON Schema draft 2020-12) before anything reads it.

>>> validate_message({"type": "hint"}) is None
True
>>> validate_message({"type": "hello", "seat": "0"})
"message/seat: '0' is not of type 'integer'"
>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
>>> bucket.take(), bucket.take(), bucket.take()
(True, True, False)
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any

from .. import schemas

jsonschema: Any = importlib.import_module("jsonschema")  # untyped library: used through Any

__all__ = ["MAX_MESSAGE_BYTES", "MAX_BODY_BYTES", "TokenBucket", "schema", "validate_message", "validate_room_request"]

MAX_MESSAGE_BYTES = 16 * 1024
"""The largest WebSocket message read (a 160-tile draft is about 2 KB)."""
MAX_BODY_BYTES = 16 * 1024
"""The largest HTTP request body read."""


class TokenBucket:
    """A rate limit: ``burst`` messages at once, refilled at ``rate`` per second."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        """Spends one token; False when there is none (the message is refused)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The server's message schema."""
    text = resources.files("rummikub").joinpath("schemas/server.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every local ``{"$ref": "#/$defs/name"}`` replaced by its definition (the schema has no
    recursion): validating then never resolves a reference, which is most of jsonschema's cost."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            return _inline(defs[ref[len("#/$defs/"):]], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


@lru_cache(maxsize=16)
def _validator(definition: str) -> Any:
    root = schema()
    cls = jsonschema.validators.validator_for(root)
    cls.check_schema(root)
    return cls(_inline(root["$defs"][definition], root["$defs"]))


@lru_cache(maxsize=16)
def _fast_check(definition: str) -> Callable[[object], bool]:
    """A quick yes/no for valid messages: ``fastjsonschema``'s compiled check when it is installed (about
    fifty times faster), else ``jsonschema``'s. Errors are always worded by ``jsonschema``."""
    fast = schemas.fast_check("server", definition)
    return fast if fast is not None else _validator(definition).is_valid


def _first_error(definition: str, value: object) -> str | None:
    if _fast_check(definition)(value):
        return None
    validator = _validator(definition)
    if validator.is_valid(value):  # the two validators disagree: jsonschema (the reference) decides
        return None
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    where = "/".join(str(p) for p in error.absolute_path)
    text = error.message if len(error.message) <= 200 else error.message[:200] + "..."
    return f"message{'/' + where if where else ''}: {text}"


_MESSAGE_TYPES = ("hello", "action", "check", "hint", "next_game", "rematch")


def validate_message(message: object) -> str | None:
    """None when ``message`` is a valid client message, else what is wrong (one line, truncated).

    The message's ``type`` picks the one definition it is checked against (the whole schema's answer, at a
    sixth of the cost)."""
    kind = message.get("type") if isinstance(message, dict) else None
    if isinstance(kind, str) and kind in _MESSAGE_TYPES:
        return _first_error("hello" if kind == "hello" else f"{kind}_message", message)
    return _first_error("client_message", message)


def validate_room_request(body: object) -> str | None:
    """None when ``body`` is a valid ``POST /api/rooms`` request, else what is wrong."""
    return _first_error("room_request", body)
