"""Write the hard bot's listings (every :class:`~rummikub.search.LegalPlays` of seeded hard-bot games) for the
callgrind driver's ``plays`` mode.

    PYTHONPATH=python python benchmarks/callgrind/dump_hard_plays.py OUT_FILE [games]

Each listing is a block of the driver's format (see dump_positions.py): a ``P`` line, ``T`` lines and an ``R``
line, then a ``B`` line with the indices of the plays the bot read (whose tables the core built), so that the
driver lists every play and builds only those, as a game does. The games are classic 4-player games of hard bots
that list their plays (``bot_variants.ListingHardBot``: the default hard bot lists none), the tournament's games
0, 4, 8, ... (as benchmarks/compare_builds.py plays them: game 4 * i is deal i from the first
seat, and four bots of one kind would play each deal four times alike).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dump_positions import Position, block  # noqa: E402  (this script's folder is on sys.path)
from rummikub.arena import play_game  # noqa: E402
from rummikub.search import LegalPlays  # noqa: E402


def main(out: Path, games: int) -> None:
    blocks: list[tuple[str, list[int]]] = []  # each listing's position text and the plays read
    by_listing: dict[int, list[int]] = {}
    original_init, original_getitem = LegalPlays.__init__, LegalPlays.__getitem__

    def init(self: LegalPlays, table: Any, rack: Any, rules: Any, opened: bool, limit: Any) -> None:
        read: list[int] = []
        blocks.append((block(Position(rules, table, rack, opened)), read))
        by_listing[id(self)] = read
        original_init(self, table, rack, rules, opened, limit)

    def getitem(self: LegalPlays, index: int) -> Any:
        play = original_getitem(self, index)
        n = len(self)
        by_listing[id(self)].append(index + n if index < 0 else index)
        return play

    LegalPlays.__init__ = init  # type: ignore[method-assign]
    LegalPlays.__getitem__ = getitem  # type: ignore[method-assign]
    try:
        for i in range(games):
            play_game(["bot_variants:ListingHardBot"] * 4, 4 * i, 1, "classic")
            by_listing.clear()
    finally:
        LegalPlays.__init__ = original_init  # type: ignore[method-assign]
        LegalPlays.__getitem__ = original_getitem  # type: ignore[method-assign]
    with out.open("w") as f:
        for text, read in blocks:
            f.write(text + "\nB" + "".join(f" {i}" for i in read) + "\n")
    print(f"{len(blocks)} listings, {sum(len(read) for _, read in blocks)} plays read")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8)
