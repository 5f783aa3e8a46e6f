"""Rounds and matches (RULES.md §11)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rummikub import Game, InvalidRecordError, Match, RuleSet
from rummikub.scoring import Outcome, Termination


def finish_by_drawing(game: Game) -> None:
    """Plays a game to its end with draws and passes only (the pool runs out, then everybody passes)."""
    while not game.is_over:
        game.apply("draw" if game.pool_size else "pass")


def play_match(match: Match) -> None:
    while not match.is_over:
        finish_by_drawing(match.next_game())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_plays_rounds_of_as_many_games_as_players(players: int) -> None:
    match = Match(players=players, preset="pressman-2015", seed=2, rounds=2)
    play_match(match)
    assert len(match.games) == 2 * players and match.is_over
    with pytest.raises(ValueError):
        match.next_game()
    totals = match.totals()
    assert sum(totals) == 0
    assert sum(match.wins()) == len(match.games)
    assert match.winners


def test_next_game_needs_the_current_one_finished() -> None:
    match = Match(players=2, preset="pressman-2015", seed=1)
    match.next_game()
    with pytest.raises(ValueError):
        match.next_game()


def test_rotate_first_player() -> None:
    match = Match(players=3, preset="pressman-2015", seed=8, first_player="rotate")
    play_match(match)
    firsts = [g.first_player for g in match.games]
    assert firsts == [(firsts[0] + i) % 3 for i in range(3)]
    assert match.games[0].record["first_player"]["method"] == "draw"
    assert all(g.record["first_player"]["method"] == "given" for g in match.games[1:])


def _fake_match(variant: str, outcomes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Match:
    """A finished 2-player match whose games ended with the given (winners, scores)."""
    match = Match(players=2, preset="pressman-2015", seed=1, match_winner=variant, rounds=len(outcomes) // 2)
    for winners, scores in outcomes:
        game = match.next_game()
        game._outcome = Outcome(Termination.POOL_EXHAUSTED, winners, tuple(map(Fraction, scores)), (0, 0))
    return match


def test_match_winner_variants() -> None:
    # player 0 wins more games, player 1 scores more points
    outcomes = [((0,), (5, -5)), ((0,), (5, -5)), ((1,), (-40, 40)), ((0,), (1, -1))]
    assert _fake_match("game_wins", outcomes).winners == (0,)
    assert _fake_match("points", outcomes).winners == (1,)
    # equal game wins: the higher point total breaks the tie
    tied = [((0,), (5, -5)), ((1,), (-30, 30))]
    assert _fake_match("game_wins", tied).winners == (1,)
    # a shared game win counts half for each
    shared = [((0, 1), (0, 0)), ((0,), (2, -2))]
    match = _fake_match("game_wins", shared)
    assert match.wins() == (Fraction(3, 2), Fraction(1, 2)) and match.winners == (0,)
    even = [((0,), (3, -3)), ((1,), (-3, 3))]
    assert _fake_match("points", even).winners == (0, 1)


def test_sabra_uses_points() -> None:
    assert Match(players=2, preset="sabra", seed=1).rules.match_winner == "points"


def test_match_record_round_trip() -> None:
    match = Match(players=2, preset="digital", seed=21, rounds=1)
    play_match(match)
    text = match.to_json()
    again = Match.from_json(text)
    assert again.to_json() == text
    assert again.winners == match.winners and again.totals() == match.totals()
    import json

    data = json.loads(text)
    data["games"][1]["deal"]["racks"].reverse()
    with pytest.raises(InvalidRecordError):
        Match.from_json(json.dumps(data))
    data = json.loads(text)
    data["games"] = data["games"][::-1]
    with pytest.raises(InvalidRecordError) as info:
        Match.from_json(json.dumps(data))
    assert info.value.reason == "deal_mismatch"


def test_match_validates_players_and_rounds() -> None:
    with pytest.raises(ValueError):
        Match(players=5, preset="classic")
    with pytest.raises(ValueError):
        Match(players=2, preset="classic", rounds=0)
    assert Match(players=6, preset="large", seed=1).total_games == 6
    assert isinstance(Match(players=2, rules=RuleSet(), seed=1).rules, RuleSet)
