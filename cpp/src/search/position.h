// The position compiled for one programme run (Input): the tiles by colour and number, the jokers, the
// objective's weights, the opening threshold; and its bounds (what the rack tiles after each sweep position can
// still add, where a joker or a group can stand at all), derived once by prepare().
#pragma once

#include <cstdint>
#include <vector>

#include "rummikub/meld.h"
#include "rummikub/search.h"
#include "run_words.h"

namespace rummikub::search {

// Where the copies of one tile that old table jokers demand must end (docs/search-semantics.md, item 3): each staying
// joker (a staying copy) and each retrieved joker's replacing tile (a real copy) must lie in the joker's home: a group
// of its number (the joker came from a group), or a run of its colour through the number, which must also hold the
// number before it (the joker was at the high end of its old run: "prev") or after it (low end: "next").
struct Demand {
  uint8_t active = 0;                                    // any demand at this tile (or a staying copy at all)
  uint8_t stay_group = 0, stay_prev = 0, stay_next = 0;  // staying copies: exactly stay_group go to groups, the rest
                                                         // to runs; of those, so many need prev / next
  uint8_t real_group = 0, real_run = 0;                  // replacing copies needed in groups / in runs
  uint8_t real_prev = 0, real_next = 0;                  // ... of the run ones, so many need prev / next
  uint8_t rack_only = 0;                                 // replacing copies must be rack copies (replace_from_rack)
  // Returns true when the step must pick which run a demanded copy lies in (a side condition).
  bool sided() const { return (stay_prev | stay_next | real_prev | real_next) != 0; }
};
static_assert(sizeof(Demand) == 9, "a demand is its bytes (joker_inputs compares inputs by them)");

// The input of one programme run: a position compiled to counts by colour and number (index 1..numbers).
struct Input {
  Params p;
  Mode mode;
  uint8_t table[kMaxColours][kByNumber] = {};     // table tiles (must be placed)
  uint8_t staying[kMaxColours][kByNumber] = {};   // staying table jokers by the tile they stand for (must)
  uint8_t rack[kMaxColours][kByNumber] = {};      // rack tiles available
  uint8_t rack_min[kMaxColours][kByNumber] = {};  // rack tiles that must be played
  Demand demand[kMaxColours][kByNumber] = {};     // the homes of the staying jokers and replacing tiles
  bool demands = false;                           // does any tile have a demand?
  // A group's table joker retrieved, read as every colour its group lacks at once (joker_inputs): the groups of its
  // number must take a real copy of one of those colours (colours by bit; 0: none), as the reading of each colour
  // demands of its copy. A rack copy, or a table copy too unless any_rack_only (replace_from_rack).
  uint8_t any_group[kByNumber] = {};
  bool any_rack_only = false;
  int table_jokers = 0;                            // free table jokers (must be placed)
  int rack_jokers = 0;                             // rack jokers available
  int rack_jokers_min = 0;                         // rack jokers that must be played
  // The free jokers are alike (Slot): the first table_jokers placed, in the sweep's order, count as the table's and
  // every later one as a rack joker. That is how value(P) counts P's jokers (at the highest numbers any free joker
  // stands for), and the score follows from the count.
  int threshold = 0;                            // opening value to reach (0: none)
  int64_t rack_weight[kByNumber] = {};          // objective weight of a rack tile by number
  int64_t joker_weight[kByNumber] = {};         // objective weight of a rack joker by the number it stands for
  bool usage = false;                           // key states by the rack tiles used (to enumerate plays)
  uint8_t usage_bit[kMaxColours][kByNumber] = {};  // first usage bit of each rack tile
  bool require_play = true;                     // at least one rack tile
  bool table_only = false;                      // arrange(): table tiles and free jokers alone (no rack, no score)
  // Derived by prepare(): slots available per tile, and the most the rack tiles after each sweep position could
  // still add to the score (tiles that fit in no meld at all count nothing).
  uint8_t avail[kMaxColours][kByNumber + 2] = {};
  int64_t tiles_bound[kByNumber * kMaxColours + 1] = {};
  int value_bound[kByNumber * kMaxColours + 1] = {};  // the most opening value the rack tiles after each position add
  int64_t joker_weight_max = 0;                       // the heaviest joker_weight
  bool group_possible[kByNumber] = {};                // could a group form at number n at all?
  bool joker_fits[kMaxColours][kByNumber] = {};       // could a run through (c, n) hold a joker at n?
  uint8_t gaps_after[kMaxColours][kByNumber] = {};    // numbers after n with no tile of colour c at all
  // The free jokers a run of colour c through n needs to reach the next rack tile of its colour (the numbers between
  // with no tile of colour c at all); kNoRackTile when no rack tile of colour c lies after n, or one of those numbers
  // cannot hold a joker (joker_fits). Filled only under the retrieval rule (else 0), whose steps read it.
  uint8_t rack_gap[kMaxColours][kByNumber] = {};
};

// Input::rack_gap when the next rack tile cannot be reached at all.
constexpr uint8_t kNoRackTile = 255;

// The most jokers a position the search takes holds (search_supported), hence on its table and in one meld.
constexpr int kMostJokers = 4;

// One unit of a key's primary part (a tile of the tiles objective, a point otherwise); the secondary fits below.
constexpr int64_t kUnit = int64_t{1} << 20;

// Fills the derived fields of an input (its bounds), dropping rack tiles that fit no meld at all.
void prepare(Input& in);
// Returns an upper bound of the score any legal end can reach (before the sweep starts).
inline int64_t root_bound(const Input& in) { return in.tiles_bound[0] + in.rack_jokers * in.joker_weight_max; }
// Sets the objective's weights of rack tiles and rack jokers (`mirrored`: of a position whose numbers are read
// from the top down, see search_position in deepening.cpp; in.p must be set).
void set_weights(Input& in, Objective obj, int joker_penalty, bool mirrored = false);
// Returns s with every number n read as N + 1 - n (N: the rules' numbers; s holds no number above N).
TileSet mirrored(const TileSet& s, int N);
// Returns m with every number n read as N + 1 - n (a run's slots reversed).
Meld mirrored(const Meld& m, int N);
// Returns true when some tiles (`met`, counts by number) lie above others (`tabled`) in more pairs, one of each,
// than below them (others without a numbered tile count as one at the middle number): where a search that sweeps
// the numbers 1..N is better run from the top down (solve's sweep_down, can_arrange's). A rank test rather than a
// test of means, so that a few tiles far off do not decide it.
bool lies_high(const int64_t (&met)[kByNumber], const int64_t (&tabled)[kByNumber], int N);
// Adds a multiset's numbered tiles to counts by number.
void add_by_number(int64_t (&dst)[kByNumber], const TileSet& s, const Params& p);
// Adds a multiset's numbered tiles to counts by colour and number.
void add_tiles(uint8_t dst[kMaxColours][kByNumber], const TileSet& s, const Params& p);
// Sets how runs are described (Mode) from the input's jokers and rules.
void finish_mode(Input& in);
// Keys the input's states by the rack tiles used, giving each copy of a rack tile its bit.
void set_usage(Input& in, const TileSet& rack);
// Adds up the table's tiles into `tiles`; returns false when a meld is not valid or the tiles do not fit.
bool table_ok(const std::vector<Meld>& table, const Params& p, TileSet& tiles);
// Returns the input of an opening on its own: new melds from the rack, table untouched, value at least the threshold.
Input opening_input(const TileSet& rack, const SearchRules& rules);
// Returns true when table, rack and rules make a position the search takes, with the table's tiles in table_tiles.
bool position_ok(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, TileSet& table_tiles);

}  // namespace rummikub::search
