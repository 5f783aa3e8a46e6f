// Groups: the tiles of one number promised to groups, and splitting them (with free jokers) into valid groups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "run_words.h"

namespace rummikub::search {

// The tiles of one number promised to groups: per colour 3-bit counts of table tiles, staying
// jokers and rack tiles (9 bits a colour).
inline int promised(uint64_t g, int c, int s) { return static_cast<int>((g >> (9 * c + 3 * s)) & 7); }

struct GroupMember {
  int colour;
  int slot;  // kTableTile, kStayingJoker or kRackTile
};
struct GroupBuild {
  GroupMember members[kMaxColours];  // distinct colours
  int size = 0;                      // members
  int jokers = 0;                    // free jokers
};

// The key of group_split's question.
inline uint64_t group_key(uint64_t g, int jokers, int colours, const Mode& m) {
  return g | static_cast<uint64_t>(jokers) << 36 | static_cast<uint64_t>(colours) << 42 |
         static_cast<uint64_t>(m.retrieval_rule ? m.rack_needed + 1 : 0) << 45 | static_cast<uint64_t>(m.min_len) << 48;
}
// The answers of group_split, by key (each scratch its own): a direct-mapped cache. The keys a search asks are
// few and asked again soon; a collision only costs one split again (a hash map's lookup cost more than most
// splits do).
struct GroupsMemo {
  struct Entry {
    uint64_t key = 0;  // (no key is 0: every key holds the colour count)
    int value = 0;
  };
  std::vector<Entry> entries = std::vector<Entry>(size_t{1} << 13);
  // Returns the entry a key maps to (its own or another key's).
  Entry& slot(uint64_t key) { return entries[static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> 51)]; }
};

// Splits the promised tiles g plus `jokers` free jokers into valid groups; returns the fewest uncovered jokers a
// split leaves, or -1 when there is none; fills `build` with such a split when asked (see groups.cpp).
int split_groups(uint64_t g, int jokers, int colours, const Mode& m, std::vector<GroupBuild>* build);

// Returns split_groups(g, jokers, colours, m), remembered in `memo` (key: group_key(g, jokers, colours, m)).
inline int group_split(uint64_t key, uint64_t g, int jokers, int colours, const Mode& m, GroupsMemo& memo) {
  GroupsMemo::Entry& cached = memo.slot(key);
  if (cached.key == key) return cached.value;
  const int best = split_groups(g, jokers, colours, m, nullptr);
  cached = GroupsMemo::Entry{key, best};
  return best;
}
// (The same, making the key.)
inline int group_split(uint64_t g, int jokers, int colours, const Mode& m, GroupsMemo& memo) {
  return group_split(group_key(g, jokers, colours, m), g, jokers, colours, m, memo);
}

}  // namespace rummikub::search
