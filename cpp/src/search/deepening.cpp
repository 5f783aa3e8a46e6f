// Deepening: solve() and solve_tiles(). Every programme input of a position is searched with a floor just under the
// best score it could reach, then lower floors until a legal end appears; the inputs deepen together, each keeping
// its programme from pass to pass. A position whose rack lies high is searched mirrored, from the top number down.
#include <algorithm>
#include <memory>
#include <optional>

#include "../bits.h"
#include "jokers.h"
#include "opening.h"
#include "rebuild.h"

namespace rummikub::search {
namespace {

// Runs every input and keeps the best final node (the first one on ties: deterministic). Each input
// runs with a floor just under its bound first, then lower floors until a legal end appears: any end
// found above the floor is optimal, because only nodes that could not reach the floor were dropped.
bool best_of(std::vector<Input>& inputs, const std::vector<Meld>& table, bool untouched, PlayResult& out,
             SearchScratch& scratch, SearchStats* stats, size_t node_limit) {
  if (untouched && inputs.size() == 1) {
    const int direct = opening_search(inputs[0], table, out, scratch, stats);
    if (direct >= 0) return direct == 1;
    prepare(inputs[0]);  // (position_inputs left it unprepared: the direct search reads no bound)
  }
  // The inputs deepen together: each pass lowers every open input's floor, so no input is searched at a floor
  // looser than the best play found so far needs. An input is closed once it gave its best play, or once it
  // was searched down to the floor that would beat the best play. Each open input keeps its programme from
  // pass to pass, and a pass expands only what its lower floor adds; so the floor goes down by one unit (a tile
  // of the tiles objective, a point of value otherwise) down to six units under the bound, then its distance to
  // the bound grows by half at each pass (most positions end one to four tiles under the bound).
  bool found = false;
  // Per input: closed, what it can still reach (see Programme::bound_left), where its waiting rule search starts.
  struct Open {
    bool closed = false;
    int64_t bound = 0, rule_from = INT64_MIN;
  };
  std::vector<Open> state(inputs.size());
  std::vector<std::unique_ptr<Programme>> progs(inputs.size());
  // With two free jokers or more, where the jokers go multiplies the states: passes under one unit come first
  // (4, 16, 64, 256), whose floors then cut the placements that lose value (the key's tie-break) before every
  // tile counts. With three or more (the 160-tile set), the same steps follow each of the first four units too.
  int most = 0;
  for (const Input& in : inputs) most = std::max(most, in.rack_jokers + in.table_jokers);
  int64_t units = most >= 2 ? 0 : kUnit;  // the whole units of the current delta
  auto next = [&](int64_t delta) {
    const int64_t sub = delta - units;
    if ((units == 0 ? most >= 2 : most >= 3) && units < 4 * kUnit && sub * 4 < 1024) {
      return units + (sub == 0 ? 4 : sub * 4);
    }
    units = units < 6 * kUnit ? units + kUnit : units * 3 / 2;
    return units;
  };
  // An input under the retrieval rule is searched without the rule first (its runs then carry no counts, and
  // the states merge far more): that relaxation's best key bounds the input's. When one of its best plays
  // also meets the rule, that play is the input's best; otherwise the input is searched again with the rule.
  std::vector<Input> relaxations;
  relaxations.reserve(inputs.size());  // (programmes refer to them: never reallocated)
  std::vector<const Input*> searched(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    searched[i] = &inputs[i];
    if (!inputs[i].mode.retrieval_rule) continue;
    relaxations.push_back(inputs[i]);
    relaxations.back().mode.retrieval_rule = false;
    finish_mode(relaxations.back());
    searched[i] = &relaxations.back();
  }
  // One floor for every input at each pass, under the highest bound: an input whose own bound is under it waits
  // (a floor relative to each input's bound would search an input with a tight bound deeper than the others).
  int64_t top_bound = INT64_MIN;
  std::vector<size_t> order;
  for (const Input& in : inputs) top_bound = std::max(top_bound, root_bound(in));
  for (int64_t delta = most >= 2 ? 4 : kUnit;; delta = next(delta)) {
    bool open = false;
    // The open inputs, each with what it can still reach (an input searched already, no more than what its last run
    // left below its floor).
    order.clear();
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (state[i].closed) continue;
      state[i].bound = progs[i] != nullptr ? progs[i]->bound_left() : root_bound(inputs[i]);
      order.push_back(i);
    }
    // The highest bounds first (an input that can still reach more is likelier to find the pass's best key, and the
    // inputs after the one that finds it need only beat it), else in the inputs' order.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return state[a].bound > state[b].bound; });
    // Searches input i at this pass; returns true while it stays open. `waits` is set when the relaxation's best
    // plays all break the rule: the rule's search is then to start from the relaxation's key (rule_from), later.
    bool waits = false;
    auto visit = [&](size_t i) -> bool {
      const int64_t lo = found ? out.key + 1 : 1;
      const int64_t ub = state[i].bound;
      if (ub < lo) {
        state[i].closed = true;
        progs[i].reset();
        return false;
      }
      const int64_t floor = std::max(lo, top_bound - delta);
      if (ub < floor) return true;
      size_t best = 0;
      bool any = false;
      std::optional<PlayResult> checked;  // the relaxation's best play that meets the rule, once rebuilt
      // The floor of this run: the pass's, or first the relaxation's key when the rule's search takes over.
      for (int64_t at = std::max(floor, state[i].rule_from);;) {
        state[i].rule_from = INT64_MIN;
        if (progs[i] == nullptr) {
          progs[i] = std::make_unique<Programme>(*searched[i], scratch, stats, at, node_limit);
        } else {
          progs[i]->set_floor(at);
        }
        Programme& prog = *progs[i];
        prog.run();
        if (prog.exceeded()) {
          if (stats != nullptr) stats->limited = 1;
          return false;
        }
        any = false;
        for (size_t f : prog.finals()) {
          if (prog.final_node(f).score < at) continue;
          if (!any || prog.final_node(f).score > prog.final_node(best).score) best = f;
          any = true;
        }
        if (searched[i] == &inputs[i] && !any && at > floor) {
          at = floor;  // (the rule's search found nothing at the relaxation's key: on down to the pass's floor)
          continue;
        }
        if (!any || searched[i] == &inputs[i]) break;
        // The relaxation's best: the first of its best ends whose play meets the rule, else the rule's own search,
        // from the relaxation's key (which bounds it) down to this pass's floor.
        const int64_t top = prog.final_node(best).score;
        any = false;
        for (size_t f : prog.finals()) {
          if (prog.final_node(f).score != top) continue;
          int uncovered = 0;
          PlayResult play = make_result(prog, f, table, untouched, &inputs[i].mode, &uncovered);
          if (uncovered > play.played.jokers) continue;  // (the uncovered jokers must be P's: see extend_run)
          checked = std::move(play);
          any = true;
          break;
        }
        if (any) break;
        searched[i] = &inputs[i];
        progs[i].reset();
        state[i].rule_from = state[i].bound = top;
        waits = true;
        return true;
      }
      if (any) {
        out = checked ? std::move(*checked) : make_result(*progs[i], best, table, untouched);
        found = true;
      }
      state[i].closed = any || floor == lo;
      if (state[i].closed) progs[i].reset();
      return !state[i].closed;
    };
    for (size_t k = 0; k < order.size(); ++k) {
      waits = false;
      open |= visit(order[k]);
      if (!waits) continue;
      // A waiting rule search runs after the inputs left whose bound reaches the relaxation's key (a key of theirs
      // that high makes it needless), before the others (its key then floors them), still at this pass.
      size_t at = k + 1;
      while (at < order.size() && state[order[at]].bound >= state[order[k]].bound) ++at;
      order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), order[k]);
    }
    if (!open) return found;
  }
}

