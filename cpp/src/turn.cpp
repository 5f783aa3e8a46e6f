// The quick legality check of a committed turn (see turn.h). It mirrors, step for step, what the exhaustive
// check of python/rummikub/legality.py decides for the turns it answers, so that the two never disagree: the
// tests compare them on bots' turns, on refused variants of them and on random turns under every rule set.
#include "rummikub/turn.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

namespace rummikub {
namespace {

// Is `m` a home of a joker standing for (colour, number), given that m holds that tile's place? The same kind
// of set and a former set-mate's place: for the joker of a run [low, high], a run of its colour that also holds
// the number before it (when low < number) or after it (when number < high); for a group's joker, any group of
// its number. (The group rule of docs/rules.md §8 says "holding a colour the old group held besides the
// joker's": with at most 4 colours, every group of that number holding the tile does.)
bool is_home(const Meld& m, int colour, int number, bool run, int low, int high) {
  if (run) {
    const int first = m.number, last = m.number + m.length - 1;
    return m.kind == MeldKind::Run && m.colour == colour && first <= number && number <= last &&
           ((low < number && first < number) || (number < high && number < last));
  }
  return m.kind == MeldKind::Group && m.number == number;
}

// Can a joker of `m` stand for (colour, number)? A run's joker in that tile's slot; a group's joker in a group
// of that number without that colour. (Whether m holds a joker at all is the caller's test.)
bool stands_for(const Meld& m, int colour, int number) {
  if (m.kind == MeldKind::Group) return m.number == number && ((m.colours >> colour) & 1u) == 0;
  return m.colour == colour && m.number <= number && number < m.number + m.length &&
         ((m.joker_slots >> (number - m.number)) & 1u) != 0;
}

// The real tiles of a meld, in the order the greedy count of rack tiles reads them (slot order for a run,
// colours in order for a group: ascending codes either way).
template <typename F>
void for_each_real(const Meld& m, const F& f) {
  if (m.kind == MeldKind::Run) {
    for (int k = 0; k < m.length; ++k) {
      if (((m.joker_slots >> k) & 1u) == 0) f(tile_code(m.colour, m.number + k));
    }
    return;
  }
  for (int c = 0; c < kMaxColours; ++c) {
    if ((m.colours >> c) & 1u) f(tile_code(c, m.number));
  }
}

// The witness keeps its state in fixed arrays (no allocation: it runs on most turns that touch a joker's set).
// A rule set has at most kMaxJokers jokers, so a real table never comes near these bounds; a table past them
// gets "cannot tell", which is always a safe answer.
constexpr int kMaxOldJokers = 16;   // jokers of `before`, each seated or replaced once
constexpr int kMaxJokerSets = 16;   // sets of `after` holding jokers

struct Place {  // (set of `after`, tile code)
  int set = 0;
  int code = 0;
};

template <size_t N>
struct Places {
  std::array<Place, N> at{};
  int size = 0;
  bool has(int set, int code) const {
    for (int k = 0; k < size; ++k) {
      if (at[static_cast<size_t>(k)].set == set && at[static_cast<size_t>(k)].code == code) return true;
    }
    return false;
  }
  void add(int set, int code) { at[static_cast<size_t>(size++)] = Place{set, code}; }
};

struct JokerSet {  // a set of `after` holding jokers
  int set = 0;
  int jokers = 0;  // its jokers
  int seated = 0;  // the old jokers seated on its joker places
};

// The state of the greedy witness: which joker places of `after` are taken by staying jokers, which real
// tiles replace taken jokers, and the rack's real copies not yet counted.
struct Witness {
  const std::vector<Meld>& after;
  bool opening = false;
  bool sabra = false;  // ReplaceFromRack: the replacing tile comes from the rack, and a freed joker's set needs 2
  std::array<JokerSet, kMaxJokerSets> joker_sets{};  // in the order of `after`
  int joker_set_count = 0;
  Places<kMaxOldJokers> seats;     // (set, tile) of each seated joker: one joker stands for one tile
  Places<kMaxOldJokers> replaced;  // (set, tile) of the real tiles that replace taken jokers
  TileSet budget;  // the rack's real copies not yet counted

  explicit Witness(const std::vector<Meld>& a) : after(a) {}

  // The old joker stays: the first joker place of a home that can stand for its tile and is free.
  bool stay(int code, int colour, int number, int low, int high, bool run) {
    for (int k = 0; k < joker_set_count; ++k) {
      JokerSet& js = joker_sets[static_cast<size_t>(k)];
      const Meld& m = after[static_cast<size_t>(js.set)];
      if (!seats.has(js.set, code) && stands_for(m, colour, number) && is_home(m, colour, number, run, low, high) &&
          (run || js.seated < js.jokers)) {
        seats.add(js.set, code);
        ++js.seated;
        return true;
      }
    }
    return false;
  }

