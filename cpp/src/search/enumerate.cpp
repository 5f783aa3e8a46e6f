// Enumeration: all_plays() and the list of plays it returns. A programme without usage masks (the guide) first
// finds the states that can reach a legal end; the programme with masks keeps only those, and each distinct set
// of rack tiles placed keeps its best end. A play's table is rebuilt when it is first asked for.
#include <algorithm>

#include "jokers.h"
#include "rebuild.h"

namespace rummikub {

using search::make_result;

// Past this many states (about 100 bytes each with their index, so 6.5 MB), all_plays builds every play at
// once rather than keep its layers.
constexpr size_t kKeptStates = size_t{1} << 16;
// What a final node's play costs the limit: its entry while the plays are collected, and the play built (its
// tiles and table).
constexpr size_t kBytesPerPlay = 512;
// The most plays whose lists a scratch keeps for the next listing (about 100 bytes each).
constexpr size_t kSparePlays = size_t{1} << 14;

// The plays found and what rebuilds them: the inputs (which the programmes refer to) and the programmes.
struct PlayEnumeration::Impl {
  std::vector<search::Input> inputs;
  std::vector<search::Programme> progs;
  std::vector<Meld> table;
  bool untouched = false;
  using Where = search::PlayWhere;
  std::vector<PlayResult> plays;  // played, key and tiles at once; table and value once built
  std::vector<Where> where;
  size_t unbuilt = 0;

  // Lets the programmes go (their layers to the calling thread's scratch) and leaves the lists to it for the
  // next listing (unless they are large).
  ~Impl() {
    release();
    search::PlaysScratch& spare = search::thread_scratch().plays;
    if (plays.capacity() <= kSparePlays && plays.capacity() > spare.plays.capacity()) {
      plays.clear();
      where.clear();
      spare.plays = std::move(plays);
      spare.where = std::move(where);
    }
  }
  // Builds play i (its table and value) if it is not built yet.
  void build(size_t i) {
    Where& w = where[i];
    if (w.built) return;
    // The list may be read by another thread than the one that made it: the calling thread's scratch rebuilds.
    search::Programme& prog = progs[w.prog];
    prog.rebind(search::thread_scratch());
    plays[i] = make_result(prog, w.node, table, untouched);
    w.built = true;
    if (--unbuilt == 0) release();  // every play is built: the layers can go
  }
  // Lets the programmes go, their layers to the calling thread's scratch.
  void release() {
    if (progs.empty()) return;
    search::SearchScratch& scratch = search::thread_scratch();
    for (search::Programme& prog : progs) prog.rebind(scratch);
    progs.clear();
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
  auto impl = std::make_unique<PlayEnumeration::Impl>();
  impl->inputs =
      position_inputs(table, table_tiles, rack, rules, opened, true, Objective::Tiles, impl->untouched, scratch, stats);
  impl->table = table;
  const std::vector<Input>& inputs = impl->inputs;  // not resized from here on: the programmes refer to them
  std::vector<Programme>& progs = impl->progs;
  // The best arrangement of each distinct play, keyed by (rack tiles used, rack jokers used), in first-seen order.
  PlaysScratch& ps = scratch.plays;
  std::vector<PlaysScratch::Found>& found = ps.found;
  std::vector<int32_t>& by_key = ps.by_key;
  found.clear();
  by_key.assign(64, -1);
  progs.reserve(inputs.size());
  // The limit counts the states made so far and the bytes held: the programmes kept, each play's entry, and
  // while an input is searched, its guide.
  size_t held = 0, kept_bytes = 0;
  const size_t byte_budget = limit_bytes(node_limit);
  auto bytes_left = [&](size_t more) -> size_t {
    return node_limit == 0 ? 0 : byte_budget - std::min(kept_bytes + more, byte_budget - 1);
  };
  for (size_t ii = 0; ii < inputs.size(); ++ii) {
    const size_t limit = node_limit == 0 ? 0 : node_limit - std::min(held, node_limit - 1);
    // The same programme without usage masks first: it finds the states that lead to a legal end at all, and
    // the programme with masks (many times larger) keeps only those.
    Input bare = inputs[ii];
    bare.usage = false;
    bare.require_play = false;
    Programme guide(bare, scratch, stats, INT64_MIN, limit, bytes_left(0));
    guide.make_guide();
    guide.run();
    if (guide.exceeded()) return PlaysStatus::TooMany;
    guide.mark_alive();
    if (!guide.any_alive()) continue;
    progs.emplace_back(inputs[ii], scratch, stats, INT64_MIN, limit, bytes_left(guide.bytes()));
    Programme& prog = progs.back();
    prog.set_guide(&guide);
    prog.run();
    prog.set_guide(nullptr);
    if (prog.exceeded()) return PlaysStatus::TooMany;
    if (stats != nullptr) held = static_cast<size_t>(stats->states);
    const std::vector<size_t> finals = prog.finals();
    kept_bytes += prog.bytes() + finals.size() * kBytesPerPlay;
    if (node_limit != 0 && kept_bytes >= byte_budget) return PlaysStatus::TooMany;
    for (size_t f : finals) {
      const Node& x = prog.final_node(f);
      const int rack_jokers = jokers_placed(x.s) - inputs[ii].table_jokers;  // rack jokers played
      size_t slots = by_key.size() - 1;
      size_t i = slot_of(x.s.mask, rack_jokers) & slots;
      for (; by_key[i] >= 0; i = (i + 1) & slots) {
        const PlaysScratch::Found& e = found[static_cast<size_t>(by_key[i])];
        if (e.mask == x.s.mask && e.rack_jokers == rack_jokers) break;
      }
      if (by_key[i] < 0) {
        by_key[i] = static_cast<int32_t>(found.size());
        found.push_back(PlaysScratch::Found{x.s.mask, rack_jokers, x.score, progs.size() - 1, f});
        if (found.size() * 2 > by_key.size()) {  // (rehash at half full)
          by_key.assign(by_key.size() * 2, -1);
          slots = by_key.size() - 1;
          for (size_t e = 0; e < found.size(); ++e) {
            size_t j = slot_of(found[e].mask, found[e].rack_jokers) & slots;
            while (by_key[j] >= 0) j = (j + 1) & slots;
            by_key[j] = static_cast<int32_t>(e);
          }
        }
      } else {
        PlaysScratch::Found& best = found[static_cast<size_t>(by_key[i])];
        if (x.score > best.score) {
          best.score = x.score;
          best.prog = progs.size() - 1;
          best.node = f;
        }
      }
    }
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
  impl->plays = std::move(ps.plays);  // (the lists of a listing let go, if any)
  impl->where = std::move(ps.where);
  impl->plays.resize(rank.size());
  impl->where.reserve(rank.size());
  for (size_t k = 0; k < rank.size(); ++k) {
    const PlaysScratch::Found& f = found[rank[k]];
    PlayResult& r = impl->plays[k];
    r.played = played[rank[k]];
    r.key = f.score;
    r.tiles = r.played.size();
    impl->where.push_back(PlayEnumeration::Impl::Where{f.prog, f.node, false});
  }
  impl->unbuilt = impl->plays.size();
  size_t kept = 0;
  for (const Programme& prog : progs) kept += prog.held();
  if (impl->unbuilt == 0) {
    impl->release();
  } else if (kept > kKeptStates) {
    // A large search: build every play now rather than hold its layers.
    for (size_t i = 0; i < impl->plays.size(); ++i) impl->build(i);
  }
  result = PlayEnumeration(std::move(impl));
  return PlaysStatus::Ok;
}

}  // namespace rummikub
