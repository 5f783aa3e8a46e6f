"""The legal actions of a position, listed lazily (the shape of python-chess's ``LegalMoveGenerator``).

>>> from rummikub import Action, Game
>>> game = Game.new(players=2, seed=3)
>>> legal = game.legal_actions()
>>> Action.draw() in legal, Action.pass_() in legal, bool(legal)
(True, False, True)
>>> len(legal) == legal.count() == len(list(legal))
True
"""

from __future__ import annotations

from collections.abc import Iterator

from .._errors import IllegalMoveError, SearchLimitError
from ..action import Action, ActionKind
from ..legality import check_turn
from ..meld import Table
from ..rules import RuleSet
from ..search import DEFAULT_PLAYS_LIMIT, LegalPlays, plays
from ..tiles import TileSet

__all__ = ["LegalActions", "DEFAULT_PLAYS_LIMIT"]


class LegalActions:
    """The legal actions of the player to move, for the position when made: every distinct play (one
    arrangement per distinct set of rack tiles placed, best first: most tiles, then most value), then the draw
    (pool not empty) or the pass (pool empty). Empty once the game is over.

    Nothing is searched until asked: ``bool``, ``in`` and the draw or pass need no search; ``len``, ``count``
    and iteration enumerate the plays once. ``in`` accepts any :class:`~rummikub.Action` (a
    :class:`~rummikub.Play` too) and answers whether it is legal, whatever the arrangement of the table.
    An enumeration that would hold more than ``limit`` search states raises :class:`SearchLimitError`.
    """

    __slots__ = ("_table", "_rack", "_rules", "_opened", "_pool_size", "_over", "_limit", "_plays")

    def __init__(self, table: Table, rack: TileSet, rules: RuleSet, opened: bool, pool_size: int, over: bool,
                 limit: int | None = DEFAULT_PLAYS_LIMIT) -> None:
        self._table = table
        self._rack = rack
        self._rules = rules
        self._opened = opened
        self._pool_size = pool_size
        self._over = over
        self._limit = limit
        self._plays: LegalPlays | None = None

    @property
    def fallback(self) -> Action | None:
        """The draw (pool not empty) or the pass (pool empty); None once the game is over."""
        if self._over:
            return None
        return Action.draw() if self._pool_size else Action.pass_()

    def plays(self) -> LegalPlays:
        """The legal plays alone (:class:`~rummikub.LegalPlays`)."""
        if self._plays is None:
            self._plays = plays(self._table, self._rack, rules=self._rules, opened=self._opened,
                                limit=self._limit)
        return self._plays

    def _count_plays(self) -> int:
        if self._over:
            return 0
        try:
            return len(self.plays())
        except SearchLimitError as exc:
            raise SearchLimitError(f"legal_actions(limit={self._limit}): {exc}; raise the limit or pass "
                                   "limit=None") from None

    def count(self) -> int:
        """How many legal actions there are (the plays plus the draw or pass)."""
        return len(self)

    def __len__(self) -> int:
        return self._count_plays() + (0 if self._over else 1)

    def __bool__(self) -> bool:
        return not self._over  # the draw or the pass is always there while the game goes on

    def __iter__(self) -> Iterator[Action]:
        if self._over:
            return
        self._count_plays()
        yield from self.plays()
        fallback = self.fallback
        assert fallback is not None
        yield fallback

    def __contains__(self, action: object) -> bool:
        if self._over or not isinstance(action, Action):
            return False
        if action.kind is ActionKind.DRAW:
            return self._pool_size > 0
        if action.kind is ActionKind.PASS:
            return self._pool_size == 0
        assert action.table is not None
        try:
            check_turn(self._table, self._rack, action.table, rules=self._rules, opened=self._opened)
        except IllegalMoveError:
            return False
        return True

    def __repr__(self) -> str:
        if self._over:
            return "<LegalActions (game over)>"
        extra = "draw" if self._pool_size else "pass"
        known = f"{len(self._plays)} plays" if self._plays is not None and self._plays._list is not None \
            else "plays not listed yet"
        return f"<LegalActions {known} + {extra}>"
