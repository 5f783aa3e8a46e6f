// Enumeration: all_plays() and the list of plays it returns. A programme without usage masks (the guide) finds
// the states that can reach a legal end and records its moves with the rack copies each places; the sets of rack
// tiles placed on the way to each live state then follow the moves forward, layer by layer, each set with its
// best score, and each distinct set at a legal end is a play. The first play's table comes from the guides when
// their best legal end places its tiles (it most often does); any other play's is found when it is first asked
// for, by the search of its own tiles (or, after the opening with no joker in the play or on the table, by arrange).
#include <algorithm>
#include <cassert>
#include <cstring>
#include <optional>

#include "jokers.h"
#include "rebuild.h"

namespace rummikub {

// What a play found costs the limit while the plays are collected, and the play built (its tiles and table).
constexpr size_t kBytesPerPlay = 512;
// The most plays whose lists a scratch keeps for the next listing (about 100 bytes each).
constexpr size_t kSparePlays = size_t{1} << 14;
// What a pair of rack tiles placed and score held by the forward pass costs the limit (both layers' and the index).
constexpr size_t kBytesPerPair = 48;

// The plays found and what builds them: the position.
struct PlayEnumeration::Impl {
  std::vector<Meld> table;
  TileSet table_tiles;
  SearchRules rules;
  bool opened = true;
  std::vector<PlayResult> plays;  // played, key and tiles at once; table and value once built
  std::vector<uint8_t> built;

