"""Verdicts of turn checks, for comparing the quick paths with the exhaustive joker check."""

from __future__ import annotations

from collections.abc import Callable

from rummikub import RuleSet, Table, TileSet, legality
from rummikub._errors import IllegalMoveError
from rummikub.legality import check_turn


def verdict(check: Callable[..., TileSet], before: Table, rack: TileSet, after: Table, rules: RuleSet,
            opened: bool) -> tuple[str, str]:
    """``("legal", played tiles)`` or ``("refused", "reason: message")``: what ``check`` answers for the turn."""
    try:
        played = check(before, rack, after, rules=rules, opened=opened)
    except IllegalMoveError as exc:
        return ("refused", f"{exc.reason}: {exc}")
    return ("legal", str(played))


def exhaustive(before: Table, rack: TileSet, after: Table, *, rules: RuleSet, opened: bool) -> TileSet:
    """check_turn with its quick joker witness switched off: the exhaustive joker check decides alone."""
    witness = legality.jokers_witness
    legality.jokers_witness = lambda *args, **kwargs: False  # type: ignore[assignment]
    try:
        return check_turn(before, rack, after, rules=rules, opened=opened)
    finally:
        legality.jokers_witness = witness
