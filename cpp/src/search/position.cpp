// The compiled position: its bounds (prepare), weights, usage bits, and the checks of a position.
#include "position.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "../bits.h"

namespace rummikub::search {

namespace {

// Returns the numbers 1..16 of a row whose count is not 0, as a mask (bit n: number n). (Each half of the row a word:
// the top bit of each byte that is not 0, gathered into one byte by a multiplication whose partial products never
// meet.)
uint32_t numbers_held(const uint8_t row[kByNumber]) {
  static_assert(kByNumber == 17, "16 numbers: two words of 8 bytes");
  auto held = [](uint64_t x) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    const uint64_t top = (((x & low7) + low7) | x) & ~low7;
    return static_cast<uint32_t>((top * 0x0002040810204081ULL) >> 56);
  };
  uint64_t low, high;
  std::memcpy(&low, row + 1, sizeof low);
  std::memcpy(&high, row + 9, sizeof high);
  return (held(low) | held(high) << 8) << 1;
}

// Returns the low 8 bits of b as 8 bytes of 0 or 1, in order.
uint64_t bytes_of_bits(uint32_t b) {
  const uint64_t y = (static_cast<uint64_t>(b & 0xFF) * 0x0101010101010101ULL) & 0x8040201008040201ULL;
  return ((y + 0x7F7F7F7F7F7F7F7FULL) >> 7) & 0x0101010101010101ULL;
}

// Writes a mask of the numbers 0..16 as a row of flags.
void set_flags(bool row[kByNumber], uint32_t mask) {
  const uint64_t low = bytes_of_bits(mask), high = bytes_of_bits(mask >> 8);
  std::memcpy(row, &low, sizeof low);
  std::memcpy(row + 8, &high, sizeof high);
  row[16] = (mask >> 16 & 1) != 0;
}

// The numbers n held by at least k of the masks, for k = 0..kMaxColours (at_least[0]: every number).
struct Coverage {
  uint32_t at_least[kMaxColours + 1] = {~0u};
  Coverage(const uint32_t* masks, int count) {
    for (int i = 0; i < count; ++i) {
      for (int k = count; k > 0; --k) at_least[k] |= at_least[k - 1] & masks[i];
    }
  }
};

// The windows of L numbers within 1..N, each by its first number s (bit s: the window s..s+L-1), and how many numbers
// each misses of a set `have`: a count of up to 7 in three masks (bit k of every window's count), summed one offset
// into the windows at a time.
struct Windows {
  int L = 0;
  uint32_t starts = 0;
  uint32_t count[3] = {};
  Windows() = default;
  Windows(uint32_t have, int N, int min_len)
      : L(min_len), starts(min_len > N ? 0u : ((uint32_t{1} << (N - min_len + 1)) - 1) << 1) {
    for (int i = 0; i < L; ++i) {
      const uint32_t missing = ~have >> i & starts;  // (the windows missing number s + i)
      const uint32_t carry0 = count[0] & missing;
      count[0] ^= missing;
      const uint32_t carry1 = count[1] & carry0;
      count[1] ^= carry0;
      count[2] ^= carry1;  // (L <= 7: no carry out)
    }
  }
  // Returns the windows missing at most `most` numbers (compared bit by bit from the top).
  uint32_t missing_at_most(int most) const {
    if (most < 0) return 0;
    if (most >= 7) return starts;
    uint32_t above = 0, equal = ~0u;
    for (int k = 2; k >= 0; --k) {
      if (most >> k & 1) {
        equal &= count[k];
      } else {
        above |= equal & count[k];
        equal &= ~count[k];
      }
    }
    return starts & ~above;
  }
  // Returns the windows holding a number of a set.
  uint32_t holding(uint32_t numbers) const {
    uint32_t out = 0;
    for (int i = 0; i < L; ++i) out |= numbers >> i;
    return out & starts;
  }
  // Returns the numbers of the windows chosen (a subset of starts).
  uint32_t cover(uint32_t chosen) const {
    uint32_t out = 0;
    for (int i = 0; i < L; ++i) out |= chosen << i;
    return out;
  }
};

}  // namespace

