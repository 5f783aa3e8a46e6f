// The programme: the dynamic programme over the numbers 1..N and, within a number, the colours. One Programme is
// one run of the sweep over one compiled position (Input); its layers hold the states after each step. The class
// is declared here with its small helpers; its steps live in sweep.cpp, its depth-first search in arrange.cpp,
// dominance in layers.cpp and the rebuilding of a play in rebuild.cpp.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "groups.h"
#include "jokers.h"
#include "layers.h"
#include "position.h"
#include "scratch.h"
#include "transitions.h"

// Marks a member function defined in one source file and called from one place there, to be inlined into its caller
// as a compiler does with a file's own functions called once (a member function is seen by every file: it would not).
#if defined(__GNUC__)
#define RUMMIKUB_INLINE_ONCE __attribute__((always_inline)) inline
#else
#define RUMMIKUB_INLINE_ONCE inline
#endif

namespace rummikub::search {

class Programme {
 public:
  // Nodes whose score plus the bound of what is left falls below `floor` are dropped. The programme works in
  // `scratch` (its memos, and the layers of finished programmes, which it takes back: no malloc once warm).
  // With node_limit > 0, a run stops (exceeded()) once its layers hold more than node_limit nodes or more than
  // byte_limit bytes (by default kBytesPerState a node of the limit).
  Programme(const Input& in, SearchScratch& scratch, SearchStats* stats, int64_t floor = INT64_MIN,
            size_t node_limit = 0, size_t byte_limit = 0)
      : in_(in),
        stats_(stats),
        scratch_(&scratch),
        floor_(floor),
        node_limit_(node_limit),
        byte_limit_(byte_limit != 0 ? byte_limit : limit_bytes(node_limit)),
        mode_key_(transition_key(in.mode, 0)) {
    if (!scratch.spare_layers.empty()) {
      layers_ = std::move(scratch.spare_layers.back());
      scratch.spare_layers.pop_back();
    }
  }
  Programme(Programme&&) = default;
  Programme(const Programme&) = delete;
  Programme& operator=(const Programme&) = delete;
  // Returns the layers to the scratch, unless they are large.
  ~Programme() {
    // Keep at most a few small sets of layers: a large programme's memory goes back to the system. A position with
    // table jokers keeps a programme per joker option alive at once (up to a dozen): tiny sets, which are kept
    // too, so that each option's layers are not allocated again (about 2% of a medium game's search).
    // (the bytes of each kind added up, then divided once: the same count as the capacities added up)
    size_t node_bytes = 0, index_bytes = 0;
    for (const Layer& l : layers_) {
      node_bytes += l.nodes.capacity() * sizeof(Node);
      index_bytes += l.index.capacity() * sizeof(int32_t);
    }
    const size_t held = node_bytes / sizeof(Node) + index_bytes / sizeof(int32_t);
    const size_t kept = scratch_->spare_layers.size();
    if (!layers_.empty() && ((held < (size_t{1} << 18) && kept < 4) || (held < (size_t{1} << 16) && kept < 16))) {
      scratch_->spare_layers.push_back(std::move(layers_));
    }
    if (guide_mode_) scratch_->keep_guide_lists(moves_, alive_);
  }
  // Moves the programme to another scratch (a list of plays built later, perhaps by another thread, rebuilds and
  // recycles into that thread's).
  void rebind(SearchScratch& scratch) { scratch_ = &scratch; }

  // Runs the sweep; afterwards finals() lists the nodes that end legally. After set_floor() with a lower floor,
  // run() again deepens: it keeps every node and expands only what the lower floor adds (new or improved nodes,
  // and children left below the old floor), which gives the same finals as a fresh sweep at the lower floor.
  void run();
  // Finds one legal end of a table-only input (arrange) depth first, remembering the states that lead nowhere;
  // afterwards finals() lists it (or nothing). On a table that can be arranged, the first complete path is
  // usually found with a few hundred expansions, where the sweep would build every state.
  // Gives up after `budget` expansions: returns false, with no finals. With `guides`, tries first the steps of
  // the nearest path they hold, and adds the path it finds (arrange.cpp): their paths of mirrored searches when
  // `down` (the input is a multiset read mirrored, every number n as N + 1 - n), else those of searches up.
  bool run_depth_first(size_t budget = SIZE_MAX, ArrangeGuides::Impl* guides = nullptr, bool down = false);

