"""Bots: every turn of every built-in bot is legal under every preset; bots see only their own view and are
deterministic for a seed; each bot's character (easy never touches the table, hard keeps its joker and
takes a win when it has one); the registry and user bots.

The number of seeded games per preset and bot is ``RUMMIKUB_BOT_GAMES`` (default: a quick sample).
"""

from __future__ import annotations

import os
import sys
import types
from collections import Counter

import pytest

from rummikub import Action, ActionKind, Game, PlayerView, RuleSet, RummikubError, Table, Tile, TileSet, check_turn
from rummikub.bots import BOTS, Bot, fallback, get_bot, register_bot
from rummikub.bots.easy import EasyBot
from rummikub.bots.hard import HardBot, HardWeights
from rummikub.bots.medium import MediumBot
from rummikub.search import Play, arrange, solve

PRESETS = ["classic", "pressman-2015", "digital", "sabra", "large"]
GAMES = int(os.environ.get("RUMMIKUB_BOT_GAMES", "2"))


def _frozen() -> float:
    return 0.0


def _table(action: Action) -> Table:
    """The new table of a play (fails for a draw or a pass)."""
    assert isinstance(action, Action) and action.kind is ActionKind.PLAY and action.table is not None, action
    return action.table


def _play_checked(bots: list[str], preset: str, seed: int) -> tuple[Game, Counter[str]]:
    """Plays one game; every answer is re-checked by ``check_turn`` (plays) or the pool (draw/pass) before
    the game applies it. Returns the game and how many plays each bot made."""
    rules = RuleSet.preset(preset)
    game = Game.new(players=len(bots), rules=rules, seed=seed, clock=_frozen)
    players = [get_bot(name, seed * 10 + i) for i, name in enumerate(bots)]
    made: Counter[str] = Counter()
    while not game.is_over:
        p = game.current_player
        view = game.view(p)
        before_rack, before_table = game.rack(p), game.table
        turn = players[p].choose(view)
        assert game.rack(p) == before_rack and game.table == before_table, "a bot changed the game"
        assert isinstance(turn, Action), f"{bots[p]} answered {turn!r}"
        if turn.kind is ActionKind.PLAY:
            played = check_turn(before_table, before_rack, _table(turn), rules=rules, opened=game.opened(p))
            assert played, f"{bots[p]} sent a table without a rack tile"
            made[bots[p]] += 1
        else:
            assert turn == (Action.draw() if game.pool_size else Action.pass_()), f"{bots[p]} answered {turn!r}"
        game.apply(turn, p)
    return game, made


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("lineup", [("easy", "medium", "hard", "easy"), ("hard", "medium")])
def test_every_turn_is_legal(preset: str, lineup: tuple[str, ...]) -> None:
    plays: Counter[str] = Counter()
    for seed in range(GAMES):
        game, made = _play_checked(list(lineup), preset, 100 + seed)
        plays.update(made)
        assert game.outcome is not None and sum(game.outcome.scores) == 0
    # The bots really played (a bot that only draws would pass the legality checks trivially).
    for name in set(lineup):
        assert plays[name] >= GAMES, f"{name} played only {plays[name]} times in {GAMES} games"


@pytest.mark.parametrize("overrides", [dict(opening_threshold=0), dict(opening_threshold=50),
                                       dict(joker_in_opening=False, joker_retrieval="replace_from_rack"),
                                       dict(extend_after_opening=True, joker_retrieval="free")])
def test_rule_overrides_are_respected(overrides: dict[str, object]) -> None:
    rules = RuleSet.preset("pressman-2015").replace(**overrides)
    game = Game.new(players=3, rules=rules, seed=5)
    bots = [HardBot(seed=1), MediumBot(seed=2), EasyBot(seed=3)]
    while not game.is_over:
        p = game.current_player
        turn = bots[p].choose(game.view(p))
        if isinstance(turn, Table):
            check_turn(game.table, game.rack(p), turn, rules=rules, opened=game.opened(p))
        game.apply(turn, p)


