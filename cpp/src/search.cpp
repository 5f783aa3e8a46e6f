// The exact search (see search.h for the method and docs/search-semantics.md for the contract).
#include "rummikub/search.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#ifdef RUMMIKUB_TRACE
#include <cstdio>
#endif

// Forces a lambda inline (a step's expansion is called from two places, and out of line it would reach every
// constant it uses through its closure).
#if defined(__GNUC__)
#define RUMMIKUB_INLINE __attribute__((always_inline))
#else
#define RUMMIKUB_INLINE
#endif

namespace rummikub {
namespace {

// What fills one slot of a meld at a number: a table tile, a table joker that stays (a "virtual"
// tile: exactly the tile it stands for, but not a numbered tile), a rack tile, or a free joker. The free
// jokers (the rack's, the retrieved table jokers, any table joker under the `free` policy) are alike to the
// programme: which of them came from the rack follows from their count (the score) and from what their melds
// hold (the retrieval rule), never from a choice at each slot.
enum Slot : int { kTR = 0, kVT = 1, kRR = 2, kFJ = 3, kSlots = 4 };

constexpr int kMaxN = kMaxNumbers + 1;

// Returns true for slots that are numbered tiles.
inline bool slot_real(int s) { return s == kTR || s == kRR; }

// How open runs are described in one programme run.
struct Mode {
  int L = 3;                // minimum set length
  bool track_real = false;  // could a run be made of jokers only?
  bool track_p = false;     // do retrieved jokers need rack tiles in their meld?
  int r = 0;                // rack tiles (a rack joker counts) such a meld needs: 1 or 2
  bool strict = false;      // ... and no rack joker can be uncovered (see extend): a run leaving one never closes
  uint32_t id() const {
    return static_cast<uint32_t>(L) | static_cast<uint32_t>(track_real) << 4 |
           static_cast<uint32_t>(track_p) << 5 | static_cast<uint32_t>(r) << 6 | static_cast<uint32_t>(strict) << 8;
  }
};

// An open run in one byte: bits 0-2 length (capped at L), bit 3 holds a numbered tile, bit 4 starts with a
// free joker ("lead"), bits 5-7 what it holds for the retrieval rule (below).
// A run whose first slot is a free joker only ends at the last number: one that ends sooner plays the same
// tiles with that joker moved past its end instead, where it stands for a higher number (so the
// programme never needs it, and leaves it out).
//
// The retrieval rule (Mode::track_p) as capacities: a meld holding R rack tiles and F free jokers can take
// t = clamp(R + F - r, 0, F) retrieved jokers (its other free jokers are rack jokers, which count as rack
// tiles), so min(F, max(0, r - R)) of its free jokers are "uncovered": they can only be rack jokers. A play is
// legal when its free jokers less its melds' uncovered ones are at least the retrieved jokers. A run's bits 5-7
// code R and s = R + F, both capped at r (s - R is then its uncovered count); the state sums the uncovered
// jokers of the melds closed so far. Once the jokers placed, less the uncovered ones of closed and open melds,
// reach the retrieved jokers, nothing later can undo it (a later joker adds one to each side at most): the runs
// are then settled fully (bits 5-7 cleared, and kept clear), so states that differ only there merge. Before
// that, once no free joker is left to place, a run with none uncovered never will have one: those runs are
// settled partly.
// Returns the free jokers of a meld with `rack` rack tiles and `jokers` free jokers that can only be rack jokers.
inline int meld_uncovered(int jokers, int rack, int r) { return std::min(jokers, std::max(0, r - rack)); }
constexpr uint8_t kQR[8] = {0, 0, 1, 0, 1, 2, 0, 0};  // R of each code
constexpr uint8_t kQS[8] = {0, 1, 1, 2, 2, 2, 0, 0};  // s of each code
inline int d_len(uint8_t d) { return d & 7; }
inline bool d_real(uint8_t d) { return (d >> 3) & 1; }
inline bool d_lead(uint8_t d) { return (d >> 4) & 1; }
inline int d_q(uint8_t d) { return d >> 5; }
// Returns the free jokers of a run that can only be rack jokers, as things stand.
inline int d_uncovered(uint8_t d) { return kQS[d_q(d)] - kQR[d_q(d)]; }
inline uint8_t make_desc(int len, bool real, bool lead, int R, int s) {
  return static_cast<uint8_t>(len | (real ? 8 : 0) | (lead ? 16 : 0) | (s * (s + 1) / 2 + R) << 5);
}

// Returns the descriptor of a run after one more slot; d == 0 starts a run.
inline uint8_t extend(uint8_t d, int s, const Mode& m) {
  const int len = std::min(d_len(d) + 1, m.L);
  const bool real = m.track_real ? (d_real(d) || slot_real(s)) : true;
  const bool lead = d == 0 ? s == kFJ : d_lead(d);
  if (!m.track_p) return make_desc(len, real, lead, 0, 0);
  const int R = kQR[d_q(d)] + (s == kRR ? 1 : 0), S = kQS[d_q(d)] + (s == kRR || s == kFJ ? 1 : 0);
  return make_desc(len, real, lead, std::min(R, m.r), std::min(S, m.r));
}

// Returns true when a run with this descriptor may end at the last number.
inline bool closable_end(uint8_t d, const Mode& m) {
  return d_len(d) == m.L && d_real(d) && (!m.strict || d_uncovered(d) == 0);
}
// Returns true when a run with this descriptor may end before the last number.
inline bool closable(uint8_t d, const Mode& m) { return !d_lead(d) && closable_end(d, m); }

// How far runs are settled (see above).
enum Settle : int { kOpen = 0, kPartly = 1, kFully = 2 };
inline uint8_t settle(uint8_t d, int how) {
  return how == kFully || (how == kPartly && d_uncovered(d) == 0) ? static_cast<uint8_t>(d & 0x1F) : d;
}

// A colour's open runs: up to 8 descriptors, sorted descending, packed into a word (byte 0 largest).
inline int unpack(uint64_t s, uint8_t* d) {
  int n = 0;
  while (n < 8 && ((s >> (8 * n)) & 0xFF) != 0) {
    d[n] = static_cast<uint8_t>(s >> (8 * n));
    ++n;
  }
  return n;
}
inline uint64_t pack(uint8_t* d, int n) {
  for (int i = 1; i < n; ++i) {  // insertion sort, descending: at most 8 bytes
    const uint8_t x = d[i];
    int j = i;
    for (; j > 0 && d[j - 1] < x; --j) d[j] = d[j - 1];
    d[j] = x;
  }
  uint64_t s = 0;
  for (int i = 0; i < n; ++i) s |= static_cast<uint64_t>(d[i]) << (8 * i);
  return s;
}
// What a colour's runs need ahead, for the joker lookahead (Programme::joker_deficit), packed in bytes: runs
// that cannot end at the last number, runs that cannot end sooner, runs short of two or more slots, and
// runs led by a free joker among the others (they need the slot two ahead too unless the number is the
// last but one).
inline uint32_t needs_of(uint64_t s, const Mode& m) {
  uint32_t end = 0, now = 0, two = 0, lead = 0;
  for (int j = 0; j < 8; ++j) {
    const uint8_t d = static_cast<uint8_t>(s >> (8 * j));
    if (d == 0) break;
    end += closable_end(d, m) ? 0 : 1;
    now += closable(d, m) ? 0 : 1;
    if (m.L - d_len(d) >= 2) {
      ++two;
    } else if (d_lead(d)) {
      ++lead;
    }
    if (d_lead(d)) lead |= 16;
  }
  return end | now << 8 | two << 16 | lead << 24;
}

// Returns a colour's runs settled.
inline uint64_t settle_word(uint64_t s, int how) {
  uint8_t d[16];
  const int k = unpack(s, d);
  for (int j = 0; j < k; ++j) d[j] = settle(d[j], how);
  return pack(d, k);
}
// Returns the uncovered free jokers of a colour's open runs.
inline int uncovered_of(uint64_t s) {
  int u = 0;
  for (; s != 0; s >>= 8) u += d_uncovered(static_cast<uint8_t>(s));
  return u;
}

// One way a colour's runs take the slots of a number: what each old run does (3 bits each: 0 ends,
// 1 + slot continues with that slot); the rest of the slots start new runs.
struct Trans {
  uint64_t next;
  uint32_t actions;  // bits 0-23: 3 for each of at most 8 old runs; bits 24-31: the uncovered jokers of those it ends
  uint32_t needs;    // needs_of(next), for the joker lookahead
  int uncovered() const { return static_cast<int>(actions >> 24); }
};
using TransList = std::vector<Trans>;

// The memo of transitions: an open-addressing table of (runs, slots, mode) keys pointing into a pool of
// Trans records. Nodes refer to records by pool index, which stays valid as the pool grows.
struct TransCache {
  struct Entry {
    uint64_t state = 0;
    uint32_t rest = 0;  // slots and mode; never 0 for a used entry (the mode's L is at least 2)
    uint32_t begin = 0, count = 0;
  };
  std::vector<Entry> table = std::vector<Entry>(1 << 12);
  size_t used = 0;
  std::vector<Trans> pool;