  // Returns the indices of the last layer's nodes that end legally.
  std::vector<size_t> finals() const {
    std::vector<size_t> out;
    const Layer& L = layers_[last_];
    for (size_t i = 0; i < L.nodes.size(); ++i) {
      if (ends_legally(L.nodes[i])) out.push_back(i);
    }
    return out;
  }

  // Returns the nodes the last layer holds (after run_depth_first: 1 when it found a legal end, node 0, else 0).
  size_t held_final() const { return layers_[last_].nodes.size(); }
  // Returns node i of the last layer.
  const Node& final_node(size_t i) const { return layers_[last_].nodes[i]; }
  // Returns the nodes the layers hold.
  size_t held() const {
    size_t n = 0;
    for (size_t k = 0; k <= last_ && k < layers_.size(); ++k) n += layers_[k].nodes.size();
    return n;
  }
  // Returns true when the run stopped at its node or byte limit (its finals are then empty).
  bool exceeded() const { return exceeded_; }
  // Returns the bytes the layers hold (their nodes, indexes, dominance buckets and a guide's moves), as counted
  // for the limit (layer_bytes; the layers the last run did not reach hold nothing of this programme's).
  size_t bytes() const {
    size_t b = 0;
    for (size_t k = 0; k < ready_ && k < layers_.size(); ++k) b += layer_bytes(k);
    return b;
  }
  // Lowers the floor for the next run() (which then deepens this one).
  void set_floor(int64_t floor) { floor_ = floor; }
  // Returns the highest score a legal end can reach at any lower floor (after run()): every end a deeper run finds
  // descends from a child left below the floor (whose bound is kept in its layer's pending) or is a legal end
  // already held under the floor (only a node with rack jokers left unplaced can be: the bound of any other node
  // of the last layer is its score). INT64_MIN: nothing is left.
  int64_t bound_left() const {
    int64_t b = INT64_MIN;
    for (size_t k = 0; k < last_ && k < ready_; ++k) b = std::max(b, layers_[k].pending);
    if (last_ < ready_ && in_.rack_jokers > 0) {
      for (const Node& x : layers_[last_].nodes) {
        if (x.score > b && ends_legally(x)) b = x.score;
      }
    }
    return b;
  }

  // Makes this programme a guide: every state is kept (no dominance), and after run(), mark_alive() flags
  // the states of each layer from which a legal end (rack tile or not) can be reached.
  void make_guide() {
    guide_mode_ = true;
    // (the lists of the scratch's last guide, emptied: their memory is reused)
    moves_ = std::move(scratch_->guide_moves);
    alive_ = std::move(scratch_->guide_alive);
    moves_.resize(static_cast<size_t>(in_.p.numbers * (in_.p.colours + 1)));
    for (auto& m : moves_) m.clear();
  }
  // Makes this guide (before its run()) take the first layers of `donor`, a guide whose run is over: those before
  // the first step that reads anything their inputs differ in (shared_guide_layers), which it would make alike.
  // run() then starts from there (counting the layers taken against its limits as if it had made them), and the
  // donor is left holding spare layers: it must only be destroyed afterwards.
  void take_prefix(Programme& donor) { donor_ = &donor; }
  // Returns how many layers after the start two guides of these inputs (no floor, no usage) make alike: the steps
  // before the first that reads a count, demand or derived figure the inputs differ in. (Only the bounds of the
  // rack tiles left are not compared: without a floor they prune nothing, and what they leave in the nodes'
  // pending bounds is read only by a deepening run, which a guide never has.)
  static size_t shared_guide_layers(const Input& a, const Input& b);
  // Flags the states of a guide from which a legal end can be reached (after run()).
  void mark_alive();
  // Returns true when the guide has a legal end at all.
  bool any_alive() const { return !alive_.empty() && !alive_[0].empty() && alive_[0][0] != 0; }
  // A guide's moves out of layer li (after run()): (parent | rack copies placed << kMoveShift, node).
  static constexpr int kMoveShift = 28;
  static constexpr size_t kMoveCopies = size_t{1} << kMoveShift;
  const MoveList& moves(size_t li) const { return moves_[li]; }
  // Returns true when node i of a guide's layer li can reach a legal end (after mark_alive()).
  bool alive(size_t li, size_t i) const { return alive_[li][i] != 0; }
  // Returns the flags of layer li's nodes (alive: not 0), after mark_alive().
  const uint8_t* alive_flags(size_t li) const { return alive_[li].data(); }
  // Returns the nodes of layer li, and the index of the last layer (after run()).
  const std::vector<Node>& layer_nodes(size_t li) const { return layers_[li].nodes; }
  size_t last_layer() const { return last_; }

