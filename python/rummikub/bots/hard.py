"""The hard bot: a strategy built on the exact search.

Every turn it takes as candidates the best play (:func:`~rummikub.search.solve`: the most tiles, then the most
value) and, when that play spends a rack joker, the best play keeping the jokers; it scores them, plus drawing
instead of playing, by:

- **tiles played** (the race to empty the rack) and their **value** (what stays on the rack costs points);
- **joker kept**: a joker on the rack is worth several tiles of future plays, so a play that spends it must
  unload that many more tiles than the best play without it;
- **flexibility** of the tiles kept: a tile next to rack tiles (same number, other colours; same colour,
  numbers close by) is likely to join a set soon, weighted by how many of the missing tiles are still
  **unseen** (not on the table, not on its rack: in the pool or the other racks);
- **threats**: while an opponent holds few tiles, it samples that opponent's hidden rack from the unseen
  tiles (``samples`` racks, the same samples for every candidate) and checks with the search whether that
  rack could go out on the table a candidate leaves; the chance of handing a win away is charged.

With ``max_enumeration`` above 0, a rack with at most that many sub-multisets has every legal play listed
(:func:`~rummikub.search.plays`) and scored instead, the leading ``candidates`` going on to the threat charge.
That finds plays of fewer tiles that keep a stronger rack or hand no opponent a win, but it makes the bot no
stronger in play and slower (``docs/performance.md``, "Bots"), so by default no rack is listed.

The budget is counted in searches, not seconds (``budget`` per move), so the bot's choices depend only on the
view and its seed, never on machine speed. Every play it sends comes from the search, so it honours every
rule variant (opening threshold, jokers in the opening, joker retrieval).

>>> from rummikub import Game
>>> game = Game.new(players=2, preset="sabra", seed=4)
>>> turn = HardBot(seed=1).choose(game.view(game.current_player))
>>> turn.kind.value in ("play", "draw")
True
"""

from __future__ import annotations

import functools
import operator
import random
from dataclasses import dataclass

from ..action import Action
from ..game import PlayerView
from .. import _core
from ..search import DEFAULT_PLAYS_LIMIT, LegalPlays, Play, solve
from ..tiles import Tile, TileSet, core_of
from . import Bot, fallback, own_rack

__all__ = ["HardBot", "HardWeights"]

_JOKER = 64
_STRIDE = 16


@dataclass(frozen=True)
class HardWeights:
    """The hard bot's evaluation weights (in tiles: playing one tile is worth ``tile``)."""

    tile: float = 1.0
    """Each rack tile played (negative: keep playable tiles in reserve, playing as few as avoid a draw)."""
    tile_endgame: float = 1.0
    """Each rack tile played once the pool is empty or an opponent is close to going out."""
    value: float = 0.01
    """Each point of face value played (tiles left on the rack cost their value at the end)."""
    joker: float = 6.0
    """A joker still on the rack (beyond the tile it is): a joker held to the end makes going out far easier
    (measured in 600 two-player games against medium: 51% at a weight of 2.5, 60% at 6)."""
    flex: float = 0.25
    """A kept tile's flexibility (0..1 each: how close it is to a set)."""
    draw: float = 1.0
    """Drawing instead of playing (one more tile on the rack, on top of the tiles not played)."""
    threat: float = 6.0
    """Letting an opponent go out (charged with the sampled probability)."""


