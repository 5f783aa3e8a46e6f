"""Write the benchmark positions as text for the C++ callgrind driver (one file per class).

    PYTHONPATH=python python benchmarks/callgrind/dump_positions.py OUT_DIR [positions per class]

Each position is a block: a ``P`` line (numbers colours copies jokers min_len threshold joker_in_opening
extend_after_opening policy opened objective), one ``T`` line per table meld (its tile codes in slot order) and an
``R`` line (the rack's tile codes). The classes are those of benchmarks/search_counters.py, plus ``jokers`` (the
joker-heavy oracle stream) and the timing benchmark's ``arrange50`` and ``plays-medium`` positions.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
try:
    from tests.helpers.positions import Position, class_positions, joker_stream, make_position  # type: ignore
except ImportError:
    from positions import Position, class_positions, joker_stream, make_position  # type: ignore  # noqa: E402

from rummikub import RuleSet  # noqa: E402

POLICIES = {"free": 0, "replace": 1, "replace_from_rack": 2}
OBJECTIVES = {"tiles": 0, "value": 1, "penalty": 2}


def block(p: Position) -> str:
    """One position in the driver's format: its ``P`` line, ``T`` lines and ``R`` line (no trailing newline)."""
    r = p.rules
    lines = [f"P {r.numbers} {r.colours} {r.copies} {r.jokers} {r.min_len} {r.opening_threshold} "
             f"{int(r.joker_in_opening)} {int(r.extend_after_opening)} {POLICIES[r.joker_retrieval]} "
             f"{int(p.opened)} {OBJECTIVES[p.objective]}"]
    lines += ["T " + " ".join(str(t.code) for t in meld) for meld in p.table]
    lines.append("R " + " ".join(str(t.code) for t in p.rack))
    return "\n".join(lines)


def dump(path: Path, positions: list[Position]) -> None:
    """Write positions to path in the driver's format."""
    with path.open("w") as f:
        for p in positions:
            f.write(block(p) + "\n")


def main(out: Path, count: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in ("small", "medium", "large", "openings"):
        dump(out / f"{name}.txt", class_positions(name, count))
    dump(out / "large-set.txt", [make_position(i, RuleSet.preset("large"), table_tiles=(30, 50), table_jokers=2,
                                               rack_jokers=2, label="large-set") for i in range(max(1, count // 2))])
    dump(out / "jokers.txt", list(joker_stream(5, count)))
    # The benchmark's arrange class (50-tile tables, 0-2 jokers, a one-tile rack the driver's arrange mode leaves
    # out when given `arrange50`) and its plays() class (medium tables, other seeds).
    rules = RuleSet()
    dump(out / "arrange50.txt", [make_position(i, rules, table_tiles=(50, 50), table_jokers=i % 3, rack_size=1,
                                               label="arrange50") for i in range(count)])
    dump(out / "plays-medium.txt", class_positions("medium", count, base_seed=10_000))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100)
