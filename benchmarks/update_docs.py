"""Rewrites the figures tables of README.md and docs/performance.md from the benchmarks' own output, so that the
documents show a run's figures as the benchmarks wrote them, never edited by hand.

    PYTHONPATH=python python -m pytest benchmarks -k search    # writes benchmarks/results/search.md
    PYTHONPATH=python python benchmarks/update_docs.py         # the search tables from that file
    PYTHONPATH=python taskset -c 0 python benchmarks/update_docs.py --bots   # also plays the bots' table's games

The search tables (README's short one and docs/performance.md's full one) come from
``benchmarks/results/search.md``; ``--bots`` plays the games of ``test_bench_bots.py table`` (200 games of four
``medium`` bots, 20 of four ``hard`` ones: about a minute) and writes their table into docs/performance.md.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEARCH_RESULTS = ROOT / "benchmarks" / "results" / "search.md"

# Each document table: the start of its header line, and its rows (label, benchmark class) in order.
README_HEADER = "| class | positions | median | p99 |"
PERF_HEADER = "| class | n | median | p90 | p99 | max | peer n"
BOTS_HEADER = "| bots | games | games per second |"


def read_search_results(path: Path = SEARCH_RESULTS) -> dict[str, list[str]]:
    """The rows of a search results file (``benchmarks/results/search.md``), by class: each row's cells, the
    class first (class, n, median, p90, p99, max, peer n, peer median, peer p90, peer max, ratio, note)."""
    rows: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line.startswith("| ") and not line.startswith("| class") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[cells[0]] = cells
    missing = {"small", "medium", "large", "openings", "large-set (160, 4 jokers)", "arrange50",
               "plays-medium"} - set(rows)
    if missing:
        raise SystemExit(f"{path}: no row for {', '.join(sorted(missing))} (run the whole search benchmark: "
                         "pytest benchmarks -k search)")
    return rows


def search_tables(rows: dict[str, list[str]]) -> tuple[list[str], list[str]]:
    """README's rows and docs/performance.md's rows of the search table."""
    openings = rows["openings"][11].split("/")[0]
    found = re.match(r"median (\d+) plays, max (\d+)", rows["plays-medium"][11])
    if found is None:
        raise SystemExit(f"plays-medium's note is not 'median N plays, max M': {rows['plays-medium'][11]!r}")
    plays = f"`plays()`, medium table (median {int(found[1]):,} plays, max {int(found[2]):,})"

    def full(key: str, label: str) -> str:
        return "| " + " | ".join([label] + rows[key][1:11]) + " |"

    def short(key: str, label: str, peer: bool = True) -> str:
        c = rows[key]
        return f"| {label} | {c[1]} | {c[2]} | {c[4]} | {c[7] if peer else '-'} | {c[10] if peer else '-'} |"

    perf = [full("small", "small"), full("medium", "medium"), full("large", "large"),
            full("openings", f"openings ({openings} of {rows['openings'][1]} have a play)"),
            full("large-set (160, 4 jokers)", "160-tile set, 4 jokers"),
            full("arrange50", "`arrange`, 50 tiles, 0-2 jokers"), full("plays-medium", plays)]
    readme = [short("small", "small (20-29 table tiles, 14-tile rack)"), short("medium", "medium (30-39 table tiles)"),
              short("large", "large (40-50 table tiles)"), short("openings", "openings (empty table, not opened)"),
              short("large-set (160, 4 jokers)", "160-tile set, 2 table and 2 rack jokers"),
              short("arrange50", "`arrange` of a 50-tile table", peer=False),
              short("plays-medium", "`plays()` on a medium table", peer=False)]
    return readme, perf


def replace_table(path: Path, header: str, rows: list[str]) -> None:
    """Replaces the rows of the table whose header line starts with ``header`` in ``path``."""
    lines = path.read_text().split("\n")
    starts = [k for k, line in enumerate(lines) if line.startswith(header)]
    if len(starts) != 1:
        raise SystemExit(f"{path}: {len(starts)} tables start with {header!r} (expected one)")
    first = starts[0] + 2  # (after the header and its rule)
    end = first
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    lines[first:end] = rows
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", action="store_true", help="also play the bots' games and rewrite their table")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose documents to rewrite")
    args = parser.parse_args(argv)
    readme, perf = search_tables(read_search_results(args.root / "benchmarks" / "results" / "search.md"))
    replace_table(args.root / "README.md", README_HEADER, readme)
    replace_table(args.root / "docs" / "performance.md", PERF_HEADER, perf)
    if args.bots:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from test_bench_bots import markdown_table

        replace_table(args.root / "docs" / "performance.md", BOTS_HEADER, markdown_table().split("\n")[2:])


if __name__ == "__main__":  # pragma: no cover - the command-line entry point
    main()