def _midgame_view(seed: int = 3) -> tuple[Game, PlayerView]:
    """A position after a few medium turns where the player to move has opened and holds tiles to play."""
    game = Game.new(players=3, preset="pressman-2015", seed=seed)
    medium = MediumBot()
    while not (game.turn >= 6 and game.opened(game.current_player) and len(game.legal_actions()) > 1):
        game.apply(medium.choose(game.view(game.current_player)))
        assert not game.is_over
    return game, game.view(game.current_player)


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_same_view_and_seed_same_answer(name: str) -> None:
    _, view = _midgame_view()
    answers = {str(get_bot(name, 42).choose(view)) for _ in range(3)}
    assert len(answers) == 1


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_hidden_information_does_not_matter(name: str) -> None:
    """Two games that look the same to the current player (same rack, table, counts) but differ in the other
    racks and the pool get the same answer."""
    game, view = _midgame_view()
    p = view.player
    others = [q for q in range(game.players) if q != p]
    # Swap hidden tiles between the opponents' racks and the pool, keeping every count.
    hidden = [t for q in others for t in game.rack(q)] + list(reversed(game._pool))
    hidden = hidden[::-1]
    racks = [game.rack(q) for q in range(game.players)]
    start = 0
    for q in others:
        racks[q] = TileSet(hidden[start:start + len(racks[q])])
        start += len(racks[q])
    pool = hidden[start:]
    twin = Game(game.rules, racks, pool + list(game.table.tiles()), game.current_player)
    twin._pool = list(reversed(pool))
    twin._table = game.table
    twin._layout = game._layout
    twin._opened = list(game._opened)
    twin._turn = game.turn
    twin._events = list(game._events)
    twin._start_turn(None)
    twin_view = twin.view(p)
    assert twin_view.rack == view.rack and twin.rack(others[0]) != game.rack(others[0])
    assert str(get_bot(name, 7).choose(twin_view)) == str(get_bot(name, 7).choose(view))


def _view(table: str, rack: str, *, opened: bool = True, sizes: tuple[int, ...] = (14, 14), pool: int = 40,
          rules: RuleSet | None = None) -> PlayerView:
    rules = rules or RuleSet.preset("pressman-2015")
    return PlayerView(player=0, players=len(sizes), rules=rules, rack=TileSet.parse(rack), table=Table.parse(table),
                      table_text=table, rack_sizes=sizes, pool_size=pool, current_player=0,
                      opened=(opened,) * len(sizes), turn=20, history=(), outcome=None, deadline=None)


def test_easy_never_touches_the_table() -> None:
    view = _view("R1 R2 R3 | K5 B5 O5", "R4 K6 K7 K8 B9 B10 B11")
    turn = _table(EasyBot(seed=0, overlook=0.0).choose(view))
    assert isinstance(turn, Table)
    assert list(turn)[:2] == list(view.table)
    assert sorted(str(m) for m in list(turn)[2:]) == ["B9 B10 B11", "K6 K7 K8"]  # R4 is not added to R1-R3
    # Medium extends the run with R4 too.
    medium = _table(MediumBot().choose(view))
    assert isinstance(medium, Table) and "R4" in str(medium)


def test_easy_overlooks_tiles_sometimes() -> None:
    view = _view("R1 R2 R3", "K6 K7 K8 B9 B10 B11 O1 O2 O3")
    answers = Counter(str(EasyBot(seed=s).choose(view)) for s in range(40))
    assert len(answers) > 1
    full = str(EasyBot(seed=0, overlook=0.0).choose(view))
    assert full in answers and answers[full] < 40


def test_easy_opens_when_it_can() -> None:
    view = _view("", "R10 R11 R12 K1 B7", opened=False)
    turn = EasyBot(seed=1).choose(view)
    assert str(turn) == "play R10 R11 R12"
    assert EasyBot(seed=1).choose(_view("", "R1 R2 R3 K1 B7", opened=False)) == Action.draw()


def test_medium_is_the_search() -> None:
    view = _view("R1 R2 R3 | K5 B5 O5", "R4 R5 R5 K9")
    play = solve(view.table, view.rack, rules=view.rules)
    assert play is not None and MediumBot().choose(view) == play and _table(play) == play.table


# The hard bot's two ways to find candidates: the best play and the best play keeping the jokers (the default,
# max_enumeration=0), or every legal play listed (any rack of up to 4096 sub-multisets).
_LISTING = (0, 4096)


@pytest.mark.parametrize("listing", _LISTING)
def test_hard_keeps_its_joker_for_a_single_tile(listing: int) -> None:
    view = _view("R1 R2 R3", "J K9 B5 O12")
    assert MediumBot().choose(view) != Action.draw()  # the search places the joker on the run
    assert HardBot(seed=1, max_enumeration=listing).choose(view) == Action.draw()


