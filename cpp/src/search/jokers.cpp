// Joker options: each way the table's jokers can stay or be retrieved, as programme inputs; and the inputs of every
// programme run a position needs (one per joker option, times one per opening subset on an opening that extends).
#include "jokers.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <numeric>

#include "../bits.h"
#include "opening.h"

namespace rummikub::search {

// Appends each way a table's jokers can stay or be retrieved (docs/search-semantics.md, item 3), as inputs.
void joker_inputs(const std::vector<Meld>& table, const Input& base, const SearchRules& rules, bool allow_retrieval,
                  std::vector<Input>& out) {
  // Where a joker's copy must end (its home, docs/search-semantics.md item 3): a group of its number, any run of its
  // colour through it (it was inside its old run), or one holding the number before (old high end) / after (old low
  // end) it too.
  enum Home : int { kGroupHome = 0, kRunHome = 1, kPrevHome = 2, kNextHome = 3 };
  struct Joker {
    int tile;
    bool retrieved;
    int home;
  };
  // Per meld: the list of options, each a list of jokers.
  struct Choice {
    std::vector<Joker> jokers;
  };
  // The melds with jokers whose candidate tiles are of each number.
  int touched[kByNumber] = {};
  for (const Meld& m : table) {
    if (m.jokers() == 0) continue;
    if (m.kind == MeldKind::Run) {
      for (int i = 0; i < m.length; ++i) touched[m.number + i] += (m.joker_slots >> i & 1) != 0 ? 1 : 0;
    } else {
      ++touched[m.number];
    }
  }
  std::vector<std::vector<Choice>> per_meld;
  for (const Meld& m : table) {
    const int k = m.jokers();
    if (k == 0) continue;
    std::vector<int> tiles;  // run: the slots; group: the missing colours' tiles
    std::vector<int> homes;  // the home of a joker standing for each
    if (m.kind == MeldKind::Run) {
      for (int i = 0; i < m.length; ++i) {
        if (!(m.joker_slots >> i & 1)) continue;
        tiles.push_back(m.run_slot(i));
        homes.push_back(i == 0 ? kNextHome : i == m.length - 1 ? kPrevHome : kRunHome);
      }
    } else {
      for (int c = 0; c < rules.p.colours; ++c) {
        if (m.colours >> c & 1) continue;
        tiles.push_back(tile_code(c, m.number));
        homes.push_back(kGroupHome);
      }
    }
    std::vector<Choice> options;
    const int nt = static_cast<int>(tiles.size());
    // Choose which tiles the k jokers stand for (all for a run; a k-subset of missing colours for a group),
    // then stay/retrieve for each.
    for (uint32_t sub = 0; sub < (1u << nt); ++sub) {
      if (popcount32(sub) != k) continue;
      std::vector<size_t> chosen;
      for (int i = 0; i < nt; ++i) {
        if (sub >> i & 1) chosen.push_back(static_cast<size_t>(i));
      }
      const uint32_t ways = allow_retrieval ? (1u << k) : 1u;
      for (uint32_t rmask = 0; rmask < ways; ++rmask) {
        Choice ch;
        for (int i = 0; i < k; ++i) {
          const size_t at = chosen[static_cast<size_t>(i)];
          ch.jokers.push_back(Joker{tiles[at], (rmask >> i & 1) != 0, homes[at]});
        }
        options.push_back(ch);
      }
    }
    // A group's staying jokers go to groups of its number, where a reading fails only when such a group holds a
    // numbered tile of the colour read. A reading of colours with no numbered copy at all (on the table or the
    // rack) never fails, so its option holds the plays of every other reading that keeps the jokers: the others
    // are left out. (Only when no other joker reads a tile of this number, which could share the colour.)
    if (m.kind != MeldKind::Run && touched[m.number] == 1) {
      auto all_stay = [](const Choice& ch) {
        return std::none_of(ch.jokers.begin(), ch.jokers.end(), [](const Joker& j) { return j.retrieved; });
      };
      auto never_fails = [&](const Choice& ch) {
        return all_stay(ch) && std::all_of(ch.jokers.begin(), ch.jokers.end(), [&](const Joker& j) {
                 const int c = tile_colour(j.tile), n = tile_number(j.tile);
                 return base.table[c][n] + base.rack[c][n] == 0;
               });
      };
      const auto keep = std::find_if(options.begin(), options.end(), never_fails);
      if (keep != options.end()) {
        const Choice kept = *keep;
        options.erase(std::remove_if(options.begin(), options.end(), all_stay), options.end());
        options.insert(options.begin(), kept);  // (where the first reading's was: every choice's first)
      }
    }
    per_meld.push_back(std::move(options));
  }
  std::vector<size_t> pick(per_meld.size(), 0);
  const size_t first = out.size();  // (the inputs this call lists, compared for duplicates)
  size_t combinations = 1;
  for (const auto& options : per_meld) combinations *= options.size();
  out.reserve(first + combinations);  // (an input is a few kilobytes: no copies as the list grows)
  while (true) {
    // Built in place at the end of `out`, and dropped again when it cannot be played or is listed already.
    out.push_back(base);
    Input& in = out.back();
    int need[kCodes] = {0};
    int needed[kCodes];  // the tiles with a need, in the order met
    int nneeded = 0;
    int retrieved = 0;
    for (size_t i = 0; i < per_meld.size(); ++i) {
      for (const Joker& j : per_meld[i][pick[i]].jokers) {
        const int c = tile_colour(j.tile), n = tile_number(j.tile);
        Demand& d = in.demand[c][n];
        d.active = 1;
        in.demands = true;
        if (j.retrieved) {
          ++retrieved;
          if (need[j.tile]++ == 0) needed[nneeded++] = j.tile;
          ++(j.home == kGroupHome ? d.real_group : d.real_run);
          if (j.home == kPrevHome) ++d.real_prev;
          if (j.home == kNextHome) ++d.real_next;
          d.rack_only = rules.policy == JokerPolicy::ReplaceFromRack ? 1 : 0;
        } else {
          ++in.staying[c][n];
          if (j.home == kGroupHome) ++d.stay_group;
          if (j.home == kPrevHome) ++d.stay_prev;
          if (j.home == kNextHome) ++d.stay_next;
        }
      }
    }
    bool ok = true;
    for (int k = 0; k < nneeded && ok; ++k) {
      const int t = needed[k];
      const int c = tile_colour(t), n = tile_number(t);
      const int from_rack =
          rules.policy == JokerPolicy::ReplaceFromRack ? need[t] : std::max(0, need[t] - in.table[c][n]);
      if (from_rack > in.rack[c][n]) ok = false;
      in.rack_min[c][n] = static_cast<uint8_t>(std::max<int>(in.rack_min[c][n], from_rack));
    }
    bool keep = ok;
    if (ok) {
      in.table_jokers = retrieved;
      in.mode.retrieval_rule = retrieved > 0;
      in.mode.rack_needed = rules.policy == JokerPolicy::ReplaceFromRack ? 2 : 1;
      finish_mode(in);
      // Skip inputs equal to one already listed (different readings can coincide): they differ from `base` only
      // in their staying jokers, forced rack tiles, demands and free table jokers, compared bytewise.
      auto same = [&](const Input& o) {
        return o.table_jokers == in.table_jokers && std::memcmp(o.staying, in.staying, sizeof in.staying) == 0 &&
               std::memcmp(o.rack_min, in.rack_min, sizeof in.rack_min) == 0 &&
               std::memcmp(o.demand, in.demand, sizeof in.demand) == 0;
      };
      keep = std::none_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end() - 1, same);
    }
    if (!keep) out.pop_back();
    size_t i = 0;
    while (i < pick.size() && ++pick[i] == per_meld[i].size()) pick[i++] = 0;
    if (i == pick.size()) break;
  }
}

