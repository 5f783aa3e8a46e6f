// Joker options: each way the table's jokers can stay or be retrieved, as programme inputs; and the inputs of every
// programme run a position needs (one per joker option, times one per opening subset on an opening that extends).
#include "jokers.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>

#include "../bits.h"
#include "opening.h"

namespace rummikub::search {

// The most readings of one meld's jokers: a group with k of them reads k of its missing colours (at most 4), each
// joker staying or retrieved: C(4, 3) 2^3; a run's k jokers read its k slots: 2^k.
constexpr int kMostReadings = 32;

// Appends each way a table's jokers can stay or be retrieved (docs/search-semantics.md, item 3), as inputs, in the
// order the programme runs take them.
void joker_inputs(const std::vector<Meld>& table, const Input& base, const SearchRules& rules, bool allow_retrieval,
                  std::vector<Input>& out) {
  const bool rack_only = rules.policy == JokerPolicy::ReplaceFromRack;  // (replacing copies come from the rack)
  // Where a joker's copy must end (its home, docs/search-semantics.md item 3): a group of its number, any run of its
  // colour through it (it was inside its old run), or one holding the number before (old high end) / after (old low
  // end) it too.
  enum Home : int { kGroupHome = 0, kRunHome = 1, kPrevHome = 2, kNextHome = 3 };
  struct Joker {
    int tile;
    bool retrieved;
    int home;
    uint32_t any = 0;  // a group's joker retrieved as any of these colours (Input::any_group; tile: the first's)
  };
  // A reading of one meld's jokers: the tile each stands for, and whether it stays.
  struct Choice {
    Joker jokers[kMostJokers];
    int size;
  };
  // The readings of one meld with jokers.
  struct Readings {
    Choice options[kMostReadings];
    int size;
  };
  // The melds with jokers, and those whose candidate tiles are of each number.
  const Meld* with_jokers[kMostJokers];
  int melds = 0;
  int touched[kByNumber] = {};
  for (const Meld& m : table) {
    if (m.jokers() == 0) continue;
    assert(melds < kMostJokers);
    with_jokers[melds++] = &m;
    if (m.kind == MeldKind::Run) {
      for (int i = 0; i < m.length; ++i) touched[m.number + i] += (m.joker_slots >> i & 1) != 0 ? 1 : 0;
    } else {
      ++touched[m.number];
    }
  }
  Readings per_meld[kMostJokers];
  for (int w = 0; w < melds; ++w) {
    const Meld& m = *with_jokers[w];
    const int k = m.jokers();
    assert(k <= kMostJokers);
    int tiles[kMaxColours > kMostJokers ? kMaxColours : kMostJokers];  // run: the slots; group: the missing colours'
    int homes[kMaxColours > kMostJokers ? kMaxColours : kMostJokers];  // the home of a joker standing for each
    int nt = 0;
    if (m.kind == MeldKind::Run) {
      for (int i = 0; i < m.length; ++i) {
        if (!(m.joker_slots >> i & 1)) continue;
        tiles[nt] = m.run_slot(i);
        homes[nt++] = i == 0 ? kNextHome : i == m.length - 1 ? kPrevHome : kRunHome;
      }
    } else {
      for (int c = 0; c < rules.p.colours; ++c) {
        if (m.colours >> c & 1) continue;
        tiles[nt] = tile_code(c, m.number);
        homes[nt++] = kGroupHome;
      }
    }
    Readings& options = per_meld[w];
    options.size = 0;
    // Choose which tiles the k jokers stand for (all for a run; a k-subset of missing colours for a group),
    // then stay/retrieve for each. A group's only joker, when no other joker reads a tile of its number, is retrieved
    // as every missing colour at once (Input::any_group): one input, where a reading per colour would make inputs
    // that differ only in which colour's copy the groups of that number must take, each searched in full.
    const bool any_reading = allow_retrieval && m.kind != MeldKind::Run && k == 1 && touched[m.number] == 1 && nt > 1;
    for (uint32_t sub = 0; sub < (1u << nt); ++sub) {
      if (popcount32(sub) != k) continue;
      int chosen[kMostJokers];
      int nchosen = 0;
      for (int i = 0; i < nt; ++i) {
        if (sub >> i & 1) chosen[nchosen++] = i;
      }
      const uint32_t ways = allow_retrieval ? (1u << k) : 1u;
      for (uint32_t rmask = 0; rmask < ways; ++rmask) {
        if (any_reading && rmask != 0 && sub != 1) continue;  // (the first colour's reading stands for them all)
        assert(options.size < kMostReadings);
        Choice& ch = options.options[options.size++];
        ch.size = k;
        for (int i = 0; i < k; ++i) ch.jokers[i] = Joker{tiles[chosen[i]], (rmask >> i & 1) != 0, homes[chosen[i]]};
        if (any_reading && rmask != 0) {
          for (int i = 0; i < nt; ++i) ch.jokers[0].any |= 1u << tile_colour(tiles[i]);
        }
      }
    }
    // A group's staying jokers go to groups of its number, where a reading fails only when such a group holds a
    // numbered tile of the colour read. A reading of colours with no numbered copy at all (on the table or the
    // rack) never fails, so its option holds the plays of every other reading that keeps the jokers: the others
    // are left out. (Only when no other joker reads a tile of this number, which could share the colour.)
    if (m.kind != MeldKind::Run && touched[m.number] == 1) {
      auto all_stay = [](const Choice& ch) {
        return std::none_of(ch.jokers, ch.jokers + ch.size, [](const Joker& j) { return j.retrieved; });
      };
      auto never_fails = [&](const Choice& ch) {
        return all_stay(ch) && std::all_of(ch.jokers, ch.jokers + ch.size, [&](const Joker& j) {
                 const int c = tile_colour(j.tile), n = tile_number(j.tile);
                 return base.table[c][n] + base.rack[c][n] == 0;
               });
      };
      Choice* const begin = options.options;
      Choice* const keep = std::find_if(begin, begin + options.size, never_fails);
      if (keep != begin + options.size) {
        const Choice kept = *keep;
        Choice* const end = std::remove_if(begin, begin + options.size, all_stay);
        std::copy_backward(begin, end, end + 1);
        *begin = kept;  // (where the first reading's was: every choice's first)
        options.size = static_cast<int>(end - begin) + 1;
      }
    }
  }
  // A combination of the melds' readings: each meld's reading index, 5 bits a meld (the first meld's lowest).
  static_assert(kMostReadings <= 32 && 5 * kMostJokers <= 32, "a combination's readings in a word");
  auto reading = [&](uint32_t picks, int i) -> const Choice& { return per_meld[i].options[picks >> (5 * i) & 31]; };
  // Returns whether the rack can give the copies a combination's retrieved jokers need (their fewest on the rack
  // go to rack_min when `in` is given); counts the retrieved jokers.
  auto playable = [&](uint32_t picks, int& retrieved, Input* in) {
    int need[kCodes] = {0};
    int needed[kCodes];  // the tiles with a need, in the order met
    int nneeded = 0;
    retrieved = 0;
    for (int i = 0; i < melds; ++i) {
      const Choice& ch = reading(picks, i);
      for (int k = 0; k < ch.size; ++k) {
        const Joker& j = ch.jokers[k];
        if (!j.retrieved) continue;
        ++retrieved;
        if (j.any != 0) {  // (a copy of one of its colours, on the rack or, but under replace_from_rack, the table)
          const int n = tile_number(j.tile);
          bool some = false;
          for (int c = 0; c < rules.p.colours; ++c) {
            if ((j.any >> c & 1) == 0) continue;
            some |= base.rack[c][n] + (rack_only ? 0 : base.table[c][n]) > 0;
          }
          if (!some) return false;
          continue;
        }
        if (need[j.tile]++ == 0) needed[nneeded++] = j.tile;
      }
    }
    for (int k = 0; k < nneeded; ++k) {
      const int t = needed[k];
      const int c = tile_colour(t), n = tile_number(t);
      const int from_rack = rack_only ? need[t] : std::max(0, need[t] - base.table[c][n]);
      if (from_rack > base.rack[c][n]) return false;
      if (in != nullptr) in->rack_min[c][n] = static_cast<uint8_t>(std::max<int>(in->rack_min[c][n], from_rack));
    }
    return true;
  };
  // The combinations the rack can play, in the order the programme runs take them: keeping every joker is the
  // cheapest run and gives the others a floor; then the fewest retrieved jokers first (each freed joker multiplies a
  // run's states, and in the pass that finds the best key the runs after the one that finds it need only beat it, so
  // the costliest come last); else as listed.
  struct Combination {
    uint32_t picks;
    int retrieved;
  };
  std::vector<Combination> combinations;
  for (uint32_t picks = 0;;) {
    int retrieved;
    if (playable(picks, retrieved, nullptr)) combinations.push_back(Combination{picks, retrieved});
    int i = 0;
    for (; i < melds; ++i) {
      const uint32_t next = (picks >> (5 * i) & 31) + 1;
      picks &= ~(uint32_t{31} << (5 * i));
      if (static_cast<int>(next) < per_meld[i].size) {
        picks |= next << (5 * i);
        break;
      }
    }
    if (i == melds) break;
  }
  std::stable_sort(combinations.begin(), combinations.end(), [](const Combination& a, const Combination& b) {
    const int x = a.retrieved, y = b.retrieved;
    return x < y;
  });
  // Each built in place at the end of `out`, and dropped again when it is listed already (different readings can
  // coincide; equal inputs retrieve as many jokers, so the order above keeps the first of them).
  const size_t first = out.size();
  out.reserve(first + combinations.size());  // (an input is a few kilobytes: no copies as the list grows)
  for (const Combination& combination : combinations) {
    out.push_back(base);
    Input& in = out.back();
    for (int i = 0; i < melds; ++i) {
      const Choice& ch = reading(combination.picks, i);
      for (int k = 0; k < ch.size; ++k) {
        const Joker& j = ch.jokers[k];
        const int c = tile_colour(j.tile), n = tile_number(j.tile);
        if (j.any != 0) {
          in.any_group[n] = static_cast<uint8_t>(j.any);
          in.any_rack_only = rack_only;
          continue;
        }
        Demand& d = in.demand[c][n];
        d.active = 1;
        in.demands = true;
        if (j.retrieved) {
          ++(j.home == kGroupHome ? d.real_group : d.real_run);
          if (j.home == kPrevHome) ++d.real_prev;
          if (j.home == kNextHome) ++d.real_next;
          d.rack_only = rack_only ? 1 : 0;
        } else {
          ++in.staying[c][n];
          if (j.home == kGroupHome) ++d.stay_group;
          if (j.home == kPrevHome) ++d.stay_prev;
          if (j.home == kNextHome) ++d.stay_next;
        }
      }
    }
    int retrieved;
    playable(combination.picks, retrieved, &in);
    in.table_jokers = retrieved;
    in.mode.retrieval_rule = retrieved > 0;
    in.mode.rack_needed = rack_only ? 2 : 1;
    finish_mode(in);
    // Skip inputs equal to one already listed: they differ from `base` only in their staying jokers, forced rack
    // tiles, demands and free table jokers, compared bytewise.
    auto same = [&](const Input& o) {
      return o.table_jokers == in.table_jokers && std::memcmp(o.staying, in.staying, sizeof in.staying) == 0 &&
             std::memcmp(o.rack_min, in.rack_min, sizeof in.rack_min) == 0 &&
             std::memcmp(o.demand, in.demand, sizeof in.demand) == 0 &&
             std::memcmp(o.any_group, in.any_group, sizeof in.any_group) == 0;
    };
    if (std::any_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end() - 1, same)) out.pop_back();
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
                                   bool& table_untouched, SearchScratch& scratch, SearchStats* stats,
                                   bool mirrored) {
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
  set_weights(base, obj, rules.joker_penalty, mirrored);
  if (usage) set_usage(base, rack);
  std::vector<Input> joker_options;
  // (A table without jokers has one option under every policy: the base, no joker retrieved.)
  if (rules.policy == JokerPolicy::Free || table_tiles.jokers == 0) {
    base.table_jokers = table_tiles.jokers;
    finish_mode(base);
    joker_options.push_back(base);
  } else {
    joker_inputs(table, base, rules, !opening, joker_options);
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