// Fills the derived fields of an input. Its tables by number are masks of numbers (bit n: number n) per colour.
void prepare(Input& in) {
  const int N = in.p.numbers, C = in.p.colours, L = in.p.min_len;
  const int J = in.rack_jokers + in.table_jokers;
  const int G = std::max(3, L);  // (the fewest tiles of a group; no group at all when G > C)
  bool rack_tiles = false;  // (without any, the rack's bounds stay 0: arrange, and every opening-free table)
  uint32_t held[kMaxColours] = {}, racked[kMaxColours] = {}, forced[kMaxColours] = {};  // avail, rack, rack_min
  // (Each colour's row at once, through copies: written straight, every byte stored could alias the next row read.
  // The counts of number 0 and past N are 0, and so are their sums.)
  for (int c = 0; c < C; ++c) {
    uint8_t t[kByNumber], v[kByNumber], r[kByNumber], a[kByNumber];
    std::memcpy(t, in.table[c], sizeof t);
    std::memcpy(v, in.staying[c], sizeof v);
    std::memcpy(r, in.rack[c], sizeof r);
    for (int k = 0; k < kByNumber; ++k) a[k] = static_cast<uint8_t>(t[k] + v[k] + r[k]);
    std::memcpy(in.avail[c], a, sizeof a);
    held[c] = numbers_held(a);
    racked[c] = numbers_held(r);
    forced[c] = numbers_held(in.rack_min[c]);
    rack_tiles |= racked[c] != 0;
  }
  // The numbers where a tile of colour c fits some meld with `jokers` free jokers, the other slots taken by tiles
  // available: a group (one of each colour) or a run through it, a window of L numbers missing at most `jokers`.
  // (Asked only of numbers with a tile of colour c available, so a tile's own number is never missing.)
  auto group_fits = [&](const Coverage& colours, int jokers) {
    return G <= C ? colours.at_least[std::max(0, G - jokers)] : 0u;
  };
  Windows windows[kMaxColours];  // (each colour's, of held[c] as it is)
  for (int c = 0; c < C; ++c) windows[c] = Windows(held[c], N, L);
  auto run_fits = [&](int c, int jokers) { return windows[c].cover(windows[c].missing_at_most(jokers)); };
  // A rack tile that fits in no meld at all can never be played: drop it (unless forced, which then fails on its
  // own). Dropping one can strand another, so repeat until nothing changes. (Dropping only ever makes fewer tiles
  // fit, so every order of the drops ends with the same rack: here each round drops all it finds at once.)
  uint32_t fits[kMaxColours] = {};  // (the numbers where a tile fits, with J jokers, on the rack as it ends)
  Coverage colours(held, C);        // the colours with a tile of each number
  for (bool changed = rack_tiles; changed;) {
    changed = false;
    const uint32_t grouped = group_fits(colours, J);
    for (int c = 0; c < C; ++c) fits[c] = grouped | run_fits(c, J);
    for (int c = 0; c < C; ++c) {
      const uint32_t drop = racked[c] & ~forced[c] & ~fits[c];
      if (drop == 0) continue;
      for (uint32_t d = drop; d != 0; d &= d - 1) {
        const int n = __builtin_ctz(d);
        in.avail[c][n] = static_cast<uint8_t>(in.avail[c][n] - in.rack[c][n]);
        in.rack[c][n] = 0;
        if (in.avail[c][n] == 0) held[c] &= ~(1u << n);
      }
      racked[c] &= ~drop;
      windows[c] = Windows(held[c], N, L);
      changed = true;
    }
    if (changed) colours = Coverage(held, C);
  }
  set_flags(in.group_possible, G <= C ? colours.at_least[std::max(1, G - J)] : 0u);
  // A joker in a run slot (c, n) needs a window of L slots around it with a numbered tile and no more
  // empty slots than there are jokers. (The numbers of such windows are marked in `if_empty` when a window has room
  // for the joker at an empty slot, in `if_tile` when also at a slot with a tile, which the joker then takes: one
  // more missing slot.)
  for (int c = 0; c < C && J > 0; ++c) {  // (without jokers it is never asked)
    const uint32_t real = numbers_held(in.table[c]) | racked[c];  // (numbered tiles)
    const Windows& w = windows[c];
    const uint32_t with_real = w.holding(real);
    const uint32_t if_empty = w.cover(w.missing_at_most(J) & with_real);
    const uint32_t if_tile = w.cover(w.missing_at_most(J - 1) & with_real);
    set_flags(in.joker_fits[c], (held[c] & if_tile) | (~held[c] & if_empty));  // (number 0 and past N: false)
  }
  // gaps_after[c][n]: the numbers after n, up to N, without a tile of colour c: all such numbers less those up to n
  // (prefix sums of a byte a number, by a multiplication; a count stays far below a byte's carry).
  const uint32_t numbers = ((uint32_t{1} << N) - 1) << 1;
  for (int c = 0; c < C; ++c) {
    const uint32_t gaps = ~held[c] & numbers;
    const uint64_t ones = 0x0101010101010101ULL;
    const uint64_t low = bytes_of_bits(gaps >> 1) * ones;  // byte i: the gaps up to number i + 1
    const uint64_t high = bytes_of_bits(gaps >> 9) * ones + (low >> 56) * ones;  // ... up to number i + 9
    const uint64_t all = static_cast<uint64_t>(popcount32(gaps)) * ones;
    const uint64_t after_low = all - low, after_high = all - high;
    in.gaps_after[c][0] = static_cast<uint8_t>(popcount32(gaps));
    std::memcpy(&in.gaps_after[c][1], &after_low, sizeof after_low);
    std::memcpy(&in.gaps_after[c][9], &after_high, sizeof after_high);
  }
  // (Input::rack_gap, from the last number down: the jokers to the next rack tile of the colour.)
  for (int c = 0; c < C && in.mode.retrieval_rule; ++c) {
    uint8_t to_rack[kByNumber] = {};
    to_rack[N] = kNoRackTile;
    for (int n = N - 1; n >= 0; --n) {
      const int k = n + 1;
      if (racked[c] >> k & 1) {
        to_rack[n] = 0;
      } else if ((held[c] >> k & 1) != 0 || to_rack[k] == kNoRackTile) {
        to_rack[n] = to_rack[k];
      } else {
        to_rack[n] = in.joker_fits[c][k] ? static_cast<uint8_t>(to_rack[k] + 1) : kNoRackTile;
      }
    }
    std::memcpy(in.rack_gap[c], to_rack, sizeof to_rack);
  }
  in.joker_weight_max = 0;
  for (int n = 1; n <= N; ++n) {
    in.joker_weight_max = std::max(in.joker_weight_max, in.joker_weight[n]);
  }
  in.tiles_bound[N * C] = 0;
  in.value_bound[N * C] = 0;
  if (!rack_tiles) {  // no rack tile to bound: every bound is 0
    std::fill(in.tiles_bound, in.tiles_bound + N * C, 0);
    std::fill(in.value_bound, in.value_bound + N * C, 0);
    return;
  }
  // How many tiles of (c, n) any legal end can place at most: the melds holding one. A run through n holds
  // n + 1, or else n - 1 .. n - L + 1 (and mirrored), each slot a distinct tile or a joker; a group holds G - 1
  // other tiles of n, of distinct colours, or jokers. The table's tiles take that room first, so a rack copy
  // past it counts nothing.
  auto room = [&](int c, int n) {
    auto at = [&](int k) { return k >= 1 && k <= N ? in.avail[c][k] + J : 0; };
    // (below: the least of at(n - 1) .. at(n - L + 1), 0 when one lies before 1; above the same after n)
    int below = INT_MAX, above = INT_MAX;
    if (n - L + 1 < 1) {
      below = 0;
    } else {
      for (int k = 1; k < L; ++k) below = std::min(below, in.avail[c][n - k] + J);
    }
    if (n + L - 1 > N) {
      above = 0;
    } else {
      for (int k = 1; k < L; ++k) above = std::min(above, in.avail[c][n + k] + J);
    }
    const int runs = std::min(at(n + 1) + below, at(n - 1) + above);
    // k groups holding a copy each need k (G - 1) other members, one of each colour at most per group: at most
    // min(copies, k) of each other colour, and the jokers. (Not monotone in k: every k is tried.)
    int groups = 0;
    for (int k = 1; G <= C && k <= in.avail[c][n]; ++k) {
      int others = J;
      for (int y = 0; y < C; ++y) others += y != c ? std::min<int>(in.avail[y][n], k) : 0;
      if (others >= k * (G - 1)) groups = k;
    }
    return runs + groups;
  };
  // A rack tile that fits no meld without a free joker can only be placed in a meld holding one (every run
  // through it spans a window of L numbers with a gap; a group of it lacks a colour), and at most J melds hold
  // one: those tiles count, the heaviest first, for at most J times the most of them one meld can hold (a run:
  // one a number, over a range with J gaps at most; a group: one a colour).
  uint32_t needs_joker[kMaxColours] = {};
  int joker_tiles = 0;
  if (J > 0) {
    const uint32_t grouped = group_fits(colours, 0);
    for (int c = 0; c < C; ++c) {
      needs_joker[c] = racked[c] & ~(grouped | run_fits(c, 0));
      for (uint32_t m = needs_joker[c]; m != 0; m &= m - 1) joker_tiles += in.rack[c][__builtin_ctz(m)];
    }
  }
  int per_meld = 0;
  if (joker_tiles > 0) {
    const Coverage by_number(needs_joker, C);
    for (int k = 1; k <= C; ++k) per_meld = by_number.at_least[k] != 0 ? k : per_meld;
  }
  for (int c = 0; c < C && joker_tiles > 0; ++c) {
    if (popcount32(needs_joker[c]) <= per_meld) continue;  // (no run of colour c holds more)
    for (int s = 1; s <= N; ++s) {
      int gaps = 0, tiles = 0;
      for (int e = s; e <= N; ++e) {
        gaps += (held[c] >> e & 1) == 0 ? 1 : 0;
        if (gaps > J) break;
        tiles += static_cast<int>(needs_joker[c] >> e & 1);
        if (e - s + 1 >= L) per_meld = std::max(per_meld, tiles);
      }
    }
  }
  const int joker_most = std::min(joker_tiles, J * per_meld);
  int64_t heavy[kMaxColours * kByNumber * kMaxCount];  // the weights of such tiles after pos, heaviest first
  int nheavy = 0;
  int64_t heavy_sum = 0, plain = 0;  // the joker_most heaviest of them; the other tiles after pos
  // The bounds change only at the positions of rack tiles that count (they fit some meld): those are visited from
  // the last down, and the positions between them take the bounds of the position after them.
  uint64_t counted = 0;  // (bit pos: sweep position pos = (n - 1) C + c)
  for (int c = 0; c < C; ++c) {
    for (uint32_t m = racked[c] & fits[c]; m != 0; m &= m - 1) {
      counted |= uint64_t{1} << ((__builtin_ctz(m) - 1) * C + c);
    }
  }
  int done = N * C;  // (the positions from here on have their bounds)
  auto fill_down_to = [&](int pos) {
    const int64_t tiles = plain + heavy_sum;
    const int value = in.value_bound[done];
    for (int q = pos; q < done; ++q) {
      in.tiles_bound[q] = tiles;
      in.value_bound[q] = value;
    }
    done = pos;
  };
  while (counted != 0) {
    const int pos = 63 - __builtin_clzll(counted);
    counted &= ~(uint64_t{1} << pos);
    fill_down_to(pos + 1);
    const int n = pos / C + 1, c = pos % C;
    const int copies = std::min<int>(in.rack[c][n], std::max(0, room(c, n) - in.table[c][n] - in.staying[c][n]));
    if (needs_joker[c] >> n & 1) {
      for (int k = 0; k < copies; ++k) {
        int at = nheavy++;
        for (; at > 0 && heavy[at - 1] < in.rack_weight[n]; --at) heavy[at] = heavy[at - 1];
        heavy[at] = in.rack_weight[n];
        heavy_sum += at < joker_most ? in.rack_weight[n] - (nheavy > joker_most ? heavy[joker_most] : 0) : 0;
      }
    } else {
      plain += copies * in.rack_weight[n];
    }
    in.tiles_bound[pos] = plain + heavy_sum;
    in.value_bound[pos] = in.value_bound[pos + 1] + copies * n;
    done = pos;
  }
  fill_down_to(0);
}


