"""benchmarks/update_docs.py rewrites the documents' figures tables from the benchmarks' output: every row comes
from the results file, the text around the tables is left alone, and a results file missing a class is refused."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("update_docs", ROOT / "benchmarks" / "update_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RESULTS = """# Search benchmarks

| class | n | median | p90 | p99 | max | peer n | peer median | peer p90 | peer max | ratio | note |
|---|---|---|---|---|---|---|---|---|---|---|---|
| small | 300 | 1.0 | 2.0 | 3.0 | 4.0 | 40 | 5.0 | 6.0 | 7.0 | 8x | 290/300 positions have a play |
| medium | 300 | 11.0 | 12.0 | 13.0 | 14.0 | 40 | 15.0 | 16.0 | 17.0 | 18x | 300/300 positions have a play |
| large | 300 | 21.0 | 22.0 | 23.0 | 24.0 | 40 | 25.0 | 26.0 | 27.0 | 28x | 300/300 positions have a play |
| openings | 300 | 31.0 | 32.0 | 33.0 | 34.0 | 40 | 35.0 | 36.0 | 37.0 | 38x | 149/300 positions have a play |
| large-set (160, 4 jokers) | 50 | 41.0 | 42.0 | 43.0 | 44.0 | 40 | 45.0 | 46.0 | 47.0 | 48x | 2 jokers |
| arrange50 | 300 | 51.0 | 52.0 | 53.0 | 54.0 | - | - | - | - | - | 50 tiles, 0-2 jokers |
| plays-medium | 100 | 61.0 | 62.0 | 63.0 | 64.0 | - | - | - | - | - | median 518 plays, max 4751 |
"""


def _checkout(tmp_path: Path, results: str) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copy(ROOT / "docs" / "performance.md", tmp_path / "docs" / "performance.md")
    (tmp_path / "benchmarks" / "results" / "search.md").write_text(results)
    return tmp_path


def test_tables_come_from_the_results(tmp_path: Path) -> None:
    root = _checkout(tmp_path, RESULTS)
    before_readme = (root / "README.md").read_text()
    _module().main(["--root", str(root)])
    readme = (root / "README.md").read_text()
    perf = (root / "docs" / "performance.md").read_text()
    assert "| small (20-29 table tiles, 14-tile rack) | 300 | 1.0 | 3.0 | 5.0 | 8x |" in readme
    assert "| `arrange` of a 50-tile table | 300 | 51.0 | 53.0 | - | - |" in readme
    assert "| openings (149 of 300 have a play) | 300 | 31.0 | 32.0 | 33.0 | 34.0 | 40 | 35.0 | 36.0 | 37.0 | 38x |" in perf
    assert "| `plays()`, medium table (median 518 plays, max 4,751) | 100 | 61.0 |" in perf
    # only the table's rows changed: the same lines before and after it
    old, new = before_readme.split("\n"), readme.split("\n")
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new)) == 7
    # a second run changes nothing
    _module().main(["--root", str(root)])
    assert (root / "README.md").read_text() == readme


def test_a_missing_class_is_refused(tmp_path: Path) -> None:
    root = _checkout(tmp_path, "\n".join(line for line in RESULTS.split("\n") if not line.startswith("| arrange50")))
    with pytest.raises(SystemExit, match="no row for arrange50"):
        _module().main(["--root", str(root)])
