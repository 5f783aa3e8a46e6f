// The sweep: the programme's passes over the numbers and colours. A colour step moves one colour's runs through
// the tiles of one number (placing rack tiles and free jokers, promising tiles to groups); a group step splits the
// tiles promised at a number into groups. Deepening passes (a lower floor) expand only what the floor adds.
#include <algorithm>
#include <cstring>
#include <tuple>

#include "programme.h"

// Forces a lambda inline (a step's expansion is called from two places, and out of line it would reach every
// constant it uses through its closure).
#if defined(__GNUC__)
#define RUMMIKUB_INLINE __attribute__((always_inline))
#else
#define RUMMIKUB_INLINE
#endif

namespace rummikub::search {

// min(a, most) for most = 0..7 in the bytes of kCappedAt[a].
constexpr uint64_t capped_bytes(int a) {
  uint64_t w = 0;
  for (int most = 0; most < 8; ++most) w |= static_cast<uint64_t>(a < most ? a : most) << (8 * most);
  return w;
}
constexpr uint64_t kCappedAt[8] = {capped_bytes(0), capped_bytes(1), capped_bytes(2), capped_bytes(3),
                                   capped_bytes(4), capped_bytes(5), capped_bytes(6), capped_bytes(7)};

// Sizes the layers for a sweep and puts the empty start state in the first; returns the last layer's index.
size_t Programme::start() {
  const int N = in_.p.numbers, C = in_.p.colours;
  for (int n = 1; n <= N; ++n) {
    if (!in_.group_possible[n]) continue;  // (no group, no promise: never asked)
    // Sums over the colours after c, from the last colour down: of their tiles, and of their tiles capped at
    // `most`. With G >= most groups, each later colour adds at most G members while the need grows by L a
    // group, so G = most is the loosest case whenever fewer than L colours are left.
    // (capped: a byte for each `most`, 0..7, added eight at once; no byte passes 4 * 7 copies)
    uint64_t plain = 0, capped = 0;
    for (int c = C - 1; c >= 0; --c) {
      const uint64_t after = later_capped(c) ? capped : (plain & 0xFF) * 0x0101010101010101ULL;
      for (int most = 0; most < 8; ++most) members_after_[n][c][most] = static_cast<uint8_t>(after >> (8 * most));
      capped += kCappedAt[std::min<int>(in_.avail[c][n], 7)];
      plain += in_.avail[c][n];
    }
  }
  const size_t depth = static_cast<size_t>(N * (C + 1));
  layers_.resize(depth + 1);
  layers_[0].reset(1);
  layers_[0].offer(Node{State{{0, 0, 0, 0}, 0, 0}, 0, -1, 0, 0, false, {}, {}});
  return depth;
}

// Runs the sweep (or deepens the last one at a lower floor); see programme.h.
void Programme::run() {
  const int N = in_.p.numbers, C = in_.p.colours;
  if (ready_ == 0) {
    start();
    ready_ = 1;
  }
  size_t li = 0, held = 1, bytes = layer_bytes(0);
  exceeded_ = false;
  int n0 = 1, c0 = 0;  // the first step to make
  if (donor_ != nullptr) {
    li = take_layers();
    n0 = static_cast<int>(li) / (C + 1) + 1;
    c0 = static_cast<int>(li) % (C + 1);
    for (size_t k = 1; k <= li; ++k) {
      held += layers_[k].nodes.size();
      if (node_limit_ == 0) continue;
      layers_[k].bytes = layer_bytes(k);
      bytes += layers_[k].bytes;
    }
    // (held and bytes only grow: past a limit after the layers taken is past it at one of their steps, where a
    // run making them would have stopped)
    exceeded_ = node_limit_ != 0 && (held > node_limit_ || bytes > byte_limit_);
  }
  // Moves layer li through one step into layer li + 1 (started on first use), unless layer li has nothing new at
  // this pass (a pass at a lower floor leaves most layers as they were); then counts layer li + 1 and stops the
  // run (exceeded_) once it holds more than its limits allow. (Checked after every step: one step of a large
  // search can hold more than all the steps before it. A layer that did not change keeps its byte count.)
  auto step = [&](int n, int c) {
    Layer& from = layers_[li];
    const bool started = li + 1 >= ready_;
    if (started) {
      layers_[li + 1].reset(c < C ? from.nodes.size() * 2 : from.nodes.size());
      ready_ = li + 2;
    }
    Layer& to = layers_[li + 1];
    const bool moved = !nothing_new(from);
    if (moved) {
      if (c < C) {
        colour_step(from, to, n, c);
      } else {
        group_step(from, to, n);
      }
    }
    held += to.nodes.size();
    ++li;
    if (node_limit_ == 0) return;
    if (moved || started) to.bytes = layer_bytes(li);
    bytes += to.bytes;
    exceeded_ = held > node_limit_ || bytes > byte_limit_;
  };
  for (int n = n0; n <= N; ++n) {
    for (int c = n == n0 ? c0 : 0; c <= C && !exceeded_; ++c) step(n, c);  // (c == C: the group step)
    if (exceeded_ || layers_[li].nodes.empty()) {
      // No legal end (past the limit, the caller reports it; an empty layer has no successors).
      li = layers_.size() - 1;
      if (li >= ready_) layers_[li].nodes.clear();  // (not started: what it holds is another run's)
      break;
    }
  }
  last_ = li;
  if (stats_ != nullptr) ++stats_->runs;
}

// Takes the donor's first layers (take_prefix) and their moves; returns the index of the last layer taken (0: none).
size_t Programme::take_layers() {
  Programme& d = *donor_;
  donor_ = nullptr;
  if (!guide_mode_ || !d.guide_mode_ || d.exceeded_ || d.ready_ == 0) return 0;
  const size_t shared = std::min(shared_guide_layers(d.in_, in_), d.ready_ - 1);
  // (a layer left empty ends a run: one the donor made is not empty, and every layer before it was made)
  if (shared == 0 || d.layers_[shared].nodes.empty()) return 0;
  // (All the donor's lists change hands, with their room: the later layers and moves are made again here.)
  std::swap(layers_, d.layers_);
  std::swap(moves_, d.moves_);
  std::swap(alive_, d.alive_);
  for (size_t k = shared; k < moves_.size(); ++k) moves_[k].clear();
  // The last layer taken is expanded again, here: its nodes as new.
  Layer& from = layers_[shared];
  for (Node& x : from.nodes) {
    x.ceiling = INT64_MAX;
    x.pending = INT64_MIN;
  }
  from.fresh = true;
  from.pending = INT64_MIN;
  from.unchanged = 0;
  ready_ = shared + 1;
  return shared;
}

// Returns how many layers after the start two guides of these inputs make alike (see programme.h).
size_t Programme::shared_guide_layers(const Input& a, const Input& b) {
  assert(!a.usage && !b.usage);
  const int N = a.p.numbers, C = a.p.colours;
  if (a.p != b.p || a.mode.id() != b.mode.id() || a.table_jokers != b.table_jokers ||
      a.rack_jokers != b.rack_jokers || a.threshold != b.threshold || a.table_only != b.table_only ||
      a.joker_weight_max != b.joker_weight_max) {
    return 0;
  }
  const bool opening = a.threshold > 0;
  auto demand_of = [](const Input& in, int c, int n) {
    return in.demands && in.demand[c][n].active != 0 ? in.demand[c][n] : Demand{};
  };
  size_t li = 0;
  for (int n = 1; n <= N; ++n) {
    // What every step of number n reads: the weights, whether groups can form, and each colour's copies (the
    // group lookahead of the colour steps, members_after_).
    if (a.rack_weight[n] != b.rack_weight[n] || a.joker_weight[n] != b.joker_weight[n] ||
        a.group_possible[n] != b.group_possible[n] || a.any_group[n] != b.any_group[n] ||
        (a.any_group[n] != 0 && a.any_rack_only != b.any_rack_only)) {
      return li;
    }
    for (int c = 0; c < C; ++c) {
      if (a.avail[c][n] != b.avail[c][n]) return li;
    }
    for (int c = 0; c <= C; ++c, ++li) {
      const int after = c < C ? (n - 1) * C + c + 1 : n * C;  // (the sweep position after the step)
      if (opening && a.value_bound[after] != b.value_bound[after]) return li;
      if (c == C) continue;
      const Demand da = demand_of(a, c, n), db = demand_of(b, c, n);
      if (a.table[c][n] != b.table[c][n] || a.staying[c][n] != b.staying[c][n] || a.rack[c][n] != b.rack[c][n] ||
          a.rack_min[c][n] != b.rack_min[c][n] || std::memcmp(&da, &db, sizeof da) != 0 ||
          a.joker_fits[c][n] != b.joker_fits[c][n] || a.gaps_after[c][n] != b.gaps_after[c][n] ||
          a.rack_gap[c][n] != b.rack_gap[c][n] ||
          a.avail[c][n + 1] != b.avail[c][n + 1] || a.avail[c][n + 2] != b.avail[c][n + 2]) {
        return li;
      }
    }
  }
  return li;
}

// Returns the plan of colour step (n, c): what it reads of the input, and the ways to promise its tile to groups.
const Programme::StepPlan& Programme::step_plan(int n, int c) {
  const int pos = (n - 1) * in_.p.colours + c;
  StepPlan& plan = plans_[pos];
  if ((planned_ >> pos & 1) != 0) return plan;
  planned_ |= uint64_t{1} << pos;
  plan.deficit_here = deficit_at(c, n);
  const int a = in_.table[c][n], v = in_.staying[c][n], o = in_.rack[c][n], omin = in_.rack_min[c][n];
  // Only numbers where some group can form at all offer tiles to groups.
  const int gmax = in_.group_possible[n] ? 7 : 0;
  const bool retrieval_rule = in_.mode.retrieval_rule;
  // Rack copies that must replace jokers (replace_from_rack) are not interchangeable with table copies either (nor
  // those that may replace a group joker retrieved as any colour, Input::any_group).
  const Demand& d = in_.demand[c][n];
  const bool rack_demand = (in_.demands && d.rack_only != 0 && d.real_group + d.real_run > 0) ||
                           (in_.any_rack_only && (in_.any_group[n] >> c & 1) != 0);
  const uint32_t key = static_cast<uint32_t>(a | v << 3 | o << 6 | omin << 9 | (gmax != 0) << 12 |
                                             retrieval_rule << 13 | c << 14 | rack_demand << 16);
  static_assert(SearchScratch::kChoiceSlots == 256, "a byte of the key's hash picks the slot");
  SearchScratch::ChoiceSlot& slot = scratch_->choice_cache[(key * 0x9E3779B1U) >> 24];
  if (slot.key == key + 1) {
    plan.groups = slot.list;
    return plan;
  }
  const auto [at, made] = scratch_->choice_lists.try_emplace(key);
  ChoiceList& list = at->second;
  plan.groups = &list;
  slot = SearchScratch::ChoiceSlot{key + 1, &list};
  if (!made) return plan;
  // Every way to promise table copies (ga), staying jokers (gv) and rack copies (gb) to groups, by b.
  for (int b = omin; b <= o; ++b) {
    list.begin[b] = static_cast<uint32_t>(list.choices.size());
    for (int ga = 0; ga <= std::min(a, gmax); ++ga) {
      for (int gv = 0; gv <= std::min(v, gmax); ++gv) {
        for (int gb = 0; gb <= std::min(b, gmax); ++gb) {
          // A table copy and a rack copy of one tile can swap between a group and a run (both stay placed),
          // unless rack tiles are counted for retrieved jokers or replace them: promise table copies to groups
          // first.
          if (gb > 0 && ga < a && !retrieval_rule && !rack_demand) break;
          list.choices.push_back(GroupChoice{static_cast<uint64_t>(ga | gv << 3 | gb << 6) << (9 * c),
                                             {a - ga, v - gv, b - gb}, ga + gv + gb,
                                             static_cast<uint32_t>(b | ga << 4 | gv << 8 | gb << 12),
                                             slot_bits(kTableTile, a - ga) | slot_bits(kStayingJoker, v - gv) |
                                                 slot_bits(kRackTile, b - gb)});
        }
      }
    }
  }
  list.begin[o + 1] = static_cast<uint32_t>(list.choices.size());
  return plan;
}

// Expands layer `from` through colour step (n, c) into layer `to`.
//
// A node's children depend on its runs of colour c, its counts word (State::misc), its score, the jokers its other
// colours need (others_deficit) and its ceiling. With free jokers, a node has many ways to place the tile (rack
// copies b, promises to groups, free jokers y), and the nodes of a large layer share counts words: the ways a
// counts word allows are listed once (a StepClass of StepCombo) and each node of the word replays them, its own
// checks being the floor, its ceiling, the jokers left to it and the transitions of its runs. Otherwise each node
// makes its choices directly (expand_direct). Both give the same children in the same order: b, then the promise,
// then y, then the transition.
template <bool kJokers>
void Programme::colour_step(Layer& from, Layer& to, int n, int c) {
  const size_t before = to.nodes.size();
  const int pos = (n - 1) * in_.p.colours + c;
  const int o = in_.rack[c][n], omin = in_.rack_min[c][n];
  TransitionMemo& memo = scratch_->transition_memo;
  StepScratch& step = scratch_->step;
  const size_t to_layer = static_cast<size_t>(pos + n);  // the index of layer `to`: C + 1 layers a number
  const StepPlan* plan = nullptr;  // made on the first node that is not idle
  DeficitAt deficit_here{};  // (the plan's, copied once)
  const int64_t w_tile = in_.rack_weight[n], w_joker = in_.joker_weight[n], suffix_after = in_.tiles_bound[pos + 1];
  const bool joker_here = in_.joker_fits[c][n], opening = in_.threshold > 0, usage = in_.usage;
  const bool retrieval_rule = in_.mode.retrieval_rule;
  const int threshold = in_.threshold, rack_jokers_all = in_.rack_jokers;
  const int group_size = std::max(3, in_.mode.min_len);
  // Runs that can never cover their jokers (the retrieval rule). A run's uncovered jokers (run_uncovered) fall only
  // when it takes a rack tile: a table tile or a staying joker leaves its code as it is, a free joker only raises
  // its held count, ending it moves its uncovered jokers into the closed melds' count, and settling clears a code
  // only when it is 0 or when the rule holds for certain. The runs colour c leaves open at n take their next slot at
  // n + 1, so to take a rack tile a run must first fill, with a free joker each, the rack_gap numbers before the next
  // rack tile of colour c (a run takes one slot a number; a joker at a number that cannot hold one is never
  // placed). Those jokers are its own, apart from those the other colours' runs and the promised groups need for
  // certain (their slots are others): when rack_gap is more than that room, every open run of the colour keeps its
  // uncovered jokers to the end. A legal end leaves at most as many uncovered jokers as it placed rack jokers (its
  // free jokers less the uncovered ones are at least the retrieved jokers), so at most rack_jokers: a child whose
  // closed melds' uncovered jokers and colour c's open ones together pass that reaches no legal end, and is left
  // out. Its state is dead whatever its score, so no legal end, score or bound of a live state changes. (0 without
  // the rule: no room is below it.)
  const int rack_gap = kJokers && retrieval_rule ? in_.rack_gap[c][n] : 0;
  const uint32_t mode_key = mode_key_;
  const uint8_t* const members_after = members_after_[n][c];
  // The homes the table jokers demand of this tile's copies (none on most steps).
  const Demand* const demand = in_.demands && in_.demand[c][n].active != 0 ? &in_.demand[c][n] : nullptr;
  const bool sided = demand != nullptr && demand->sided();
  uint64_t counted = 0;  // transitions (SearchStats), added once at the end
  // Returns true when the move through transition t, whose runs need `deficit` jokers for certain (joker_deficit),
  // is ruled out: they need more than the room the node leaves them, or it ends runs with more uncovered jokers than
  // the rack's can be (runs never once settled: only rack jokers can be those; doomed: colour c's open runs never
  // take a rack tile again, so theirs count too).
  auto ruled_out = [&](const Transition& t, int deficit, int room, int uncovered_room, bool doomed) RUMMIKUB_INLINE {
    return deficit > room || (kJokers && t.uncovered() > uncovered_room) ||
           (doomed && t.uncovered() + uncovered_of(t.next) > uncovered_room);
  };
  // The joker choices at this slot that pass the floor, for one node and one b (in loop order).
  struct JokerChoice {
    int y, yr, jokers_left;  // free jokers placed here, how many of them are rack jokers, free jokers left after
    int64_t score;
  };
  JokerChoice choices[kMaxJokers + 1];
  // Calls sink(y) for every child y of node x (number idx of `from`), in a fixed order, choosing directly (without
  // free jokers a node has few choices, and in a small layer a counts word has few nodes: listing does not pay).
  auto expand_direct = [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
    if (plan == nullptr) {
      plan = &step_plan(n, c);
      deficit_here = plan->deficit_here;
    }
    const GroupChoice* const group_choice = plan->groups->choices.data();
    const int placed = jokers_placed(x.s), val = opening_value(x.s), uncovered = closed_uncovered(x.s);
    const int uncovered_room = rack_jokers_all - uncovered;
    const int how = settle_how(x.s);
    const uint32_t key = mode_key | static_cast<uint32_t>(how) << 25;  // (transition_key)
    const int left = kJokers ? jokers_left(placed) : 0;
    const int y_most = kJokers && joker_here ? left : 0;
    const uint64_t g = x.s.misc & kPromisedBits;
    const int deficit_others = kJokers ? others_deficit(x, c) : 0;
    // Tiles promised to groups need enough company (groups_deficit); the colours before c are fixed for this node.
    int members_before = 0, most_before = 0;
    if (g != 0) promised_before(g, c, members_before, most_before);
    const int must_after = later_must(x, c);
    const uint32_t* const group_begin = plan->groups->begin;
    for (int b = omin; b <= o; ++b) {
      uint64_t mask = x.s.mask;
      if (usage) {
        for (int k = 0; k < b; ++k) mask |= 1ULL << (in_.usage_bit[c][n] + k);
      }
      int nchoices = 0;
      for (int y = 0; y <= y_most; ++y) {
        const int yr = kJokers ? rack_jokers(placed, y) : 0;
        const int64_t score = x.score + b * w_tile + yr * w_joker;
        // (the bound falls as y rises, each rack joker adding at most the heaviest joker weight: once it is
        // below the floor it stays there, and the first such bound is the highest, the one take() keeps)
        const int64_t bound = score + suffix_after + (kJokers ? joker_bound(placed + y) : 0);
        if (bound < floor_) {
          pending_ = std::max(pending_, bound);
          break;
        }
        if (bound >= ceiling_) continue;
        if (opening && !opening_reachable(val + n * (b + yr), pos + 1, rack_jokers_left(placed + y))) continue;
        choices[nchoices++] = JokerChoice{y, yr, left - y, score};
      }
      if (nchoices == 0) continue;
      const uint32_t group_end = group_begin[b + 1];
      for (uint32_t gi = group_begin[b]; gi < group_end; ++gi) {
        const GroupChoice& gc = group_choice[gi];
        if (demand != nullptr && !meets_demand(gc, *demand)) continue;
        const uint64_t g2 = g | gc.bits;
        // Jokers the promised groups need for certain (their slots are distinct from the runs').
        const int group_deficit =
            groups_deficit(g2, group_size, members_after, members_before, most_before, gc.k);
        int deficit_left = -1;  // (groups_deficit_left, made on first use)
        for (int ci = 0; ci < nchoices; ++ci) {
          const JokerChoice& ch = choices[ci];
          // (the choices leave fewer jokers one after another: none after this one can pay the deficits either)
          int room = ch.jokers_left - deficit_others - group_deficit;
          if (room < 0) break;
          // (the groups' deficit counted with the copies the later colours' runs leave, where that can matter)
          if (room < must_after) {
            if (deficit_left < 0) deficit_left = groups_deficit_left(x, g2, n, c, members_before, most_before, gc.k);
            room = ch.jokers_left - deficit_others - deficit_left;
            if (room < 0) break;
          }
          const bool doomed = rack_gap > room;  // (colour c's open runs never take a rack tile again)
          const uint32_t rest = key | gc.key | slot_bits(kFreeJoker, ch.y);
          const Transition* ts;
          uint32_t tcount;
          if (sided) {
            const int slots[kSlots] = {gc.rest[0], gc.rest[1], gc.rest[2], ch.y};
            const std::vector<Transition>& list = home_steps(x.s.runs[c], rest, pos, slots, how, *demand);
            ts = list.data();
            tcount = static_cast<uint32_t>(list.size());
          } else {
            // (transitions(), with the slots spelt out only when the memo has no entry yet)
            const TransitionMemo::Entry* hit = memo.find(x.s.runs[c], rest);
            uint32_t tbegin = hit->begin;
            tcount = hit->count;
            if (hit->rest == 0) {
              const int slots[kSlots] = {gc.rest[0], gc.rest[1], gc.rest[2], ch.y};
              std::tie(tbegin, tcount) = make_transitions(memo, x.s.runs[c], rest, slots, in_.mode, how);
            }
            ts = memo.pool.data() + tbegin;
          }
          if (tcount == 0) continue;
          const int nv = std::min(threshold, val + n * (b + ch.yr));
          const uint64_t misc = with_counts(g2, placed + ch.y, uncovered, nv, how == kFully);
          // Placing a joker or a rack tile may settle the runs further.
          const bool resettle = retrieval_rule && how != kFully && (ch.y > 0 || b > 0);
          const uint32_t info = gc.info | static_cast<uint32_t>(ch.y) << 16;
          for (uint32_t ti = 0; ti < tcount; ++ti) {
            const Transition& t = ts[ti];
            const int deficit = joker_deficit(t.needs, deficit_here);
            if (ruled_out(t, deficit, room, uncovered_room, doomed)) continue;
            Node y = colour_child(x, idx, ch.score, info, t, c, deficit,
                                  kJokers ? misc + (static_cast<uint64_t>(t.uncovered()) << 39) : misc);
            y.s.mask = mask;
            if (resettle) settle_state(y.s);
            sink(y);
          }
          counted += tcount;
        }
      }
    }
  };
  const bool no_tile = in_.table[c][n] + in_.staying[c][n] + o == 0;
  // Expands each node of `from` with `expand_busy` unless it is idle.
  auto each_node = [&](auto&& expand_busy) RUMMIKUB_INLINE {
    expand_layer(from, to, to_layer, [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
      if (colour_idle(x, c, no_tile, joker_here)) {
        // The general path's only choice, with its checks and its count, without the transition lookup.
        Node y;
        if (!carry_through_colour<true>(x, n, c, idx, y)) return;
        ++counted;
        sink(y);
      } else {
        expand_busy(x, idx, sink);
      }
      if (usage && stats_ != nullptr) {  // (expand_layer shares each node's count with the nodes that copy it)
        stats_->transitions += counted;
        counted = 0;
      }
    });
  };
  // (Two copies of the loop, so that each is compiled for its own expansion. Below 16 nodes a layer's counts words
  // seldom repeat: on the medium bots' game positions, 16 makes the fewest instructions. The listing's lambdas are
  // defined in its branch: make_class is called out of line, and its closure is built only where it is used.)
  if (kJokers && from.nodes.size() >= 16) {
    step.combos.clear();
    step.bounds.clear();
    step.classes.clear();
    size_t class_mask = 0;  // (by_misc is sized on the first node that is not idle)
    // Lists the combos of the counts word of node x (a new StepClass at the end of step.classes).
    auto make_class = [&](const Node& x) {
      const int placed = jokers_placed(x.s), val = opening_value(x.s), uncovered = closed_uncovered(x.s);
      const int how = settle_how(x.s);
      const uint32_t key = mode_key | static_cast<uint32_t>(how) << 25;  // (transition_key)
      const int left = kJokers ? jokers_left(placed) : 0;
      const int y_most = kJokers && joker_here ? left : 0;
      const uint64_t g = x.s.misc & kPromisedBits;
      // Tiles promised to groups need enough company (groups_deficit); the colours before c are fixed for this word.
      int members_before = 0, most_before = 0;
      if (g != 0) promised_before(g, c, members_before, most_before);
      StepClass k{x.s.misc,
                  static_cast<uint32_t>(step.combos.size()),
                  0,
                  static_cast<uint32_t>(step.bounds.size()),
                  0,
                  INT64_MAX,
                  INT64_MIN,
                  how,
                  left,
                  rack_jokers_all - uncovered,
                  members_before,
                  most_before};
      const GroupChoice* const group_choice = plan->groups->choices.data();
      const uint32_t* const group_begin = plan->groups->begin;
      // (the child's counts word but for the groups and the value)
      const uint64_t counts_base = with_counts(0, placed, uncovered, 0, how == kFully);
      // What y free jokers placed here add: rack jokers, and score and bound (but for the rack copies).
      int rack_of[kMaxJokers + 1];
      int64_t score_of[kMaxJokers + 1], bound_of[kMaxJokers + 1];
      for (int y = 0; y <= y_most; ++y) {
        rack_of[y] = rack_jokers(placed, y);
        score_of[y] = rack_of[y] * w_joker;
        bound_of[y] = score_of[y] + suffix_after + joker_bound(placed + y);
      }
      for (int b = omin; b <= o; ++b) {
        uint64_t mask_bits = 0;
        if (usage) {
          for (int i = 0; i < b; ++i) mask_bits |= 1ULL << (in_.usage_bit[c][n] + i);
        }
        const int64_t tiles = b * w_tile;
        // The bounds of the joker choices (the bound falls as y rises, each rack joker adding at most the heaviest
        // joker weight: a node's pending bound is the highest of them below its floor).
        for (int y = 0; y <= y_most; ++y) {
          step.bounds.push_back(tiles + bound_of[y]);
          k.bound_low = std::min(k.bound_low, tiles + bound_of[y]);
          k.bound_high = std::max(k.bound_high, tiles + bound_of[y]);
        }
        const uint32_t group_end = group_begin[b + 1];
        for (uint32_t gi = group_begin[b]; gi < group_end; ++gi) {
          const GroupChoice& gc = group_choice[gi];
          if (demand != nullptr && !meets_demand(gc, *demand)) continue;
          const uint64_t g2 = g | gc.bits;
          // Jokers the promised groups need for certain (their slots are distinct from the runs').
          const int group_deficit = groups_deficit(g2, group_size, members_after, members_before, most_before, gc.k);
          // (no node of the word has the jokers for more: others_deficit is never negative)
          const int y_end = std::min(y_most, left - group_deficit);
          const uint64_t misc = g2 | counts_base;
          for (int y = 0; y <= y_end; ++y) {
            int nv = 0;  // (the value, capped at the threshold: 0 without an opening)
            if (opening) {
              if (!opening_reachable(val + n * (b + rack_of[y]), pos + 1, rack_jokers_left(placed + y))) continue;
              nv = std::min({threshold, val + n * (b + rack_of[y]), 1023});
            }
            step.combos.push_back(StepCombo{
                &gc, misc + (static_cast<uint64_t>(y) << 36 | static_cast<uint64_t>(nv) << 42),  // (with_counts)
                mask_bits, tiles + score_of[y], tiles + bound_of[y], key | gc.key | slot_bits(kFreeJoker, y),
                gc.info | static_cast<uint32_t>(y) << 16, y + group_deficit, y,
                retrieval_rule && how != kFully && (y > 0 || b > 0)});
          }
        }
      }
      k.end = static_cast<uint32_t>(step.combos.size());
      k.bounds_end = static_cast<uint32_t>(step.bounds.size());
      assert(k.bounds_end > k.bounds_begin);  // (every b has the choice y = 0)
      step.classes.push_back(k);
    };
    // Returns the index of the StepClass of node x's counts word, made on first use.
    auto class_of = [&](const Node& x) -> size_t {
      if (step.classes.size() * 2 >= class_mask) {  // (first use, or half full: double and rehash)
        const size_t cap = class_mask == 0 ? 16 : (class_mask + 1) * 2;
        fill_empty(step.by_misc, cap);
        class_mask = cap - 1;
        for (size_t i = 0; i < step.classes.size(); ++i) {
          size_t at = hash_word(step.classes[i].misc) & class_mask;
          while (step.by_misc[at] >= 0) at = (at + 1) & class_mask;
          step.by_misc[at] = static_cast<int32_t>(i);
        }
      }
      size_t at = hash_word(x.s.misc) & class_mask;
      for (; step.by_misc[at] >= 0; at = (at + 1) & class_mask) {
        const size_t i = static_cast<size_t>(step.by_misc[at]);
        if (step.classes[i].misc == x.s.misc) return i;
      }
      step.by_misc[at] = static_cast<int32_t>(step.classes.size());
      make_class(x);
      return step.classes.size() - 1;
    };
    // The same as expand_direct, replaying the combos of x's counts word.
    auto expand = [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
      if (plan == nullptr) {
        plan = &step_plan(n, c);
        deficit_here = plan->deficit_here;
      }
      const StepClass k = step.classes[class_of(x)];
      const int64_t floor = floor_, ceiling = ceiling_, score = x.score;
      // The pending bound: the highest bound of a joker choice below the floor. (Every combo's bound is one of the
      // word's bounds: when even the highest is below the floor, no combo is taken.)
      if (score + k.bound_low < floor) {
        if (score + k.bound_high < floor) {
          pending_ = std::max(pending_, score + k.bound_high);
          return;
        }
        const int64_t* const bounds = step.bounds.data();
        int64_t pending = INT64_MIN;
        for (uint32_t i = k.bounds_begin; i < k.bounds_end; ++i) {
          const int64_t bound = score + bounds[i];
          if (bound < floor) pending = std::max(pending, bound);
        }
        pending_ = std::max(pending_, pending);
      }
      // The jokers this node has for the step's moves, once its other colours' runs took theirs.
      const int avail = k.left - (kJokers ? others_deficit(x, c) : 0);
      const int uncovered_room = k.uncovered_room, how = k.how;
      const StepCombo* const combos = step.combos.data();
      const int must_after = later_must(x, c);
      for (uint32_t i = k.begin; i < k.end; ++i) {
        const StepCombo& m = combos[i];
        const int64_t bound = score + m.bound;
        if (bound < floor || bound >= ceiling) continue;
        int room = avail - m.need;
        if (room < 0) continue;
        // (the groups' deficit counted with the copies the later colours' runs leave, where that can matter: see
        // groups_deficit_left)
        if (room < must_after) {
          room = avail - m.y - groups_deficit_left(x, m.misc & kPromisedBits, n, c, k.members, k.most, m.gc->k);
          if (room < 0) continue;
        }
        const bool doomed = rack_gap > room;  // (colour c's open runs never take a rack tile again)
        const GroupChoice& gc = *m.gc;
        const Transition* ts;
        uint32_t tcount;
        if (sided) {
          const int slots[kSlots] = {gc.rest[0], gc.rest[1], gc.rest[2], m.y};
          const std::vector<Transition>& list = home_steps(x.s.runs[c], m.rest, pos, slots, how, *demand);
          ts = list.data();
          tcount = static_cast<uint32_t>(list.size());
        } else {
          // (transitions(), with the slots spelt out only when the memo has no entry yet)
          const TransitionMemo::Entry* hit = memo.find(x.s.runs[c], m.rest);
          uint32_t tbegin = hit->begin;
          tcount = hit->count;
          if (hit->rest == 0) {
            const int slots[kSlots] = {gc.rest[0], gc.rest[1], gc.rest[2], m.y};
            std::tie(tbegin, tcount) = make_transitions(memo, x.s.runs[c], m.rest, slots, in_.mode, how);
          }
          ts = memo.pool.data() + tbegin;
        }
        counted += tcount;
        for (uint32_t ti = 0; ti < tcount; ++ti) {
          const Transition& t = ts[ti];
          const int deficit = joker_deficit(t.needs, deficit_here);
          if (ruled_out(t, deficit, room, uncovered_room, doomed)) continue;
          Node y = colour_child(x, idx, score + m.score, m.info, t, c, deficit,
                                kJokers ? m.misc + (static_cast<uint64_t>(t.uncovered()) << 39) : m.misc);
          y.s.mask = x.s.mask | m.mask_bits;
          if (m.resettle) settle_state(y.s);
          sink(y);
        }
      }
    };
    each_node(expand);
  } else {
    each_node(expand_direct);
  }
  if (stats_ != nullptr) {
    stats_->transitions += counted;
    stats_->states += to.nodes.size() - before;
  }
}

// Expands layer `from` through the group step of number n into layer `to`, then prunes dominated nodes.
void Programme::group_step(Layer& from, Layer& to, int n) {
  const size_t before = to.nodes.size();
  const int C = in_.p.colours;
  const size_t to_layer = static_cast<size_t>(n * (C + 1));
  // (what the children's checks read of the input, read once: the nodes written meanwhile could alias it)
  const int64_t w_joker = in_.joker_weight[n];
  const bool opening = in_.threshold > 0, usage = in_.usage;
  const bool retrieval_rule = in_.mode.retrieval_rule;
  const int rack_jokers_all = in_.rack_jokers;
  // By the free jokers placed once the groups took theirs, p: the rack jokers among them, the bound on the score
  // the child's score adds to (the tiles after number n and the jokers left), and what the rest can add to the
  // child's opening value, less the threshold (opening_reachable).
  const int jokers_all = in_.rack_jokers + in_.table_jokers;
  assert(jokers_all <= kMaxJokers);
  int rack_of[kMaxJokers + 1], open_of[kMaxJokers + 1];
  int64_t bound_of[kMaxJokers + 1];
  for (int p = 0; p <= jokers_all; ++p) {
    rack_of[p] = rack_jokers(0, p);
    bound_of[p] = in_.tiles_bound[n * C] + joker_bound(p);
    open_of[p] = opening_gain(n * C, rack_jokers_left(p)) - in_.threshold;
  }
  const uint64_t key_base = group_key(0, 0, C, in_.mode);
  GroupsMemo& group_memo = scratch_->group_memo;
  uint64_t counted = 0;  // transitions (SearchStats), added once at the end
  // A group joker retrieved as any of these colours (Input::any_group): the groups take a real copy of one of them,
  // that is, a count of those colours' rack copies (and table copies, unless any_rack_only) promised here is not 0.
  uint64_t any_bits = 0;
  for (int c = 0; c < C; ++c) {
    if ((in_.any_group[n] >> c & 1) == 0) continue;
    any_bits |= uint64_t{7} << (9 * c + 3 * kRackTile);
    if (!in_.any_rack_only) any_bits |= uint64_t{7} << (9 * c + 3 * kTableTile);
  }
  expand_layer(from, to, to_layer, [&](const Node& x, size_t idx, auto&& sink) RUMMIKUB_INLINE {
    const uint64_t g = x.s.misc & kPromisedBits;
    if (any_bits != 0 && (g & any_bits) == 0) return;
    if (g == 0) {
      Node y = carried(x, idx);
      settle_state(y.s);  // (the number's rack tiles may have covered jokers)
      sink(y);
      return;
    }
    const int placed = jokers_placed(x.s), uncovered = closed_uncovered(x.s);
    // Uncovered jokers of the groups count until the runs are settled (after that, nothing can break the rule).
    // (Then too the child's runs may settle: they are x's again before each child settles.)
    const bool count = retrieval_rule && !is_settled(x.s);
    // The runs' deficits are jokers their slots at the numbers ahead take for certain, apart from the slots of the
    // groups here: the groups take at most the rest (a child given more reaches no legal end).
    const int most = jokers_left(placed) - all_deficits(x);
    const uint64_t key = key_base | g;
    GroupsMemo::Entry* splits = nullptr;  // (the memo's slot of key, found on first use)
    Node z = carried(x, idx);             // (each child is z made anew: set_group_child)
    for (int y = 0; y <= most; ++y) {
      ++counted;
      const int yr = rack_of[placed + y] - rack_of[placed];
      const int64_t score = x.score + yr * w_joker;
      if (!take(score + bound_of[placed + y])) continue;
      if (opening && opening_value(x.s) + n * yr + open_of[placed + y] < 0) continue;  // (opening_reachable)
      if (splits == nullptr) splits = &group_memo.slot(key);
      const int split = group_split(*splits, key, g, y, C, in_.mode);
      if (split < 0 || (count && uncovered + split > rack_jokers_all)) continue;
      if (count) std::memcpy(z.s.runs, x.s.runs, sizeof z.s.runs);  // (the child before may have settled them)
      set_group_child(z, x.s, n, y, yr, count ? uncovered + split : uncovered, score, count);
      sink(z);
    }
    if (usage && stats_ != nullptr) {  // (expand_layer shares each node's count with the nodes that copy it)
      stats_->transitions += counted;
      counted = 0;
    }
  });
  if (stats_ != nullptr) stats_->transitions += counted;
  if (stats_ != nullptr) stats_->states += to.nodes.size() - before;
  // (Not when the layer has not changed since it was last pruned, nor when one node has nothing to compare with.)
  if (!guide_mode_ && to.fresh && to.nodes.size() >= 2) prune_dominated(to);
}

// Offers to `to` the children expand() makes of each live node of `from` (see programme.h).
template <class Expand>
RUMMIKUB_INLINE_ONCE void Programme::expand_layer(Layer& from, Layer& to, size_t to_layer, Expand&& expand) {
  // Enumerating plays (usage masks, no floor), many nodes share their state but for the mask: their children
  // differ only in mask, score and parent. The first node of each such state expands; the others copy its
  // children (the same children in the same order: the result is the same as expanding each).
  if (!in_.usage || floor_ != INT64_MIN) {  // (run() calls no step when nothing_new(from))
    // (from is not to: offering children never moves these nodes)
    Node* const nodes = from.nodes.data();
    const size_t count = from.nodes.size();
    if (guide_mode_) {  // (keep)
      keeping_ = &moves_[to_layer - 1];
      keeping_copies_ = to_layer % static_cast<size_t>(in_.p.colours + 1) != 0 ? 15 : 0;
    }
    // When no pending bound of the layer reaches the floor, the nodes before the first new or improved one have
    // nothing to expand: the pass starts there (the layer's pending bound then stays an upper bound).
    const size_t begin = from.pending >= floor_ ? 0 : from.unchanged;
    int64_t pending = begin == 0 ? INT64_MIN : from.pending;
    for (size_t idx = begin; idx < count; ++idx) {
      Node& x = nodes[idx];
      if (x.dead) continue;
      if (x.ceiling == INT64_MAX || x.pending >= floor_) {  // (else nothing new at this floor)
        ceiling_ = x.ceiling;
        pending_ = INT64_MIN;
        expand(x, idx, [&](const Node& y) {
          const int32_t node = to.offer(y);
          if (guide_mode_) keep(idx, node, y.info);
        });
        x.ceiling = floor_;
        x.pending = pending_;
      }
      pending = std::max(pending, x.pending);
    }
    from.fresh = false;
    from.pending = pending;
    from.unchanged = count;
    return;
  }
  ceiling_ = INT64_MAX;
  using Shared = ShareScratch::Shared;
  std::vector<Node>& made = scratch_->shared_children.made;
  std::vector<Shared>& shared = scratch_->shared_children.shared;
  std::vector<int32_t>& by_state = scratch_->shared_children.by_state;
  made.clear();
  shared.clear();
  size_t cap = 16;
  while (cap < from.nodes.size() * 2) cap <<= 1;
  by_state.assign(cap, -1);
  for (size_t idx = 0; idx < from.nodes.size(); ++idx) {
    const Node& x = from.nodes[idx];
    if (x.dead) continue;
    State bare = x.s;
    bare.mask = 0;
    size_t i = Layer::hash(bare) & (cap - 1);
    for (; by_state[i] >= 0; i = (i + 1) & (cap - 1)) {
      State other = from.nodes[shared[static_cast<size_t>(by_state[i])].first].s;
      other.mask = 0;
      if (other == bare) break;
    }
    if (by_state[i] < 0) {
      by_state[i] = static_cast<int32_t>(shared.size());
      const uint64_t before = stats_ != nullptr ? stats_->transitions : 0;
      const size_t begin = made.size();
      expand(x, idx, [&](const Node& y) {
        made.push_back(y);
      });
      shared.push_back(Shared{idx, begin, made.size(), stats_ != nullptr ? stats_->transitions - before : 0});
      for (size_t k = begin; k < made.size(); ++k) to.offer(made[k]);
      continue;
    }
    const Shared& sh = shared[static_cast<size_t>(by_state[i])];
    const Node& first = from.nodes[sh.first];
    for (size_t k = sh.begin; k < sh.end; ++k) {
      Node y = made[k];
      y.score += x.score - first.score;
      y.parent = static_cast<int32_t>(idx);
      y.s.mask = x.s.mask | (y.s.mask & ~first.s.mask);  // the rack tiles this step adds
      to.offer(y);
    }
    if (stats_ != nullptr) stats_->transitions += sh.transitions;
  }
}

// Flags the states from which a legal end can be reached, backwards over a guide's recorded moves.
void Programme::mark_alive() {
  alive_.resize(last_ + 1);
  for (std::vector<uint8_t>& a : alive_) a.clear();
  if (exceeded_) return;
  const Layer& end = layers_[last_];
  alive_[last_].resize(end.nodes.size());
  bool any = false;
  for (size_t i = 0; i < end.nodes.size(); ++i) {
    alive_[last_][i] = ends_legally(end.nodes[i]) ? 1 : 0;
    any |= alive_[last_][i] != 0;
  }
  if (!any) return;
  // Backwards over the recorded moves: a state is alive when one of its moves leads to a live state.
  // (through pointers read once: the compiler would read the lists again after every flag stored, which may alias)
  for (size_t li = last_; li-- > 0;) {
    alive_[li].assign(layers_[li].nodes.size(), 0);
    uint8_t* const here = alive_[li].data();
    const uint8_t* const next = alive_[li + 1].data();
    for (const auto& [parent, node] : moves_[li]) {
      if (next[node] != 0) here[parent & (kMoveCopies - 1)] = 1;
    }
  }
}

}  // namespace rummikub::search
