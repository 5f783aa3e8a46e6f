// Openings: the minimal subsets of the rack that open on their own (for an opening that extends the table), and the
// opening with the table untouched, searched as a branch and bound over the melds the rack forms.
#include "opening.h"

#include <algorithm>

#include "../bits.h"
#include "programme.h"

namespace rummikub::search {
namespace {

}  // namespace

// Returns the minimal sub-multisets of the rack whose melds alone reach the opening threshold, smallest first.
std::vector<TileSet> opening_subsets(const TileSet& rack, const SearchRules& rules, SearchScratch& scratch,
                                     SearchStats* stats) {
  Input open_in = opening_input(rack, rules);
  if (!rules.joker_in_opening) open_in.rack_jokers = 0;
  set_weights(open_in, Objective::Tiles, rules.joker_penalty);
  set_usage(open_in, rack);
  prepare(open_in);
  Programme prog(open_in, scratch, stats);
  prog.run();
  std::vector<TileSet> subsets;
  for (size_t f : prog.finals()) {
    std::vector<Meld> melds;
    TileSet p1;
    int value = 0;
    prog.rebuild(f, melds, p1, value);
    subsets.push_back(p1);
  }
  std::sort(subsets.begin(), subsets.end(), [](const TileSet& a, const TileSet& b) { return a.size() < b.size(); });
  std::vector<TileSet> minimal;
  for (const TileSet& s : subsets) {
    bool dominated = false;
    for (const TileSet& m : minimal) dominated |= contains(s, m);
    if (!dominated) minimal.push_back(s);
  }
  return minimal;
}

// The opening with the table untouched: new melds from the rack alone. A rack forms few melds, so a direct
// branch and bound over them beats the programme: the lowest numbered rack tile left is either left on the
// rack (every copy of it) or placed in one of the melds it is the lowest numbered tile of (a meld holding a
// lower tile cannot fit any more). A meld may take rack jokers in any of its slots (a joker may stand in for
// a tile that is on the rack, which then stays free for another meld); a meld needs one numbered tile.
// Every set of melds is a legal play once its value reaches the threshold; the first best key found wins
// (deterministic). Returns -1 when the rack forms too many melds for this to pay (the programme decides).
int opening_search(const Input& in, const std::vector<Meld>& table, PlayResult& out, SearchScratch& scratch,
                   SearchStats* stats) {
  using Candidate = OpeningCandidate;
  constexpr size_t kMostCandidates = 4096;
  const int N = in.p.numbers, C = in.p.colours, L = in.p.min_len, G = group_min(in.p), J = in.rack_jokers;
  std::vector<Candidate>& cands = scratch.opening_candidates;  // (kept between calls: no allocation once warm)
  cands.clear();
  // The numbers of each colour some candidate holds. The input is not prepared (prepare() would drop the rack tiles
  // that fit no meld): a tile in no candidate is exactly such a tile (a tile in one fits it, and so do the others
  // there), so it is dropped here. Nor does it change the candidates: a candidate holding it would be a meld it fits.
  uint32_t held[kMaxColours] = {};
  // Runs: every window of L or more numbers, each slot a rack tile or a joker (at most J), one tile at least.
  for (int c = 0; c < C; ++c) {
    uint32_t racked = 0;  // (bit n - 1: colour c has a rack tile of number n)
    for (int n = 1; n <= N; ++n) racked |= in.rack[c][n] > 0 ? 1u << (n - 1) : 0u;
    for (int s = 1; s + L - 1 <= N; ++s) {
      for (int e = s + L - 1; e <= N; ++e) {
        // The window s..e's slots with a rack tile (a bit each), and how many are without one.
        const int len = e - s + 1;
        const uint32_t present = racked >> (s - 1) & ((1u << len) - 1);
        if (len - popcount32(present) > J) break;  // longer windows from s miss at least as many
        // Subsets of the present tiles kept as tiles (the rest of the window takes jokers).
        for (uint32_t keep = present;; keep = (keep - 1) & present) {
          const int jokers = len - popcount32(keep);
          if (keep != 0 && jokers <= J) {
            Candidate k{TileSet{}, jokers, 0, 0, Meld{MeldKind::Run, c, s, len, ~keep & ((1u << len) - 1), 0}};
            for (int i = 0; i < len; ++i) {
              const int n = s + i;
              k.value += n;
              if (keep >> i & 1) {
                k.tiles.add(tile_code(c, n));
                k.weight += in.rack_weight[n];
                k.tile_weight += in.rack_weight[n];
                k.tile_value += n;
              } else {
                k.weight += in.joker_weight[n];
              }
            }
            cands.push_back(k);
            held[c] |= keep << (s - 1);
            if (cands.size() > kMostCandidates) return -1;
          }
          if (keep == 0) break;
        }
      }
    }
  }
  if (G <= C) {  // groups: colours of one number on the rack, plus jokers, G to C tiles
    for (int n = 1; n <= N; ++n) {
      uint32_t present = 0;
      for (int c = 0; c < C; ++c) present |= in.rack[c][n] > 0 ? 1u << c : 0u;
      for (uint32_t sub = present; sub != 0; sub = (sub - 1) & present) {
        const int size = popcount32(sub);
        for (int j = std::max(0, G - size); j <= std::min(J, C - size); ++j) {
          Candidate k{TileSet{}, j, size * in.rack_weight[n] + j * in.joker_weight[n], (size + j) * n,
                      Meld{MeldKind::Group, 0, n, size + j, 0, sub}, size * in.rack_weight[n], size * n};
          for (int c = 0; c < C; ++c) {
            if (sub >> c & 1) {
              k.tiles.add(tile_code(c, n));
              held[c] |= 1u << (n - 1);
            }
          }
          cands.push_back(k);
        }
      }
    }
  }
  if (cands.size() > kMostCandidates) return -1;
  // By lowest tile, then more tiles first, then fewer jokers (good plays early make the bound bite), then the
  // higher reading (on a tie of keys, the play whose jokers stand for more).
  auto lowest = [](const Candidate& k) {
    int c = 0;
    while (k.tiles.w[c] == 0) ++c;
    return c * kMaxNumbers + __builtin_ctzll(k.tiles.w[c]) / 4;
  };
  std::stable_sort(cands.begin(), cands.end(), [&](const Candidate& x, const Candidate& y) {
    const int lx = lowest(x), ly = lowest(y);
    if (lx != ly) return lx < ly;
    if (x.meld.length != y.meld.length) return x.meld.length > y.meld.length;
    return x.jokers != y.jokers ? x.jokers < y.jokers : x.value > y.value;
  });
  uint32_t first[kCodes + 1];
  for (int t = 0, i = 0; t <= kCodes; ++t) {
    while (i < static_cast<int>(cands.size()) && lowest(cands[static_cast<size_t>(i)]) < t) ++i;
    first[t] = static_cast<uint32_t>(i);
  }
  TileSet rack;  // the rack tiles some candidate holds
  int64_t rest_weight = 0, joker_weight_max = 0;
  int rest_value = 0;
  for (int c = 0; c < C; ++c) {
    for (int n = 1; n <= N; ++n) {
      if ((held[c] >> (n - 1) & 1) == 0) continue;
      rack.add(tile_code(c, n), in.rack[c][n]);
      rest_weight += in.rack[c][n] * in.rack_weight[n];
      rest_value += in.rack[c][n] * n;
    }
  }
  for (int n = 1; n <= N; ++n) joker_weight_max = std::max(joker_weight_max, in.joker_weight[n]);
  std::vector<const Candidate*> chosen, best;
  int64_t best_key = 0;
  uint64_t nodes = 0, tries = 0;
  auto rec = [&](auto&& self, const TileSet& left, int jokers, int64_t key, int value, int64_t left_weight,
                 int left_value) -> void {
    ++nodes;
    if (value >= in.threshold && key > best_key) {
      best_key = key;
      best = chosen;
    }
    if (key + left_weight + jokers * joker_weight_max <= best_key) return;
    if (value + left_value + jokers * N < in.threshold) return;
    int c = 0;
    while (c < kMaxColours && left.w[c] == 0) ++c;
    if (c == kMaxColours) return;
    const int idx = __builtin_ctzll(left.w[c]) / 4, t = c * kMaxNumbers + idx, n = idx + 1;
    for (uint32_t i = first[t]; i < first[t + 1]; ++i) {
      const Candidate& k = cands[i];
      ++tries;
      if (k.jokers > jokers || !contains(left, k.tiles)) continue;
      chosen.push_back(&k);
      self(self, difference(left, k.tiles), jokers - k.jokers, key + k.weight, value + k.value,
           left_weight - k.tile_weight, left_value - k.tile_value);
      chosen.pop_back();
    }
    const int copies = left.count(t);
    TileSet without = left;
    without.remove(t, copies);
    self(self, without, jokers, key, value, left_weight - copies * in.rack_weight[n], left_value - copies * n);
  };
  rec(rec, rack, J, 0, 0, rest_weight, rest_value);
  if (stats != nullptr) {
    stats->states += nodes;
    stats->transitions += tries;
    ++stats->runs;
  }
  if (best.empty()) return 0;
  out = PlayResult{};
  out.table = table;
  for (const Candidate* k : best) {
    out.table.push_back(k->meld);
    out.played = sum(out.played, k->tiles);
    out.played.jokers += k->jokers;
    out.value += k->value;
  }
  out.key = best_key;
  out.tiles = out.played.size();
  return 1;
}

}  // namespace rummikub::search