// Sets the objective's weights of rack tiles and rack jokers, by number (of a mirrored position: each number n of
// 1..N weighs what number N + 1 - n does).
void set_weights(Input& in, Objective obj, int joker_penalty, bool mirrored) {
  for (int64_t n = 0; n < kByNumber; ++n) {
    switch (obj) {
      case Objective::Tiles:
        in.rack_weight[n] = in.joker_weight[n] = kUnit + n;
        break;
      case Objective::Value:
        in.rack_weight[n] = in.joker_weight[n] = n * kUnit + 1;
        break;
      case Objective::Penalty:
        in.rack_weight[n] = n * kUnit + 1;
        in.joker_weight[n] = joker_penalty * kUnit + 1;
        break;
    }
  }
  if (mirrored) {
    std::reverse(in.rack_weight + 1, in.rack_weight + in.p.numbers + 1);
    std::reverse(in.joker_weight + 1, in.joker_weight + in.p.numbers + 1);
  }
}

// Returns s with every number n read as N + 1 - n.
TileSet mirrored(const TileSet& s, int N) {
  TileSet m;
  m.jokers = s.jokers;
  for (int c = 0; c < kMaxColours; ++c) {
    // (a colour's counts are its word's nibbles, number n at nibble n - 1: the nibbles reversed, then shifted down)
    uint64_t w = __builtin_bswap64(s.w[c]);
    w = (w & 0x0F0F0F0F0F0F0F0FULL) << 4 | (w >> 4 & 0x0F0F0F0F0F0F0F0FULL);
    m.w[c] = w >> (4 * (kMaxNumbers - N));
  }
  return m;
}

