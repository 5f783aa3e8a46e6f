// The search's scratch memory: one SearchScratch holds every memo and every reusable buffer of a search, so a search
// owns or borrows all of it in one place; thread_scratch() is the calling thread's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dead_ends.h"
#include "groups.h"
#include "layers.h"
#include "opening.h"
#include "transitions.h"

namespace rummikub::search {

// A guide's moves out of one layer (Programme::keep), in the order made: each is (parent | rack copies placed <<
// Programme::kMoveShift, node). Its room is left uninitialised and doubles when full, so that adding a move is a
// store and a count inline in the steps (std::vector's emplace_back stays a call there).
class MoveList {
 public:
  struct Move {
    int32_t packed;  // the parent, with the rack copies the move places in its top bits
    int32_t node;
  };
  RUMMIKUB_ALWAYS_INLINE void push(int32_t packed, int32_t node) {
    if (size_ == capacity_) grow();
    moves_[size_++] = Move{packed, node};
  }
  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  const Move* begin() const { return moves_.get(); }
  const Move* end() const { return moves_.get() + size_; }

 private:
  // Doubles the room (out of line: rarely taken).
  __attribute__((noinline)) void grow() {
    capacity_ = capacity_ == 0 ? 64 : capacity_ * 2;
    std::unique_ptr<Move[]> more(new Move[capacity_]);
    std::copy(moves_.get(), moves_.get() + size_, more.get());
    moves_ = std::move(more);
  }
  std::unique_ptr<Move[]> moves_;
  size_t size_ = 0, capacity_ = 0;
};

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

// What a colour step does to every node with one counts word (State::misc), made once per step for the first such
// node and replayed for the others (Programme::colour_step): each way to place the step's tile (rack copies b, a
// promise to groups, free jokers y) that no node of that word rules out, in the order the step offers children.
struct StepCombo {
  const GroupChoice* gc;
  uint64_t misc;       // the child's counts word, groups included (its runs' uncovered jokers come with the move)
  uint64_t mask_bits;  // the usage bits of the b rack copies placed (enumerating plays; else 0)
  int64_t score;       // added to the node's score
  int64_t bound;       // added to the node's score: the child's bound
  uint32_t rest;       // the transition memo's key but for the runs
  uint32_t info;       // Node::info
  int need;            // free jokers the move takes for certain: the y placed and the promised groups' deficit
  int y;               // free jokers placed
  bool resettle;       // placing a joker or a rack tile may settle the runs further
};
// The combos of one counts word: combos [begin, end) and the bounds of its (b, y) choices [bounds_begin, bounds_end)
// (the highest of those below the floor is the node's pending bound), with what the word says of the node.
struct StepClass {
  uint64_t misc;
  uint32_t begin, end, bounds_begin, bounds_end;
  int64_t bound_low, bound_high;  // the lowest and the highest of those bounds
  int how, left, uncovered_room;  // settle_how, free jokers left, uncovered jokers the rack's can still be
  int members, most;              // the tiles the colours before promised to groups, and the most one promised
};
// A colour step's lists (cleared at each step; their memory is kept, up to SearchScratch::trim).
struct StepScratch {
  std::vector<StepCombo> combos;
  std::vector<int64_t> bounds;
  std::vector<StepClass> classes;
  std::vector<int32_t> by_misc;  // open addressing: counts word -> entry of `classes`
};

// The ways to promise copies of one tile to groups depend on little (the copies of each kind, the colour,
// whether groups can form at that number, the retrieval rule): a scratch makes each list once and keeps it
// (bounded by SearchScratch::trim), where a programme's steps look them up. Node-based, so a list never moves.
struct ChoiceList {
  std::vector<GroupChoice> choices;
  uint32_t begin[kMaxCount + 2];  // the choices of b rack copies: choices[begin[b] .. begin[b + 1])
};

// all_plays' own containers (enumerate.cpp), kept between calls so that a warm listing allocates little: the
// rack tiles placed on the way to the live states of two layers of the guide, the distinct plays as they are
// found, their index and order, and the lists of a listing that was let go (emptied, their capacity reused by
// the next).
struct PlaysScratch {
  // The (rack tiles placed, best score) pairs of one layer, grouped by state: live state i's are
  // [first[2 i], first[2 i + 1]) (a dead state's span is left as it was).
  struct Pairs {
    std::vector<uint32_t> first;
    std::vector<uint64_t> masks;
    std::vector<int64_t> scores;
  };
  Pairs pairs[2];
  // The guide's moves into the next layer's live states, listed by state (state q's last at head[q], each move's
  // one before it at `before`, -1: none), the live states in the order first reached, and the index of the pairs
  // made for a state that several moves reach.
  struct LiveMove {
    int32_t packed;  // the move (Programme::moves)
    int32_t before;
  };
  std::vector<int32_t> head;
  std::vector<LiveMove> into;
  std::vector<uint32_t> live;
  std::vector<int32_t> by_pair;  // open addressing: rack tiles -> pair made
  struct Found {
    uint64_t mask;    // the rack tiles placed (usage bits)
    int rack_jokers;  // the rack jokers placed
    int64_t score;    // the best arrangement's score
  };
  std::vector<Found> found;        // first-seen order
  std::vector<int32_t> by_key;     // open addressing: (mask, rack jokers) -> entry of `found`
  std::vector<TileSet> played;     // each entry's played tiles
  std::vector<uint32_t> rank;      // the entries, best first
  std::vector<PlayResult> plays;   // a released listing's plays (empty)
  std::vector<uint8_t> built;      // and their flags (empty)

