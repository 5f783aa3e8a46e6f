// Arrange: partitioning a multiset into melds, by the programme searched depth first (the first legal end wins, and
// states that led nowhere are remembered), its colour steps made one child at a time.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "../bits.h"
#include "dead_ends.h"
#include "programme.h"

namespace rummikub {

// The paths to legal ends that can_arrange found (search.h): for each, the multiset it arranged and the state at
// each depth; the entry last used goes last when a new path needs room. The paths of searches up from number 1 and
// those of mirrored searches (down from N, their multisets read mirrored) are kept apart: a path guides only a search
// of its own direction.
struct ArrangeGuides::Impl {
  // The paths kept of each direction. (Each is about 3 KB under the standard rules; more than a few dozen would cost
  // more to compare than they save.)
  static constexpr size_t kKept = 16;
  struct Entry {
    Params p;
    uint32_t counts[search::kByNumber];  // of each number, colour c's count k in byte c as k low bits set
    int jokers = 0;
    std::vector<search::State> path;
    uint64_t used = 0;
  };
  std::vector<Entry> entries[2];  // (of searches up, and of mirrored searches)
  uint64_t clock = 0;
  std::mutex lock;  // (held by a search while it reads and adds)

  // Sets the counts of the input's table by number: colour c's count k as k low bits of byte c (a table holds at
  // most 3 copies of a tile), so that the bits two such words differ in add up to the counts' differences.
  static void by_number(const search::Input& in, uint32_t (&out)[search::kByNumber]) {
    for (int n = 0; n < search::kByNumber; ++n) {
      uint32_t w = 0;
      for (int c = 0; c < kMaxColours; ++c) w |= ((uint32_t{1} << in.table[c][n]) - 1) << (8 * c);
      out[n] = w;
    }
  }
  // Returns the path of the entry nearest to the input (nullptr: none of its depth), and sets `same` when the
  // entry's multiset is the input's. The distance adds each tile's difference in count, weighted by the square
  // of the numbers after it: the search goes up the numbers, so a path that differs only near the top guides
  // most of it.
  // (mine: the input's counts by number, which it sets; down: the input is a mirrored search's.)
  Entry* nearest(const search::Input& in, size_t depth, bool& same, uint32_t (&mine)[search::kByNumber], bool down) {
    Entry* best = nullptr;
    int best_d = INT32_MAX;
    by_number(in, mine);
    for (Entry& e : entries[down]) {
      if (e.path.size() != depth + 1 || e.p != in.p) continue;
      int d = std::abs(e.jokers - in.table_jokers);
      // (the heaviest numbers first; every term is at least 0: an entry already as far as the best one stops, it
      // cannot come nearer. Most numbers' counts are the input's: one comparison of their word.)
      for (int n = 1; n <= in.p.numbers && d < best_d; ++n) {
        const uint32_t differ = e.counts[n] ^ mine[n];  // (of counts a and b, |a - b| bits)
        if (differ == 0) continue;
        const int w = in.p.numbers + 1 - n;
        d += w * w * popcount32(differ);
      }
      if (d < best_d) {
        best_d = d;
        best = &e;
      }
    }
    same = best_d == 0;
    if (best != nullptr) best->used = ++clock;
    return best;
  }
  // Keeps the path to a legal end of the input (`same`: the entry of the input's multiset, or nullptr; mine: the
  // input's counts by number, as nearest() set them; down: the input is a mirrored search's).
  void keep(const search::Input& in, Entry* same, const uint32_t (&mine)[search::kByNumber], search::Node* const* path,
            size_t depth, bool down) {
    std::vector<Entry>& kept = entries[down];
    Entry* e = same;
    if (e == nullptr && kept.size() < kKept) {
      e = &kept.emplace_back();
    } else if (e == nullptr) {
      e = &kept.front();
      for (Entry& f : kept) {
        if (f.used < e->used) e = &f;
      }
    }
    e->p = in.p;
    std::memcpy(e->counts, mine, sizeof mine);
    e->jokers = in.table_jokers;
    e->used = ++clock;
    e->path.resize(depth + 1);
    for (size_t k = 0; k <= depth; ++k) e->path[k] = path[k]->s;
  }
};

ArrangeGuides::ArrangeGuides() : impl_(std::make_unique<Impl>()) {}
ArrangeGuides::ArrangeGuides(ArrangeGuides&&) noexcept = default;
ArrangeGuides& ArrangeGuides::operator=(ArrangeGuides&&) noexcept = default;
ArrangeGuides::~ArrangeGuides() = default;

}  // namespace rummikub

