// Tiny notation helpers for the tests: "R5 J K13" as tile codes and multisets, melds as text.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rummikub/meld.h"
#include "rummikub/tiles.h"

namespace rummikub::test {

// The codes of whitespace-separated tiles: a colour letter K, B, O or R and a number, or J.
inline std::vector<int> codes(const std::string& text) {
  std::vector<int> out;
  std::istringstream in(text);
  std::string token;
  while (in >> token) {
    if (token == "J") {
      out.push_back(kJoker);
      continue;
    }
    const std::string letters = "KBOR";
    const auto colour = letters.find(token[0]);
    if (colour == std::string::npos || token.size() < 2) throw std::invalid_argument("bad tile " + token);
    out.push_back(tile_code(static_cast<int>(colour), std::stoi(token.substr(1))));
  }
  return out;
}

inline TileSet tiles(const std::string& text) {
  TileSet s;
  for (int c : codes(text)) s.add(c);
  return s;
}

// Reads a meld in order (as the notation does); throws when the tiles form none.
inline Meld meld(const std::string& text, const Params& p = Params{}) {
  const std::vector<int> c = codes(text);
  Meld m;
  if (read_meld(c.data(), static_cast<int>(c.size()), p, m) != MeldError::Ok) {
    throw std::invalid_argument("not a meld: " + text);
  }
  return m;
}

// A table of melds separated by "|".
inline std::vector<Meld> table(const std::string& text, const Params& p = Params{}) {
  std::vector<Meld> out;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, '|')) {
    if (part.find_first_not_of(' ') != std::string::npos) out.push_back(meld(part, p));
  }
  return out;
}

}  // namespace rummikub::test