// Returns true when a position is searched mirrored, its numbers read from the top down (N + 1 - n for n). Nodes
// are dropped by what the rack tiles after them can still add, so the arrangements of the table that a sweep builds
// before it meets the rack's tiles are all kept; a table joker is met there too (a joker option that retrieves it
// forces its replacing tile onto the table at its number, and frees a joker). So the sweep goes down from N when
// the rack's tiles and the table's jokers lie above the table's numbered tiles (lies_high), else up from 1. Only a
// position without rack jokers (whose value the contract counts at the highest numbers a free joker stands for,
// which the sweep finds by placing jokers in rising numbers; a free table joker scores nothing, wherever it stands)
// and without an opening to reach (whose value the sweep sums as it goes).
bool sweep_down(const std::vector<Meld>& table, const TileSet& table_tiles, const TileSet& rack,
                const SearchRules& rules, bool opened) {
  if (rack.jokers > 0 || (!opened && rules.opening_threshold > 0)) return false;
  int64_t met[kByNumber] = {}, tabled[kByNumber] = {};  // the rack's tiles and the table's jokers; its tiles
  add_by_number(met, rack, rules.p);
  add_by_number(tabled, table_tiles, rules.p);
  for (const Meld& m : table) {  // (a table known only as its tiles: no joker's number is known)
    if (m.kind == MeldKind::Group) {
      met[m.number] += m.length - popcount32(m.colours);
      continue;
    }
    for (uint32_t slots = m.joker_slots; slots != 0; slots &= slots - 1) ++met[m.number + __builtin_ctz(slots)];
  }
  return lies_high(met, tabled, rules.p.numbers);
}