  // Rebuilds the melds of a final node; fills the played tiles and value(P), and when asked, the free jokers
  // each meld leaves uncovered under the retrieval rule of `mode` (see extend_run).
  void rebuild(size_t final_index, std::vector<Meld>& melds, TileSet& played, int& value,
               const Mode* mode = nullptr, int* uncovered = nullptr) const;

 private:
  // Sizes the layers for a sweep and puts the empty start state in the first; returns the last layer's index.
  size_t start();
  // Takes the donor's first layers (take_prefix) and their moves; returns the index of the last layer taken.
  size_t take_layers();
  // Returns the bytes layer li holds (with a guide's moves out of the layer before it), as this programme allocated
  // them: what its vectors hold, and the room they reserved and grew by doubling (fresh_capacity). Whatever more
  // room they have is left from an earlier programme of the thread's scratch, and does not count: the limit stops
  // a search at the same point whatever the thread searched before.
  size_t layer_bytes(size_t li) const {
    const Layer& l = layers_[li];
    // (The dominance buckets hold the `bucketed` nodes; a layer never bucketed since reset() holds another's.)
    const size_t buckets = l.bucketed == 0 ? 0 : l.bucket_head.size() * sizeof(int32_t);
    size_t b = fresh_capacity(l.nodes.size(), l.reserved) * sizeof(Node) + (l.mask + 1) * sizeof(int32_t) + buckets +
               fresh_capacity(l.bucketed, 0) * (sizeof(int32_t) + sizeof(uint32_t) + sizeof(RunsSummary));
    if (li > 0 && li <= moves_.size()) b += fresh_capacity(moves_[li - 1].size(), 0) * sizeof(MoveList::Move);
    return b;
  }
  // Returns true when a node of the last layer is a legal end.
  bool ends_legally(const Node& x) const {
    if (x.dead) return false;
    const int placed = jokers_placed(x.s);
    if (placed - in_.table_jokers < in_.rack_jokers_min || opening_value(x.s) < in_.threshold) return false;
    if (in_.require_play && x.score <= 0) return false;
    int open = 0;
    for (int c = 0; c < in_.p.colours; ++c) {
      uint8_t d[8];
      const int k = unpack_runs(x.s.runs[c], d);
      for (int j = 0; j < k; ++j) {
        if (!can_end_last(d[j], in_.mode)) return false;
        open += run_uncovered(d[j]);
      }
    }
    // The retrieval rule: enough free jokers can be the retrieved ones (see extend_run; settled runs count none).
    return !in_.mode.retrieval_rule || placed - closed_uncovered(x.s) - open >= in_.table_jokers;
  }
  // Moves colour c's runs through the tiles of number n: layer `from` to layer `to`.
  void colour_step(Layer& from, Layer& to, int n, int c) {
    if (in_.rack_jokers + in_.table_jokers == 0) {
      colour_step<false>(from, to, n, c);
    } else {
      colour_step<true>(from, to, n, c);
    }
  }
  // kJokers: the input has free jokers. Without any, no node carries a joker deficit (any is more than the
  // jokers left), no joker is placed, and no run ends with an uncovered one: that code compiles away.
  template <bool kJokers>
  void colour_step(Layer& from, Layer& to, int n, int c);
  // A guide records every move (parent in layer li - 1, node in layer li) in moves_[li - 1], for mark_alive(), with
  // the rack copies a colour step's move places (its info's b) in the parent's top bits (kMoveCopies), for
  // all_plays: keep() adds one to the list of the step expand_layer runs (keeping_), with b kept by keeping_copies_.
  void keep(size_t parent, int32_t node, uint32_t info) {
    assert(parent < kMoveCopies);
    keeping_->push(static_cast<int32_t>(parent | size_t{info & keeping_copies_} << kMoveShift), node);
  }
  // Returns x carried unchanged into the next layer (nothing placed, no run moved) as a child of `parent`.
  static Node carried(const Node& x, size_t parent) {
    Node y = x;
    y.parent = static_cast<int32_t>(parent);
    y.info = 0;
    y.actions = 0;
    y.dead = false;
    y.ceiling = INT64_MAX;
    y.pending = INT64_MIN;
    return y;
  }
  // Returns the jokers the runs of every colour need for certain (each colour's needs take their own).
  static int all_deficits(const Node& x) {
    // (The deficits are at most the free jokers, so their sum fits a byte: the bytes add in one multiply.)
    static_assert(kMaxColours == 4, "four deficit bytes");
    uint32_t w;
    std::memcpy(&w, x.deficit, sizeof w);
    return static_cast<int>((w * 0x01010101U) >> 24);
  }
  // Returns the jokers the runs of every colour but c need for certain.
  static int others_deficit(const Node& x, int c) { return all_deficits(x) - x.deficit[c]; }
  // Sets `members` and `most` to the tiles the colours before c promised to the groups g, and the most one of
  // them promised.
  static void promised_before(uint64_t g, int c, int& members, int& most) {
    // (each colour's three counts added in its 9-bit lane, at most 21; the lanes of the colours before c kept, and
    // added up in the top lane by one multiply)
    static_assert(kMaxColours == 4, "four lanes of 9 bits");
    assert(c < kMaxColours);
    constexpr uint64_t kCounts = 0x381C0E07ULL;  // the first count of each lane
    const uint64_t sums = (g & kCounts) + ((g >> 3) & kCounts) + ((g >> 6) & kCounts);
    const uint64_t lanes = sums & ((uint64_t{1} << (9 * c)) - 1);  // (c < 4: at most the first three lanes)
    members = static_cast<int>((lanes * 0x8040201ULL) >> 27 & 511);
    most = std::max(std::max(static_cast<int>(lanes & 511), static_cast<int>(lanes >> 9 & 511)),
                    static_cast<int>(lanes >> 18 & 511));
  }
  // Returns true when the colours after c count towards the groups with their copies capped at the groups' number
  // (members_after_, groups_deficit_left): with fewer than L colours left, G = most groups is the loosest case.
  bool later_capped(int c) const { return in_.p.colours - c - 1 <= in_.mode.min_len; }
  // Returns the jokers the groups promised at number n (g2, none: 0) need for certain once colour c promised k
  // tiles after the colours before it (members, most): `most` groups need max(3, L) members each, and the
  // colours after c can add members_after_ at most.
  int groups_deficit(uint64_t g2, int n, int c, int members, int most, int k) const {
    return groups_deficit(g2, std::max(3, in_.mode.min_len), members_after_[n][c], members, most, k);
  }
  // (The same, given max(3, L) and members_after_[n][c], which colour_step reads once.)
  static int groups_deficit(uint64_t g2, int group_size, const uint8_t* after, int members, int most, int k) {
    if (g2 == 0) return 0;
    const int m = std::max(most, k);
    return std::max(0, group_size * m - (members + k + after[std::min(m, 7)]));
  }
  // Returns the jokers the groups promised at number n (g2, none: 0) need for certain once colour c promised k tiles
  // after the colours before it (members, most), counting with the jokers that the open runs of the colours after
  // c need at n beyond their own deficits: groups_deficit with each later colour c' offering only the copies its
  // runs leave, f = max(0, avail - must[c']) (Node::must), where groups_deficit offers all of them.
  // Why this is a lower bound of those jokers together: colour c' gives g of its copies of n to groups; its runs
  // that must take a slot at n then have at most avail - g copies, so their jokers at n are at least
  // max(0, must - avail + g), which is their deficit's share of n, max(0, must - avail), plus max(0, g - f) (without
  // a lead run, its deficit is that share plus its slots at n + 1; a lead run's colour has must 0, f = avail). The
  // groups, G >= most of them (the loosest G as in members_after_), take at least G max(3, L) - members - k - sum g
  // jokers; and g - max(0, g - f) = min(g, f) <= min(G, f). So the groups' jokers and the later colours' extra ones
  // add up to at least this, and none of those slots is a slot that others_deficit or colour c's own deficit counts:
  // a child whose jokers left cannot pay this, the others' deficits and its own reaches no legal end.
  int groups_deficit_left(const Node& x, uint64_t g2, int n, int c, int members, int most, int k) const {
    if (g2 == 0) return 0;
    const int C = in_.p.colours, m = std::max(most, k);
    const bool capped = later_capped(c);
    int after = 0;
    for (int y = c + 1; y < C; ++y) {
      const int f = std::max(0, in_.avail[y][n] - x.must[y]);
      after += capped ? std::min(m, f) : f;
    }
    return std::max(0, std::max(3, in_.mode.min_len) * m - (members + k + after));
  }
  // Returns the open runs of the colours after c that must take a slot at the next number of their colour: the
  // most groups_deficit_left can count above groups_deficit (a colour's f is at most its must below its copies).
  // The colour step counts with groups_deficit_left only where the room groups_deficit leaves is below this (elsewhere
  // the room stays at least 0 either way: counting everywhere drops a few more children whose joker lookahead then
  // fails, but costs more than it saves on the 160-tile set).
  static int later_must(const Node& x, int c) {
    static_assert(kMaxColours == 4, "four bytes of must");
    uint32_t w;
    std::memcpy(&w, x.must, sizeof w);
    return static_cast<int>(((uint64_t{w} >> (8 * (c + 1))) * 0x01010101U >> 24) & 0xFF);
  }
  // Returns x's child in colour step (n, c) through transition t: colour c's runs and joker deficit, and the
  // counts `misc`, replaced.
  static Node colour_child(const Node& x, size_t parent, int64_t score, uint32_t info, const Transition& t, int c,
                           int deficit, uint64_t misc) {
    Node y{x.s, score, static_cast<int32_t>(parent), info, t.actions, false, {}, {}};
    std::memcpy(y.deficit, x.deficit, sizeof y.deficit);  // (std::copy here became a call to memmove)
    std::memcpy(y.must, x.must, sizeof y.must);
    y.deficit[c] = static_cast<uint8_t>(deficit);
    y.must[c] = static_cast<uint8_t>((t.needs >> 28) & 1 ? 0 : (t.needs >> 8) & 0xFF);  // (run_needs)
    y.s.runs[c] = t.next;
    y.s.misc = misc;
    return y;
  }
  // Returns x's child in the group step of number n that gives the promised groups y free jokers, with this score
  // and `uncovered` uncovered jokers in closed melds.
  Node group_child(const Node& x, size_t parent, int n, int y, int uncovered, int64_t score) const {
    Node z = carried(x, parent);
    set_group_child(z, x.s, n, y, rack_jokers(jokers_placed(x.s), y), uncovered, score, true);
    return z;
  }
  // Makes z, a node carried from a state s (carried: the runs still s's), s's child in the group step of number n
  // that gives the groups y free jokers, yr of them rack jokers (group_child); `settle`: whether its runs may settle
  // (false when the retrieval rule is off or s is settled, where settle_state leaves them).
  void set_group_child(Node& z, const State& s, int n, int y, int yr, int uncovered, int64_t score,
                       bool settle) const {
    z.score = score;
    z.info = static_cast<uint32_t>(y);
    z.s.misc = group_counts(s, n, y, yr, uncovered);
    if (settle) settle_state(z.s);
  }
  // Returns the counts word of s's child in the group step of number n that gives the groups y free jokers, yr of
  // them rack jokers, with `uncovered` uncovered jokers in closed melds (its runs not settled yet: settle_state).
  uint64_t group_counts(const State& s, int n, int y, int yr, int uncovered) const {
    return with_counts(0, jokers_placed(s) + y, uncovered, std::min(in_.threshold, opening_value(s) + n * yr),
                       is_settled(s));
  }
  // Returns how far the runs of a state are settled (see extend_run).
  int settle_how(const State& s) const {
    if (!in_.mode.retrieval_rule) return kOpen;
    if (is_settled(s)) return kFully;
    return jokers_left(jokers_placed(s)) == 0 ? kPartly : kOpen;
  }
  // Settles the runs of s as far as its counts now allow: fully once the free jokers placed, less the uncovered
  // ones of closed and open melds, reach the retrieved jokers; partly once no free joker is left to place.
  void settle_state(State& s) const {
    if (!in_.mode.retrieval_rule || is_settled(s)) return;
    int open = 0;
    for (int c = 0; c < in_.p.colours; ++c) open += uncovered_of(s.runs[c]);
    const bool fully = jokers_placed(s) - closed_uncovered(s) - open >= in_.table_jokers;
    if (!fully && jokers_left(jokers_placed(s)) != 0) return;
    for (int c = 0; c < in_.p.colours; ++c) s.runs[c] = settle_word(s.runs[c], fully ? kFully : kPartly);
    if (fully) s.misc |= uint64_t{1} << 52;
  }
  // Returns the free jokers still to place after `placed` were.
  int jokers_left(int placed) const { return in_.rack_jokers + in_.table_jokers - placed; }
  // Returns true when colour step (n, c) can only carry x on: no tile of (c, n), no run of colour c open,
  // and no joker that could stand there.
  bool colour_idle(const Node& x, int n, int c) const {
    return colour_idle(x, c, in_.table[c][n] + in_.staying[c][n] + in_.rack[c][n] == 0, in_.joker_fits[c][n]);
  }
  // (The same, given whether (c, n) has no tile and whether a joker could stand there, which colour_step reads
  // once.)
  bool colour_idle(const Node& x, int c, bool no_tile, bool joker_here) const {
    return no_tile && x.s.runs[c] == 0 && (!joker_here || jokers_left(jokers_placed(x.s)) == 0);
  }
  // Carries x through an idle colour step (colour_idle) into y, with the checks colour_step makes on any
  // child (bound, opening value, joker lookahead); returns false when x does not pass them.
  // kMust: x is a node of the sweep, which keeps Node::must (the depth-first search's nodes do not).
  template <bool kMust>
  bool carry_through_colour(const Node& x, int n, int c, size_t parent, Node& y) const;
  // Splits the tiles promised at number n into groups: layer `from` to layer `to`.
  void group_step(Layer& from, Layer& to, int n);
  // Offers to `to` (layer to_layer) the children that expand(x, idx, sink) passes to sink for each live node x
  // of `from`, recording the moves of a guide.
  template <class Expand>
  void expand_layer(Layer& from, Layer& to, size_t to_layer, Expand&& expand);

