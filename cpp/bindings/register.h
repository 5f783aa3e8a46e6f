// Shared declarations of the binding files: one register_* per area, the typed errors they raise, and the
// argument checks. Every check of user input happens in the bindings, once, with the engine's own tests
// (params_ok, fits_rules, check_meld, ...); the Python package only converts its objects.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "rummikub/meld.h"
#include "rummikub/tiles.h"

namespace py = pybind11;

void register_errors(py::module_& m);
void register_tiles(py::module_& m);
void register_meld(py::module_& m);
void register_search(py::module_& m);
void register_turn(py::module_& m);

// The classes of rummikub._errors a binding raises (all under RummikubError, a ValueError).
enum class ErrorKind { Rummikub, InvalidTile, InvalidMeld, TileCount, SearchLimit };

// A user error found by a binding; register_errors translates it into the rummikub._errors class of its kind.
class UserError : public std::exception {
 public:
  UserError(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  ErrorKind kind() const { return kind_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  ErrorKind kind_;
  std::string message_;
};

// Throws UserError(kind, message).
[[noreturn]] void raise_error(ErrorKind kind, const std::string& message);

// The input as a message quotes it: in single quotes, cut to about 200 characters (with how long it was).
std::string quoted(const std::string& text);
// Tiles in notation (K1 B7 R13 J), in canonical order.
std::string tiles_text(const rummikub::TileSet& s);
// A meld's tiles in notation, in slot order (groups: colours in order, jokers last).
std::string meld_text(const rummikub::Meld& m);
// Melds in notation separated by " | ".
std::string table_text(const std::vector<rummikub::Meld>& table);

// Raises RummikubError unless the parameters are inside what the engine supports.
void require_params(const rummikub::Params& p);
// Raises TileCountError naming `what` and the tiles of s that the rule set does not have (as many copies).
void require_fits(const rummikub::TileSet& s, const rummikub::Params& p, const std::string& what);
// The node limit of a search: None is 0 (no limit), else an int in 1..2**63-1; RummikubError otherwise.
std::size_t node_limit_of(const py::handle& limit);

// Makes a class that the core alone creates refuse creation from Python: `Cls.__new__(Cls)` raises TypeError
// (an instance made that way would hold no C++ value, and any method would read through a null pointer).
void forbid_python_new(py::handle cls);
// Makes `Cls.__new__(Cls, *args)` return a fully constructed instance (as `Cls(*args)`), for value classes
// that Python may create: never an instance without its C++ value.
void construct_in_new(py::handle cls);
