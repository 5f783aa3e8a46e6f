// Run words: an open run as one byte (its length, whether it holds a numbered tile, whether a free joker leads
// it, and what it holds for the joker retrieval rule), and a colour's open runs packed into one 64-bit word.
// Also the slots a meld's places are filled from and the Mode that says how runs are described in one programme.
#pragma once

#include <algorithm>
#include <cstdint>

#include "rummikub/tiles.h"

namespace rummikub::search {

// What fills one slot of a meld at a number: a table tile, a table joker that stays (a "virtual"
// tile: exactly the tile it stands for, but not a numbered tile), a rack tile, or a free joker. The free
// jokers (the rack's, the retrieved table jokers, any table joker under the `free` policy) are alike to the
// programme: which of them came from the rack follows from their count (the score) and from what their melds
// hold (the retrieval rule), never from a choice at each slot.
enum Slot : int { kTableTile = 0, kStayingJoker = 1, kRackTile = 2, kFreeJoker = 3, kSlots = 4 };

// The size of an array indexed by number (1..kMaxNumbers; index 0 unused).
constexpr int kByNumber = kMaxNumbers + 1;

// Returns true for slots that are numbered tiles.
inline bool slot_real(int s) { return s == kTableTile || s == kRackTile; }

// How open runs are described in one programme run.
struct Mode {
  int min_len = 3;              // minimum set length
  bool track_real = false;      // could a run be made of jokers only?
  bool retrieval_rule = false;  // do retrieved jokers need rack tiles in their meld?
  int rack_needed = 0;          // rack tiles (a rack joker counts) such a meld needs: 1 or 2
  bool strict = false;  // ... and no rack joker can be uncovered (see extend_run): a run leaving one never closes
  // Returns the mode packed into 9 bits (the memos' keys).
  uint32_t id() const {
    return static_cast<uint32_t>(min_len) | static_cast<uint32_t>(track_real) << 4 |
           static_cast<uint32_t>(retrieval_rule) << 5 | static_cast<uint32_t>(rack_needed) << 6 |
           static_cast<uint32_t>(strict) << 8;
  }
};

// An open run in one byte: bits 0-2 length (capped at L), bit 3 holds a numbered tile, bit 4 starts with a
// free joker ("lead"), bits 5-7 what it holds for the retrieval rule (below).
// A run whose first slot is a free joker only ends at the last number: one that ends sooner plays the same
// tiles with that joker moved past its end instead, where it stands for a higher number (so the
// programme never needs it, and leaves it out).
//
// The retrieval rule (Mode::retrieval_rule) as capacities: a meld holding R rack tiles and F free jokers can take
// t = clamp(R + F - r, 0, F) retrieved jokers (its other free jokers are rack jokers, which count as rack
// tiles), so min(F, max(0, r - R)) of its free jokers are "uncovered": they can only be rack jokers. A play is
// legal when its free jokers less its melds' uncovered ones are at least the retrieved jokers. A run's bits 5-7
// code R and s = R + F, both capped at r (s - R is then its uncovered count); the state sums the uncovered
// jokers of the melds closed so far. Once the jokers placed, less the uncovered ones of closed and open melds,
// reach the retrieved jokers, nothing later can undo it (a later joker adds one to each side at most): the runs
// are then settled fully (bits 5-7 cleared, and kept clear), so states that differ only there merge. Before
// that, once no free joker is left to place, a run with none uncovered never will have one: those runs are
// settled partly.
// Returns the free jokers of a meld with `rack` rack tiles and `jokers` free jokers that can only be rack jokers, when
// such a meld needs `rack_needed` rack tiles.
inline int meld_uncovered(int jokers, int rack, int rack_needed) {
  return std::min(jokers, std::max(0, rack_needed - rack));
}
constexpr uint8_t kRackOfCode[8] = {0, 0, 1, 0, 1, 2, 0, 0};  // R of each code
constexpr uint8_t kHeldOfCode[8] = {0, 1, 1, 2, 2, 2, 0, 0};  // s of each code
// Returns a run's length so far (capped at the minimum length).
inline int run_length(uint8_t d) { return d & 7; }
// Returns true when a run holds a numbered tile.
inline bool run_numbered(uint8_t d) { return (d >> 3) & 1; }
// Returns true when a free joker leads a run.
inline bool run_led(uint8_t d) { return (d >> 4) & 1; }
// Returns a run's retrieval code (R and s, above).
inline int run_code(uint8_t d) { return d >> 5; }
// Returns the free jokers of a run that can only be rack jokers, as things stand.
inline int run_uncovered(uint8_t d) { return kHeldOfCode[run_code(d)] - kRackOfCode[run_code(d)]; }
// Returns the descriptor of a run.
inline uint8_t make_run(int len, bool real, bool lead, int R, int s) {
  return static_cast<uint8_t>(len | (real ? 8 : 0) | (lead ? 16 : 0) | (s * (s + 1) / 2 + R) << 5);
}

// Returns the descriptor of a run after one more slot; d == 0 starts a run.
inline uint8_t extend_run(uint8_t d, int s, const Mode& m) {
  const int len = std::min(run_length(d) + 1, m.min_len);
  const bool real = m.track_real ? (run_numbered(d) || slot_real(s)) : true;
  const bool lead = d == 0 ? s == kFreeJoker : run_led(d);
  if (!m.retrieval_rule) return make_run(len, real, lead, 0, 0);
  const int R = kRackOfCode[run_code(d)] + (s == kRackTile ? 1 : 0);
  const int S = kHeldOfCode[run_code(d)] + (s == kRackTile || s == kFreeJoker ? 1 : 0);
  return make_run(len, real, lead, std::min(R, m.rack_needed), std::min(S, m.rack_needed));
}

// Returns true when a run with this descriptor may end at the last number.
inline bool can_end_last(uint8_t d, const Mode& m) {
  return run_length(d) == m.min_len && run_numbered(d) && (!m.strict || run_uncovered(d) == 0);
}
// Returns true when a run with this descriptor may end before the last number.
inline bool can_end_now(uint8_t d, const Mode& m) { return !run_led(d) && can_end_last(d, m); }

// A run that must go on past the number it just took (a demanded copy needs the number after it in its run): its
// length lowered below the minimum, so that it cannot end before it takes one more slot (after which its length is
// the true one again, capped at the minimum).
inline uint8_t pin_run(uint8_t d, const Mode& m) {
  return run_length(d) < m.min_len ? d : static_cast<uint8_t>((d & ~7) | (m.min_len - 1));
}
// A run no longer led by a free joker: at a number whose demanded copies need the number before them, a run led by a
// free joker is not moved (moving the joker past the run's end would take that number away).
inline uint8_t unlead_run(uint8_t d) { return static_cast<uint8_t>(d & ~16); }

// How far runs are settled (see above).
enum Settle : int { kOpen = 0, kPartly = 1, kFully = 2 };
// Returns a run settled as `how` says: its retrieval code cleared when settled fully, or partly with none uncovered.
inline uint8_t settle(uint8_t d, int how) {
  return how == kFully || (how == kPartly && run_uncovered(d) == 0) ? static_cast<uint8_t>(d & 0x1F) : d;
}

// A colour's open runs: up to 8 descriptors, sorted descending, packed into a word (byte 0 largest).
// Unpacks a colour's runs into d; returns how many.
inline int unpack_runs(uint64_t s, uint8_t* d) {
  int n = 0;
  while (n < 8 && ((s >> (8 * n)) & 0xFF) != 0) {
    d[n] = static_cast<uint8_t>(s >> (8 * n));
    ++n;
  }
  return n;
}
// Returns how many runs a colour's runs word holds (its runs packed into its low bytes, none 0).
constexpr uint32_t count_runs(uint64_t s) {
  return s == 0 ? 0 : static_cast<uint32_t>(71 - __builtin_clzll(s)) >> 3;
}
// Returns how many runs of a colour's runs word are at least L long. (A byte's length plus 0x80 - L carries into its
// high bit just when the length reaches L, an empty byte's never; the multiply sums those bits into the top byte.)
constexpr uint32_t count_runs_reaching(uint64_t s, int L) {
  constexpr uint64_t kLow3 = 0x0707070707070707ULL, kHigh = 0x8080808080808080ULL, kOnes = 0x0101010101010101ULL;
  return static_cast<uint32_t>(((((s & kLow3) + static_cast<uint64_t>(0x80 - L) * kOnes) & kHigh) >> 7) * kOnes >> 56);
}
// Returns the word of the runs d[0..n) (sorting them).
inline uint64_t pack_runs(uint8_t* d, int n) {
  for (int i = 1; i < n; ++i) {  // insertion sort, descending: at most 8 bytes
    const uint8_t x = d[i];
    int j = i;
    for (; j > 0 && d[j - 1] < x; --j) d[j] = d[j - 1];
    d[j] = x;
  }
  uint64_t s = 0;
  for (int i = 0; i < n; ++i) s |= static_cast<uint64_t>(d[i]) << (8 * i);
  return s;
}
// Returns what a colour's runs need ahead, for the joker lookahead (Programme::joker_deficit), packed in bytes: runs
// that cannot end at the last number, runs that cannot end sooner, runs short of two or more slots, and
// runs led by a free joker among the others (they need the slot two ahead too unless the number is the
// last but one).
inline uint32_t run_needs(uint64_t s, const Mode& m) {
  uint32_t end = 0, now = 0, two = 0, lead = 0;
  for (int j = 0; j < 8; ++j) {
    const uint8_t d = static_cast<uint8_t>(s >> (8 * j));
    if (d == 0) break;
    end += can_end_last(d, m) ? 0 : 1;
    now += can_end_now(d, m) ? 0 : 1;
    if (m.min_len - run_length(d) >= 2) {
      ++two;
    } else if (run_led(d)) {
      ++lead;
    }
    if (run_led(d)) lead |= 16;
  }
  return end | now << 8 | two << 16 | lead << 24;
}

// Returns a colour's runs settled.
inline uint64_t settle_word(uint64_t s, int how) {
  uint8_t d[16];
  const int k = unpack_runs(s, d);
  for (int j = 0; j < k; ++j) d[j] = settle(d[j], how);
  return pack_runs(d, k);
}
// Returns the uncovered free jokers of a colour's open runs.
inline int uncovered_of(uint64_t s) {
  int u = 0;
  for (; s != 0; s >>= 8) u += run_uncovered(static_cast<uint8_t>(s));
  return u;
}

}  // namespace rummikub::search
