// The typed errors of the bindings and the texts of their messages.
//
// A binding that refuses user input throws UserError(kind, message); the translator registered here raises the
// class of rummikub._errors that the kind names (one hierarchy under RummikubError, a ValueError), so Python
// catches types and never reads message text. Messages name the offending input, cut when it is huge.
#include <pybind11/pybind11.h>

#include <array>
#include <string>

#include "register.h"

using namespace rummikub;

namespace {

constexpr std::size_t kQuoteLimit = 200;  // characters of an input a message repeats

// The Python classes of ErrorKind, in its order; references kept for the life of the process.
std::array<PyObject*, 5> g_error_classes{};

}  // namespace

void raise_error(ErrorKind kind, const std::string& message) { throw UserError(kind, message); }

std::string quoted(const std::string& text) {
  if (text.size() <= kQuoteLimit) return "'" + text + "'";
  return "'" + text.substr(0, kQuoteLimit) + "...' (" + std::to_string(text.size()) + " characters)";
}

namespace {
void append_tile(std::string& out, int code) {
  if (!out.empty() && out.back() != ' ') out += ' ';
  if (code == kJoker) {
    out += 'J';
  } else {
    out += "KBOR"[tile_colour(code)];
    out += std::to_string(tile_number(code));
  }
}
}  // namespace

std::string tiles_text(const TileSet& s) {
  std::string out;
  for (int code = 0; code < kCodes; ++code) {
    for (int k = s.count(code); k > 0; --k) append_tile(out, code);
  }
  for (int k = 0; k < s.jokers; ++k) append_tile(out, kJoker);
  return out;
}

std::string meld_text(const Meld& m) {
  std::string out;
  if (m.kind == MeldKind::Run) {
    for (int i = 0; i < m.length && i < kMaxNumbers; ++i) append_tile(out, m.joker_slots >> i & 1 ? kJoker : m.run_slot(i));
    return out;
  }
  int real = 0;
  for (int c = 0; c < kMaxColours; ++c) {
    if (m.colours >> c & 1) {
      append_tile(out, tile_code(c, m.number));
      ++real;
    }
  }
  for (int j = real; j < m.length && j < kMaxColours; ++j) append_tile(out, kJoker);
  return out;
}

std::string table_text(const std::vector<Meld>& table) {
  std::string out;
  for (const Meld& m : table) {
    if (!out.empty()) out += " | ";
    out += meld_text(m);
    if (out.size() > 4 * kQuoteLimit) break;  // quoted() cuts it anyway
  }
  return out;
}

void require_params(const Params& p) {
  if (!params_ok(p)) {
    raise_error(ErrorKind::Rummikub,
                "rule parameters out of range: numbers 1.." + std::to_string(kMaxNumbers) + ", colours 1.." +
                    std::to_string(kMaxColours) + ", copies 1.." + std::to_string(kMaxCount) + ", jokers 0.." +
                    std::to_string(kMaxJokers) + ", min_len 2..numbers (got numbers=" + std::to_string(p.numbers) +
                    " colours=" + std::to_string(p.colours) + " copies=" + std::to_string(p.copies) +
                    " jokers=" + std::to_string(p.jokers) + " min_len=" + std::to_string(p.min_len) + ")");
  }
}

void require_fits(const TileSet& s, const Params& p, const std::string& what) {
  if (fits_rules(s, p)) return;
  const TileSet full = full_set(p);
  TileSet over;  // one copy of each tile held beyond the rule set's copies
  for (int code = 0; code <= kJoker; ++code) {
    if (s.count(code) > full.count(code)) over.add(code);
  }
  raise_error(ErrorKind::TileCount, what + " holds more copies than the rule set has of: " + tiles_text(over));
}

std::size_t node_limit_of(const py::handle& limit) {
  if (limit.is_none()) return 0;
  PyObject* o = limit.ptr();
  if (PyLong_Check(o) && !PyBool_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow == 0 && v >= 1) return static_cast<std::size_t>(v);
  }
  raise_error(ErrorKind::Rummikub,
              "limit must be a positive int (at most 2**63 - 1) or None, got " + std::string(py::repr(limit)));
}

void forbid_python_new(py::handle cls) {
  const std::string name = py::str(cls.attr("__name__"));
  cls.attr("__new__") = py::staticmethod(py::cpp_function(
      [name](const py::args&, const py::kwargs&) -> py::none {
        throw py::type_error(name + " objects are made by the core (by a search or a method), not from Python");
      },
      py::name("__new__")));
}

void construct_in_new(py::handle cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  const newfunc allocate = type->tp_new;  // pybind11's: no C++ value until __init__ runs
  cls.attr("__new__") = py::staticmethod(py::cpp_function(
      [allocate](const py::handle& type, const py::args& args, const py::kwargs& kwargs) {
        py::tuple none;
        auto obj = py::reinterpret_steal<py::object>(allocate(reinterpret_cast<PyTypeObject*>(type.ptr()), none.ptr(), nullptr));
        if (!obj) throw py::error_already_set();
        type.attr("__init__")(obj, *args, **kwargs);
        return obj;
      },
      py::name("__new__")));
  // Setting __new__ pointed the type's tp_new slot at it; `Cls(...)` keeps pybind11's own slot (and its speed:
  // __init__ follows at once), so that only an explicit `Cls.__new__(Cls)`, as copy and pickle make, runs the above.
  type->tp_new = allocate;
  PyType_Modified(type);
}

void register_errors(py::module_& m) {
  (void)m;
  // The hierarchy lives in Python (rummikub/_errors.py imports nothing of the package, so importing it while
  // the package initialises is safe); the core raises those very classes.
  const py::module_ errors = py::module_::import("rummikub._errors");
  const char* names[] = {"RummikubError", "InvalidTileError", "InvalidMeldError", "TileCountError", "SearchLimitError"};
  for (std::size_t i = 0; i < g_error_classes.size(); ++i) g_error_classes[i] = py::object(errors.attr(names[i])).release().ptr();
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const UserError& e) {
      PyErr_SetString(g_error_classes[static_cast<std::size_t>(e.kind())], e.what());
    }
  });
}