  // Returns how many of y free jokers placed now, after `placed` earlier ones, are rack jokers: P's jokers count
  // at the highest numbers any free joker stands for (the contract), and the sweep places jokers in rising
  // numbers, so the first table_jokers free jokers placed are the table's and every later one is a rack joker.
  int rack_jokers(int placed, int y) const {
    return std::max(0, placed + y - in_.table_jokers) - std::max(0, placed - in_.table_jokers);
  }
  // Returns the rack jokers still to come once `placed` free jokers were placed.
  int rack_jokers_left(int placed) const { return in_.rack_jokers - std::max(0, placed - in_.table_jokers); }
  // Returns true when an opening value v, with the rack tiles from sweep position pos on and rack_left rack
  // jokers still to come, can still reach the threshold. (The value is kept capped at the threshold: past
  // it, states that differ only in the value merge.)
  bool opening_reachable(int v, int pos, int rack_left) const {
    return v + opening_gain(pos, rack_left) >= in_.threshold;
  }
  // Returns the most the rack tiles from sweep position pos on and rack_left rack jokers can still add to an
  // opening value.
  int opening_gain(int pos, int rack_left) const { return in_.value_bound[pos] + rack_left * in_.p.numbers; }
  // Returns the most the jokers can still add once `placed` free jokers were placed.
  int64_t joker_bound(int placed) const { return rack_jokers_left(placed) * in_.joker_weight_max; }
  // Marks the nodes of a layer (at least 2) that another node of the layer dominates.
  void prune_dominated(Layer& layer) const;
  // Returns the fewest jokers the runs of colour c (summarised by run_needs), open at number n, still need
  // to be finished (slots ahead without a tile); 255 when they cannot be finished at all.
  int joker_deficit(uint32_t needs, int c, int n) const { return joker_deficit(needs, deficit_at(c, n)); }
  // What joker_deficit reads of the input at (c, n), read once for a whole colour step (the input's byte arrays
  // could alias the nodes written meanwhile, so the compiler would read them again for every child).
  struct DeficitAt {
    bool last, two_left;  // n is the last number; n + 2 is a number
    int avail1, avail2, gaps;
  };
  // Returns what joker_deficit reads of the input at (c, n).
  DeficitAt deficit_at(int c, int n) const {
    const int N = in_.p.numbers;
    return DeficitAt{n == N, n + 2 <= N, n < N ? in_.avail[c][n + 1] : 0, n + 2 <= N ? in_.avail[c][n + 2] : 0,
                     in_.gaps_after[c][n]};
  }
  // (The same, given what it reads of the input.)
  static int joker_deficit(uint32_t needs, const DeficitAt& at);
  // What a colour step at one sweep position reads of the input, made on the step's first node that is not
  // idle and kept for the programme's later passes (a pass at a lower floor expands few nodes per step).
  struct StepPlan {
    DeficitAt deficit_here;
    const ChoiceList* groups;  // the ways to promise the tile to groups
  };
  // Returns the plan of colour step (n, c), made on first use.
  const StepPlan& step_plan(int n, int c);