  static size_t hash(uint64_t state, uint32_t rest) {
    uint64_t h = state * 0x9E3779B97F4A7C15ULL ^ (static_cast<uint64_t>(rest) * 0xC2B2AE3D27D4EB4FULL);
    return static_cast<size_t>(h ^ (h >> 29));
  }
  Entry* find(uint64_t state, uint32_t rest) {
    const size_t mask = table.size() - 1;
    for (size_t i = hash(state, rest) & mask;; i = (i + 1) & mask) {
      Entry& e = table[i];
      if (e.rest == 0 || (e.state == state && e.rest == rest)) return &e;
    }
  }
  void grow() {
    std::vector<Entry> old(table.size() * 2);
    old.swap(table);
    for (const Entry& e : old) {
      if (e.rest != 0) *find(e.state, e.rest) = e;
    }
  }
};
thread_local TransCache g_trans;

// Returns every distinct next state of a colour's runs, given the slots of its next number, settled as `how`
// says. Of two ways to one next state, the one that leaves fewer jokers uncovered is kept.
// Dominated moves are left out: ending a run while a new run starts in the same colour is never better
// than continuing the old run with that slot (the longer run can do all the new one can, and leaves no more
// jokers uncovered than the two runs would: meld_uncovered is subadditive). Returns the pool index of the first
// record and the count. (This builds the memo entry; transitions() below looks it up first.)
std::pair<uint32_t, uint32_t> make_transitions(TransCache& memo, uint64_t state, uint32_t rest, const int slots[kSlots],
                                               const Mode& m, int how) {
  TransList out;
  uint8_t old[8];
  const int k = unpack(state, old);
  int rem[kSlots];
  std::copy(slots, slots + kSlots, rem);
  int act[8] = {0};
  auto emit = [&]() {
    uint8_t next[16];
    int n = 0;
    bool closed = false;
    uint32_t uncovered = 0;
    for (int j = 0; j < k; ++j) {
      if (act[j] != 0) {
        next[n++] = extend(old[j], act[j] - 1, m);
      } else {
        closed = true;
        uncovered += static_cast<uint32_t>(d_uncovered(old[j]));
      }
    }
    int fresh_runs = 0;
    for (int s = 0; s < kSlots; ++s) fresh_runs += rem[s];
    if (n + fresh_runs > 8 || (closed && fresh_runs > 0)) return;
    for (int s = 0; s < kSlots; ++s) {
      for (int r = 0; r < rem[s]; ++r) next[n++] = extend(0, s, m);
    }
    if (how != kOpen) {
      for (int j = 0; j < n; ++j) next[j] = settle(next[j], how);
    }
    const uint64_t ns = pack(next, n);
    uint32_t a = 0;
    for (int j = 0; j < k; ++j) a |= static_cast<uint32_t>(act[j]) << (3 * j);
    a |= uncovered << 24;
    for (Trans& t : out) {
      if (t.next != ns) continue;
      if (a >> 24 < t.actions >> 24) t.actions = a;
      return;
    }
    out.push_back(Trans{ns, a, needs_of(ns, m)});
  };
  // Depth-first over the old runs; equal descriptors take non-decreasing actions (symmetry).
  auto rec = [&](auto&& self, int i) -> void {
    if (i >= k) {  // (>=, not ==: lets the compiler see that i stays within the 8 runs)
      emit();
      return;
    }
    const int floor = (i > 0 && old[i] == old[i - 1]) ? act[i - 1] : 0;
    if (floor == 0 && closable(old[i], m)) {
      act[i] = 0;
      self(self, i + 1);
    }
    for (int s = std::max(0, floor - 1); s < kSlots; ++s) {
      if (rem[s] == 0) continue;
      --rem[s];
      act[i] = s + 1;
      self(self, i + 1);
      ++rem[s];
    }
    act[i] = 0;
  };
  rec(rec, 0);
  if ((memo.used + 1) * 2 > memo.table.size()) memo.grow();
  TransCache::Entry* e = memo.find(state, rest);
  *e = TransCache::Entry{state, rest, static_cast<uint32_t>(memo.pool.size()), static_cast<uint32_t>(out.size())};
  ++memo.used;
  memo.pool.insert(memo.pool.end(), out.begin(), out.end());
  return {e->begin, e->count};
}
// The memo's key of a lookup besides the runs: the mode, `how`, and 3 bits for each slot's count.
inline uint32_t transition_key(const Mode& m, int how) { return m.id() << 16 | static_cast<uint32_t>(how) << 25; }
inline uint32_t slot_bits(int slot, int count) { return static_cast<uint32_t>(count) << (3 * slot); }
// (rest: transition_key(m, how) with the slot_bits of every slot, which callers may build in parts)
inline std::pair<uint32_t, uint32_t> transitions(TransCache& memo, uint64_t state, uint32_t rest,
                                                 const int slots[kSlots], const Mode& m, int how) {
  const TransCache::Entry* hit = memo.find(state, rest);
  if (hit->rest != 0) return {hit->begin, hit->count};
  return make_transitions(memo, state, rest, slots, m, how);
}
inline std::pair<uint32_t, uint32_t> transitions(TransCache& memo, uint64_t state, const int slots[kSlots],
                                                 const Mode& m, int how) {
  uint32_t rest = transition_key(m, how);
  for (int s = 0; s < kSlots; ++s) rest |= slot_bits(s, slots[s]);
  return transitions(memo, state, rest, slots, m, how);
}

// The tiles of one number promised to groups: per colour 3-bit counts of table tiles, staying
// jokers and rack tiles (9 bits a colour).
inline int g_get(uint64_t g, int c, int s) { return static_cast<int>((g >> (9 * c + 3 * s)) & 7); }

struct GroupMember {
  int colour;
  int slot;  // kTR, kVT or kRR
};
struct GroupBuild {
  GroupMember members[kMaxColours];  // distinct colours
  int size = 0;                      // members
  int jokers = 0;                    // free jokers
};

// The key of group_split's question.
inline uint64_t group_key(uint64_t g, int jokers, int colours, const Mode& m) {
  return g | static_cast<uint64_t>(jokers) << 36 | static_cast<uint64_t>(colours) << 42 |
         static_cast<uint64_t>(m.track_p ? m.r + 1 : 0) << 45 | static_cast<uint64_t>(m.L) << 48;
}
// The answers of group_split, by key (each thread its own): a direct-mapped cache. The keys a search asks are
// few and asked again soon; a collision only costs one split again (a hash map's lookup cost more than most
// splits do).
struct GroupsMemo {
  struct Entry {
    uint64_t key = 0;  // (no key is 0: every key holds the colour count)
    int value = 0;
  };
  std::vector<Entry> entries = std::vector<Entry>(size_t{1} << 12);
  Entry& slot(uint64_t key) { return entries[static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> 52)]; }
};
thread_local GroupsMemo g_groups;

// Splits the promised tiles plus `jokers` free jokers into valid groups (distinct colours, max(3, L)..C tiles,
// a numbered tile each). Returns the fewest uncovered jokers a split leaves (with Mode::track_p; else 0), or -1
// when there is no split; fills `build` with such a split when asked (and then neither reads nor fills `memo`).
int group_split(uint64_t g, int jokers, int colours, const Mode& m, GroupsMemo& memo, std::vector<GroupBuild>* build) {
  const uint64_t key = group_key(g, jokers, colours, m);
  GroupsMemo::Entry& cached = memo.slot(key);
  if (build == nullptr && cached.key == key) return cached.value;
  int cnt[kMaxColours][3];
  int total = 0;
  for (int c = 0; c < kMaxColours; ++c) {
    for (int s = 0; s < 3; ++s) {
      cnt[c][s] = g_get(g, c, s);
      total += cnt[c][s];
    }
  }
  GroupBuild stack[kMaxColours * 3];  // (a group holds a numbered tile: at most one per promised tile, 3 copies)
  int depth = 0;
  int best = -1;
  // Depth first: the group holding a tile of the lowest colour left, then the rest; returns true to stop (a split
  // with no joker uncovered cannot be beaten).
  auto rec = [&](auto&& self, int left, int uncovered) -> bool {
    if (best >= 0 && uncovered >= best) return false;
    int lead = -1;
    for (int c = 0; c < kMaxColours && lead < 0; ++c) {
      if (cnt[c][0] + cnt[c][1] + cnt[c][2] > 0) lead = c;
    }
    if (lead < 0) {
      if (left != 0) return false;
      best = uncovered;
      if (build != nullptr) build->assign(stack, stack + depth);
      return best == 0;
    }
    // The group holding one tile of the lowest colour left: choose its slot kind and its other members.
    GroupBuild grp;
    auto pick = [&](auto&& pself, int c) -> bool {
      if (c == kMaxColours) {
        int numbered = 0, rack = 0;
        for (int k = 0; k < grp.size; ++k) {
          numbered += slot_real(grp.members[k].slot) ? 1 : 0;
          rack += grp.members[k].slot == kRR ? 1 : 0;
        }
        if (numbered == 0) return false;
        for (int a = 0; a <= left; ++a) {
          const int size = grp.size + a;
          if (size < std::max(3, m.L) || size > colours) continue;
          grp.jokers = a;
          stack[depth++] = grp;
          const bool stop = self(self, left - a, uncovered + (m.track_p ? meld_uncovered(a, rack, m.r) : 0));
          --depth;
          if (stop) return true;
        }
        return false;
      }
      if (c != lead && pself(pself, c + 1)) return true;  // colour c not in this group
      for (int s = 0; s < 3; ++s) {
        if (cnt[c][s] == 0) continue;
        --cnt[c][s];
        grp.members[grp.size++] = GroupMember{c, s == 0 ? kTR : s == 1 ? kVT : kRR};
        const bool stop = pself(pself, c + 1);
        --grp.size;
        ++cnt[c][s];
        if (stop) return true;
      }
      return false;
    };
    return pick(pick, lead);
  };
  if (total > 0) {
    rec(rec, jokers, 0);
  } else if (jokers == 0) {
    best = 0;
    if (build != nullptr) build->clear();
  }
  if (build == nullptr) cached = GroupsMemo::Entry{key, best};
  return best;
}

// The input of one programme run.
struct Input {
  Params p;
  Mode mode;
  uint8_t tr[kMaxColours][kMaxN] = {};    // table tiles (must be placed)
  uint8_t vt[kMaxColours][kMaxN] = {};    // staying table jokers by the tile they stand for (must)
  uint8_t rr[kMaxColours][kMaxN] = {};    // rack tiles available
  uint8_t rmin[kMaxColours][kMaxN] = {};  // rack tiles that must be played
  int jt = 0;                              // free table jokers (must be placed)
  int jr = 0;                              // rack jokers available
  int jr_min = 0;                          // rack jokers that must be played
  // The free jokers are alike (Slot): the first jt placed, in the sweep's order, count as the table's and every
  // later one as a rack joker. That is how value(P) counts P's jokers (at the highest numbers any free joker
  // stands for), and the score follows from the count.
  int threshold = 0;                       // opening value to reach (0: none)
  int64_t w_rr[kMaxN] = {};                // objective weight of a rack tile by number
  int64_t w_rj[kMaxN] = {};                // objective weight of a rack joker by the number it stands for
  bool usage = false;                      // key states by the rack tiles used (to enumerate plays)
  uint8_t bit[kMaxColours][kMaxN] = {};    // first usage bit of each rack tile
  bool require_play = true;                // at least one rack tile
  bool table_only = false;                 // arrange(): table tiles and free jokers alone (no rack, no score)
  // Derived by prepare(): slots available per tile, and the most the rack tiles after each sweep
  // position could still add to the score (tiles that fit in no meld at all count nothing).
  uint8_t avail[kMaxColours][kMaxN + 2] = {};
  int64_t suffix[kMaxN * kMaxColours + 1] = {};
  int vsuffix[kMaxN * kMaxColours + 1] = {};  // the most opening value the rack tiles after each position add
  int64_t wj_max = 0;
  bool group_ok[kMaxN] = {};
  bool joker_run_ok[kMaxColours][kMaxN] = {};  // could a run through (c, n) hold a joker at n?
  uint8_t gaps_after[kMaxColours][kMaxN] = {};  // numbers after n with no tile of colour c at all
};

// Fills the derived fields of an input.
void prepare(Input& in) {
  const int N = in.p.numbers, C = in.p.colours, L = in.p.min_len;
  const int J = in.jr + in.jt;
  for (int c = 0; c < C; ++c) {
    for (int n = 1; n <= N; ++n) in.avail[c][n] = static_cast<uint8_t>(in.tr[c][n] + in.vt[c][n] + in.rr[c][n]);
  }
  // Does a tile (c, n) fit some meld with `jokers` free jokers, the other slots taken by tiles available?
  auto fits_with = [&](int c, int n, int jokers) {
    int others = 0;
    for (int x = 0; x < C; ++x) others += (x != c && in.avail[x][n] > 0) ? 1 : 0;
    if (std::max(3, L) <= C && 1 + others + jokers >= std::max(3, L)) return true;
    for (int s = std::max(1, n - L + 1); s <= std::min(n, N - L + 1); ++s) {
      int missing = 0;
      for (int k = s; k < s + L; ++k) missing += (k != n && in.avail[c][k] == 0) ? 1 : 0;
      if (missing <= jokers) return true;
    }
    return false;
  };
  auto fits = [&](int c, int n) { return fits_with(c, n, J); };
  // A rack tile that fits in no meld at all can never be played: drop it (unless forced, which then
  // fails on its own). Dropping one can strand another, so repeat until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (int c = 0; c < C; ++c) {
      for (int n = 1; n <= N; ++n) {
        if (in.rr[c][n] > 0 && in.rmin[c][n] == 0 && !fits(c, n)) {
          in.avail[c][n] = static_cast<uint8_t>(in.avail[c][n] - in.rr[c][n]);
          in.rr[c][n] = 0;
          changed = true;
        }
      }
    }
  }
  for (int n = 1; n <= N; ++n) {
    int colours = 0;
    for (int c = 0; c < C; ++c) colours += in.avail[c][n] > 0 ? 1 : 0;
    in.group_ok[n] = colours > 0 && colours + J >= std::max(3, L) && std::max(3, L) <= C;
  }
  // A joker in a run slot (c, n) needs a window of L slots around it with a numbered tile and no more
  // empty slots than there are jokers.
  for (int c = 0; c < C && J > 0; ++c) {  // (without jokers it is never asked)
    int empty[kMaxN] = {}, real[kMaxN] = {};  // numbers up to k without a tile; numbered tiles up to k
    for (int k = 1; k <= N; ++k) {
      empty[k] = empty[k - 1] + (in.avail[c][k] == 0 ? 1 : 0);
      real[k] = real[k - 1] + in.tr[c][k] + in.rr[c][k];
    }
    for (int n = 1; n <= N; ++n) {
      bool ok = false;
      for (int s = std::max(1, n - L + 1); s <= std::min(n, N - L + 1) && !ok; ++s) {
        const int e = s + L - 1;
        const int missing = empty[e] - empty[s - 1] + (in.avail[c][n] != 0 ? 1 : 0);  // slot n is the joker's
        ok = missing <= J && real[e] - real[s - 1] > 0;
      }
      in.joker_run_ok[c][n] = ok;
    }
  }
  for (int c = 0; c < C; ++c) {
    in.gaps_after[c][N] = 0;
    for (int n = N - 1; n >= 0; --n) {
      in.gaps_after[c][n] = static_cast<uint8_t>(in.gaps_after[c][n + 1] + (in.avail[c][n + 1] == 0 ? 1 : 0));
    }
  }
  in.suffix[N * C] = 0;
  in.vsuffix[N * C] = 0;
  // How many tiles of (c, n) any legal end can place at most: the melds holding one. A run through n holds
  // n + 1, or else n - 1 .. n - L + 1 (and mirrored), each slot a distinct tile or a joker; a group holds G - 1
  // other tiles of n, of distinct colours, or jokers. The table's tiles take that room first, so a rack copy
  // past it counts nothing.
  auto room = [&](int c, int n) {
    auto at = [&](int k) { return k >= 1 && k <= N ? in.avail[c][k] + J : 0; };
    int below = INT_MAX, above = INT_MAX;
    for (int k = 1; k < L; ++k) {
      below = std::min(below, at(n - k));
      above = std::min(above, at(n + k));
    }
    const int runs = std::min(at(n + 1) + below, at(n - 1) + above);
    // k groups holding a copy each need k (G - 1) other members, one of each colour at most per group: at most
    // min(copies, k) of each other colour, and the jokers. (Not monotone in k: every k is tried.)
    const int G = std::max(3, L);
    int groups = 0;
    for (int k = 1; G <= C && k <= in.avail[c][n]; ++k) {
      int others = J;
      for (int y = 0; y < C; ++y) others += y != c ? std::min<int>(in.avail[y][n], k) : 0;
      if (others >= k * (G - 1)) groups = k;
    }
    return runs + groups;
  };
  // A rack tile that fits no meld without a free joker can only be placed in a meld holding one (every run
  // through it spans a window of L numbers with a gap; a group of it lacks a colour), and at most J melds hold
  // one: those tiles count, the heaviest first, for at most J times the most of them one meld can hold (a run:
  // one a number, over a range with J gaps at most; a group: one a colour).
  bool needs_joker[kMaxColours][kMaxN] = {};
  int joker_tiles = 0;
  for (int c = 0; c < C && J > 0; ++c) {
    for (int n = 1; n <= N; ++n) {
      needs_joker[c][n] = in.rr[c][n] > 0 && !fits_with(c, n, 0);
      joker_tiles += needs_joker[c][n] ? in.rr[c][n] : 0;
    }
  }
  int per_meld = 0;
  for (int n = 1; n <= N && joker_tiles > 0; ++n) {
    int colours = 0;
    for (int c = 0; c < C; ++c) colours += needs_joker[c][n] ? 1 : 0;
    per_meld = std::max(per_meld, colours);
  }
  for (int c = 0; c < C && joker_tiles > 0; ++c) {
    for (int s = 1; s <= N; ++s) {
      int gaps = 0, held = 0;
      for (int e = s; e <= N; ++e) {
        gaps += in.avail[c][e] == 0 ? 1 : 0;
        if (gaps > J) break;
        held += needs_joker[c][e] ? 1 : 0;
        if (e - s + 1 >= L) per_meld = std::max(per_meld, held);
      }
    }
  }
  const int joker_most = std::min(joker_tiles, J * per_meld);
  int64_t heavy[kMaxColours * kMaxN * kMaxCount];  // the weights of such tiles after pos, heaviest first
  int nheavy = 0;
  int64_t heavy_sum = 0, plain = 0;  // the joker_most heaviest of them; the other tiles after pos
  for (int pos = N * C - 1; pos >= 0; --pos) {
    const int n = pos / C + 1, c = pos % C;
    const int copies = in.rr[c][n] > 0 && fits(c, n)
                           ? std::min<int>(in.rr[c][n], std::max(0, room(c, n) - in.tr[c][n] - in.vt[c][n]))
                           : 0;
    if (needs_joker[c][n]) {
      for (int k = 0; k < copies; ++k) {
        int at = nheavy++;
        for (; at > 0 && heavy[at - 1] < in.w_rr[n]; --at) heavy[at] = heavy[at - 1];
        heavy[at] = in.w_rr[n];
        heavy_sum += at < joker_most ? in.w_rr[n] - (nheavy > joker_most ? heavy[joker_most] : 0) : 0;
      }
    } else {
      plain += copies * in.w_rr[n];
    }
    in.suffix[pos] = plain + heavy_sum;
    in.vsuffix[pos] = in.vsuffix[pos + 1] + copies * n;
  }
  in.wj_max = 0;
  for (int n = 1; n <= N; ++n) {
    in.wj_max = std::max(in.wj_max, in.w_rj[n]);
  }
}

// Returns an upper bound of the score any legal end can reach (before the sweep starts).
int64_t root_bound(const Input& in) { return in.suffix[0] + in.jr * in.wj_max; }

struct State {
  uint64_t cs[kMaxColours];
  uint64_t mask;
  uint64_t misc;  // bits 0-35 groups promised, 36-38 free jokers placed, 39-41 uncovered jokers of closed melds,
                  // 42-51 value, 52 settled fully (see extend)
  bool operator==(const State& o) const {
    return cs[0] == o.cs[0] && cs[1] == o.cs[1] && cs[2] == o.cs[2] && cs[3] == o.cs[3] && mask == o.mask &&
           misc == o.misc;
  }
};
constexpr uint64_t kGroupBits = (1ULL << 36) - 1;
inline int st_jf(const State& s) { return static_cast<int>((s.misc >> 36) & 7); }
inline int st_unc(const State& s) { return static_cast<int>((s.misc >> 39) & 7); }
inline int st_v(const State& s) { return static_cast<int>((s.misc >> 42) & 1023); }
inline bool st_settled(const State& s) { return (s.misc >> 52) & 1; }
inline uint64_t with_counts(uint64_t misc, int jf, int unc, int v, bool settled) {
  return (misc & kGroupBits) | static_cast<uint64_t>(jf) << 36 | static_cast<uint64_t>(unc) << 39 |
         static_cast<uint64_t>(std::min(v, 1023)) << 42 | static_cast<uint64_t>(settled) << 52;
}

struct Node {
  State s;
  int64_t score;
  int32_t parent;
  uint32_t info;         // colour step: b, ga, gv, gb, y (free jokers) (4 bits each); group step: y
  uint32_t actions;      // colour step: how the runs moved (Trans::actions; kept in the node, so that a play
                         // can be rebuilt after the transition memo was trimmed)
  bool dead;             // dominated by another node of its layer: not expanded
  uint8_t deficit[kMaxColours];  // each colour's joker_deficit as of its last colour step (depends on s alone)
  // Deepening (Programme::run again at a lower floor): the children whose bound reaches `ceiling` were offered
  // already (INT64_MAX: the node is new or its score rose since it was expanded, so none were), and `pending`
  // is the highest bound of a child left below the floor (INT64_MIN: none).
  int64_t ceiling = INT64_MAX;
  int64_t pending = INT64_MIN;
};

