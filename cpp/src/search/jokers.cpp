// Joker options: each way the table's jokers can stay or be retrieved, as programme inputs; and the inputs of every
// programme run a position needs (one per joker option, times one per opening subset on an opening that extends).
#include "jokers.h"

#include <algorithm>

#include "opening.h"

namespace rummikub::search {

// Appends each way a table's jokers can stay or be retrieved (docs/search-semantics.md, item 3), as inputs.
void joker_inputs(const std::vector<Meld>& table, const Input& base, const SearchRules& rules, bool allow_retrieval,
                  std::vector<Input>& out) {
  // Per meld: the list of options, each a list of (tile, retrieved) pairs.
  struct Choice {
    std::vector<std::pair<int, bool>> jokers;
  };
  std::vector<std::vector<Choice>> per_meld;
  for (const Meld& m : table) {
    const int k = m.jokers();
    if (k == 0) continue;
    std::vector<int> tiles;  // run: the slots; group: the missing colours' tiles
    if (m.kind == MeldKind::Run) {
      for (int i = 0; i < m.length; ++i) {
        if (m.joker_slots >> i & 1) tiles.push_back(m.run_slot(i));
      }
    } else {
      for (int c = 0; c < rules.p.colours; ++c) {
        if (!(m.colours >> c & 1)) tiles.push_back(tile_code(c, m.number));
      }
    }
    std::vector<Choice> options;
    const int nt = static_cast<int>(tiles.size());
    // Choose which tiles the k jokers stand for (all for a run; a k-subset of missing colours for a group),
    // then stay/retrieve for each.
    for (uint32_t sub = 0; sub < (1u << nt); ++sub) {
      if (__builtin_popcount(sub) != k) continue;
      std::vector<int> chosen;
      for (int i = 0; i < nt; ++i) {
        if (sub >> i & 1) chosen.push_back(tiles[static_cast<size_t>(i)]);
      }
      const uint32_t ways = allow_retrieval ? (1u << k) : 1u;
      for (uint32_t rmask = 0; rmask < ways; ++rmask) {
        Choice ch;
        for (int i = 0; i < k; ++i) ch.jokers.emplace_back(chosen[static_cast<size_t>(i)], (rmask >> i & 1) != 0);
        options.push_back(ch);
      }
    }
    per_meld.push_back(std::move(options));
  }
  std::vector<size_t> pick(per_meld.size(), 0);
  std::vector<std::vector<uint8_t>> seen;
  while (true) {
    Input in = base;
    int need[kCodes] = {0};
    int retrieved = 0;
    for (size_t i = 0; i < per_meld.size(); ++i) {
      for (const auto& [tile, ret] : per_meld[i][pick[i]].jokers) {
        if (ret) {
          ++retrieved;
          ++need[tile];
        } else {
          ++in.staying[tile_colour(tile)][tile_number(tile)];
        }
      }
    }
    bool ok = true;
    for (int t = 0; t < kCodes && ok; ++t) {
      if (need[t] == 0) continue;
      const int c = tile_colour(t), n = tile_number(t);
      const int from_rack =
          rules.policy == JokerPolicy::ReplaceFromRack ? need[t] : std::max(0, need[t] - in.table[c][n]);
      if (from_rack > in.rack[c][n]) ok = false;
      in.rack_min[c][n] = static_cast<uint8_t>(std::max<int>(in.rack_min[c][n], from_rack));
    }
    if (ok) {
      in.table_jokers = retrieved;
      in.mode.retrieval_rule = retrieved > 0;
      in.mode.rack_needed = rules.policy == JokerPolicy::ReplaceFromRack ? 2 : 1;
      finish_mode(in);
      // Skip inputs equal to one already listed (different readings can coincide).
      const auto* staying = reinterpret_cast<const uint8_t*>(in.staying);
      const auto* rack_min = reinterpret_cast<const uint8_t*>(in.rack_min);
      std::vector<uint8_t> sig(staying, staying + sizeof in.staying);
      sig.insert(sig.end(), rack_min, rack_min + sizeof in.rack_min);
      sig.push_back(static_cast<uint8_t>(in.table_jokers));
      if (std::find(seen.begin(), seen.end(), sig) == seen.end()) {
        seen.push_back(sig);
        out.push_back(in);
      }
    }
    size_t i = 0;
    while (i < pick.size() && ++pick[i] == per_meld[i].size()) pick[i++] = 0;
    if (i == pick.size()) break;
  }
}

// Returns the inputs of every programme run a position needs (one per joker option or opening subset), prepared.
std::vector<Input> position_inputs(const std::vector<Meld>& table, const TileSet& table_tiles, const TileSet& rack,
                                   const SearchRules& rules, bool opened, bool usage, Objective obj,
                                   bool& table_untouched, SearchScratch& scratch, SearchStats* stats) {
  std::vector<Input> inputs;
  const bool opening = !opened && rules.opening_threshold > 0;
  table_untouched = opening && !rules.extend_after_opening;
  if (table_untouched) {
    Input in = opening_input(rack, rules);
    set_weights(in, obj, rules.joker_penalty);
    if (usage) set_usage(in, rack);
    prepare(in);
    inputs.push_back(in);
    return inputs;
  }
  Input base;
  base.p = rules.p;
  TileSet numbered = table_tiles;
  numbered.jokers = 0;
  add_tiles(base.table, numbered, rules.p);
  add_tiles(base.rack, rack, rules.p);
  base.rack_jokers = rack.jokers;
  set_weights(base, obj, rules.joker_penalty);
  if (usage) set_usage(base, rack);
  std::vector<Input> joker_options;
  if (rules.policy == JokerPolicy::Free) {
    base.table_jokers = table_tiles.jokers;
    finish_mode(base);
    joker_options.push_back(base);
  } else {
    joker_inputs(table, base, rules, !opening, joker_options);
    // Keeping every joker is the cheapest run and gives the others a floor. Then the most retrieved jokers
    // first: they most often play the most tiles, and a high key found early prunes the runs after it.
    std::stable_sort(joker_options.begin(), joker_options.end(), [](const Input& x, const Input& y) {
      return (x.table_jokers == 0) != (y.table_jokers == 0) ? x.table_jokers == 0 : x.table_jokers > y.table_jokers;
    });
  }
  if (!opening) {
    for (Input& in : joker_options) prepare(in);
    return joker_options;
  }
  // Opening with extension: some sub-multiset P1 of the rack must open on its own. Each minimal such P1 is
  // forced onto the table in turn.
  for (const TileSet& p1 : opening_subsets(rack, rules, scratch, stats)) {
    for (const Input& jo : joker_options) {
      Input in = jo;
      for (int c = 0; c < rules.p.colours; ++c) {
        for (int n = 1; n <= rules.p.numbers; ++n) {
          in.rack_min[c][n] = static_cast<uint8_t>(std::max<int>(in.rack_min[c][n], p1.at(c, n)));
        }
      }
      in.rack_jokers_min = std::max(in.rack_jokers_min, p1.jokers);
      prepare(in);
      inputs.push_back(in);
    }
  }
  return inputs;
}

}  // namespace rummikub::search
