"""An independent, slow, exact oracle for ``solve``/``plays`` (docs/search-semantics.md).

It shares no reasoning with the package: ``rummikub`` objects are only read at the boundary (tile lists,
meld kinds, rule fields); every set is enumerated and every decision is made here, by an integer program
(scipy.optimize.milp) over concrete sets (each joker slot standing for one tile), and by a brute-force
re-checker of a given play.

Tiles are ``(colour, number)`` pairs; ``JK`` is the joker. Modelling notes (the contract, item by item):

* A concrete set is a run (colour, start, length, joker slots) or a group (number, colours, which of
  those colours are jokers); it holds at least one numbered tile. Groups hold ``max(3, min_len)``..
  ``colours`` tiles (as the core reads them); runs hold ``min_len``..``numbers``.
* Runs longer than ``2*min_len - 1`` are split into shorter ones when that keeps a numbered tile in both
  parts (this changes no tile, slot or value), except where the joker rule applies (table jokers, a policy
  other than ``free``): there every length is enumerated, since splitting could separate a joker or its
  replacing tile from its home, or a freed joker from the tiles of P beside it.
* Joker rule (``replace``/``replace_from_rack``; docs/rules.md §8): for some reading of the table's jokers
  (a group's jokers stand for distinct missing colours), every table joker ``j`` (tile ``t``, old set ``m``)
  either **stays** (a joker of A standing for ``t`` in a set that is ``j``'s *home*: it holds ``t`` and a
  former set-mate's place, see :func:`is_home`) or, only when the player had opened (or the opening rule is
  off), is **retrieved**: a distinct real copy of ``t`` lies in a home of ``j`` (under ``replace_from_rack``
  a copy from P), and the freed joker fills a joker slot of a set holding ``>= r`` tiles of P (``r`` = 1, 2;
  P's jokers count, freed jokers do not). Which copy of a tile is P's is free (existential). On an opening
  turn with extension every table joker stays. The MILP solves one program per reading of the table's
  jokers; the re-checker :func:`check_play` tries every reading, every stay/retrieve choice and every
  placement of P's copies by brute force.
* value(P): numbered tiles of P plus, for P's jokers, the highest numbers among A's joker slots that no
  staying table joker occupies (all slots under ``free``; in an opening without extension, the new sets'
  slots).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

JK = (9, 0)  # the joker: colour 9 exists in no rule set, and it sorts after every numbered tile
Tile = tuple[int, int]  # (colour, number); JK for the joker


@dataclass(frozen=True)
class Rules:
    numbers: int = 13
    colours: int = 4
    copies: int = 2
    jokers: int = 2
    min_len: int = 3
    threshold: int = 30
    joker_in_opening: bool = True
    extend: bool = False
    policy: str = "replace"
    joker_penalty: int = 30

    @property
    def group_min(self) -> int:
        # groups hold max(3, min_len)..colours tiles, as the core's Meld reads them (the contract's text says
        # 3..colours; the two differ only when min_len > 3)
        return max(3, self.min_len)


@dataclass(frozen=True)
class CMeld:
    """A concrete set: ``real`` numbered tiles and ``slots`` the tiles its jokers stand for."""

    kind: str
    real: tuple[Tile, ...]
    slots: tuple[Tile, ...]

    @property
    def value(self) -> int:
        return sum(n for _, n in self.real) + sum(n for _, n in self.slots)

    def __len__(self) -> int:
        return len(self.real) + len(self.slots)


# ---------------------------------------------------------------------------------------------------------
# boundary: read package objects


def rules_of(rules: Any) -> Rules:
    return Rules(rules.numbers, rules.colours, rules.copies, rules.jokers, rules.min_len, rules.opening_threshold,
                 rules.joker_in_opening, rules.extend_after_opening, rules.joker_retrieval, rules.joker_penalty)


def tile_of(t: Any) -> Tile:
    s = str(t)
    return JK if s == "J" else ("KBOR".index(s[0]), int(s[1:]))


def counts_of(tiles: Iterable[Any]) -> Counter[Tile]:
    return Counter(tile_of(t) for t in tiles)


def melds_of(table: Any) -> list[tuple[str, tuple[Tile, ...]]]:
    """Each meld as (kind, tiles in slot order) - the slot order is the reading of a run."""
    return [(str(m.kind.value), tuple(tile_of(t) for t in m.tiles)) for m in table]


def fmt(t: Tile) -> str:
    return "J" if t == JK else f"{'KBOR'[t[0]]}{t[1]}"


# ---------------------------------------------------------------------------------------------------------
# reading a given meld


def readings(kind: str, tiles: Sequence[Tile], R: Rules) -> list[CMeld]:
    """Every concrete reading of a meld given as (kind, tiles in slot order); [] when it is not valid."""
    real = [t for t in tiles if t != JK]
    j = len(tiles) - len(real)
    if not real:
        return []
    if any(not (0 <= c < R.colours and 1 <= n <= R.numbers) for c, n in real):
        return []
    if kind == "run":
        L = len(tiles)
        if not R.min_len <= L <= R.numbers:
            return []
        colour = real[0][0]
        i0 = next(i for i, t in enumerate(tiles) if t != JK)
        start = tiles[i0][1] - i0
        if start < 1 or start + L - 1 > R.numbers:
            return []
        for i, t in enumerate(tiles):
            if t != JK and t != (colour, start + i):
                return []
        return [CMeld("run", tuple(t for t in tiles if t != JK),
                      tuple((colour, start + i) for i, t in enumerate(tiles) if t == JK))]
    number = real[0][1]
    cols = [c for c, _ in real]
    if any(n != number for _, n in real) or len(set(cols)) != len(cols):
        return []
    if not R.group_min <= len(tiles) <= R.colours:
        return []
    missing = [c for c in range(R.colours) if c not in cols]
    out = []
    for combo in itertools.combinations(missing, j):
        out.append(CMeld("group", tuple(sorted(real)), tuple((c, number) for c in combo)))
    return out


def best_reading_value(tiles: Sequence[Tile], R: Rules) -> int | None:
    """The highest value of any valid set made of exactly these tiles (None: no set)."""
    real = sorted(t for t in tiles if t != JK)
    if not real:
        return None
    best = None
    L = len(tiles)
    if len({c for c, _ in real}) == 1 and len({n for _, n in real}) == len(real) and R.min_len <= L <= R.numbers:
        lo, hi = real[0][1], real[-1][1]
        start = min(lo, R.numbers - L + 1)
        if start >= 1 and start + L - 1 >= hi:
            best = sum(range(start, start + L))
    if (len({n for _, n in real}) == 1 and len({c for c, _ in real}) == len(real)
            and R.group_min <= L <= R.colours):
        v = real[0][1] * L
        best = v if best is None else max(best, v)
    return best


# ---------------------------------------------------------------------------------------------------------
# enumerating concrete sets


def _run_splittable(mask: Sequence[bool], m: int) -> bool:
    L = len(mask)
    for p in range(m, L - m + 1):
        if not all(mask[:p]) and not all(mask[p:]):
            return True
    return False


def enumerate_melds(R: Rules, avail: Counter[Tile], max_jokers: int, *, all_lengths: bool = False,
                    need_joker: bool = False, colour_matters: set[int] | None = None) -> list[CMeld]:
    """Concrete sets whose numbered tiles are in ``avail`` with at most ``max_jokers`` jokers. A group's
    jokers get every choice of missing colours only at the numbers in ``colour_matters`` (None: all);
    elsewhere the colour a group joker stands for changes nothing, and one choice is kept."""
    out: list[CMeld] = []
    N, m = R.numbers, R.min_len
    for c in range(R.colours):
        for start in range(1, N + 1):
            for L in range(m, N - start + 2):
                tiles = [(c, start + i) for i in range(L)]
                missing = [i for i, t in enumerate(tiles) if avail[t] == 0]
                if len(missing) > max_jokers:
                    break  # longer runs from this start only miss more
                free = [i for i in range(L) if i not in missing]
                for extra in range(0, max_jokers - len(missing) + 1):
                    for more in itertools.combinations(free, extra):
                        jset = set(missing) | set(more)
                        if len(jset) == L or (need_joker and not jset):
                            continue
                        mask = [i in jset for i in range(L)]
                        if not all_lengths and L >= 2 * m and _run_splittable(mask, m):
                            continue
                        out.append(CMeld("run", tuple(t for i, t in enumerate(tiles) if i not in jset),
                                         tuple(t for i, t in enumerate(tiles) if i in jset)))
    seen_groups: set[tuple[int, tuple[int, ...], int]] = set()
    for n in range(1, N + 1):
        for size in range(R.group_min, R.colours + 1):
            for cols in itertools.combinations(range(R.colours), size):
                missing = [k for k in cols if avail[(k, n)] == 0]
                if len(missing) > max_jokers:
                    continue
                free = [k for k in cols if k not in missing]
                for extra in range(0, max_jokers - len(missing) + 1):
                    for more in itertools.combinations(free, extra):
                        jset = set(missing) | set(more)
                        if len(jset) == size or (need_joker and not jset):
                            continue
                        if colour_matters is not None and n not in colour_matters:
                            # keep one group per (numbered tiles, joker count): jokers on the last colours
                            key = (n, tuple(k for k in cols if k not in jset), len(jset))
                            if key in seen_groups:
                                continue
                            seen_groups.add(key)
                        out.append(CMeld("group", tuple((k, n) for k in cols if k not in jset),
                                         tuple((k, n) for k in cols if k in jset)))
    return out


# ---------------------------------------------------------------------------------------------------------
# a tiny MILP builder


# Wall-clock seconds per integer program (HiGHS): generous, so that a loaded machine does not turn slow programs
# into timeouts (a timeout is raised, never passed over silently).
TIME_LIMIT = 30.0


class OracleTimeout(RuntimeError):
    """The integer program did not finish in time (the position is reported, never silently passed)."""


class _Model:
    def __init__(self) -> None:
        self.lb: list[float] = []
        self.ub: list[float] = []
        self.obj: list[float] = []
        self.rows: list[tuple[dict[int, float], float, float]] = []

    def var(self, lb: float = 0, ub: float = np.inf, obj: float = 0) -> int:
        self.lb.append(lb)
        self.ub.append(ub)
        self.obj.append(obj)
        return len(self.lb) - 1

    def row(self, coefs: dict[int, float], lo: float, hi: float) -> None:
        self.rows.append((coefs, lo, hi))

    def solve(self) -> tuple[float, np.ndarray] | None:
        n = len(self.lb)
        r, c, v = [], [], []
        lo, hi = [], []
        for i, (coefs, a, b) in enumerate(self.rows):
            for k, x in coefs.items():
                if x:
                    r.append(i)
                    c.append(k)
                    v.append(x)
            lo.append(a)
            hi.append(b)
        cons = []
        if self.rows:
            A = coo_matrix((v, (r, c)), shape=(len(self.rows), n)).tocsr()
            cons = [LinearConstraint(A, lo, hi)]
        for presolve in (True, False):
            res = milp(-np.array(self.obj, dtype=float), constraints=cons, integrality=np.ones(n),
                       bounds=Bounds(self.lb, self.ub),
                       options={"mip_rel_gap": 0, "presolve": presolve, "time_limit": TIME_LIMIT})
            # "Infeasible" is confirmed without presolve: HiGHS's presolve can lose the feasible solution it found
            # ("transformNewIntegerFeasibleSolution"), as on K2 K2 K3 K3 K4 K4 K5 K5 K6 K6 K10 K11 K11 K12 B7 B10
            # B11 B12 O10 O11 O12 R1 R2 R2 R3 R3 R4 R4 R5 R10 R11 R11 R12 J J, which splits into sets.
            if res.status != 2:
                break
        if res.status == 2:  # infeasible
            return None
        if res.status == 1:
            raise OracleTimeout(f"milp hit the {TIME_LIMIT} s limit")
        if res.status != 0:
            raise RuntimeError(f"milp failed: {res.message}")
        return -res.fun, np.rint(res.x)


def _add(d: dict[int, float], k: int, x: float) -> None:
    d[k] = d.get(k, 0) + x


# ---------------------------------------------------------------------------------------------------------
# the optimum


@dataclass
class Instance:
    R: Rules
    table: list[tuple[str, tuple[Tile, ...]]]
    rack: Counter[Tile]
    opened: bool

    @property
    def T(self) -> Counter[Tile]:
        return Counter(t for _, tiles in self.table for t in tiles)

    def old_readings(self) -> list[tuple[OldJoker, ...]]:
        """Every reading of the table's jokers: one :class:`OldJoker` per table joker. A run's joker stands for
        its slot; the jokers of one group stand for distinct missing colours (every choice is a reading)."""
        per_meld: list[list[tuple[OldJoker, ...]]] = []
        for index, (kind, tiles) in enumerate(self.table):
            rd = readings(kind, tiles, self.R)
            if not rd:
                raise ValueError(f"table meld {' '.join(map(fmt, tiles))} is not valid")
            if not rd[0].slots:
                continue
            options = []
            for cm in rd:
                held = cm.real + cm.slots
                if kind == "run":
                    span = (min(n for _, n in held), max(n for _, n in held))
                    options.append(tuple(OldJoker(index, t, "run", span=span) for t in cm.slots))
                else:
                    options.append(tuple(OldJoker(index, t, "group", mates=frozenset(c for c, _ in held if c != t[0]))
                                         for t in cm.slots))
            per_meld.append(options)
        return [tuple(j for part in combo for j in part) for combo in itertools.product(*per_meld)]


@dataclass(frozen=True)
class OldJoker:
    """A table joker under one reading of the old table: the tile it stands for, its old set (index, kind),
    and that set's other places: the old run's numbers ``span`` (runs), or the colours the old group held
    besides the joker's own (groups; places held by other jokers count)."""

    meld: int
    tile: Tile
    kind: str
    span: tuple[int, int] = (0, 0)
    mates: frozenset[int] = frozenset()


