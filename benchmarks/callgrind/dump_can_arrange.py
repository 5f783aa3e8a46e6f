"""Write the hard bot's threat checks (every ``_core.can_arrange`` call of seeded hard-bot games) for the callgrind
driver's ``can-arrange`` mode.

    PYTHONPATH=python python benchmarks/callgrind/dump_can_arrange.py OUT_FILE [games]

Each check is a block of the driver's format: a ``P`` line and an ``R`` line holding the table's tiles and the
sampled rack together (can_arrange asks about their sum). The games are classic 4-player games of hard bots.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from rummikub import _core  # noqa: E402
from rummikub.arena import play_game  # noqa: E402


def main(out: Path, games: int) -> None:
    checks = found = 0
    original = _core.can_arrange
    with out.open("w") as f:
        def recording(tiles: Any, more: Any, params: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal checks, found
            p = params
            f.write(f"P {p.numbers} {p.colours} {p.copies} {p.jokers} {p.min_len} 30 0 0 0 1 0\n")
            f.write("R " + " ".join(str(c) for c in tiles.sum(more).codes()) + "\n")
            result = original(tiles, more, params, *args, **kwargs)
            checks += 1
            found += bool(result[0])
            return result

        _core.can_arrange = recording  # type: ignore[assignment]
        try:
            for i in range(games):
                play_game(["hard"] * 4, i, 1, "classic")
        finally:
            _core.can_arrange = original  # type: ignore[assignment]
    print(f"{checks} checks, {found} arranged")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 8)
