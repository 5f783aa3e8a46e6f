"""The medium bot: the exact search's best play every turn (most tiles, then most value; full manipulation
of the table). Deterministic: the seed is accepted for the common interface and unused.

>>> from rummikub import Game
>>> game = Game.new(players=2, preset="digital", seed=4)
>>> turn = MediumBot().choose(game.view(game.current_player))
>>> turn.kind.value in ("play", "draw")
True
"""

from __future__ import annotations

from .._errors import SearchLimitError
from ..action import Action
from ..game import PlayerView
from ..search import Objective, solve
from . import Bot, fallback, own_rack

__all__ = ["MediumBot"]


class MediumBot(Bot):
    """Plays ``solve(table, rack, objective=...)`` (``"tiles"`` by default), else draws or passes."""

    name = "medium"

    def __init__(self, seed: int | None = None, objective: Objective = "tiles") -> None:
        super().__init__(seed)
        self.objective: Objective = objective

    def choose(self, view: PlayerView) -> Action:
        """The search's best play, or a draw (a pass with an empty pool) when no rack tile fits or the position
        is past the search's state limit."""
        rack = view.rack
        try:
            play = solve(view.table, rack if rack is not None else own_rack(view), rules=view.rules,
                         opened=view.has_opened, objective=self.objective)
        except SearchLimitError:
            return fallback(view)
        return fallback(view) if play is None else play
