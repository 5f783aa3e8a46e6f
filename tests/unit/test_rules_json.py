"""Rules in JSON: a preset name, a preset with overrides, or every field (``RuleSet.to_dict``)."""

from __future__ import annotations

from typing import Any

import pytest

from rummikub import PRESETS, RuleSet, RummikubError
from rummikub.rules import DEFAULT_PRESET, rules_from_json


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_form_reads_back(name: str) -> None:
    rules = RuleSet.preset(name)
    assert rules_from_json(name) == rules_from_json({"preset": name}) == rules_from_json(rules.to_dict()) == rules
    timed = rules_from_json({"preset": name, "overrides": {"turn_seconds": 45, "timeout_draw": 2}})
    assert timed == rules.replace(turn_seconds=45, timeout_draw=2)


def test_the_default_preset_is_untimed() -> None:
    assert DEFAULT_PRESET == "standard" and RuleSet.preset(DEFAULT_PRESET).turn_seconds is None


@pytest.mark.parametrize("bad", ["chess", 5, None, [], {"preset": "classic", "extra": 1},
                                 {"preset": "classic", "overrides": {"colours": 9}},
                                 {"preset": "classic", "overrides": {"nope": 1}},
                                 {"preset": "classic", "overrides": [1]}, {"colour": 3}])
def test_bad_rules_name_the_problem(bad: Any) -> None:
    with pytest.raises(RummikubError):
        rules_from_json(bad)