// A summary of a node's runs that a node covering it (runs_cover in every colour) matches or exceeds in every byte,
// for a quick test before runs_cover: per colour its runs, those at least 2 long, those at least L long, and 8 less
// those shorter than L (each short run of a needs a run of b no longer).
struct RunsSummary {
  uint64_t w[2] = {0, 0};
  RunsSummary() = default;
  RunsSummary(const State& s, int colours, int L) {
    for (int c = 0; c < colours; ++c) add(s.cs[c], c, L);
  }
  void add(uint64_t x, int c, int L) {
    constexpr uint64_t kLow3 = 0x0707070707070707ULL, kHigh = 0x8080808080808080ULL, kOnes = 0x0101010101010101ULL;
    // (a byte's high bit says whether its length reaches k; the multiply sums those bits into the top byte)
    auto reaching = [&](int k) {
      const uint64_t high = ((x & kLow3) + static_cast<uint64_t>(0x80 - k) * kOnes) & kHigh;
      return ((high >> 7) * kOnes) >> 56;
    };
    const uint64_t runs = x == 0 ? 0 : static_cast<uint64_t>((71 - __builtin_clzll(x)) >> 3), full = reaching(L);
    w[0] |= runs << (8 * c) | reaching(2) << (8 * c + 32);
    w[1] |= full << (8 * c) | (8 - runs + full) << (8 * c + 32);
  }
  // Returns true when every byte of this summary is at least b's.
  bool covers(const RunsSummary& b) const {
    constexpr uint64_t kHigh = 0x8080808080808080ULL;
    return (((w[0] | kHigh) - b.w[0]) & ((w[1] | kHigh) - b.w[1]) & kHigh) == kHigh;
  }
};

// One layer of the programme: nodes plus an open-addressing index keeping the best node per state.
struct Layer {
  std::vector<Node> nodes;
  std::vector<int32_t> index;
  size_t mask = 0;
  // Deepening: a node was added or improved since the layer was last expanded (so has a ceiling of INT64_MAX),
  // and the highest pending bound of its other nodes (see Node::ceiling). Without the first, a floor above the
  // second has nothing to expand here.
  bool fresh = false;
  int64_t pending = INT64_MIN;
  // For prune_dominated, kept as nodes are added: buckets of nodes with the same counts and mask (open addressing
  // -> the bucket's last node; each node's next node in its bucket, and its bucket's slot), each node's runs
  // summarised, and how many nodes are in.
  std::vector<int32_t> bucket_head, bucket_next;
  std::vector<uint32_t> bucket_of;
  std::vector<RunsSummary> summary;
  size_t bucketed = 0;

  void reset(size_t expect) {
    fresh = false;
    pending = INT64_MIN;
    bucketed = 0;
    nodes.clear();
    nodes.reserve(expect);  // (growing by doubling would copy the nodes over and over)
    size_t cap = 16;
    while (cap < expect * 2) cap <<= 1;
    index.assign(cap, -1);
    mask = cap - 1;
  }
  static size_t hash(const State& s) {
    uint64_t h = s.misc * 0x9E3779B97F4A7C15ULL;
    for (uint64_t x : s.cs) h = (h ^ x) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ s.mask) * 0x94D049BB133111EBULL;
    return static_cast<size_t>(h ^ (h >> 31));
  }
  // Returns the index of the node with this state, or -1.
  int32_t find(const State& s) const {
    for (size_t i = hash(s) & mask; index[i] >= 0; i = (i + 1) & mask) {
      if (nodes[static_cast<size_t>(index[i])].s == s) return index[i];
    }
    return -1;
  }
  // Adds a node unless an equal state with a score at least as good is there.
  // Returns the index of the node that holds the state now.
  int32_t offer(const Node& n) {
    if (nodes.size() * 2 >= index.size()) grow();
    size_t i = hash(n.s) & mask;
    while (index[i] >= 0) {
      Node& old = nodes[static_cast<size_t>(index[i])];
      if (old.s == n.s) {
        if (n.score > old.score) {
          old = n;
          fresh = true;
        }
        return index[i];
      }
      i = (i + 1) & mask;
    }
    index[i] = static_cast<int32_t>(nodes.size());
    nodes.push_back(n);
    fresh = true;
    return index[i];
  }
  // Puts the nodes added since the last call in their buckets (of the nodes with the same counts and mask);
  // returns the index of the first of them.
  size_t bucket_new(int colours, int L) {
    const size_t K = nodes.size(), first = bucketed;
    if (bucketed == 0 || bucket_head.size() < K * 2) {  // (first use since reset, or too full: start again)
      size_t cap = 16;
      while (cap < K * 2) cap <<= 1;
      bucket_head.assign(cap, -1);
      for (size_t i = 0; i < bucketed; ++i) link(i);
    }
    bucket_next.resize(K);
    bucket_of.resize(K);
    summary.resize(K);
    for (size_t i = bucketed; i < K; ++i) {
      link(i);
      summary[i] = RunsSummary(nodes[i].s, colours, L);
    }
    bucketed = K;
    return first;
  }
  void link(size_t i) {
    const size_t wrap = bucket_head.size() - 1;
    const State& s = nodes[i].s;
    const uint64_t h = (s.misc * 0x9E3779B97F4A7C15ULL) ^ (s.mask * 0xBF58476D1CE4E5B9ULL);
    size_t at = static_cast<size_t>(h ^ (h >> 31)) & wrap;
    for (; bucket_head[at] >= 0; at = (at + 1) & wrap) {
      const State& o = nodes[static_cast<size_t>(bucket_head[at])].s;
      if (o.misc == s.misc && o.mask == s.mask) break;
    }
    bucket_next[i] = bucket_head[at];
    bucket_head[at] = static_cast<int32_t>(i);
    bucket_of[i] = static_cast<uint32_t>(at);
  }
  void grow() {
    index.assign(index.size() * 2, -1);
    mask = index.size() - 1;
    for (size_t k = 0; k < nodes.size(); ++k) {
      size_t i = hash(nodes[k].s) & mask;
      while (index[i] >= 0) i = (i + 1) & mask;
      index[i] = static_cast<int32_t>(k);
    }
  }
};

// Returns true when run a can do whatever run b can: as long or longer, holding a numbered tile if b does, free to
// end before the last number if b is, and, for the retrieval rule, holding as many rack tiles and leaving no more
// jokers uncovered (extend).
inline bool run_covers(uint8_t a, uint8_t b) {
  const int qa = d_q(a), qb = d_q(b);
  return d_len(a) >= d_len(b) && d_real(a) >= d_real(b) && d_lead(a) <= d_lead(b) && kQR[qa] >= kQR[qb] &&
         kQS[qa] - kQR[qa] <= kQS[qb] - kQR[qb];
}
// Returns true when a colour's runs a can do whatever its runs b can: each run of b has its own run of a that
// covers it (run_covers), and every other run of a can end now with no joker uncovered. Each such match
// carries b's future over to a (the extra runs end at once, and a run that ends while a new one starts in its
// colour is never better than continuing: see make_transitions). By the Mendelsohn-Dulmage theorem a matching
// that takes every run of b and one that takes every run of a that cannot end make one that takes both.
bool runs_cover(uint64_t a, uint64_t b, const Mode& m) {
  uint8_t da[8], db[8];
  const int ka = unpack(a, da), kb = unpack(b, db);
  if (ka < kb) return false;
  uint32_t to_a[8] = {}, to_b[8] = {};  // to_a[j]: the runs of a that cover run j of b; to_b[i]: the b's a[i] covers
  for (int j = 0; j < kb; ++j) {
    for (int i = 0; i < ka; ++i) {
      if (run_covers(da[i], db[j])) {
        to_a[j] |= 1U << i;
        to_b[i] |= 1U << j;
      }
    }
  }
  // Kuhn's augmenting paths, from the vertices of one side that must be matched (`must`, a bit each).
  auto saturates = [](const uint32_t* adj, int k, uint32_t must) {
    int partner[8];
    std::fill(partner, partner + 8, -1);
    auto augment = [&](auto&& self, int v, uint32_t& seen) -> bool {
      for (uint32_t e = adj[v] & ~seen; e != 0; e &= e - 1) {
        const int u = __builtin_ctz(e);
        seen |= 1U << u;
        if (partner[u] < 0 || self(self, partner[u], seen)) {
          partner[u] = v;
          return true;
        }
      }
      return false;
    };
    for (int v = 0; v < k; ++v) {
      uint32_t seen = 0;
      if ((must >> v & 1) != 0 && !augment(augment, v, seen)) return false;
    }
    return true;
  };
  uint32_t must_a = 0;
  for (int i = 0; i < ka; ++i) {
    if (!closable(da[i], m) || d_uncovered(da[i]) != 0) must_a |= 1U << i;
  }
  return saturates(to_a, kb, (1U << kb) - 1) && saturates(to_b, ka, must_a);
}

// The answers of runs_cover (each thread its own): a direct-mapped cache, as GroupsMemo. The words a search
// compares recur within a search and across searches.
struct CoverMemo {
  struct Entry {
    uint64_t a = 0, b = 0;
    uint32_t mode = 0;  // Mode::id() + 1 (0: empty)
    bool covers = false;
  };
  static constexpr size_t kSize = 2048;
  std::vector<Entry> entries = std::vector<Entry>(kSize);
  bool covers(uint64_t a, uint64_t b, const Mode& m) {
    const uint32_t id = m.id() + 1;
    uint64_t h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL) ^ id;
    Entry& e = entries[static_cast<size_t>(h ^ (h >> 29)) & (kSize - 1)];
    if (e.a != a || e.b != b || e.mode != id) e = Entry{a, b, id, runs_cover(a, b, m)};
    return e.covers;
  }
};
thread_local CoverMemo g_cover;

// expand_layer's scratch (kept between calls: no malloc once warm).
struct ShareScratch {
  struct Shared {
    size_t first;       // the node that expanded
    size_t begin, end;  // its children in `made`
    uint64_t transitions;
  };
  std::vector<Node> made;         // the children of each state's first node
  std::vector<Shared> shared;     // by state without mask
  std::vector<int32_t> by_state;  // open addressing: state without mask -> entry of `shared`
};
thread_local ShareScratch g_share;

// A way for colour_step to promise copies of its tile to groups (a ChoiceList holds them for each count of rack
// copies played).
struct GroupChoice {
  uint64_t bits;    // the promise, shifted into place in State::misc's groups
  int rest[3];      // table copies, staying jokers and rack copies left to the runs
  int k;            // copies promised
  uint32_t info;    // Node::info's b, ga, gv and gb
  uint32_t key;     // the slot_bits of `rest`
};

// The ways to promise copies of one tile to groups depend on little (the copies of each kind, the colour,
// whether groups can form at that number, the retrieval rule): each thread makes each list once and keeps it
// (bounded by trim_memo), where a programme's steps look them up. Node-based, so a list never moves.
struct ChoiceList {
  std::vector<GroupChoice> choices;
  uint32_t begin[kMaxCount + 2];  // the choices of b rack copies: choices[begin[b] .. begin[b + 1])
};
thread_local std::unordered_map<uint32_t, ChoiceList> g_choice_lists;

// Bounds the memos: called at the start of each public entry point, never while nodes refer to them.
void trim_memo() {
  if (g_trans.pool.size() > (size_t{1} << 20)) g_trans = TransCache();  // 16 MiB of records at most
  if (g_choice_lists.size() > 4096) g_choice_lists.clear();
}

class Programme {
 public:
  // Nodes whose score plus the bound of what is left falls below `floor` are dropped.
  Programme(const Input& in, SearchStats* stats, int64_t floor = INT64_MIN, size_t node_limit = 0)
      : in_(in), stats_(stats), floor_(floor), node_limit_(node_limit) {
    // Take back the layers of a finished programme: their vectors keep their capacity (no malloc).
    if (!free_scratch().empty()) {
      layers_ = std::move(free_scratch().back().layers);
      free_scratch().pop_back();
    }
  }
  Programme(Programme&&) = default;
  Programme(const Programme&) = delete;
  Programme& operator=(const Programme&) = delete;
  ~Programme() {
    // Keep at most a few small sets of layers: a large programme's memory goes back to the system.
    size_t held = 0;
    for (const Layer& l : layers_) held += l.nodes.capacity() + l.index.capacity();
    if (!layers_.empty() && held < (size_t{1} << 18) && free_scratch().size() < 4) {
      free_scratch().push_back(Scratch{std::move(layers_)});
    }
  }

  // Runs the sweep; afterwards finals() lists the nodes that end legally. After set_floor() with a lower floor,
  // run() again deepens: it keeps every node and expands only what the lower floor adds (new or improved nodes,
  // and children left below the old floor), which gives the same finals as a fresh sweep at the lower floor.
  void run() {
    const int N = in_.p.numbers, C = in_.p.colours;
    if (ready_ == 0) {
      start();
      ready_ = 1;
    }
    size_t li = 0, held = 1;
    auto next = [&](size_t expect) -> Layer& {  // layer li + 1, started on first use
      if (li + 1 >= ready_) {
        layers_[li + 1].reset(expect);
        ready_ = li + 2;
      }
      return layers_[li + 1];
    };
    for (int n = 1; n <= N; ++n) {
      for (int c = 0; c < C; ++c, ++li) {
        colour_step(layers_[li], next(layers_[li].nodes.size() * 2), n, c);
        held += layers_[li + 1].nodes.size();
      }
      group_step(layers_[li], next(layers_[li].nodes.size()), n);
      held += layers_[li + 1].nodes.size();
      ++li;
      exceeded_ = node_limit_ != 0 && held > node_limit_;
      if (exceeded_ || layers_[li].nodes.empty()) {
        // No legal end (past the limit, the caller reports it; an empty layer has no successors).
        li = layers_.size() - 1;
        if (li >= ready_) layers_[li].nodes.clear();  // (not started: what it holds is another run's)
        break;
      }
    }
    last_ = li;
    if (stats_ != nullptr) ++stats_->runs;
#ifdef RUMMIKUB_TRACE
    size_t total = 0, peak = 0;
    for (size_t k = 0; k <= last_; ++k) {
      total += layers_[k].nodes.size();
      peak = std::max(peak, layers_[k].nodes.size());
    }
    fprintf(stderr, "run: jr=%d jt=%d track_p=%d track_real=%d floor=%lld states=%zu peak=%zu finals=%zu\n", in_.jr,
            in_.jt, in_.mode.track_p, in_.mode.track_real, static_cast<long long>(floor_ >> 20), total, peak,
            finals().size());
#endif
  }

