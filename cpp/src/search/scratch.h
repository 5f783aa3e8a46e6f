// The search's scratch memory: one SearchScratch holds every memo and every reusable buffer of a search, so a search
// owns or borrows all of it in one place; thread_scratch() is the calling thread's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "dead_ends.h"
#include "groups.h"
#include "layers.h"
#include "opening.h"
#include "transitions.h"

namespace rummikub::search {

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
// whether groups can form at that number, the retrieval rule): a scratch makes each list once and keeps it
// (bounded by SearchScratch::trim), where a programme's steps look them up. Node-based, so a list never moves.
struct ChoiceList {
  std::vector<GroupChoice> choices;
  uint32_t begin[kMaxCount + 2];  // the choices of b rack copies: choices[begin[b] .. begin[b + 1])
};

// The memory a search works in: the memos its programmes share (transitions, group splits, run covers, group
// choices, rebuilt groups) and the spare memory they reuse (layers, expand_layer's children, the depth-first
// search's dead ends, the opening's candidate melds). A search borrows one; the public entry points use the
// calling thread's (thread_scratch). Kept between searches, so a warm search allocates nothing.
struct SearchScratch {
  TransitionMemo transition_memo;
  GroupsMemo group_memo;
  CoverMemo cover_memo;
  ShareScratch shared_children;
  // The ways to promise copies of one tile to groups, by their key (Programme::step_plan).
  std::unordered_map<uint32_t, ChoiceList> choice_lists;
  // The layers of finished programmes (a few small sets; their vectors keep their capacity).
  std::vector<std::vector<Layer>> spare_layers;
  // The states of each depth that lead nowhere (Programme::run_depth_first).
  std::vector<DeadEnds> dead_ends;
  // Groups rebuilt from promised tiles, by group_key (rebuild).
  std::unordered_map<uint64_t, std::vector<GroupBuild>> group_builds;
  // The melds the rack forms (opening_search).
  std::vector<OpeningCandidate> opening_candidates;

  // Bounds the memos: called at the start of each public entry point, never while nodes refer to them.
  void trim() {
    if (transition_memo.pool.size() > (size_t{1} << 20)) transition_memo = TransitionMemo();  // 16 MiB of records
    if (choice_lists.size() > 4096) choice_lists.clear();
  }
};

// Returns the calling thread's scratch: the search's one thread-local, made on the thread's first search.
SearchScratch& thread_scratch();

}  // namespace rummikub::search
