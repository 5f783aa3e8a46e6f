// Groups: the tiles of one number promised to groups, and splitting them (with free jokers) into valid groups.
#pragma once

#include <cassert>
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

// The key of group_split's question (jokers: the free jokers; GroupsMemo asks with 0, for every count at once).
inline uint64_t group_key(uint64_t g, int jokers, int colours, const Mode& m) {
  return g | static_cast<uint64_t>(jokers) << 36 | static_cast<uint64_t>(colours) << 42 |
         static_cast<uint64_t>(m.retrieval_rule ? m.rack_needed + 1 : 0) << 45 | static_cast<uint64_t>(m.min_len) << 48;
}
// The answers of group_split, by the key of the promised tiles (each scratch its own): a direct-mapped cache whose
// entry holds the answer for each count of free jokers the tiles were asked with (a group step asks for several
// counts in a row). The keys a search asks are few and asked again soon; a collision only costs a split again (a
// hash map's lookup cost more than most splits do).
struct GroupsMemo {
  struct Entry {
    uint64_t key = 0;     // group_key(g, 0, colours, m) (no key is 0: every key holds the colour count)
    uint32_t splits = 0;  // bits 4y..4y+3: split_groups + 2 with y free jokers (0: not asked yet)
  };
  static_assert(kMaxJokers < 8, "a nibble for each count of free jokers");
  std::vector<Entry> entries = std::vector<Entry>(size_t{1} << 13);
  // Returns the entry a key maps to (its own or another key's).
  Entry& slot(uint64_t key) { return entries[static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> 51)]; }
};

// Splits the promised tiles g plus `jokers` free jokers into valid groups; returns the fewest uncovered jokers a
// split leaves, or -1 when there is none; fills `build` with such a split when asked (see groups.cpp).
int split_groups(uint64_t g, int jokers, int colours, const Mode& m, std::vector<GroupBuild>* build);
// Returns split_groups(g, jokers, colours, m) and puts it in `e`, the memo's slot of `key` (emptied first when it
// holds another key's answers).
int group_split_into(GroupsMemo::Entry& e, uint64_t key, uint64_t g, int jokers, int colours, const Mode& m);

// Returns split_groups(g, jokers, colours, m), remembered in `e`, the memo's slot of key = group_key(g, 0, colours,
// m) (GroupsMemo::slot).
inline int group_split(GroupsMemo::Entry& e, uint64_t key, uint64_t g, int jokers, int colours, const Mode& m) {
  assert(jokers >= 0 && jokers <= kMaxJokers);
  const uint32_t known = e.key == key ? (e.splits >> (4 * jokers)) & 15 : 0;
  if (known != 0) return static_cast<int>(known) - 2;
  return group_split_into(e, key, g, jokers, colours, m);
}
// (The same, finding the slot.)
inline int group_split(uint64_t g, int jokers, int colours, const Mode& m, GroupsMemo& memo) {
  const uint64_t key = group_key(g, 0, colours, m);
  return group_split(memo.slot(key), key, g, jokers, colours, m);
}

}  // namespace rummikub::search
