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
from ..legality import check_meld, check_turn, jokers_witness
from ..meld import Meld, Table, search_codes
from ..rules import RuleSet
from ..search import DEFAULT_PLAYS_LIMIT, LegalPlays, plays
from ..tiles import TileSet, core_of, of_core

__all__ = ["LegalActions", "DEFAULT_PLAYS_LIMIT", "check_committed"]


# --------------------------------------------------------------------------------------------------------------
# The legality check of a committed turn, with a fast path for the common case.

_VALID: dict[int, tuple[RuleSet, set[int]]] = {}  # by id(rules): the codes of the melds found valid under them
_MAX_VALID = 1 << 14


def _valid_codes(rules: RuleSet) -> set[int]:
    """The codes (``Meld._info.code``, one int per distinct meld) of the melds found valid under ``rules`` so far
    (remembered by identity: a game keeps its RuleSet, and the entry keeps it alive, so its id is not reused
    while cached)."""
    hit = _VALID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_VALID) >= 64:
        _VALID.clear()
    codes: set[int] = set()
    _VALID[id(rules)] = (rules, codes)
    return codes


def _fast_turn(before: Table, rack: TileSet, after: Table, rules: RuleSet, opened: bool) -> TileSet | None:
    """The rack tiles played when the turn ``before -> after`` is legal by a few multiset operations; None when
    this cannot tell (a refusal, an opening under ``extend_after_opening``, or a table joker whose set changed
    in a way the quick look at the joker rule cannot settle): then :func:`~rummikub.legality.check_turn`
    decides. Whenever it answers, ``check_turn`` gives the same tiles.

    The common case: every set of ``after`` is valid; the sets of ``before`` that are not in ``after`` lose no
    tile (their tiles are all in the sets of ``after`` that are not in ``before``: the sets both hold cancel
    out); the tiles added are in the rack (at least one); and either
      * the player had opened (or the rules have no opening threshold), and each table joker of a changed set
        stays or is taken by the rule (:func:`~rummikub.legality.jokers_witness` proves it), or the rules let
        jokers go freely; or
      * the player opens without ``extend_after_opening``: no set of ``before`` changed, the new sets are
        worth the threshold as the table shows them, and hold no joker unless ``joker_in_opening``.
    """
    opening = not opened and rules.opening_threshold > 0
    if opening and rules.extend_after_opening:
        return None
    valid = _valid_codes(rules)
    after_codes = search_codes(after)
    if not valid.issuperset(after_codes):
        for meld in after:
            code = meld._info.code
            if code not in valid:
                if check_meld(meld, rules) is not None:
                    return None
                if len(valid) >= _MAX_VALID:
                    valid.clear()
                valid.add(code)
    gone, added = _changed(before, after, after_codes)
    if opening and gone:
        return None
    new_codes = [c for meld in added for c in meld._info.codes]
    old = _core.TileSet([c for meld in gone for c in meld._info.codes])
    new = _core.TileSet(new_codes)
    if not new.contains(old):
        return None
    played = new.difference(old)
    if not played.size() or not core_of(rack).contains(played):
        return None
    if opening:
        if played.count(_JOKER) and not rules.joker_in_opening:
            return None
        total = 0
        for meld in added:
            total += meld._info.value
        return of_core(played) if total >= rules.opening_threshold else None
    if rules.joker_retrieval != "free" and any(meld._info.jokers for meld in gone):
        # a joker may stay in, or be replaced from, a set that did not change: the witness reads the whole tables
        if (sum(meld._info.jokers for meld in after) > rules.jokers
                or not jokers_witness(before, after, played.codes(), rules)):
            return None
    return of_core(played)


def _changed(before: Table, after: Table, after_codes: tuple[int, ...]) -> tuple[list[Meld], list[Meld]]:
    """The sets of ``before`` that ``after`` does not hold, and those of ``after`` that ``before`` does not
    (counted with repeats), by the melds' codes."""
    before_codes = search_codes(before)
    old, new = set(before_codes), set(after_codes)
    if len(old) == len(before_codes) and len(new) == len(after_codes):  # no set twice on either table
        if old == new:
            return [], []
        return ([m for c, m in zip(before_codes, before._melds) if c not in new],
                [m for c, m in zip(after_codes, after._melds) if c not in old])
    left: dict[int, int] = {}  # after's melds by code, then those not matched by a meld of before
    for code in after_codes:
        left[code] = left.get(code, 0) + 1
    gone: list[Meld] = []
    for code, meld in zip(before_codes, before._melds):
        k = left.get(code)
        if k:
            left[code] = k - 1
        else:
            gone.append(meld)
    added: list[Meld] = []
    for code, meld in zip(after_codes, after._melds):
        k = left[code]
        if k:
            left[code] = k - 1
            added.append(meld)
    return gone, added


def check_committed(before: Table, rack: TileSet, after: Table, *, rules: RuleSet, opened: bool) -> TileSet:
    """The verdict of :func:`~rummikub.legality.check_turn` on a committed turn (the played tiles, or
    :class:`IllegalMoveError`), by a few multiset operations in the common case (see :func:`_fast_turn`) and by
    ``check_turn`` itself otherwise.

    >>> from rummikub import Table, TileSet, RuleSet
    >>> str(check_committed(Table.parse("R5 J R7"), TileSet.parse("R8 K1"), Table.parse("R5 J R7 R8"),
    ...                     rules=RuleSet(), opened=True))
    'R8'
    """
    played = _fast_turn(before, rack, after, rules, opened)
    if played is None:
        played = check_turn(before, rack, after, rules=rules, opened=opened)
    return played


_JOKER: int = _core.JOKER


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
