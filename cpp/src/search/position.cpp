// The compiled position: its bounds (prepare), weights, usage bits, and the checks of a position.
#include "position.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace rummikub::search {

// Fills the derived fields of an input.
void prepare(Input& in) {
  const int N = in.p.numbers, C = in.p.colours, L = in.p.min_len;
  const int J = in.rack_jokers + in.table_jokers;
  bool rack_tiles = false;  // (without any, the rack's bounds stay 0: arrange, and every opening-free table)
  // (Each colour's row at once, through copies: written straight, every byte stored could alias the next row read.
  // The counts of number 0 and past N are 0, and so are their sums.)
  for (int c = 0; c < C; ++c) {
    uint8_t t[kByNumber], v[kByNumber], r[kByNumber], a[kByNumber];
    std::memcpy(t, in.table[c], sizeof t);
    std::memcpy(v, in.staying[c], sizeof v);
    std::memcpy(r, in.rack[c], sizeof r);
    uint8_t any = 0;
    for (int k = 0; k < kByNumber; ++k) {
      a[k] = static_cast<uint8_t>(t[k] + v[k] + r[k]);
      any |= r[k];
    }
    std::memcpy(in.avail[c], a, sizeof a);
    rack_tiles |= any != 0;
  }
  // Does a tile (c, n) fit some meld with `jokers` free jokers, the other slots taken by tiles available?
  auto fits_with = [&](int c, int n, int jokers) {
    int others = 0;
    for (int x = 0; x < C; ++x) others += (x != c && in.avail[x][n] > 0) ? 1 : 0;
    if (std::max(3, L) <= C && 1 + others + jokers >= std::max(3, L)) return true;
    for (int s = std::max(1, n - L + 1); s <= std::min(n, N - L + 1); ++s) {
      int missing = 0;
      for (int k = s; k < s + L; ++k) missing += (k != n && in.avail[c][k] == 0) ? 1 : 0;
      if (missing <= jokers) return true;
    }
    return false;
  };
  auto fits = [&](int c, int n) { return fits_with(c, n, J); };
  // A rack tile that fits in no meld at all can never be played: drop it (unless forced, which then
  // fails on its own). Dropping one can strand another, so repeat until nothing changes.
  for (bool changed = rack_tiles; changed;) {
    changed = false;
    for (int c = 0; c < C; ++c) {
      for (int n = 1; n <= N; ++n) {
        if (in.rack[c][n] > 0 && in.rack_min[c][n] == 0 && !fits(c, n)) {
          in.avail[c][n] = static_cast<uint8_t>(in.avail[c][n] - in.rack[c][n]);
          in.rack[c][n] = 0;
          changed = true;
        }
      }
    }
  }
  // (The tables below are made from copies, for the same reason as avail.)
  uint8_t avail[kMaxColours][kByNumber + 2];
  std::memcpy(avail, in.avail, sizeof avail);
  // (the colours with a tile of each number, counted a whole row at a time)
  uint8_t colours_at[kByNumber] = {};
  for (int c = 0; c < C; ++c) {
    for (int k = 0; k < kByNumber; ++k) {
      colours_at[k] = static_cast<uint8_t>(colours_at[k] + (avail[c][k] != 0 ? 1 : 0));
    }
  }
  bool group_possible[kByNumber] = {};
  for (int n = 1; n <= N; ++n) {
    group_possible[n] = colours_at[n] > 0 && colours_at[n] + J >= std::max(3, L) && std::max(3, L) <= C;
  }
  std::memcpy(in.group_possible, group_possible, sizeof group_possible);  // (number 0 and past N: false, as ever)
  // A joker in a run slot (c, n) needs a window of L slots around it with a numbered tile and no more
  // empty slots than there are jokers. (Each window s..s+L-1 is counted once: the numbers it holds are marked in
  // `if_empty` when it has room for the joker at an empty slot, in `if_tile` when also at a slot with a tile, which
  // the joker then takes: one more missing slot.)
  for (int c = 0; c < C && J > 0; ++c) {  // (without jokers it is never asked)
    int empty[kByNumber] = {}, real[kByNumber] = {};  // numbers up to k without a tile; numbered tiles up to k
    for (int k = 1; k <= N; ++k) {
      empty[k] = empty[k - 1] + (avail[c][k] == 0 ? 1 : 0);
      real[k] = real[k - 1] + in.table[c][k] + in.rack[c][k];
    }
    uint32_t if_empty = 0, if_tile = 0;
    const uint32_t window = (uint32_t{1} << L) - 1;
    for (int s = 1; s <= N - L + 1; ++s) {
      const int e = s + L - 1;
      if (real[e] - real[s - 1] <= 0) continue;
      const int missing = empty[e] - empty[s - 1];
      if (missing <= J) if_empty |= window << s;
      if (missing + 1 <= J) if_tile |= window << s;
    }
    bool fits_here[kByNumber] = {};
    for (int n = 1; n <= N; ++n) fits_here[n] = (((avail[c][n] != 0 ? if_tile : if_empty) >> n) & 1) != 0;
    std::memcpy(in.joker_fits[c], fits_here, sizeof fits_here);  // (number 0 and past N: false, as ever)
  }
  for (int c = 0; c < C; ++c) {
    uint8_t gaps[kByNumber] = {};
    for (int n = N - 1; n >= 0; --n) gaps[n] = static_cast<uint8_t>(gaps[n + 1] + (avail[c][n + 1] == 0 ? 1 : 0));
    std::memcpy(in.gaps_after[c], gaps, sizeof gaps);  // (past N: 0, as ever)
  }
  // (Input::rack_gap, from the last number down: the jokers to the next rack tile of the colour.)
  for (int c = 0; c < C && in.mode.retrieval_rule; ++c) {
    uint8_t to_rack[kByNumber] = {};
    to_rack[N] = kNoRackTile;
    for (int n = N - 1; n >= 0; --n) {
      const int k = n + 1;
      if (in.rack[c][k] > 0) {
        to_rack[n] = 0;
      } else if (avail[c][k] != 0 || to_rack[k] == kNoRackTile) {
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
    int below = INT_MAX, above = INT_MAX;
    for (int k = 1; k < L; ++k) {
      below = std::min(below, at(n - k));
      above = std::min(above, at(n + k));
    }
    const int runs = std::min(at(n + 1) + below, at(n - 1) + above);
    // k groups holding a copy each need k (G - 1) other members, one of each colour at most per group: at most
    // min(copies, k) of each other colour, and the jokers. (Not monotone in k: every k is tried.)
    const int G = std::max(3, L);
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
  bool needs_joker[kMaxColours][kByNumber] = {};
  int joker_tiles = 0;
  for (int c = 0; c < C && J > 0; ++c) {
    for (int n = 1; n <= N; ++n) {
      needs_joker[c][n] = in.rack[c][n] > 0 && !fits_with(c, n, 0);
      joker_tiles += needs_joker[c][n] ? in.rack[c][n] : 0;
    }
  }
  int per_meld = 0;
  for (int n = 1; n <= N && joker_tiles > 0; ++n) {
    int colours = 0;
    for (int c = 0; c < C; ++c) colours += needs_joker[c][n] ? 1 : 0;
    per_meld = std::max(per_meld, colours);
  }
  for (int c = 0; c < C && joker_tiles > 0; ++c) {
    for (int s = 1; s <= N; ++s) {
      int gaps = 0, held = 0;
      for (int e = s; e <= N; ++e) {
        gaps += in.avail[c][e] == 0 ? 1 : 0;
        if (gaps > J) break;
        held += needs_joker[c][e] ? 1 : 0;
        if (e - s + 1 >= L) per_meld = std::max(per_meld, held);
      }
    }
  }
  const int joker_most = std::min(joker_tiles, J * per_meld);
  int64_t heavy[kMaxColours * kByNumber * kMaxCount];  // the weights of such tiles after pos, heaviest first
  int nheavy = 0;
  int64_t heavy_sum = 0, plain = 0;  // the joker_most heaviest of them; the other tiles after pos
  for (int pos = N * C - 1; pos >= 0; --pos) {
    const int n = pos / C + 1, c = pos % C;
    const int copies = in.rack[c][n] > 0 && fits(c, n)
                           ? std::min<int>(in.rack[c][n], std::max(0, room(c, n) - in.table[c][n] - in.staying[c][n]))
                           : 0;
    if (needs_joker[c][n]) {
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
  }
}


// Sets the objective's weights of rack tiles and rack jokers, by number.
void set_weights(Input& in, Objective obj, int joker_penalty) {
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
  return params_ok(p) && p.copies <= 3 && p.jokers <= 4 && p.min_len <= 7;
}

}  // namespace rummikub
