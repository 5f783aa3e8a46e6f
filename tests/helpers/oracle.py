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
  parts (this changes no tile, slot or value). Only the "rich" sets that host a retrieved joker (they must
  hold ``r`` tiles of P) are enumerated at every length, since splitting could separate them from P.
* Joker policy (``replace``/``replace_from_rack``, opening rule off): each table joker either stays
  (matched to a joker slot of A standing for its tile, or one of its candidates) or is retrieved with a
  chosen candidate ``t``: A holds ``>=`` that many real ``t`` (``replace``) / P holds them
  (``replace_from_rack``), and the retrieved joker sits in a rich set (``>= r`` tiles of P, rack jokers
  counting). Which P copy sits where is free: per rich set and tile, at most one P copy.
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
    j = len(tiles) - len(real)
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


TIME_LIMIT = 5.0


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
        res = milp(-np.array(self.obj, dtype=float), constraints=cons, integrality=np.ones(n),
                   bounds=Bounds(self.lb, self.ub), options={"mip_rel_gap": 0, "presolve": True, "time_limit": TIME_LIMIT})
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

    def table_jokers(self) -> list[list[Tile]]:
        """Candidates of each table joker (one tile for a run joker, the missing colours for a group's)."""
        return [cands for _, cands in self.table_jokers_by_meld()]

    def table_jokers_by_meld(self) -> list[tuple[int, list[Tile]]]:
        """Each table joker's meld index and candidates; the jokers of one group stand for distinct colours."""
        out: list[tuple[int, list[Tile]]] = []
        for index, (kind, tiles) in enumerate(self.table):
            rd = readings(kind, tiles, self.R)
            if not rd:
                raise ValueError(f"table meld {' '.join(map(fmt, tiles))} is not valid")
            if kind == "run":
                out.extend([(index, [s]) for s in rd[0].slots])
            else:
                real = rd[0].real
                n = real[0][1]
                cands = [(c, n) for c in range(self.R.colours) if (c, n) not in real]
                out.extend([(index, cands)] * len(rd[0].slots))
        return out


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
    In an opening without extension, A is the table's melds plus the new ones."""
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
        jokers = inst.table_jokers()
        retrieval = R.policy != "free" and not opening and Tj > 0
        avail = Counter({t: T[t] + rack[t] for t in numbered})
        matters = {t[1] for cands in jokers for t in cands} if R.policy != "free" else set()
        melds = enumerate_melds(R, avail, Tj + Rj, colour_matters=matters)
        rich = (enumerate_melds(R, avail, Tj + Rj, all_lengths=True, need_joker=True, colour_matters=matters)
                if retrieval else [])
        cover = {t: {} for t in numbered}
        for t in rack_numbered:
            cover[t][p[t]] = -1.0
        S: dict[Tile, dict[int, float]] = {}   # joker slots standing for t
        RS: dict[Tile, dict[int, float]] = {}  # ... in rich sets
        total_slots: dict[int, float] = {pj: -1.0}
        for cm in melds:
            x = M.var(0, R.copies + R.jokers)
            placed.append((x, cm))
            for t in cm.real:
                _add(cover[t], x, 1)
            for t in cm.slots:
                _add(S.setdefault(t, {}), x, 1)
                _add(total_slots, x, 1)
        zsum: dict[Tile, dict[int, float]] = {}
        zjsum: dict[Tile, dict[int, float]] = {}
        zj_all: dict[int, float] = {pj: -1.0}
        for cm in rich:
            y = M.var(0, R.copies + R.jokers)
            placed.append((y, cm))
            for t in cm.real:
                _add(cover[t], y, 1)
            for t in cm.slots:
                _add(S.setdefault(t, {}), y, 1)
                _add(RS.setdefault(t, {}), y, 1)
                _add(total_slots, y, 1)
            richness: dict[int, float] = {y: -float(1 if R.policy == "replace" else 2)}
            for t in cm.real:
                if rack[t] == 0:
                    continue
                z = M.var(0, np.inf)
                M.row({z: 1, y: -1}, -np.inf, 0)
                _add(zsum.setdefault(t, {p[t]: -1.0}), z, 1)
                richness[z] = 1
            if Rj:
                for t in cm.slots:
                    z = M.var(0, np.inf)
                    M.row({z: 1, y: -1}, -np.inf, 0)
                    _add(zjsum.setdefault(t, {}), z, 1)
                    zj_all[z] = 1
                    richness[z] = 1
            M.row(richness, 0, np.inf)
        for t in numbered:
            M.row(cover[t], T[t], T[t])
        M.row(total_slots, Tj, Tj)  # slots == Tj + pj
        for row in zsum.values():
            M.row(row, -np.inf, 0)
        if len(zj_all) > 1:
            M.row(zj_all, -np.inf, 0)

        slot_tiles = sorted(S)
        staying: dict[Tile, dict[int, float]] = {t: {} for t in slot_tiles}
        retrieved: dict[Tile, dict[int, float]] = {}
        freed_total: dict[int, float] = {}
        if R.policy != "free" and Tj > 0:
            distinct: dict[tuple[int, Tile], dict[int, float]] = {}  # a group's jokers read distinct colours
            for index, cands in inst.table_jokers_by_meld():
                one: dict[int, float] = {}
                for t in cands:
                    if t in S:
                        s = M.var(0, 1)
                        staying[t][s] = 1
                        one[s] = 1
                        distinct.setdefault((index, t), {})[s] = 1
                    if retrieval:
                        q = M.var(0, 1)
                        one[q] = 1
                        _add(retrieved.setdefault(t, {}), q, 1)
                        freed_total[q] = 1
                        distinct.setdefault((index, t), {})[q] = 1
                M.row(one, 1, 1)  # stays (somewhere) or is retrieved (as some candidate)
            for row in distinct.values():
                if len(row) > 1:
                    M.row(row, 0, 1)
        for t, qs in retrieved.items():
            row = dict(qs)
            if R.policy == "replace":
                if t in p:
                    row[p[t]] = -1
                M.row(row, -np.inf, T[t])
            else:
                if t in p:
                    row[p[t]] = -1
                M.row(row, -np.inf, 0)
        # slot assignment: staying jokers (a: in rich sets, b: elsewhere), freed jokers (f: rich sets only)
        ftot: dict[int, float] = {}
        vall: dict[int, float] = {pj: -1.0}  # P's jokers are counted on as many non-staying slots
        for t in slot_tiles:
            if retrieval:
                a = M.var(0, np.inf)
                b = M.var(0, np.inf)
                f = M.var(0, np.inf)
                ftot[f] = 1
                row = {a: 1, b: 1}
                for k, x in staying[t].items():
                    _add(row, k, -x)
                M.row(row, 0, 0)
                row = {a: 1, f: 1}
                for k, x in zjsum.get(t, {}).items():
                    _add(row, k, x)
                for k, x in RS.get(t, {}).items():
                    _add(row, k, -x)
                M.row(row, -np.inf, 0)
                row = {b: 1}
                for k, x in S[t].items():
                    _add(row, k, -x)
                for k, x in RS.get(t, {}).items():
                    _add(row, k, x)
                M.row(row, -np.inf, 0)
            else:
                row = dict(staying[t])
                for k, x in S[t].items():
                    _add(row, k, -x)
                M.row(row, -np.inf, 0)
            # value designation: P's jokers take the highest non-staying slots
            if Rj:
                v = M.var(0, np.inf)
                row = {v: 1}
                for k, x in staying[t].items():
                    _add(row, k, x)
                for k, x in S[t].items():
                    _add(row, k, -x)
                M.row(row, -np.inf, 0)
                _add(value, v, t[1])
                vall[v] = 1
        if retrieval:
            row = dict(ftot)
            for k in freed_total:
                row[k] = -1
            M.row(row, 0, 0)
        if Rj:
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


