// Bindings for melds: reading a tile sequence as a meld, checking a meld built field by field.
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "register.h"
#include "rummikub/meld.h"

using namespace rummikub;

void register_meld(py::module_& m) {
  py::enum_<MeldKind>(m, "MeldKind").value("RUN", MeldKind::Run).value("GROUP", MeldKind::Group);

  py::class_<Meld>(m, "Meld", "A valid group or run, jokers in their slots.")
      .def_readonly("kind", &Meld::kind)
      .def_readonly("colour", &Meld::colour)
      .def_readonly("number", &Meld::number)
      .def_readonly("length", &Meld::length)
      .def_readonly("joker_slots", &Meld::joker_slots)
      .def_readonly("colours", &Meld::colours)
      .def("jokers", &Meld::jokers)
      .def("value", &Meld::value)
      .def("tiles", &Meld::tiles)
      .def(py::self == py::self)
      .def("key", [](const Meld& x) {
        return py::make_tuple(static_cast<int>(x.kind), x.colour, x.number, x.length, x.joker_slots, x.colours);
      });

  m.def(
      "read_meld",
      [](const std::vector<int>& codes, const Params& p) {
        require_params(p);
        if (codes.size() > static_cast<size_t>(kMaxNumbers)) {
          throw py::value_error(meld_error_text(MeldError::TooLong));
        }
        Meld out;
        MeldError e = read_meld(codes.data(), static_cast<int>(codes.size()), p, out);
        if (e != MeldError::Ok) throw py::value_error(meld_error_text(e));
        return out;
      },
      py::arg("codes"), py::arg("params"),
      "Reads tile codes in order as a meld (jokers positional where the order allows); ValueError says why not.");

  m.def(
      "make_meld",
      [](MeldKind kind, int colour, int number, int length, uint32_t joker_slots, uint32_t colours,
         const Params& p) {
        require_params(p);
        Meld x{kind, kind == MeldKind::Run ? colour : 0, number, length, kind == MeldKind::Run ? joker_slots : 0u,
               kind == MeldKind::Group ? colours : 0u};
        MeldError e = check_meld(x, p);
        if (e != MeldError::Ok) throw py::value_error(meld_error_text(e));
        return x;
      },
      py::arg("kind"), py::arg("colour"), py::arg("number"), py::arg("length"), py::arg("joker_slots"),
      py::arg("colours"), py::arg("params"), "Builds a meld from its fields; ValueError says why it is not one.");

  m.def(
      "best_meld_value",
      [](const TileSet& tiles, const Params& p) {
        require_params(p);
        return best_meld_value(tiles, p);
      },
      py::arg("tiles"), py::arg("params"),
      "The highest value of any reading of the tiles as one meld, or -1 when they form none.");
}
