"""Write the hard bot's threat checks (every ``_core.can_arrange`` call of seeded hard-bot games) for the callgrind
driver's ``can-arrange`` mode.

    PYTHONPATH=python python benchmarks/callgrind/dump_can_arrange.py OUT_FILE [games]

Each check is a block of the driver's format: a ``P`` line, a ``T`` line per meld of the table the bot saw (its tile
codes in slot order) and an ``R`` line holding the tiles the check adds to it (the candidate play's tiles and the
sampled rack), then an ``S`` line with the sampled rack alone: can_arrange asks about the sum of the ``T`` and ``R``
tiles, the sampled rack apart (it decides which way the search goes). The games are classic 4-player games of hard bots.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from rummikub import _core  # noqa: E402
from rummikub.arena import play_game  # noqa: E402
from rummikub.bots.hard import HardBot  # noqa: E402


def main(out: Path, games: int) -> None:
    checks = found = 0
    original = _core.can_arrange
    charge = HardBot._charge_threats
    seen: list[Any] = []  # the view of the threat checks being made

    def charging(self: HardBot, view: Any, *args: Any) -> Any:
        seen.append(view)
        try:
            return charge(self, view, *args)
        finally:
            seen.pop()

    with out.open("w") as f:
        def recording(tiles: Any, more: Any, params: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal checks, found
            p = params
            f.write(f"P {p.numbers} {p.colours} {p.copies} {p.jokers} {p.min_len} 30 0 0 0 1 0\n")
            table = seen[-1].table
            for meld in table:
                f.write("T " + " ".join(str(t.code) for t in meld) + "\n")
            added = tiles.difference(_core.TileSet([t.code for meld in table for t in meld])).sum(more)
            f.write("R " + " ".join(str(c) for c in added.codes()) + "\n")
            f.write("S " + " ".join(str(c) for c in more.codes()) + "\n")
            result = original(tiles, more, params, *args, **kwargs)
            checks += 1
            found += bool(result[0])
            return result

        _core.can_arrange = recording  # type: ignore[assignment]
        HardBot._charge_threats = charging  # type: ignore[method-assign]
        try:
            for i in range(games):
                play_game(["hard"] * 4, i, 1, "classic")
        finally:
            _core.can_arrange = original  # type: ignore[assignment]
            HardBot._charge_threats = charge  # type: ignore[method-assign]
    print(f"{checks} checks, {found} arranged")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8)
