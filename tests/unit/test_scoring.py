"""score_game: examples and properties (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub import RuleSet, TileSet, score_game
from rummikub.scoring import Outcome, Termination, game_outcome, rack_value

STANDARD = RuleSet()
FULL = TileSet.full(STANDARD).tiles()


def rack_lists(min_players: int = 2, max_players: int = 6) -> st.SearchStrategy[list[TileSet]]:
    """Disjoint racks drawn from the full standard set."""
    return st.lists(st.integers(0, len(FULL) - 1), unique=True, min_size=0, max_size=60).flatmap(
        lambda idx: st.integers(min_players, max_players).flatmap(
            lambda n: st.lists(st.integers(0, n - 1), min_size=len(idx), max_size=len(idx)).map(
                lambda owners: [TileSet(FULL[i] for i, o in zip(idx, owners) if o == p) for p in range(n)])))


@given(rack_lists(), st.integers(0, 100))
def test_scores_sum_to_zero_and_are_exact(racks: list[TileSet], penalty: int) -> None:
    rules = STANDARD.replace(joker_penalty=penalty)
    scores = score_game(racks, None, rules)
    assert sum(scores) == 0
    assert all(isinstance(s, Fraction) for s in scores)
    values = [r.value(penalty) for r in racks]
    low = min(values)
    winners = [i for i, v in enumerate(values) if v == low]
    for i, v in enumerate(values):
        if v == low:
            assert scores[i] == Fraction(sum(values) - low * len(values), len(winners))
            assert scores[i] >= 0
        else:
            assert scores[i] == low - v < 0


@given(rack_lists(), st.data())
def test_going_out(racks: list[TileSet], data: st.DataObject) -> None:
    winner = data.draw(st.integers(0, len(racks) - 1))
    racks[winner] = TileSet()
    scores = score_game(racks, winner, STANDARD)
    assert sum(scores) == 0
    assert scores[winner] == sum(rack_value(r, STANDARD) for r in racks)
    for i, r in enumerate(racks):
        if i != winner:
            assert scores[i] == -rack_value(r, STANDARD)
    outcome = game_outcome(racks, winner, STANDARD)
    assert outcome.termination is Termination.RUMMIKUB and outcome.winners == (winner,)
    assert outcome.scores == scores and Outcome.from_dict(outcome.to_dict()) == outcome


@given(rack_lists())
def test_score_does_not_depend_on_the_seat(racks: list[TileSet]) -> None:
    scores = score_game(racks, None, STANDARD)
    reversed_scores = score_game(list(reversed(racks)), None, STANDARD)
    assert tuple(reversed(reversed_scores)) == scores


@given(rack_lists())
def test_shared_wins_sum_to_one(racks: list[TileSet]) -> None:
    outcome = game_outcome(racks, None, STANDARD)
    assert sum(outcome.win_share(p) for p in range(len(racks))) == 1
    assert outcome.termination is Termination.POOL_EXHAUSTED


def test_errors() -> None:
    with pytest.raises(ValueError, match="must be empty"):
        score_game([TileSet.parse("K1"), TileSet.parse("K2")], 0, STANDARD)
    with pytest.raises(ValueError, match="player index"):
        score_game([TileSet(), TileSet.parse("K2")], 2, STANDARD)
    with pytest.raises(ValueError):
        score_game([], None, STANDARD)


def test_joker_penalty_variant() -> None:
    racks = [TileSet(), TileSet.parse("J K1")]
    assert score_game(racks, 0, STANDARD) == (31, -31)
    assert score_game(racks, 0, STANDARD.replace(joker_penalty=50)) == (51, -51)
    assert score_game([["K1"], ["B2", "O3"]], None) == (4, -4)  # plain tile lists work too
