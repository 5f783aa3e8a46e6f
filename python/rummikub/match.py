"""Rounds and matches (RULES.md §11): a round is as many games as players; a match is one or more rounds.

The match winner follows ``rules.match_winner``: ``game_wins`` (most game wins, shared wins counting as exact
fractions, ties broken by the higher point total) or ``points`` (the highest total score). Players still tied
after that share the match win (``winners`` holds them all).

>>> m = Match(players=2, preset="pressman-2015", seed=3)
>>> m.games_per_round, m.total_games
(2, 2)
>>> game = m.next_game()
>>> game.rules.name, m.is_over
('pressman-2015', False)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ._errors import InvalidRecordError, RummikubError
from .game import Clock, Game, load_record_json
from .rules import DEFAULT_PRESET
from .rules import RuleSet

__all__ = ["Match", "MATCH_FORMAT"]

MATCH_FORMAT = "rummikub-match/1"
"""The ``format`` field of a match record."""


class Match:
    """A match of ``rounds`` rounds (``players`` games each) under one rule set.

    Play it game by game: ``game = match.next_game()``, play ``game`` to its end, repeat until
    :attr:`is_over`. Game seeds derive from the match seed; with ``first_player="rotate"`` the first game draws
    for first player and each later game starts one seat further clockwise, with ``"draw"`` every game draws.
    """

    def __init__(self, players: int = 4, preset: str = DEFAULT_PRESET, seed: int | None = None, *, rounds: int = 1,
                 rules: RuleSet | None = None, clock: Clock | None = None, **overrides: Any) -> None:
        base = rules if rules is not None else RuleSet.preset(preset)
        if overrides:
            base = base.replace(**overrides)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise RummikubError(f"rounds must be a positive int, got {rounds!r}")
        if isinstance(players, bool) or not isinstance(players, int) or not base.min_players <= players <= base.max_players:
            raise RummikubError(f"{players!r} players: the rules {base.name!r} allow "
                                f"{base.min_players}..{base.max_players}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.rules = base
        self.players = players
        self.rounds = rounds
        self.seed = seed
        self._clock = clock
        self._rng = random.Random(seed)
        self._games: list[Game] = []

    @property
    def games_per_round(self) -> int:
        """As many games as players."""
        return self.players

    @property
    def total_games(self) -> int:
        """Games in the whole match."""
        return self.rounds * self.players

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game started so far, in order."""
        return tuple(self._games)

    @property
    def current_game(self) -> Game | None:
        """The last game started (None before the first)."""
        return self._games[-1] if self._games else None

    @property
    def is_over(self) -> bool:
        """True when every game of every round is finished."""
        return len(self._games) == self.total_games and all(g.is_over for g in self._games)

    def next_game(self) -> Game:
        """Starts the next game (the previous one must be over)."""
        if self._games and not self._games[-1].is_over:
            raise RummikubError("the current game is not over yet")
        if len(self._games) >= self.total_games:
            raise RummikubError(f"the match is over ({self.total_games} games played)")
        seed = self._rng.randrange(2**63)
        first = None
        if self.rules.first_player == "rotate" and self._games:
            first = (self._games[0].first_player + len(self._games)) % self.players
        game = Game.new(self.players, rules=self.rules, seed=seed, first_player=first, clock=self._clock)
        self._games.append(game)
        return game

    def _finished(self) -> list[Game]:
        return [g for g in self._games if g.is_over]

    def totals(self) -> tuple[Fraction, ...]:
        """Each player's total score over the finished games."""
        out = [Fraction(0)] * self.players
        for g in self._finished():
            assert g.outcome is not None
            out = [a + b for a, b in zip(out, g.outcome.scores)]
        return tuple(out)

    def wins(self) -> tuple[Fraction, ...]:
        """Each player's game wins over the finished games (a shared win counts as a fraction)."""
        out = [Fraction(0)] * self.players
        for g in self._finished():
            assert g.outcome is not None
            out = [w + g.outcome.win_share(p) for p, w in enumerate(out)]
        return tuple(out)

    def standings(self) -> list[tuple[int, Fraction, Fraction]]:
        """(player, wins, points) best first, by the active ``match_winner`` variant."""
        wins, totals = self.wins(), self.totals()
        rows = [(p, wins[p], totals[p]) for p in range(self.players)]
        if self.rules.match_winner == "points":
            return sorted(rows, key=lambda r: (-r[2], r[0]))
        return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))

    @property
    def winners(self) -> tuple[int, ...]:
        """The match winner(s) by the active variant; empty until the match is over."""
        if not self.is_over:
            return ()
        rows = self.standings()
        key = (lambda r: r[2]) if self.rules.match_winner == "points" else (lambda r: (r[1], r[2]))
        best = key(rows[0])
        return tuple(sorted(r[0] for r in rows if key(r) == best))

    # ---- records -------------------------------------------------------------------------------------------

    @property
    def record(self) -> dict[str, Any]:
        """The match record: rules, seed, every game's record and the standings (JSON-ready)."""
        return {"format": MATCH_FORMAT, "rules": self.rules.to_dict(), "players": self.players,
                "rounds": self.rounds, "seed": self.seed, "games": [g.record for g in self._games],
                "wins": [str(w) for w in self.wins()], "totals": [str(t) for t in self.totals()],
                "winners": list(self.winners)}

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.record, indent=indent)

    @classmethod
    def from_json(cls, text: str, *, clock: Clock | None = None) -> Match:
        """Replays a match record (every game replayed and checked); :class:`InvalidRecordError` if broken."""
        return cls.from_record(load_record_json(text), clock=clock)

    @classmethod
    def from_record(cls, data: Mapping[str, Any], *, clock: Clock | None = None) -> Match:
        """See :meth:`from_json`."""
        if not isinstance(data, Mapping) or data.get("format") != MATCH_FORMAT:
            raise InvalidRecordError(f"not a match record (format {MATCH_FORMAT!r})", "format")
        try:
            match = cls(data["players"], rules=RuleSet.from_dict(data["rules"]), seed=data["seed"],
                        rounds=data["rounds"], clock=clock)
        except (KeyError, RummikubError) as exc:
            raise InvalidRecordError(f"match header: {exc}", "format") from None
        games = data.get("games")
        if not isinstance(games, list) or len(games) > match.total_games:
            raise InvalidRecordError("games must be a list of at most rounds * players game records", "format")
        for i, record in enumerate(games, start=1):
            expected = match.next_game()
            replayed = Game.from_record(record, clock=clock)
            if replayed.record["deal"] != expected.record["deal"] or replayed.first_player != expected.first_player:
                raise InvalidRecordError(f"game {i} does not follow from the match seed", "deal_mismatch")
            if i < len(games) and not replayed.is_over:
                raise InvalidRecordError(f"game {i} is unfinished but later games follow", "format")
            match._games[-1] = replayed
        return match

    def __repr__(self) -> str:
        return (f"<Match {self.rules.name} players={self.players} games={len(self._games)}/{self.total_games} "
                f"seed={self.seed}>")
