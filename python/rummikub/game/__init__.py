"""The game: state (:class:`Game`), what a player sees (:class:`PlayerView`), the current player's draft
(:class:`Draft`), the turn clock and records. ``from rummikub import Game, PlayerView, Draft`` is the usual
way in; see :mod:`rummikub.game.state` for an example game.
"""

from __future__ import annotations

from ..action import Action, ActionKind, table_from_text, table_to_text
from .clock import Clock, TurnTimeoutError
from .draft import Draft, DraftSet
from .legal import LegalActions
from .record import PUBLIC_RECORD_FORMAT, RECORD_FORMAT, load_record_json
from .state import Game
from .view import OBSERVATION_VERSION, PlayerView

__all__ = ["Game", "PlayerView", "Draft", "DraftSet", "LegalActions", "Clock", "TurnTimeoutError", "Action",
           "ActionKind", "RECORD_FORMAT", "PUBLIC_RECORD_FORMAT", "OBSERVATION_VERSION", "load_record_json",
           "table_to_text", "table_from_text"]
