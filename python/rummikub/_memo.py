"""The package's memo tables, listed in one place (an internal interface).

Some modules remember what they derived (the facts of a meld, the shared Meld of a search code, the melds a
rule set allows) in bounded tables that they empty when full. Each module registers its tables here under a
dotted name, so that tests and long-running hosts can see how much is remembered (:func:`sizes`) and forget
it (:func:`clear`) without reaching into the modules' internals.

>>> from rummikub import Meld, _memo
>>> _memo.clear()
>>> _memo.sizes()["meld.infos"]
0
>>> str(Meld.run(0, 5, 3))
'K5 K6 K7'
>>> _memo.sizes()["meld.infos"] > 0
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

__all__ = ["register", "sizes", "clear"]


class _Table(Protocol):
    def __len__(self) -> int: ...

    def clear(self) -> None: ...


T = TypeVar("T", bound=_Table)

_TABLES: dict[str, tuple[_Table, Callable[[], int]]] = {}


def register(name: str, table: T, size: Callable[[], int] | None = None) -> T:
    """Lists ``table`` under ``name`` and returns it; ``size`` measures it when ``len(table)`` does not (a
    table of tables, say). A module calls this once per table, where it creates the table.

    >>> cache = register("doc.example", {})
    >>> cache["a"] = 1
    >>> sizes()["doc.example"]
    1
    >>> clear("doc."); cache
    {}
    """
    _TABLES[name] = (table, size if size is not None else table.__len__)
    return table


def sizes() -> dict[str, int]:
    """How many entries each registered table holds, by name."""
    return {name: size() for name, (_, size) in _TABLES.items()}


def clear(prefix: str = "") -> None:
    """Empties every registered table whose name starts with ``prefix`` (all of them by default). Everything
    made before keeps working: the tables only remember, they never own."""
    for name, (table, _) in _TABLES.items():
        if name.startswith(prefix):
            table.clear()
