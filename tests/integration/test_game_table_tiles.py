"""A game's table knows its tiles without reading its melds (the tiles of the table before and the tiles played):
``Table.tiles()`` gives exactly the multiset its melds hold, whether it is read every turn, every few turns or only
at the end of the game, for tables from the search, from a bot's own arrangement and from a user's Table."""

from __future__ import annotations

import pytest

from rummikub import Action, Table, TileSet
from rummikub.bots import get_bot
from rummikub.game import Game


def _from_melds(table: Table) -> TileSet:
    """The table's tiles, read from its melds (a fresh Table of the same Meld objects)."""
    return Table(list(table)).tiles()


@pytest.mark.parametrize("read_every", [1, 3, 0])
@pytest.mark.parametrize("preset", ["classic", "digital", "sabra"])
def test_table_tiles_are_the_melds_tiles(preset: str, read_every: int) -> None:
    checked = 0
    for seed in range(3):
        game = Game.new(players=4, preset=preset, seed=seed, first_player=0, turn_seconds=None)
        bots = [get_bot(name, seed) for name in ("medium", "hard", "easy", "hard")]
        tables = []
        while not game.is_over and game.turn < 300:
            p = game.current_player
            action = bots[p].choose(game.view(p))
            if action.table is not None and game.turn % 5 == 0:
                # the same melds in a Table built by hand (not the search's): its tiles come from the basis too
                action = Action.play(Table(list(action.table)))
            game.apply(action, p)
            tables.append(game.table)
            if read_every and game.turn % read_every == 0:
                assert game.table.tiles() == _from_melds(game.table)
                checked += 1
        # the tables never read: each one's tiles along the chain of the tables before it
        for table in reversed(tables):
            assert table.tiles() == _from_melds(table)
            checked += 1
    assert checked > 100
