// Rebuild: the melds of a play, walked back from a final node of the programme through the moves its nodes record.
#include "rebuild.h"

#include <type_traits>
#include <unordered_map>

namespace rummikub::search {

namespace {

// A run being rebuilt: its descriptor as the programme saw it, first number, and slots.
struct RunBuild {
  uint8_t desc;
  uint8_t start;
  uint8_t len;
  uint8_t slots[kByNumber];
};
// A colour's open runs (at most 8: the state packs 8 descriptors).
struct RunList {
  RunBuild at[8];
  int size = 0;
};

}  // namespace

// Returns the groups rebuilt from promised tiles (as group_split fills them), remembered per key: listing
// plays rebuilds the same few group steps over and over.
static const std::vector<GroupBuild>& group_build(SearchScratch& scratch, uint64_t g, int jokers, int colours,
                                                  const Mode& m) {
  std::unordered_map<uint64_t, std::vector<GroupBuild>>& memo = scratch.group_builds;
  const uint64_t key = group_key(g, jokers, colours, m);
  auto it = memo.find(key);
  if (it != memo.end()) return it->second;
  if (memo.size() > (size_t{1} << 14)) memo.clear();  // bounded; the keys seen in practice are few
  std::vector<GroupBuild> groups;
  const int split = split_groups(g, jokers, colours, m, &groups);
  assert(split >= 0);
  (void)split;
  return memo.emplace(key, std::move(groups)).first->second;
}

// Rebuilds the melds of a final node, and its played tiles and value (see programme.h).
void Programme::rebuild(size_t final_index, std::vector<Meld>& melds, TileSet& played, int& value, const Mode* mode,
                        int* uncovered) const {
  // Walk back to collect the node of every layer on the path.
  const Node* path[kByNumber * (kMaxColours + 1) + 1];
  size_t i = final_index;
  for (size_t li = last_ + 1; li-- > 0;) {
    path[li] = &layers_[li].nodes[i];
    if (li > 0) i = static_cast<size_t>(path[li]->parent);
  }
  const int N = in_.p.numbers, C = in_.p.colours;
  RunList runs[kMaxColours];
  value = 0;
  // value(P): P's numbered tiles, plus P's jokers (every free joker but the table's table_jokers) at the highest
  // numbers any free joker stands for.
  int free_slots[2 * kMaxJokers];
  int nfree = 0;
  if (uncovered != nullptr) *uncovered = 0;
  auto count_uncovered = [&](int rack, int jokers) {
    if (uncovered != nullptr) *uncovered += meld_uncovered(jokers, rack, mode->rack_needed);
  };
  auto finish_run = [&](int c, const RunBuild& r) {
    Meld m{MeldKind::Run, c, r.start, r.len, 0, 0};
    int rack = 0, jokers = 0;
    for (int k = 0; k < r.len; ++k) {
      const int s = r.slots[k], number = r.start + k;
      if (!slot_real(s)) m.joker_slots |= 1u << k;
      if (s == kRackTile) {
        played.add(tile_code(c, number));
        value += number;
        ++rack;
      }
      if (s == kFreeJoker) {
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
  // (Under the retrieval rule.)
  auto settle_runs = [&](const Node& x, int changed) {
    const int how = settle_how(x.s);
    for (int c = 0; c < C; ++c) {
      if (how != kOpen) {
        for (int k = 0; k < runs[c].size; ++k) runs[c].at[k].desc = settle(runs[c].at[k].desc, how);
      }
      if (how != kOpen || c == changed) sort_runs(runs[c]);
    }
  };
  // The walk over the steps, an instance for each of: the retrieval rule (settling runs), any demand (unleading
  // runs), so that the instances without them (arrange, and most plays) leave out their checks at every step.
  auto walk = [&](auto rule_tag, auto demands_tag) {
    constexpr bool kRule = decltype(rule_tag)::value, kDemands = decltype(demands_tag)::value;
    size_t li = 1;
    for (int n = 1; n <= N; ++n) {
      for (int c = 0; c < C; ++c, ++li) {
        const Node& x = *path[li];
        // Nothing placed, no run open, nothing to settle: the step changes nothing (most steps of a play).
        if (!kRule && x.info == 0 && runs[c].size == 0 && in_.table[c][n] == 0 && in_.staying[c][n] == 0) continue;
        const int b = x.info & 15, ga = (x.info >> 4) & 15, gv = (x.info >> 8) & 15, gb = (x.info >> 12) & 15;
        int rem[kSlots] = {in_.table[c][n] - ga, in_.staying[c][n] - gv, b - gb, static_cast<int>(x.info >> 16) & 15};
        // The runs that go on are compacted to the front in place (their order kept), then new runs follow.
        RunList& next = runs[c];
        const uint32_t actions = x.actions;
        const int old_size = next.size;
        next.size = 0;
        // A step with demanded copies that need the number before them unleads the runs it continues; actions 5-7
        // continue with slot 0-2 and pin the run (home_transitions).
        const bool unlead = kDemands && (in_.demand[c][n].stay_prev | in_.demand[c][n].real_prev) != 0;
        for (int j = 0; j < old_size; ++j) {
          const int act = static_cast<int>((actions >> (3 * j)) & 7);
          if (act == 0) {
            finish_run(c, next.at[j]);
          } else {
            const int slot = act <= kSlots ? act - 1 : act - 5;
            RunBuild& r = next.at[next.size++];
            if (&r != &next.at[j]) r = next.at[j];
            r.slots[r.len++] = static_cast<uint8_t>(slot);
            r.desc = extend_run(r.desc, slot, in_.mode);
            if (unlead) r.desc = unlead_run(r.desc);
            if (act > kSlots) r.desc = pin_run(r.desc, in_.mode);
            --rem[slot];
          }
        }
        static_assert(kSlots == 4, "the slots left, four counts");
        if ((rem[0] | rem[1] | rem[2] | rem[3]) != 0) {  // (most steps start none)
          for (int s = 0; s < kSlots; ++s) {
            for (int k = 0; k < rem[s]; ++k) {
              RunBuild& r = next.at[next.size++];
              r.desc = extend_run(0, s, in_.mode);
              r.start = static_cast<uint8_t>(n);
              r.len = 1;
              r.slots[0] = static_cast<uint8_t>(s);
            }
          }
        }
        if (kRule) {
          settle_runs(x, c);
        } else {
          sort_runs(next);
        }
      }
      // The group step of number n: rebuild the groups from the promised tiles.
      const Node& prev = *path[li - 1];
      const Node& x = *path[li];
      const uint64_t g = prev.s.misc & kPromisedBits;
      if (g != 0) {
        for (const GroupBuild& gb : group_build(*scratch_, g, x.info & 15, C, in_.mode)) {
          Meld m{MeldKind::Group, 0, n, gb.size + gb.jokers, 0, 0};
          int rack = 0;
          for (int k = 0; k < gb.size; ++k) {
            const GroupMember& mem = gb.members[k];
            if (slot_real(mem.slot)) m.colours |= 1u << mem.colour;
            if (mem.slot == kRackTile) {
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
      if (kRule) settle_runs(x, -1);
      ++li;
    }
  };
  if (in_.mode.retrieval_rule) {
    if (in_.demands) {
      walk(std::true_type{}, std::true_type{});
    } else {
      walk(std::true_type{}, std::false_type{});
    }
  } else if (in_.demands) {
    walk(std::false_type{}, std::true_type{});
  } else {
    walk(std::false_type{}, std::false_type{});
  }
  for (int c = 0; c < C; ++c) {
    for (int k = 0; k < runs[c].size; ++k) finish_run(c, runs[c].at[k]);
  }
  for (int k = 1; k < nfree; ++k) {  // descending (a handful of jokers)
    for (int j = k; j > 0 && free_slots[j - 1] < free_slots[j]; --j) std::swap(free_slots[j - 1], free_slots[j]);
  }
  const int rack_jokers = nfree - in_.table_jokers;
  if (rack_jokers > 0) played.add(kJoker, rack_jokers);
  for (int k = 0; k < rack_jokers; ++k) value += free_slots[k];
}

// Returns the play of a final node: its rack tiles, the whole new table (on an untouched table, the old melds then
// the new), value and key. (mode, uncovered: as Programme::rebuild.)
PlayResult make_result(const Programme& prog, size_t f, const std::vector<Meld>& table, bool table_untouched,
                       const Mode* mode, int* uncovered) {
  PlayResult r;
  // (A play's table holds about as many melds as the old one: one allocation rather than a chain of growths.)
  r.table.reserve(table.size() + 8);
  if (table_untouched) r.table = table;
  prog.rebuild(f, r.table, r.played, r.value, mode, uncovered);
  r.key = prog.final_node(f).score;
  r.tiles = r.played.size();
  return r;
}

}  // namespace rummikub::search
