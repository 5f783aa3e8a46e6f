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

from .. import _core
from .._errors import IllegalMoveError, SearchLimitError
from ..action import Action, ActionKind
from ..legality import check_turn
from ..meld import Table, search_codes
from ..rules import RuleSet
from ..search import _SEARCH_RULES_BY_ID, DEFAULT_PLAYS_LIMIT, LegalPlays, _search_rules, plays
from ..tiles import TileSet, core_of, of_core

__all__ = ["LegalActions", "DEFAULT_PLAYS_LIMIT", "check_committed"]


# --------------------------------------------------------------------------------------------------------------
# The legality check of a committed turn: the core's quick check in the common case, check_turn otherwise.


def _fast_turn(before: Table, rack: TileSet, after: Table, rules: RuleSet, opened: bool) -> TileSet | None:
    """The rack tiles played when the turn ``before -> after`` is legal by the core's quick check
    (``_core.fast_turn``, cpp/include/rummikub/turn.h); None when it cannot tell (a refusal, an opening under
    ``extend_after_opening``, or a table joker whose set changed in a way the greedy
    :func:`~rummikub.legality.jokers_witness` cannot prove legal): then :func:`~rummikub.legality.check_turn`
    decides. Whenever it answers, ``check_turn`` gives the same tiles.

    The common case: every set of ``after`` is valid; the sets of ``before`` that are not in ``after`` lose no
    tile (their tiles are all in the sets of ``after`` that are not in ``before``: the sets both hold cancel
    out); the tiles added are in the rack (at least one); and either
      * the player had opened (or the rules have no opening threshold), and each table joker of a changed set
        stays or is taken by the rule (the witness proves it), or the rules let jokers go freely; or
      * the player opens without ``extend_after_opening``: no set of ``before`` changed, the new sets are
        worth the threshold as the table shows them, and hold no joker unless ``joker_in_opening``.

    >>> from rummikub import RuleSet, Table, TileSet
    >>> rules = RuleSet()
    >>> str(_fast_turn(Table.parse("R5 J R7"), TileSet.parse("R8 K1"), Table.parse("R5 J R7 R8"), rules, True))
    'R8'
    >>> str(_fast_turn(Table.parse("R5 J R7"), TileSet.parse("R6 R8 R10"), Table.parse("R5 R6 R7 | R8 J R10"),
    ...                rules, True))  # the joker taken by R6 and played again with R8 R10
    'R6 R8 R10'
    >>> _fast_turn(Table.parse("R5 J R7"), TileSet.parse("R8 R10"), Table.parse("R5 R6 R7 | R8 J R10"), rules,
    ...            True) is None  # R6 is not on the rack: check_turn refuses, and says why
    True
    """
    played = _core.fast_turn(search_codes(before), core_of(rack), search_codes(after), _search_rules(rules), opened)
    return None if played is None else of_core(played)


def check_committed(before: Table, rack: TileSet, after: Table, *, rules: RuleSet, opened: bool) -> TileSet:
    """The verdict of :func:`~rummikub.legality.check_turn` on a committed turn (the played tiles, or
    :class:`IllegalMoveError`), by the core's quick check in the common case (see :func:`_fast_turn`: one core
    call) and by ``check_turn`` itself otherwise.

    >>> from rummikub import Table, TileSet, RuleSet
    >>> str(check_committed(Table.parse("R5 J R7"), TileSet.parse("R8 K1"), Table.parse("R5 J R7 R8"),
    ...                     rules=RuleSet(), opened=True))
    'R8'
    """
    # _fast_turn inline, with _search_rules's cache hit inline (a Python call is a tenth of the check's cost)
    hit = _SEARCH_RULES_BY_ID.get(id(rules))
    core_rules = hit[1] if hit is not None and hit[0] is rules else _search_rules(rules)
    played = _core.fast_turn(search_codes(before), core_of(rack), search_codes(after), core_rules, opened)
    if played is None:
        return check_turn(before, rack, after, rules=rules, opened=opened)
    return of_core(played)


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
            check_committed(self._table, self._rack, action.table, rules=self._rules, opened=self._opened)
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
