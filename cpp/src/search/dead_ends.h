// The dead ends of the depth-first search (Programme::run_depth_first): per depth, the states that led to no legal
// end, chained by their counts word, so that a state can be matched against those with the same counts whose runs
// can do whatever its runs can (dominance, as the sweep's: such a state leads nowhere either).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layers.h"

namespace rummikub::search {

// The states of one depth that led nowhere.
struct DeadEnds {
  struct End {
    uint64_t runs[kMaxColours];
    int32_t next;         // the end before it with the same counts word (-1: none)
  };
  std::vector<End> ends;
  std::vector<uint64_t> keys;  // open addressing: a counts word (State::misc) ...
  std::vector<int32_t> heads;  // ... -> the last end of its chain (-1: an empty slot)
  size_t chains = 0;           // slots in use

  // Empties the set (a set left empty keeps its slots as they are).
  void reset() {
    if (ends.empty() && !heads.empty()) return;
    ends.clear();
    chains = 0;
    keys.assign(16, 0);
    heads.assign(16, -1);
  }
  // Returns the slot of a counts word: its chain's, or the empty slot where it would go.
  size_t slot(uint64_t misc) const {
    const size_t wrap = heads.size() - 1;
    const uint64_t h = misc * 0x9E3779B97F4A7C15ULL;
    size_t at = static_cast<size_t>(h ^ (h >> 29)) & wrap;
    while (heads[at] >= 0 && keys[at] != misc) at = (at + 1) & wrap;
    return at;
  }
  // Returns the last end with this counts word (-1: none).
  int32_t chain(uint64_t misc) const { return ends.empty() ? -1 : heads[slot(misc)]; }
  // Adds a state that led nowhere.
  void add(const State& s) { add(s, slot(s.misc)); }
  // The same, given the slot of its counts word (slot(s.misc), found before any end was added since).
  void add(const State& s, size_t at) {
    if ((chains + 1) * 2 > heads.size()) {
      grow();
      at = slot(s.misc);
    }
    if (heads[at] < 0) {
      keys[at] = s.misc;
      ++chains;
    }
    End e{{}, heads[at]};
    for (int c = 0; c < kMaxColours; ++c) e.runs[c] = s.runs[c];
    heads[at] = static_cast<int32_t>(ends.size());
    ends.push_back(e);
  }
  // Returns the bytes the set holds.
  size_t bytes() const {
    return ends.capacity() * sizeof(End) + keys.capacity() * sizeof(uint64_t) + heads.capacity() * sizeof(int32_t);
  }

 private:
  // Doubles the slots.
  void grow() {
    std::vector<uint64_t> old_keys(heads.size() * 2, 0);
    std::vector<int32_t> old_heads(heads.size() * 2, -1);
    old_keys.swap(keys);
    old_heads.swap(heads);
    for (size_t i = 0; i < old_heads.size(); ++i) {
      if (old_heads[i] >= 0) {
        const size_t at = slot(old_keys[i]);
        keys[at] = old_keys[i];
        heads[at] = old_heads[i];
      }
    }
  }
};

}  // namespace rummikub::search