def is_home(j: OldJoker, cm: CMeld) -> bool:
    """Is the concrete set ``cm`` of the new table a *home* of the old joker ``j`` (JOKERS rule, rules.md §8)?

    It must hold ``j``'s tile (as a joker or a real tile) and a former set-mate's place: a run of the same
    colour holding ``n-1`` where the old run went below ``n``, or ``n+1`` where it went above; a group of the
    same number holding a colour the old group held besides the joker's. Places held by jokers count.
    """
    c, n = j.tile
    held = set(cm.real) | set(cm.slots)
    if cm.kind != j.kind or j.tile not in held:
        return False
    if j.kind == "run":
        a, b = j.span
        return (a < n and (c, n - 1) in held) or (n < b and (c, n + 1) in held)
    return any((k, n) in held for k in j.mates)


def instance(table: Any, rack: Any, rules: Any, opened: bool) -> Instance:
    return Instance(rules_of(rules), melds_of(table), counts_of(rack), opened)


TWO_STAGE = False


def _key_parts(objective: str, count: dict[int, float], value: dict[int, float], penalty: dict[int, float]
               ) -> tuple[dict[int, float], dict[int, float]]:
    if objective == "tiles":
        return count, value
    if objective == "value":
        return value, count
    if objective == "penalty":
        return penalty, count
    raise ValueError(f"unknown objective {objective!r}")


