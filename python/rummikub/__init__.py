"""rummikub: an exact, fast engine for the tile game Rummikub.

The C++ core holds tiles as bitset multisets and finds the best play exactly; this package wraps it
with notation, rule variants, game flow, bots and tools.

>>> from rummikub import Table, TileSet
>>> Table.parse("R5 J R7 | KBO7").tiles() == TileSet.parse("K7 B7 O7 R5 R7 J")
True
"""

from __future__ import annotations

try:
    from . import _core
except ImportError as exc:  # pragma: no cover - only on a broken install
    raise ImportError(
        "rummikub's compiled core (rummikub._core) is missing or does not load; reinstall with "
        "`pip install .` from a source checkout, or install a wheel for this platform"
    ) from exc

from ._errors import (
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidRecordError,
    InvalidTileError,
    RummikubError,
    SearchLimitError,
    TileCountError,
)
from .meld import Meld, MeldKind, Table
from .action import Action, ActionKind
from .game import Draft, Game, LegalActions, PlayerView, TurnTimeoutError
from .legality import Reason, check_turn
from .match import Match
from .scoring import Outcome, Termination, score_game
from .search import LegalPlays, Play, SearchStats, arrange, plays, solve, solve_batch
from .rules import DEFAULT_PRESET, PRESETS, RuleSet
from .tiles import JOKER, Colour, Tile, TileSet

__version__ = "0.1.0"

__all__ = [
    "Action",
    "ActionKind",
    "Colour",
    "DEFAULT_PRESET",
    "LegalActions",
    "Draft",
    "Game",
    "Match",
    "Outcome",
    "PlayerView",
    "Reason",
    "Termination",
    "TurnTimeoutError",
    "check_turn",
    "arrange",
    "plays",
    "solve",
    "solve_batch",
    "LegalPlays",
    "Play",
    "SearchStats",
    "score_game",
    "IllegalMoveError",
    "InvalidMeldError",
    "InvalidNotationError",
    "InvalidRecordError",
    "InvalidTileError",
    "JOKER",
    "Meld",
    "MeldKind",
    "PRESETS",
    "RuleSet",
    "RummikubError",
    "SearchLimitError",
    "Table",
    "Tile",
    "TileCountError",
    "TileSet",
]