// Finds the best play of a position (its table's melds, none when only its tiles are known), searched as it is or
// mirrored (sweep_down): a run is a run and a group a group under n -> N + 1 - n (a joker's home too, its old run's
// ends swapped), and each tile weighs what it weighs in the position, so the mirror's best plays are the position's
// best plays, mirrored.
bool search_position(const std::vector<Meld>& table, const TileSet& table_tiles, const TileSet& rack,
                     const SearchRules& rules, bool opened, Objective objective, PlayResult& out,
                     SearchScratch& scratch, SearchStats* stats, size_t node_limit) {
  bool untouched = false;
  if (!sweep_down(table, table_tiles, rack, rules, opened)) {
    std::vector<Input> inputs =
        position_inputs(table, table_tiles, rack, rules, opened, false, objective, untouched, scratch, stats);
    return best_of(inputs, table, untouched, out, scratch, stats, node_limit);
  }
  const int N = rules.p.numbers;
  std::vector<Meld> down;
  down.reserve(table.size());
  for (const Meld& m : table) down.push_back(mirrored(m, N));
  std::vector<Input> inputs = position_inputs(down, mirrored(table_tiles, N), mirrored(rack, N), rules, opened, false,
                                              objective, untouched, scratch, stats, true);
  if (!best_of(inputs, down, untouched, out, scratch, stats, node_limit)) return false;
  for (Meld& m : out.table) m = mirrored(m, N);
  // The melds in the order a sweep up from 1 closes them (make_result): a group at its number's group step, after
  // its colour steps; a run at the step of its colour at the number after its end, or after the last step.
  const int C = rules.p.colours;
  auto closed_at = [&](const Meld& m) {
    return m.kind == MeldKind::Group ? m.number * (C + 1) + C : (m.number + m.length) * (C + 1) + m.colour;
  };
  std::stable_sort(out.table.begin(), out.table.end(),
                   [&](const Meld& a, const Meld& b) { return closed_at(a) < closed_at(b); });
  out.played = mirrored(out.played, N);
  out.value = out.played.value(0);  // (P holds no joker)
  return true;
}

}  // namespace
}  // namespace rummikub::search

namespace rummikub {

using search::position_ok;
using search::search_position;

// Finds the best legal play of a position (search.h).
bool solve(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
           Objective objective, PlayResult& out, SearchStats* stats, size_t node_limit) {
  TileSet table_tiles;
  search::SearchScratch& scratch = search::thread_scratch();
  scratch.trim();
  if (!position_ok(table, rack, rules, table_tiles)) return false;
  return search_position(table, table_tiles, rack, rules, opened, objective, out, scratch, stats, node_limit);
}

// Finds the best play when the table is known only as a multiset (search.h).
bool solve_tiles(const TileSet& table_tiles, const TileSet& rack, const SearchRules& rules, bool opened,
                 Objective objective, PlayResult& out, SearchStats* stats, size_t node_limit) {
  search::SearchScratch& scratch = search::thread_scratch();
  scratch.trim();
  if (!search_supported(rules.p) || !fits_rules(table_tiles, rules.p) || !fits_rules(rack, rules.p) ||
      !sum_fits(table_tiles, rack) || !fits_rules(sum(table_tiles, rack), rules.p)) {
    return false;
  }
  SearchRules free_rules = rules;
  free_rules.policy = JokerPolicy::Free;
  return search_position({}, table_tiles, rack, free_rules, opened, objective, out, scratch, stats, node_limit);
}

}  // namespace rummikub