  // Returns true when a layer has nothing to expand at this pass: no node is new or improved since its last
  // expansion, and none left a bound at or above the floor (enumerating plays, with no floor, expands all).
  bool nothing_new(const Layer& from) const {
    return (!in_.usage || floor_ != INT64_MIN) && !from.fresh && from.pending < floor_;
  }
  // Returns true when a child with this bound is to be offered at this pass: it reaches the floor, and it was not
  // offered at an earlier pass (the expanding node's ceiling_); a bound below the floor raises pending_.
  bool take(int64_t bound) const {
    if (bound < floor_) {
      pending_ = std::max(pending_, bound);
      return false;
    }
    return bound < ceiling_;
  }

  // The transitions of the colour steps whose tile has a sided demand (home_transitions), by the runs, the memo
  // key's rest and the sweep position: few, and this programme's own (the demands are its input's).
  struct HomeKey {
    uint64_t state;
    uint32_t rest, pos;
    bool operator==(const HomeKey& o) const { return state == o.state && rest == o.rest && pos == o.pos; }
  };
  struct HomeKeyHash {
    size_t operator()(const HomeKey& k) const {
      return static_cast<size_t>(TransitionMemo::hash(k.state, k.rest) ^ (k.pos * 0x9E3779B97F4A7C15ULL));
    }
  };
  std::unordered_map<HomeKey, std::vector<Transition>, HomeKeyHash> home_memo_;
  // Returns the transitions of colour c's runs `state` at sweep position pos through these slots, which hold copies
  // with the sided demand d.
  const std::vector<Transition>& home_steps(uint64_t state, uint32_t rest, int pos, const int slots[kSlots], int how,
                                            const Demand& d) {
    const HomeKey key{state, rest, static_cast<uint32_t>(pos)};
    auto it = home_memo_.find(key);
    if (it != home_memo_.end()) return it->second;
    return home_memo_.emplace(key, home_transitions(state, slots, in_.mode, how, d)).first->second;
  }
  // Returns true when a way to promise copies to groups meets the demand d of its tile: exactly the staying copies
  // whose home is a group go to groups, and enough replacing copies go to groups and stay in runs.
  static bool meets_demand(const GroupChoice& gc, const Demand& d) {
    const int ga = (gc.info >> 4) & 15, gv = (gc.info >> 8) & 15, gb = (gc.info >> 12) & 15;
    const bool table_real = d.rack_only == 0;
    return gv == d.stay_group && gb + (table_real ? ga : 0) >= d.real_group &&
           gc.rest[2] + (table_real ? gc.rest[0] : 0) >= d.real_run;
  }

