// Joker options: the programme inputs of a position, one per way its table jokers can stay or be retrieved
// (times the opening subsets on an opening that extends the table).
#pragma once

#include <vector>

#include "position.h"
#include "transitions.h"

namespace rummikub::search {

struct SearchScratch;

// Appends to `out` each way the table's jokers can stay or be retrieved (docs/search-semantics.md, item 3), as
// programme inputs built on `base` (without retrieval, each joker's readings alone), in the order the programme runs
// take them (docs/search.md, Jokers).
void joker_inputs(const std::vector<Meld>& table, const Input& base, const SearchRules& rules, bool allow_retrieval,
                  std::vector<Input>& out);

// Returns every distinct next state of a colour's runs through the slots of a number whose copies have a sided
// demand `d` (Demand::sided), as make_transitions does, keeping only the ways that put the demanded copies where
// their homes need them. Actions 5-7 continue a run with slot 0-2 and pin it (pin_run); see jokers.cpp.
std::vector<Transition> home_transitions(uint64_t state, const int slots[kSlots], const Mode& m, int how,
                                         const Demand& d);

// Returns the inputs of every programme run a position needs, prepared; sets `table_untouched` on an opening that
// leaves the table as it is (whose one input is prepared only with `usage`: opening_search needs no bounds, and a
// programme run of it must prepare it first). `mirrored`: table and rack are a position's with every number n read
// as N + 1 - n, weighed as the position's (set_weights).
std::vector<Input> position_inputs(const std::vector<Meld>& table, const TileSet& table_tiles, const TileSet& rack,
                                   const SearchRules& rules, bool opened, bool usage, Objective obj,
                                   bool& table_untouched, SearchScratch& scratch, SearchStats* stats,
                                   bool mirrored = false);

}  // namespace rummikub::search