  // Finds one legal end of a table-only input (arrange) depth first, remembering the states that lead nowhere;
  // afterwards finals() lists it (or nothing). On a table that can be arranged, the first complete path is
  // usually found with a few hundred expansions, where the sweep would build every state.
  void run_depth_first() {
    assert(in_.table_only);
    const int C = in_.p.colours;
    const size_t depth = start();
    // Scratch layers kept between calls (their vectors keep their capacity: no malloc once warm), the
    // thread-local looked up once (in a shared library each use costs a call).
    thread_local std::vector<Layer> tl_dead_ends;
    std::vector<Layer>& dead_ends = tl_dead_ends;
    if (dead_ends.size() < depth + 1) dead_ends.resize(depth + 1);
    for (size_t k = 0; k <= depth; ++k) {
      if (!dead_ends[k].nodes.empty() || dead_ends[k].index.empty()) dead_ends[k].reset(8);  // else still empty
    }
    // Expands the path's node at depth li (layers_[li] holds just that node).
    size_t expanded = 0;
    auto go = [&](auto&& self, size_t li) -> bool {
      if (li == depth) return ends_legally(layers_[li].nodes[0]);
      ++expanded;
      const size_t steps = static_cast<size_t>(C + 1);  // per number: C colour steps, then the group step
      const int n = static_cast<int>(li / steps) + 1, c = static_cast<int>(li % steps);
      const Node& x = layers_[li].nodes[0];
      // Tries one child, unless its state led nowhere before; returns true once a legal end is found.
      auto visit = [&](const Node& child) -> bool {
        if (dead_ends[li + 1].find(child.s) >= 0) return false;
        layers_[li + 1].nodes.assign(1, child);  // a path layer is only read by position: no index
        if (self(self, li + 1)) return true;
        dead_ends[li + 1].offer(child);
        return false;
      };
      // Steps that can only carry the node on go straight on, without a step's set-up: a group step with no
      // tile promised, and an idle colour step (with colour_step's checks and counts).
      if (c == C ? (x.s.misc & kGroupBits) == 0 : colour_idle(x, n, c)) {
        Node child;
        if (c == C) {
          child = carried(x, 0);
        } else {
          if (!carry_through_colour(x, n, c, 0, child)) return false;
          if (stats_ != nullptr) ++stats_->transitions;
        }
        if (stats_ != nullptr) ++stats_->states;
        return visit(child);
      }
      // The children are made one at a time: the first often leads to a legal end, and the others are then never
      // made. A colour step's, as table_next makes them; a group step's, as group_step would: one for each count
      // of free jokers the promised groups can take (they differ in that count, so none dominates another). The
      // input has no rack: no score, and no retrieval rule.
      Node child;
      if (c < C) {
        TableCursor cursor;
        table_begin(x, n, c, cursor);
        while (table_next(x, n, c, cursor, child)) {
          if (visit(child)) return true;
        }
        return false;
      }
      const uint64_t g = x.s.misc & kGroupBits;  // (not 0: an idle group step went straight on above)
      for (int y = 0; y <= jokers_left(st_jf(x.s)); ++y) {
        if (stats_ != nullptr) ++stats_->transitions;
        if (group_split(g, y, C, in_.mode, groups_memo_, nullptr) < 0) continue;
        child = group_child(x, 0, n, y, 0, x.score);
        if (stats_ != nullptr) ++stats_->states;
        if (visit(child)) return true;
      }
      return false;
    };
    const bool found = go(go, 0);
    last_ = depth;
    if (!found) layers_[last_].nodes.clear();
    if (stats_ != nullptr) ++stats_->runs;
    // As for the recycled layers: scratch that a hard search grew large goes back to the system. (A search of
    // a few thousand expansions cannot have grown it that far: the count is skipped.)
    size_t held = 0;
    for (size_t k = 0; k < dead_ends.size() && expanded > 4096; ++k) {
      held += dead_ends[k].nodes.capacity() + dead_ends[k].index.capacity();
    }
    if (held >= (size_t{1} << 18)) std::vector<Layer>().swap(dead_ends);
  }

  // Returns the indices of the last layer's nodes that end legally.
  std::vector<size_t> finals() const {
    std::vector<size_t> out;
    const Layer& L = layers_[last_];
    for (size_t i = 0; i < L.nodes.size(); ++i) {
      if (ends_legally(L.nodes[i])) out.push_back(i);
    }
    return out;
  }

  const Node& final_node(size_t i) const { return layers_[last_].nodes[i]; }
  // Returns the nodes the layers hold.
  size_t held() const {
    size_t n = 0;
    for (size_t k = 0; k <= last_ && k < layers_.size(); ++k) n += layers_[k].nodes.size();
    return n;
  }
  // Returns true when the run stopped at its node limit (its finals are then empty).
  bool exceeded() const { return exceeded_; }
  // Lowers the floor for the next run() (which then deepens this one).
  void set_floor(int64_t floor) { floor_ = floor; }

  // Makes this programme a guide: every state is kept (no dominance), and after run(), mark_alive() flags
  // the states of each layer from which a legal end (rack tile or not) can be reached.
  void make_guide() {
    guide_mode_ = true;
    moves_.assign(static_cast<size_t>(in_.p.numbers * (in_.p.colours + 1)), {});
  }
  void mark_alive();
  // Returns true when the guide has a legal end at all.
  bool any_alive() const { return !alive_.empty() && !alive_[0].empty() && alive_[0][0] != 0; }
  // Prunes this programme's states by a guide's (which must outlive run()).
  void set_guide(const Programme* guide) { guide_ = guide; }

  // Rebuilds the melds of a final node; fills the played tiles and value(P), and when asked, the free jokers
  // each meld leaves uncovered under the retrieval rule of `mode` (see extend).
  void rebuild(size_t final_index, std::vector<Meld>& melds, TileSet& played, int& value,
               const Mode* mode = nullptr, int* uncovered = nullptr) const;

 private:
  // Sizes the layers for a sweep and puts the empty start state in the first; returns the last layer's index.
  size_t start() {
    const int N = in_.p.numbers, C = in_.p.colours;
    for (int n = 1; n <= N; ++n) {
      if (!in_.group_ok[n]) continue;  // (no group, no promise: never asked)
      // Sums over the colours after c, from the last colour down: of their tiles, and of their tiles capped at
      // `most`. With G >= most groups, each later colour adds at most G members while the need grows by L a
      // group, so G = most is the loosest case whenever fewer than L colours are left.
      int plain = 0, capped[8] = {};
      for (int c = C - 1; c >= 0; --c) {
        const bool cap = C - c - 1 <= in_.mode.L;
        for (int most = 0; most < 8; ++most) {
          members_after_[n][c][most] = static_cast<uint8_t>(cap ? capped[most] : plain);
          capped[most] += std::min<int>(in_.avail[c][n], most);
        }
        plain += in_.avail[c][n];
      }
    }
    const size_t depth = static_cast<size_t>(N * (C + 1));
    layers_.resize(depth + 1);
    layers_[0].reset(1);
    layers_[0].offer(Node{State{{0, 0, 0, 0}, 0, 0}, 0, -1, 0, 0, false, {}});
    return depth;
  }
  struct Scratch {
    std::vector<Layer> layers;
  };
  static std::vector<Scratch>& free_scratch() {
    thread_local std::vector<Scratch> pool;
    return pool;
  }
  // Returns true when a node of the last layer is a legal end.
  bool ends_legally(const Node& x) const {
    if (x.dead) return false;
    const int jf = st_jf(x.s);
    if (jf - in_.jt < in_.jr_min || st_v(x.s) < in_.threshold) return false;
    if (in_.require_play && x.score <= 0) return false;
    int open = 0;
    for (int c = 0; c < in_.p.colours; ++c) {
      uint8_t d[8];
      const int k = unpack(x.s.cs[c], d);
      for (int j = 0; j < k; ++j) {
        if (!closable_end(d[j], in_.mode)) return false;
        open += d_uncovered(d[j]);
      }
    }
    // The retrieval rule: enough free jokers can be the retrieved ones (see extend; settled runs count none).
    return !in_.mode.track_p || jf - st_unc(x.s) - open >= in_.jt;
  }
  void colour_step(Layer& from, Layer& to, int n, int c) {
    if (in_.jr + in_.jt == 0) {
      colour_step<false>(from, to, n, c);
    } else {
      colour_step<true>(from, to, n, c);
    }
  }
  // kJokers: the input has free jokers. Without any, no node carries a joker deficit (any is more than the
  // jokers left), no joker is placed, and no run ends with an uncovered one: that code compiles away.
  template <bool kJokers>
  void colour_step(Layer& from, Layer& to, int n, int c);
  // colour_step for a table-only input (arrange) in the depth-first search: the same children of x in the same
  // order, without the rack, score and floor (the input has none), made one at a time (table_next) and not
  // merged (the search needs no index).
  struct TableCursor {
    int ga = 0, y = -1, ga_most = 0, y_most = 0;  // the (table copies to groups, free jokers) choice made last
    uint32_t ti = 0, tend = 0;                     // its transitions not yet tried
    int jf = 0, jokers = 0, deficit_others = 0, members_before = 0, most_before = 0;
    int group_deficit = 0, jokers_left = 0;
    uint64_t g = 0, misc = 0;
    uint32_t info = 0;
  };
  void table_begin(const Node& x, int n, int c, TableCursor& k) const;
  // Makes the next child of x; returns false when there is none left.
  bool table_next(const Node& x, int n, int c, TableCursor& k, Node& child) const;
  // A guide records every move (parent in layer li - 1, node in layer li), for mark_alive().
  void keep(size_t li, size_t parent, int32_t node) {
    if (guide_mode_) moves_[li - 1].emplace_back(static_cast<int32_t>(parent), node);
  }
  // Returns true unless a guide says that a state of layer li can reach no legal end.
  bool viable(size_t li, const State& s) const {
    if (guide_ == nullptr) return true;
    State bare = s;
    bare.mask = 0;
    const int32_t at = guide_->layers_[li].find(bare);
    return at >= 0 && guide_->alive_[li][static_cast<size_t>(at)] != 0;
  }
  // Returns x carried unchanged into the next layer (nothing placed, no run moved) as a child of `parent`.
  static Node carried(const Node& x, size_t parent) {
    Node y = x;
    y.parent = static_cast<int32_t>(parent);
    y.info = 0;
    y.actions = 0;
    y.dead = false;
    y.ceiling = INT64_MAX;
    y.pending = INT64_MIN;
    return y;
  }
  // Returns the jokers the runs of every colour but c need for certain (each colour's needs take their own).
  static int others_deficit(const Node& x, int c) {
    // (The deficits are at most the free jokers, so their sum fits a byte: the bytes add in one multiply.)
    static_assert(kMaxColours == 4, "four deficit bytes");
    uint32_t w;
    std::memcpy(&w, x.deficit, sizeof w);
    return static_cast<int>((w * 0x01010101U) >> 24) - x.deficit[c];
  }
  // Sets `members` and `most` to the tiles the colours before c promised to the groups g, and the most one of
  // them promised.
  static void promised_before(uint64_t g, int c, int& members, int& most) {
    members = most = 0;
    for (int y = 0; y < c; ++y) {
      const int k = g_get(g, y, 0) + g_get(g, y, 1) + g_get(g, y, 2);
      members += k;
      most = std::max(most, k);
    }
  }
  // Returns the jokers the groups promised at number n (g2, none: 0) need for certain once colour c promised k
  // tiles after the colours before it (members, most): `most` groups need max(3, L) members each, and the
  // colours after c can add members_after_ at most.
  int groups_deficit(uint64_t g2, int n, int c, int members, int most, int k) const {
    return groups_deficit(g2, std::max(3, in_.mode.L), members_after_[n][c], members, most, k);
  }
  // (The same, given max(3, L) and members_after_[n][c], which colour_step reads once.)
  static int groups_deficit(uint64_t g2, int group_size, const uint8_t* after, int members, int most, int k) {
    if (g2 == 0) return 0;
    const int m = std::max(most, k);
    return std::max(0, group_size * m - (members + k + after[std::min(m, 7)]));
  }
  // Returns x's child in colour step (n, c) through transition t: colour c's runs and joker deficit, and the
  // counts `misc`, replaced.
  static Node colour_child(const Node& x, size_t parent, int64_t score, uint32_t info, const Trans& t, int c,
                           int deficit, uint64_t misc) {
    Node y{x.s, score, static_cast<int32_t>(parent), info, t.actions, false, {}};
    std::copy(x.deficit, x.deficit + kMaxColours, y.deficit);
    y.deficit[c] = static_cast<uint8_t>(deficit);
    y.s.cs[c] = t.next;
    y.s.misc = misc;
    return y;
  }
  // Returns x's child in the group step of number n that gives the promised groups y free jokers, with this score
  // and `unc` uncovered jokers in closed melds.
  Node group_child(const Node& x, size_t parent, int n, int y, int unc, int64_t score) const {
    const int jf = st_jf(x.s);
    Node z = carried(x, parent);
    z.score = score;
    z.info = static_cast<uint32_t>(y);
    z.s.misc = with_counts(0, jf + y, unc, std::min(in_.threshold, st_v(x.s) + n * rack_jokers(jf, y)),
                           st_settled(x.s));
    settle_state(z.s);
    return z;
  }
  // Returns how far the runs of a state are settled (see extend).
  int settle_how(const State& s) const {
    if (!in_.mode.track_p) return kOpen;
    if (st_settled(s)) return kFully;
    return jokers_left(st_jf(s)) == 0 ? kPartly : kOpen;
  }
  // Settles the runs of s as far as its counts now allow: fully once the free jokers placed, less the uncovered
  // ones of closed and open melds, reach the retrieved jokers; partly once no free joker is left to place.
  void settle_state(State& s) const {
    if (!in_.mode.track_p || st_settled(s)) return;
    int open = 0;
    for (int c = 0; c < in_.p.colours; ++c) open += uncovered_of(s.cs[c]);
    const bool fully = st_jf(s) - st_unc(s) - open >= in_.jt;
    if (!fully && jokers_left(st_jf(s)) != 0) return;
    for (int c = 0; c < in_.p.colours; ++c) s.cs[c] = settle_word(s.cs[c], fully ? kFully : kPartly);
    if (fully) s.misc |= uint64_t{1} << 52;
  }
  // Returns the free jokers still to place after `jf` were.
  int jokers_left(int jf) const { return in_.jr + in_.jt - jf; }
  // Returns true when colour step (n, c) can only carry x on: no tile of (c, n), no run of colour c open,
  // and no joker that could stand there.
  bool colour_idle(const Node& x, int n, int c) const {
    return colour_idle(x, c, in_.tr[c][n] + in_.vt[c][n] + in_.rr[c][n] == 0, in_.joker_run_ok[c][n]);
  }
  // (The same, given whether (c, n) has no tile and whether a joker could stand there, which colour_step reads
  // once.)
  bool colour_idle(const Node& x, int c, bool no_tile, bool joker_here) const {
    return no_tile && x.s.cs[c] == 0 && (!joker_here || jokers_left(st_jf(x.s)) == 0);
  }
  // Carries x through an idle colour step (colour_idle) into y, with the checks colour_step makes on any
  // child (bound, opening value, joker lookahead); returns false when x does not pass them.
  bool carry_through_colour(const Node& x, int n, int c, size_t parent, Node& y) const;
  void group_step(Layer& from, Layer& to, int n);
  // Offers to `to` (layer to_layer) the children that expand(x, idx, sink) passes to sink for each live node x
  // of `from`, keeping only viable ones and recording the moves of a guide.
  template <class Expand>
  void expand_layer(Layer& from, Layer& to, size_t to_layer, Expand&& expand);

  // Returns how many of y free jokers placed now, after `placed` earlier ones, are rack jokers: P's jokers count
  // at the highest numbers any free joker stands for (the contract), and the sweep places jokers in rising
  // numbers, so the first jt free jokers placed are the table's and every later one is a rack joker.
  int rack_jokers(int placed, int y) const {
    return std::max(0, placed + y - in_.jt) - std::max(0, placed - in_.jt);
  }
  // Returns the rack jokers still to come once `placed` free jokers were placed.
  int rack_jokers_left(int placed) const { return in_.jr - std::max(0, placed - in_.jt); }
  // Returns true when an opening value v, with the rack tiles from sweep position pos on and jr_left rack
  // jokers still to come, can still reach the threshold. (The value is kept capped at the threshold: past
  // it, states that differ only in the value merge.)
  bool opening_reachable(int v, int pos, int jr_left) const {
    return v + in_.vsuffix[pos] + jr_left * in_.p.numbers >= in_.threshold;
  }
  // Returns the most the jokers can still add once `placed` free jokers were placed.
  int64_t joker_bound(int placed) const { return rack_jokers_left(placed) * in_.wj_max; }
  // Marks the nodes of a layer that another node of the layer dominates.
  void prune_dominated(Layer& layer) const;
  // Returns true when node a can do whatever node b can (given the same counts, groups and mask).
  bool dominates(const Node& a, const Node& b) const;
  // Returns the fewest jokers the runs of colour c (summarised by needs_of), open at number n, still need
  // to be finished (slots ahead without a tile); 255 when they cannot be finished at all.
  int joker_deficit(uint32_t needs, int c, int n) const { return joker_deficit(needs, deficit_at(c, n)); }
  // What joker_deficit reads of the input at (c, n), read once for a whole colour step (the input's byte arrays
  // could alias the nodes written meanwhile, so the compiler would read them again for every child).
  struct DeficitAt {
    bool last, two_left;  // n is the last number; n + 2 is a number
    int avail1, avail2, gaps;
  };
  DeficitAt deficit_at(int c, int n) const {
    const int N = in_.p.numbers;
    return DeficitAt{n == N, n + 2 <= N, n < N ? in_.avail[c][n + 1] : 0, n + 2 <= N ? in_.avail[c][n + 2] : 0,
                     in_.gaps_after[c][n]};
  }
  static int joker_deficit(uint32_t needs, const DeficitAt& at);
  // What a colour step at one sweep position reads of the input, made on the step's first node that is not
  // idle and kept for the programme's later passes (a pass at a lower floor expands few nodes per step).
  struct StepPlan {
    DeficitAt deficit_here;
    const ChoiceList* groups;  // the ways to promise the tile to groups
  };
  const StepPlan& step_plan(int n, int c);

