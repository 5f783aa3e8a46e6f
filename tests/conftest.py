"""Suite-wide settings and fixtures: the hypothesis profiles and the rule-set fixtures.

Strategies and shared positions are plain modules, imported as ``from tests.helpers.strategies import ...``
and ``from tests.helpers import positions``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from rummikub import RuleSet
from tests.helpers.strategies import LARGE, STANDARD

# Deterministic and unhurried under CI (2 shared cores); the default profile still explores at random.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def standard() -> RuleSet:
    return STANDARD


@pytest.fixture
def large() -> RuleSet:
    return LARGE


@pytest.fixture(params=["standard", "large"])
def preset_rules(request: pytest.FixtureRequest) -> RuleSet:
    """The standard (106-tile) and the large (160-tile) rule sets."""
    return RuleSet.preset(request.param)
