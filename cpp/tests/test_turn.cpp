// The quick legality check of a committed turn: it accepts the common legal turns (new sets, extended sets,
// jokers that stay or are taken by the rule, openings) and answers "cannot tell" for every refusal and for the
// joker moves its greedy witness cannot prove, which the exhaustive check then decides.
#include <string>
#include <vector>

#include "catch.h"
#include "notation.h"
#include "rummikub/turn.h"

using namespace rummikub;
using namespace rummikub::test;

namespace {

SearchRules rules_with(JokerPolicy policy) {
  SearchRules r;
  r.policy = policy;
  return r;
}

// Does the quick check answer (find the turn legal)? False: it cannot tell.
bool answers(const std::string& before, const std::string& rack, const std::string& after,
             const SearchRules& r = SearchRules{}, bool opened = true) {
  TileSet played;
  return fast_turn(table(before), tiles(rack), table(after), r, opened, played);
}

// Does the quick check find the turn legal, playing exactly `expected`?

bool played_is(const std::string& before, const std::string& rack, const std::string& after,
               const std::string& expected, const SearchRules& r = SearchRules{}, bool opened = true) {
  TileSet played;
  return fast_turn(table(before), tiles(rack), table(after), r, opened, played) && played == tiles(expected);
}

}  // namespace

TEST_CASE("plain plays: new sets and extended sets, the table's sets in any order", "[turn]") {
  CHECK(played_is("R5 J R7", "R8 K1", "R5 J R7 R8", "R8"));
  CHECK(played_is("K9 B9 O9 | R1 R2 R3", "R4 B1 B2 B3", "R1 R2 R3 R4 | B1 B2 B3 | K9 B9 O9", "R4 B1 B2 B3"));
  // a run split in two around a new tile, and two copies of one set on both tables
  CHECK(played_is("R1 R2 R3 R4 R5 R6 | K1 K2 K3 | K1 K2 K3", "R4 K9",
                  "K1 K2 K3 | R1 R2 R3 R4 | R4 R5 R6 | K1 K2 K3", "R4"));
}

TEST_CASE("refusals are left to the exhaustive check", "[turn]") {
  CHECK_FALSE(answers("R1 R2 R3 R4", "K5", "R1 R2 R3"));                 // a table tile left
  CHECK_FALSE(answers("R1 R2 R3", "K5", "R1 R2 R3 R4"));                 // R4 is not on the rack
  CHECK_FALSE(answers("R1 R2 R3 R4", "K5", "R1 R2 R3 R4"));              // nothing played
  Params pairs;  // a set of two, read under rules that allow it, checked under the standard rules
  pairs.min_len = 2;
  TileSet played;
  CHECK_FALSE(fast_turn(table("R1 R2 R3 R4"), tiles("R5"), table("R1 R2 | R3 R4 R5", pairs), SearchRules{}, true,
                        played));
  SearchRules short_sets;
  short_sets.p.min_len = 2;
  CHECK(fast_turn(table("R1 R2 R3 R4"), tiles("R5"), table("R1 R2 | R3 R4 R5", pairs), short_sets, true, played));
  // a set that is no meld under the rules (a group of two colours built field by field)
  Meld two{MeldKind::Group, 0, 5, 2, 0, 0b0011};
  CHECK_FALSE(fast_turn({}, tiles("K5 B5 R9"), {two}, SearchRules{}, true, played));
}

TEST_CASE("the opening: worth the threshold as the table shows it, the table untouched", "[turn]") {
  CHECK(played_is("", "R10 R11 R12 K1", "R10 R11 R12", "R10 R11 R12", SearchRules{}, false));
  CHECK(played_is("K1 K2 K3", "R10 R11 J", "K1 K2 K3 | R10 R11 J", "R10 R11 J", SearchRules{}, false));  // 33
  CHECK_FALSE(answers("", "K9 B9 O9", "K9 B9 O9", SearchRules{}, false));                          // 27 < 30
  CHECK_FALSE(answers("K1 K2 K3", "K4 R10 R11 R12", "K1 K2 K3 K4 | R10 R11 R12", SearchRules{}, false));
  SearchRules no_jokers;
  no_jokers.joker_in_opening = false;
  CHECK_FALSE(answers("", "R10 R11 J", "R10 R11 J", no_jokers, false));
  SearchRules extend;
  extend.extend_after_opening = true;  // the opening's own tiles need the search: left to the exhaustive check
  CHECK_FALSE(answers("", "R10 R11 R12", "R10 R11 R12", extend, false));
  SearchRules none;
  none.opening_threshold = 0;  // no opening rule: any play
  CHECK(played_is("", "K1 K2 K3", "K1 K2 K3", "K1 K2 K3", none, false));
}