  // The old joker is taken: the first real copy of its tile in a home not yet replacing another joker (under
  // ReplaceFromRack a copy the rack still has). Never on an opening turn.
  bool replace(int code, int colour, int number, int low, int high, bool run) {
    if (opening || (sabra && budget.count(code) == 0)) return false;
    for (size_t i = 0; i < after.size(); ++i) {
      const Meld& m = after[i];
      const int set = static_cast<int>(i);
      // a home holding the tile's place, and not as a joker: it holds the real tile
      if (!replaced.has(set, code) && is_home(m, colour, number, run, low, high) && !stands_for(m, colour, number)) {
        replaced.add(set, code);
        if (sabra) budget.remove(code);
        return true;
      }
    }
    return false;
  }
};

// The joker sets with open places (joker places no staying joker took), and how many freed jokers each gets.
struct Split {
  std::array<int, kMaxJokerSets> sets{};  // indices into Witness::joker_sets
  std::array<int, kMaxJokerSets> open{};  // open places
  std::array<int, kMaxJokerSets> freed{};
  int size = 0;
};

// Can the freed jokers go as `split` says, each of their sets then holding r rack tiles? The joker places left
// open count (the rack's jokers), and so do (ReplaceFromRack) the taken jokers' replacing tiles in that set;
// real tiles count when the rack still has a copy, each copy once, first fit.
bool split_fits(const Witness& w, const Split& split, int r) {
  TileSet left = w.budget;
  for (int k = 0; k < split.size; ++k) {
    const int f = split.freed[static_cast<size_t>(k)];
    if (f == 0) continue;
    const int i = w.joker_sets[static_cast<size_t>(split.sets[static_cast<size_t>(k)])].set;
    int have = split.open[static_cast<size_t>(k)] - f;
    if (w.sabra) {
      for (int p = 0; p < w.replaced.size; ++p) have += w.replaced.at[static_cast<size_t>(p)].set == i;
    }
    for_each_real(w.after[static_cast<size_t>(i)], [&](int code) {
      if (have >= r) return;
      if (left.count(code) > 0 && (!w.sabra || !w.replaced.has(i, code))) {
        left.remove(code);
        ++have;
      }
    });
    if (have < r) return false;
  }
  return true;
}

// Is there a way to put `freed` jokers on the open places (split.open[k] at most in the k-th open set) that
// split_fits accepts? Every split is tried (at most 4 jokers on at most 4 sets under the search's rules).
bool some_split_fits(const Witness& w, Split& split, int k, int freed, int r) {
  if (k == split.size) return freed == 0 && split_fits(w, split, r);
  for (int f = 0; f <= std::min(split.open[static_cast<size_t>(k)], freed); ++f) {
    split.freed[static_cast<size_t>(k)] = f;
    if (some_split_fits(w, split, k + 1, freed - f, r)) return true;
  }
  split.freed[static_cast<size_t>(k)] = 0;
  return false;
}

}  // namespace

bool jokers_witness(const std::vector<Meld>& before, const std::vector<Meld>& after, const TileSet& played,
                    const SearchRules& rules, bool opening) {
  Witness w(after);
  w.opening = opening;
  w.sabra = rules.policy == JokerPolicy::ReplaceFromRack;
  int old_jokers = 0;
  for (const Meld& m : before) old_jokers += m.jokers();
  if (old_jokers > kMaxOldJokers) return false;
  for (size_t i = 0; i < after.size(); ++i) {
    const int jokers = after[i].jokers();
    if (jokers == 0) continue;
    if (w.joker_set_count == kMaxJokerSets) return false;
    w.joker_sets[static_cast<size_t>(w.joker_set_count++)] = JokerSet{static_cast<int>(i), jokers, 0};
  }
  if (w.joker_set_count == 0) return false;  // the old jokers are still on the table, in no set: not a reading
  w.budget = played;  // (only real tiles' counts are read)

  for (const Meld& m : before) {
    if (m.kind == MeldKind::Run) {
      const int first = m.number, last = m.number + m.length - 1;
      for (int k = 0; k < m.length; ++k) {
        if (((m.joker_slots >> k) & 1u) == 0) continue;
        const int n = first + k, code = tile_code(m.colour, n);
        if (!(w.stay(code, m.colour, n, first, last, true) || w.replace(code, m.colour, n, first, last, true))) {
          return false;
        }
      }
      continue;
    }
    const int k_jokers = m.jokers();
    if (k_jokers == 0) continue;
    // this group's reading: its jokers stand for distinct missing colours, each the first that fits
    std::array<bool, kMaxColours> missing{};
    for (int c = 0; c < rules.p.colours && c < kMaxColours; ++c) {
      missing[static_cast<size_t>(c)] = ((m.colours >> c) & 1u) == 0;
    }
    for (int j = 0; j < k_jokers; ++j) {
      int chosen = -1;
      for (int c = 0; c < kMaxColours && chosen < 0; ++c) {
        if (missing[static_cast<size_t>(c)] && w.stay(tile_code(c, m.number), c, m.number, 0, 0, false)) chosen = c;
      }
      for (int c = 0; c < kMaxColours && chosen < 0; ++c) {
        if (missing[static_cast<size_t>(c)] && w.replace(tile_code(c, m.number), c, m.number, 0, 0, false)) chosen = c;
      }
      if (chosen < 0) return false;
      missing[static_cast<size_t>(chosen)] = false;
    }
  }
  if (w.replaced.size == 0) return true;  // every old joker stays

  // the freed jokers: on the joker places left open, each of their sets holding r rack tiles
  Split split;
  for (int k = 0; k < w.joker_set_count; ++k) {
    const JokerSet& js = w.joker_sets[static_cast<size_t>(k)];
    if (js.jokers > js.seated) {
      split.sets[static_cast<size_t>(split.size)] = k;
      split.open[static_cast<size_t>(split.size++)] = js.jokers - js.seated;
    }
  }
  return some_split_fits(w, split, 0, w.replaced.size, w.sabra ? 2 : 1);
}

bool fast_turn(const std::vector<Meld>& before, const TileSet& rack, const std::vector<Meld>& after,
               const SearchRules& rules, bool opened, TileSet& played) {
  const bool opening = !opened && rules.opening_threshold > 0;
  if (opening && rules.extend_after_opening) return false;  // the opening's own tiles need a search
  for (const Meld& m : after) {
    if (check_meld(m, rules.p) != MeldError::Ok) return false;
  }
  // The sets each table holds and the other lacks, counted with repeats: sort both by code and merge. The
  // sets both hold cancel out, so the tiles added and lost are those of these sets alone.
  std::vector<std::pair<int64_t, int>> old_codes, new_codes;
  old_codes.reserve(before.size());
  new_codes.reserve(after.size());
  for (size_t i = 0; i < before.size(); ++i) old_codes.emplace_back(meld_code(before[i]), static_cast<int>(i));
  for (size_t i = 0; i < after.size(); ++i) new_codes.emplace_back(meld_code(after[i]), static_cast<int>(i));
  std::sort(old_codes.begin(), old_codes.end());
  std::sort(new_codes.begin(), new_codes.end());
  std::vector<int> gone, added;
  size_t a = 0, b = 0;
  while (a < old_codes.size() || b < new_codes.size()) {
    if (b == new_codes.size() || (a < old_codes.size() && old_codes[a].first < new_codes[b].first)) {
      gone.push_back(old_codes[a++].second);
    } else if (a == old_codes.size() || new_codes[b].first < old_codes[a].first) {
      added.push_back(new_codes[b++].second);
    } else {
      ++a;
      ++b;
    }
  }
  if (opening && !gone.empty()) return false;  // an opening may not touch the table

  TileSet lost, gained;
  bool old_jokers = false;
  for (int i : gone) {
    const Meld& m = before[static_cast<size_t>(i)];
    const TileSet t = m.tiles();
    if (!sum_fits(lost, t)) return false;  // more copies than a TileSet holds: not a table of a real game
    lost = sum(lost, t);
    old_jokers = old_jokers || t.jokers != 0;
  }
  for (int i : added) {
    const TileSet t = after[static_cast<size_t>(i)].tiles();
    if (!sum_fits(gained, t)) return false;
    gained = sum(gained, t);
  }
  if (!contains(gained, lost)) return false;  // a table tile left the table
  played = difference(gained, lost);
  if (played.empty() || !contains(rack, played)) return false;
  if (opening) {
    if (played.jokers != 0 && !rules.joker_in_opening) return false;
    int total = 0;  // each new set as the table shows it: a joker counts as the tile its place stands for
    for (int i : added) total += after[static_cast<size_t>(i)].value();
    return total >= rules.opening_threshold;
  }
  if (rules.policy != JokerPolicy::Free && old_jokers) {
    // a joker may stay in, or be replaced from, a set that did not change: the witness reads the whole tables
    int jokers = 0;
    for (const Meld& m : after) jokers += m.jokers();
    if (jokers > rules.p.jokers || !jokers_witness(before, after, played, rules, false)) return false;
  }
  return true;
}

}  // namespace rummikub
