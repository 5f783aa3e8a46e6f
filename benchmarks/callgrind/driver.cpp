// Runs the search on positions read from a file (benchmarks/callgrind/dump_positions.py writes them), for
// callgrind: solve, all_plays or arrange on every position, and a summary whose checksum changes with any result.
//
//   callgrind_driver solve|plays|arrange|arrange-table|can-arrange|can-arrange-guided FILE   (docs/search.md says how
//   to build and run it)
//
// In plays mode a position's B line (dump_hard_plays.py) names the plays whose tables to build: every play's key
// and tiles count, and those plays' tables; without one every play is built.
// arrange splits the table and rack together, then the table alone; arrange-table only the table; can-arrange asks
// only whether the table and rack together split (the hard bot's threat checks: dump_can_arrange.py, whose S line
// names the sampled rack among the R line's tiles, the rest being the candidate play's, added to the table), and
// can-arrange-guided the same with ArrangeGuides kept through the checks of one table, as the hard bot keeps them.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "rummikub/meld.h"
#include "rummikub/search.h"

using namespace rummikub;

namespace {

struct Position {
  SearchRules rules;
  bool opened = true;
  Objective objective = Objective::Tiles;
  std::vector<Meld> table;
  TileSet rack;
  bool some = false;          // a B line names the plays to build (plays mode; without one, every play is built)
  std::vector<size_t> build;  // (the plays a hard bot read: dump_hard_plays.py)
  TileSet hidden;             // an S line's tiles: the sampled rack among the R line's (dump_can_arrange.py)
};

// Returns the positions of a file (blocks of a P line, T lines and an R line).
std::vector<Position> read_positions(const char* path) {
  std::vector<Position> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag == "P") {
      Position p;
      int threshold, jio, extend, policy, opened, objective;
      ls >> p.rules.p.numbers >> p.rules.p.colours >> p.rules.p.copies >> p.rules.p.jokers >> p.rules.p.min_len >>
          threshold >> jio >> extend >> policy >> opened >> objective;
      p.rules.opening_threshold = threshold;
      p.rules.joker_in_opening = jio != 0;
      p.rules.extend_after_opening = extend != 0;
      p.rules.policy = static_cast<JokerPolicy>(policy);
      p.opened = opened != 0;
      p.objective = static_cast<Objective>(objective);
      out.push_back(p);
    } else if (tag == "T") {
      std::vector<int> codes;
      for (int c; ls >> c;) codes.push_back(c);
      Meld m;
      if (read_meld(codes.data(), static_cast<int>(codes.size()), out.back().rules.p, m) != MeldError::Ok) {
        std::cerr << "bad meld: " << line << "\n";
        std::exit(2);
      }
      out.back().table.push_back(m);
    } else if (tag == "R") {
      for (int c; ls >> c;) out.back().rack.add(c);
    } else if (tag == "S") {
      for (int c; ls >> c;) out.back().hidden.add(c);
    } else if (tag == "B") {
      out.back().some = true;
      for (size_t i; ls >> i;) out.back().build.push_back(i);
    }
  }
  return out;
}

// Returns a checksum step over a play.
uint64_t mix(uint64_t h, const PlayResult& r) {
  h = h * 1000003 + static_cast<uint64_t>(r.key);
  h = h * 1000003 + static_cast<uint64_t>(r.value);
  for (int c = 0; c < kMaxColours; ++c) h = h * 1000003 + r.played.w[c];
  h = h * 1000003 + static_cast<uint64_t>(r.played.jokers);
  for (const Meld& m : r.table) {
    h = h * 31 + static_cast<uint64_t>(m.kind) * 7 + static_cast<uint64_t>(m.colour) * 131 +
        static_cast<uint64_t>(m.number) * 17 + static_cast<uint64_t>(m.length) * 3 + m.joker_slots * 5 + m.colours;
  }
  return h;
}

// Returns true when two tables hold the same melds in the same order.
bool same_table(const std::vector<Meld>& a, const std::vector<Meld>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i].tiles() == b[i].tiles())) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: callgrind_driver solve|plays|arrange|arrange-table|can-arrange|can-arrange-guided FILE\n";
    return 2;
  }
  const std::string mode = argv[1];
  const std::vector<Position> positions = read_positions(argv[2]);
  SearchStats stats;
  uint64_t h = 0, found = 0;
  ArrangeGuides guides;
  std::vector<Meld> last_table;
  for (const Position& p : positions) {
    if (mode == "solve") {
      PlayResult r;
      if (solve(p.table, p.rack, p.rules, p.opened, p.objective, r, &stats)) {
        ++found;
        h = mix(h, r);
      }
    } else if (mode == "plays") {
      PlayEnumeration e;
      if (all_plays(p.table, p.rack, p.rules, p.opened, e, &stats, 200000) == PlaysStatus::Ok) {
        found += e.size();
        if (!p.some) {
          for (std::size_t i = 0; i < e.size(); ++i) h = mix(h, e.at(i));
        } else {  // every play's key and tiles, and the tables of the plays named
          for (std::size_t i = 0; i < e.size(); ++i) {
            PlayResult r;
            r.played = e.played(i);
            r.key = e.key(i);
            h = mix(h, r);
          }
          for (std::size_t i : p.build) h = mix(h, e.at(i));
        }
      }
    } else if (mode == "can-arrange" || mode == "can-arrange-guided") {
      // (as the hard bot asks: the table with the candidate play's tiles, and the sampled rack)
      TileSet table = difference(p.rack, p.hidden);
      for (const Meld& m : p.table) table = sum(table, m.tiles());
      // (guided: as the hard bot, guides kept through the checks of one table, made anew for the next)
      if (mode == "can-arrange-guided" && !same_table(p.table, last_table)) guides = ArrangeGuides();
      last_table = p.table;
      const bool ok =
          can_arrange(table, p.hidden, p.rules.p, &stats, 0, mode == "can-arrange-guided" ? &guides : nullptr);
      found += ok ? 1 : 0;
      h = h * 1000003 + (ok ? 2 : 1);
    } else if (mode == "arrange" || mode == "arrange-table") {
      if (mode == "arrange") {
        TileSet all = p.rack;
        for (const Meld& m : p.table) all = sum(all, m.tiles());
        std::vector<Meld> melds;
        PlayResult r;
        if (arrange(all, p.rules.p, melds, &stats)) {
          ++found;
          r.table = melds;
          h = mix(h, r);
        }
      }
      std::vector<Meld> melds;
      TileSet table_tiles;
      for (const Meld& m : p.table) table_tiles = sum(table_tiles, m.tiles());
      PlayResult r;
      if (arrange(table_tiles, p.rules.p, melds, &stats)) {
        found += mode == "arrange-table" ? 1 : 0;
        r.table = melds;
        h = mix(h, r);
      }
    }
  }
  std::printf("%s %zu positions: %llu found, states %llu, transitions %llu, runs %llu, checksum %016llx\n",
              mode.c_str(), positions.size(), static_cast<unsigned long long>(found),
              static_cast<unsigned long long>(stats.states), static_cast<unsigned long long>(stats.transitions),
              static_cast<unsigned long long>(stats.runs), static_cast<unsigned long long>(h));
  return 0;
}