def _key_expr(objective: str, R: Rules, count: dict[int, float], value: dict[int, float],
              penalty: dict[int, float], big: float) -> dict[int, float]:
    out: dict[int, float] = {}
    if objective == "tiles":
        prim, sec = count, value
    elif objective == "value":
        prim, sec = value, count
    elif objective == "penalty":
        prim, sec = penalty, count
    else:
        raise ValueError(objective)
    for k, x in prim.items():
        _add(out, k, x * big)
    for k, x in sec.items():
        _add(out, k, x)
    return out


def optimum(inst: Instance, objective: str = "tiles", fixed: Counter[Tile] | None = None) -> tuple[int, int] | None:
    """The best key (primary, secondary) of a legal play, or None when there is none. With ``fixed``,
    only plays of exactly that multiset P count (a feasibility check)."""
    out = solve_play(inst, objective, fixed)
    return None if out is None else out[0]


def solve_play(inst: Instance, objective: str = "tiles", fixed: Counter[Tile] | None = None
               ) -> tuple[tuple[int, int], Counter[Tile], list[tuple[str, tuple[Tile, ...]]]] | None:
    """As :func:`optimum`, with one optimal play: (key, P, A as (kind, tiles in slot order) melds).
    In an opening without extension, A is the table's melds plus the new ones.

    Under ``replace``/``replace_from_rack`` one integer program is solved per reading of the table's jokers
    (the tile each stands for) and the best answer is kept."""
    opening = (not inst.opened) and inst.R.threshold > 0
    rule = inst.R.policy != "free" and inst.T[JK] > 0 and not (opening and not inst.R.extend)
    best = None
    for reading in (inst.old_readings() if rule else [()]):
        out = _solve_reading(inst, objective, fixed, reading, rule)
        if out is not None and (best is None or out[0] > best[0]):
            best = out
    return best


