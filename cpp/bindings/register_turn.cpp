// Bindings for the quick legality check of a committed turn (rummikub/turn.h): the game's check_committed asks it
// once per turn and falls back to the exhaustive Python check (which also words refusals) when it cannot tell.
//
// The tables come as meld codes (what the search takes, known once per table). A code that stands for no meld
// makes the check answer "cannot tell" rather than raise: the exhaustive check then decides, so this function
// never changes a verdict or a message.
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <optional>
#include <vector>

#include "register.h"
#include "rummikub/turn.h"

using namespace rummikub;

namespace {

using Codes = py::typing::Tuple<py::int_, py::ellipsis>;  // meld codes, one per meld

// Decodes a tuple of meld codes; false when an item is not an int or stands for no meld. Reads the tuple with
// the C API: this runs twice per committed turn, and a list caster would cost more than the check itself.
// (PyLong_AsLongLongAndOverflow reads a code's two 30-bit digits directly; PyLong_AsLongLong goes through a
// byte array for any int past one digit, which cost more than decoding the meld.)
bool melds_of(const Codes& codes, std::vector<Meld>& out) {
  const py::ssize_t n = PyTuple_GET_SIZE(codes.ptr());
  out.resize(static_cast<size_t>(n));
  for (py::ssize_t i = 0; i < n; ++i) {
    int overflow = 0;
    const long long code = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(codes.ptr(), i), &overflow);
    if (overflow != 0) return false;
    if (code == -1 && PyErr_Occurred() != nullptr) {
      PyErr_Clear();
      return false;
    }
    if (!meld_of_code(code, out[static_cast<size_t>(i)])) return false;
  }
  return true;
}

}  // namespace

void register_turn(py::module_& m) {
  m.def(
      "fast_turn",
      [](const Codes& before, const TileSet& rack, const Codes& after, const SearchRules& rules,
         bool opened) -> std::optional<TileSet> {
        std::vector<Meld> old_table, new_table;
        TileSet played;
        if (!melds_of(before, old_table) || !melds_of(after, new_table) ||
            !fast_turn(old_table, rack, new_table, rules, opened, played)) {
          return std::nullopt;
        }
        return played;
      },
      py::arg("before"), py::arg("rack"), py::arg("after"), py::arg("rules"), py::arg("opened"),
      "The rack tiles played when the turn before -> after (tables as meld codes) is legal by the quick check, "
      "or None when it cannot tell (then the exhaustive check decides).");

  m.def(
      "jokers_witness",
      [](const Codes& before, const Codes& after, const TileSet& played, const SearchRules& rules, bool opening) {
        std::vector<Meld> old_table, new_table;
        return melds_of(before, old_table) && melds_of(after, new_table) &&
               jokers_witness(old_table, new_table, played, rules, opening);
      },
      py::arg("before"), py::arg("after"), py::arg("played"), py::arg("rules"), py::arg("opening"),
      "True when a greedy look proves the joker rule holds for the turn before -> after (tables as meld codes, "
      "played the rack tiles placed); False says nothing.");
}