TEST_CASE("table jokers that stay in their homes", "[turn]") {
  for (JokerPolicy policy : {JokerPolicy::Replace, JokerPolicy::ReplaceFromRack}) {
    const SearchRules r = rules_with(policy);
    CHECK(played_is("K9 B9 O9 J | R5 J R7", "R8", "K9 B9 O9 J | R5 J R7 R8", "R8", r));
    CHECK(played_is("K9 B9 J", "O9", "K9 B9 O9 J", "O9", r));  // the group's joker still stands for R9
    // the run's joker moves to the part of the split run that keeps a former set-mate (R6 next to R5)
    CHECK(played_is("R4 R5 J R7 R8", "R6", "R4 R5 J | R6 R7 R8", "R6", r));
    // the group's joker left for a run: taken, and no real R9 replaces it
    CHECK_FALSE(answers("K9 B9 O9 J | R5 J R7", "R8 R9", "K9 B9 O9 | R5 J R7 | R8 R9 J", r));
  }
}

TEST_CASE("table jokers taken by the rule: replaced in a home, played again with rack tiles", "[turn]") {
  const SearchRules replace = rules_with(JokerPolicy::Replace);
  const SearchRules sabra = rules_with(JokerPolicy::ReplaceFromRack);
  const SearchRules free = rules_with(JokerPolicy::Free);
  CHECK(played_is("R5 J R7", "R6 K1 K2", "R5 R6 R7 | K1 K2 J", "R6 K1 K2", replace));
  CHECK(played_is("R5 J R7", "R6 K1 K2", "R5 R6 R7 | K1 K2 J", "R6 K1 K2", sabra));
  // the replacing R6 comes from a table group: enough under replace, not under replace_from_rack
  CHECK(played_is("R5 J R7 | B6 O6 K6 R6", "K1 K2", "R5 R6 R7 | B6 O6 K6 | K1 K2 J", "K1 K2", replace));
  CHECK_FALSE(answers("R5 J R7 | B6 O6 K6 R6", "K1 K2", "R5 R6 R7 | B6 O6 K6 | K1 K2 J", sabra));
  CHECK(played_is("R5 J R7 | B6 O6 K6 R6", "K1 K2", "R5 R6 R7 | B6 O6 K6 | K1 K2 J", "K1 K2", free));
  // the freed joker's set needs a rack tile (two under replace_from_rack)
  CHECK_FALSE(answers("R5 J R7 | K1 K2 K3", "R6", "R5 R6 R7 | K1 K2 K3 J", replace));
  CHECK(played_is("R5 J R7 | K1 K2 K3", "R6 K4", "R5 R6 R7 | K1 K2 K3 K4 J", "R6 K4", replace));
  CHECK_FALSE(answers("R5 J R7 | K1 K2 K3", "R6 K4", "R5 R6 R7 | K1 K2 K3 K4 J", sabra));
  // a group's joker taken by the real tile of a missing colour
  CHECK(played_is("K9 B9 J", "O9 R1 R2", "K9 B9 O9 | R1 R2 J", "O9 R1 R2", replace));
}

TEST_CASE("the witness alone: no joker is taken on an opening turn", "[turn]") {
  const SearchRules r = rules_with(JokerPolicy::Replace);
  const std::vector<Meld> before = table("R5 J R7"), after = table("R5 R6 R7 | K1 K2 J");
  CHECK(jokers_witness(before, after, tiles("R6 K1 K2"), r, false));
  CHECK_FALSE(jokers_witness(before, after, tiles("R6 K1 K2"), r, true));
  CHECK(jokers_witness(before, table("R5 J R7 R8"), tiles("R8"), r, true));  // it stays
  CHECK_FALSE(jokers_witness(before, table("R5 R6 R7"), tiles("R6"), r, false));  // no joker left on the table
}
