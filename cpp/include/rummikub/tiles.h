// Tiles and tile multisets as fixed-width bitsets.
//
// A tile is a small integer code: colour * 16 + (number - 1) for a numbered tile, kJoker for a joker.
// The code does not depend on the rule set, so nothing here hard-codes the 106-tile game: a rule set
// (Params) only bounds which numbers, colours and copy counts are legal.
//
// TileSet bit layout (packed 4-bit counts, one 64-bit word per colour):
//
//   word[c]  bit 63 ........................................... bit 0
//            | n=16 | n=15 | ... | n=3  | n=2  | n=1  |   each field: count of (colour c, number n)
//             4 bits                               4 bits
//   jokers   a separate 8-bit count
//
// Counts are kept at most kMaxCount (7) so the top bit of every nibble is free: that guard bit makes
// sum, difference and containment branch-free SWAR operations on four words.
#pragma once

#include <array>
#include <cstdint>

namespace rummikub {

constexpr int kMaxNumbers = 16;
constexpr int kMaxColours = 4;
constexpr int kMaxCount = 7;
constexpr int kMaxJokers = 7;
constexpr int kCodes = kMaxColours * kMaxNumbers;  // number-tile codes 0..63
constexpr int kJoker = kCodes;                      // 64

constexpr uint64_t kLowNibbles = 0x1111111111111111ULL;
constexpr uint64_t kGuardBits = 0x8888888888888888ULL;
constexpr uint64_t kNibbleMask = 0x7777777777777777ULL;

// The parameters of a tile set: numbers 1..numbers in `colours` colours, `copies` of each, plus jokers.
struct Params {
  int numbers = 13;
  int colours = 4;
  int copies = 2;
  int jokers = 2;
  int min_len = 3;
  // Returns true when every parameter is the same.
  bool operator==(const Params& o) const {
    return numbers == o.numbers && colours == o.colours && copies == o.copies && jokers == o.jokers &&
           min_len == o.min_len;
  }
  bool operator!=(const Params& o) const { return !(*this == o); }
};

// Returns true when the parameters are inside what the engine supports.
bool params_ok(const Params& p);

// Returns the code of a numbered tile.
constexpr int tile_code(int colour, int number) { return colour * kMaxNumbers + (number - 1); }
// Returns the colour of a numbered tile code.
constexpr int tile_colour(int code) { return code / kMaxNumbers; }
// Returns the number (1-based) of a numbered tile code.
constexpr int tile_number(int code) { return code % kMaxNumbers + 1; }
// Returns true when the code names a tile of this rule set.
constexpr bool tile_ok(int code, const Params& p) {
  return code == kJoker ||
         (code >= 0 && code < kCodes && tile_colour(code) < p.colours && tile_number(code) <= p.numbers);
}

// Returns the number of tiles counted in a word of packed nibbles.
constexpr int nibble_sum(uint64_t w) {
  uint64_t b = (w & 0x0F0F0F0F0F0F0F0FULL) + ((w >> 4) & 0x0F0F0F0F0F0F0F0FULL);
  return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
}

// An immutable-by-convention multiset of tiles (see the layout above). A plain value type.
struct TileSet {
  std::array<uint64_t, kMaxColours> w{};
  int jokers = 0;

  // Returns how many copies of the tile the set holds.
  constexpr int count(int code) const {
    return code == kJoker ? jokers
                          : static_cast<int>((w[tile_colour(code)] >> (4 * (code % kMaxNumbers))) & 0xF);
  }
  // Returns the count of (colour, number).
  constexpr int at(int colour, int number) const {
    return static_cast<int>((w[colour] >> (4 * (number - 1))) & 0xF);
  }
  // Adds k copies of a tile; the caller keeps every count within kMaxCount.
  constexpr void add(int code, int k = 1) {
    if (code == kJoker) {
      jokers += k;
    } else {
      w[tile_colour(code)] += static_cast<uint64_t>(k) << (4 * (code % kMaxNumbers));
    }
  }
  // Removes k copies of a tile; the caller checks they are there.
  constexpr void remove(int code, int k = 1) {
    if (code == kJoker) {
      jokers -= k;
    } else {
      w[tile_colour(code)] -= static_cast<uint64_t>(k) << (4 * (code % kMaxNumbers));
    }
  }
  // Returns the number of tiles, jokers included.
  constexpr int size() const {
    int s = jokers;
    for (uint64_t x : w) s += nibble_sum(x);
    return s;
  }
  // Returns true when the set holds no tile.
  constexpr bool empty() const { return jokers == 0 && (w[0] | w[1] | w[2] | w[3]) == 0; }
  // Returns the sum of the numbers of the numbered tiles plus joker_value per joker.
  int value(int joker_value) const;
  // Returns the largest count of any one tile (jokers excluded).
  int max_count() const;

  friend constexpr bool operator==(const TileSet& a, const TileSet& b) {
    return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3] && a.jokers == b.jokers;
  }
  friend constexpr bool operator!=(const TileSet& a, const TileSet& b) { return !(a == b); }
};

// Returns true when every count of b is at most the count in a (b is a sub-multiset of a).
constexpr bool contains(const TileSet& a, const TileSet& b) {
  uint64_t ok = kGuardBits;
  for (int c = 0; c < kMaxColours; ++c) ok &= (a.w[c] | kGuardBits) - b.w[c];
  return ok == kGuardBits && a.jokers >= b.jokers;
}

// Returns true when a + b keeps every count within kMaxCount.
constexpr bool sum_fits(const TileSet& a, const TileSet& b) {
  uint64_t over = 0;
  for (int c = 0; c < kMaxColours; ++c) over |= a.w[c] + b.w[c];
  return (over & kGuardBits) == 0 && a.jokers + b.jokers <= kMaxJokers;
}

// Returns the multiset sum; the caller checks sum_fits first.
constexpr TileSet sum(const TileSet& a, const TileSet& b) {
  TileSet r;
  for (int c = 0; c < kMaxColours; ++c) r.w[c] = a.w[c] + b.w[c];
  r.jokers = a.jokers + b.jokers;
  return r;
}

// Returns a - b; the caller checks contains(a, b) first.
constexpr TileSet difference(const TileSet& a, const TileSet& b) {
  TileSet r;
  for (int c = 0; c < kMaxColours; ++c) r.w[c] = a.w[c] - b.w[c];
  r.jokers = a.jokers - b.jokers;
  return r;
}

// Returns the per-tile minimum of a and b (multiset intersection).
TileSet intersection(const TileSet& a, const TileSet& b);

// Returns the weights of the tiles of s (weights: one per tile code, kJoker's last) added one tile at a time in code
// order, the jokers last, from 0.0: the double that this loop gives in any language (no addition is reordered).
double weighted_size(const TileSet& s, const std::array<double, kJoker + 1>& weights);

// Returns the full tile set of a rule set (every tile, every copy, every joker).
TileSet full_set(const Params& p);

// Returns true when every tile of s exists in the rule set and no count exceeds its copies/jokers.
bool fits_rules(const TileSet& s, const Params& p);

// Returns a multi-line picture of the set (rows are colours, columns numbers) for debugging.
const char* pretty(const TileSet& s, char* buf, int buflen);

}  // namespace rummikub
