"""The exception hierarchy: every error a user can cause is a ``ValueError`` naming the input.

The C++ core raises these very classes: ``rummikub._core`` imports this module when it loads and translates
its refusals into ``InvalidTileError``, ``InvalidMeldError``, ``TileCountError``, ``SearchLimitError`` or
``RummikubError``, so callers catch types and never read messages. This module therefore imports nothing from
the package."""

from __future__ import annotations

__all__ = [
    "RummikubError",
    "InvalidNotationError",
    "InvalidTileError",
    "InvalidMeldError",
    "TileCountError",
    "IllegalMoveError",
    "InvalidRecordError",
    "SearchLimitError",
]


class RummikubError(ValueError):
    """Base class of every error the library raises for bad input."""


class InvalidNotationError(RummikubError):
    """A string is not valid tile, set or table notation."""


class InvalidTileError(RummikubError):
    """A tile that does not exist in the rule set (for example ``R14`` in the standard game)."""


class InvalidMeldError(RummikubError):
    """Tiles that do not form a valid group or run."""


class TileCountError(RummikubError):
    """More copies of a tile than the rule set has, or a tile that is not where it should be."""


class IllegalMoveError(RummikubError):
    """A move the rules forbid; the game is left exactly as it was.

    ``reason`` is a stable machine-readable name of the rule that failed (``"opening_too_low"``, ...;
    see ``rummikub.legality.Reason``); the message says it for humans, naming the offending tiles."""

    def __init__(self, message: str, reason: str = "illegal_move") -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.reason))


class InvalidRecordError(RummikubError):
    """A game record that cannot be replayed (it breaks a rule or the tile count).

    ``reason`` names what broke (``"tile_count"``, ``"illegal_move"``, ``"format"``, ...)."""

    def __init__(self, message: str, reason: str = "invalid_record") -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.reason))


class SearchLimitError(RummikubError):
    """A search stopped at its state limit (``limit=``): its answer is unknown, which is not "no play".

    Raise the limit, or pass ``limit=None``, to search without one (memory grows with the states held)."""


_SHOWN = 80  # characters of an offending input an error message repeats


def shorten(value: object, limit: int = _SHOWN, *, quote: bool = True) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters: a long input shows its start,
    an ellipsis and its full length, so a message never repeats a megabyte of input (the cost is bounded too:
    a long string is cut before it is quoted, and containers are shown through :mod:`reprlib`). ``quote=False``
    shows a string as it is (another error's message, say).

    >>> shorten("R1 R2")
    "'R1 R2'"
    >>> shorten("Z" * 1000, 10)
    "'ZZZZZZZZZZ'... (1000 characters)"
    >>> shorten(chr(19) * 100, 8)  # the quoted form is cut: escapes do not lengthen it
    "'\\\\x13\\\\x13'... (100 characters)"
    >>> shorten("no such file", quote=False)
    'no such file'
    >>> shorten(list(range(1000)))
    '[0, 1, 2, 3, 4, 5, ...]'
    """
    if isinstance(value, str):
        text = repr(value[:limit + 1]) if quote else value[:limit + 1]
        if len(value) <= limit and len(text) <= limit + 2:
            return text
        if quote:  # cut the quoted form (escapes make it longer than the text), then close the quote
            text = text[:limit + 1].rstrip("\\") + text[0]
        else:
            text = text[:limit]
        return f"{text}... ({len(value)} characters)"
    import reprlib

    brief = reprlib.Repr()
    brief.maxstring = brief.maxother = brief.maxlong = limit
    text = brief.repr(value)
    if len(text) <= limit:
        return text
    size = f" of {len(value)}" if isinstance(value, (list, tuple, dict, set, frozenset)) else ""
    return f"{text[:limit]}... ({type(value).__name__}{size})"
