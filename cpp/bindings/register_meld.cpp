// Bindings for melds: reading a tile sequence as a meld, checking a meld built field by field, and the meld
// codec (a meld as the small int that search results carry).
#include <pybind11/native_enum.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "register.h"
#include "rummikub/meld.h"

using namespace rummikub;

void register_meld(py::module_& m) {
  py::native_enum<MeldKind>(m, "MeldKind", "enum.Enum", "A run (one colour) or a group (one number).")
      .value("RUN", MeldKind::Run)
      .value("GROUP", MeldKind::Group)
      .finalize();

  py::class_<Meld> meld(m, "Meld", "A valid group or run, jokers in their slots (made by the core only).");
  meld.def_readonly("kind", &Meld::kind)
      .def_readonly("colour", &Meld::colour)
      .def_readonly("number", &Meld::number)
      .def_readonly("length", &Meld::length)
      .def_readonly("joker_slots", &Meld::joker_slots)
      .def_readonly("colours", &Meld::colours)
      .def("jokers", &Meld::jokers)
      .def("value", &Meld::value)
      .def("tiles", &Meld::tiles)
      .def(py::self == py::self)
      .def("key",
           [](const Meld& x) {
             return py::make_tuple(static_cast<int>(x.kind), x.colour, x.number, x.length, x.joker_slots,
                                   x.colours);
           })
      .def("__repr__", [](const Meld& x) { return "<_core.Meld " + quoted(meld_text(x)) + ">"; });
  forbid_python_new(meld);

  m.def(
      "read_meld",
      [](const std::vector<int>& codes, const Params& p) {
        require_params(p);
        if (codes.size() > static_cast<size_t>(kMaxNumbers)) {
          raise_error(ErrorKind::InvalidMeld, meld_error_text(MeldError::TooLong));
        }
        Meld out;
        MeldError e = read_meld(codes.data(), static_cast<int>(codes.size()), p, out);
        if (e != MeldError::Ok) raise_error(ErrorKind::InvalidMeld, meld_error_text(e));
        return out;
      },
      py::arg("codes"), py::arg("params"),
      "Reads tile codes in order as a meld (jokers positional where the order allows); InvalidMeldError says why "
      "not.");

  m.def(
      "make_meld",
      [](MeldKind kind, int colour, int number, int length, uint32_t joker_slots, uint32_t colours,
         const Params& p) {
        require_params(p);
        Meld x{kind, kind == MeldKind::Run ? colour : 0, number, length, kind == MeldKind::Run ? joker_slots : 0u,
               kind == MeldKind::Group ? colours : 0u};
        MeldError e = check_meld(x, p);
        if (e != MeldError::Ok) raise_error(ErrorKind::InvalidMeld, meld_error_text(e));
        return x;
      },
      py::arg("kind"), py::arg("colour"), py::arg("number"), py::arg("length"), py::arg("joker_slots"),
      py::arg("colours"), py::arg("params"), "Builds a meld from its fields; InvalidMeldError says why it is not one.");

  m.def(
      "best_meld_value",
      [](const TileSet& tiles, const Params& p) {
        require_params(p);
        return best_meld_value(tiles, p);
      },
      py::arg("tiles"), py::arg("params"),
      "The highest value of any reading of the tiles as one meld, or -1 when they form none.");

  m.def(
      "meld_code",
      [](const Meld& x) {
        // A core meld always has a code: its fields were checked when it was made.
        if (!meld_codable(x)) raise_error(ErrorKind::InvalidMeld, "the meld's fields do not fit a meld code");
        return meld_code(x);
      },
      py::arg("meld"), "The meld as the int code the search takes and returns.");
  m.def(
      "meld_of_code",
      [](int64_t code) {
        Meld out;
        if (!meld_of_code(code, out)) {
          raise_error(ErrorKind::InvalidMeld, "meld code " + std::to_string(code) + " out of range (no meld has it)");
        }
        return out;
      },
      py::arg("code"), "The meld of a code from meld_code or a search result; InvalidMeldError for any other int.");
}