  const Input& in_;
  SearchStats* stats_;
  StepPlan plans_[kByNumber * kMaxColours];
  uint64_t planned_ = 0;                     // the sweep positions whose plan is made (bit pos)
  SearchScratch* scratch_;  // the memos and spare memory this programme works in
  int64_t floor_;
  mutable int64_t ceiling_ = INT64_MAX;  // of the node being expanded (see Node::ceiling)
  mutable int64_t pending_ = INT64_MIN;  // the highest bound left below the floor by its expansion so far
  size_t ready_ = 0;                     // layers that hold this programme's nodes (run() starts them as it goes)
  size_t node_limit_;
  size_t byte_limit_;
  uint32_t mode_key_;  // transition_key(in_.mode, 0), which every colour step reads
  bool exceeded_ = false;
  std::vector<Layer> layers_;
  size_t last_ = 0;
  // The most members the colours after c can add to groups of number n, by the largest group count so far
  // (colour_step's group lookahead; filled by start()).
  uint8_t members_after_[kByNumber][kMaxColours][8] = {};
  std::vector<std::vector<uint8_t>> alive_;
  std::vector<MoveList> moves_;  // a guide's moves out of each layer
  // The list of the step a guide's expand_layer runs, and what keeps b of a move's info: 15 at a colour step, 0 at
  // a group step (whose info is the jokers the groups take). (Members, not locals of expand_layer: as locals they
  // take registers in the steps of every programme, guide or not.)
  MoveList* keeping_ = nullptr;
  uint32_t keeping_copies_ = 0;
  bool guide_mode_ = false;  // a guide keeps every state (a dominated one may be another's only way on)
  Programme* donor_ = nullptr;  // the guide whose first layers run() takes (take_prefix)
};

// Returns the fewest jokers runs with these needs still need (255: they cannot be finished).
inline int Programme::joker_deficit(uint32_t needs, const DeficitAt& at) {
  constexpr int kNever = 255;
  if (at.last) return (needs & 0xFF) != 0 ? kNever : 0;
  const int need1 = (needs >> 8) & 0xFF;
  const int need2 = ((needs >> 16) & 0xFF) + (at.two_left ? (needs >> 24) & 0xF : 0);
  if (need2 > 0 && !at.two_left) return kNever;
  // Slots at n + 1 and at n + 2 without a tile each take their own joker.
  const int near = std::max(0, need1 - (need1 > 0 ? at.avail1 : 0)) + std::max(0, need2 - (need2 > 0 ? at.avail2 : 0));
  // A lead run goes on to the last number: jokers must fill every number left without a tile.
  return (needs >> 28) & 1 ? std::max(near, at.gaps) : near;
}

// Carries x through an idle colour step into y (see above); returns false when x does not pass the checks.
template <bool kMust>
RUMMIKUB_ALWAYS_INLINE bool Programme::carry_through_colour(const Node& x, int n, int c, size_t parent, Node& y) const {
  const int C = in_.p.colours, pos = (n - 1) * C + c;
  const int placed = jokers_placed(x.s);
  if (!take(x.score + in_.tiles_bound[pos + 1] + joker_bound(placed))) return false;
  if (!opening_reachable(opening_value(x.s), pos + 1, rack_jokers_left(placed))) return false;
  // The jokers the other colours' runs and the promised groups need for certain.
  const uint64_t g = x.s.misc & kPromisedBits;
  int members = 0, most = 0;
  if (g != 0) promised_before(g, c, members, most);
  const int free = jokers_left(placed) - others_deficit(x, c);  // (the jokers the other colours' runs leave)
  const int room = free - groups_deficit(g, n, c, members, most, 0);
  if (room < 0) return false;
  // (the sweep's nodes keep Node::must: there, the groups' deficit counted with the copies the later colours' runs
  // leave, where that can matter, as colour_step counts it)
  if (kMust && room < later_must(x, c) && free < groups_deficit_left(x, g, n, c, members, most, 0)) return false;
  y = carried(x, parent);
  y.deficit[c] = 0;
  return true;
}

}  // namespace rummikub::search
