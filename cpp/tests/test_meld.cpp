// Melds: reading tile sequences as runs and groups (jokers included), checking melds built field by field,
// the best reading's value, and the meld codec's round trip.
#include <vector>

#include "catch.h"
#include "notation.h"

using namespace rummikub;
using namespace rummikub::test;

namespace {
MeldError read(const std::string& text, const Params& p = Params{}) {
  const std::vector<int> c = codes(text);
  Meld m;
  return read_meld(c.data(), static_cast<int>(c.size()), p, m);
}
}  // namespace

TEST_CASE("runs read in order, jokers in their slots", "[meld]") {
  const Meld run = meld("R5 J R7");
  CHECK(run.kind == MeldKind::Run);
  CHECK(run.colour == 3);
  CHECK(run.number == 5);
  CHECK(run.length == 3);
  CHECK(run.joker_slots == 0b010);
  CHECK(run.jokers() == 1);
  CHECK(run.value() == 18);
  CHECK(run.tiles() == tiles("R5 R7 J"));
  CHECK(run.run_slot(1) == tile_code(3, 6));  // the joker stands for R6
  const Meld up = meld("K12 K13 J");         // no K14: the joker stands below
  CHECK(up.number == 11);
  CHECK(up.joker_slots == 0b001);
  CHECK(up.value() == 11 + 12 + 13);
}

TEST_CASE("groups hold one number in distinct colours", "[meld]") {
  const Meld g = meld("K7 B7 O7");
  CHECK(g.kind == MeldKind::Group);
  CHECK(g.number == 7);
  CHECK(g.colours == 0b0111);
  CHECK(g.value() == 21);
  const Meld gj = meld("K9 B9 J");
  CHECK(gj.kind == MeldKind::Group);
  CHECK(gj.jokers() == 1);
  CHECK(gj.tiles() == tiles("K9 B9 J"));
  CHECK(gj.value() == 27);
}

TEST_CASE("invalid sequences say why", "[meld]") {
  CHECK(read("R1 R2") == MeldError::TooShort);
  CHECK(read("K7 K7 B7") == MeldError::DuplicateColour);
  CHECK(read("R12 R13 R1") == MeldError::Wrap);
  CHECK(read("R1 R2 R4") == MeldError::Gap);
  CHECK(read("R1 B2 O3") == MeldError::Mixed);
  CHECK(read("J J J") == MeldError::NoNumberedTile);
  CHECK(read("K7 B7 O7 R7 J") == MeldError::TooLong);
  CHECK(read("R1 R1 R2") == MeldError::RepeatedNumber);
  CHECK(read("R1 R2 R3 R4") == MeldError::Ok);
  CHECK(read("R1 R2", Params{13, 4, 2, 2, 2}) == MeldError::Ok);  // min_len 2
}

TEST_CASE("check_meld refuses fields outside the rule set without overflowing", "[meld]") {
  const Params p;
  CHECK(check_meld(Meld{MeldKind::Run, 0, 1, 3, 0, 0}, p) == MeldError::Ok);
  CHECK(check_meld(Meld{MeldKind::Run, 0, 12, 3, 0, 0}, p) == MeldError::OutOfRange);  // K12 K13 K14
  CHECK(check_meld(Meld{MeldKind::Run, 0, 2147483643, 10, 0, 0}, p) == MeldError::OutOfRange);
  CHECK(check_meld(Meld{MeldKind::Run, 0, -2147483647, 10, 0, 0}, p) == MeldError::OutOfRange);
  CHECK(check_meld(Meld{MeldKind::Run, 4, 1, 3, 0, 0}, p) == MeldError::BadTile);
  CHECK(check_meld(Meld{MeldKind::Run, 0, 1, 3, 0b111, 0}, p) == MeldError::NoNumberedTile);
  CHECK(check_meld(Meld{MeldKind::Run, 0, 1, 3, 0b1000, 0}, p) == MeldError::OutOfRange);
  CHECK(check_meld(Meld{MeldKind::Group, 0, 7, 3, 0, 0b0011}, p) == MeldError::Ok);
  CHECK(check_meld(Meld{MeldKind::Group, 0, 7, 5, 0, 0b1111}, p) == MeldError::TooLong);
  CHECK(check_meld(Meld{MeldKind::Group, 0, 7, 3, 0, 0}, p) == MeldError::NoNumberedTile);
  CHECK(check_meld(Meld{MeldKind::Group, 0, 14, 3, 0, 0b0111}, p) == MeldError::BadTile);
}

TEST_CASE("the best reading counts a joker where it is worth most", "[meld]") {
  const Params p;
  CHECK(best_meld_value(tiles("R8 R9 J"), p) == 27);   // J is R10, not R7
  CHECK(best_meld_value(tiles("K13 J J"), p) == 39);   // the group of 13s (39) beats the run 11-12-13 (36)
  CHECK(best_meld_value(tiles("R1 R2"), p) == -1);
  CHECK(best_meld_value(tiles("K7 B7 O7 R7"), p) == 28);
}

TEST_CASE("every meld of the widest rules has a code that reads back to it", "[meld][codec]") {
  const Params wide{kMaxNumbers, kMaxColours, 2, 2, 2};
  int seen = 0;
  for (int colour = 0; colour < kMaxColours; ++colour) {
    for (int length = 2; length <= kMaxNumbers; ++length) {
      for (int start = 1; start + length - 1 <= kMaxNumbers; ++start) {
        for (uint32_t slots : {0u, 1u, 1u << (length - 1), 0b10u}) {
          const Meld m{MeldKind::Run, colour, start, length, slots, 0};
          if (check_meld(m, wide) != MeldError::Ok) continue;
          REQUIRE(meld_codable(m));
          const int64_t code = meld_code(m);
          CHECK(code >= 0);
          CHECK(code < kMeldCodeLimit);
          Meld back;
          REQUIRE(meld_of_code(code, back));
          CHECK(back == m);
          ++seen;
        }
      }
    }
  }
  for (int number = 1; number <= kMaxNumbers; ++number) {
    for (uint32_t colours = 1; colours < 16; ++colours) {
      for (int length = 3; length <= 4; ++length) {
        const Meld g{MeldKind::Group, 0, number, length, 0, colours};
        if (check_meld(g, wide) != MeldError::Ok) continue;
        Meld back;
        REQUIRE(meld_of_code(meld_code(g), back));
        CHECK(back == g);
        ++seen;
      }
    }
  }
  CHECK(seen > 1000);
}

TEST_CASE("codes of no meld are refused", "[meld][codec]") {
  Meld out;
  CHECK_FALSE(meld_of_code(-1, out));
  CHECK_FALSE(meld_of_code(kMeldCodeLimit, out));
  CHECK_FALSE(meld_of_code(int64_t{1} << 40, out));
  CHECK_FALSE(meld_of_code((int64_t{31} << 20) | (int64_t{31} << 25) | (int64_t{3} << 30), out));  // 31 long from 31
  CHECK_FALSE(meld_of_code((int64_t{0xF} << 16) | (int64_t{5} << 25) | (int64_t{1} << 32), out));  // group of length 0
  CHECK_FALSE(meld_codable(Meld{MeldKind::Run, 0, 1, 3, 0, 0b1}));  // a run with group colours
}
