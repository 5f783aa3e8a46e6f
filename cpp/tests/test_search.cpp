// The search on positions with known answers (the rules' worked examples and the package's doctests):
// arrange, solve (every objective's basics, the opening, joker retrieval), all_plays and the node limit.
#include <algorithm>
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

TEST_CASE("can_arrange with guides gives the answers without them, in fewer states once guided", "[search][arrange]") {
  // A table and racks that differ by a tile or two, as the hard bot's threat checks: each answer is the plain
  // search's; the second check of the same tiles follows the path the first found, one state a step.
  const TileSet table = tiles("R1 R2 R3 R4 B4 K4 O4 B5 B6 B7 K8 K9 K10 K11 R9 B9 O9 J R11 R12 R13 B13 K13 O13");
  const char* racks[] = {"R5", "R10", "K12", "O8", "O1 B11 K2", "R5 R6", "B8 J", "K7", "B2 O12 O6", "O1"};
  ArrangeGuides guides;
  int found = 0;
  for (const char* rack : racks) {
    const TileSet all = sum(table, tiles(rack));
    SearchStats plain, guided;
    const bool want = can_arrange(all, Params{}, &plain);
    CHECK(can_arrange(all, Params{}, &guided, 0, &guides) == want);
    found += want ? 1 : 0;
  }
  CHECK(found > 0);
  CHECK(found < 10);
  const TileSet all = sum(table, tiles("R5"));
  SearchStats again;
  REQUIRE(can_arrange(all, Params{}, &again, 0, &guides));
  CHECK(again.states == 65);  // 13 numbers of 4 colour steps and a group step, no step taken back
  // Guides of other rules are not read (the paths differ in length), and the answers stay the plain ones.
  const Params small{10, 4, 2, 2, 3};
  SearchStats other;
  CHECK(can_arrange(tiles("R1 R2 R3 B7 K7 O7"), small, &other, 0, &guides));
  CHECK_FALSE(can_arrange(tiles("R1 R2 R3 B7 K7"), small, &other, 0, &guides));
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

TEST_CASE("a rack lying high is searched from the top number down, and its play read back", "[search][solve]") {
  // The rack's numbers (and the table joker's, K12) lie above the table's tiles': the search reads every number n as
  // 14 - n (sweep_down in deepening.cpp); the play comes back in the position's numbers, the joker in its slot,
  // the value counted as the position's, the melds in the order a sweep up closes them.
  const std::vector<Meld> before = table("K11 J K13 | B5 O5 R5");
  const TileSet rack = tiles("K10 B12 O12 R12");
  PlayResult play;
  REQUIRE(solve(before, rack, kStandard, true, Objective::Tiles, play, nullptr));
  CHECK(play.played == rack);
  CHECK(play.value == 10 + 3 * 12);
  CHECK(play.table == table("B5 O5 R5 | B12 O12 R12 | K10 K11 J K13"));
  check_play(before, rack, play);
  PlayResult by_tiles;
  REQUIRE(solve_tiles(table_tiles(before), rack, kStandard, true, Objective::Tiles, by_tiles, nullptr));
  CHECK(by_tiles.played == rack);
  CHECK(by_tiles.key == play.key);
}

TEST_CASE("a table joker is retrieved when the tile it stands for replaces it", "[search][solve][joker]") {
  const std::vector<Meld> before = table("K5 B5 O5 J");  // the joker stands for R5
  PlayResult play;
  REQUIRE(solve(before, tiles("K1 K2 R5"), kStandard, true, Objective::Tiles, play, nullptr));
  CHECK(play.played == tiles("K1 K2 R5"));  // R5 frees the joker, which completes K1 K2 J
  check_play(before, tiles("K1 K2 R5"), play);
  CHECK_FALSE(solve(before, tiles("K1 K2"), kStandard, true, Objective::Tiles, play, nullptr));
}

TEST_CASE("a table joker stays or is replaced only in its home set", "[search][solve][joker]") {
  SearchRules sabra = kStandard;  // the sabra preset's joker rules
  sabra.policy = JokerPolicy::ReplaceFromRack;
  sabra.joker_in_opening = false;
  sabra.extend_after_opening = true;
  SearchRules extend = kStandard;
  extend.extend_after_opening = true;
  PlayResult play;
  // The joker (R9) would leave its group of 9s for R10 R11 with no R9 replacing it: nothing can be played.
  CHECK_FALSE(solve(table("K9 B9 O9 J"), tiles("R10 R11"), kStandard, true, Objective::Tiles, play, nullptr));
  // The joker of a group stands for B3 or K3, and no K3 or B3 replaces it: J K4 cannot take it.
  CHECK_FALSE(solve(table("B3 O3 R3 J"), tiles("J K4"), kStandard, true, Objective::Tiles, play, nullptr));
  // The replacing B10 would sit in a run, not in the group the joker left.
  CHECK_FALSE(solve(table("K10 O10 R10 J"), tiles("B10 B11"), kStandard, true, Objective::Tiles, play, nullptr));
  // The R7 that could replace the R7 joker is the run's own, not in the 7s group.
  CHECK_FALSE(solve(table("K7 B7 O7 J | R5 R6 R7"), tiles("K1 K2"), kStandard, true, Objective::Tiles, play,
                    nullptr));
  // Sabra: the freed joker's set needs two rack tiles, and an O11 can replace only in a group of 11s.
  CHECK_FALSE(solve(table("K11 R11 J J"), tiles("O11 O11"), sabra, true, Objective::Tiles, play, nullptr));
  // Not opened: the joker stays, so R10 R11 R12 open on their own.
  for (const SearchRules& rules : {extend, sabra}) {
    REQUIRE(solve(table("K9 B9 O9 J"), tiles("R10 R11 R12"), rules, false, Objective::Tiles, play, nullptr));
    CHECK(play.played == tiles("R10 R11 R12"));
    CHECK(std::find(play.table.begin(), play.table.end(), meld("K9 B9 O9 J")) != play.table.end());
  }
  // B4 replaces the group's joker, but the freed joker's run would hold no rack tile: only B4 on the run.
  const std::vector<Meld> split = table("K4 B4 O4 J | B5 B6 B7");
  REQUIRE(solve(split, tiles("B4"), kStandard, true, Objective::Tiles, play, nullptr));
  CHECK(play.played == tiles("B4"));
  CHECK(std::find(play.table.begin(), play.table.end(), meld("K4 B4 O4 J")) != play.table.end());
  // A joker at the low end of its run stays only while the number after it follows in its run.
  REQUIRE(solve(table("J R7 R8 R9"), tiles("R4 R5"), kStandard, true, Objective::Tiles, play, nullptr));
  CHECK(play.table == table("R4 R5 J R7 R8 R9"));
  // At the high end, R8 replaces the joker beside R7 and the freed joker joins K1 K2.
  REQUIRE(solve(table("R5 R6 R7 J"), tiles("R8 K1 K2"), kStandard, true, Objective::Tiles, play, nullptr));
  CHECK(play.played == tiles("R8 K1 K2"));
  check_play(table("R5 R6 R7 J"), tiles("R8 K1 K2"), play);
}

TEST_CASE("a group's staying joker reads a colour its new group leaves free", "[search][solve][joker]") {
  // The joker of K9 B9 J stands for O9 or R9. On an opening that extends the table every joker stays: with O9
  // played into its group, the joker must read R9 (no R9 is anywhere, so that reading is the one searched).
  SearchRules extend = kStandard;
  extend.extend_after_opening = true;
  PlayResult play;
  REQUIRE(solve(table("K9 B9 J"), tiles("O9 K10 K11 K12"), extend, false, Objective::Tiles, play, nullptr));
  CHECK(play.played == tiles("O9 K10 K11 K12"));
  check_play(table("K9 B9 J"), tiles("O9 K10 K11 K12"), play);
  // With an R9 on the rack too, either reading can fail, and each is searched: R9 or O9 joins the group.
  REQUIRE(solve(table("K9 B9 J"), tiles("O9 R9 K10 K11 K12"), extend, false, Objective::Tiles, play, nullptr));
  CHECK(play.played.size() == 4);
  check_play(table("K9 B9 J"), tiles("O9 R9 K10 K11 K12"), play);
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

TEST_CASE("all_plays' plays on a table with a joker are valid with their keys, the first the best", "[search][plays]") {
  // (The first play comes built with the list, from the listing's own search; the others are built when read.)
  const std::vector<Meld> before = table("R5 R6 R7 J | K1 K2 K3 | B9 O9 K9");
  const TileSet rack = tiles("R8 R9 K4 B4 O4 R4 O10 O11");
  PlayEnumeration plays;
  REQUIRE(all_plays(before, rack, kStandard, true, plays, nullptr) == PlaysStatus::Ok);
  REQUIRE(plays.size() > 2);
  for (size_t i = 0; i < plays.size(); ++i) {
    const int64_t key = plays.key(i);
    const PlayResult& play = plays.at(i);
    check_play(before, rack, play);
    CHECK(play.key == key);
    CHECK(play.played == plays.played(i));
    if (i > 0) CHECK(plays.key(i - 1) >= key);
  }
  PlayResult best;
  REQUIRE(solve(before, rack, kStandard, true, Objective::Tiles, best, nullptr));
  CHECK(best.key == plays.key(0));
  CHECK(best.played.size() == plays.played(0).size());
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
