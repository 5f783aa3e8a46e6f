// Nodes and layers: a programme state (State), a node holding it with its score and parent (Node), one layer of
// the programme with its index and the buckets dominance walks (Layer), and the covering of one colour's runs by
// another's (runs_cover, CoverMemo) that dominance rests on.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "rummikub/search.h"
#include "run_words.h"

// Marks a small function on the search's hot path to be inlined wherever it is called (in a large caller, such as a
// colour step with two expansions, the compiler's own budget would leave it out of line).
#if defined(__GNUC__)
#define RUMMIKUB_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define RUMMIKUB_ALWAYS_INLINE inline
#endif

namespace rummikub::search {

// A programme state: each colour's open runs (a run word each), the rack tiles used (enumerating plays: a bit per
// rack tile copy, Input::usage_bit), and the counts.
struct State {
  uint64_t runs[kMaxColours];
  uint64_t mask;
  uint64_t misc;  // bits 0-35 groups promised, 36-38 free jokers placed, 39-41 uncovered jokers of closed melds,
                  // 42-51 value, 52 settled fully (see extend_run)
  bool operator==(const State& o) const {
    return runs[0] == o.runs[0] && runs[1] == o.runs[1] && runs[2] == o.runs[2] && runs[3] == o.runs[3] &&
           mask == o.mask && misc == o.misc;
  }
};
constexpr uint64_t kPromisedBits = (1ULL << 36) - 1;
// Returns the free jokers placed so far.
inline int jokers_placed(const State& s) { return static_cast<int>((s.misc >> 36) & 7); }
// Returns the uncovered jokers of the melds closed so far (see run_words.h).
inline int closed_uncovered(const State& s) { return static_cast<int>((s.misc >> 39) & 7); }
// Returns the opening value reached (capped at the threshold).
inline int opening_value(const State& s) { return static_cast<int>((s.misc >> 42) & 1023); }
// Returns true when the runs are settled fully (see run_words.h).
inline bool is_settled(const State& s) { return (s.misc >> 52) & 1; }
// Returns the counts word: the groups of `misc` with these counts.
inline uint64_t with_counts(uint64_t misc, int placed, int uncovered, int v, bool settled) {
  return (misc & kPromisedBits) | static_cast<uint64_t>(placed) << 36 | static_cast<uint64_t>(uncovered) << 39 |
         static_cast<uint64_t>(std::min(v, 1023)) << 42 | static_cast<uint64_t>(settled) << 52;
}

// A node of a layer: a state, the best score that reaches it, and how (its parent in the layer before and the
// step's choices), which rebuild() walks back.
struct Node {
  State s;
  int64_t score;
  int32_t parent;
  uint32_t info;         // colour step: b, ga, gv, gb, y (free jokers) (4 bits each); group step: y
  uint32_t actions;      // colour step: how the runs moved (Transition::actions; kept in the node, so that a play
                         // can be rebuilt after the transition memo was trimmed)
  bool dead;             // dominated by another node of its layer: not expanded
  uint8_t deficit[kMaxColours];  // each colour's joker_deficit as of its last colour step (depends on s alone)
  // Each colour's open runs that must take a slot at the number after its last colour step (they cannot end
  // before it; 0 when a free joker leads one of the colour's runs), as of that step (depends on s alone). Kept and
  // read by the sweep's steps only: arrange's depth-first search keeps there instead a summary of each colour's runs
  // (runs_summary in arrange.cpp), for its dead ends' first test.
  uint8_t must[kMaxColours];
  // Deepening (Programme::run again at a lower floor): the children whose bound reaches `ceiling` were offered
  // already (INT64_MAX: the node is new or its score rose since it was expanded, so none were), and `pending`
  // is the highest bound of a child left below the floor (INT64_MIN: none).
  int64_t ceiling = INT64_MAX;
  int64_t pending = INT64_MIN;
};

// RunsSummary::lanes of the runs words a search summarises (each scratch its own): a direct-mapped cache. A layer's
// nodes share many of their colours' runs words.
struct LanesMemo {
  struct Entry {
    uint64_t x = 0, lanes = 0;
    int L = 0;  // (0: empty; L is at least 2)
  };
  std::vector<Entry> entries = std::vector<Entry>(size_t{1} << 9);
  // Returns RunsSummary::lanes(x, L), remembered.
  uint64_t lanes(uint64_t x, int L);
};
// A summary of a node's runs that a node covering it (runs_cover in every colour) matches or exceeds in every
// field, for a quick test before runs_cover: per colour its runs, those at least L long, and 8 less those shorter
// than L (each short run of a needs a run of b no longer). Each field is at most 8, in a lane of 5 bits whose top
// bit stays clear: the colours' runs in the first 4 lanes, their long runs in the next 4, the room for short runs
// in the last 4.
struct RunsSummary {
  uint64_t w = 0;
  RunsSummary() = default;
  // Summarises the runs of a state (L: the minimum length), with the lanes of each colour's runs from the memo.
  RunsSummary(const State& s, int colours, int L, LanesMemo& memo) {
    w = (uint64_t{0x42108} & ((uint64_t{1} << (5 * colours)) - 1)) << 40;  // (each colour's room for short runs, 8)
    for (int c = 0; c < colours; ++c) {
      if (s.runs[c] != 0) w += memo.lanes(s.runs[c], L) << (5 * c);
    }
  }
  // Returns what the runs x add to colour 0's lanes: its runs, its runs at least L long, and (modulo 2^64) the short
  // runs taken from its room. (Shifted to colour c's lanes, the room's lane stays at least 0.)
  static uint64_t lanes(uint64_t x, int L) {
    const uint64_t runs = count_runs(x), full = count_runs_reaching(x, L);
    return runs + (full << 20) + ((full - runs) << 40);
  }
  // Returns true when every field of this summary is at least b's.
  bool covers(const RunsSummary& b) const {
    constexpr uint64_t kGuard = 0x0842108421084210ULL;  // (the top bit of each lane)
    return (((w | kGuard) - b.w) & kGuard) == kGuard;
  }
};
static_assert(kMaxColours <= 4, "RunsSummary has 12 lanes of 5 bits in a word");
inline uint64_t LanesMemo::lanes(uint64_t x, int L) {
  Entry& e = entries[static_cast<size_t>((x * 0x9E3779B97F4A7C15ULL) >> 55)];
  if (e.x != x || e.L != L) e = Entry{x, RunsSummary::lanes(x, L), L};
  return e.lanes;
}

// Sets v to n entries of -1 (an empty open-addressing slot): memset, which a fill of -1 as int32_t does not become.
inline void fill_empty(std::vector<int32_t>& v, size_t n) {
  v.resize(n);
  std::memset(v.data(), 0xFF, n * sizeof(int32_t));
}

// Returns the open-addressing hash of a counts word (the slot is this masked to a power-of-two capacity).
inline size_t hash_word(uint64_t w) {
  const uint64_t h = w * 0x9E3779B97F4A7C15ULL;
  return static_cast<size_t>(h ^ (h >> 29));
}

// One layer of the programme: nodes plus an open-addressing index keeping the best node per state.
struct Layer {
  std::vector<Node> nodes;
  std::vector<int32_t> index;  // open addressing: state -> node (the first mask + 1 entries)
  size_t mask = 0;
  // Deepening: a node was added or improved since the layer was last expanded (so has a ceiling of INT64_MAX),
  // and the highest pending bound of its other nodes (see Node::ceiling). Without the first, a floor above the
  // second has nothing to expand here.
  bool fresh = false;
  int64_t pending = INT64_MIN;
  // The nodes below this index are neither new nor improved since the layer was last expanded: when no pending
  // bound reaches the floor, a pass starts there.
  size_t unchanged = 0;
  // For prune_dominated, kept as nodes are added: buckets of nodes with the same counts and mask (open addressing
  // -> the bucket's last node; each node's next node in its bucket, and its bucket's slot), each node's runs
  // summarised, and how many nodes are in.
  std::vector<int32_t> bucket_head, bucket_next;
  std::vector<uint32_t> bucket_of;
  std::vector<RunsSummary> summary;
  size_t bucketed = 0;
  size_t reserved = 0;  // the nodes reset() reserved room for (Programme::layer_bytes)
  size_t bytes = 0;     // Programme::layer_bytes as of the layer's last step (Programme::run)

