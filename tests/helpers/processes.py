"""The environment for tests that run the package in a child process.

A child must import the same ``rummikub`` as the test itself: the installed package in CI (a clean checkout's
``python/`` folder holds no compiled core), the source tree with its built core in a developer's checkout.
The repository root follows it, so that a child can import ``tests.*`` too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import rummikub

PACKAGE_ROOT = str(Path(rummikub.__file__).resolve().parent.parent)
"""The folder the tests import ``rummikub`` from."""
REPO_ROOT = str(Path(__file__).resolve().parents[2])


def child_env(*extra: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``os.environ`` (or ``base``) with ``PYTHONPATH`` leading to this process's ``rummikub``, then the
    repository root, then ``extra`` folders and the inherited path."""
    env = dict(os.environ if base is None else base)
    parts = [PACKAGE_ROOT, REPO_ROOT, *extra, env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in parts if p)
    return env