  // Returns true when a layer has nothing to expand at this pass: no node is new or improved since its last
  // expansion, and none left a bound at or above the floor (enumerating plays, with no floor, expands all).
  bool nothing_new(const Layer& from) const {
    return (!in_.usage || floor_ != INT64_MIN) && !from.fresh && from.pending < floor_;
  }
  // Returns true when a child with this bound is to be offered at this pass: it reaches the floor, and it was not
  // offered at an earlier pass (the expanding node's ceiling_); a bound below the floor raises pending_.
  bool take(int64_t bound) const {
    if (bound < floor_) {
      pending_ = std::max(pending_, bound);
      return false;
    }
    return bound < ceiling_;
  }

  const Input& in_;
  SearchStats* stats_;
  StepPlan plans_[kMaxN * kMaxColours];
  uint64_t planned_ = 0;                     // the sweep positions whose plan is made (bit pos)
  // The thread-local memos, looked up once: in a shared library each use of a thread-local costs a call.
  TransCache& memo_ = g_trans;
  GroupsMemo& groups_memo_ = g_groups;
  CoverMemo& cover_memo_ = g_cover;
  ShareScratch& share_ = g_share;
  int64_t floor_;
  mutable int64_t ceiling_ = INT64_MAX;  // of the node being expanded (see Node::ceiling)
  mutable int64_t pending_ = INT64_MIN;  // the highest bound left below the floor by its expansion so far
  size_t ready_ = 0;                     // layers that hold this programme's nodes (run() starts them as it goes)
  size_t node_limit_;
  bool exceeded_ = false;
  std::vector<Layer> layers_;
  size_t last_ = 0;
  // Enumerating plays: a programme of the same input without usage masks, whose layers flag the states
  // that can still reach a legal end (guide_->alive_); a state whose maskless form cannot is not kept.
  const Programme* guide_ = nullptr;
  // The most members the colours after c can add to groups of number n, by the largest group count so far
  // (colour_step's group lookahead; filled by start()).
  uint8_t members_after_[kMaxN][kMaxColours][8] = {};
  std::vector<std::vector<uint8_t>> alive_;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> moves_;  // a guide's moves out of each layer
  bool guide_mode_ = false;  // a guide keeps every state (a dominated one may be another's only way on)
};

inline int Programme::joker_deficit(uint32_t needs, const DeficitAt& at) {
  constexpr int kNever = 255;
  if (at.last) return (needs & 0xFF) != 0 ? kNever : 0;
  const int need1 = (needs >> 8) & 0xFF;
  const int need2 = ((needs >> 16) & 0xFF) + (at.two_left ? (needs >> 24) & 0xF : 0);
  if (need2 > 0 && !at.two_left) return kNever;
  // Slots at n + 1 and at n + 2 without a tile each take their own joker.
  const int near = std::max(0, need1 - (need1 > 0 ? at.avail1 : 0)) + std::max(0, need2 - (need2 > 0 ? at.avail2 : 0));
  // A lead run goes on to the last number: jokers must fill every number left without a tile.
  return (needs >> 28) & 1 ? std::max(near, at.gaps) : near;
}

bool Programme::carry_through_colour(const Node& x, int n, int c, size_t parent, Node& y) const {
  const int C = in_.p.colours, pos = (n - 1) * C + c;
  const int jf = st_jf(x.s);
  if (!take(x.score + in_.suffix[pos + 1] + joker_bound(jf))) return false;
  if (!opening_reachable(st_v(x.s), pos + 1, rack_jokers_left(jf))) return false;
  // The jokers the other colours' runs and the promised groups need for certain.
  const uint64_t g = x.s.misc & kGroupBits;
  int members = 0, most = 0;
  if (g != 0) promised_before(g, c, members, most);
  if (others_deficit(x, c) + groups_deficit(g, n, c, members, most, 0) > jokers_left(jf)) return false;
  y = carried(x, parent);
  y.deficit[c] = 0;
  return true;
}

const Programme::StepPlan& Programme::step_plan(int n, int c) {
  const int pos = (n - 1) * in_.p.colours + c;
  StepPlan& plan = plans_[pos];
  if ((planned_ >> pos & 1) != 0) return plan;
  planned_ |= uint64_t{1} << pos;
  plan.deficit_here = deficit_at(c, n);
  const int a = in_.tr[c][n], v = in_.vt[c][n], o = in_.rr[c][n], omin = in_.rmin[c][n];
  // Only numbers where some group can form at all offer tiles to groups.
  const int gmax = in_.group_ok[n] ? 7 : 0;
  const bool track_p = in_.mode.track_p;
  const uint32_t key =
      static_cast<uint32_t>(a | v << 3 | o << 6 | omin << 9 | (gmax != 0) << 12 | track_p << 13 | c << 14);
  const auto [at, made] = g_choice_lists.try_emplace(key);
  ChoiceList& list = at->second;
  plan.groups = &list;
  if (!made) return plan;
  // Every way to promise table copies (ga), staying jokers (gv) and rack copies (gb) to groups, by b.
  for (int b = omin; b <= o; ++b) {
    list.begin[b] = static_cast<uint32_t>(list.choices.size());
    for (int ga = 0; ga <= std::min(a, gmax); ++ga) {
      for (int gv = 0; gv <= std::min(v, gmax); ++gv) {
        for (int gb = 0; gb <= std::min(b, gmax); ++gb) {
          // A table copy and a rack copy of one tile can swap between a group and a run (both stay placed),
          // unless rack tiles are counted for retrieved jokers: promise table copies to groups first.
          if (gb > 0 && ga < a && !track_p) break;
          list.choices.push_back(GroupChoice{static_cast<uint64_t>(ga | gv << 3 | gb << 6) << (9 * c),
                                             {a - ga, v - gv, b - gb}, ga + gv + gb,
                                             static_cast<uint32_t>(b | ga << 4 | gv << 8 | gb << 12),
                                             slot_bits(kTR, a - ga) | slot_bits(kVT, v - gv) | slot_bits(kRR, b - gb)});
        }
      }
    }
  }
  list.begin[o + 1] = static_cast<uint32_t>(list.choices.size());
  return plan;
}

template <bool kJokers>
void Programme::colour_step(Layer& from, Layer& to, int n, int c) {
  if (nothing_new(from)) return;  // (before the step reads anything: later passes skip most layers)
  const size_t before = to.nodes.size();
  const int pos = (n - 1) * in_.p.colours + c;
  const int o = in_.rr[c][n], omin = in_.rmin[c][n];
  // The joker choices at this slot that pass the floor, for one node and one b (in loop order).
  struct JokerChoice {
    int y, yr, jokers_left;  // free jokers placed here, how many of them are rack jokers, free jokers left after
    int64_t score;
  };
  JokerChoice choices[kMaxJokers + 1];
  TransCache& memo = memo_;
  const size_t to_layer = static_cast<size_t>(pos + n);  // the index of layer `to`: C + 1 layers a number
  const StepPlan* plan = nullptr;  // made on the first node that is not idle
  const GroupChoice* group_choice = nullptr;
  const int64_t w_tile = in_.w_rr[n], w_joker = in_.w_rj[n], suffix_after = in_.suffix[pos + 1];
  const bool joker_here = in_.joker_run_ok[c][n], opening = in_.threshold > 0, usage = in_.usage;
  const bool track_p = in_.mode.track_p;
  const int threshold = in_.threshold, rack_jokers_all = in_.jr;
  const int group_size = std::max(3, in_.mode.L);
  const uint8_t* const members_after = members_after_[n][c];
  // Calls sink(y) for every child y of node x (number idx of `from`), in a fixed order.
  auto expand = [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
    if (plan == nullptr) {
      plan = &step_plan(n, c);
      group_choice = plan->groups->choices.data();
    }
    const DeficitAt deficit_here = plan->deficit_here;
    const int jf = st_jf(x.s), val = st_v(x.s), unc = st_unc(x.s);
    const int how = settle_how(x.s);
    const uint32_t key = transition_key(in_.mode, how);
    const int left = kJokers ? jokers_left(jf) : 0;
    const int y_most = kJokers && joker_here ? left : 0;
    const uint64_t g = x.s.misc & kGroupBits;
    const int deficit_others = kJokers ? others_deficit(x, c) : 0;
    // Tiles promised to groups need enough company (groups_deficit); the colours before c are fixed for this node.
    int members_before, most_before;
    promised_before(g, c, members_before, most_before);
    for (int b = omin; b <= o; ++b) {
      uint64_t mask = x.s.mask;
      if (usage) {
        for (int k = 0; k < b; ++k) mask |= 1ULL << (in_.bit[c][n] + k);
      }
      int nchoices = 0;
      for (int y = 0; y <= y_most; ++y) {
        const int yr = kJokers ? rack_jokers(jf, y) : 0;
        const int64_t score = x.score + b * w_tile + yr * w_joker;
        if (!take(score + suffix_after + (kJokers ? joker_bound(jf + y) : 0))) continue;
        if (opening && !opening_reachable(val + n * (b + yr), pos + 1, rack_jokers_left(jf + y))) continue;
        choices[nchoices++] = JokerChoice{y, yr, left - y, score};
      }
      if (nchoices == 0) continue;
      for (uint32_t gi = plan->groups->begin[b]; gi < plan->groups->begin[b + 1]; ++gi) {
        const GroupChoice& gc = group_choice[gi];
        const uint64_t g2 = g | gc.bits;
        // Jokers the promised groups need for certain (their slots are distinct from the runs').
        const int group_deficit =
            groups_deficit(g2, group_size, members_after, members_before, most_before, gc.k);
        for (int ci = 0; ci < nchoices; ++ci) {
          const JokerChoice& ch = choices[ci];
          if (deficit_others + group_deficit > ch.jokers_left) continue;
          const int slots[kSlots] = {gc.rest[0], gc.rest[1], gc.rest[2], ch.y};
          const auto [tbegin, tcount] =
              transitions(memo, x.s.cs[c], key | gc.key | slot_bits(kFJ, ch.y), slots, in_.mode, how);
          if (tcount == 0) continue;
          const int nv = std::min(threshold, val + n * (b + ch.yr));
          const uint64_t misc = with_counts(g2, jf + ch.y, unc, nv, how == kFully);
          // Placing a joker or a rack tile may settle the runs further.
          const bool resettle = track_p && how != kFully && (ch.y > 0 || b > 0);
          const uint32_t info = gc.info | static_cast<uint32_t>(ch.y) << 16;
          for (uint32_t ti = tbegin; ti < tbegin + tcount; ++ti) {
            const Trans& t = memo.pool[ti];
            const int deficit = joker_deficit(t.needs, deficit_here);
            if (deficit_others + group_deficit + deficit > ch.jokers_left) continue;
            // Runs ended with uncovered jokers (never once settled): only rack jokers can be those.
            if (kJokers && unc + t.uncovered() > rack_jokers_all) continue;
            Node y = colour_child(x, idx, ch.score, info, t, c, deficit,
                                  kJokers ? misc + (static_cast<uint64_t>(t.uncovered()) << 39) : misc);
            y.s.mask = mask;
            if (resettle) settle_state(y.s);
            sink(y);
          }
          if (stats_ != nullptr) stats_->transitions += tcount;
        }
      }
    }
  };
  const bool no_tile = in_.tr[c][n] + in_.vt[c][n] + o == 0;
  expand_layer(from, to, to_layer, [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
    if (colour_idle(x, c, no_tile, joker_here)) {
      // The general path's only choice, with its checks and its count, without the transition lookup.
      Node y;
      if (!carry_through_colour(x, n, c, idx, y)) return;
      if (stats_ != nullptr) ++stats_->transitions;
      sink(y);
    } else {
      expand(x, idx, sink);
    }
  });
  if (stats_ != nullptr) stats_->states += to.nodes.size() - before;
}

void Programme::table_begin(const Node& x, int n, int c, TableCursor& k) const {
  k = TableCursor{};
  k.ga_most = std::min<int>(in_.tr[c][n], in_.group_ok[n] ? 7 : 0);
  k.jf = st_jf(x.s);
  k.jokers = jokers_left(k.jf);
  k.y_most = in_.joker_run_ok[c][n] ? k.jokers : 0;
  k.g = x.s.misc & kGroupBits;
  k.deficit_others = others_deficit(x, c);
  promised_before(k.g, c, k.members_before, k.most_before);
}

bool Programme::table_next(const Node& x, int n, int c, TableCursor& k, Node& child) const {
  while (true) {
    while (k.ti < k.tend) {
      const Trans& t = memo_.pool[k.ti++];
      const int deficit = joker_deficit(t.needs, c, n);
      if (k.deficit_others + k.group_deficit + deficit > k.jokers_left) continue;
      child = colour_child(x, 0, 0, k.info, t, c, deficit, k.misc);
      if (stats_ != nullptr) ++stats_->states;
      return true;
    }
    // The next (ga, y) choice, ga outer (as colour_step orders them).
    if (++k.y > k.y_most) {
      k.y = 0;
      if (++k.ga > k.ga_most) return false;
    }
    const uint64_t g2 = k.g | static_cast<uint64_t>(k.ga) << (9 * c);
    k.group_deficit = groups_deficit(g2, n, c, k.members_before, k.most_before, k.ga);
    k.jokers_left = k.jokers - k.y;
    k.ti = k.tend = 0;
    if (k.deficit_others + k.group_deficit > k.jokers_left) continue;
    const int slots[kSlots] = {in_.tr[c][n] - k.ga, 0, 0, k.y};
    const auto [tbegin, tcount] = transitions(memo_, x.s.cs[c], slots, in_.mode, kOpen);
    if (stats_ != nullptr) stats_->transitions += tcount;
    k.ti = tbegin;
    k.tend = tbegin + tcount;
    k.misc = with_counts(g2, k.jf + k.y, 0, 0, false);
    k.info = static_cast<uint32_t>(k.ga << 4 | k.y << 16);
  }
}

void Programme::group_step(Layer& from, Layer& to, int n) {
  if (nothing_new(from)) return;
  const size_t before = to.nodes.size();
  const size_t to_layer = static_cast<size_t>(n * (in_.p.colours + 1));
  expand_layer(from, to, to_layer, [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
    const uint64_t g = x.s.misc & kGroupBits;
    const int jf = st_jf(x.s), val = st_v(x.s), unc = st_unc(x.s);
    if (g == 0) {
      Node y = carried(x, idx);
      settle_state(y.s);  // (the number's rack tiles may have covered jokers)
      sink(y);
      return;
    }
    // Uncovered jokers of the groups count until the runs are settled (after that, nothing can break the rule).
    const bool count = in_.mode.track_p && !st_settled(x.s);
    for (int y = 0; y <= jokers_left(jf); ++y) {
      if (stats_ != nullptr) ++stats_->transitions;
      const int yr = rack_jokers(jf, y);
      const int64_t score = x.score + yr * in_.w_rj[n];
      if (!take(score + in_.suffix[n * in_.p.colours] + joker_bound(jf + y))) continue;
      if (!opening_reachable(val + n * yr, n * in_.p.colours, rack_jokers_left(jf + y))) continue;
      const int split = group_split(g, y, in_.p.colours, in_.mode, groups_memo_, nullptr);
      if (split < 0 || (count && unc + split > in_.jr)) continue;
      sink(group_child(x, idx, n, y, count ? unc + split : unc, score));
    }
  });
  if (stats_ != nullptr) stats_->states += to.nodes.size() - before;
  if (!guide_mode_ && to.fresh) prune_dominated(to);  // (else it has not changed since it was last pruned)
}