class HardBot(Bot):
    """The strategic bot. ``candidates`` plays are scored fully; ``samples`` hidden racks per threatening
    opponent; ``budget`` caps the threat searches per move; ``threat_tiles``: opponents holding at most this
    many tiles are threats; racks with at most ``max_enumeration`` sub-multisets (none by default) have every
    legal play listed and scored, the others compare the best play with the best play keeping the jokers."""

    name = "hard"

    def __init__(self, seed: int | None = None, *, weights: HardWeights | None = None, candidates: int = 6,
                 samples: int = 8, budget: int = 16, threat_tiles: int = 4,
                 endgame_tiles: int = 2, max_enumeration: int = 0) -> None:
        super().__init__(seed)
        self.weights = weights or HardWeights()
        self.candidates = candidates
        self.samples = samples
        self.budget = budget
        self.threat_tiles = threat_tiles
        self.endgame_tiles = endgame_tiles
        self.max_enumeration = max_enumeration

    # ---- the turn --------------------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        """The best-scored candidate (a play, or a draw/pass)."""
        rules = view.rules
        rack = own_rack(view)
        if not view.has_opened:
            return self._open(view)
        legal: LegalPlays | None = None
        solved: dict[TileSet, Play] = {}  # the solved candidates, by their tiles
        played: list[TileSet] = []
        # (a rack of n tiles has at most 2^n - 1 non-empty sub-multisets: small racks skip the count)
        limit = self.max_enumeration
        if limit > 0 and ((1 << len(rack)) - 1 <= limit or _sub_multisets(rack) <= limit):
            # the view's table and rack are a valid position (the listing still checks them)
            legal = LegalPlays(view.table, rack, rules, True, DEFAULT_PLAYS_LIMIT)
            if not legal:
                return fallback(view)
        else:
            # The best play, and when it spends a rack joker the best play keeping the jokers (the best play
            # already keeps them when it spends none): the candidates.
            found = solve(view.table, rack, rules=rules, opened=True)
            if found is None:
                return fallback(view)
            if found.tiles == rack:
                return found  # going out wins the game
            solved[found.tiles] = found
            played.append(found.tiles)
            if found.tiles.jokers:
                plain = _without_jokers(rack)
                alt = solve(view.table, plain, rules=rules, opened=True) if plain else None
                if alt is not None:
                    solved[alt.tiles] = alt
                    played.append(alt.tiles)
        opponents = [view.rack_sizes[q] for q in range(view.players) if q != view.player]
        endgame = view.pool_size == 0 or min(opponents) <= self.endgame_tiles
        tile_weight = self.weights.tile_endgame if endgame else self.weights.tile
        seen = core_of(view.table.tiles()).sum(core_of(rack))
        unseen = rules.params.full_set().difference(seen)
        partners = self._partners(rack, unseen, rules.numbers)
        # The draw, while the pool holds tiles, is scored as an empty play (then charged its extra tile), after
        # every play.
        drawing = view.pool_size > 0
        scored: list[tuple[float, int, TileSet | None]]
        if legal is not None:
            # Every legal play is scored from the core's figures (tiles, value, jokers, kept flexibility), the
            # same floats as _static_scores; only the leading candidates become TileSets.
            first, scores = self._listed_scores(legal, rack, partners, tile_weight)
            if first == len(rack):
                return legal[0]  # going out wins the game
            # best first by score, then index (a stable sort: reversed, it keeps equal scores in index order); the
            # draw, last by index, joins below
            lead = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)[:self.candidates] \
                if len(scores) > 1 else [0]
            # (their tiles are read below only when the threats need them)
            scored = [(scores[i], i, None) for i in lead]
            draw_score = self._static_scores([_EMPTY], rack, partners, tile_weight)[0] if drawing else 0.0
        else:
            # (the draw's score in the same call, last)
            scores = self._static_scores(played + [_EMPTY] if drawing else played, rack, partners, tile_weight)
            scored = [(scores[i], i, tiles) for i, tiles in enumerate(played)]
            draw_score = scores[-1] if drawing else 0.0
        draw = len(legal) if legal is not None else len(played)  # the draw's index, after every play's
        if drawing:
            scored.append((draw_score - self.weights.draw, draw, None))
        scored.sort(key=lambda s: (-s[0], s[1]))
        top = scored[:self.candidates]
        threats = [q for q in range(view.players)
                   if q != view.player and view.opened[q] and view.rack_sizes[q] <= self.threat_tiles]
        if threats and self.weights.threat > 0:
            # Only candidates that a full threat charge could still make best are worth the searches.
            top = [s for s in top if s[0] >= top[0][0] - self.weights.threat]
            if len(top) > 1:
                if legal is not None:  # the listed candidates' tiles
                    listed = [i for _, i, _ in top if i != draw]
                    tiles_of = dict(zip(listed, legal.played_tiles(listed)))
                    top = [(score, i, tiles_of.get(i)) for score, i, _ in top]
                top = self._charge_threats(view, top, threats, unseen)
        best = max(top, key=lambda s: (s[0], -s[1]))
        if best[1] == draw:
            return fallback(view)
        if legal is not None:
            return legal[best[1]]
        assert best[2] is not None  # (solved candidates come with their tiles)
        # (the search's own Play: a game applies the play solve() last returned for its position unchecked)
        return solved[best[2]]

    def _open(self, view: PlayerView) -> Action:
        """Opens with the most tiles, keeping the jokers when an opening without them plays nearly as many."""
        rules, rack = view.rules, own_rack(view)
        best = solve(view.table, rack, rules=rules, opened=False)
        if best is None:
            return fallback(view)
        if best.tiles.jokers and rack != best.tiles:
            plain = _without_jokers(rack)
            alt = solve(view.table, plain, rules=rules, opened=False) if plain else None
            if alt is not None and len(best.tiles) - len(alt.tiles) < 1 + self.weights.joker:
                return alt
        return best

    # ---- evaluation ------------------------------------------------------------------------------------

    @staticmethod
    def _partners(rack: TileSet, unseen: _core.TileSet, numbers: int) -> list[float]:
        """Flexibility (0..1) of each numbered rack tile, by tile code (65 entries, 0.0 off the rack and for
        the joker, which has no neighbours): rack neighbours count fully, unseen ones a little (the chance to
        draw or pick them up); ``unseen`` holds the unseen tiles.

        A tile's neighbours (:func:`_neighbours`: two and one below, one and two above, weights 0.5, 1, 1, 0.5, in
        that order, then the same number in the other colours, weight 1) add up, from 0.0 and in that order, their
        weight times (1 if the neighbour is on the rack else 0) + 0.1 * its unseen copies (``_NEAR_ON[n]``,
        ``_NEAR_OFF[n]`` for n copies); the sum is divided by 3, at most 1. The core adds them
        (``_core.NeighbourSums``: the same floating-point operations in the same order as that loop in Python)."""
        return _flexibility(numbers).of(core_of(rack), unseen)

    def _listed_scores(self, legal: LegalPlays, rack: TileSet, partners: list[float],
                       tile_weight: float) -> tuple[int, list[float]]:
        """The tiles the first listed play places, and the score before threats of every listed play, from the
        core's tallies (the kept tiles' flexibility summed in canonical order, as :meth:`_static_scores` sums it)."""
        t = legal.tallies(partners)
        tiles = t["tiles"].tolist()
        return tiles[0], self._scores(tile_weight, rack.jokers, tiles, t["value"].tolist(), t["jokers"].tolist(),
                                      t["kept"].tolist())

    def _static_scores(self, played: list[TileSet], rack: TileSet, partners: list[float],
                       tile_weight: float) -> list[float]:
        """The score before threats of playing each of ``played`` from ``rack`` (which holds it), its figures
        computed here in Python: the tiles played, their value, the jokers played, and the kept tiles'
        flexibility (``partners``) added one by one in canonical order (jokers last, adding 0.0), as the core's
        tallies add it."""
        flex_of = partners.__getitem__
        rack_core = core_of(rack)
        placed, values, jokers, kept_flex = [], [], [], []
        for tiles in played:
            p = core_of(tiles)
            kept = rack_core.difference(p).codes()  # canonical order: the jokers last
            placed.append(p.size())
            values.append(p.value(0))
            jokers.append(p.count(_JOKER))
            kept_flex.append(functools.reduce(operator.add, map(flex_of, kept), 0.0))
        return self._scores(tile_weight, rack.jokers, placed, values, jokers, kept_flex)

    def _scores(self, tile_weight: float, rack_jokers: int, placed: list[int], values: list[int],
                jokers: list[int], kept_flex: list[float]) -> list[float]:
        """Each play's score before threats from its figures (tiles placed, their value, jokers placed, the kept
        tiles' summed flexibility): the tiles and value played, the jokers kept, the flexibility kept."""
        w = self.weights
        wv, wj, wf = w.value, w.joker, w.flex
        out = []
        for n, value, joker, flex in zip(placed, values, jokers, kept_flex):
            score = tile_weight * n + wv * value
            score += wj * (rack_jokers - joker)
            score += wf * flex
            out.append(score)
        return out

    def _charge_threats(self, view: PlayerView, top: list[tuple[float, int, TileSet | None]],
                        threats: list[int], unseen: _core.TileSet) -> list[tuple[float, int, TileSet | None]]:
        """Charges each candidate the sampled chance that a threatening opponent goes out on its table
        (``top`` comes best first by static score).

        A charge only lowers a score, so a candidate is searched only while it can still beat the best charged
        candidate so far (ties: the earlier candidate wins). One that cannot keeps an upper bound of its score:
        its static score when it is not searched at all, or its charge so far when it stops part way.

        The samples are drawn before any search, and a candidate's full charge does not depend on the order its
        samples are searched in, so each candidate searches first the samples that went out on the candidates
        before it (their tables differ by a few tiles: those are the likeliest to go out again and stop it
        early), cheapest first (the search states they took). Which candidates stop, and where, changes; the
        best candidate and its charge do not.

        A candidate whose charge, even with every sample it has left going out, stays above the best so far and
        above every later candidate's static score is the best: it stops there, with that lower bound as its
        score (the choice is the same; only the best's identity is read)."""
        per = max(1, min(self.samples, self.budget // (len(top) * len(threats))))
        # ``per`` racks for each threat in turn, each ``rng.sample`` of the unseen tiles' codes (one per copy, in code
        # order) as large as the threat's rack (at most every unseen tile)
        hidden = _sample_racks(self.rng, unseen, [min(view.rack_sizes[q], unseen.size()) for q in threats
                                                  for _ in range(per)])
        # An opponent goes out on a table when the table's tiles and its whole rack split into sets: one
        # ``arrange`` search of the tiles together, asked only whether a partition exists (the table's jokers
        # count as free: a slight overestimate of what the opponent can do, which is the safe side for a threat;
        # exactly solve_batch's answer, faster).
        n = len(hidden)
        base = core_of(view.table.tiles())
        params = view.rules.params
        threat = self.weights.threat
        best: tuple[float, int, TileSet | None] | None = None
        out = list(top)
        went_out = [0] * n  # per sample: how many candidates it went out on so far
        work = [0] * n  # per sample: the search states it took so far
        order: list[int] = list(range(n))
        goes_out = _core.can_arrange  # whether the table and a rack split into sets, and the search states it took
        # The arrangements found so far guide the next searches (the tables and racks differ by a few tiles): the
        # same answers, found in fewer states.
        guides = _core.ArrangeGuides()
        for k, (score, i, p) in enumerate(top):
            if best is not None and (score, -i) < (best[0], -best[1]):
                break  # so is every later candidate (sorted by static score, then index)
            # what this candidate must beat: the best charged so far, and the next candidate's static score (an
            # upper bound of every later one)
            rival = None if best is None else (best[0], -best[1])
            if k + 1 < len(top) and (rival is None or (top[k + 1][0], -top[k + 1][1]) > rival):
                rival = (top[k + 1][0], -top[k + 1][1])
            table = base if p is None else base.sum(core_of(p))
            outs = 0
            if k:
                keys = [(-went_out[j], work[j]) for j in range(n)]
                order = sorted(range(n), key=keys.__getitem__)
            for d, j in enumerate(order):  # sample by sample: a candidate charged below the best stops early
                # ... and one that beats every rival even if all its remaining samples go out is the best
                if rival is not None and (score - threat * ((outs + n - d) / n), -i) > rival:
                    out[k] = (score - threat * ((outs + n - d) / n), i, p)  # a lower bound of its charge
                    return out
                found, states = goes_out(table, hidden[j], params, None, guides)
                work[j] += states
                if found:
                    outs += 1
                    went_out[j] += 1
                    if best is not None and score - threat * (outs / n) < best[0]:
                        break
            out[k] = charged = (score - threat * (outs / n), i, p)
            if best is None or (charged[0], -charged[1]) > (best[0], -best[1]):
                best = charged
        return out


_EMPTY = TileSet()  # what a draw plays
_NEAR_ON = [1 + 0.1 * n for n in range(_core.MAX_COUNT + 1)]  # a rack neighbour with n unseen copies
_NEAR_OFF = [0 + 0.1 * n for n in range(_core.MAX_COUNT + 1)]  # a neighbour not on the rack


def _sample_racks(rng: random.Random, unseen: _core.TileSet, sizes: list[int]) -> list[_core.TileSet]:
    """``rng.sample(unseen.codes(), k)`` for each ``k`` of ``sizes`` in turn, as multisets: for a
    ``random.Random`` the core runs sample's loop over the same words of the generator (``_core.sample_tiles``),
    so the racks and the generator's state after them are those of the Python calls.

    >>> a, b = random.Random(5), random.Random(5)
    >>> pool = TileSet.parse("R1 R1 K2 B3 O4 O5 J")
    >>> got = _sample_racks(a, core_of(pool), [3, 3])
    >>> got == [_core.TileSet(b.sample(core_of(pool).codes(), 3)) for _ in range(2)], a.random() == b.random()
    (True, True)
    """
    if type(rng) is random.Random:
        return _core.sample_tiles(unseen, sizes, rng.getrandbits)
    codes = unseen.codes()  # (a subclass of Random may draw otherwise: its own sample)
    return [_core.TileSet(rng.sample(codes, k)) for k in sizes]


def _without_jokers(rack: TileSet) -> TileSet:
    """The rack without its jokers."""
    return rack - TileSet([Tile.joker()] * rack.jokers)


def _sub_multisets(rack: TileSet) -> int:
    """How many non-empty sub-multisets the rack has: an upper bound on its number of legal plays.

    >>> _sub_multisets(TileSet.parse("R1 R1 K2 J"))
    11
    """
    total = 1
    run = 0  # copies of the current code so far (the codes come sorted)
    previous = -1
    for code in core_of(rack).codes():
        if code != previous:
            total *= run + 1
            previous, run = code, 0
        run += 1
    return total * (run + 1) - 1


@functools.lru_cache(maxsize=None)
def _flexibility(numbers: int) -> _core.NeighbourSums:
    """The core's sums of :meth:`HardBot._partners` under ``numbers`` numbers (made once)."""
    return _core.NeighbourSums([list(n) for n in _neighbours(numbers)], _NEAR_ON, _NEAR_OFF, 3.0, 1.0)


@functools.lru_cache(maxsize=None)
def _neighbours(numbers: int) -> list[tuple[tuple[int, float], ...]]:
    """For each tile code (``colour * 16 + number - 1``) under ``numbers`` numbers: its neighbours with their
    weights, as :meth:`HardBot._partners` reads them: the run neighbours (two and one below, one and two above:
    0.5, 1, 1, 0.5, those that exist, in that order), then the group neighbours (the same number in the other
    three colours, weight 1).

    >>> _neighbours(13)[0]
    ((1, 1.0), (2, 0.5), (16, 1.0), (32, 1.0), (48, 1.0))
    """
    out: list[tuple[tuple[int, float], ...]] = []
    for code in range(_JOKER):
        c, n = divmod(code, _STRIDE)  # n: the number minus 1
        runs = tuple((c * _STRIDE + m, w) for m, w in ((n - 2, 0.5), (n - 1, 1.0), (n + 1, 1.0), (n + 2, 0.5))
                     if 0 <= m < numbers)
        out.append(runs + tuple((oc * _STRIDE + n, 1.0) for oc in range(4) if oc != c))
    return out