// Returns the next states of a colour's runs through a number with a sided demand (see jokers.h). A demanded copy
// that needs the number before it continues an old run (then no old run it continues is led by a free joker any
// more: see unlead_run); one that needs the number after it starts a run (which must go on anyway), continues a run
// still short of the minimum length, or continues a run that is then pinned (pin_run). Which runs are pinned is a
// choice: each choice of exactly as many as needed is a transition (pinning more only restricts the state). The
// demanded copies of one kind are alike, so counting the slots of each kind that meet each condition suffices
// (Hall's condition: every run slot meets one of the two, so prev and next demands fit when each count does).
std::vector<Transition> home_transitions(uint64_t state, const int slots[kSlots], const Mode& m, int how,
                                         const Demand& d) {
  std::vector<Transition> out;
  uint8_t old[8];
  const int k = unpack_runs(state, old);
  int rem[kSlots];
  std::copy(slots, slots + kSlots, rem);
  int act[8] = {0};
  const bool unlead = (d.stay_prev | d.real_prev) != 0;
  const bool table_real = d.rack_only == 0;  // do table copies replace jokers too?
  auto emit = [&]() {
    int fresh_runs = 0;
    for (int s = 0; s < kSlots; ++s) fresh_runs += rem[s];
    int continued = 0;
    bool closed = false;
    uint32_t uncovered = 0;
    uint8_t ext[8] = {};
    int stay_prev = 0, real_prev = 0;
    int stay_next = rem[kStayingJoker], real_next = rem[kRackTile] + (table_real ? rem[kTableTile] : 0);
    int stay_cand[8], real_cand[8], ns = 0, nr = 0;
    for (int j = 0; j < k; ++j) {
      if (act[j] == 0) {
        closed = true;
        uncovered += static_cast<uint32_t>(run_uncovered(old[j]));
        continue;
      }
      const int s = act[j] - 1;
      uint8_t e = extend_run(old[j], s, m);
      if (unlead) e = unlead_run(e);
      ext[j] = e;
      ++continued;
      const bool goes_on = run_length(e) < m.min_len;  // (it must take the next number anyway)
      if (s == kStayingJoker) {
        ++stay_prev;
        if (goes_on) {
          ++stay_next;
        } else {
          stay_cand[ns++] = j;
        }
      } else if (s == kRackTile || (s == kTableTile && table_real)) {
        ++real_prev;
        if (goes_on) {
          ++real_next;
        } else {
          real_cand[nr++] = j;
        }
      }
    }
    if (continued + fresh_runs > 8 || (closed && fresh_runs > 0)) return;
    if (stay_prev < d.stay_prev || real_prev < d.real_prev) return;
    const int pin_stay = std::max(0, d.stay_next - stay_next), pin_real = std::max(0, d.real_next - real_next);
    if (pin_stay > ns || pin_real > nr) return;
    for (uint32_t ms = 0; ms < (1u << ns); ++ms) {
      if (popcount32(ms) != pin_stay) continue;
      for (uint32_t mr = 0; mr < (1u << nr); ++mr) {
        if (popcount32(mr) != pin_real) continue;
        bool pinned[8] = {};
        for (int i = 0; i < ns; ++i) pinned[stay_cand[i]] = (ms >> i & 1) != 0;
        for (int i = 0; i < nr; ++i) pinned[real_cand[i]] = (mr >> i & 1) != 0;
        uint8_t next[16];
        int n = 0;
        uint32_t a = 0;
        for (int j = 0; j < k; ++j) {
          if (act[j] == 0) continue;
          next[n++] = pinned[j] ? pin_run(ext[j], m) : ext[j];
          a |= static_cast<uint32_t>(pinned[j] ? act[j] + 4 : act[j]) << (3 * j);
        }
        for (int s = 0; s < kSlots; ++s) {
          for (int r = 0; r < rem[s]; ++r) next[n++] = extend_run(0, s, m);
        }
        if (how != kOpen) {
          for (int j = 0; j < n; ++j) next[j] = settle(next[j], how);
        }
        const uint64_t word = pack_runs(next, n);
        a |= uncovered << 24;
        bool known = false;
        for (Transition& t : out) {
          if (t.next != word) continue;
          if (a >> 24 < t.actions >> 24) t.actions = a;
          known = true;
          break;
        }
        if (!known) out.push_back(Transition{word, a, run_needs(word, m)});
      }
    }
  };
  each_run_action(old, k, rem, act, m, emit);
  return out;
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
    // Unprepared for solve: the direct search (opening_search) reads no bound, and most openings need nothing else.
    if (usage) {
      set_usage(in, rack);
      prepare(in);
    }
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
  }
  if (joker_options.size() > 1) {
    // Keeping every joker is the cheapest run and gives the others a floor. Then the most retrieved jokers
    // first: they most often play the most tiles, and a high key found early prunes the runs after it.
    // (Sorted by index and then copied once: a stable sort of the inputs themselves copies each several times.)
    std::vector<size_t> order(joker_options.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const int x = joker_options[a].table_jokers, y = joker_options[b].table_jokers;
      return (x == 0) != (y == 0) ? x == 0 : x > y;
    });
    std::vector<Input> sorted;
    sorted.reserve(order.size());
    for (size_t k : order) sorted.push_back(joker_options[k]);
    joker_options.swap(sorted);
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