template <class Expand>
void Programme::expand_layer(Layer& from, Layer& to, size_t to_layer, Expand&& expand) {
  // Enumerating plays (usage masks, no floor), many nodes share their state but for the mask: their children
  // differ only in mask, score and parent. The first node of each such state expands; the others copy its
  // children (the same children in the same order: the result is the same as expanding each).
  if (!in_.usage || floor_ != INT64_MIN) {  // (its callers return first when nothing_new(from))
    int64_t pending = INT64_MIN;
    // (from is not to: offering children never moves these nodes)
    Node* const nodes = from.nodes.data();
    const size_t count = from.nodes.size();
    for (size_t idx = 0; idx < count; ++idx) {
      Node& x = nodes[idx];
      if (x.dead) continue;
      if (x.ceiling == INT64_MAX || x.pending >= floor_) {  // (else nothing new at this floor)
        ceiling_ = x.ceiling;
        pending_ = INT64_MIN;
        expand(x, idx, [&](const Node& y) {
          if (viable(to_layer, y.s)) keep(to_layer, idx, to.offer(y));
        });
        x.ceiling = floor_;
        x.pending = pending_;
      }
      pending = std::max(pending, x.pending);
    }
    from.fresh = false;
    from.pending = pending;
    return;
  }
  ceiling_ = INT64_MAX;
  using Shared = ShareScratch::Shared;
  std::vector<Node>& made = share_.made;
  std::vector<Shared>& shared = share_.shared;
  std::vector<int32_t>& by_state = share_.by_state;
  made.clear();
  shared.clear();
  size_t cap = 16;
  while (cap < from.nodes.size() * 2) cap <<= 1;
  by_state.assign(cap, -1);
  for (size_t idx = 0; idx < from.nodes.size(); ++idx) {
    const Node& x = from.nodes[idx];
    if (x.dead) continue;
    State bare = x.s;
    bare.mask = 0;
    size_t i = Layer::hash(bare) & (cap - 1);
    for (; by_state[i] >= 0; i = (i + 1) & (cap - 1)) {
      State other = from.nodes[shared[static_cast<size_t>(by_state[i])].first].s;
      other.mask = 0;
      if (other == bare) break;
    }
    if (by_state[i] < 0) {
      by_state[i] = static_cast<int32_t>(shared.size());
      const uint64_t before = stats_ != nullptr ? stats_->transitions : 0;
      const size_t begin = made.size();
      expand(x, idx, [&](const Node& y) {
        if (viable(to_layer, y.s)) made.push_back(y);
      });
      shared.push_back(Shared{idx, begin, made.size(), stats_ != nullptr ? stats_->transitions - before : 0});
      for (size_t k = begin; k < made.size(); ++k) to.offer(made[k]);
      continue;
    }
    const Shared& sh = shared[static_cast<size_t>(by_state[i])];
    const Node& first = from.nodes[sh.first];
    for (size_t k = sh.begin; k < sh.end; ++k) {
      Node y = made[k];
      y.score += x.score - first.score;
      y.parent = static_cast<int32_t>(idx);
      y.s.mask = x.s.mask | (y.s.mask & ~first.s.mask);  // the rack tiles this step adds
      to.offer(y);
    }
    if (stats_ != nullptr) stats_->transitions += sh.transitions;
  }
}

void Programme::mark_alive() {
  alive_.assign(last_ + 1, {});
  if (exceeded_) return;
  const Layer& end = layers_[last_];
  alive_[last_].resize(end.nodes.size());
  bool any = false;
  for (size_t i = 0; i < end.nodes.size(); ++i) {
    alive_[last_][i] = ends_legally(end.nodes[i]) ? 1 : 0;
    any |= alive_[last_][i] != 0;
  }
  if (!any) return;
  // Backwards over the recorded moves: a state is alive when one of its moves leads to a live state.
  for (size_t li = last_; li-- > 0;) {
    alive_[li].assign(layers_[li].nodes.size(), 0);
    for (const auto& [parent, node] : moves_[li]) {
      if (alive_[li + 1][static_cast<size_t>(node)] != 0) alive_[li][static_cast<size_t>(parent)] = 1;
    }
  }
}

bool Programme::dominates(const Node& a, const Node& b) const {
  for (int c = 0; c < in_.p.colours; ++c) {
    const uint64_t x = a.s.cs[c], y = b.s.cs[c];
    if (x != y && !cover_memo_.covers(x, y, in_.mode)) return false;
  }
  return true;
}

void Programme::prune_dominated(Layer& layer) const {
  // A node is dead when another node of its layer, with a score as high, the same counts, groups and rack tiles
  // used, has runs that can do whatever its runs can in every colour (runs_cover): whatever the weaker node can
  // still reach, the stronger reaches with as high a score. Only pairs with a node that is new or improved
  // since the layer was last expanded (Node::ceiling) can have changed.
  const size_t K = layer.nodes.size();
  if (K < 2) return;
  const size_t added = layer.bucket_new(in_.p.colours, in_.mode.L);
  Node* const nodes = layer.nodes.data();
  int32_t* const head = layer.bucket_head.data();
  int32_t* const next = layer.bucket_next.data();
  const RunsSummary* const summary = layer.summary.data();
  // Each bucket is a chain through `next`, from its last node down. Each new node is compared with the others of
  // its bucket (a pair of new nodes once, from the later one): a node added since the last call with those below
  // it in its chain, one improved since with the whole chain. Dead nodes met on the way leave the chain (one that
  // an improvement revives is then compared as a new node, from its side only).
  for (size_t i = 0; i < K; ++i) {
    Node& x = nodes[i];
    if (x.dead || x.ceiling != INT64_MAX) continue;
    for (int32_t *link = i >= added ? &next[i] : &head[layer.bucket_of[i]], j = *link; j >= 0; j = *link) {
      Node& o = nodes[j];
      if (o.dead) {
        *link = next[j];
        continue;
      }
      link = &next[j];
      if (static_cast<size_t>(j) == i) continue;
      if (static_cast<size_t>(j) > i && o.ceiling == INT64_MAX) continue;  // (a new pair: compared from j)
      if (o.score >= x.score && summary[j].covers(summary[i]) && dominates(o, x)) {
        x.dead = true;
        break;
      }
      if (x.score >= o.score && summary[i].covers(summary[j]) && dominates(x, o)) o.dead = true;
    }
  }
}

// A run being rebuilt: its descriptor as the programme saw it, first number, and slots.
struct RunBuild {
  uint8_t desc;
  uint8_t start;
  uint8_t len;
  uint8_t slots[kMaxN];
};
// A colour's open runs (at most 8: the state packs 8 descriptors).
struct RunList {
  RunBuild at[8];
  int size = 0;
};

// Returns the groups rebuilt from promised tiles (as group_split fills them), remembered per key: listing
// plays rebuilds the same few group steps over and over.
const std::vector<GroupBuild>& group_build(uint64_t g, int jokers, int colours, const Mode& m) {
  thread_local std::unordered_map<uint64_t, std::vector<GroupBuild>> tl_memo;
  std::unordered_map<uint64_t, std::vector<GroupBuild>>& memo = tl_memo;  // (a thread-local looked up once)
  const uint64_t key = group_key(g, jokers, colours, m);
  auto it = memo.find(key);
  if (it != memo.end()) return it->second;
  if (memo.size() > (size_t{1} << 14)) memo.clear();  // bounded; the keys seen in practice are few
  std::vector<GroupBuild> groups;
  const int split = group_split(g, jokers, colours, m, g_groups, &groups);
  assert(split >= 0);
  (void)split;
  return memo.emplace(key, std::move(groups)).first->second;
}

void Programme::rebuild(size_t final_index, std::vector<Meld>& melds, TileSet& played, int& value, const Mode* mode,
                        int* uncovered) const {
  // Walk back to collect the node of every layer on the path.
  const Node* path[kMaxN * (kMaxColours + 1) + 1];
  size_t i = final_index;
  for (size_t li = last_ + 1; li-- > 0;) {
    path[li] = &layers_[li].nodes[i];
    if (li > 0) i = static_cast<size_t>(path[li]->parent);
  }
  const int N = in_.p.numbers, C = in_.p.colours;
  RunList runs[kMaxColours];
  value = 0;
  // value(P): P's numbered tiles, plus P's jokers (every free joker but the table's jt) at the highest numbers
  // any free joker stands for.
  int free_slots[2 * kMaxJokers];
  int nfree = 0;
  if (uncovered != nullptr) *uncovered = 0;
  auto count_uncovered = [&](int rack, int jokers) {
    if (uncovered != nullptr) *uncovered += meld_uncovered(jokers, rack, mode->r);
  };
  auto finish_run = [&](int c, const RunBuild& r) {
    Meld m{MeldKind::Run, c, r.start, r.len, 0, 0};
    int rack = 0, jokers = 0;
    for (int k = 0; k < r.len; ++k) {
      const int s = r.slots[k], number = r.start + k;
      if (!slot_real(s)) m.joker_slots |= 1u << k;
      if (s == kRR) {
        played.add(tile_code(c, number));
        value += number;
        ++rack;
      }
      if (s == kFJ) {
        free_slots[nfree++] = number;
        ++jokers;
      }
    }
    count_uncovered(rack, jokers);
    melds.push_back(m);
  };
  // Keeps each colour's runs in the order of the state's packed descriptors (descending), settling them
  // as the programme did once the retrieval rule was met for certain. (A stable insertion sort: at most 8 runs.)
  auto sort_runs = [&](RunList& rs) {
    for (int k = 1; k < rs.size; ++k) {
      for (int j = k; j > 0 && rs.at[j - 1].desc < rs.at[j].desc; --j) std::swap(rs.at[j - 1], rs.at[j]);
    }
  };
  auto settle_runs = [&](const Node& x, int changed) {
    if (!in_.mode.track_p) {
      if (changed >= 0) sort_runs(runs[changed]);
      return;
    }
    const int how = settle_how(x.s);
    for (int c = 0; c < C; ++c) {
      if (how != kOpen) {
        for (int k = 0; k < runs[c].size; ++k) runs[c].at[k].desc = settle(runs[c].at[k].desc, how);
      }
      if (how != kOpen || c == changed) sort_runs(runs[c]);
    }
  };
  size_t li = 1;
  for (int n = 1; n <= N; ++n) {
    for (int c = 0; c < C; ++c, ++li) {
      const Node& x = *path[li];
      // Nothing placed, no run open, nothing to settle: the step changes nothing (most steps of a play).
      if (x.info == 0 && runs[c].size == 0 && in_.tr[c][n] == 0 && in_.vt[c][n] == 0 && !in_.mode.track_p) continue;
      const int b = x.info & 15, ga = (x.info >> 4) & 15, gv = (x.info >> 8) & 15, gb = (x.info >> 12) & 15;
      int rem[kSlots] = {in_.tr[c][n] - ga, in_.vt[c][n] - gv, b - gb, static_cast<int>(x.info >> 16) & 15};
      // The runs that go on are compacted to the front in place (their order kept), then new runs follow.
      RunList& next = runs[c];
      const uint32_t actions = x.actions;
      const int old_size = next.size;
      next.size = 0;
      for (int j = 0; j < old_size; ++j) {
        const int act = static_cast<int>((actions >> (3 * j)) & 7);
        if (act == 0) {
          finish_run(c, next.at[j]);
        } else {
          RunBuild& r = next.at[next.size++];
          if (&r != &next.at[j]) r = next.at[j];
          r.slots[r.len++] = static_cast<uint8_t>(act - 1);
          r.desc = extend(r.desc, act - 1, in_.mode);
          --rem[act - 1];
        }
      }
      for (int s = 0; s < kSlots; ++s) {
        for (int k = 0; k < rem[s]; ++k) {
          RunBuild& r = next.at[next.size++];
          r.desc = extend(0, s, in_.mode);
          r.start = static_cast<uint8_t>(n);
          r.len = 1;
          r.slots[0] = static_cast<uint8_t>(s);
        }
      }
      settle_runs(x, c);
    }
    // The group step of number n: rebuild the groups from the promised tiles.
    const Node& prev = *path[li - 1];
    const Node& x = *path[li];
    const uint64_t g = prev.s.misc & kGroupBits;
    if (g != 0) {
      for (const GroupBuild& gb : group_build(g, x.info & 15, C, in_.mode)) {
        Meld m{MeldKind::Group, 0, n, gb.size + gb.jokers, 0, 0};
        int rack = 0;
        for (int k = 0; k < gb.size; ++k) {
          const GroupMember& mem = gb.members[k];
          if (slot_real(mem.slot)) m.colours |= 1u << mem.colour;
          if (mem.slot == kRR) {
            played.add(tile_code(mem.colour, n));
            value += n;
            ++rack;
          }
        }
        count_uncovered(rack, gb.jokers);
        for (int k = 0; k < gb.jokers; ++k) free_slots[nfree++] = n;
        melds.push_back(m);
      }
    }
    settle_runs(x, -1);
    ++li;
  }
  for (int c = 0; c < C; ++c) {
    for (int k = 0; k < runs[c].size; ++k) finish_run(c, runs[c].at[k]);
  }
  for (int k = 1; k < nfree; ++k) {  // descending (a handful of jokers)
    for (int j = k; j > 0 && free_slots[j - 1] < free_slots[j]; --j) std::swap(free_slots[j - 1], free_slots[j]);
  }
  const int rack_jokers = nfree - in_.jt;
  if (rack_jokers > 0) played.add(kJoker, rack_jokers);
  for (int k = 0; k < rack_jokers; ++k) value += free_slots[k];
}

// ---------------------------------------------------------------------------------------------------
// Orchestration: inputs from a position, joker options, openings.

// One unit of a key's primary part (a tile of the tiles objective, a point otherwise); the secondary fits below.
constexpr int64_t kUnit = int64_t{1} << 20;

void set_weights(Input& in, Objective obj, int joker_penalty) {
  for (int64_t n = 0; n < kMaxN; ++n) {
    switch (obj) {
      case Objective::Tiles:
        in.w_rr[n] = in.w_rj[n] = kUnit + n;
        break;
      case Objective::Value:
        in.w_rr[n] = in.w_rj[n] = n * kUnit + 1;
        break;
      case Objective::Penalty:
        in.w_rr[n] = n * kUnit + 1;
        in.w_rj[n] = joker_penalty * kUnit + 1;
        break;
    }
  }
}

void add_tiles(uint8_t dst[kMaxColours][kMaxN], const TileSet& s, const Params& p) {
  for (int c = 0; c < p.colours; ++c) {
    for (int n = 1; n <= p.numbers; ++n) dst[c][n] = static_cast<uint8_t>(dst[c][n] + s.at(c, n));
  }
}

void finish_mode(Input& in) {
  int vtot = 0;
  for (int c = 0; c < in.p.colours; ++c) {
    for (int n = 1; n <= in.p.numbers; ++n) vtot += in.vt[c][n];
  }
  in.mode.L = in.p.min_len;
  in.mode.track_real = in.jr + in.jt + vtot >= in.p.min_len;
  if (!in.mode.track_p) in.mode.r = 0;
  in.mode.strict = in.mode.track_p && in.jr == 0;
}

