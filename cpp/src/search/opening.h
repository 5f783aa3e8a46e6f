// Openings: the rack subsets an opening that extends the table forces in turn, and the direct search of an
// opening that leaves the table untouched.
#pragma once

#include <cstdint>
#include <vector>

#include "position.h"

namespace rummikub::search {

struct SearchScratch;

// A meld the rack forms, for the opening's branch and bound.
struct OpeningCandidate {
  TileSet tiles;  // the numbered tiles
  int jokers;
  int64_t weight;  // of every slot, jokers at what they stand for
  int value;
  Meld meld;
  int64_t tile_weight = 0;  // of the numbered tiles alone
  int tile_value = 0;
};

// Returns the minimal sub-multisets of the rack whose melds alone reach the opening threshold, smallest first.
std::vector<TileSet> opening_subsets(const TileSet& rack, const SearchRules& rules, SearchScratch& scratch,
                                     SearchStats* stats);

// Searches an untouched-table opening directly: 1 with the best play in `out`, 0 when there is none, -1 when the
// rack forms too many melds for this to pay (the programme decides then).
int opening_search(const Input& in, const std::vector<Meld>& table, PlayResult& out, SearchScratch& scratch,
                   SearchStats* stats);

}  // namespace rummikub::search
