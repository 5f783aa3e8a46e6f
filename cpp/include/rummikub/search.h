// The exact search: partition a multiset into melds, the best legal play, and every legal play.
//
// The contract (what is legal, what each objective maximises) is docs/search-semantics.md.
//
// How it works (docs/search.md; the code is in cpp/src/search/): a dynamic programme sweeps the numbers 1..N and,
// within a number, the colours; its state holds each colour's open runs, the tiles promised to groups and a few
// counts. Table jokers under the `replace` policies are decided outside it (one programme run per option), and
// the runs are searched with a floor under the best reachable score, lowered until a legal end appears.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rummikub/meld.h"
#include "rummikub/tiles.h"

namespace rummikub {

enum class Objective : uint8_t { Tiles = 0, Value = 1, Penalty = 2 };
enum class JokerPolicy : uint8_t { Free = 0, Replace = 1, ReplaceFromRack = 2 };

// The rules the search needs: tile parameters plus the turn variants of docs/rules.md §6 and §8.
struct SearchRules {
  Params p;
  int opening_threshold = 30;
  bool joker_in_opening = true;
  bool extend_after_opening = false;
  JokerPolicy policy = JokerPolicy::Replace;
  int joker_penalty = 30;
};

// Deterministic work counters, for benchmarks and regression guards.
struct SearchStats {
  uint64_t states = 0;       // programme states created
  uint64_t transitions = 0;  // state-to-state moves evaluated
  uint64_t runs = 0;         // programme runs (one per joker option / opening subset)
  uint64_t limited = 0;      // 1 when a run passed its node limit (the answer is then unknown)
};

// One legal play: the rack tiles placed and the whole new table.
struct PlayResult {
  TileSet played;
  std::vector<Meld> table;
  int64_t key = 0;  // the objective's lexicographic key, packed (higher is better)
  int tiles = 0;    // rack tiles placed
  int value = 0;    // value(P) of the contract: numbers, jokers at what they stand for
};

// Returns true when the parameters are within what the search handles (copies <= 3, jokers <= 4,
// min_len <= 7 on top of params_ok).
bool search_supported(const Params& p);

// The memory a node limit stands for: a search may hold this many bytes of layers (nodes, their index, the
// dominance buckets and the room kept in reserve) for each node of its limit, and stops past either bound.
constexpr std::size_t kSearchBytesPerNode = 256;

// Partitions all of `tiles` into valid melds; returns false when no partition exists. With node_limit > 0, a
// search holding more nodes than that (or their bytes, see solve) stops: false, with stats->limited set.
bool arrange(const TileSet& tiles, const Params& p, std::vector<Meld>& out, SearchStats* stats,
             std::size_t node_limit = 0);
// The paths to the last legal ends can_arrange found with it (up to 16 of each direction it searches), which a later
// search of a similar multiset, the same way, tries first, step by step. Only the order of the search changes, never
// its answer, but the states it counts depend on what the guides hold. (Threads may share them: a search holds them
// while it runs, so searches sharing one object wait for each other.)
class ArrangeGuides {
 public:
  struct Impl;
  ArrangeGuides();
  ArrangeGuides(ArrangeGuides&&) noexcept;
  ArrangeGuides& operator=(ArrangeGuides&&) noexcept;
  ~ArrangeGuides();
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Whether all of `tiles` split into valid melds: arrange's answer (the same search, the same counters) without
// rebuilding the melds. With `guides`, the search tries first the steps of the nearest path they hold, and a legal
// end it finds joins them.
bool can_arrange(const TileSet& tiles, const Params& p, SearchStats* stats, std::size_t node_limit = 0,
                 ArrangeGuides* guides = nullptr);
// Whether a table's tiles and a rack's split into valid melds together: can_arrange of their sum, the same answer.
// When the rack's tiles lie higher than the table's, the search goes down the numbers from the top (the states it
// counts differ; guides keep the paths of each direction apart).
bool can_arrange(const TileSet& table, const TileSet& rack, const Params& p, SearchStats* stats,
                 std::size_t node_limit = 0, ArrangeGuides* guides = nullptr);

// Finds the best legal play; returns false when no rack tile can be played. With node_limit > 0, a
// programme run holding more nodes than that, or more than 256 bytes of layers a node of the limit, stops the
// search: false, with stats->limited set.
bool solve(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
           Objective objective, PlayResult& out, SearchStats* stats, std::size_t node_limit = 0);

// The best play when the table is known only as a multiset (the batch entry point): its jokers are
// treated as free (as under the `free` policy), and on an untouched-table opening `out.table` holds only
// the new melds.
bool solve_tiles(const TileSet& table_tiles, const TileSet& rack, const SearchRules& rules, bool opened,
                 Objective objective, PlayResult& out, SearchStats* stats, std::size_t node_limit = 0);

enum class PlaysStatus : uint8_t { Ok = 0, BadPosition, RackTooLarge, TooMany };

// Every distinct legal play of a position, as all_plays lists them. The played tiles and key of each play
// are known at once; its arrangement (the new table and value) is found when first asked for, by solving the
// position with the play's tiles as the rack (the best play of those places all of them, with the key listed).
// The list holds only the plays, not the search. Not for two threads at once.
class PlayEnumeration {
 public:
  struct Impl;  // defined with the search
  PlayEnumeration();
  explicit PlayEnumeration(std::unique_ptr<Impl> impl);
  PlayEnumeration(PlayEnumeration&&) noexcept;
  PlayEnumeration& operator=(PlayEnumeration&&) noexcept;
  ~PlayEnumeration();

  std::size_t size() const;
  // The rack tiles play i places.
  const TileSet& played(std::size_t i) const;
  // The key (the `tiles` objective's score) of play i.
  std::int64_t key(std::size_t i) const;
  // The whole play i (its table and value built on first request). i < size().
  const PlayResult& at(std::size_t i);

 private:
  std::unique_ptr<Impl> impl_;
};

// Every distinct legal play (distinct multiset of rack tiles), each with one arrangement, best first
// by the `tiles` objective key, then canonical order of the played tiles. Needs at most 64 numbered
// rack tiles; with node_limit > 0, gives up (TooMany) once the programmes hold more nodes than that.
PlaysStatus all_plays(const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
                      PlayEnumeration& out, SearchStats* stats, std::size_t node_limit = 0);

}  // namespace rummikub