void set_usage(Input& in, const TileSet& rack) {
  in.usage = true;
  int bit = 0;
  for (int c = 0; c < in.p.colours; ++c) {
    for (int n = 1; n <= in.p.numbers; ++n) {
      in.bit[c][n] = static_cast<uint8_t>(bit);
      bit += rack.at(c, n);
    }
  }
}

// Each way a table's jokers can stay or be retrieved (RULES.md §8), as programme inputs.
void joker_inputs(const std::vector<Meld>& table, const Input& base, const SearchRules& rules, bool allow_retrieval,
                  std::vector<Input>& out) {
  // Per meld: the list of options, each a list of (tile, retrieved) pairs.
  struct Choice {
    std::vector<std::pair<int, bool>> jokers;
  };
  std::vector<std::vector<Choice>> per_meld;
  for (const Meld& m : table) {
    const int k = m.jokers();
    if (k == 0) continue;
    std::vector<int> tiles;  // run: the slots; group: the missing colours' tiles
    if (m.kind == MeldKind::Run) {
      for (int i = 0; i < m.length; ++i) {
        if (m.joker_slots >> i & 1) tiles.push_back(m.run_slot(i));
      }
    } else {
      for (int c = 0; c < rules.p.colours; ++c) {
        if (!(m.colours >> c & 1)) tiles.push_back(tile_code(c, m.number));
      }
    }
    std::vector<Choice> options;
    const int nt = static_cast<int>(tiles.size());
    // Choose which tiles the k jokers stand for (all for a run; a k-subset of missing colours for a group),
    // then stay/retrieve for each.
    for (uint32_t sub = 0; sub < (1u << nt); ++sub) {
      if (__builtin_popcount(sub) != k) continue;
      std::vector<int> chosen;
      for (int i = 0; i < nt; ++i) {
        if (sub >> i & 1) chosen.push_back(tiles[static_cast<size_t>(i)]);
      }
      const uint32_t ways = allow_retrieval ? (1u << k) : 1u;
      for (uint32_t rmask = 0; rmask < ways; ++rmask) {
        Choice ch;
        for (int i = 0; i < k; ++i) ch.jokers.emplace_back(chosen[static_cast<size_t>(i)], (rmask >> i & 1) != 0);
        options.push_back(ch);
      }
    }
    per_meld.push_back(std::move(options));
  }
  std::vector<size_t> pick(per_meld.size(), 0);
  std::vector<std::vector<uint8_t>> seen;
  while (true) {
    Input in = base;
    int need[kCodes] = {0};
    int retrieved = 0;
    for (size_t i = 0; i < per_meld.size(); ++i) {
      for (const auto& [tile, ret] : per_meld[i][pick[i]].jokers) {
        if (ret) {
          ++retrieved;
          ++need[tile];
        } else {
          ++in.vt[tile_colour(tile)][tile_number(tile)];
        }
      }
    }
    bool ok = true;
    for (int t = 0; t < kCodes && ok; ++t) {
      if (need[t] == 0) continue;
      const int c = tile_colour(t), n = tile_number(t);
      const int from_rack = rules.policy == JokerPolicy::ReplaceFromRack ? need[t] : std::max(0, need[t] - in.tr[c][n]);
      if (from_rack > in.rr[c][n]) ok = false;
      in.rmin[c][n] = static_cast<uint8_t>(std::max<int>(in.rmin[c][n], from_rack));
    }
    if (ok) {
      in.jt = retrieved;
      in.mode.track_p = retrieved > 0;
      in.mode.r = rules.policy == JokerPolicy::ReplaceFromRack ? 2 : 1;
      finish_mode(in);
      // Skip inputs equal to one already listed (different readings can coincide).
      const auto* vt = reinterpret_cast<const uint8_t*>(in.vt);
      const auto* rmin = reinterpret_cast<const uint8_t*>(in.rmin);
      std::vector<uint8_t> sig(vt, vt + sizeof in.vt);
      sig.insert(sig.end(), rmin, rmin + sizeof in.rmin);
      sig.push_back(static_cast<uint8_t>(in.jt));
      if (std::find(seen.begin(), seen.end(), sig) == seen.end()) {
        seen.push_back(sig);
        out.push_back(in);
      }
    }
    size_t i = 0;
    while (i < pick.size() && ++pick[i] == per_meld[i].size()) pick[i++] = 0;
    if (i == pick.size()) break;
  }
}

bool table_ok(const std::vector<Meld>& table, const Params& p, TileSet& tiles) {
  for (const Meld& m : table) {
    if (check_meld(m, p) != MeldError::Ok) return false;
    const TileSet t = m.tiles();
    if (!sum_fits(tiles, t)) return false;
    tiles = sum(tiles, t);
  }
  return true;
}

// The opening on its own: new melds from the rack, table untouched, value at least the threshold.
Input opening_input(const TileSet& rack, const SearchRules& rules) {
  Input in;
  in.p = rules.p;
  add_tiles(in.rr, rack, rules.p);
  in.jr = rules.joker_in_opening ? rack.jokers : 0;
  in.threshold = std::min(rules.opening_threshold, 1023);
  finish_mode(in);
  return in;
}

// Inputs of every programme run a position needs (one per joker option or opening subset).
std::vector<Input> position_inputs(const std::vector<Meld>& table, const TileSet& table_tiles, const TileSet& rack,
                                   const SearchRules& rules, bool opened, bool usage, Objective obj,
                                   bool& table_untouched, SearchStats* stats) {
  std::vector<Input> inputs;
  const bool opening = !opened && rules.opening_threshold > 0;
  table_untouched = opening && !rules.extend_after_opening;
  if (table_untouched) {
    Input in = opening_input(rack, rules);
    set_weights(in, obj, rules.joker_penalty);
    if (usage) set_usage(in, rack);
    prepare(in);
    inputs.push_back(in);
    return inputs;
  }
  Input base;
  base.p = rules.p;
  TileSet numbered = table_tiles;
  numbered.jokers = 0;
  add_tiles(base.tr, numbered, rules.p);
  add_tiles(base.rr, rack, rules.p);
  base.jr = rack.jokers;
  set_weights(base, obj, rules.joker_penalty);
  if (usage) set_usage(base, rack);
  std::vector<Input> joker_options;
  if (rules.policy == JokerPolicy::Free) {
    base.jt = table_tiles.jokers;
    finish_mode(base);
    joker_options.push_back(base);
  } else {
    joker_inputs(table, base, rules, !opening, joker_options);
    // Keeping every joker is the cheapest run and gives the others a floor. Then the most retrieved jokers
    // first: they most often play the most tiles, and a high key found early prunes the runs after it.
    std::stable_sort(joker_options.begin(), joker_options.end(), [](const Input& x, const Input& y) {
      return (x.jt == 0) != (y.jt == 0) ? x.jt == 0 : x.jt > y.jt;
    });
  }
  if (!opening) {
    for (Input& in : joker_options) prepare(in);
    return joker_options;
  }
  // Opening with extension: some sub-multiset P1 of the rack must open on its own. Enumerate the minimal
  // such P1 and force each onto the table in turn.
  Input open_in = opening_input(rack, rules);
  if (!rules.joker_in_opening) open_in.jr = 0;
  set_weights(open_in, Objective::Tiles, rules.joker_penalty);
  set_usage(open_in, rack);
  prepare(open_in);
  Programme prog(open_in, stats);
  prog.run();
  std::vector<TileSet> subsets;
  for (size_t f : prog.finals()) {
    std::vector<Meld> melds;
    TileSet p1;
    int value = 0;
    prog.rebuild(f, melds, p1, value);
    subsets.push_back(p1);
  }
  std::sort(subsets.begin(), subsets.end(), [](const TileSet& a, const TileSet& b) { return a.size() < b.size(); });
  std::vector<TileSet> minimal;
  for (const TileSet& s : subsets) {
    bool dominated = false;
    for (const TileSet& m : minimal) dominated |= contains(s, m);
    if (!dominated) minimal.push_back(s);
  }
  for (const TileSet& p1 : minimal) {
    for (const Input& jo : joker_options) {
      Input in = jo;
      for (int c = 0; c < rules.p.colours; ++c) {
        for (int n = 1; n <= rules.p.numbers; ++n) {
          in.rmin[c][n] = static_cast<uint8_t>(std::max<int>(in.rmin[c][n], p1.at(c, n)));
        }
      }
      in.jr_min = std::max(in.jr_min, p1.jokers);
      prepare(in);
      inputs.push_back(in);
    }
  }
  return inputs;
}

// (mode, uncovered: as Programme::rebuild)
PlayResult make_result(const Programme& prog, size_t f, const std::vector<Meld>& table, bool table_untouched,
                       const Mode* mode = nullptr, int* uncovered = nullptr) {
  PlayResult r;
  if (table_untouched) r.table = table;
  prog.rebuild(f, r.table, r.played, r.value, mode, uncovered);
  r.key = prog.final_node(f).score;
  r.tiles = r.played.size();
  return r;
}

bool position_ok(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, TileSet& table_tiles) {
  if (!search_supported(rules.p)) return false;
  if (!table_ok(table, rules.p, table_tiles)) return false;
  if (!fits_rules(rack, rules.p) || !sum_fits(table_tiles, rack)) return false;
  return fits_rules(sum(table_tiles, rack), rules.p);
}

bool best_of(const std::vector<Input>& inputs, const std::vector<Meld>& table, bool untouched, PlayResult& out,
             SearchStats* stats, size_t node_limit);

}  // namespace

bool search_supported(const Params& p) {
  return params_ok(p) && p.copies <= 3 && p.jokers <= 4 && p.min_len <= 7;
}

bool arrange(const TileSet& tiles, const Params& p, std::vector<Meld>& out, SearchStats* stats) {
  trim_memo();
  out.clear();
  if (!search_supported(p) || !fits_rules(tiles, p)) return false;
  if (tiles.empty()) return true;
  Input in;
  in.p = p;
  TileSet numbered = tiles;
  numbered.jokers = 0;
  add_tiles(in.tr, numbered, p);
  in.jt = tiles.jokers;
  in.require_play = false;
  in.table_only = true;
  finish_mode(in);
  prepare(in);
  Programme prog(in, stats);
  prog.run_depth_first();
  const std::vector<size_t> f = prog.finals();
  if (f.empty()) return false;
  TileSet played;
  int value = 0;
  prog.rebuild(f.front(), out, played, value);
  return true;
}

bool solve(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
           Objective objective, PlayResult& out, SearchStats* stats, size_t node_limit) {
  TileSet table_tiles;
  trim_memo();
  if (!position_ok(table, rack, rules, table_tiles)) return false;
  bool untouched = false;
  const std::vector<Input> inputs =
      position_inputs(table, table_tiles, rack, rules, opened, false, objective, untouched, stats);
  return best_of(inputs, table, untouched, out, stats, node_limit);
}

