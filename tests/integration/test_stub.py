"""The committed type stub of the extension (python/rummikub/_core.pyi) matches the extension: it is
regenerated from the imported rummikub._core with tools/gen-stub.sh and compared. A drifted stub is a bug:
run `tools/gen-stub.sh` and commit the result."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rummikub
from rummikub import _core

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "python" / "rummikub" / "_core.pyi"
SCRIPT = ROOT / "tools" / "gen-stub.sh"


def test_stub_is_current(tmp_path: Path) -> None:
    if importlib.util.find_spec("pybind11_stubgen") is None:
        pytest.skip("pybind11-stubgen is not installed (it comes with the 'test' extra: pip install '.[test]')")
    assert COMMITTED.is_file(), "python/rummikub/_core.pyi is missing: run tools/gen-stub.sh"
    # Stub the very extension this test process imported (installed or working tree).
    env = dict(os.environ, PYTHON=sys.executable, PYTHONPATH=str(Path(rummikub.__file__).parent.parent))
    out = tmp_path / "_core.pyi"
    proc = subprocess.run(["bash", str(SCRIPT), "--no-build", str(out)], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 0, proc.stderr
    fresh, committed = out.read_text(), COMMITTED.read_text()
    if fresh != committed:
        import difflib

        diff = "".join(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                            "committed _core.pyi", "regenerated", n=1))
        pytest.fail(f"python/rummikub/_core.pyi is out of date; run tools/gen-stub.sh and commit it:\n{diff}")


def test_stub_names_every_public_attribute() -> None:
    text = COMMITTED.read_text()
    for name in dir(_core):
        if not name.startswith("_"):
            assert name in text, f"_core.{name} is missing from the stub"
