"""Scoring a finished game (docs/rules.md §10), with exact fractions for shared wins.

>>> from rummikub import RuleSet, TileSet
>>> racks = [TileSet(), TileSet.parse("K7 B4"), TileSet.parse("J"), TileSet.parse("R8 R2 O1")]
>>> [str(s) for s in score_game(racks, 0, RuleSet())]
['52', '-11', '-30', '-11']
>>> racks = [TileSet.parse(r) for r in ("K10 R10", "B5", "O12", "K8")]
>>> [str(s) for s in score_game(racks, None, RuleSet())]
['-15', '25', '-7', '-3']
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ._errors import RummikubError, shorten
from .rules import RuleSet
from .tiles import TileLike, TileSet

__all__ = ["Termination", "Outcome", "score_game", "rack_value", "game_outcome"]


class Termination(str, enum.Enum):
    """How a game ended."""

    RUMMIKUB = "rummikub"
    """A player emptied their rack ("Rummikub!")."""
    POOL_EXHAUSTED = "pool_exhausted"
    """The pool ran out and a full round of players passed; the lowest rack total wins."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winners`` holds one player, or several tied for the lowest rack total when the pool ran out; they
    share the win equally (``win_share``). ``scores`` sum to zero and are exact :class:`~fractions.Fraction`.
    """

    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[Fraction, ...]
    rack_values: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """The single winner, or None when the win is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    def win_share(self, player: int) -> Fraction:
        """The part of the game win that ``player`` gets (1, a fraction for tied winners, or 0)."""
        return Fraction(1, len(self.winners)) if player in self.winners else Fraction(0)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (fractions as strings like ``"25/2"``)."""
        return {"termination": self.termination.value, "winners": list(self.winners),
                "scores": [str(s) for s in self.scores], "rack_values": list(self.rack_values)}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Outcome:
        """The inverse of :meth:`to_dict`; a malformed outcome raises :class:`RummikubError` naming the field
        (integers must be JSON integers: ``true`` is not the player 1).

        >>> Outcome.from_dict({"termination": "rummikub", "winners": [True], "scores": ["1", "-1"],
        ...                    "rack_values": [0, 1]})
        Traceback (most recent call last):
        ...
        rummikub._errors.RummikubError: outcome winners must be a list of integers, got [True]
        """
        if not isinstance(data, dict):
            raise RummikubError(f"an outcome is an object, got {shorten(data)}")
        fields = {}
        for name in ("termination", "winners", "scores", "rack_values"):
            if name not in data:
                raise RummikubError(f"the outcome has no {name!r}")
            fields[name] = data[name]
        winners, scores, values = fields["winners"], fields["scores"], fields["rack_values"]
        for name, items in (("winners", winners), ("rack_values", values)):
            if not isinstance(items, list) or not all(type(x) is int for x in items):
                raise RummikubError(f"outcome {name} must be a list of integers, got {shorten(items)}")
        if not isinstance(scores, list) or not all(isinstance(x, str) and _SCORE.fullmatch(x) for x in scores):
            raise RummikubError(f"outcome scores must be a list of fractions like '25/2', got {shorten(scores)}")
        assert isinstance(winners, list) and isinstance(values, list)
        try:
            termination = Termination(fields["termination"])
        except ValueError:
            raise RummikubError(f"outcome termination {shorten(fields['termination'])} is not one of "
                                f"{', '.join(t.value for t in Termination)}") from None
        return cls(termination, tuple(winners), tuple(Fraction(s) for s in scores), tuple(values))


_SCORE = re.compile(r"-?[0-9]{1,15}(/[1-9][0-9]{0,15})?")  # bounded: no "1e999999999" through Fraction


def _as_rack(rack: TileSet | Iterable[TileLike]) -> TileSet:
    return rack if isinstance(rack, TileSet) else TileSet(rack)


def rack_value(rack: TileSet | Iterable[TileLike], rules: RuleSet | None = None) -> int:
    """What a rack left at the end costs: the sum of its numbers, each joker ``rules.joker_penalty`` (30).

    >>> rack_value(TileSet.parse("R8 R2 J"))
    40
    """
    return _as_rack(rack).value((rules or RuleSet()).joker_penalty)


def score_game(racks: Sequence[TileSet | Iterable[TileLike]], winner: int | None,
               rules: RuleSet | None = None) -> tuple[Fraction, ...]:
    """Each player's score for a finished game (docs/rules.md §10); the scores sum to zero.

    ``winner`` is the player who went out (their rack must be empty), or None when the pool ran out: then the
    lowest rack total wins, every other player loses (own total - lowest) and the winners share the gain
    equally, as exact fractions.

    >>> [str(s) for s in score_game([TileSet.parse("K3"), TileSet.parse("B3"), TileSet.parse("O9")], None)]
    ['3', '3', '-6']
    """
    values = [rack_value(r, rules) for r in racks]
    return _scores(values, winner)[0]


def _scores(values: Sequence[int], winner: int | None) -> tuple[tuple[Fraction, ...], tuple[int, ...]]:
    n = len(values)
    if n < 1:
        raise RummikubError("score_game needs at least one rack")
    if winner is not None:
        if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < n:
            raise RummikubError(f"winner must be a player index in 0..{n - 1} or None, got {shorten(winner)}")
        if values[winner] != 0:
            raise RummikubError(f"the winner (player {winner}) went out, so their rack must be empty; "
                                f"it is worth {values[winner]}")
        scores = [Fraction(-v) for v in values]
        scores[winner] = Fraction(sum(values))
        return tuple(scores), (winner,)
    low = min(values)
    winners = tuple(i for i, v in enumerate(values) if v == low)
    gain = sum(v - low for v in values)
    share = Fraction(gain, len(winners))
    return tuple(share if v == low else Fraction(low - v) for v in values), winners


def game_outcome(racks: Sequence[TileSet | Iterable[TileLike]], winner: int | None,
                 rules: RuleSet | None = None) -> Outcome:
    """The :class:`Outcome` of a game that ended with these racks (``winner`` as in :func:`score_game`).

    >>> game_outcome([TileSet.parse("K3"), TileSet.parse("B3")], None).winners
    (0, 1)
    """
    values = tuple(rack_value(r, rules) for r in racks)
    scores, winners = _scores(values, winner)
    termination = Termination.RUMMIKUB if winner is not None else Termination.POOL_EXHAUSTED
    return Outcome(termination, winners, scores, values)
