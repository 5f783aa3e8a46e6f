"""Adapter for the peer solver, ``rummikub-solver`` on PyPI (an integer program over cvxpy; HiGHS backend).

Optional: ``available()`` is False when it is not installed, and the benchmarks skip the peer.

>>> from rummikub import RuleSet, Table, TileSet
>>> peer = PeerSolver(RuleSet()) if available() else None
>>> peer is None or peer.solve(Table.parse("R1 R2 R3"), TileSet.parse("R4 K9"), opened=True) == 1
True
"""

from __future__ import annotations

from typing import Any

from rummikub import RuleSet, Table, TileSet

try:  # pragma: no cover - depends on the optional extra
    import rummikub_solver as _rs
except ImportError:  # pragma: no cover
    _rs = None


def available() -> bool:
    """Is rummikub-solver (with a HiGHS backend) installed?"""
    if _rs is None:
        return False
    try:
        return _rs.MILPSolver.HIGHS in _rs.MILPSolver.supported()
    except Exception:  # pragma: no cover - a broken cvxpy install
        return False


class PeerSolver:
    """rummikub-solver set up for a rule set (tile-set parameters and opening threshold only: it has no
    joker policies, no extend_after_opening and no joker_in_opening switch)."""

    def __init__(self, rules: RuleSet) -> None:
        if _rs is None:
            raise RuntimeError("rummikub-solver is not installed (pip install rummikub-solver highspy)")
        self.rules = rules
        self.rs: Any = _rs.RuleSet(numbers=rules.numbers, repeats=rules.copies, colours=rules.colours,
                                   jokers=rules.jokers, min_len=rules.min_len,
                                   min_initial_value=max(1, rules.opening_threshold),
                                   solver_backend=_rs.MILPSolver.HIGHS)
        # its tile map: entry i is tile number i (1-based, colour-major, then the joker); entry 0 is unused
        self._tile_map = (None, *self.rs.tiles)

    def _index(self, tile: Any) -> int:
        if tile.is_joker:
            return self.rules.numbers * self.rules.colours + 1
        return int(tile.colour) * self.rules.numbers + int(tile.number)

    def state(self, table: Table, rack: TileSet, opened: bool) -> Any:
        """The peer's GameState for a position."""
        return _rs.GameState(self._tile_map, [self._index(t) for t in table.tiles()],
                             [self._index(t) for t in rack], initial=not opened)

    def solve(self, table: Table, rack: TileSet, opened: bool) -> int:
        """Solves one position; returns how many rack tiles the peer places (0: none)."""
        sol = self.rs.solve(self.state(table, rack, opened))
        return 0 if sol is None else len(sol.tiles)
