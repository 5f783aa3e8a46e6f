"""Verdicts of turn checks, for comparing the quick paths with the exhaustive joker check, and of ``arrange``
against the oracle."""

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


def assert_arrange_agrees(tiles: TileSet, rules: RuleSet) -> None:
    """``arrange(tiles, rules)`` finds an arrangement exactly when the MILP oracle says one exists, and the one
    it finds uses every tile in valid sets."""
    from rummikub.search import arrange
    from tests.helpers import oracle as O  # (scipy: imported by the oracle tests only)

    inst = O.instance(Table(), tiles, rules.replace(joker_retrieval="free"), True)
    want = O.feasible(inst, O.counts_of(tiles))
    got = arrange(tiles, rules)
    assert (got is not None) == want, f"arrange({tiles}) = {got}, oracle says arrangeable={want}"
    if got is not None:
        assert got.tiles() == tiles
        for kind, melds in O.melds_of(got):
            assert O.readings(kind, melds, O.rules_of(rules)), f"invalid set {melds} in {got}"
