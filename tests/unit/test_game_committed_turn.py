"""The fast path of the committed turn's legality check (rummikub.game.legal: the core's quick check,
cpp/src/turn.cpp) gives exactly the verdict of legality.check_turn, and check_turn's quick joker witness (the
core's, through legality.jokers_witness) exactly the verdict and message of its exhaustive joker check: on the
turns bots commit in seeded games and on many refused or rearranged variants of them (tables rearranged by
``arrange``, which moves jokers; tiles taken off the table; tiles not on the rack; the opening rule; nothing
played), under every joker policy, and on random turns under every joker policy and opening rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rummikub import RuleSet, Table, TileSet, arrange, legality
from rummikub.bots import get_bot
from rummikub.game import Game
from rummikub.game.legal import _fast_turn, check_committed
from rummikub.legality import check_turn
from tests.helpers.strategies import turns
from tests.helpers.verdicts import exhaustive, verdict

Turn = tuple[Table, TileSet, Table, bool]


_PRESETS = {"classic": RuleSet.preset("classic"), "digital": RuleSet.preset("digital"),
            "sabra": RuleSet.preset("sabra"), "pressman-2015": RuleSet.preset("pressman-2015"),
            "large": RuleSet.preset("large"),
            "classic+extend": RuleSet.preset("classic").replace(extend_after_opening=True, name="classic+extend")}


def _committed_turns(preset: str, games: int) -> tuple[RuleSet, list[Turn]]:
    """(table before, rack, table after, opened) of every play committed in seeded 4-bot games."""
    rules = _PRESETS[preset].replace(turn_seconds=None)
    turns: list[Turn] = []
    for g in range(games):
        game = Game.new(players=4, rules=rules, seed=100 + g, first_player=0)
        bots = [get_bot(name, g * 4 + s) for s, name in enumerate(("medium", "hard", "easy", "medium"))]
        while not game.is_over and game.turn < 400:
            p = game.current_player
            before, rack, opened = game.table, game.rack(p), game.opened(p)
            action = bots[p].choose(game.view(p))
            if action.table is not None:
                turns.append((before, rack, action.table, opened))
            game.apply(action, p)
    return rules, turns


def _variants(rules: RuleSet, turn: Turn, rng: random.Random) -> list[Turn]:
    """The turn itself and refused or rearranged variants of it."""
    before, rack, after, opened = turn
    out = [turn, (before, rack, after, not opened), (before, rack, before, opened)]
    played = after.tiles() - before.tiles()
    # the same tiles arranged afresh (jokers often change sets), and some of the played tiles only
    for tiles in (after.tiles(), before.tiles() | TileSet(rng.sample(list(played), max(1, len(played) // 2)))):
        table = arrange(tiles, rules)
        if table is not None:
            out.append((before, rack, table, opened))
    if len(after) > 1:  # a set of the new table left out: its table tiles leave the table
        drop = rng.randrange(len(after))
        out.append((before, rack, Table([m for i, m in enumerate(after) if i != drop]), opened))
    smaller = list(rack)
    rng.shuffle(smaller)  # the played tiles not all on the rack
    out.append((before, TileSet(smaller[: len(smaller) // 2]), after, opened))
    out.append((before, rack | played, after, opened))
    return out


@pytest.mark.parametrize("preset", sorted(_PRESETS))
def test_fast_path_gives_check_turnsverdict(preset: str) -> None:
    rules, turns = _committed_turns(preset, games=8)
    rng = random.Random(preset)
    answered = legal = refused = witnessed = 0
    for turn in turns:
        for before, rack, after, opened in _variants(rules, turn, rng):
            full = verdict(check_turn, before, rack, after, rules, opened)
            assert verdict(exhaustive, before, rack, after, rules, opened) == full, \
                (str(before), str(rack), str(after), opened)
            fast = _fast_turn(before, rack, after, rules, opened)
            if fast is not None:
                answered += 1
                assert full == ("legal", str(fast)), (str(before), str(rack), str(after), opened)
            assert verdict(check_committed, before, rack, after, rules, opened) == full
            legal += full[0] == "legal"
            refused += full[0] == "refused"
            if rules.joker_retrieval != "free" and before.tiles() <= after.tiles():
                witnessed += legality.jokers_witness(before, after, [t.code for t in after.tiles() - before.tiles()],
                                                     rules, opening=not opened)
    # the comparison covered both verdicts, the fast path answered most legal turns, and the witness (on the
    # table as a whole, where check_turn calls it) found many
    assert refused > 300 and legal > 300
    assert answered > legal // 2
    assert rules.joker_retrieval == "free" or witnessed > 50


def test_fast_path_leaves_joker_moves_to_the_full_check() -> None:
    rules = RuleSet.preset("classic")
    before = Table.parse("K9 B9 O9 J | R5 J R7")
    # the group's joker (O9 or R9... here R9) left its group for a run: the full check decides, and refuses
    after = Table.parse("K9 B9 O9 | R5 J R7 | R8 R9 J")
    rack = TileSet.parse("R8 R9")
    assert _fast_turn(before, rack, after, rules, True) is None
    assert verdict(check_committed, before, rack, after, rules, True) == \
        verdict(check_turn, before, rack, after, rules, True)
    # jokers that stay where they were (the run extended, the group unchanged) take the fast path
    after = Table.parse("K9 B9 O9 J | R5 J R7 R8")
    assert str(_fast_turn(before, TileSet.parse("R8"), after, rules, True)) == "R8"
    # a group whose joker keeps standing for a missing colour while the group grows
    before = Table.parse("K9 B9 J")
    after = Table.parse("K9 B9 O9 J")
    assert str(_fast_turn(before, TileSet.parse("O9"), after, rules, True)) == "O9"
    assert verdict(check_turn, before, TileSet.parse("O9"), after, rules, True) == ("legal", "O9")


_POLICIES = ("replace", "replace_from_rack", "free")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(_POLICIES), st.sampled_from([0, 30]), st.booleans(), st.booleans())
def test_core_check_gives_check_turns_verdict_on_random_turns(data: st.DataObject, policy: str, threshold: int,
                                                                joker_in_opening: bool, extend: bool) -> None:
    """On random turns (jokers moved, taken, left out; openings; refusals) under every joker policy and opening
    rule, the core's quick check answers only with check_turn's played tiles, and check_committed (the core's
    check, then check_turn) gives check_turn's verdict and message, which is the exhaustive check's."""
    rules = RuleSet(joker_retrieval=policy, opening_threshold=threshold, joker_in_opening=joker_in_opening,
                    extend_after_opening=extend)
    before, rack, after, opened = data.draw(turns(rules))
    full = verdict(check_turn, before, rack, after, rules, opened)
    assert verdict(exhaustive, before, rack, after, rules, opened) == full
    fast = _fast_turn(before, rack, after, rules, opened)
    if fast is not None:
        assert full == ("legal", str(fast)), (str(before), str(rack), str(after), opened)
    assert verdict(check_committed, before, rack, after, rules, opened) == full
    event("core answered" if fast is not None else "left to check_turn: " + full[0])
