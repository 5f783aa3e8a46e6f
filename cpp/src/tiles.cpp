#include "rummikub/tiles.h"

#include <algorithm>
#include <cstdio>

namespace rummikub {

bool params_ok(const Params& p) {
  return p.numbers >= 1 && p.numbers <= kMaxNumbers && p.colours >= 1 && p.colours <= kMaxColours &&
         p.copies >= 1 && p.copies <= kMaxCount && p.jokers >= 0 && p.jokers <= kMaxJokers &&
         p.min_len >= 2 && p.min_len <= p.numbers;
}

int TileSet::value(int joker_value) const {
  int v = jokers * joker_value;
  for (uint64_t x : w) {
    for (int n = 1; x != 0; ++n, x >>= 4) v += n * static_cast<int>(x & 0xF);
  }
  return v;
}

int TileSet::max_count() const {
  int m = 0;
  for (uint64_t x : w) {
    for (; x != 0; x >>= 4) m = std::max(m, static_cast<int>(x & 0xF));
  }
  return m;
}

TileSet intersection(const TileSet& a, const TileSet& b) {
  TileSet r;
  for (int c = 0; c < kMaxColours; ++c) {
    // Per nibble: b is smaller where (a|guard) - b lost its guard bit.
    uint64_t ge = ((a.w[c] | kGuardBits) - b.w[c]) & kGuardBits;  // guard set where a >= b
    uint64_t mask = (ge >> 3) * 0xF;                                // 0xF in nibbles where a >= b
    r.w[c] = (b.w[c] & mask) | (a.w[c] & ~mask);
  }
  r.jokers = std::min(a.jokers, b.jokers);
  return r;
}

double weighted_size(const TileSet& s, const std::array<double, kJoker + 1>& weights) {
  double sum = 0.0;
  for (int c = 0; c < kMaxColours; ++c) {
    uint64_t x = s.w[static_cast<size_t>(c)];
    while (x != 0) {
      const int shift = __builtin_ctzll(x) & ~3;  // the lowest number held, in nibbles of 4 bits
      const double weight = weights[static_cast<size_t>(c * kMaxNumbers + shift / 4)];
      for (uint64_t copies = (x >> shift) & 0xF; copies > 0; --copies) sum += weight;
      x &= ~(uint64_t{0xF} << shift);
    }
  }
  for (int copies = s.jokers; copies > 0; --copies) sum += weights[kJoker];
  return sum;
}

TileSet full_set(const Params& p) {
  // One nibble of `copies` per number, a word per colour (every fits_rules check builds this set).
  const int numbers = std::clamp(p.numbers, 0, kMaxNumbers), colours = std::clamp(p.colours, 0, kMaxColours);
  const uint64_t ones = numbers == kMaxNumbers ? kLowNibbles : kLowNibbles & ((uint64_t{1} << (4 * numbers)) - 1);
  TileSet s;
  const uint64_t copies = static_cast<uint64_t>(std::clamp(p.copies, 0, 15));
  for (int c = 0; c < colours; ++c) s.w[static_cast<size_t>(c)] = ones * copies;
  s.jokers = p.jokers;
  return s;
}

bool fits_rules(const TileSet& s, const Params& p) { return contains(full_set(p), s); }

const char* pretty(const TileSet& s, char* buf, int buflen) {
  static const char kLetters[] = "KBOR";
  int off = 0;
  for (int c = 0; c < kMaxColours && off < buflen; ++c) {
    off += std::snprintf(buf + off, static_cast<size_t>(buflen - off), "%c ", kLetters[c]);
    for (int n = 1; n <= kMaxNumbers && off < buflen; ++n) {
      off += std::snprintf(buf + off, static_cast<size_t>(buflen - off), "%d", s.at(c, n));
    }
    if (off < buflen) off += std::snprintf(buf + off, static_cast<size_t>(buflen - off), "\n");
  }
  if (off < buflen) std::snprintf(buf + off, static_cast<size_t>(buflen - off), "J %d\n", s.jokers);
  return buf;
}

}  // namespace rummikub