// Returns m with every number n read as N + 1 - n (a run's slots reversed).
Meld mirrored(const Meld& m, int N) {
  Meld r = m;
  if (m.kind == MeldKind::Group) {
    r.number = N + 1 - m.number;
    return r;
  }
  r.number = N + 2 - m.number - m.length;
  r.joker_slots = 0;
  for (int i = 0; i < m.length; ++i) r.joker_slots |= (m.joker_slots >> i & 1) << (m.length - 1 - i);
  return r;
}

// Returns true when `met` lies above `tabled` in more pairs than below (position.h).
bool lies_high(const int64_t (&met)[kByNumber], const int64_t (&tabled)[kByNumber], int N) {
  int64_t under = 0, total = 0;  // (the tabled tiles under n, all of them)
  for (int n = 1; n <= N; ++n) total += tabled[n];
  int64_t above = 0, below = 0;
  for (int n = 1; n <= N; ++n) {
    if (total == 0) {  // (against one tile at the middle number)
      above += 2 * n > N + 1 ? met[n] : 0;
      below += 2 * n < N + 1 ? met[n] : 0;
    }
    above += met[n] * under;
    below += met[n] * (total - under - tabled[n]);
    under += tabled[n];
  }
  return above > below;
}

// Adds a multiset's numbered tiles to counts by number.
void add_by_number(int64_t (&dst)[kByNumber], const TileSet& s, const Params& p) {
  for (int c = 0; c < p.colours; ++c) {
    for (int n = 1; n <= p.numbers; ++n) dst[n] += s.at(c, n);
  }
}

