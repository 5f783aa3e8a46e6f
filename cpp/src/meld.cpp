#include "rummikub/meld.h"

#include <algorithm>

#include "bits.h"

namespace rummikub {

const char* meld_error_text(MeldError e) {
  switch (e) {
    case MeldError::Ok: return "a valid set";
    case MeldError::BadTile: return "a tile outside the rule set";
    case MeldError::TooShort: return "too few tiles for a set";
    case MeldError::TooLong: return "too many tiles for a set";
    case MeldError::NoNumberedTile: return "a set needs at least one numbered tile";
    case MeldError::DuplicateColour: return "a group cannot hold two tiles of one colour";
    case MeldError::RepeatedNumber: return "a run cannot hold one number twice";
    case MeldError::Gap: return "the numbers of a run must be consecutive";
    case MeldError::Wrap: return "a run cannot wrap from the top number back to 1";
    case MeldError::OutOfRange: return "the jokers of this run would stand outside the numbers";
    case MeldError::Mixed: return "neither a group (one number) nor a run (one colour)";
    case MeldError::Count: break;
  }
  return "unknown";
}

int Meld::jokers() const {
  return kind == MeldKind::Run ? popcount32(joker_slots) : length - popcount32(colours);
}

int Meld::value() const {
  if (kind == MeldKind::Group) return number * length;
  return length * number + length * (length - 1) / 2;
}

TileSet Meld::tiles() const {
  TileSet s;
  if (kind == MeldKind::Group) {
    for (int c = 0; c < kMaxColours; ++c) {
      if (colours >> c & 1) s.add(tile_code(c, number));
    }
  } else if (colour >= 0 && colour < kMaxColours && number >= 1 && length >= 0 && number + length - 1 <= kMaxNumbers) {
    // The numbered slots' bits, each spread to a nibble (a tile of each number), shifted to the run's first number.
    uint64_t x = ~joker_slots & ((uint32_t{1} << length) - 1);
    x = (x | x << 24) & 0x000000FF000000FFULL;
    x = (x | x << 12) & 0x000F000F000F000FULL;
    x = (x | x << 6) & 0x0303030303030303ULL;
    x = (x | x << 3) & kLowNibbles;
    s.w[static_cast<size_t>(colour)] = x << (4 * (number - 1));
  } else {  // (a run outside the numbers: its tiles one at a time, as codes)
    for (int i = 0; i < length; ++i) {
      if (!(joker_slots >> i & 1)) s.add(run_slot(i));
    }
  }
  s.jokers = jokers();
  return s;
}

MeldError check_meld(const Meld& m, const Params& p) {
  if (m.length < p.min_len) return MeldError::TooShort;
  if (m.kind == MeldKind::Group) {
    if (m.number < 1 || m.number > p.numbers) return MeldError::BadTile;
    if (m.colours >> p.colours) return MeldError::BadTile;
    if (m.length > p.colours) return MeldError::TooLong;
    if (m.length < group_min(p)) return MeldError::TooShort;
    if (m.colours == 0) return MeldError::NoNumberedTile;
    if (popcount32(m.colours) > m.length) return MeldError::TooShort;
    return MeldError::Ok;
  }
  if (m.colour < 0 || m.colour >= p.colours) return MeldError::BadTile;
  if (m.length > p.numbers) return MeldError::TooLong;
  // Written so that no sum can overflow: 1 <= number and number + length - 1 <= numbers.
  if (m.number < 1 || m.number > p.numbers - m.length + 1) return MeldError::OutOfRange;
  if (m.joker_slots >> m.length) return MeldError::OutOfRange;
  if (popcount32(m.joker_slots) == m.length) return MeldError::NoNumberedTile;
  return MeldError::Ok;
}

MeldError read_meld(const int* codes, int n, const Params& p, Meld& out) {
  int real = 0, first = -1;
  for (int i = 0; i < n; ++i) {
    if (!tile_ok(codes[i], p)) return MeldError::BadTile;
    if (codes[i] != kJoker) {
      if (first < 0) first = i;
      ++real;
    }
  }
  if (n < p.min_len) return MeldError::TooShort;
  if (real == 0) return MeldError::NoNumberedTile;
  bool same_number = true, same_colour = true;
  const int num0 = tile_number(codes[first]), col0 = tile_colour(codes[first]);
  for (int i = 0; i < n; ++i) {
    if (codes[i] == kJoker) continue;
    same_number &= tile_number(codes[i]) == num0;
    same_colour &= tile_colour(codes[i]) == col0;
  }
  // Positional run reading: the first numbered tile fixes the start.
  auto positional = [&](Meld& m) {
    const int start = num0 - first;
    if (!same_colour || start < 1 || start + n - 1 > p.numbers) return false;
    uint32_t jm = 0;
    for (int i = 0; i < n; ++i) {
      if (codes[i] == kJoker) {
        jm |= 1u << i;
      } else if (tile_number(codes[i]) != start + i) {
        return false;
      }
    }
    m = Meld{MeldKind::Run, col0, start, n, jm, 0};
    return true;
  };
  if (real == 1 && positional(out)) return MeldError::Ok;
  if (same_number && (real >= 2 || (n <= p.colours && n >= group_min(p)))) {
    uint32_t cm = 0;
    for (int i = 0; i < n; ++i) {
      if (codes[i] == kJoker) continue;
      const uint32_t bit = 1u << tile_colour(codes[i]);
      if (cm & bit) return MeldError::DuplicateColour;
      cm |= bit;
    }
    if (n > p.colours) return MeldError::TooLong;
    if (n < group_min(p)) return MeldError::TooShort;
    out = Meld{MeldKind::Group, 0, num0, n, 0, cm};
    return MeldError::Ok;
  }
  if (!same_colour) return MeldError::Mixed;
  if (positional(out)) return MeldError::Ok;
  if (n > p.numbers) return MeldError::TooLong;
  // Sorted reading: numbered tiles in order, jokers fill gaps, then extend up, then down.
  uint32_t seen = 0;
  int lo = kMaxNumbers + 1, hi = 0;
  bool top_then_one = false;
  for (int i = 0; i < n; ++i) {
    if (codes[i] == kJoker) continue;
    const int x = tile_number(codes[i]);
    if (seen >> x & 1) return MeldError::RepeatedNumber;
    seen |= 1u << x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  for (int i = 0, prev = 0; i < n; ++i) {
    if (codes[i] == kJoker) continue;
    if (prev == p.numbers && tile_number(codes[i]) == 1) top_then_one = true;
    prev = tile_number(codes[i]);
  }
  const int jokers = n - real;
  const int gaps = (hi - lo + 1) - real;
  if (gaps > jokers) return top_then_one ? MeldError::Wrap : MeldError::Gap;
  int extra = jokers - gaps;
  const int up = std::min(extra, p.numbers - hi);
  extra -= up;
  const int start = lo - extra;
  if (start < 1) return MeldError::OutOfRange;
  uint32_t jm = 0;
  for (int i = 0; i < n; ++i) {
    if (!(seen >> (start + i) & 1)) jm |= 1u << i;
  }
  out = Meld{MeldKind::Run, col0, start, n, jm, 0};
  return MeldError::Ok;
}

int best_meld_value(const TileSet& tiles, const Params& p) {
  int codes[kCodes + kMaxJokers];
  int n = 0;
  for (int c = 0; c < p.colours; ++c) {
    for (int x = 1; x <= p.numbers; ++x) {
      for (int k = tiles.at(c, x); k > 0 && n < kCodes; --k) codes[n++] = tile_code(c, x);
    }
  }
  for (int j = 0; j < tiles.jokers && n < kCodes + kMaxJokers; ++j) codes[n++] = kJoker;
  if (n != tiles.size()) return -1;
  int best = -1;
  Meld m;
  // The sorted reading extends runs upwards first, so it is already the best run reading.
  if (read_meld(codes, n, p, m) == MeldError::Ok) best = m.value();
  // A single numbered tile with jokers reads as a group or as a run: take the better.
  if (n - tiles.jokers == 1 && best >= 0) {
    const int x = tile_number(codes[0]);
    if (n <= p.colours && n >= group_min(p)) best = std::max(best, x * n);
    const int start = std::min(x, p.numbers - n + 1);
    if (start >= 1 && start + n - 1 >= x) best = std::max(best, n * start + n * (n - 1) / 2);
  }
  return best;
}

namespace {
// The widest rule set: every meld of any supported rule set is well formed under it.
constexpr Params kWidest{kMaxNumbers, kMaxColours, kMaxCount, kMaxJokers, 2};
static_assert(kMaxNumbers <= 16 && kMaxColours <= 4, "meld codes hold 16 slots and 4 colours");
constexpr int kCodeColours = 16, kCodeLength = 20, kCodeNumber = 25, kCodeColour = 30, kCodeKind = 32;
}  // namespace

bool meld_codable(const Meld& m) {
  if (check_meld(m, kWidest) != MeldError::Ok) return false;
  return m.kind == MeldKind::Run ? m.colours == 0 : (m.colour == 0 && m.joker_slots == 0);
}

int64_t meld_code(const Meld& m) {
  const uint64_t code = static_cast<uint64_t>(m.joker_slots) | static_cast<uint64_t>(m.colours) << kCodeColours |
                        static_cast<uint64_t>(m.length) << kCodeLength |
                        static_cast<uint64_t>(m.number) << kCodeNumber |
                        static_cast<uint64_t>(m.colour) << kCodeColour |
                        static_cast<uint64_t>(m.kind == MeldKind::Group) << kCodeKind;
  return static_cast<int64_t>(code);
}

bool meld_of_code(int64_t code, Meld& out) {
  if (code < 0 || code >= kMeldCodeLimit) return false;
  const uint64_t c = static_cast<uint64_t>(code);
  Meld m;
  m.joker_slots = static_cast<uint32_t>(c & 0xFFFF);
  m.colours = static_cast<uint32_t>(c >> kCodeColours & 0xF);
  m.length = static_cast<int>(c >> kCodeLength & 0x1F);
  m.number = static_cast<int>(c >> kCodeNumber & 0x1F);
  m.colour = static_cast<int>(c >> kCodeColour & 0x3);
  m.kind = (c >> kCodeKind & 1) != 0 ? MeldKind::Group : MeldKind::Run;
  if (!meld_codable(m)) return false;
  out = m;
  return true;
}

}  // namespace rummikub