def _solve_reading(inst: Instance, objective: str, fixed: Counter[Tile] | None, reading: tuple[OldJoker, ...],
                   rule: bool) -> tuple[tuple[int, int], Counter[Tile], list[tuple[str, tuple[Tile, ...]]]] | None:
    R, rack, T = inst.R, inst.rack, inst.T
    Tj, Rj = T[JK], rack[JK]
    opening = (not inst.opened) and R.threshold > 0
    big = float(1 + sum(n * k for (c, n), k in rack.items() if (c, n) != JK) + Rj * max(R.numbers, 1)
                + sum(rack.values()))
    M = _Model()
    placed: list[tuple[int, CMeld]] = []
    numbered = sorted(t for t in set(rack) | set(T) if t != JK)
    rack_numbered = [t for t in numbered if rack[t] > 0]

    # P
    p: dict[Tile, int] = {}
    for t in rack_numbered:
        lo = hi = fixed[t] if fixed is not None else None
        p[t] = M.var(lo if lo is not None else 0, hi if hi is not None else rack[t])
    pj_max = Rj if (not opening or R.extend or R.joker_in_opening) else 0
    if fixed is not None:
        if fixed[JK] > pj_max or any(fixed[t] > rack[t] for t in fixed):
            return None
        pj = M.var(fixed[JK], fixed[JK])
    else:
        pj = M.var(0, pj_max)
    count = {p[t]: 1.0 for t in rack_numbered}
    count[pj] = 1.0
    M.row(dict(count), 1, np.inf)  # a play places at least one rack tile
    value: dict[int, float] = {p[t]: float(t[1]) for t in rack_numbered}
    penalty: dict[int, float] = {p[t]: float(t[1]) for t in rack_numbered}
    penalty[pj] = float(R.joker_penalty)

    if opening and not R.extend:
        # new sets from P alone; the table is untouched
        melds = enumerate_melds(R, rack, pj_max, colour_matters=set())
        cover: dict[Tile, dict[int, float]] = {t: {p[t]: -1.0} for t in rack_numbered}
        jrow: dict[int, float] = {pj: -1.0}
        thr: dict[int, float] = {}
        for cm in melds:
            x = M.var(0, R.copies + R.jokers)
            placed.append((x, cm))
            for t in cm.real:
                _add(cover[t], x, 1)
            if cm.slots:
                jrow[x] = len(cm.slots)
                _add(value, x, sum(n for _, n in cm.slots))
            thr[x] = cm.value
        for t in rack_numbered:
            M.row(cover[t], 0, 0)
        M.row(jrow, 0, 0)
        M.row(thr, R.threshold, np.inf)
    else:
        # The joker rule (``rule``: a policy other than free, and jokers on the table), for this reading:
        # every table joker j either stays (a joker slot of A standing for j's tile, in a set that is j's
        # home) or, when the player had opened, is retrieved (a real copy of j's tile in a home set; under
        # replace_from_rack a copy from P); a retrieved joker then fills a joker slot of a "rich" set, whose
        # every copy holds >= r tiles of P (rack jokers counting). Sets are enumerated at every length when
        # the rule applies, since splitting a long run could separate a joker from its home.
        retrieval = rule and not opening
        sabra = R.policy == "replace_from_rack"
        r = 1 if R.policy == "replace" else 2
        avail = Counter({t: T[t] + rack[t] for t in numbered})
        matters = {j.tile[1] for j in reading}
        melds = enumerate_melds(R, avail, Tj + Rj, all_lengths=rule, colour_matters=matters)
        rich = (enumerate_melds(R, avail, Tj + Rj, all_lengths=True, need_joker=True, colour_matters=matters)
                if retrieval else [])
        sets: list[tuple[int, CMeld, bool]] = []  # (count variable, set, rich)
        cover = {t: {} for t in numbered}
        for t in rack_numbered:
            cover[t][p[t]] = -1.0
        total_slots: dict[int, float] = {pj: -1.0}
        for cm, is_rich in [(cm, False) for cm in melds] + [(cm, True) for cm in rich]:
            x = M.var(0, R.copies + R.jokers)
            placed.append((x, cm))
            sets.append((x, cm, is_rich))
            for t in cm.real:
                _add(cover[t], x, 1)
            for t in cm.slots:
                _add(total_slots, x, 1)
        for t in numbered:
            M.row(cover[t], T[t], T[t])
        M.row(total_slots, Tj, Tj)  # slots == Tj + pj

        staying: dict[Tile, dict[int, float]] = {}  # tile -> the staying variables standing for it
        if rule:
            # z[t, x]: copies of set x whose t is a tile of P (which copy is the rack's is free)
            z: dict[tuple[Tile, int], int] = {}
            zsum = {t: {p[t]: -1.0} for t in rack_numbered}
            for x, cm, is_rich in sets:
                if is_rich or sabra:
                    for t in cm.real:
                        if rack[t]:
                            v = M.var(0, np.inf)
                            M.row({v: 1, x: -1}, -np.inf, 0)
                            z[(t, x)] = v
                            zsum[t][v] = 1
            for row in zsum.values():
                M.row(row, -np.inf, 0)
            stay_at: dict[tuple[int, Tile], dict[int, float]] = {}
            replace_at: dict[tuple[int, Tile], dict[int, float]] = {}
            freed: dict[int, float] = {}
            for j in reading:
                one: dict[int, float] = {}
                for x, cm, _ in sets:
                    if not is_home(j, cm):
                        continue
                    if j.tile in cm.slots:
                        s = M.var(0, np.inf)
                        one[s] = 1
                        _add(stay_at.setdefault((x, j.tile), {}), s, 1)
                        _add(staying.setdefault(j.tile, {}), s, 1)
                    if retrieval and j.tile in cm.real and (not sabra or (j.tile, x) in z):
                        q = M.var(0, np.inf)
                        one[q] = 1
                        _add(replace_at.setdefault((x, j.tile), {}), q, 1)
                        freed[q] = 1
                if not one:
                    return None  # this joker can neither stay nor be retrieved in any set
                M.row(one, 1, 1)
            for (x, t), row in replace_at.items():  # distinct replacing copies (a set holds one copy of t)
                row = dict(row)
                _add(row, z[(t, x)] if sabra else x, -1)
                M.row(row, -np.inf, 0)
            # every joker slot of every copy holds one joker: a staying table joker, a freed one (rich sets
            # only) or one of P's jokers; a rich set's copies each hold >= r tiles of P, P's jokers counting
            ftot: dict[int, float] = {}
            zj_all: dict[int, float] = {pj: -1.0}
            for x, cm, is_rich in sets:
                richness: dict[int, float] = {x: -float(r)}
                for t in cm.slots:
                    row: dict[int, float] = {x: -1.0}
                    for k, c in stay_at.get((x, t), {}).items():
                        _add(row, k, c)
                    if is_rich:
                        f = M.var(0, np.inf)
                        row[f] = 1
                        ftot[f] = 1
                    if Rj:
                        zj = M.var(0, np.inf)
                        row[zj] = 1
                        zj_all[zj] = 1
                        richness[zj] = 1
                    M.row(row, 0, 0)
                if is_rich:
                    for t in cm.real:
                        if (t, x) in z:
                            richness[z[(t, x)]] = 1
                    M.row(richness, 0, np.inf)
            M.row(zj_all, 0, 0)
            if retrieval:
                row = dict(ftot)
                for k in freed:
                    _add(row, k, -1)
                M.row(row, 0, 0)
        # value designation: P's jokers take the highest joker slots no staying table joker occupies
        if Rj:
            vall: dict[int, float] = {pj: -1.0}
            for t in sorted({t for _, cm, _ in sets for t in cm.slots}):
                v = M.var(0, np.inf)
                row = {v: 1.0}
                for x, cm, _ in sets:
                    if t in cm.slots:
                        _add(row, x, -1)
                for k, c in staying.get(t, {}).items():
                    _add(row, k, c)
                M.row(row, -np.inf, 0)
                _add(value, v, t[1])
                vall[v] = 1
            M.row(vall, 0, 0)
        if opening:  # extend_after_opening: P1 of P opens on its own
            melds1 = enumerate_melds(R, rack, Rj if R.joker_in_opening else 0, colour_matters=set())
            use = {t: {p[t]: -1.0} for t in rack_numbered}
            juse: dict[int, float] = {pj: -1.0}
            thr = {}
            for cm in melds1:
                w = M.var(0, R.copies + R.jokers)
                for t in cm.real:
                    _add(use[t], w, 1)
                if cm.slots:
                    juse[w] = len(cm.slots)
                thr[w] = cm.value
            for t in rack_numbered:
                M.row(use[t], -np.inf, 0)
            M.row(juse, -np.inf, 0)
            M.row(thr, R.threshold, np.inf)
    M.obj = [0.0] * len(M.lb)
    key = (0, 0)
    if fixed is None and TWO_STAGE:
        prim, sec = _key_parts(objective, count, value, penalty)
        for k, x in prim.items():
            M.obj[k] += x
        res = M.solve()
        if res is None:
            return None
        first = int(round(res[0]))
        M.row(prim, first, np.inf)
        M.obj = [0.0] * len(M.lb)
        for k, x in sec.items():
            M.obj[k] += x
        res = M.solve()
        assert res is not None
        key = (first, int(round(res[0])))
    else:
        if fixed is None:
            for k, x in _key_expr(objective, R, count, value, penalty, big).items():
                M.obj[k] += x
        res = M.solve()
        if res is None:
            return None
        if fixed is None:
            key = divmod(int(round(res[0])), int(big))
    sol = res[1]
    P = Counter({t: int(sol[v]) for t, v in p.items() if sol[v]})
    if sol[pj]:
        P[JK] = int(sol[pj])
    A = list(inst.table) if opening and not R.extend else []
    for var, cm in placed:
        for _ in range(int(sol[var])):
            A.append((cm.kind, slot_order(cm)))
    return key, P, A


