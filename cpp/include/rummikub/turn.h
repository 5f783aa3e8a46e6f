// The legality check of a committed turn, for the common case (docs/rules.md §5-§8, docs/search-semantics.md).
//
// A game checks every turn a player commits: the table before, the player's rack, the table after. Most turns
// are plainly legal (new sets added, old sets extended or split, table jokers left where they were), and
// proving that takes a few multiset operations on the two tables plus the validity of the changed sets. These
// functions answer that common case; when they cannot tell (a refusal, or a turn whose joker moves a greedy
// look cannot prove legal), they say so, and the caller runs the exhaustive check, which also words the
// refusal. Whenever they answer, the exhaustive check gives the same played tiles: they never refuse a turn
// and never accept one it refuses.
#pragma once

#include <vector>

#include "rummikub/meld.h"
#include "rummikub/search.h"
#include "rummikub/tiles.h"

namespace rummikub {

// Returns true, with `played` set to the rack tiles the turn places, when the turn before -> after is legal
// for a player holding `rack` (who had opened before it when `opened`), by the quick look; false when it
// cannot tell (`played` is then unspecified). The quick look accepts a turn when every set of `after` is
// valid, the sets of `before` that `after` lacks (counted with repeats) lose no tile, the tiles added are at
// least one and all in the rack, and either
//   * the player had opened (or the rules have no opening threshold), and each table joker of a changed set
//     stays or is taken by the rule (jokers_witness proves it), or the rules let jokers go freely; or
//   * the player opens without extend_after_opening: no set of `before` changed, the new sets are worth the
//     threshold as the table shows them, and hold no joker unless joker_in_opening.
bool fast_turn(const std::vector<Meld>& before, const TileSet& rack, const std::vector<Meld>& after,
               const SearchRules& rules, bool opened, TileSet& played);

// Returns true when a greedy look finds one legal reading of the table jokers of `before` under the joker
// rule of `rules.policy` (Replace or ReplaceFromRack; docs/rules.md §8): each old joker either stays (a
// joker of `after` stands for its tile in one of its homes, on a seat of its own) or, unless `opening`, is
// taken (its own real copy of the tile in one of its homes, and the freed joker on a joker place of `after`
// in a set holding enough rack tiles, the rack's copies counted once). `played` holds the rack tiles placed.
//
// Every choice is first fit, so false says nothing (the exhaustive check decides); true is a proof. A set of
// `after` is a *home* of an old joker standing for t when it holds t's place and a former set-mate's place:
// for the joker of a run [low, high], a run of t's colour also holding the number before t (when low < t's
// number) or after it (when t's number < high); for a group's joker, any group of t's number.
// Cost: O(jokers x sets of `after`), plus the ways to spread the freed jokers over the open joker places.
bool jokers_witness(const std::vector<Meld>& before, const std::vector<Meld>& after, const TileSet& played,
                    const SearchRules& rules, bool opening);

}  // namespace rummikub
