// The extension's table of contents: one register_* per area, nothing else.
#include <pybind11/pybind11.h>

#include "register.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "The C++ core of rummikub: tile multisets, melds and the exact search.";
  register_errors(m);
  register_tiles(m);
  register_meld(m);
  register_search(m);
  register_turn(m);
}