  // Leaves the lists to the calling thread's scratch for the next listing (unless they are large).
  ~Impl() {
    search::PlaysScratch& spare = search::thread_scratch().plays;
    if (plays.capacity() <= kSparePlays && plays.capacity() > spare.plays.capacity()) {
      plays.clear();
      built.clear();
      spare.plays = std::move(plays);
      spare.built = std::move(built);
    }
  }
  // Builds play i (its table and value) if it is not built yet: the search of the position with the play's tiles
  // as the rack, at a floor of the play's key, which only arrangements placing every tile with the key reach (a
  // tile left out costs more than any placement of the jokers adds). The first such end of the first input that
  // has one is the play. (The list may be read by another thread than the one that made it: the search works in
  // the calling thread's scratch.)
  void build(size_t i) {
    if (built[i] != 0) return;
    using namespace search;
    const PlayResult& want = plays[i];
    // After the opening, with no joker on the table or in the play, any split of the table's tiles and the play's
    // into valid melds is the play (its key and value follow from its tiles): arrange's depth-first search finds
    // one in a few hundred expansions, where the programme of the play's tiles builds every state above its key.
    if (opened && table_tiles.jokers == 0 && want.played.jokers == 0) {
      const TileSet all = sum(table_tiles, want.played);
      PlayResult r;
      if (arrange(all, rules.p, r.table, nullptr)) {
        r.played = want.played;
        r.key = want.key;
        r.tiles = want.tiles;
        r.value = want.played.value(0);
        plays[i] = std::move(r);
        built[i] = 1;
        return;
      }
    }
    SearchScratch& scratch = thread_scratch();
    scratch.trim();
    bool untouched = false;
    std::vector<Input> inputs = position_inputs(table, table_tiles, want.played, rules, opened, true,
                                                Objective::Tiles, untouched, scratch, nullptr);  // (prepared)
    for (Input& in : inputs) in.usage = false;
    for (const Input& in : inputs) {
      Programme prog(in, scratch, nullptr, want.key);
      prog.run();
      for (size_t f : prog.finals()) {
        if (prog.final_node(f).score < want.key) continue;
        PlayResult r = make_result(prog, f, table, untouched);
        assert(r.played == want.played && r.key == want.key);
        plays[i] = std::move(r);
        built[i] = 1;
        return;
      }
    }
    // (Unreachable: the play is legal. Kept as the plain search of its tiles, which finds it too.)
    PlayResult r;
    const bool found = solve(table, want.played, rules, opened, Objective::Tiles, r, nullptr);
    assert(found && r.played == want.played && r.key == want.key);
    (void)found;
    plays[i] = std::move(r);
    built[i] = 1;
  }
};

PlayEnumeration::PlayEnumeration() = default;
PlayEnumeration::PlayEnumeration(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PlayEnumeration::PlayEnumeration(PlayEnumeration&&) noexcept = default;
PlayEnumeration& PlayEnumeration::operator=(PlayEnumeration&&) noexcept = default;
PlayEnumeration::~PlayEnumeration() = default;
// Returns the number of plays.
std::size_t PlayEnumeration::size() const { return impl_ ? impl_->plays.size() : 0; }
// Returns the rack tiles play i places.
const TileSet& PlayEnumeration::played(std::size_t i) const { return impl_->plays[i].played; }
// Returns play i's key.
int64_t PlayEnumeration::key(std::size_t i) const { return impl_->plays[i].key; }
// Returns play i, building its table and value on first request.
const PlayResult& PlayEnumeration::at(std::size_t i) {
  impl_->build(i);
  return impl_->plays[i];
}

// Returns the hash of a play's key (its usage mask and rack jokers), for all_plays' index of the plays found.
static size_t slot_of(uint64_t mask, int rack_jokers) {
  const uint64_t h = (mask ^ static_cast<uint64_t>(rack_jokers) << 61) * 0x9E3779B97F4A7C15ULL;
  return static_cast<size_t>(h >> 20);
}

// Lists every distinct legal play of a position (search.h).
PlaysStatus all_plays(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
                      PlayEnumeration& result, SearchStats* stats, size_t node_limit) {
  using namespace search;
  SearchScratch& scratch = thread_scratch();
  scratch.trim();
  result = PlayEnumeration();
  TileSet table_tiles;
  if (!position_ok(table, rack, rules, table_tiles)) return PlaysStatus::BadPosition;
  TileSet numbered = rack;
  numbered.jokers = 0;
  if (numbered.size() > 64) return PlaysStatus::RackTooLarge;
  bool untouched = false;
  const std::vector<Input> inputs =
      position_inputs(table, table_tiles, rack, rules, opened, true, Objective::Tiles, untouched, scratch, stats);
  // The best arrangement of each distinct play, keyed by (rack tiles used, rack jokers used), in first-seen order.
  PlaysScratch& ps = scratch.plays;
  struct Trim {  // (on every way out: a large listing's lists go)
    PlaysScratch& ps;
    ~Trim() { ps.trim(); }
  } trim_after{ps};
  std::vector<PlaysScratch::Found>& found = ps.found;
  std::vector<int32_t>& by_key = ps.by_key;
  found.clear();
  by_key.assign(64, -1);
  // Offers a play at a legal end: keeps the best score of each key.
  auto offer_play = [&](uint64_t mask, int rack_jokers, int64_t score) {
    size_t slots = by_key.size() - 1;
    size_t i = slot_of(mask, rack_jokers) & slots;
    for (; by_key[i] >= 0; i = (i + 1) & slots) {
      PlaysScratch::Found& e = found[static_cast<size_t>(by_key[i])];
      if (e.mask == mask && e.rack_jokers == rack_jokers) {
        e.score = std::max(e.score, score);
        return;
      }
    }
    by_key[i] = static_cast<int32_t>(found.size());
    found.push_back(PlaysScratch::Found{mask, rack_jokers, score});
    if (found.size() * 2 > by_key.size()) {  // (rehash at half full)
      by_key.assign(by_key.size() * 2, -1);
      slots = by_key.size() - 1;
      for (size_t e = 0; e < found.size(); ++e) {
        size_t j = slot_of(found[e].mask, found[e].rack_jokers) & slots;
        while (by_key[j] >= 0) j = (j + 1) & slots;
        by_key[j] = static_cast<int32_t>(e);
      }
    }
  };
  // The limit counts the states and pairs made so far and the bytes held: the plays found, and while an input is
  // searched, its guide and the pairs of two layers.
  size_t held = 0;
  PlayResult first_play;  // the best legal end of the guides (see below)
  int64_t first_key = INT64_MIN;
  const size_t byte_budget = limit_bytes(node_limit);
  const int C = rules.p.colours;
  // The guides of the last two inputs, each with its input: an input's guide takes the first layers of the one
  // before, up to the first step whose input they differ in (two readings of a group joker, say, differ only at
  // its number), and lets it go.
  struct GuideSlot {
    std::optional<Input> bare;
    std::optional<Programme> guide;
    GuideSlot() {}  // (not `= default`: the compiler would clear the whole slot first, some 5 kB)
  };
  GuideSlot slots[2];
  for (size_t ii = 0; ii < inputs.size(); ++ii) {
    const Input& in = inputs[ii];
    const size_t limit = node_limit == 0 ? 0 : node_limit - std::min(held, node_limit - 1);
    const size_t kept_bytes = found.size() * kBytesPerPlay;
    // The programme without usage masks: every state it reaches, its moves, and which states lead to a legal end.
    GuideSlot& slot = slots[ii % 2];
    GuideSlot& previous = slots[(ii + 1) % 2];
    slot.guide.reset();
    Input& bare = slot.bare.emplace(in);
    bare.usage = false;
    bare.require_play = false;
    // (a guide that shares nothing goes first: the next takes its memory)
    if (previous.guide && Programme::shared_guide_layers(*previous.bare, bare) == 0) previous.guide.reset();
    Programme& guide = slot.guide.emplace(bare, scratch, stats, INT64_MIN, limit,
                                          node_limit == 0 ? 0 : byte_budget - std::min(kept_bytes, byte_budget - 1));
    guide.make_guide();
    if (previous.guide) guide.take_prefix(*previous.guide);
    guide.run();
    previous.guide.reset();
    if (guide.exceeded()) return PlaysStatus::TooMany;
    guide.mark_alive();
    held += guide.held();
    if (!guide.any_alive()) continue;
    // The guide's best legal end (the first of the highest score) is the best arrangement of a play with this
    // input's best key: kept for the list's first play, which it builds when it places the same tiles (the first
    // input with the highest key wins, as in the pairs).
    {
      size_t best_f = SIZE_MAX;
      int64_t best_score = first_key;
      for (size_t f : guide.finals()) {
        const int64_t score = guide.final_node(f).score;
        if (score > best_score && (score > 0 || !in.require_play)) {
          best_f = f;
          best_score = score;
        }
      }
      if (best_f != SIZE_MAX) {
        first_play = make_result(guide, best_f, table, untouched);
        first_key = best_score;
      }
    }
    const size_t guide_bytes = kept_bytes + guide.bytes();
    // Forward over the moves into live states: the pairs (rack tiles placed, best score) of each live state of the
    // layer, from its parents' pairs with the rack copies and jokers of the move added. (Every live state has
    // pairs: a move into a live state comes from a live state (mark_alive), and each live state is reached from the
    // start by such moves. A dead state has none, and its span is never read.)
    PlaysScratch::Pairs* cur = &ps.pairs[0];
    PlaysScratch::Pairs* next = &ps.pairs[1];
    cur->first.assign({0, 1});
    // (The lists only grow: the pairs of a layer are the first `made` of its lists, held in cur_made.)
    if (cur->masks.empty()) {
      cur->masks.resize(1);
      cur->scores.resize(1);
    }
    cur->masks[0] = 0;
    cur->scores[0] = 0;
    size_t cur_made = 1;
    const size_t last = guide.last_layer();
    bool reached = true;
    for (size_t li = 0; li < last; ++li) {
      const int n = static_cast<int>(li) / (C + 1) + 1, c = static_cast<int>(li) % (C + 1);
      const MoveList& moves = guide.moves(li);
      const std::vector<Node>& from = guide.layer_nodes(li);
      const std::vector<Node>& to = guide.layer_nodes(li + 1);
      const uint8_t* const alive = guide.alive_flags(li + 1);
      // The moves into live states, listed by state (state q's last at head[q], each one's before it at its
      // `before`), the live states in the order first reached, and the pairs the moves offer. (The lists only grow;
      // head is emptied for the layer's states.)
      const size_t T = to.size();
      if (ps.head.size() < T) ps.head.resize(T);
      if (ps.into.size() < moves.size()) ps.into.resize(moves.size());
      if (ps.live.size() < T) ps.live.resize(T);
      std::memset(ps.head.data(), 0xFF, T * sizeof(int32_t));
      int32_t* const head = ps.head.data();
      PlaysScratch::LiveMove* const into = ps.into.data();
      uint32_t* const live = ps.live.data();
      const uint32_t* const first = cur->first.data();
      size_t bound = 0, live_moves = 0, live_states = 0;
      for (const auto& [packed, q] : moves) {
        if (alive[q] == 0) continue;
        const size_t p = static_cast<size_t>(packed) & (Programme::kMoveCopies - 1);
        assert(guide.alive(li, p) && first[2 * p + 1] > first[2 * p]);
        bound += first[2 * p + 1] - first[2 * p];
        if (head[q] < 0) live[live_states++] = static_cast<uint32_t>(q);
        into[live_moves] = PlaysScratch::LiveMove{packed, head[q]};
        head[q] = static_cast<int32_t>(live_moves++);
      }
      if (bound == 0) {
        reached = false;
        break;
      }
      // The pairs offered bound the pairs made: a layer that could pass the memory limit is refused before its lists
      // are allocated.
      if (node_limit != 0 && guide_bytes + (cur_made + bound) * kBytesPerPair >= byte_budget) {
        return PlaysStatus::TooMany;
      }
      if (next->first.size() < 2 * T) next->first.resize(2 * T);
      if (next->masks.size() < bound) {
        next->masks.resize(bound);
        next->scores.resize(bound);
      }
      uint32_t* const next_first = next->first.data();
      uint64_t* const masks = next->masks.data();
      int64_t* const scores = next->scores.data();
      const uint64_t* const cur_masks = cur->masks.data();
      const int64_t* const cur_scores = cur->scores.data();
      const int table_jokers = in.table_jokers;
      const bool any_rack_joker = in.rack_jokers > 0;  // (without one, no move places a rack joker)
      const int64_t w_tile = in.rack_weight[n], w_joker = in.joker_weight[n];
      uint32_t made = 0;
      for (size_t s = 0; s < live_states; ++s) {
        const size_t q = live[s];
        next_first[2 * q] = made;
        const int after = any_rack_joker ? jokers_placed(to[q].s) : 0;
        // What move k adds to its parent's pairs: the rack copies' bits, and their weight and the rack jokers'.
        auto added = [&](int32_t k, size_t& p, uint64_t& bits, int64_t& delta) {
          const int32_t packed = into[k].packed;
          p = static_cast<size_t>(packed) & (Programme::kMoveCopies - 1);
          const int b = static_cast<int>(static_cast<uint32_t>(packed) >> Programme::kMoveShift);
          // (the free jokers past the table's count are the rack's: Input)
          int yr = 0;
          if (any_rack_joker) {
            const int before = jokers_placed(from[p].s);
            yr = std::max(0, after - table_jokers) - std::max(0, before - table_jokers);
          }
          delta = b * w_tile + yr * w_joker;
          bits = b == 0 ? 0 : ((uint64_t{1} << b) - 1) << in.usage_bit[c][n];
        };
        size_t p;
        uint64_t bits;
        int64_t delta;
        if (into[head[q]].before < 0) {  // one way in: the parent's pairs, each extended (all distinct)
          added(head[q], p, bits, delta);
          for (uint32_t k = first[2 * p]; k < first[2 * p + 1]; ++k) {
            masks[made] = cur_masks[k] | bits;
            scores[made] = cur_scores[k] + delta;
            ++made;
          }
          next_first[2 * q + 1] = made;
          continue;
        }
        // Several ways in: pairs with the same rack tiles merge (keeping the best score).
        size_t offered = 0;
        for (int32_t m = head[q]; m >= 0; m = into[m].before) {
          const size_t pm = static_cast<size_t>(into[m].packed) & (Programme::kMoveCopies - 1);
          offered += first[2 * pm + 1] - first[2 * pm];
        }
        size_t cap = 16;
        while (cap < offered * 2) cap <<= 1;
        if (ps.by_pair.size() < cap) ps.by_pair.resize(cap);  // (only grows; the first cap are emptied)
        int32_t* const by_pair = ps.by_pair.data();
        std::memset(by_pair, 0xFF, cap * sizeof(int32_t));
        const uint32_t base = made;
        for (int32_t m = head[q]; m >= 0; m = into[m].before) {
          added(m, p, bits, delta);
          for (uint32_t k = first[2 * p]; k < first[2 * p + 1]; ++k) {
            const uint64_t mask = cur_masks[k] | bits;
            const int64_t score = cur_scores[k] + delta;
            const uint64_t h = mask * 0xBF58476D1CE4E5B9ULL;
            size_t at = static_cast<size_t>(h ^ (h >> 31)) & (cap - 1);
            for (; by_pair[at] >= 0; at = (at + 1) & (cap - 1)) {
              if (masks[base + static_cast<uint32_t>(by_pair[at])] == mask) break;
            }
            if (by_pair[at] < 0) {
              by_pair[at] = static_cast<int32_t>(made - base);
              masks[made] = mask;
              scores[made] = score;
              ++made;
            } else {
              int64_t& best = scores[base + static_cast<uint32_t>(by_pair[at])];
              best = std::max(best, score);
            }
          }
        }
        next_first[2 * q + 1] = made;
      }
      cur_made = made;
      held += made;
      if (stats != nullptr) stats->states += made;
      if (node_limit != 0 && held > node_limit) return PlaysStatus::TooMany;
      std::swap(cur, next);
    }
    if (!reached) continue;
    // The pairs at legal ends (the last layer's live states) are the plays.
    const std::vector<Node>& ends = guide.layer_nodes(last);
    for (size_t f = 0; f < ends.size(); ++f) {
      if (!guide.alive(last, f)) continue;
      const int rack_jokers = jokers_placed(ends[f].s) - in.table_jokers;
      for (uint32_t k = cur->first[2 * f]; k < cur->first[2 * f + 1]; ++k) {
        if (in.require_play && cur->scores[k] <= 0) continue;
        offer_play(cur->masks[k], rack_jokers, cur->scores[k]);
      }
    }
    if (node_limit != 0 && found.size() * kBytesPerPlay >= byte_budget) return PlaysStatus::TooMany;
  }
  // The played tiles of a play follow from its usage mask: bit Input::usage_bit[c][n] + k stands for copy k of (c, n).
  int tile_of_bit[64];
  for (int c = 0; c < rules.p.colours && !inputs.empty(); ++c) {  // (no input: no play)
    for (int n = 1; n <= rules.p.numbers; ++n) {
      for (int k = 0; k < rack.at(c, n); ++k) tile_of_bit[inputs[0].usage_bit[c][n] + k] = tile_code(c, n);
    }
  }
  std::vector<TileSet>& played = ps.played;
  played.resize(found.size());
  for (size_t e = 0; e < found.size(); ++e) {
    TileSet& t = played[e];
    t = TileSet();
    for (uint64_t m = found[e].mask; m != 0; m &= m - 1) t.add(tile_of_bit[__builtin_ctzll(m)]);
    t.jokers = found[e].rack_jokers;
  }
  // Best first: by key, then the played tiles' canonical order (distinct plays: a strict order).
  std::vector<uint32_t>& rank = ps.rank;
  rank.resize(found.size());
  for (size_t i = 0; i < rank.size(); ++i) rank[i] = static_cast<uint32_t>(i);
  std::sort(rank.begin(), rank.end(), [&](uint32_t x, uint32_t y) {
    if (found[x].score != found[y].score) return found[x].score > found[y].score;
    const TileSet& a = played[x];
    const TileSet& b = played[y];
    for (int c = 0; c < kMaxColours; ++c) {
      if (a.w[c] != b.w[c]) return a.w[c] < b.w[c];
    }
    return a.jokers < b.jokers;
  });
  auto impl = std::make_unique<PlayEnumeration::Impl>();
  impl->table = table;
  impl->table_tiles = table_tiles;
  impl->rules = rules;
  impl->opened = opened;
  impl->plays = std::move(ps.plays);  // (the lists of a listing let go, if any)
  impl->built = std::move(ps.built);
  impl->plays.resize(rank.size());
  impl->built.assign(rank.size(), 0);
  for (size_t k = 0; k < rank.size(); ++k) {
    const PlaysScratch::Found& f = found[rank[k]];
    PlayResult& r = impl->plays[k];
    r.played = played[rank[k]];
    r.key = f.score;
    r.tiles = r.played.size();
  }
  if (!rank.empty() && first_key == impl->plays[0].key && first_play.played == impl->plays[0].played) {
    impl->plays[0] = std::move(first_play);
    impl->built[0] = 1;
  }
  result = PlayEnumeration(std::move(impl));
  return PlaysStatus::Ok;
}

}  // namespace rummikub
