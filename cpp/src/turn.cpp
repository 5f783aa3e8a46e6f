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

using Place = std::pair<int, int>;  // (set of `after`, tile code)

bool has(const std::vector<Place>& places, int set, int code) {
  return std::find(places.begin(), places.end(), Place{set, code}) != places.end();
}

// The state of the greedy witness: which joker places of `after` are taken by staying jokers, which real
// tiles replace taken jokers, and the rack's real copies not yet counted.
struct Witness {
  const std::vector<Meld>& after;
  bool opening;
  bool sabra;  // ReplaceFromRack: the replacing tile comes from the rack, and a freed joker's set needs 2
  std::vector<int> joker_sets;    // the sets of `after` holding jokers, in order
  std::vector<int> jokers;        // per set of `after`: its jokers
  std::vector<int> seated;        // per set of `after`: the old jokers seated on its joker places
  std::vector<Place> seats;       // (set, tile) of each seated joker: one joker stands for one tile
  std::vector<Place> replaced;    // (set, tile) of the real tiles that replace taken jokers
  std::array<int, kCodes> budget{};  // the rack's real copies not yet counted

  // The old joker stays: the first joker place of a home that can stand for its tile and is free.
  bool stay(int code, int colour, int number, int low, int high, bool run) {
    for (int i : joker_sets) {
      const Meld& m = after[static_cast<size_t>(i)];
      if (!has(seats, i, code) && stands_for(m, colour, number) && is_home(m, colour, number, run, low, high) &&
          (run || seated[static_cast<size_t>(i)] < jokers[static_cast<size_t>(i)])) {
        seats.emplace_back(i, code);
        ++seated[static_cast<size_t>(i)];
        return true;
      }
    }
    return false;
  }

  // The old joker is taken: the first real copy of its tile in a home not yet replacing another joker (under
  // ReplaceFromRack a copy the rack still has). Never on an opening turn.
  bool replace(int code, int colour, int number, int low, int high, bool run) {
    if (opening || (sabra && budget[static_cast<size_t>(code)] <= 0)) return false;
    for (size_t i = 0; i < after.size(); ++i) {
      const Meld& m = after[i];
      const int set = static_cast<int>(i);
      // a home holding the tile's place, and not as a joker: it holds the real tile
      if (!has(replaced, set, code) && is_home(m, colour, number, run, low, high) && !stands_for(m, colour, number)) {
        replaced.emplace_back(set, code);
        if (sabra) --budget[static_cast<size_t>(code)];
        return true;
      }
    }
    return false;
  }
};

// Can the freed jokers go `split[k]` to the open set `open_sets[k]`, each of those sets then holding r rack
// tiles? The joker places left open count (the rack's jokers), and so do (ReplaceFromRack) the taken jokers'
// replacing tiles in that set; real tiles count when the rack still has a copy, each copy once, first fit.
bool split_fits(const Witness& w, const std::vector<int>& open_sets, const std::vector<int>& open,
                const std::vector<int>& split, int r) {
  std::array<int, kCodes> left = w.budget;
  for (size_t k = 0; k < open_sets.size(); ++k) {
    const int f = split[k];
    if (f == 0) continue;
    const int i = open_sets[k];
    int have = open[k] - f;
    if (w.sabra) {
      for (const Place& p : w.replaced) have += p.first == i;
    }
    for_each_real(w.after[static_cast<size_t>(i)], [&](int code) {
      if (have >= r) return;
      int& n = left[static_cast<size_t>(code)];
      if (n > 0 && (!w.sabra || !has(w.replaced, i, code))) {
        --n;
        ++have;
      }
    });
    if (have < r) return false;
  }
  return true;
}

// Is there a way to put `freed` jokers on the open places (open[k] at most in set open_sets[k]) that
// split_fits accepts? Every split is tried (at most 4 jokers on at most 4 sets under the search's rules).
bool some_split_fits(const Witness& w, const std::vector<int>& open_sets, const std::vector<int>& open,
                     std::vector<int>& split, size_t k, int freed, int r) {
  if (k == open_sets.size()) return freed == 0 && split_fits(w, open_sets, open, split, r);
  for (int f = 0; f <= std::min(open[k], freed); ++f) {
    split[k] = f;
    if (some_split_fits(w, open_sets, open, split, k + 1, freed - f, r)) return true;
  }
  split[k] = 0;
  return false;
}

}  // namespace

bool jokers_witness(const std::vector<Meld>& before, const std::vector<Meld>& after, const TileSet& played,
                    const SearchRules& rules, bool opening) {
  Witness w{after, opening, rules.policy == JokerPolicy::ReplaceFromRack, {}, {}, {}, {}, {}, {}};
  w.jokers.resize(after.size());
  w.seated.assign(after.size(), 0);
  for (size_t i = 0; i < after.size(); ++i) {
    w.jokers[i] = after[i].jokers();
    if (w.jokers[i] != 0) w.joker_sets.push_back(static_cast<int>(i));
  }
  if (w.joker_sets.empty()) return false;  // the old jokers are still on the table, in no set: not a reading
  for (int code = 0; code < kCodes; ++code) w.budget[static_cast<size_t>(code)] = played.count(code);

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
  if (w.replaced.empty()) return true;  // every old joker stays

  // the freed jokers: on the joker places left open, each of their sets holding r rack tiles
  const int r = w.sabra ? 2 : 1;
  std::vector<int> open_sets, open;
  for (int i : w.joker_sets) {
    const int left = w.jokers[static_cast<size_t>(i)] - w.seated[static_cast<size_t>(i)];
    if (left > 0) {
      open_sets.push_back(i);
      open.push_back(left);
    }
  }
  std::vector<int> split(open_sets.size(), 0);
  return some_split_fits(w, open_sets, open, split, 0, static_cast<int>(w.replaced.size()), r);
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
