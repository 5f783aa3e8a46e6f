// Transitions: making the memo's entries (every distinct next state of a colour's runs).
#include "transitions.h"

namespace rummikub::search {

// Returns every distinct next state of a colour's runs, given the slots of its next number, settled as `how`
// says. Of two ways to one next state, the one that leaves fewer jokers uncovered is kept.
// Dominated moves are left out: ending a run while a new run starts in the same colour is never better
// than continuing the old run with that slot (the longer run can do all the new one can, and leaves no more
// jokers uncovered than the two runs would: meld_uncovered is subadditive). Returns the pool index of the first
// record and the count. (This builds the memo entry; transitions() in transitions.h looks it up first.)
std::pair<uint32_t, uint32_t> make_transitions(TransitionMemo& memo, uint64_t state, uint32_t rest,
                                               const int slots[kSlots], const Mode& m, int how) {
  TransitionList out;
  uint8_t old[8];
  const int k = unpack_runs(state, old);
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
        next[n++] = extend_run(old[j], act[j] - 1, m);
      } else {
        closed = true;
        uncovered += static_cast<uint32_t>(run_uncovered(old[j]));
      }
    }
    int fresh_runs = 0;
    for (int s = 0; s < kSlots; ++s) fresh_runs += rem[s];
    if (n + fresh_runs > 8 || (closed && fresh_runs > 0)) return;
    for (int s = 0; s < kSlots; ++s) {
      for (int r = 0; r < rem[s]; ++r) next[n++] = extend_run(0, s, m);
    }
    if (how != kOpen) {
      for (int j = 0; j < n; ++j) next[j] = settle(next[j], how);
    }
    const uint64_t ns = pack_runs(next, n);
    uint32_t a = 0;
    for (int j = 0; j < k; ++j) a |= static_cast<uint32_t>(act[j]) << (3 * j);
    a |= uncovered << 24;
    for (Transition& t : out) {
      if (t.next != ns) continue;
      if (a >> 24 < t.actions >> 24) t.actions = a;
      return;
    }
    out.push_back(Transition{ns, a, run_needs(ns, m)});
  };
  each_run_action(old, k, rem, act, m, emit);
  if ((memo.used + 1) * 2 > memo.table.size()) memo.grow();
  TransitionMemo::Entry* e = memo.find(state, rest);
  *e = TransitionMemo::Entry{state, rest, static_cast<uint32_t>(memo.pool.size()), static_cast<uint32_t>(out.size())};
  ++memo.used;
  memo.pool.insert(memo.pool.end(), out.begin(), out.end());
  return {e->begin, e->count};
}

}  // namespace rummikub::search
