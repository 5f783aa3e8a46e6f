// Tile codes and tile multisets: counts, sum, difference, containment, intersection, value, the rule set's tiles.
#include "catch.h"
#include "notation.h"

using namespace rummikub;
using namespace rummikub::test;

TEST_CASE("tile codes name a colour and a number", "[tiles]") {
  CHECK(tile_code(0, 1) == 0);
  CHECK(tile_code(3, 13) == 3 * 16 + 12);
  CHECK(tile_colour(tile_code(2, 7)) == 2);
  CHECK(tile_number(tile_code(2, 7)) == 7);
  const Params standard;
  CHECK(tile_ok(tile_code(3, 13), standard));
  CHECK_FALSE(tile_ok(tile_code(3, 14), standard));  // R14 is not in the 13-number game
  CHECK(tile_ok(kJoker, standard));
  CHECK_FALSE(tile_ok(-1, standard));
  CHECK_FALSE(tile_ok(kJoker + 1, standard));
}

TEST_CASE("a multiset counts each tile and the jokers", "[tiles]") {
  const TileSet s = tiles("R1 R1 K13 J J");
  CHECK(s.count(tile_code(3, 1)) == 2);
  CHECK(s.count(tile_code(0, 13)) == 1);
  CHECK(s.count(tile_code(1, 5)) == 0);
  CHECK(s.count(kJoker) == 2);
  CHECK(s.size() == 5);
  CHECK(s.max_count() == 2);
  CHECK_FALSE(s.empty());
  CHECK(TileSet{}.empty());
  CHECK(TileSet{}.size() == 0);
}

TEST_CASE("sum, difference and containment are multiset operations", "[tiles]") {
  const TileSet a = tiles("R1 R1 B7 J"), b = tiles("R1 B7");
  REQUIRE(contains(a, b));
  CHECK_FALSE(contains(b, a));
  CHECK(difference(a, b) == tiles("R1 J"));
  REQUIRE(sum_fits(a, b));
  CHECK(sum(a, b) == tiles("R1 R1 R1 B7 B7 J"));
  CHECK(sum(difference(a, b), b) == a);
  CHECK(intersection(a, tiles("R1 R1 R1 K2 J J")) == tiles("R1 R1 J"));
  CHECK(contains(a, TileSet{}));
  CHECK_FALSE(contains(tiles("R1"), tiles("J")));  // jokers count too
}

TEST_CASE("a count never passes seven copies", "[tiles]") {
  TileSet seven;
  seven.add(tile_code(1, 4), kMaxCount);
  CHECK(seven.count(tile_code(1, 4)) == kMaxCount);
  CHECK_FALSE(sum_fits(seven, tiles("B4")));
  CHECK(sum_fits(seven, tiles("B5")));  // the neighbour nibble is untouched
  TileSet jokers;
  jokers.add(kJoker, kMaxJokers);
  CHECK_FALSE(sum_fits(jokers, tiles("J")));
}

TEST_CASE("value sums the numbers, jokers at the value given", "[tiles]") {
  CHECK(tiles("R10 R11 J K1").value(30) == 10 + 11 + 30 + 1);
  CHECK(tiles("R10 R11 J K1").value(0) == 22);
  CHECK(tiles("K13 K13 B13 O13 R13").value(30) == 65);
  CHECK(TileSet{}.value(30) == 0);
}

TEST_CASE("the rule set's tiles bound what a position may hold", "[tiles]") {
  const Params standard;  // 13 numbers, 4 colours, 2 copies, 2 jokers
  REQUIRE(params_ok(standard));
  const TileSet full = full_set(standard);
  CHECK(full.size() == 106);
  CHECK(full.count(tile_code(3, 13)) == 2);
  CHECK(full.count(tile_code(3, 14)) == 0);
  CHECK(full.jokers == 2);
  CHECK(fits_rules(tiles("R1 R1 J J"), standard));
  CHECK_FALSE(fits_rules(tiles("R1 R1 R1"), standard));
  CHECK_FALSE(fits_rules(tiles("J J J"), standard));
  TileSet r14;
  r14.add(tile_code(3, 14));
  CHECK_FALSE(fits_rules(r14, standard));
  CHECK_FALSE(params_ok(Params{17, 4, 2, 2, 3}));
  CHECK_FALSE(params_ok(Params{13, 4, 2, 2, 14}));
  CHECK(full_set(Params{16, 4, 3, 4, 3}).size() == 16 * 4 * 3 + 4);
}

TEST_CASE("weighted_size adds each tile's weight, copies counted, jokers included", "[tiles]") {
  std::array<double, kJoker + 1> w{};
  for (int code = 0; code <= kJoker; ++code) w[static_cast<size_t>(code)] = 0.5 + code;
  CHECK(weighted_size(TileSet{}, w) == 0.0);
  CHECK(weighted_size(tiles("R1 R1 K2 J"), w) == (0.5 + tile_code(3, 1)) * 2 + (0.5 + tile_code(0, 2)) + 64.5);
}
