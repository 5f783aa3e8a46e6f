// Transitions: the ways a colour's open runs take the slots of its next number, made once and kept in a memo
// shared by the programmes of a search scratch (SearchScratch::transition_memo).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "run_words.h"

namespace rummikub::search {

// One way a colour's runs take the slots of a number: what each old run does (3 bits each: 0 ends,
// 1 + slot continues with that slot); the rest of the slots start new runs.
struct Transition {
  uint64_t next;
  uint32_t actions;  // bits 0-23: 3 for each of at most 8 old runs; bits 24-31: the uncovered jokers of those it ends
  uint32_t needs;    // run_needs(next), for the joker lookahead
  // Returns the uncovered jokers of the runs it ends.
  int uncovered() const { return static_cast<int>(actions >> 24); }
};
using TransitionList = std::vector<Transition>;

// Calls emit() once for each choice of actions for a colour's k open runs `old` at its next number, the choice in
// act[]: 0 ends run i (where it may end now), s + 1 continues it with one slot of kind s taken from rem[] (the
// slots left in rem[] then start new runs). Runs with equal descriptors take non-decreasing actions: their order
// does not matter, so each distinct choice comes once.
template <class Emit>
void each_run_action(const uint8_t* old, int k, int* rem, int* act, const Mode& m, Emit&& emit) {
  auto rec = [&](auto&& self, int i) -> void {
    if (i >= k || i >= 8) {  // (k <= 8 always; the second test lets the compiler see it)
      emit();
      return;
    }
    const int floor = (i > 0 && old[i] == old[i - 1]) ? act[i - 1] : 0;
    if (floor == 0 && can_end_now(old[i], m)) {
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
}

// The memo of transitions: an open-addressing table of (runs, slots, mode) keys pointing into a pool of
// Transition records. Nodes refer to records by pool index, which stays valid as the pool grows.
struct TransitionMemo {
  struct Entry {
    uint64_t state = 0;
    uint32_t rest = 0;  // slots and mode; never 0 for a used entry (the mode's L is at least 2)
    uint32_t begin = 0, count = 0;
  };
  std::vector<Entry> table = std::vector<Entry>(1 << 12);
  size_t mask = (1 << 12) - 1;  // table.size() - 1 (kept: an entry is 24 bytes, so the size is a division)
  size_t used = 0;
  std::vector<Transition> pool;

  // Returns the hash of a key.
  static size_t hash(uint64_t state, uint32_t rest) {
    uint64_t h = state * 0x9E3779B97F4A7C15ULL ^ (static_cast<uint64_t>(rest) * 0xC2B2AE3D27D4EB4FULL);
    return static_cast<size_t>(h ^ (h >> 29));
  }
  // Returns the entry of a key, or the empty entry where it would go.
  Entry* find(uint64_t state, uint32_t rest) {
    for (size_t i = hash(state, rest) & mask;; i = (i + 1) & mask) {
      Entry& e = table[i];
      if (e.rest == 0 || (e.state == state && e.rest == rest)) return &e;
    }
  }
  // Doubles the table.
  void grow() {
    std::vector<Entry> old(table.size() * 2);
    old.swap(table);
    mask = table.size() - 1;
    for (const Entry& e : old) {
      if (e.rest != 0) *find(e.state, e.rest) = e;
    }
  }
};
// Makes the memo entry of a colour's runs `state` and the slots of its next number (see transitions.cpp); returns
// the pool index of its first transition and their count.
std::pair<uint32_t, uint32_t> make_transitions(TransitionMemo& memo, uint64_t state, uint32_t rest,
                                               const int slots[kSlots], const Mode& m, int how);

// The memo's key of a lookup besides the runs: the mode, `how`, and 3 bits for each slot's count.
inline uint32_t transition_key(const Mode& m, int how) { return m.id() << 16 | static_cast<uint32_t>(how) << 25; }
// Returns a slot's count placed in the key.
inline uint32_t slot_bits(int slot, int count) { return static_cast<uint32_t>(count) << (3 * slot); }
// Returns the transitions (pool index of the first, count) of a colour's runs `state` through the slots of its next
// number, settled as `how` says. (rest: transition_key(m, how) with the slot_bits of every slot, which callers may
// build in parts.)
inline std::pair<uint32_t, uint32_t> transitions(TransitionMemo& memo, uint64_t state, uint32_t rest,
                                                 const int slots[kSlots], const Mode& m, int how) {
  const TransitionMemo::Entry* hit = memo.find(state, rest);
  if (hit->rest != 0) return {hit->begin, hit->count};
  return make_transitions(memo, state, rest, slots, m, how);
}
// (The same, given the slots' counts one by one: their array is written out only when the memo has no entry yet,
// which most lookups find. The colour step's loops in sweep.cpp spell this lookup out instead: there, this call
// costs about 1% more instructions.)
inline std::pair<uint32_t, uint32_t> transitions(TransitionMemo& memo, uint64_t state, uint32_t rest, int table_tiles,
                                                 int staying_jokers, int rack_tiles, int free_jokers, const Mode& m,
                                                 int how) {
  const TransitionMemo::Entry* hit = memo.find(state, rest);
  if (hit->rest != 0) return {hit->begin, hit->count};
  const int slots[kSlots] = {table_tiles, staying_jokers, rack_tiles, free_jokers};
  return make_transitions(memo, state, rest, slots, m, how);
}
// (The same, building the key.)
inline std::pair<uint32_t, uint32_t> transitions(TransitionMemo& memo, uint64_t state, const int slots[kSlots],
                                                 const Mode& m, int how) {
  uint32_t rest = transition_key(m, how);
  for (int s = 0; s < kSlots; ++s) rest |= slot_bits(s, slots[s]);
  return transitions(memo, state, rest, slots, m, how);
}

}  // namespace rummikub::search
