"""The hard bot scores the listed plays from the core's tallies: every score is the float the per-play Python
evaluation gives (bit for bit), and every turn equals the turn of a bot scoring each play's TileSet in Python."""

from __future__ import annotations

import pytest

from rummikub import Game, RuleSet, TileSet
from rummikub.bots.hard import HardBot
from rummikub.search import LegalPlays, plays


def _frozen() -> float:
    return 0.0


class _PerPlayHardBot(HardBot):
    """The hard bot with every listed play scored from its TileSet in Python (the reference)."""

    def _listed_scores(self, legal: LegalPlays, rack: TileSet, partners: list[float],
                       tile_weight: float) -> tuple[int, list[float]]:
        played = legal.played_tiles()
        return len(played[0]), self._static_scores(played, rack, partners, tile_weight)


@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_listed_scores_are_the_per_play_scores(preset: str) -> None:
    rules = RuleSet.preset(preset)
    compared = 0
    for seed in range(2):
        game = Game.new(players=4, rules=rules, seed=seed, clock=_frozen)
        bots = [HardBot(seed=seed * 10 + i, max_enumeration=4096) for i in range(4)]
        reference = [_PerPlayHardBot(seed=seed * 10 + i, max_enumeration=4096) for i in range(4)]
        while not game.is_over:
            p = game.current_player
            view = game.view(p)
            turn = bots[p].choose(view)
            assert turn == reference[p].choose(view), f"turn {game.turn}"
            if view.has_opened and view.rack:
                legal = plays(view.table, view.rack, rules=rules, opened=True)
                if legal:
                    for weight in (1.0, -0.5):
                        partners = [(code * 0.37) % 1.0 for code in range(65)]
                        partners[64] = 0.0
                        fast = bots[p]._listed_scores(legal, view.rack, partners, weight)
                        slow = reference[p]._listed_scores(legal, view.rack, partners, weight)
                        assert fast == slow  # floats compared exactly
                        compared += len(fast[1])
            game.apply(turn, p)
    assert compared > 100, compared