def slot_order(cm: CMeld) -> tuple[Tile, ...]:
    if cm.kind == "run":
        return tuple(JK if t in cm.slots else t for t in sorted(cm.real + cm.slots))
    return tuple(sorted(cm.real)) + (JK,) * len(cm.slots)


def feasible(inst: Instance, P: Counter[Tile]) -> bool:
    """Is there a legal play placing exactly the rack multiset P?"""
    if sum(P.values()) == 0:
        return False
    return optimum(inst, fixed=P) is not None


def sub_multisets(c: Counter[Tile]) -> list[Counter[Tile]]:
    items = sorted(c.items())
    out = []
    for ks in itertools.product(*[range(k + 1) for _, k in items]):
        sub = Counter({t: k for (t, _), k in zip(items, ks) if k})
        if sub:
            out.append(sub)
    return out


# ---------------------------------------------------------------------------------------------------------
# re-checking a given play (P, A) and computing its key


class Illegal(AssertionError):
    pass


def _norm(kind: str, tiles: Sequence[Tile]) -> tuple[Any, ...]:
    if kind == "run":
        return ("run",) + tuple(tiles)
    return ("group", tuple(sorted(t for t in tiles if t != JK)), sum(t == JK for t in tiles))


def check_play(inst: Instance, P: Counter[Tile], after: list[tuple[str, tuple[Tile, ...]]],
               objective: str = "tiles") -> tuple[int, int]:
    """Re-checks a play (P, A) against the contract and returns its key; raises Illegal with the reason."""
    R, rack, T = inst.R, inst.rack, inst.T
    P = +P
    if not P:
        raise Illegal("no rack tile placed")
    if any(P[t] > rack[t] for t in P):
        raise Illegal(f"P {P} is not part of the rack")
    A_tiles = Counter(t for _, tiles in after for t in tiles)
    if A_tiles != T + P:
        raise Illegal(f"tiles(A) != tiles(table) + P: extra {A_tiles - (T + P)}, missing {(T + P) - A_tiles}")
    read = []
    for kind, tiles in after:
        rd = readings(kind, tiles, R)
        if not rd:
            raise Illegal(f"{kind} {' '.join(map(fmt, tiles))} is not a valid set")
        read.append(rd)
    opening = (not inst.opened) and R.threshold > 0
    numbered_value = sum(t[1] * k for t, k in P.items() if t != JK)
    k_jokers = P[JK]

    if opening and not R.extend:
        old = Counter(_norm(k, ts) for k, ts in inst.table)
        new_idx = []
        left = Counter(old)
        for i, (kind, tiles) in enumerate(after):
            key = _norm(kind, tiles)
            if left[key] > 0:
                left[key] -= 1
            else:
                new_idx.append(i)
        if +left:
            raise Illegal("opening without extension changed the table")
        if Counter(t for i in new_idx for t in after[i][1]) != P:
            raise Illegal("opening sets are not made of P alone")
        if not R.joker_in_opening and P[JK]:
            raise Illegal("joker in an opening under joker_in_opening=False")
        total = 0
        for i in new_idx:  # as the table shows it: a run's joker is its slot's tile
            total += read[i][0].value
        if total < R.threshold:
            raise Illegal(f"opening worth {total} < {R.threshold}")
        # P's jokers are the new sets' jokers; a group's jokers all stand for its number
        jv = sum(sum(n for _, n in read[i][0].slots) for i in new_idx)
        return _key(objective, R, P, numbered_value + jv)

    if opening:  # with extension: some P1 of P opens alone
        P1 = Counter({t: k for t, k in P.items() if t != JK or R.joker_in_opening})
        if best_opening(R, P1) < R.threshold:
            raise Illegal("no part of P opens")

    free = R.policy == "free"
    best_jv = None
    # every concrete reading of A (a group's jokers take distinct missing colours) and, under the joker rule,
    # of the old table's jokers; each old joker stays (a slot of A standing for its tile, in a home) or is
    # retrieved (a real copy of its tile in a home), tried in every combination
    old = inst.old_readings() if not free and T[JK] else [()]
    for combo in itertools.product(*read):
        A = list(combo)
        slots = [(i, t) for i, cm in enumerate(A) for t in cm.slots]
        for reading in old:
            options: list[list[tuple[str, int]]] = []
            for j in reading:
                opts = [("stay", s) for s, (i, t) in enumerate(slots) if t == j.tile and is_home(j, A[i])]
                if not opening:
                    opts += [("ret", i) for i, cm in enumerate(A) if j.tile in cm.real and is_home(j, cm)]
                options.append(opts)
            for choice in itertools.product(*options):
                stay_slots = [x for kind, x in choice if kind == "stay"]
                if len(set(stay_slots)) != len(stay_slots):
                    continue  # two jokers on one slot
                rets = [(x, j.tile) for (kind, x), j in zip(choice, reading) if kind == "ret"]
                if len(set(rets)) != len(rets):
                    continue  # two jokers replaced by one copy (a set holds one copy of a tile)
                open_slots = [s for s in range(len(slots)) if s not in stay_slots]
                if rets and not _freed_ok(A, slots, open_slots, rets, P, R):
                    continue
                nums = sorted((slots[s][1][1] for s in open_slots), reverse=True)
                jv = sum(nums[:k_jokers])
                best_jv = jv if best_jv is None else max(best_jv, jv)
    if best_jv is None:
        raise Illegal("joker policy violated (no staying/retrieval reading works)")
    return _key(objective, R, P, numbered_value + best_jv)