namespace rummikub::search {
namespace {

// The dead ends a state is compared with: the last ones with its counts. (A long chain costs more to scan than
// the states it prunes save: on a multiset whose every path the search walks, the comparisons would grow with
// the square of the dead ends.)
constexpr int kDominanceScan = 8;

// Returns the summary of a node's runs, which the depth-first search keeps in Node::must: each colour's runs_byte, in
// its byte (the root's set at the start; a colour step's child sets its colour's, and the others are carried).
inline uint32_t runs_summary(const Node& x) {
  uint32_t w;
  std::memcpy(&w, x.must, sizeof w);
  return w;
}

// Returns true when a dead end of `dead` (a state of the same depth that led nowhere) has the counts of s and runs
// that can do whatever the runs of s can: then s leads nowhere either. (id: the cover memo's id of the mode.)
// (at: the slot of s's counts word in `dead`; summary: s's runs_summary, as DeadEnds::End keeps it.)
// (Inlined: the search's two instances, guided or not, would otherwise call it.)
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool led_nowhere(const DeadEnds& dead, size_t at, const State& s, uint32_t summary, int colours,
                        CoverMemo& memo, uint32_t id, const Mode& mode) {
  int32_t j = dead.heads[at];
  const DeadEnds::End* const ends = dead.ends.data();
  for (int k = 0; j >= 0 && k < kDominanceScan; ++k) {
    const DeadEnds::End& e = ends[j];
    j = e.next;
    // (most dead ends fail this first test, all colours at once, before the memo: fits_runs)
    if (!fits_runs(e.summary, summary)) continue;
    int c = 0;
    while (c < colours && (e.runs[c] == s.runs[c] || memo.covers(e.runs[c], s.runs[c], id, mode))) ++c;
    if (c == colours) return true;
  }
  return false;
}

// Sets y to x carried unchanged into the next layer, as Programme::carried(x, 0) returns it but for the fields only
// the sweep's deepening reads (ceiling, pending), which keep what they hold. (In place, field by field: a node is
// about a hundred bytes, and a temporary would copy them twice.)
inline void carry_into(const Node& x, Node& y) {
  y.s = x.s;
  y.score = x.score;
  y.parent = 0;
  y.info = 0;
  y.actions = 0;
  y.dead = false;
  std::memcpy(y.deficit, x.deficit, sizeof y.deficit);
  std::memcpy(y.must, x.must, sizeof y.must);
}

// runs_byte of each runs word of at most one run (most of the words a colour step makes: looked up, not counted), by
// the minimum length of a run (at most 7: search_supported).
struct OneRunBytes {
  uint8_t of[8][256] = {};
  constexpr OneRunBytes() {
    for (int L = 0; L < 8; ++L) {
      for (int w = 0; w < 256; ++w) of[L][w] = static_cast<uint8_t>(runs_byte(static_cast<uint64_t>(w), L));
    }
  }
};
constexpr OneRunBytes kOneRunBytes;

// The slot of a state's counts not looked up yet.
constexpr size_t kNoSlot = SIZE_MAX;

// Remembers a state that led nowhere (at: the slot of its counts, or kNoSlot); returns the slot of its counts.
// (Out of line: inlined here, the insertion slows the search's inner loop. In two parts: most dead ends need no
// more room, and are then added without a call, so without a register saved.)
#if defined(__GNUC__)
__attribute__((noinline))
#endif
size_t remember_dead_end_anew(DeadEnds& dead, const Node& x, size_t at) {
  return at == kNoSlot ? dead.add(x.s, runs_summary(x)) : dead.add(x.s, runs_summary(x), at);
}
#if defined(__GNUC__)
__attribute__((noinline))
#endif
size_t remember_dead_end(DeadEnds& dead, const Node& x, size_t at) {
  if (at != kNoSlot && dead.add_in_room(x.s, runs_summary(x), at)) return at;
  return remember_dead_end_anew(dead, x, at);
}

}  // namespace

// Finds one legal end of a table-only input depth first (see programme.h).
bool Programme::run_depth_first(size_t budget, ArrangeGuides::Impl* guides, bool down) {
  assert(in_.table_only);
  const int C = in_.p.colours;
  const size_t depth = start();
  // Layers kept between calls (their vectors keep their capacity: no malloc once warm).
  std::vector<DeadEnds>& dead_ends = scratch_->dead_ends;
  if (dead_ends.size() < depth + 1) dead_ends.resize(depth + 1);
  for (size_t k = 0; k <= depth; ++k) dead_ends[k].reset();
  assert(!in_.usage);  // (every state's mask is 0: the dead ends leave it out)
  // The path: layers_[k] holds just the path's node at depth k, read by position (no index). Each child is made
  // in place in the next layer, which the deeper steps leave alone.
  // (path[k]: that node; dead_at[k]: the dead ends of depth k. Neither vector grows during the search: each step
  // keeps the pointers it reads.)
  Node* path[kByNumber * (kMaxColours + 1) + 1];
  assert(depth < sizeof path / sizeof path[0]);
  for (size_t k = 0; k <= depth; ++k) {
    if (k > 0) layers_[k].nodes.resize(1);
    path[k] = layers_[k].nodes.data();
  }
  // (the root's summary of its runs, runs_summary: the children carry it on, each colour step setting its colour's)
  const int run_min = in_.mode.min_len;
  assert(run_min < 8);
  const uint8_t* const one_run = kOneRunBytes.of[run_min];
  for (int c = 0; c < kMaxColours; ++c) {
    path[0]->must[c] = static_cast<uint8_t>(runs_byte(path[0]->s.runs[c], run_min));
  }
  DeadEnds* const dead_at = dead_ends.data();
  // What every step reads of the mode and the memos, read once.
  const Mode& mode = in_.mode;
  const uint32_t cover_id = CoverMemo::id_of(mode);
  const uint32_t key_open = transition_key(mode, kOpen);
  const int group_size = std::max(3, mode.min_len);
  CoverMemo& cover_memo = scratch_->cover_memo;
  TransitionMemo& transition_memo = scratch_->transition_memo;
  // What each step reads of the input, read once: the search expands most steps more than once (it backtracks).
  struct Step {
    int n, c;          // colour step (n, c), or (c == C) the group step of number n
    bool no_tile;      // (c, n) has no tile (colour_idle)
    bool joker_fits;   // a joker could stand at (c, n)
    int table_here;    // the table's copies of (c, n)
    int ga_most;       // the most table copies the colour step can promise to groups
    DeficitAt at;      // the joker lookahead's input (deficit_at)
    const uint8_t* after;  // members_after_[n][c]
    Node* from;            // the path's node at the step's depth (path[li]) ...
    Node* child;           // ... and at the next (path[li + 1]), where each child is made
    DeadEnds* dead;        // the dead ends of the next depth (dead_at[li + 1])
    const State* guide;    // the guide's state at the step's depth (then the next's after it), if guided
  };
  Step steps[kByNumber * (kMaxColours + 1)];
  Step* st_of = steps;
  for (int n = 1; n <= in_.p.numbers; ++n) {
    for (int c = 0; c <= C; ++c) {
      Step& st = *st_of;
      const size_t li = static_cast<size_t>(st_of++ - steps);
      st.n = n;
      st.c = c;
      st.from = path[li];
      st.child = path[li + 1];
      st.dead = dead_at + li + 1;
      if (c == C) continue;
      st.table_here = in_.table[c][n];
      st.no_tile = st.table_here == 0;  // (a table-only input: nothing staying, no rack)
      st.joker_fits = in_.joker_fits[c][n];
      st.ga_most = std::min<int>(st.table_here, in_.group_possible[n] ? 7 : 0);
      st.at = deficit_at(c, n);
      st.after = members_after_[n][c];
    }
  }
  // Expands the path's node at the depth of a step, colour step (n, c) or (c == C) the group step of number n (the
  // step past the last, `last`, is the path's end).
  size_t expanded = 0;
  bool gave_up = false;
  // The guide: the nearest path the guides hold (each step's child that makes the guide's step is tried first).
  std::unique_lock<std::mutex> hold;
  ArrangeGuides::Impl::Entry* near = nullptr;
  bool same = false;
  uint32_t counts[kByNumber];  // (the input's by number, for the guides)
  if (guides != nullptr) {
    hold = std::unique_lock<std::mutex>(guides->lock);
    near = guides->nearest(in_, depth, same, counts, down);
  }
  const bool guided = near != nullptr;
  for (size_t k = 0; k < depth && guided; ++k) steps[k].guide = near->path.data() + k;
  const Step* const last = steps + depth;
  SearchStats* const stats = stats_;
  // (The constants are the closure's own copies: one load each, not two.)
  // (kGuided: whether a guide is read, a constant of the closure's instance, so that the plain search pays nothing
  // for it.)
  auto search = [&](auto guided_tag) {
    return [&, C, depth, budget, cover_id, key_open, group_size, stats, run_min, one_run, last, guided_tag](
               auto&& self, const Step* const step) -> bool {
      constexpr bool kGuided = decltype(guided_tag)::value;
      if (step == last) return ends_legally(*path[depth]);
      if (++expanded > budget) {
        gave_up = true;
        return true;  // (unwinds the search; nothing is remembered on the way out)
      }
      const Step& st = *step;
      const int n = st.n, c = st.c;
      const Node& x = *st.from;
      Node& child = *st.child;
      DeadEnds& dead = *st.dead;
      // Tries the child, unless its state led nowhere; returns true once a legal end is found. A state that a dead
      // end of its depth dominates leads nowhere either (the sweep's dominance, layers.cpp): pruning it leaves every
      // path that leads to a legal end, so the first one found is the same.
      // (The deeper steps add dead ends to deeper depths only: the slot of the child's counts in its own depth's
      // dead ends, found to compare it, is where it goes when it leads nowhere.)
      // (at: the slot of the child's counts word in `dead`, or kNoSlot; the children of one colour step's loop
      // share their counts word, and only they add to `dead` meanwhile (the deeper steps add to deeper depths):
      // the slot one finds or adds at serves the next.)
      auto visit = [&](size_t& at) -> bool {
        // (most depths have no dead end: no hashing)
        if (!dead.ends.empty()) {
          if (at == kNoSlot) at = dead.slot(child.s.misc);
          if (led_nowhere(dead, at, child.s, runs_summary(child), C, cover_memo, cover_id, mode)) return false;
        }
        const size_t before = expanded;
        if (self(self, step + 1)) return true;
        // A child whose expansion made no child of its own that was expanded in turn costs about as much to
        // expand again as to remember and compare: only the others are remembered.
        if (expanded - before > 1) at = remember_dead_end(dead, child, at);
        return false;
      };
      // Steps that can only carry the node on go straight on, without a step's set-up: a group step with no
      // tile promised, and an idle colour step (with colour_step's checks and counts).
      if (c == C ? (x.s.misc & kPromisedBits) == 0 : colour_idle(x, c, st.no_tile, st.joker_fits)) {
        if (c == C) {
          carry_into(x, child);
        } else {
          if (!carry_through_colour<false>(x, n, c, 0, child)) return false;
          if (stats != nullptr) ++stats->transitions;
        }
        if (stats != nullptr) ++stats->states;
        size_t at = kNoSlot;
        return visit(at);
      }
      // The children are made one at a time: the first often leads to a legal end, and the others are then never
      // made. A colour step's, in colour_step's order: for each count of table copies promised to groups (ga),
      // each count of free jokers placed in the runs (y), each transition of the colour's runs through the rest.
      // A group step's, as group_step would: one for each count of free jokers the promised groups can take (they
      // differ in that count, so none dominates another). The input has no rack: no score, and no retrieval rule.
      if (c < C) {
        const int table_here = st.table_here;
        const int ga_most = st.ga_most;
        const int placed = jokers_placed(x.s);
        const int jokers = jokers_left(placed);
        const int y_most = st.joker_fits ? jokers : 0;
        const uint64_t g = x.s.misc & kPromisedBits;
        const int deficit_others = others_deficit(x, c);
        int members_before = 0, most_before = 0;
        if (g != 0) promised_before(g, c, members_before, most_before);
        const DeficitAt& at = st.at;
        const uint8_t* after = st.after;
        const uint64_t runs = x.s.runs[c];
        // (x.must[c] is runs_byte of its runs, whose high half is 7 less their runs shorter than the minimum, at
        // most 7 of them: at most their count)
        assert(x.must[c] == runs_byte(runs, run_min));
        const int short_runs = 7 - (x.must[c] >> 4);
        // The children differ from x in colour c's runs and deficit, the counts and how they were made (as
        // colour_child makes them); the rest is set once: x's fields up to the sweep's own (ceiling, pending)
        // copied at once, then its parent, as carry_into sets it. (x is not dead, and its score is 0: no rack.)
        assert(x.score == 0 && !x.dead);
        std::memcpy(static_cast<void*>(&child), &x, offsetof(Node, ceiling));
        child.parent = 0;
        // Visits the children that promise ga table copies to groups (g2: the promised groups after; others: their
        // joker deficit and the other colours') and place y free jokers in the runs, in transition order: with
        // `only`, just the one whose runs become `want` (the guide's child, tried first: its transitions are counted
        // when the loop below lists them); else every one but that one when `skip`. Returns 2 once a legal end is
        // found, 1 when a child was visited, else 0.
        // (want_range: the transitions `only` looked up, which the call with `skip` lists again: the same entry.)
        std::pair<uint32_t, uint32_t> want_range{0, 0};
        auto children = [&](auto only_tag, int ga, uint64_t g2, int others, int y, bool skip, uint64_t want) -> int {
          constexpr bool only = decltype(only_tag)::value;
          const int room = jokers - y - others;  // (the jokers left for colour c's runs)
          // (colour c's runs shorter than the minimum cannot end here: each takes one of the slots, the table copies
          // not promised to groups and the free jokers placed; with fewer slots there is no transition)
          if (room < 0 || short_runs > table_here - ga + y) return 0;
          const uint32_t rest = key_open | slot_bits(0, table_here - ga) | slot_bits(3, y);
          const auto [tbegin, tcount] =
              !only && skip ? want_range
                            : transitions(transition_memo, runs, rest, table_here - ga, 0, 0, y, mode, kOpen);
          if constexpr (only) want_range = {tbegin, tcount};
          if (!only && stats != nullptr) stats->transitions += tcount;
          // (the children of the batch share their counts and info, which the deeper steps leave alone)
          child.s.misc = with_counts(g2, placed + y, 0, 0, false);
          child.info = static_cast<uint32_t>(ga << 4 | y << 16);
          int visited = 0;
          size_t dead_slot = kNoSlot;  // (every child here has the same counts word)
          const uint32_t tend = tbegin + tcount;
          for (uint32_t ti = tbegin; ti < tend; ++ti) {
            const Transition& t = transition_memo.pool[ti];  // (the pool grows as deeper steps ask: index it)
            if (only ? t.next != want : skip && t.next == want) continue;
            // (runs that need nothing at the numbers after need no joker: most transitions, not looked up)
            const int deficit = t.needs == 0 ? 0 : joker_deficit(t.needs, at);
            if (deficit > room) {
              if constexpr (only) return 0;
              continue;
            }
            child.s.runs[c] = t.next;
            child.actions = t.actions;
            child.deficit[c] = static_cast<uint8_t>(deficit);
            child.must[c] = t.next < 256 ? one_run[t.next] : static_cast<uint8_t>(runs_byte(t.next, run_min));
            if (stats != nullptr) ++stats->states;
            if (visit(dead_slot)) return 2;
            visited = 1;
            if constexpr (only) break;
          }
          return visited;
        };
        auto promised = [&](int ga, uint64_t& g2) {
          g2 = g | static_cast<uint64_t>(ga) << (9 * c);
          return deficit_others + groups_deficit(g2, group_size, after, members_before, most_before, ga);
        };
        // The child that makes the guide's step in this colour first (the same copies promised to groups, the same
        // jokers placed, the same runs after), when x has one.
        int want_ga = -1, want_y = -1;
        uint64_t want_runs = 0;
        if (kGuided && st.guide[0].runs[c] == runs) {
          const State& from = st.guide[0];
          const State& to = st.guide[1];
          want_ga = static_cast<int>((to.misc >> (9 * c)) & 7);
          want_y = jokers_placed(to) - jokers_placed(from);
          want_runs = to.runs[c];
        }
        bool tried = false;
        if (kGuided && want_ga >= 0 && want_ga <= ga_most && want_y >= 0 && want_y <= y_most) {
          uint64_t g2;
          const int others = promised(want_ga, g2);
          const int r = children(std::true_type{}, want_ga, g2, others, want_y, false, want_runs);
          if (r == 2) return true;
          tried = r == 1;
        }
        // (children() makes none once the slots, table_here - ga + y, are fewer than the runs that cannot end: nor for
        // any ga after, which leaves fewer)
        const int ga_last = std::min(ga_most, table_here + y_most - short_runs);
        for (int ga = 0; ga <= ga_last; ++ga) {
          uint64_t g2;
          const int others = promised(ga, g2);
          // (children() makes none once the jokers the others need pass the jokers left after y: nor for any y after)
          for (int y = 0; y <= y_most && others <= jokers - y; ++y) {
            const bool skip = kGuided && tried && ga == want_ga && y == want_y;
            if (children(std::false_type{}, ga, g2, others, y, skip, want_runs) == 2) return true;
          }
        }
        return false;
      }
      const uint64_t g = x.s.misc & kPromisedBits;  // (not 0: an idle group step went straight on above)
      // The child placing as many jokers as the guide's step first.
      int first = -1;
      if (kGuided) {
        const int y = jokers_placed(st.guide[1]) - jokers_placed(st.guide[0]);
        if (y > 0 && y <= jokers_left(jokers_placed(x.s)) && group_split(g, y, C, mode, scratch_->group_memo) >= 0) {
          child = group_child(x, 0, n, y, 0, x.score);
          if (stats != nullptr) ++stats->states;
          size_t at = kNoSlot;
          if (visit(at)) return true;
          first = y;
        }
      }
      for (int y = 0; y <= jokers_left(jokers_placed(x.s)); ++y) {
        if (stats != nullptr) ++stats->transitions;
        if ((kGuided && y == first) || group_split(g, y, C, mode, scratch_->group_memo) < 0) continue;
        child = group_child(x, 0, n, y, 0, x.score);
        if (stats != nullptr) ++stats->states;
        size_t at = kNoSlot;
        if (visit(at)) return true;
      }
      return false;
    };
  };
  bool found;
  if (guided) {
    auto go = search(std::true_type{});
    found = go(go, steps);
  } else {
    auto go = search(std::false_type{});
    found = go(go, steps);
  }
  found = found && !gave_up;
  if (found && guides != nullptr) guides->keep(in_, same ? near : nullptr, counts, path, depth, down);
  last_ = depth;
  if (!found) layers_[last_].nodes.clear();
  if (stats_ != nullptr) ++stats_->runs;
  // As for the recycled layers: scratch that a hard search grew large goes back to the system. (A search of
  // a few thousand expansions cannot have grown it that far: the count is skipped.)
  size_t held = 0;
  for (size_t k = 0; k < dead_ends.size() && expanded > 4096; ++k) {
    held += dead_ends[k].bytes();
  }
  if (held >= (size_t{1} << 24)) std::vector<DeadEnds>().swap(dead_ends);
  return !gave_up;
}

}  // namespace rummikub::search