// Adds a multiset's numbered tiles to counts by colour and number.
void add_tiles(uint8_t dst[kMaxColours][kByNumber], const TileSet& s, const Params& p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  static_assert(kByNumber == 17, "16 numbers: a word of 16 nibbles, spread into two words of 8 bytes");
  const uint64_t numbers = p.numbers >= 16 ? ~uint64_t{0} : (uint64_t{1} << (4 * p.numbers)) - 1;
  // Spreads 8 nibbles into 8 bytes, in order.
  auto spread = [](uint64_t x) {
    x = (x | x << 16) & 0x0000FFFF0000FFFFULL;
    x = (x | x << 8) & 0x00FF00FF00FF00FFULL;
    return (x | x << 4) & 0x0F0F0F0F0F0F0F0FULL;
  };
  for (int c = 0; c < p.colours; ++c) {
    const uint64_t w = s.w[static_cast<size_t>(c)] & numbers;
    // (numbers 1-8 and 9-16 a word each, added byte by byte: a count stays far below a byte's carry)
    uint64_t low, high;
    std::memcpy(&low, &dst[c][1], sizeof low);
    std::memcpy(&high, &dst[c][9], sizeof high);
    low += spread(w & 0xFFFFFFFFULL);
    high += spread(w >> 32);
    std::memcpy(&dst[c][1], &low, sizeof low);
    std::memcpy(&dst[c][9], &high, sizeof high);
  }
#else
  for (int c = 0; c < p.colours; ++c) {
    for (int n = 1; n <= p.numbers; ++n) dst[c][n] = static_cast<uint8_t>(dst[c][n] + s.at(c, n));
  }
#endif
}

