"""The easy bot: what a beginner sees.

It only lays new sets from its own rack beside the untouched table (no manipulation, no adding to sets), opens
as soon as its rack holds an opening, and after opening it overlooks each rack tile with probability
``overlook`` (seeded), so it sometimes misses a set or draws when it could have played.

>>> from rummikub import Game
>>> game = Game.new(players=2, preset="classic", seed=4)
>>> turn = EasyBot(seed=1).choose(game.view(game.current_player))
>>> turn.kind.value in ("play", "draw")
True
"""

from __future__ import annotations

from ..action import Action
from ..game import PlayerView
from ..meld import Table
from ..search import solve
from ..tiles import TileSet
from . import Bot, fallback, own_rack

__all__ = ["EasyBot"]


class EasyBot(Bot):
    """New sets from the rack only; opens when it can; overlooks some tiles (``overlook``, default 0.25)."""

    name = "easy"

    def __init__(self, seed: int | None = None, overlook: float = 0.25) -> None:
        super().__init__(seed)
        self.overlook = overlook

    def choose(self, view: PlayerView) -> Action:
        """New melds from the rack (most tiles among the tiles it noticed) added to the unchanged table."""
        rack = own_rack(view)
        opened = view.has_opened
        if opened:
            # A beginner does not see every combination: some tiles go unnoticed this turn.
            draw = self.rng.random
            seen = TileSet([t for t in rack if draw() >= self.overlook])
        else:
            seen = rack
        if not seen:
            return fallback(view)
        play = solve(Table(), seen, rules=view.rules, opened=opened)
        if play is None:
            return fallback(view)
        return Action.play(view.table + play.table)