def _freed_ok(A: list[CMeld], slots: list[tuple[int, Tile]], open_slots: list[int], rets: list[tuple[int, Tile]],
              P: Counter[Tile], R: Rules) -> bool:
    """Can the retrieved jokers (``rets``: the set holding each one's replacing copy, and its tile) take
    ``len(rets)`` of the open joker slots (the other open slots hold P's jokers), with some choice of which
    copies of each tile are P's, so that each set holding a freed joker holds >= r tiles of P (P's jokers
    counting) and, under replace_from_rack, every replacing copy is one of P's? Brute force over both."""
    r = 1 if R.policy == "replace" else 2
    sabra = R.policy == "replace_from_rack"
    for fs in itertools.combinations(open_slots, len(rets)):
        freed_sets = {slots[s][0] for s in fs}
        rack_jokers = Counter(slots[s][0] for s in open_slots if s not in fs)
        # which sets hold P's copy of t: only tiles that can matter are tried (others change nothing)
        tiles = sorted(t for t in P if t != JK and (any(t in A[i].real for i in freed_sets)
                                                     or (sabra and any(t == u for _, u in rets))))
        choices = []
        for t in tiles:
            holders = [i for i, cm in enumerate(A) if t in cm.real]
            choices.append(list(itertools.combinations(holders, P[t])))
        for combo in itertools.product(*choices):
            rack_copy = {(i, t) for t, chosen in zip(tiles, combo) for i in chosen}
            if sabra and any((i, t) not in rack_copy for i, t in rets):
                continue
            if all(sum((i, t) in rack_copy for t in A[i].real) + rack_jokers[i] >= r for i in freed_sets):
                return True
    return False


def _key(objective: str, R: Rules, P: Counter[Tile], value: int) -> tuple[int, int]:
    n = sum(P.values())
    if objective == "tiles":
        return (n, value)
    if objective == "value":
        return (value, n)
    pen = sum(t[1] * k for t, k in P.items() if t != JK) + P[JK] * R.joker_penalty
    return (pen, n)


def best_opening(R: Rules, tiles: Counter[Tile]) -> int:
    """The highest total best-reading value of sets made from part of ``tiles`` (0 if none)."""
    M = _Model()
    numbered = [t for t in tiles if t != JK]
    melds = enumerate_melds(R, tiles, tiles[JK], colour_matters=set())
    use: dict[Tile, dict[int, float]] = {t: {} for t in numbered}
    juse: dict[int, float] = {}
    for cm in melds:
        w = M.var(0, R.copies + R.jokers, cm.value)
        for t in cm.real:
            use[t][w] = 1
        if cm.slots:
            juse[w] = len(cm.slots)
    for t in numbered:
        M.row(use[t], 0, tiles[t])
    if juse:
        M.row(juse, 0, tiles[JK])
    if not melds:
        return 0
    res = M.solve()
    return 0 if res is None else int(round(res[0]))
