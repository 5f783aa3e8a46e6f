// The search on positions with known answers (the rules' worked examples and the package's doctests):
// arrange, solve (every objective's basics, the opening, joker retrieval), all_plays and the node limit.
#include <vector>

#include "catch.h"
#include "notation.h"
#include "rummikub/search.h"

using namespace rummikub;
using namespace rummikub::test;

namespace {

const SearchRules kStandard{};  // 13 numbers, 4 colours, 2 copies, 2 jokers; opening 30; jokers replaced

TileSet table_tiles(const std::vector<Meld>& table) {
  TileSet all;
  for (const Meld& m : table) all = sum(all, m.tiles());
  return all;
}

// The invariants of every play: valid melds holding exactly the old table plus the played tiles.
void check_play(const std::vector<Meld>& before, const TileSet& rack, const PlayResult& play,
                const Params& p = Params{}) {
  for (const Meld& m : play.table) CHECK(check_meld(m, p) == MeldError::Ok);
  CHECK(contains(rack, play.played));
  CHECK(table_tiles(play.table) == sum(table_tiles(before), play.played));
  CHECK(play.tiles == play.played.size());
}

}  // namespace

TEST_CASE("the search supports up to 3 copies, 4 jokers and sets of 7", "[search]") {
  CHECK(search_supported(Params{}));
  CHECK(search_supported(Params{13, 4, 3, 4, 3}));
  CHECK_FALSE(search_supported(Params{13, 4, 4, 2, 3}));
  CHECK_FALSE(search_supported(Params{13, 4, 2, 5, 3}));
  CHECK_FALSE(search_supported(Params{13, 4, 2, 2, 8}));
}

TEST_CASE("arrange partitions every tile or says none exists", "[search][arrange]") {
  std::vector<Meld> out;
  SearchStats stats;
  REQUIRE(arrange(tiles("R1 R2 R3 R4 K4 B4"), Params{}, out, &stats));
  CHECK(out.size() == 2);
  CHECK(table_tiles(out) == tiles("R1 R2 R3 R4 K4 B4"));
  for (const Meld& m : out) CHECK(check_meld(m, Params{}) == MeldError::Ok);
  CHECK(stats.states > 0);
  out.clear();
  CHECK(arrange(tiles("K1 K2 K3 J"), Params{}, out, nullptr));
  CHECK(out.size() == 1);
  out.clear();
  CHECK_FALSE(arrange(tiles("K1 K2"), Params{}, out, nullptr));
  CHECK_FALSE(arrange(tiles("K1 K2 K3 K5"), Params{}, out, nullptr));
  out.clear();
  CHECK(arrange(TileSet{}, Params{}, out, nullptr));  // nothing to place: the empty partition
  CHECK(out.empty());
}

TEST_CASE("solve extends the table with the most rack tiles", "[search][solve]") {
  const std::vector<Meld> before = table("R1 R2 R3");
  const TileSet rack = tiles("R4 R5 K9");
  PlayResult play;
  SearchStats stats;
  REQUIRE(solve(before, rack, kStandard, true, Objective::Tiles, play, &stats));
  CHECK(play.played == tiles("R4 R5"));
  CHECK(play.value == 9);
  check_play(before, rack, play);
  CHECK(stats.runs >= 1);
  CHECK(stats.limited == 0);
}

TEST_CASE("a table joker is retrieved when the tile it stands for replaces it", "[search][solve][joker]") {
  const std::vector<Meld> before = table("K5 B5 O5 J");  // the joker stands for R5
  PlayResult play;
  REQUIRE(solve(before, tiles("K1 K2 R5"), kStandard, true, Objective::Tiles, play, nullptr));
  CHECK(play.played == tiles("K1 K2 R5"));  // R5 frees the joker, which completes K1 K2 J
  check_play(before, tiles("K1 K2 R5"), play);
  CHECK_FALSE(solve(before, tiles("K1 K2"), kStandard, true, Objective::Tiles, play, nullptr));
}

