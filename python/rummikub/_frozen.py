"""Internal: filling frozen dataclasses on hot paths."""

from __future__ import annotations

from typing import Any, TypeVar

_F = TypeVar("_F")


def frozen(cls: type[_F], **fields: Any) -> _F:
    """An instance of the frozen dataclass ``cls`` holding ``fields`` (every field, by name), made without the
    generated ``__init__`` and its ``object.__setattr__`` per field: a search result and a player's view are
    made every turn. ``cls`` must not define ``__post_init__`` or use ``slots`` (tests/integration/test_fast_paths.py
    checks that such instances equal properly constructed ones).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class P:
    ...     x: int
    >>> frozen(P, x=1) == P(1)
    True
    """
    out = object.__new__(cls)
    out.__dict__.update(fields)
    return out