  // Empties the layer for about `expect` nodes.
  void reset(size_t expect) {
    fresh = false;
    pending = INT64_MIN;
    unchanged = 0;
    bucketed = 0;
    nodes.clear();
    nodes.reserve(expect);  // (growing by doubling would copy the nodes over and over)
    reserved = expect;
    size_t cap = 16;
    while (cap < expect * 2) cap <<= 1;
    empty_index(cap);
  }
  // Makes the index's first cap entries its table, empty. (Its vector is kept at least that long, not cut to it:
  // resized back up after a cut, it would clear the room it grows by before the table is emptied.)
  void empty_index(size_t cap) {
    if (index.size() < cap) index.resize(cap);
    std::memset(index.data(), 0xFF, cap * sizeof(int32_t));
    mask = cap - 1;
  }
  // Returns the hash of a state, for the index.
  static size_t hash(const State& s) {
    uint64_t h = s.misc * 0x9E3779B97F4A7C15ULL;
    for (uint64_t x : s.runs) h = (h ^ x) * 0xBF58476D1CE4E5B9ULL;
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
  RUMMIKUB_ALWAYS_INLINE int32_t offer(const Node& n) {
    const size_t count = nodes.size();  // (one division by sizeof(Node), not three)
    if (count * 2 > mask) grow();
    size_t i = hash(n.s) & mask;
    while (index[i] >= 0) {
      Node& old = nodes[static_cast<size_t>(index[i])];
      if (old.s == n.s) {
        if (n.score > old.score) {
          old = n;
          fresh = true;
          unchanged = std::min(unchanged, static_cast<size_t>(index[i]));
        }
        return index[i];
      }
      i = (i + 1) & mask;
    }
    index[i] = static_cast<int32_t>(count);
    nodes.push_back(n);
    fresh = true;
    return static_cast<int32_t>(count);
  }
  // Puts the nodes added since the last call in their buckets (of the nodes with the same counts and mask);
  // returns the index of the first of them.
  size_t bucket_new(int colours, int L, LanesMemo& memo) {
    const size_t K = nodes.size(), first = bucketed;
    if (bucketed == 0 || bucket_head.size() < K * 2) {  // (first use since reset, or too full: start again)
      size_t cap = 16;
      while (cap < K * 2) cap <<= 1;
      fill_empty(bucket_head, cap);
      for (size_t i = 0; i < bucketed; ++i) link(i);
    }
    // (Only grown: every entry below K is written before it is read, and cutting them back to K would make the next
    // growth clear its room again.)
    if (bucket_next.size() < K) {
      bucket_next.resize(K);
      bucket_of.resize(K);
      summary.resize(K);
    }
    for (size_t i = bucketed; i < K; ++i) {
      link(i);
      summary[i] = RunsSummary(nodes[i].s, colours, L, memo);
    }
    bucketed = K;
    return first;
  }
  // Links node i into its bucket.
  void link(size_t i) {
    const size_t wrap = bucket_head.size() - 1;
    const State& s = nodes[i].s;
    size_t at;
    if (i > 0 && nodes[i - 1].s.misc == s.misc && nodes[i - 1].s.mask == s.mask) {
      at = bucket_of[i - 1];  // (the previous node's bucket: a step's children often come in runs of one counts word)
    } else {
      const uint64_t h = (s.misc * 0x9E3779B97F4A7C15ULL) ^ (s.mask * 0xBF58476D1CE4E5B9ULL);
      at = static_cast<size_t>(h ^ (h >> 31)) & wrap;
      for (; bucket_head[at] >= 0; at = (at + 1) & wrap) {
        const State& o = nodes[static_cast<size_t>(bucket_head[at])].s;
        if (o.misc == s.misc && o.mask == s.mask) break;
      }
    }
    bucket_next[i] = bucket_head[at];
    bucket_head[at] = static_cast<int32_t>(i);
    bucket_of[i] = static_cast<uint32_t>(at);
  }
  // Doubles the index.
  void grow() {
    index.assign((mask + 1) * 2, -1);
    mask = index.size() - 1;
    for (size_t k = 0; k < nodes.size(); ++k) {
      size_t i = hash(nodes[k].s) & mask;
      while (index[i] >= 0) i = (i + 1) & mask;
      index[i] = static_cast<int32_t>(k);
    }
  }
};

// A search's node limit also bounds its memory: each node of the limit allows this many bytes of layers (a node
// with its share of the index, the dominance buckets and the room its vectors keep in reserve).
constexpr size_t kBytesPerState = kSearchBytesPerNode;
// Returns the capacity a new vector first reserved for `start` elements (none: 0) has once it holds n, growing by
// doubling. The limit counts layers by this, not by the capacity their vectors have: a layer recycled from an
// earlier, larger search has more, and a search's verdict must not depend on what its thread searched before.
inline size_t fresh_capacity(size_t n, size_t start) {
  if (n <= start) return start;
  size_t cap = start == 0 ? 1 : start;
  while (cap < n) cap *= 2;
  return cap;
}
// Returns the bytes a node limit allows (0: no limit).
inline size_t limit_bytes(size_t node_limit) {
  return node_limit > SIZE_MAX / kBytesPerState ? SIZE_MAX : node_limit * kBytesPerState;
}

// Returns true when run a can do whatever run b can: as long or longer, holding a numbered tile if b does, free to
// end before the last number if b is, and, for the retrieval rule, holding as many rack tiles and leaving no more
// jokers uncovered (extend_run).
inline bool run_covers(uint8_t a, uint8_t b) {
  const int qa = run_code(a), qb = run_code(b);
  return run_length(a) >= run_length(b) && run_numbered(a) >= run_numbered(b) && run_led(a) <= run_led(b) &&
         kRackOfCode[qa] >= kRackOfCode[qb] &&
         kHeldOfCode[qa] - kRackOfCode[qa] <= kHeldOfCode[qb] - kRackOfCode[qb];
}
// Returns true when a colour's runs a can do whatever its runs b can: each run of b has its own run of a that
// covers it (run_covers), and every other run of a can end now with no joker uncovered. Each such match
// carries b's future over to a (the extra runs end at once, and a run that ends while a new one starts in its
// colour is never better than continuing: see make_transitions). By the Mendelsohn-Dulmage theorem a matching
// that takes every run of b and one that takes every run of a that cannot end make one that takes both.
bool runs_cover(uint64_t a, uint64_t b, const Mode& m);

// The answers of runs_cover (each scratch its own): a direct-mapped cache, as GroupsMemo. The words a search
// compares recur within a search and across searches.
struct CoverMemo {
  struct Entry {
    uint64_t a = 0, b = 0;
    uint32_t mode = 0;  // Mode::id() + 1 (0: empty)
    bool covers = false;
  };
  static constexpr int kBits = 11;
  static constexpr size_t kSize = size_t{1} << kBits;
  std::vector<Entry> entries = std::vector<Entry>(kSize);
  // Returns runs_cover(a, b, m), remembered.
  bool covers(uint64_t a, uint64_t b, const Mode& m) { return covers(a, b, id_of(m), m); }
  // The memo's id of a mode (a search that asks for most states it makes reads it once).
  static uint32_t id_of(const Mode& m) { return m.id() + 1; }
  // The same, given the mode's id_of.
  bool covers(uint64_t a, uint64_t b, uint32_t id, const Mode& m) {
    const uint64_t h = ((a ^ (b * 0xC2B2AE3D27D4EB4FULL) ^ id) * 0x9E3779B97F4A7C15ULL) >> (64 - kBits);
    Entry& e = entries[static_cast<size_t>(h)];
    if (e.a != a || e.b != b || e.mode != id) e = Entry{a, b, id, runs_cover(a, b, m)};
    return e.covers;
  }
};

}  // namespace rummikub::search