TEST_CASE("the opening counts only the player's own sets against the threshold", "[search][solve][opening]") {
  PlayResult play;
  REQUIRE(solve({}, tiles("R10 R11 R12 K1"), kStandard, false, Objective::Tiles, play, nullptr));
  CHECK(play.played == tiles("R10 R11 R12"));
  CHECK(play.value == 33);
  CHECK_FALSE(solve({}, tiles("K9 B9 O9"), kStandard, false, Objective::Tiles, play, nullptr));  // 27 < 30
  // Before opening, the table may not be touched: R4 cannot extend R1 R2 R3.
  CHECK_FALSE(solve(table("R1 R2 R3"), tiles("R4 K9"), kStandard, false, Objective::Tiles, play, nullptr));
}

TEST_CASE("the value objective prefers face value to tile count", "[search][solve]") {
  const TileSet rack = tiles("K1 K2 K3 K4 R13 B13 O13");
  PlayResult by_tiles, by_value;
  REQUIRE(solve({}, rack, kStandard, true, Objective::Tiles, by_tiles, nullptr));
  REQUIRE(solve({}, rack, kStandard, true, Objective::Value, by_value, nullptr));
  CHECK(by_tiles.tiles == 7);
  CHECK(by_value.value == 1 + 2 + 3 + 4 + 39);
}

TEST_CASE("solve_tiles agrees with solve when the table holds no joker", "[search][solve]") {
  const std::vector<Meld> before = table("R1 R2 R3 | K7 B7 O7");
  const TileSet rack = tiles("R4 R7 K1 K2 K3 B9");
  PlayResult a, b;
  REQUIRE(solve(before, rack, kStandard, true, Objective::Tiles, a, nullptr));
  REQUIRE(solve_tiles(table_tiles(before), rack, kStandard, true, Objective::Tiles, b, nullptr));
  CHECK(a.played == b.played);
  CHECK(a.key == b.key);
  CHECK(a.played == tiles("R4 R7 K1 K2 K3"));
}

TEST_CASE("all_plays lists every distinct play, best first", "[search][plays]") {
  PlayEnumeration plays;
  SearchStats stats;
  REQUIRE(all_plays(table("R1 R2 R3"), tiles("R4 R5 K9"), kStandard, true, plays, &stats) == PlaysStatus::Ok);
  REQUIRE(plays.size() == 2);
  CHECK(plays.played(0) == tiles("R4 R5"));
  CHECK(plays.played(1) == tiles("R4"));
  check_play(table("R1 R2 R3"), tiles("R4 R5 K9"), plays.at(0));
  check_play(table("R1 R2 R3"), tiles("R4 R5 K9"), plays.at(1));

  PlayEnumeration group;
  REQUIRE(all_plays(table("K5 B5 O5"), tiles("R5 J"), kStandard, true, group, nullptr) == PlaysStatus::Ok);
  CHECK(group.size() == 2);  // R5 or J completes the group; not both (five tiles)

  PlayEnumeration none;
  REQUIRE(all_plays(table("R1 R2 R3"), tiles("K9"), kStandard, true, none, nullptr) == PlaysStatus::Ok);
  CHECK(none.size() == 0);
}

TEST_CASE("a search past its node limit stops and says so", "[search][limit]") {
  const std::vector<Meld> before = table("R1 R2 R3 | K4 K5 K6 | B7 O7 R7 | O10 O11 O12 O13");
  const TileSet rack = tiles("R4 R5 R6 K7 K8 B1 B2 B3 O1 O2 J");
  PlayResult play;
  SearchStats limited;
  CHECK_FALSE(solve(before, rack, kStandard, true, Objective::Tiles, play, &limited, 1));
  CHECK(limited.limited == 1);
  SearchStats free_run;
  REQUIRE(solve(before, rack, kStandard, true, Objective::Tiles, play, &free_run));
  CHECK(free_run.limited == 0);
  check_play(before, rack, play);
  PlayEnumeration plays;
  CHECK(all_plays(before, rack, kStandard, true, plays, nullptr, 1) == PlaysStatus::TooMany);
}