// Sets how runs are described (Mode) from the input's jokers and rules.
void finish_mode(Input& in) {
  int vtot = 0;  // (every count of number 0, past N or past the colours is 0: the whole array is summed)
  for (int c = 0; c < kMaxColours; ++c) {
    for (int n = 0; n < kByNumber; ++n) vtot += in.staying[c][n];
  }
  in.mode.min_len = in.p.min_len;
  in.mode.track_real = in.rack_jokers + in.table_jokers + vtot >= in.p.min_len;
  if (!in.mode.retrieval_rule) in.mode.rack_needed = 0;
  in.mode.strict = in.mode.retrieval_rule && in.rack_jokers == 0;
}

// Keys the input's states by the rack tiles used: each copy of a rack tile gets a bit.
void set_usage(Input& in, const TileSet& rack) {
  in.usage = true;
  int bit = 0;
  for (int c = 0; c < in.p.colours; ++c) {
    for (int n = 1; n <= in.p.numbers; ++n) {
      in.usage_bit[c][n] = static_cast<uint8_t>(bit);
      bit += rack.at(c, n);
    }
  }
}

// Adds up the table's tiles into `tiles`; returns false when a meld is not valid or the tiles do not fit.
bool table_ok(const std::vector<Meld>& table, const Params& p, TileSet& tiles) {
  for (const Meld& m : table) {
    if (check_meld(m, p) != MeldError::Ok) return false;
    const TileSet t = m.tiles();
    if (!sum_fits(tiles, t)) return false;
    tiles = sum(tiles, t);
  }
  return true;
}

// The opening on its own: new melds from the rack, table untouched, value at least the threshold.
Input opening_input(const TileSet& rack, const SearchRules& rules) {
  Input in;
  in.p = rules.p;
  add_tiles(in.rack, rack, rules.p);
  in.rack_jokers = rules.joker_in_opening ? rack.jokers : 0;
  in.threshold = std::min(rules.opening_threshold, 1023);
  finish_mode(in);
  return in;
}

// Returns true when table, rack and rules make a position the search takes (table_tiles: the table's tiles).
bool position_ok(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, TileSet& table_tiles) {
  if (!search_supported(rules.p)) return false;
  if (!table_ok(table, rules.p, table_tiles)) return false;
  if (!fits_rules(rack, rules.p) || !sum_fits(table_tiles, rack)) return false;
  return fits_rules(sum(table_tiles, rack), rules.p);
}

}  // namespace rummikub::search

namespace rummikub {

// Returns true when the parameters are within what the search handles (search.h).
bool search_supported(const Params& p) {
  return params_ok(p) && p.copies <= 3 && p.jokers <= search::kMostJokers && p.min_len <= 7;
}

}  // namespace rummikub
