"""The turn clock as part of the game's state (RULES.md §9).

A timed game (``rules.turn_seconds``) stores the current turn's **absolute** deadline, in the seconds of its
clock: any callable returning absolute seconds (``time.time`` by default), so records carry deadlines that
mean the same thing in another process, and tests pass a fake clock and never sleep.

Running out of time is an ordinary transition, applied by :meth:`Game.advance_clock
<rummikub.Game.advance_clock>`: with no move started the player draws ``timeout_draw`` (1); with a move
started (the game's draft differs from the table at the start of the turn) the table is restored, the placed
tiles go back and the player draws ``failed_move_draw`` (3); under ``commit_valid_draft_on_timeout`` a legal
draft is committed instead. An action after the deadline is refused (:class:`TurnTimeoutError`) and changes
nothing: whoever runs the game advances the clock.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from .._errors import IllegalMoveError, RummikubError
from ..legality import Reason

__all__ = ["Clock", "TurnTimeoutError", "default_clock", "check_time", "describe"]

Clock = Callable[[], float]
"""A callable returning absolute seconds (``time.time``)."""

default_clock: Clock = time.time


class TurnTimeoutError(IllegalMoveError):
    """An action came after the turn's deadline. Nothing changed: apply the timeout with
    :meth:`Game.advance_clock <rummikub.Game.advance_clock>` (``deadline`` and ``now`` say when)."""

    def __init__(self, message: str, deadline: float = 0.0, now: float = 0.0) -> None:
        super().__init__(message, Reason.TURN_TIMEOUT.value)
        self.deadline = deadline
        self.now = now

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.deadline, self.now))


def check_time(value: object, what: str = "now") -> float:
    """``value`` as seconds (a finite int or float), else :class:`RummikubError` naming it.

    >>> check_time(12)
    12.0
    >>> check_time("soon")
    Traceback (most recent call last):
    ...
    rummikub._errors.RummikubError: now must be a finite number of seconds, got 'soon'
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RummikubError(f"{what} must be a finite number of seconds, got {value!r}"[:200])
    return float(value)


def describe(event: Mapping[str, Any]) -> str:
    """A sentence saying what a timeout event did.

    >>> describe({"type": "draw", "player": 1, "tiles": ["R5"], "cause": "timeout"})
    "player 1's time ran out: 1 tile drawn as the penalty"
    """
    who = f"player {event['player']}'s time ran out: "
    if event["type"] == "play":
        return who + "the legal draft was committed"
    if event["type"] == "pass":
        return who + "the pool is empty, so the turn passed"
    n = len(event["tiles"]) if "tiles" in event else int(event.get("count", 0))
    started = "the move was unfinished, the table was restored and " if event["cause"] == "failed_move" else ""
    return f"{who}{started}{n} tile{'s' if n != 1 else ''} drawn as the penalty"