def _rich_ok(A: list[CMeld], freed_sets: Sequence[int], P: Counter[Tile], rack_joker_in: dict[int, int],
             r: int) -> bool:
    demand = {i: max(0, r - rack_joker_in.get(i, 0)) for i in set(freed_sets)}
    demand = {i: d for i, d in demand.items() if d}
    supply = {t: k for t, k in P.items() if t != JK}
    edges = {i: {t for t in A[i].real if supply.get(t, 0)} for i in demand}
    if any(len(edges[i]) < d for i, d in demand.items()):
        return False
    return _brute_assign(demand, supply, edges)


def _brute_assign(demand: dict[int, int], supply: dict[Tile, int], edges: dict[int, set[Tile]]) -> bool:
    sets = sorted(demand)
    left = dict(supply)

    def go(k: int) -> bool:
        if k == len(sets):
            return True
        i = sets[k]
        for combo in itertools.combinations(sorted(edges[i]), demand[i]):
            if all(left[t] > 0 for t in combo):
                for t in combo:
                    left[t] -= 1
                if go(k + 1):
                    return True
                for t in combo:
                    left[t] += 1
        return False

    return go(0)


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

    jokers = inst.table_jokers_by_meld()
    free = R.policy == "free"
    best_jv = None
    # every concrete reading of A (a group's jokers take distinct missing colours)
    for combo in itertools.product(*read):
        A = list(combo)
        slots = [(i, t) for i, cm in enumerate(A) for t in cm.slots]
        if free:
            nums = sorted((t[1] for _, t in slots), reverse=True)
            jv = sum(nums[:k_jokers])
            best_jv = jv if best_jv is None else max(best_jv, jv)
            continue
        # each table joker: ("stay", slot index) or ("ret", tile)
        options = []
        for _, cands in jokers:
            opts: list[tuple[str, Any]] = [("stay", s) for s, (_, t) in enumerate(slots) if t in cands]
            if not opening:
                opts += [("ret", t) for t in cands]
            options.append(opts)
        for choice in itertools.product(*options):
            stay_slots = [x for kind, x in choice if kind == "stay"]
            if len(set(stay_slots)) != len(stay_slots):
                continue
            # the jokers of one table group stand for distinct colours
            read_as = [(jokers[j][0], slots[x][1] if kind == "stay" else x) for j, (kind, x) in enumerate(choice)]
            if len(set(read_as)) != len(read_as):
                continue
            ret = Counter(x for kind, x in choice if kind == "ret")
            ok = True
            for t, k in ret.items():
                have = A_tiles[t] if R.policy == "replace" else P[t]
                if have < k:
                    ok = False
            if not ok:
                continue
            open_slots = [s for s in range(len(slots)) if s not in stay_slots]
            nfreed = sum(ret.values())
            if nfreed:
                r = 1 if R.policy == "replace" else 2
                placed = False
                for fs in itertools.combinations(open_slots, nfreed):
                    rj: dict[int, int] = Counter(slots[s][0] for s in open_slots if s not in fs)
                    if _rich_ok(A, [slots[s][0] for s in fs], P, rj, r):
                        placed = True
                        break
                if not placed:
                    continue
            nums = sorted((slots[s][1][1] for s in open_slots), reverse=True)
            jv = sum(nums[:k_jokers])
            best_jv = jv if best_jv is None else max(best_jv, jv)
    if best_jv is None:
        raise Illegal("joker policy violated (no staying/retrieval reading works)")
    return _key(objective, R, P, numbered_value + best_jv)


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
