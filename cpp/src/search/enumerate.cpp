// Enumeration: all_plays() and the list of plays it returns. A programme without usage masks (the guide) first
// finds the states that can reach a legal end; the programme with masks keeps only those, and each distinct set
// of rack tiles placed keeps its best end. A play's table is rebuilt when it is first asked for.
#include <algorithm>
#include <unordered_map>

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

// The plays found and what rebuilds them: the inputs (which the programmes refer to) and the programmes.
struct PlayEnumeration::Impl {
  std::vector<search::Input> inputs;
  std::vector<search::Programme> progs;
  std::vector<Meld> table;
  bool untouched = false;
  struct Where {
    size_t prog, node;
    bool built;
  };
  std::vector<PlayResult> plays;  // played, key and tiles at once; table and value once built
  std::vector<Where> where;
  size_t unbuilt = 0;

  // Lets the programmes go (their layers to the calling thread's scratch).
  ~Impl() { release(); }
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
  struct Best {
    int64_t score;
    size_t input, node;
  };
  // The best arrangement of each distinct play, keyed by (rack tiles used, rack jokers used).
  std::unordered_map<uint64_t, std::pair<int, Best>> by_mask;
  std::vector<std::pair<uint64_t, int>> order;  // first-seen order of the keys: deterministic output
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
      const uint64_t key = x.s.mask * 8 + static_cast<uint64_t>(rack_jokers);
      auto [it, fresh] = by_mask.try_emplace(key, rack_jokers, Best{x.score, progs.size() - 1, f});
      if (fresh) {
        order.emplace_back(x.s.mask, rack_jokers);
      } else if (x.score > it->second.second.score) {
        it->second.second = Best{x.score, progs.size() - 1, f};
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
  std::vector<PlayResult> plays;
  std::vector<PlayEnumeration::Impl::Where> where;
  plays.reserve(order.size());
  where.reserve(order.size());
  for (const auto& [mask, rack_jokers] : order) {
    const Best& b = by_mask.at(mask * 8 + static_cast<uint64_t>(rack_jokers)).second;
    PlayResult r;
    for (uint64_t m = mask; m != 0; m &= m - 1) r.played.add(tile_of_bit[__builtin_ctzll(m)]);
    r.played.jokers = rack_jokers;
    r.key = b.score;
    r.tiles = r.played.size();
    plays.push_back(std::move(r));
    where.push_back(PlayEnumeration::Impl::Where{b.input, b.node, false});
  }
  // Best first: by key, then the played tiles' canonical order.
  std::vector<size_t> rank(plays.size());
  for (size_t i = 0; i < rank.size(); ++i) rank[i] = i;
  std::sort(rank.begin(), rank.end(), [&](size_t x, size_t y) {
    const PlayResult& a = plays[x];
    const PlayResult& b = plays[y];
    if (a.key != b.key) return a.key > b.key;
    for (int c = 0; c < kMaxColours; ++c) {
      if (a.played.w[c] != b.played.w[c]) return a.played.w[c] < b.played.w[c];
    }
    return a.played.jokers < b.played.jokers;
  });
  for (size_t i : rank) {
    impl->plays.push_back(std::move(plays[i]));
    impl->where.push_back(where[i]);
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