namespace rummikub {

// The expansions the depth-first search may make before arrange() turns to the sweep. (On a multiset that can be
// arranged it finds a partition in a few hundred; past this many, the sweep is the cheaper way to finish.)
constexpr size_t kDepthFirstBudget = 100000;

namespace {

// Partitions all of `tiles` into valid melds, written to `out` unless it is null (then only whether a partition
// exists is found: no melds are rebuilt).
// With `guides` (only whether a partition exists is asked), the depth-first search is guided by them: by their paths
// of mirrored searches when `down` (the tiles are a multiset read mirrored).
bool arrange_into(const TileSet& tiles, const Params& p, std::vector<Meld>* out, SearchStats* stats,
                  size_t node_limit, ArrangeGuides* guides = nullptr, bool down = false) {
  search::SearchScratch& scratch = search::thread_scratch();
  scratch.trim();
  if (out != nullptr) out->clear();
  if (!search_supported(p) || !fits_rules(tiles, p)) return false;
  if (tiles.empty()) return true;
  using namespace search;
  Input in;
  in.p = p;
  TileSet numbered = tiles;
  numbered.jokers = 0;
  add_tiles(in.table, numbered, p);
  in.table_jokers = tiles.jokers;
  in.require_play = false;
  in.table_only = true;
  finish_mode(in);
  prepare(in);
  TileSet played;
  int value = 0;
  if (out != nullptr) out->reserve(static_cast<size_t>(tiles.size() / 3));  // (every meld holds 3 tiles or more)
  {
    Programme prog(in, scratch, stats);
    if (prog.run_depth_first(kDepthFirstBudget, guides != nullptr ? &guides->impl() : nullptr, down)) {
      // (its one final, if any, is node 0 of the last layer: no list of finals is made)
      if (prog.held_final() == 0) return false;
      if (out != nullptr) prog.rebuild(0, *out, played, value);
      return true;
    }
  }
  // A hard multiset (most often one that cannot be arranged, whose every path the depth-first search would walk):
  // the sweep, whose dominance merges what the depth-first search's dead ends cannot.
  Programme prog(in, scratch, stats, INT64_MIN, node_limit);
  prog.run();
  if (prog.exceeded()) {
    if (stats != nullptr) stats->limited = 1;
    return false;
  }
  const std::vector<size_t> f = prog.finals();
  if (f.empty()) return false;
  if (out != nullptr) prog.rebuild(f.front(), *out, played, value);
  return true;
}

}  // namespace

// Partitions all of `tiles` into valid melds (search.h).
bool arrange(const TileSet& tiles, const Params& p, std::vector<Meld>& out, SearchStats* stats, size_t node_limit) {
  return arrange_into(tiles, p, &out, stats, node_limit);
}

// Whether all of `tiles` split into valid melds (search.h).
bool can_arrange(const TileSet& tiles, const Params& p, SearchStats* stats, size_t node_limit, ArrangeGuides* guides) {
  return arrange_into(tiles, p, nullptr, stats, node_limit, guides);
}

// Whether a table's tiles and a rack's split into valid melds together (search.h). A table splits on its own, so
// when they do not, the rack's few tiles are why: the search up the numbers builds every arrangement of the table
// below the rack's tiles before it meets them, and each of those leads nowhere. So the tiles are searched mirrored
// (every number n read as N + 1 - n: a run is a run and a group a group, so the answer is the same) when the rack's
// numbered tiles lie above the table's (search::lies_high), as solve() decides.
bool can_arrange(const TileSet& table, const TileSet& rack, const Params& p, SearchStats* stats, size_t node_limit,
                 ArrangeGuides* guides) {
  if (!search_supported(p) || !sum_fits(table, rack)) return false;
  const TileSet all = sum(table, rack);
  int64_t rack_by_number[search::kByNumber] = {}, table_by_number[search::kByNumber] = {};
  search::add_by_number(rack_by_number, rack, p);
  search::add_by_number(table_by_number, table, p);
  // (the mirror needs every tile within the rules' numbers)
  const bool down = fits_rules(all, p) && search::lies_high(rack_by_number, table_by_number, p.numbers);
  return down ? arrange_into(search::mirrored(all, p.numbers), p, nullptr, stats, node_limit, guides, true)
              : arrange_into(all, p, nullptr, stats, node_limit, guides);
}

}  // namespace rummikub
