"""Rule sets: the tile-set parameters and every rule variant, with the presets of RULES.md.

A :class:`RuleSet` is a frozen dataclass; ``RuleSet.preset(name)`` gives a preset and
``.replace(**changes)`` overrides any variant on top of it.

========================= ===== ======== ============ ================= ======= =========
preset                    tiles joker in extend after joker retrieval   turn    match
                                opening  opening                        seconds winner
========================= ===== ======== ============ ================= ======= =========
``classic`` (2019 manual) 106   yes      no           replace           60      game_wins
``pressman-2015``         106   yes      no           replace           off     game_wins
``digital`` (casual)      106   yes      yes          free              off     game_wins
``sabra``                 106   no       yes          replace_from_rack off     points
``large`` (160 tiles)     160   yes      no           replace           off     game_wins
``standard``              106   yes      no           replace           off     game_wins
========================= ===== ======== ============ ================= ======= =========

``standard`` is ``pressman-2015`` under another name (the default ``RuleSet()``). ``large`` also allows 2-6
players (``max_players=6``), ``copies=3`` and ``jokers=4``.

The variants (fields), with their defaults (RULES.md section in brackets):

================================= ============= ==========================================================
field                             default       meaning
================================= ============= ==========================================================
``numbers``                       13            tiles are numbered 1..numbers (§1)
``colours``                       4             colours K, B, O, R (the first ``colours`` of them) (§1)
``copies``                        2             copies of each numbered tile (3 in the 160-tile set) (§1)
``jokers``                        2             jokers in the set (4 in the 160-tile set) (§1)
``rack_size``                     14            tiles dealt to each player (§4)
``min_len``                       3             the shortest valid set (§2)
``opening_threshold``             30            points the opening must reach; 0 switches the opening rule off (§6)
``joker_in_opening``              True          jokers count in the opening (False: the opening sets hold no joker;
                                                with ``extend_after_opening``, jokers may be played but do not count)
``extend_after_opening``          False         the opening turn may also add to / rearrange the table (§6)
``joker_retrieval``               ``replace``   ``replace``, ``replace_from_rack`` or ``free`` (§8)
``turn_seconds``                  None          the turn clock in seconds; None: no clock (§9)
``timeout_draw``                  1             tiles drawn when time runs out with no move started (§9)
``failed_move_draw``              3             tiles drawn when time runs out on an unfinished move (§9)
``commit_valid_draft_on_timeout`` False         a legal draft is committed when time runs out (§9)
``joker_penalty``                 30            what a joker left on a rack costs (§3, §10)
``first_player``                  ``draw``      ``draw`` (every game: highest tile starts) or ``rotate`` (the first
                                                game draws, then the first seat moves clockwise) (§4)
``match_winner``                  ``game_wins`` ``game_wins`` (ties broken by points) or ``points`` (§11)
``min_players``, ``max_players``  2, 4          players allowed (2..6 with the 160-tile set) (§4)
================================= ============= ==========================================================

Example::

    >>> RuleSet.preset("large").copies
    3
    >>> RuleSet.preset("classic").replace(turn_seconds=None).turn_seconds is None
    True
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Literal

from . import _core
from ._errors import RummikubError

__all__ = ["RuleSet", "PRESETS", "DEFAULT_PRESET", "rules_from_json", "JokerRetrieval", "MatchWinner", "FirstPlayer"]

JokerRetrieval = Literal["replace", "replace_from_rack", "free"]
MatchWinner = Literal["game_wins", "points"]
FirstPlayer = Literal["draw", "rotate"]

_RETRIEVAL = ("replace", "replace_from_rack", "free")
_MAX_INT = 1_000_000  # every int field; keeps values that reach the C++ core far from overflow
_MATCH = ("game_wins", "points")
_FIRST = ("draw", "rotate")


@dataclass(frozen=True)
class RuleSet:
    """Every parameter and variant of a game; see the module docstring for the table."""

    name: str = "standard"
    numbers: int = 13
    colours: int = 4
    copies: int = 2
    jokers: int = 2
    rack_size: int = 14
    min_len: int = 3
    opening_threshold: int = 30
    joker_in_opening: bool = True
    extend_after_opening: bool = False
    joker_retrieval: JokerRetrieval = "replace"
    turn_seconds: float | None = None
    timeout_draw: int = 1
    failed_move_draw: int = 3
    commit_valid_draft_on_timeout: bool = False
    joker_penalty: int = 30
    first_player: FirstPlayer = "draw"
    match_winner: MatchWinner = "game_wins"
    min_players: int = 2
    max_players: int = 4

    def __post_init__(self) -> None:
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise RummikubError(f"RuleSet {self.name!r}: {what}")

        need(isinstance(self.name, str), f"name must be a str, got {type(self.name).__name__}")
        for field in ("numbers", "colours", "copies", "jokers", "rack_size", "min_len", "opening_threshold",
                      "timeout_draw", "failed_move_draw", "joker_penalty", "min_players", "max_players"):
            value = getattr(self, field)
            need(isinstance(value, int) and not isinstance(value, bool), f"{field} must be an int, got {value!r}")
            need(-_MAX_INT <= value <= _MAX_INT, f"{field} must be within -{_MAX_INT}..{_MAX_INT}, got {value!r}")
        for field in ("joker_in_opening", "extend_after_opening", "commit_valid_draft_on_timeout"):
            need(isinstance(getattr(self, field), bool), f"{field} must be a bool, got {getattr(self, field)!r}")
        try:
            object.__setattr__(self, "_params", _core.Params(self.numbers, self.colours, self.copies,
                                                             self.jokers, self.min_len))
        except ValueError as exc:
            raise RummikubError(f"RuleSet {self.name!r}: {exc}") from None
        need(self.rack_size >= 1, f"rack_size must be at least 1, got {self.rack_size}")
        need(self.opening_threshold >= 0, f"opening_threshold must be >= 0, got {self.opening_threshold}")
        need(self.joker_retrieval in _RETRIEVAL, f"joker_retrieval must be one of {_RETRIEVAL}, got {self.joker_retrieval!r}")
        need(self.match_winner in _MATCH, f"match_winner must be one of {_MATCH}, got {self.match_winner!r}")
        need(self.first_player in _FIRST, f"first_player must be one of {_FIRST}, got {self.first_player!r}")
        need(self.turn_seconds is None or (isinstance(self.turn_seconds, (int, float))
                                           and not isinstance(self.turn_seconds, bool)
                                           and 0 < self.turn_seconds < math.inf),
             f"turn_seconds must be None or a positive finite number, got {self.turn_seconds!r}")
        need(self.timeout_draw >= 0 and self.failed_move_draw >= 0, "penalty draws must be >= 0")
        need(self.joker_penalty >= 0, f"joker_penalty must be >= 0, got {self.joker_penalty}")
        need(2 <= self.min_players <= self.max_players, "need 2 <= min_players <= max_players")
        need(self.max_players * self.rack_size < self.tile_count,
             f"{self.max_players} racks of {self.rack_size} do not fit in {self.tile_count} tiles")

    @property
    def params(self) -> _core.Params:
        """The tile-set parameters as the C++ core takes them."""
        params: _core.Params = self.__dict__["_params"]
        return params

    @property
    def tile_count(self) -> int:
        """How many tiles the full set holds (106 in the standard game)."""
        return self.numbers * self.colours * self.copies + self.jokers

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The preset called ``name`` (see :data:`PRESETS`).

        >>> RuleSet.preset("sabra").joker_retrieval
        'replace_from_rack'
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise RummikubError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed; unknown names raise :class:`RummikubError`.

        >>> RuleSet().replace(opening_threshold=0).opening_threshold
        0
        """
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise RummikubError(f"RuleSet has no field {', '.join(map(repr, unknown))}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every field by name (JSON-ready), as game records store the rules.

        >>> RuleSet.from_dict(RuleSet.preset("sabra").to_dict()) == RuleSet.preset("sabra")
        True
        """
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """The rule set a :meth:`to_dict` mapping describes; missing fields keep their defaults, unknown
        names raise :class:`RummikubError`."""
        if not isinstance(data, dict):
            raise RummikubError(f"rules must be a mapping of field names to values, got {type(data).__name__}")
        return cls().replace(**data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (tuple((f.name, getattr(self, f.name)) for f in dataclasses.fields(self)),))


def _rebuild(items: tuple[tuple[str, Any], ...]) -> RuleSet:
    return RuleSet(**dict(items))


_STANDARD = RuleSet()
PRESETS: dict[str, RuleSet] = {
    "standard": _STANDARD,
    "classic": _STANDARD.replace(name="classic", turn_seconds=60),
    "pressman-2015": _STANDARD.replace(name="pressman-2015"),
    "digital": _STANDARD.replace(name="digital", extend_after_opening=True, joker_retrieval="free"),
    "sabra": _STANDARD.replace(name="sabra", joker_in_opening=False, extend_after_opening=True,
                               joker_retrieval="replace_from_rack", match_winner="points"),
    "large": _STANDARD.replace(name="large", copies=3, jokers=4, max_players=6),
}
"""The presets of RULES.md §12 by name, plus ``standard`` (the untimed 106-tile game)."""

DEFAULT_PRESET = "standard"
"""The preset a new game uses unless told otherwise (untimed)."""


def rules_from_json(data: Any) -> RuleSet:
    """Rules as JSON gives them: a preset name, ``{"preset": "classic", "overrides": {"turn_seconds": 30}}``,
    or :meth:`RuleSet.to_dict`'s mapping (fields left out keep their defaults). Bad input raises
    :class:`RummikubError` naming it.

    >>> rules_from_json({"preset": "classic", "overrides": {"turn_seconds": 30}}).turn_seconds
    30
    >>> rules_from_json("sabra") == RuleSet.preset("sabra") == rules_from_json(RuleSet.preset("sabra").to_dict())
    True
    """
    if isinstance(data, str):
        return RuleSet.preset(data)
    if isinstance(data, dict) and "preset" in data:
        extra = sorted(set(data) - {"preset", "overrides"})
        if extra:
            raise RummikubError(f"rules {{'preset': ...}} take only 'overrides' besides, got {', '.join(map(repr, extra))}")
        overrides = data.get("overrides") or {}
        if not isinstance(overrides, dict):
            raise RummikubError(f"rules overrides must be a mapping of field names to values, got {overrides!r}"[:200])
        return RuleSet.preset(data["preset"]).replace(**overrides)
    return RuleSet.from_dict(data)
