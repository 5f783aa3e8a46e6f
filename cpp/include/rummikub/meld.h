// Melds (sets): groups and runs, with jokers in their slots.
//
// A run is (colour, start, length) plus a bit mask of the slots held by jokers: slot i stands for the
// tile (colour, start + i). A group is (number, colour mask of its numbered tiles, length); each joker in
// a group stands for "one of the missing colours" of that number.
#pragma once

#include <cstdint>

#include "rummikub/tiles.h"

namespace rummikub {

enum class MeldKind : uint8_t { Run = 0, Group = 1 };

// Why a sequence of tiles is not a meld (Ok when it is one).
enum class MeldError : uint8_t {
  Ok = 0,
  BadTile,          // a code outside the rule set
  TooShort,         // fewer tiles than the minimum set length
  TooLong,          // a group with more tiles than colours, or a run longer than the numbers
  NoNumberedTile,   // jokers only
  DuplicateColour,  // a group with two tiles of one colour
  RepeatedNumber,   // a run with one number twice
  Gap,              // a run whose numbers are not consecutive (and jokers cannot fill the gaps)
  Wrap,             // a run that would go past the top number back to 1
  OutOfRange,       // a run whose jokers would stand below 1 or above the top number
  Mixed,            // neither one number nor one colour
  Count
};

// Returns the fewest tiles a group may hold: 3, or the minimum set length when that is longer.
inline int group_min(const Params& p) { return p.min_len > 3 ? p.min_len : 3; }

// Returns a short English description of the error.
const char* meld_error_text(MeldError e);

struct Meld {
  MeldKind kind = MeldKind::Run;
  int colour = 0;        // run: its colour (group: unused, 0)
  int number = 0;        // run: its first number; group: its number
  int length = 0;        // tiles in the meld, jokers included
  uint32_t joker_slots = 0;  // run: bit i set when slot i is a joker (group: unused, 0)
  uint32_t colours = 0;      // group: bit c set when the group holds a numbered tile of colour c

  // Returns the number of jokers in the meld.
  int jokers() const;
  // Returns the meld's value: every slot counts the number it stands for.
  int value() const;
  // Returns the tiles of the meld (jokers as jokers).
  TileSet tiles() const;
  // Returns the code of the tile in slot i of a run (the tile a joker there stands for).
  int run_slot(int i) const { return tile_code(colour, number + i); }

  friend bool operator==(const Meld& a, const Meld& b) {
    return a.kind == b.kind && a.colour == b.colour && a.number == b.number && a.length == b.length &&
           a.joker_slots == b.joker_slots && a.colours == b.colours;
  }
  friend bool operator!=(const Meld& a, const Meld& b) { return !(a == b); }
};

// Reads an ordered sequence of tile codes as a meld. A run takes its jokers positionally when the
// order allows (R5 J R7: J is R6); otherwise numbered tiles are sorted, jokers fill the gaps and then
// extend the run upwards, then downwards. A single numbered tile with jokers reads as a run when the
// order allows, else as a group. Returns Ok and fills out, or the reason.
MeldError read_meld(const int* codes, int n, const Params& p, Meld& out);

// Returns Ok when a meld built directly (not read) is well formed for the rule set.
MeldError check_meld(const Meld& m, const Params& p);

// Returns the highest value any reading of the multiset as one meld can have, or -1 when it is no meld.
// Used for the opening: "the best legal reading counts".
int best_meld_value(const TileSet& tiles, const Params& p);

// The meld codec: a meld as one small int, so that a search result crosses a language boundary as a tuple
// of ints. Fields, low bit first: joker_slots (16 bits), colours (4), length (5), number (5), colour (2),
// kind (1): at most 33 bits, so a code is an int64_t in 0..kMeldCodeLimit-1.
constexpr int64_t kMeldCodeLimit = int64_t{1} << 33;

// Returns true when the meld is well formed under the widest rule set the engine supports (numbers 1..16,
// four colours, sets of two tiles or more) and its unused fields are zero: exactly the melds a code stands for.
bool meld_codable(const Meld& m);

// Returns the meld's code; the caller checks meld_codable(m) first.
int64_t meld_code(const Meld& m);

// Reads a code back: returns false (out untouched) unless the code is in range and stands for a meld that
// meld_codable accepts, so that no code yields a meld whose tiles fall outside the tile multiset.
bool meld_of_code(int64_t code, Meld& out);

}  // namespace rummikub
