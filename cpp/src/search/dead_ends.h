// The dead ends of the depth-first search (Programme::run_depth_first): per depth, the states that led to no legal
// end, chained by their counts word, so that a state can be matched against those with the same counts whose runs
// can do whatever its runs can (dominance, as the sweep's: such a state leads nowhere either).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "layers.h"

namespace rummikub::search {

// Returns a colour's runs word (its runs packed into its low bytes, none 0) summarised in a byte for the dead ends'
// first test: its runs in the low 4 bits, and 7 less those shorter than L in the high 4 (each count at most 7
// there). Runs that cover others (runs_cover) hold as many runs or more, each covered run matched with its own,
// and no more short ones, each of which cannot end now and is matched with its own covered run, no longer: their
// byte is at least as large in both halves.
constexpr uint32_t runs_byte(uint64_t w, int L) {
  const uint32_t runs = count_runs(w), full = count_runs_reaching(w, L);
  return std::min(runs, 7U) | (7 - std::min(runs - full, 7U)) << 4;
}
// Returns true when the summary a (each colour's runs_byte in its byte) is at least b in both halves of every
// colour's byte, as a state's summary is when its runs cover the other's in every colour. (Each half is at most 7:
// with its top bit set first, a half of a - b borrows from it just when b's is the larger.)
inline bool fits_runs(uint32_t a, uint32_t b) { return (((a | 0x88888888U) - b) & 0x88888888U) == 0x88888888U; }

// The states of one depth that led nowhere.
struct DeadEnds {
  struct End {
    uint64_t runs[kMaxColours];
    int32_t next;         // the end before it with the same counts word (-1: none)
    uint32_t summary;     // each colour's runs_byte, in its byte
    End() = default;
    // (made in place in `ends`: no temporary to copy)
    static_assert(kMaxColours == 4, "four runs words");
    End(const State& s, uint32_t sum, int32_t before)
        : runs{s.runs[0], s.runs[1], s.runs[2], s.runs[3]}, next(before), summary(sum) {}
  };
  std::vector<End> ends;
  std::vector<uint64_t> keys;  // open addressing: a counts word (State::misc) ...
  std::vector<int32_t> heads;  // ... -> the last end of its chain (-1: an empty slot)
  size_t chains = 0;           // slots in use

  // Empties the set (a set left empty keeps its slots as they are). A set of at most kKeptSlots slots keeps their
  // number: the next search at its depth most often needs as many, which growing again would allocate anew.
  void reset() {
    if (ends.empty() && !heads.empty()) return;
    ends.clear();
    chains = 0;
    const size_t n = heads.size() > 16 && heads.size() <= kKeptSlots ? heads.size() : 16;
    keys.resize(n);  // (a key is read only where its head is in use: the old ones can stay)
    fill_empty(heads, n);
  }
  static constexpr size_t kKeptSlots = 1024;
  // Returns the slot of a counts word: its chain's, or the empty slot where it would go.
  size_t slot(uint64_t misc) const {
    const size_t wrap = heads.size() - 1;
    size_t at = hash_word(misc) & wrap;
    while (heads[at] >= 0 && keys[at] != misc) at = (at + 1) & wrap;
    return at;
  }
  // Adds a state that led nowhere (sum: the summary of its runs, as End keeps it); returns the slot of its counts
  // word.
  size_t add(const State& s, uint32_t sum) { return add(s, sum, slot(s.misc)); }
  // The same, given the slot of its counts word (slot(s.misc), found before any end was added since): returns the
  // slot of its counts word then (the one given, unless the slots grew).
  // (The growths are out of line: the search adds an end for about every other state it makes.)
  size_t add(const State& s, uint32_t sum, size_t at) {
    if (heads[at] < 0 && (chains + 1) * 2 > heads.size()) at = grow(s.misc);
    if (ends.size() == ends.capacity()) make_room();
    add_in_room(s, sum, at);  // (with room now)
    return at;
  }
  // The same as add(s, sum, at) when neither the ends nor the slots need more room (which takes a call): returns
  // false, adding nothing, when they would. (The slots are at most half in use.)
  bool add_in_room(const State& s, uint32_t sum, size_t at) {
    if (ends.size() == ends.capacity()) return false;
    int32_t& head = heads[at];
    if (head < 0) {
      if ((chains + 1) * 2 > heads.size()) return false;
      keys[at] = s.misc;
      ++chains;
    }
    ends.emplace_back(s, sum, head);
    head = static_cast<int32_t>(ends.size() - 1);
    return true;
  }
  // Returns the bytes the set holds.
  size_t bytes() const {
    return ends.capacity() * sizeof(End) + keys.capacity() * sizeof(uint64_t) + heads.capacity() * sizeof(int32_t);
  }

 private:
  // Doubles the room for ends.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void make_room() {
    ends.reserve(ends.capacity() < 8 ? 8 : ends.capacity() * 2);
  }
  // Doubles the slots; returns the slot of a counts word.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  size_t grow(uint64_t misc) {
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
    return slot(misc);
  }
};

}  // namespace rummikub::search