  // Lets the memory of a large listing go (what the forward pass and the index of the plays hold past a few MB),
  // so that one big listing does not keep its memory in the thread's scratch for good.
  void trim() {
    constexpr size_t kMost = size_t{1} << 18;  // pairs (16 bytes each) or moves
    for (Pairs& p : pairs) {
      if (p.masks.capacity() > kMost || p.first.capacity() > kMost) p = Pairs();
    }
    if (head.capacity() > kMost || into.capacity() > kMost || live.capacity() > kMost) {
      head = std::vector<int32_t>();
      into = std::vector<LiveMove>();
      live = std::vector<uint32_t>();
    }
    if (by_pair.capacity() > kMost) by_pair = std::vector<int32_t>();
    if (found.capacity() > kMost / 2 || by_key.capacity() > kMost) {
      found = std::vector<Found>();
      by_key = std::vector<int32_t>();
      played = std::vector<TileSet>();
      rank = std::vector<uint32_t>();
    }
  }
};

// The memory a search works in: the memos its programmes share (transitions, group splits, run covers, the lanes
// of runs summaries, group choices, rebuilt groups) and the spare memory they reuse (layers, expand_layer's
// children, the depth-first search's dead ends, the opening's candidate melds). A search borrows one; the public
// entry points use the calling thread's (thread_scratch). Kept between searches, so a warm search allocates nothing.
struct SearchScratch {
  TransitionMemo transition_memo;
  GroupsMemo group_memo;
  CoverMemo cover_memo;
  LanesMemo lanes_memo;
  ShareScratch shared_children;
  StepScratch step;  // a colour step's combos (Programme::colour_step)
  // The ways to promise copies of one tile to groups, by their key (Programme::step_plan).
  std::unordered_map<uint32_t, ChoiceList> choice_lists;
  // A direct-mapped cache in front of choice_lists (a programme asks for a list at each of its sweep positions, and
  // the map's hashing cost more than the rest of the plan): key + 1 (0: empty) and the list.
  struct ChoiceSlot {
    uint32_t key = 0;
    const ChoiceList* list = nullptr;
  };
  static constexpr size_t kChoiceSlots = 256;
  ChoiceSlot choice_cache[kChoiceSlots] = {};
  // The layers of finished programmes (a few small sets; their vectors keep their capacity).
  std::vector<std::vector<Layer>> spare_layers;
  // The states of each depth that lead nowhere (Programme::run_depth_first).
  std::vector<DeadEnds> dead_ends;
  // Groups rebuilt from promised tiles, by group_key (rebuild).
  std::unordered_map<uint64_t, std::vector<GroupBuild>> group_builds;
  // The melds the rack forms (opening_search).
  std::vector<OpeningCandidate> opening_candidates;
  // all_plays' own lists.
  PlaysScratch plays;
  // The last guide's moves and marks (Programme::make_guide), kept for the next guide unless they are large.
  std::vector<MoveList> guide_moves;
  std::vector<std::vector<uint8_t>> guide_alive;

  // Keeps a finished guide's moves and marks for the next guide, unless they hold more than a few MB.
  void keep_guide_lists(std::vector<MoveList>& moves, std::vector<std::vector<uint8_t>>& alive) {
    size_t held = 0;
    for (const MoveList& m : moves) held += m.capacity() * sizeof(MoveList::Move);
    for (const auto& a : alive) held += a.capacity();
    if (held > (size_t{1} << 22)) return;
    guide_moves = std::move(moves);
    guide_alive = std::move(alive);
  }

  // Bounds the memos: called at the start of each public entry point, never while nodes refer to them.
  void trim() {
    if (transition_memo.pool.size() > (size_t{1} << 20)) transition_memo = TransitionMemo();  // 16 MiB of records
    if (step.combos.capacity() > (size_t{1} << 16)) step = StepScratch();  // (a large layer's: 4 MiB)
    if (choice_lists.size() > 4096) {
      choice_lists.clear();
      for (ChoiceSlot& slot : choice_cache) slot = ChoiceSlot();
    }
  }
};

// Returns the calling thread's scratch: made on the thread's first search, or taken over from a thread that ended.
SearchScratch& thread_scratch();

}  // namespace rummikub::search
