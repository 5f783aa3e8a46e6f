"""The examples in the package's docstrings are true: doctest runs over every module of rummikub."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import rummikub

MODULES = sorted(
    ["rummikub"] + [m.name for m in pkgutil.walk_packages(rummikub.__path__, "rummikub.")
                    if not m.name.endswith("__main__")]
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples in {name} failed (see above)"


def test_readme_examples() -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    if not readme.is_file():
        pytest.skip("README.md is not beside tests/ (the suite runs outside a source checkout)")
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 10
    assert result.failed == 0, f"{result.failed} of {result.attempted} README examples failed (see above)"