@pytest.mark.parametrize("listing", _LISTING)
def test_hard_spends_its_joker_when_it_unloads_many_tiles(listing: int) -> None:
    """A joker is worth ``weights.joker`` tiles: worth keeping against 5 tiles at the default weight, spent
    for them at a weight of 2.5."""
    view = _view("R1 R2 R3", "J K9 K10 K12 K13 B5")
    assert HardBot(seed=1, max_enumeration=listing).choose(view) == Action.draw()
    turn = _table(HardBot(seed=1, weights=HardWeights(joker=2.5), max_enumeration=listing).choose(view))
    assert isinstance(turn, Table) and turn.tiles() - view.table.tiles() == TileSet.parse("J K9 K10 K12 K13")


@pytest.mark.parametrize("listing", _LISTING)
def test_hard_goes_out_when_it_can(listing: int) -> None:
    view = _view("R1 R2 R3 | K5 B5 O5", "J R4 R5 R5 R6 R7", sizes=(6, 2))
    turn = _table(HardBot(seed=1, max_enumeration=listing).choose(view))
    assert view.rack is not None and turn.tiles() == view.table.tiles() | view.rack


@pytest.mark.parametrize("listing", _LISTING)
def test_hard_opens_and_respects_joker_in_opening(listing: int) -> None:
    rules = RuleSet.preset("sabra")
    view = _view("", "J R10 R11 K3 K4", opened=False, rules=rules)
    bot = HardBot(seed=1, max_enumeration=listing)
    assert bot.choose(view) == Action.draw()  # J R10 R11 would be 33, but jokers may not open
    view = _view("", "J R10 R11 R12 K3", opened=False, rules=rules)
    assert str(_table(bot.choose(view))) == "R10 R11 R12"


def test_hard_charges_threats() -> None:
    """The opponent holds one tile. Playing K4 lets them go out when that tile is K5 (1 unseen tile in 10);
    drawing leaves no way out. With the threat charged heavily the hard bot draws; without it, it plays."""
    rules = RuleSet(name="tiny", numbers=5, colours=3, copies=1, jokers=0, rack_size=2, opening_threshold=0,
                    max_players=2)
    view = _view("K1 K2 K3", "K4 B1", sizes=(2, 1), pool=9, rules=rules)
    careless = HardBot(seed=3, weights=HardWeights(threat=0.0), samples=64, budget=128).choose(view)
    assert careless == Action.play("K1 K2 K3 K4")
    careful = HardBot(seed=3, weights=HardWeights(threat=100.0), samples=64, budget=128)
    assert careful.choose(view) == Action.draw()
    # An opponent with many tiles is no threat: no sampling, the play stands.
    relaxed = _view("K1 K2 K3", "K4 B1", sizes=(2, 6), pool=4, rules=rules)
    assert careful.choose(relaxed) == Action.play("K1 K2 K3 K4")


