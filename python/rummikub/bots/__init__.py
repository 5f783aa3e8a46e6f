"""Computer players: the :class:`Bot` interface, three built-in strengths and a registry.

A bot sees only its own player's :class:`~rummikub.game.PlayerView` (its rack, the table, how many tiles the
others and the pool hold, who has opened, the public history) and answers with an :class:`~rummikub.Action`: a
play (the whole new table, which must hold every table tile plus the rack tiles it plays; a
:class:`~rummikub.Play` from the search is one), a draw or a pass.

=========== =====================================================================================
``easy``    a beginner: new sets from its own rack only, never touches the table, opens when it can,
            sometimes overlooks tiles (seeded randomness)
``medium``  the best play of the exact search every turn (most tiles, full table manipulation)
``hard``    a strategy on top of the search: tile values kept vs played, holds a joker unless it
            unloads many tiles, keeps flexible tiles, reads the unseen tiles and samples the opponents'
            hidden racks to avoid plays that let a nearly finished opponent go out
=========== =====================================================================================

>>> from rummikub import Game
>>> game = Game.new(players=2, preset="pressman-2015", seed=3)
>>> bots = [get_bot("medium", seed=1), get_bot("easy", seed=2)]
>>> while not game.is_over:
...     game.apply(bots[game.current_player].choose(game.view(game.current_player)))
>>> game.outcome.termination.value
'rummikub'

Write your own bot by subclassing :class:`Bot` (or any object with a ``choose(view)`` method) and register it
with :func:`register_bot`, or name it ``"package.module:ClassName"`` wherever a bot name is accepted.
"""

from __future__ import annotations

import abc
import importlib
import inspect
import random
from collections.abc import Callable
from typing import Protocol, Union, runtime_checkable

from .._errors import RummikubError, shorten
from ..action import Action
from ..game import PlayerView
from ..tiles import TileSet

__all__ = ["Bot", "BotLike", "BOTS", "get_bot", "register_bot", "bot_names", "fallback", "own_rack"]


@runtime_checkable
class BotLike(Protocol):
    """Anything with ``choose(view) -> Action`` can sit at the table (the arena only calls ``choose``)."""

    def choose(self, view: PlayerView) -> Action:
        """The action to take from this view."""
        ...


class Bot(abc.ABC):
    """Base class of the built-in bots. ``seed`` fixes every random choice the bot makes, so a bot gives the
    same answers to the same views whatever machine or process it runs in.

    >>> class Drawer(Bot):
    ...     name = "drawer"
    ...     def choose(self, view):
    ...         return fallback(view)
    >>> Drawer(seed=1).name
    'drawer'
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The bot's random generator, ``random.Random(seed)``, made on first use (seeding one costs more than
        a medium bot's turn in the game loop, and some bots never draw from it); it may be replaced.

        >>> get_bot("easy", seed=3).rng.random() == random.Random(3).random()
        True
        """
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    @abc.abstractmethod
    def choose(self, view: PlayerView) -> Action:
        """The action to take (a play, a draw or a pass). ``view`` is the bot's own view."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed}>"


def fallback(view: PlayerView) -> Action:
    """What to do without a play: a draw while the pool holds tiles, else a pass.

    >>> from rummikub import Game
    >>> fallback(Game.new(players=2, seed=1).view(0))
    Action.draw()
    """
    return _DRAW if view.pool_size > 0 else _PASS


_DRAW = Action.draw()
_PASS = Action.pass_()


def own_rack(view: PlayerView) -> TileSet:
    """The rack of the player whose view this is (a spectator's view has none: :class:`RummikubError`)."""
    if view.rack is None:
        raise RummikubError("a bot plays from a player's view; a spectator's view has no rack")
    return view.rack


BotFactory = Callable[[Union[int, None]], BotLike]
BOTS: dict[str, BotFactory] = {}
"""The registered bots by name (``easy``, ``medium``, ``hard`` and whatever :func:`register_bot` added)."""


def register_bot(name: str, factory: BotFactory) -> None:
    """Makes ``factory(seed)`` available as ``get_bot(name, seed)`` (and in ``rummikub arena --players``).

    >>> register_bot("my-medium", lambda seed: get_bot("medium", seed))
    >>> get_bot("my-medium", 1).name
    'medium'
    >>> del BOTS["my-medium"]
    """
    if not isinstance(name, str) or not name or any(c in name for c in ", :"):
        raise RummikubError(f"a bot name is a non-empty string without ',', ':' or spaces, got {shorten(name)}")
    if not callable(factory):
        raise RummikubError(f"bot {shorten(name)}: the factory must be callable, got {shorten(factory)}")
    BOTS[name] = factory


def bot_names() -> list[str]:
    """The registered bot names.

    >>> bot_names()[:3]
    ['easy', 'medium', 'hard']
    """
    return list(BOTS)


def get_bot(name: str, seed: int | None = None) -> BotLike:
    """A new bot by registered name, or ``"package.module:Name"`` for a class or factory taking ``seed``.

    >>> get_bot("hard", seed=5)
    <HardBot 'hard' seed=5>
    >>> get_bot("expert")
    Traceback (most recent call last):
    ...
    rummikub._errors.RummikubError: unknown bot 'expert'; choose one of easy, medium, hard, or give 'module:Name'
    """
    if not isinstance(name, str):
        raise RummikubError(f"a bot name must be a string, got {shorten(name)}")
    if name in BOTS:
        return BOTS[name](seed)
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError, ValueError, SyntaxError) as exc:
            raise RummikubError(f"bot {shorten(name)} cannot be loaded: {shorten(str(exc), quote=False)}") from None
        if not callable(factory):
            raise RummikubError(f"bot {shorten(name)} is not a class or factory: {shorten(factory)}")
        try:
            inspect.signature(factory).bind(seed)
        except TypeError:
            raise RummikubError(f"bot {shorten(name)} must take the seed: it is called as {attr}(seed)") from None
        except ValueError:  # no signature to read (a builtin): the call itself says
            pass
        bot = factory(seed)
        if not isinstance(bot, BotLike):
            raise RummikubError(f"bot {shorten(name)} has no choose(view) method")
        return bot
    raise RummikubError(f"unknown bot {shorten(name)}; choose one of {', '.join(BOTS)}, or give 'module:Name'")


def _register_builtins() -> None:
    from .easy import EasyBot
    from .hard import HardBot
    from .medium import MediumBot

    register_bot("easy", EasyBot)
    register_bot("medium", MediumBot)
    register_bot("hard", HardBot)


_register_builtins()