namespace {
// The opening with the table untouched: new melds from the rack alone. A rack forms few melds, so a direct
// branch and bound over them beats the programme: the lowest numbered rack tile left is either left on the
// rack (every copy of it) or placed in one of the melds it is the lowest numbered tile of (a meld holding a
// lower tile cannot fit any more). A meld may take rack jokers in any of its slots (a joker may stand in for
// a tile that is on the rack, which then stays free for another meld); a meld needs one numbered tile.
// Every set of melds is a legal play once its value reaches the threshold; the first best key found wins
// (deterministic). Returns -1 when the rack forms too many melds for this to pay (the programme decides).
int opening_search(const Input& in, const std::vector<Meld>& table, PlayResult& out, SearchStats* stats) {
  struct Candidate {
    TileSet tiles;  // the numbered tiles
    int jokers;
    int64_t weight;  // of every slot, jokers at what they stand for
    int value;
    Meld meld;
    int64_t tile_weight = 0;  // of the numbered tiles alone
    int tile_value = 0;
  };
  constexpr size_t kMostCandidates = 4096;
  const int N = in.p.numbers, C = in.p.colours, L = in.p.min_len, G = group_min(in.p), J = in.jr;
  thread_local std::vector<Candidate> tl_cands;  // kept between calls: no allocation once warm
  std::vector<Candidate>& cands = tl_cands;     // (a thread-local looked up once)
  cands.clear();
  TileSet rack;
  for (int c = 0; c < C; ++c) {
    for (int n = 1; n <= N; ++n) rack.add(tile_code(c, n), in.rr[c][n]);
  }
  // Runs: every window of L or more numbers, each slot a rack tile or a joker (at most J), one tile at least.
  for (int c = 0; c < C; ++c) {
    for (int s = 1; s + L - 1 <= N; ++s) {
      for (int e = s + L - 1; e <= N; ++e) {
        const int len = e - s + 1;
        uint32_t present = 0;
        for (int k = 0; k < len; ++k) present |= in.rr[c][s + k] > 0 ? 1u << k : 0u;
        const int missing = len - __builtin_popcount(present);
        if (missing > J) break;  // longer windows from s miss at least as many
        // Subsets of the present tiles kept as tiles (the rest of the window takes jokers).
        for (uint32_t keep = present;; keep = (keep - 1) & present) {
          const int jokers = len - __builtin_popcount(keep);
          if (keep != 0 && jokers <= J) {
            Candidate k{TileSet{}, jokers, 0, 0, Meld{MeldKind::Run, c, s, len, ~keep & ((1u << len) - 1), 0}};
            for (int i = 0; i < len; ++i) {
              const int n = s + i;
              k.value += n;
              if (keep >> i & 1) {
                k.tiles.add(tile_code(c, n));
                k.weight += in.w_rr[n];
                k.tile_weight += in.w_rr[n];
                k.tile_value += n;
              } else {
                k.weight += in.w_rj[n];
              }
            }
            cands.push_back(k);
            if (cands.size() > kMostCandidates) return -1;
          }
          if (keep == 0) break;
        }
      }
    }
  }
  if (G <= C) {  // groups: colours of one number on the rack, plus jokers, G to C tiles
    for (int n = 1; n <= N; ++n) {
      uint32_t present = 0;
      for (int c = 0; c < C; ++c) present |= in.rr[c][n] > 0 ? 1u << c : 0u;
      for (uint32_t sub = present; sub != 0; sub = (sub - 1) & present) {
        const int size = __builtin_popcount(sub);
        for (int j = std::max(0, G - size); j <= std::min(J, C - size); ++j) {
          Candidate k{TileSet{}, j, size * in.w_rr[n] + j * in.w_rj[n], (size + j) * n,
                      Meld{MeldKind::Group, 0, n, size + j, 0, sub}, size * in.w_rr[n], size * n};
          for (int c = 0; c < C; ++c) {
            if (sub >> c & 1) k.tiles.add(tile_code(c, n));
          }
          cands.push_back(k);
        }
      }
    }
  }
  if (cands.size() > kMostCandidates) return -1;
  // By lowest tile, then more tiles first, then fewer jokers (good plays early make the bound bite), then the
  // higher reading (on a tie of keys, the play whose jokers stand for more).
  auto lowest = [](const Candidate& k) {
    int c = 0;
    while (k.tiles.w[c] == 0) ++c;
    return c * kMaxNumbers + __builtin_ctzll(k.tiles.w[c]) / 4;
  };
  std::stable_sort(cands.begin(), cands.end(), [&](const Candidate& x, const Candidate& y) {
    const int lx = lowest(x), ly = lowest(y);
    if (lx != ly) return lx < ly;
    if (x.meld.length != y.meld.length) return x.meld.length > y.meld.length;
    return x.jokers != y.jokers ? x.jokers < y.jokers : x.value > y.value;
  });
  uint32_t first[kCodes + 1];
  for (int t = 0, i = 0; t <= kCodes; ++t) {
    while (i < static_cast<int>(cands.size()) && lowest(cands[static_cast<size_t>(i)]) < t) ++i;
    first[t] = static_cast<uint32_t>(i);
  }
  int64_t rest_weight = 0, wj_max = 0;
  int rest_value = 0;
  for (int c = 0; c < C; ++c) {
    for (int n = 1; n <= N; ++n) {
      rest_weight += in.rr[c][n] * in.w_rr[n];
      rest_value += in.rr[c][n] * n;
    }
  }
  for (int n = 1; n <= N; ++n) wj_max = std::max(wj_max, in.w_rj[n]);
  std::vector<const Candidate*> chosen, best;
  int64_t best_key = 0;
  uint64_t nodes = 0, tries = 0;
  auto rec = [&](auto&& self, const TileSet& left, int jokers, int64_t key, int value, int64_t left_weight,
                 int left_value) -> void {
    ++nodes;
    if (value >= in.threshold && key > best_key) {
      best_key = key;
      best = chosen;
    }
    if (key + left_weight + jokers * wj_max <= best_key || value + left_value + jokers * N < in.threshold) return;
    int c = 0;
    while (c < kMaxColours && left.w[c] == 0) ++c;
    if (c == kMaxColours) return;
    const int idx = __builtin_ctzll(left.w[c]) / 4, t = c * kMaxNumbers + idx, n = idx + 1;
    for (uint32_t i = first[t]; i < first[t + 1]; ++i) {
      const Candidate& k = cands[i];
      ++tries;
      if (k.jokers > jokers || !contains(left, k.tiles)) continue;
      chosen.push_back(&k);
      self(self, difference(left, k.tiles), jokers - k.jokers, key + k.weight, value + k.value,
           left_weight - k.tile_weight, left_value - k.tile_value);
      chosen.pop_back();
    }
    const int copies = left.count(t);
    TileSet without = left;
    without.remove(t, copies);
    self(self, without, jokers, key, value, left_weight - copies * in.w_rr[n], left_value - copies * n);
  };
  rec(rec, rack, J, 0, 0, rest_weight, rest_value);
  if (stats != nullptr) {
    stats->states += nodes;
    stats->transitions += tries;
    ++stats->runs;
  }
  if (best.empty()) return 0;
  out = PlayResult{};
  out.table = table;
  for (const Candidate* k : best) {
    out.table.push_back(k->meld);
    out.played = sum(out.played, k->tiles);
    out.played.jokers += k->jokers;
    out.value += k->value;
  }
  out.key = best_key;
  out.tiles = out.played.size();
  return 1;
}

// Runs every input and keeps the best final node (the first one on ties: deterministic). Each input
// runs with a floor just under its bound first, then lower floors until a legal end appears: any end
// found above the floor is optimal, because only nodes that could not reach the floor were dropped.
bool best_of(const std::vector<Input>& inputs, const std::vector<Meld>& table, bool untouched, PlayResult& out,
             SearchStats* stats, size_t node_limit) {
  if (untouched && inputs.size() == 1) {
    const int direct = opening_search(inputs[0], table, out, stats);
    if (direct >= 0) return direct == 1;
  }
  // The inputs deepen together: each pass lowers every open input's floor, so no input is searched at a floor
  // looser than the best play found so far needs. An input is closed once it gave its best play, or once it
  // was searched down to the floor that would beat the best play. Each open input keeps its programme from
  // pass to pass, and a pass expands only what its lower floor adds; so the floor goes down by one unit (a tile
  // of the tiles objective, a point of value otherwise) down to six units under the bound, then its distance to
  // the bound grows by half at each pass (most positions end one to four tiles under the bound).
  bool found = false;
  std::vector<uint8_t> closed(inputs.size(), 0);
  std::vector<std::unique_ptr<Programme>> progs(inputs.size());
  // With two free jokers or more, where the jokers go multiplies the states: passes under one unit come first
  // (4, 16, 64, 256), whose floors then cut the placements that lose value (the key's tie-break) before every
  // tile counts. With three or more (the 160-tile set), the same steps follow each of the first four units too.
  int most = 0;
  for (const Input& in : inputs) most = std::max(most, in.jr + in.jt);
  int64_t units = most >= 2 ? 0 : kUnit;  // the whole units of the current delta
  auto next = [&](int64_t delta) {
    const int64_t sub = delta - units;
    if ((units == 0 ? most >= 2 : most >= 3) && units < 4 * kUnit && sub * 4 < 1024) {
      return units + (sub == 0 ? 4 : sub * 4);
    }
    units = units < 6 * kUnit ? units + kUnit : units * 3 / 2;
    return units;
  };
  // An input under the retrieval rule is searched without the rule first (its runs then carry no counts, and
  // the states merge far more): that relaxation's best key bounds the input's. When one of its best plays
  // also meets the rule, that play is the input's best; otherwise the input is searched again with the rule.
  std::vector<Input> relaxations;
  relaxations.reserve(inputs.size());  // (programmes refer to them: never reallocated)
  std::vector<const Input*> searched(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    searched[i] = &inputs[i];
    if (!inputs[i].mode.track_p) continue;
    relaxations.push_back(inputs[i]);
    relaxations.back().mode.track_p = false;
    finish_mode(relaxations.back());
    searched[i] = &relaxations.back();
  }
  // One floor for every input at each pass, under the highest bound: an input whose own bound is under it waits
  // (a floor relative to each input's bound would search an input with a tight bound deeper than the others).
  int64_t top_bound = INT64_MIN;
  for (const Input& in : inputs) top_bound = std::max(top_bound, root_bound(in));
  for (int64_t delta = most >= 2 ? 4 : kUnit;; delta = next(delta)) {
    bool open = false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (closed[i] != 0) continue;
      const int64_t lo = found ? out.key + 1 : 1;
      const int64_t ub = root_bound(inputs[i]);
      if (ub < lo) {
        closed[i] = 1;
        progs[i].reset();
        continue;
      }
      const int64_t floor = std::max(lo, top_bound - delta);
      if (ub < floor) {
        open = true;
        continue;
      }
      size_t best = 0;
      bool any = false;
      std::optional<PlayResult> checked;  // the relaxation's best play that meets the rule, once rebuilt
      // The floor of this run: the pass's, or first the relaxation's key when the rule's search takes over.
      for (int64_t at = floor;;) {
        if (progs[i] == nullptr) {
          progs[i] = std::make_unique<Programme>(*searched[i], stats, at, node_limit);
        } else {
          progs[i]->set_floor(at);
        }
        Programme& prog = *progs[i];
        prog.run();
        if (prog.exceeded()) {
          if (stats != nullptr) stats->limited = 1;
          return false;
        }
        any = false;
        for (size_t f : prog.finals()) {
          if (prog.final_node(f).score < at) continue;
          if (!any || prog.final_node(f).score > prog.final_node(best).score) best = f;
          any = true;
        }
        if (searched[i] == &inputs[i] && !any && at > floor) {
          at = floor;  // (the rule's search found nothing at the relaxation's key: on down to the pass's floor)
          continue;
        }
        if (!any || searched[i] == &inputs[i]) break;
        // The relaxation's best: the first of its best ends whose play meets the rule, else the rule's own search,
        // from the relaxation's key (which bounds it) down to this pass's floor.
        const int64_t top = prog.final_node(best).score;
        any = false;
        for (size_t f : prog.finals()) {
          if (prog.final_node(f).score != top) continue;
          int uncovered = 0;
          PlayResult play = make_result(prog, f, table, untouched, &inputs[i].mode, &uncovered);
          if (uncovered > play.played.jokers) continue;  // (the uncovered jokers must be P's: see extend)
          checked = std::move(play);
          any = true;
          break;
        }
        if (any) break;
#ifdef RUMMIKUB_TRACE
        fprintf(stderr, "relaxation: no best play meets the retrieval rule\n");
#endif
        searched[i] = &inputs[i];
        progs[i].reset();
        at = top;
      }
      if (any) {
        out = checked ? std::move(*checked) : make_result(*progs[i], best, table, untouched);
        found = true;
      }
      closed[i] = any || floor == lo ? 1 : 0;
      if (closed[i] != 0) progs[i].reset();
      open |= closed[i] == 0;
    }
    if (!open) return found;
  }
}
}  // namespace

bool solve_tiles(const TileSet& table_tiles, const TileSet& rack, const SearchRules& rules, bool opened,
                 Objective objective, PlayResult& out, SearchStats* stats, size_t node_limit) {
  trim_memo();
  if (!search_supported(rules.p) || !fits_rules(table_tiles, rules.p) || !fits_rules(rack, rules.p) ||
      !sum_fits(table_tiles, rack) || !fits_rules(sum(table_tiles, rack), rules.p)) {
    return false;
  }
  SearchRules free_rules = rules;
  free_rules.policy = JokerPolicy::Free;
  bool untouched = false;
  const std::vector<Meld> no_melds;
  const std::vector<Input> inputs =
      position_inputs(no_melds, table_tiles, rack, free_rules, opened, false, objective, untouched, stats);
  return best_of(inputs, no_melds, untouched, out, stats, node_limit);
}

// Past this many states (about 100 bytes each with their index, so 6.5 MB), all_plays builds every play at
// once rather than keep its layers.
constexpr size_t kKeptStates = size_t{1} << 16;

// The plays found and what rebuilds them: the inputs (which the programmes refer to) and the programmes.
struct PlayEnumeration::Impl {
  std::vector<Input> inputs;
  std::vector<Programme> progs;
  std::vector<Meld> table;
  bool untouched = false;
  struct Where {
    size_t prog, node;
    bool built;
  };
  std::vector<PlayResult> plays;  // played, key and tiles at once; table and value once built
  std::vector<Where> where;
  size_t unbuilt = 0;

  void build(size_t i) {
    Where& w = where[i];
    if (w.built) return;
    plays[i] = make_result(progs[w.prog], w.node, table, untouched);
    w.built = true;
    if (--unbuilt == 0) progs.clear();  // every play is built: the layers can go
  }
};

PlayEnumeration::PlayEnumeration() = default;
PlayEnumeration::PlayEnumeration(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PlayEnumeration::PlayEnumeration(PlayEnumeration&&) noexcept = default;
PlayEnumeration& PlayEnumeration::operator=(PlayEnumeration&&) noexcept = default;
PlayEnumeration::~PlayEnumeration() = default;
std::size_t PlayEnumeration::size() const { return impl_ ? impl_->plays.size() : 0; }
const TileSet& PlayEnumeration::played(std::size_t i) const { return impl_->plays[i].played; }
const PlayResult& PlayEnumeration::at(std::size_t i) {
  impl_->build(i);
  return impl_->plays[i];
}

PlaysStatus all_plays(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
                      PlayEnumeration& result, SearchStats* stats, size_t node_limit) {
  trim_memo();
  result = PlayEnumeration();
  TileSet table_tiles;
  if (!position_ok(table, rack, rules, table_tiles)) return PlaysStatus::BadPosition;
  TileSet numbered = rack;
  numbered.jokers = 0;
  if (numbered.size() > 64) return PlaysStatus::RackTooLarge;
  auto impl = std::make_unique<PlayEnumeration::Impl>();
  impl->inputs =
      position_inputs(table, table_tiles, rack, rules, opened, true, Objective::Tiles, impl->untouched, stats);
  impl->table = table;
  const std::vector<Input>& inputs = impl->inputs;  // not resized from here on: the programmes refer to them
  std::vector<Programme>& progs = impl->progs;
  struct Best {
    int64_t score;
    size_t input, node;
  };
  // The best arrangement of each distinct play, keyed by (rack tiles used, rack jokers used).
  std::unordered_map<uint64_t, std::pair<int, Best>> by_mask;
  std::vector<std::pair<uint64_t, int>> order;  // first-seen order of the keys: deterministic output
  progs.reserve(inputs.size());
  size_t held = 0;
  for (size_t ii = 0; ii < inputs.size(); ++ii) {
    const size_t limit = node_limit == 0 ? 0 : node_limit - std::min(held, node_limit - 1);
    // The same programme without usage masks first: it finds the states that lead to a legal end at all, and
    // the programme with masks (many times larger) keeps only those.
    Input bare = inputs[ii];
    bare.usage = false;
    bare.require_play = false;
    Programme guide(bare, stats, INT64_MIN, limit);
    guide.make_guide();
    guide.run();
    if (guide.exceeded()) return PlaysStatus::TooMany;
    guide.mark_alive();
    if (!guide.any_alive()) continue;
    progs.emplace_back(inputs[ii], stats, INT64_MIN, limit);
    Programme& prog = progs.back();
    prog.set_guide(&guide);
    prog.run();
    prog.set_guide(nullptr);
    if (prog.exceeded()) return PlaysStatus::TooMany;
    if (stats != nullptr) held = static_cast<size_t>(stats->states);
    for (size_t f : prog.finals()) {
      const Node& x = prog.final_node(f);
      const int jr = st_jf(x.s) - inputs[ii].jt;  // rack jokers played
      const uint64_t key = x.s.mask * 8 + static_cast<uint64_t>(jr);
      auto [it, fresh] = by_mask.try_emplace(key, jr, Best{x.score, progs.size() - 1, f});
      if (fresh) {
        order.emplace_back(x.s.mask, jr);
      } else if (x.score > it->second.second.score) {
        it->second.second = Best{x.score, progs.size() - 1, f};
      }
    }
  }
  // The played tiles of a play follow from its usage mask: bit Input::bit[c][n] + k stands for copy k of (c, n).
  int tile_of_bit[64];
  for (int c = 0; c < rules.p.colours && !inputs.empty(); ++c) {  // (no input: no play)
    for (int n = 1; n <= rules.p.numbers; ++n) {
      for (int k = 0; k < rack.at(c, n); ++k) tile_of_bit[inputs[0].bit[c][n] + k] = tile_code(c, n);
    }
  }
  std::vector<PlayResult> plays;
  std::vector<PlayEnumeration::Impl::Where> where;
  plays.reserve(order.size());
  where.reserve(order.size());
  for (const auto& [mask, jr] : order) {
    const Best& b = by_mask.at(mask * 8 + static_cast<uint64_t>(jr)).second;
    PlayResult r;
    for (uint64_t m = mask; m != 0; m &= m - 1) r.played.add(tile_of_bit[__builtin_ctzll(m)]);
    r.played.jokers = jr;
    r.key = b.score;
    r.tiles = r.played.size();
    plays.push_back(std::move(r));
    where.push_back(PlayEnumeration::Impl::Where{b.input, b.node, false});
  }
  // Best first: by key, then the played tiles' canonical order.
  std::vector<size_t> rank(plays.size());
  for (size_t i = 0; i < rank.size(); ++i) rank[i] = i;
  std::sort(rank.begin(), rank.end(), [&](size_t x, size_t y) {
    const PlayResult& a = plays[x];
    const PlayResult& b = plays[y];
    if (a.key != b.key) return a.key > b.key;
    for (int c = 0; c < kMaxColours; ++c) {
      if (a.played.w[c] != b.played.w[c]) return a.played.w[c] < b.played.w[c];
    }
    return a.played.jokers < b.played.jokers;
  });
  for (size_t i : rank) {
    impl->plays.push_back(std::move(plays[i]));
    impl->where.push_back(where[i]);
  }
  impl->unbuilt = impl->plays.size();
  size_t kept = 0;
  for (const Programme& prog : progs) kept += prog.held();
  if (impl->unbuilt == 0) {
    progs.clear();
  } else if (kept > kKeptStates) {
    // A large search: build every play now rather than hold its layers.
    for (size_t i = 0; i < impl->plays.size(); ++i) impl->build(i);
  }
  result = PlayEnumeration(std::move(impl));
  return PlaysStatus::Ok;
}

}  // namespace rummikub