class _FullyChargedHardBot(HardBot):
    """The hard bot charging every candidate with every sample (no early stop), from the same samples: the
    reference that the pruned charge must agree with."""

    def _charge_threats(self, view, top, threats, unseen):  # type: ignore[no-untyped-def]
        pool = [code for code, count in enumerate(unseen.to_counts().tolist()) for _ in range(count)]
        per = max(1, min(self.samples, self.budget // (len(top) * len(threats))))
        hidden = [TileSet([Tile.from_code(c) for c in self.rng.sample(pool, min(view.rack_sizes[q], len(pool)))])
                  for q in threats for _ in range(per)]
        self.charged += 1
        out = []
        for score, i, p in top:
            table = view.table.tiles() if p is None else view.table.tiles() | p
            outs = sum(arrange(table | rack, view.rules) is not None for rack in hidden)
            out.append((score - self.weights.threat * (outs / len(hidden)), i, p))
        return out


@pytest.mark.parametrize("listing", _LISTING)
@pytest.mark.parametrize("preset", ["classic", "sabra"])
def test_hard_threat_pruning_keeps_every_choice(preset: str, listing: int) -> None:
    """The hard bot searches a candidate's threat samples only while the candidate can still win, the likeliest
    to go out first: every choice equals the choice with every candidate charged with every sample."""
    rules = RuleSet.preset(preset)
    charged = 0
    for seed in range(4):
        game = Game.new(players=4, rules=rules, seed=seed, clock=_frozen)
        pruned = [HardBot(seed=seed * 10 + i, max_enumeration=listing) for i in range(4)]
        full = [_FullyChargedHardBot(seed=seed * 10 + i, max_enumeration=listing) for i in range(4)]
        for bot in full:
            bot.charged = 0  # type: ignore[attr-defined]
        while not game.is_over:
            p = game.current_player
            view = game.view(p)
            turn = pruned[p].choose(view)
            assert turn == full[p].choose(view), f"turn {game.turn}"
            game.apply(turn, p)
        charged += sum(bot.charged for bot in full)  # type: ignore[attr-defined]
    assert charged >= 10, charged  # the games did charge threats


def test_fallback() -> None:
    assert fallback(_view("", "K1", pool=3)) == Action.draw()
    assert fallback(_view("", "K1", pool=0)) == Action.pass_()


def test_registry_and_user_bots() -> None:
    assert {"easy", "medium", "hard"} <= set(BOTS)
    assert isinstance(get_bot("hard", 1), HardBot) and get_bot("hard", 1).seed == 1
    with pytest.raises(RummikubError, match="unknown bot 'grandmaster'"):
        get_bot("grandmaster")
    with pytest.raises(RummikubError, match="cannot be loaded"):
        get_bot("no_such_module_xyz:Bot")
    with pytest.raises(RummikubError, match="bot name"):
        register_bot("a,b", MediumBot)

    class Drawer(Bot):
        name = "drawer"

        def choose(self, view: PlayerView) -> Action:
            return fallback(view)

    module = types.ModuleType("user_bots_for_test")
    module.Drawer = Drawer  # type: ignore[attr-defined]
    sys.modules["user_bots_for_test"] = module
    try:
        bot = get_bot("user_bots_for_test:Drawer", 5)
        assert isinstance(bot, Drawer) and bot.seed == 5
        register_bot("drawer", Drawer)
        game, _ = _play_checked(["drawer", "medium"], "pressman-2015", 1)
        assert game.outcome is not None and game.outcome.winners == (1,)
    finally:
        del sys.modules["user_bots_for_test"]
        BOTS.pop("drawer", None)


def test_hard_without_listing_every_play() -> None:
    """By default the hard bot compares the best play with the best play keeping its jokers (and drawing)."""
    plain = _view("R1 R2 R3 | K5 B5 O5", "J R4 K9 K10 K11 O2")
    chosen = HardBot(seed=1).choose(plain)
    assert isinstance(chosen, Play)  # the search's own result, which a game applies without checking it again
    turn = _table(chosen)
    assert isinstance(turn, Table) and turn.tiles() - plain.table.tiles() == TileSet.parse("R4 K9 K10 K11")
    # A rack too big to list (more sub-multisets than max_enumeration) takes the same two candidates.
    turn = _table(HardBot(seed=1, max_enumeration=4).choose(plain))
    assert isinstance(turn, Table) and turn.tiles() - plain.table.tiles() == TileSet.parse("R4 K9 K10 K11")
    game, _ = _play_checked(["hard", "medium"], "classic", 3)
    assert game.outcome is not None


def test_hard_listing_finds_a_smaller_play_that_hands_no_win_away() -> None:
    """The opponent holds one tile. The best play, B1 B2 K4, extends K1-K3 so that an unseen K5 goes out, and
    a heavy threat charge makes it draw instead; listing every play, it finds B1 B2 alone, which leaves no
    unseen tile a way out."""
    rules = RuleSet(name="tiny", numbers=5, colours=3, copies=1, jokers=0, rack_size=2, opening_threshold=0,
                    max_players=2)
    view = _view("K1 K2 K3 | B3 B4 B5", "B1 B2 K4 O3", sizes=(4, 1), pool=6, rules=rules)
    weights = HardWeights(threat=100.0)
    assert HardBot(seed=3, weights=weights, samples=64, budget=128).choose(view) == Action.draw()
    listing = HardBot(seed=3, weights=weights, samples=64, budget=128, max_enumeration=4096)
    assert listing.choose(view) == Action.play("K1 K2 K3 | B1 B2 B3 B4 B5")


@pytest.mark.parametrize("module", ["rummikub.bots.easy", "rummikub.bots.medium", "rummikub.bots.hard"])
def test_bot_module_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
