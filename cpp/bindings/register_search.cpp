// Bindings for the search: arrange, solve, all_plays, the batch entry point, and their results as classes.
//
// A position is checked here, once, with the engine's checks (meld codes, check_meld, fits_rules); a refusal is a
// typed error of rummikub._errors naming the input (register_errors.cpp). Every search releases the GIL while the
// engine runs: the engine touches no Python object, and a server or an arena can then search in several threads.
#include <pybind11/native_enum.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "register.h"
#include "rummikub/search.h"

using namespace rummikub;

// A table's meld codes as solve_play takes them: pybind11's std::vector<int64_t> argument, read straight from a
// tuple or list of ints (the caster below) instead of one caster call per code (a table crosses at every search).
struct TableCodes {
  std::vector<int64_t> codes;
};

namespace pybind11::detail {
template <>
struct type_caster<TableCodes> {
  using Vector = make_caster<std::vector<int64_t>>;
  PYBIND11_TYPE_CASTER(TableCodes, Vector::name);  // the vector's name: signatures and stubs read as before

  bool load(handle src, bool convert) {
    PyObject* o = src.ptr();
    if (PyTuple_CheckExact(o) || PyList_CheckExact(o)) {  // the common case: every item an exact int in range
      const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
      PyObject** items = PySequence_Fast_ITEMS(o);
      value.codes.resize(static_cast<size_t>(n));
      Py_ssize_t i = 0;
      for (int overflow = 0; i < n && PyLong_CheckExact(items[i]); ++i) {
        value.codes[static_cast<size_t>(i)] = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (overflow != 0) break;
      }
      if (i == n) return true;
    }
    Vector v;  // anything else converts (or is refused) exactly as the vector argument was
    if (!v.load(src, convert)) return false;
    value.codes = cast_op<std::vector<int64_t>&&>(std::move(v));
    return true;
  }

  static handle cast(const TableCodes& src, return_value_policy policy, handle parent) {
    return Vector::cast(src.codes, policy, parent);
  }
};
}  // namespace pybind11::detail

namespace {

using Codes = py::typing::Tuple<py::int_, py::ellipsis>;  // meld codes, one per meld
using Limit = py::typing::Optional<py::int_>;             // a node limit: None or a positive int
using PlayParts = py::typing::Optional<py::typing::Tuple<TileSet, Codes, py::int_, SearchStats>>;  // (played, table, value, stats)

void require_supported(const Params& p) {
  require_params(p);
  if (!search_supported(p)) {
    raise_error(ErrorKind::Rummikub, "the search handles at most 3 copies, 4 jokers and a minimum set length of 7 "
                                     "(got copies=" + std::to_string(p.copies) + " jokers=" +
                                     std::to_string(p.jokers) + " min_len=" + std::to_string(p.min_len) + ")");
  }
}

// The melds of a table as a tuple of meld codes (built with the C API: this runs once per play).
Codes meld_codes(const std::vector<Meld>& table) {
  Codes out(table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(meld_code(table[i]));  // engine melds are always codable
    if (v == nullptr) throw py::error_already_set();
    PyTuple_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), v);
  }
  return out;
}

// A checked position: the table's melds and tiles (the rack is the caller's).
struct Position {
  std::vector<Meld> table;
  TileSet table_tiles;
};

// Decodes and checks a table given as meld codes under the rules: every code a meld valid under the rules, and
// the table within the rule set's tiles. Raises the typed error otherwise.
Position table_of(const std::vector<int64_t>& codes, const Params& p) {
  Position out;
  out.table.reserve(codes.size());
  bool fits = true;  // every count of the table within kMaxCount so far (then table_tiles is its multiset)
  for (size_t i = 0; i < codes.size(); ++i) {
    Meld m;
    if (!meld_of_code(codes[i], m)) {
      raise_error(ErrorKind::InvalidMeld, "table meld " + std::to_string(i + 1) + ": meld code " +
                                              std::to_string(codes[i]) + " out of range (no meld has it)");
    }
    const MeldError e = check_meld(m, p);
    if (e != MeldError::Ok) {
      raise_error(ErrorKind::InvalidMeld, "table meld " + std::to_string(i + 1) + " " + quoted(meld_text(m)) +
                                              " is not valid under these rules: " + meld_error_text(e));
    }
    const TileSet t = m.tiles();
    if (fits && sum_fits(out.table_tiles, t)) {
      out.table_tiles = sum(out.table_tiles, t);
    } else {
      fits = false;
    }
    out.table.push_back(m);
  }
  if (!fits || !fits_rules(out.table_tiles, p)) {  // name every tile held beyond the rule set's copies
    std::array<int, kJoker + 1> counts{};
    for (const Meld& m : out.table) {
      const TileSet t = m.tiles();
      for (int code = 0; code <= kJoker; ++code) counts[static_cast<size_t>(code)] += t.count(code);
    }
    const TileSet full = full_set(p);
    TileSet over;
    for (int code = 0; code <= kJoker; ++code) {
      if (counts[static_cast<size_t>(code)] > full.count(code)) over.add(code);
    }
    raise_error(ErrorKind::TileCount, "table " + quoted(table_text(out.table)) +
                                          " holds more copies than the rule set has of: " + tiles_text(over));
  }
  return out;
}

// Checks a rack under the rules, alone and with a checked table. Raises the typed error otherwise.
void check_rack(const Position& pos, const TileSet& rack, const Params& p) {
  if (!fits_rules(rack, p)) require_fits(rack, p, "rack " + quoted(tiles_text(rack)));  // the text only on failure
  if (!sum_fits(pos.table_tiles, rack) || !fits_rules(sum(pos.table_tiles, rack), p)) {
    const TileSet full = full_set(p);
    TileSet both;
    for (int code = 0; code <= kJoker; ++code) {
      if (pos.table_tiles.count(code) + rack.count(code) > full.count(code)) both.add(code);
    }
    raise_error(ErrorKind::TileCount, "table " + quoted(table_text(pos.table)) + " with rack " +
                                          quoted(tiles_text(rack)) +
                                          " holds more copies than the rule set has of: " + tiles_text(both));
  }
}

// Decodes and checks a position: the table (table_of), then the rack (check_rack).
Position position_of(const std::vector<int64_t>& codes, const TileSet& rack, const Params& p) {
  Position out = table_of(codes, p);
  check_rack(out, rack, p);
  return out;
}

// The last table solve_play checked and the last table it found on this thread, by content (meld codes and the
// rules' tile parameters): a game asks about the same table turn after turn (a draw leaves it, a play leaves the
// table the last search found), a bot may ask about one table several times in a turn (each search finding another
// table), and a table's check depends on nothing else. Per thread: nothing is shared.
struct KnownTable {
  std::vector<int64_t> codes;
  Params p;
  Position pos;
  bool valid = false;
};
thread_local std::array<KnownTable, 2> known_tables;  // [0]: the last checked, [1]: the last found

// The checked table of `codes` under `p`: a known table when it is one, else table_of's (then the last checked).
const Position& known_table_of(const std::vector<int64_t>& codes, const Params& p) {
  for (const KnownTable& k : known_tables) {
    if (k.valid && k.p == p && k.codes == codes) return k.pos;
  }
  KnownTable& k = known_tables[0];
  k.valid = false;  // until the check passes
  k.pos = table_of(codes, p);
  k.codes = codes;
  k.p = p;
  k.valid = true;
  return k.pos;
}

// Makes the table a search found from `pos` (a known table) and `played` the last found table (valid: the search
// places only valid melds, and table + played is within table + rack, which fits the rules). Its melds are decoded
// from their codes, exactly as table_of would decode them.
void know_found_table(const Position& pos, const Params& p, const std::vector<Meld>& found, const TileSet& played) {
  KnownTable& k = known_tables[1];
  const TileSet tiles = sum(pos.table_tiles, played);  // (pos may be k.pos: read before k changes)
  k.valid = false;
  k.codes.resize(found.size());  // (k's buffers reused)
  k.pos.table.resize(found.size());
  for (size_t i = 0; i < found.size(); ++i) {
    k.codes[i] = meld_code(found[i]);
    if (!meld_of_code(k.codes[i], k.pos.table[i])) return;  // engine melds are always codable: never in practice
  }
  k.pos.table_tiles = tiles;
  k.p = p;
  k.valid = true;
}

// Returns an objective given as its number (Objective's value): an int converts at a fraction of a native enum's cost.
Objective objective_of(int objective) {
  if (objective < 0 || objective > static_cast<int>(Objective::Penalty)) {
    raise_error(ErrorKind::Rummikub, "objective must be 0 (tiles), 1 (value) or 2 (penalty), got " +
                                         std::to_string(objective));
  }
  return static_cast<Objective>(objective);
}

std::string where(const std::vector<Meld>& table, const TileSet& rack) {
  return "rack " + quoted(tiles_text(rack)) + " on table " + quoted(table_text(table));
}

// Returns a node limit as users read it: states, and the memory they stand for.
std::string limit_text(size_t node_limit) {
  const double bytes = static_cast<double>(node_limit) * static_cast<double>(kSearchBytesPerNode);
  const bool big = bytes >= 1e9, mid = bytes >= 1e6;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%zu search state%s or %.3g %s of search memory", node_limit,
                node_limit == 1 ? "" : "s", bytes / (big ? 1e9 : mid ? 1e6 : 1e3), big ? "GB" : mid ? "MB" : "KB");
  return buf;
}

// Raises SearchLimitError when a search stopped at its node limit (its answer is unknown, not "no play").
void require_within_limit(const SearchStats& s, size_t node_limit, const std::string& what) {
  if (s.limited != 0) {
    raise_error(ErrorKind::SearchLimit, what + ": search limit: a programme run passed its limit of " +
                                            limit_text(node_limit) + " (pass a larger limit, or None for none)");
  }
}

// A play as Python reads it: the engine's PlayResult with its new table already as meld codes.
struct BoundPlay {
  TileSet played;
  Codes table;
  int64_t key = 0;
  int tiles = 0;
  int value = 0;
};

BoundPlay bound_play(const PlayResult& r) { return BoundPlay{r.played, meld_codes(r.table), r.key, r.tiles, r.value}; }

// The answer of solve: the best play (None when no rack tile can be played) and the work counters.
struct SolveOutcome {
  std::optional<BoundPlay> play;
  SearchStats stats;
};

// The answer of arrange: the melds as codes (None when the tiles form no partition) and the work counters.
struct ArrangeOutcome {
  py::typing::Optional<Codes> table = py::reinterpret_borrow<py::typing::Optional<Codes>>(py::none());
  SearchStats stats;
};

// The answer of solve_batch: one entry per position, and the counters summed over the batch.
struct BatchOutcome {
  py::array_t<bool> found;
  py::array_t<uint8_t> played;
  py::array_t<int32_t> tiles, value;
  py::array_t<int64_t> key;
  SearchStats stats;
};

// The search of solve on a checked position, the GIL released while the engine runs: true when a play was found.
bool checked_solve(const Position& pos, const TileSet& rack, const SearchRules& rules, bool opened,
                   Objective objective, size_t node_limit, PlayResult& out, SearchStats& stats) {
  bool ok;
  {
    py::gil_scoped_release release;
    ok = solve(pos.table, rack, rules, opened, objective, out, &stats, node_limit);
  }
  if (stats.limited != 0) require_within_limit(stats, node_limit, where(pos.table, rack));
  return ok;
}

// The checks and the search of arrange over `tiles` and `more` together, the GIL released while the engine runs:
// true when they partition. The melds go to `out`, or with no `out` only whether a partition exists is found.
bool checked_arrange(const TileSet& tiles, const TileSet& more, const Params& p, const Limit& limit,
                     std::vector<Meld>* out, SearchStats& stats, ArrangeGuides* guides = nullptr) {
  const size_t node_limit = node_limit_of(limit);
  require_supported(p);
  if (!sum_fits(tiles, more)) {
    raise_error(ErrorKind::TileCount, "a TileSet holds at most 7 copies of one tile: " + quoted(tiles_text(tiles)) +
                                          " + " + quoted(tiles_text(more)));
  }
  const TileSet all = sum(tiles, more);
  if (!fits_rules(all, p)) require_fits(all, p, "tiles " + quoted(tiles_text(all)));
  bool ok;
  {
    py::gil_scoped_release release;
    ok = out != nullptr ? arrange(all, p, *out, &stats, node_limit)
                        : can_arrange(tiles, more, p, &stats, node_limit, guides);
  }
  if (stats.limited != 0) require_within_limit(stats, node_limit, "arrange of " + quoted(tiles_text(all)));
  return ok;
}

uint64_t stats_hash(const SearchStats& s) {
  uint64_t h = 1469598103934665603ULL;
  for (uint64_t x : {s.states, s.transitions, s.runs, s.limited}) h = (h ^ x) * 1099511628211ULL;
  return h >> 1;
}

bool operator==(const SearchStats& a, const SearchStats& b) {
  return a.states == b.states && a.transitions == b.transitions && a.runs == b.runs && a.limited == b.limited;
}

struct TileSetHash {
  size_t operator()(const TileSet& s) const {
    uint64_t h = 1469598103934665603ULL;
    for (uint64_t x : s.w) h = (h ^ x) * 1099511628211ULL;
    h = (h ^ static_cast<uint64_t>(s.jokers)) * 1099511628211ULL;
    return static_cast<size_t>(h);
  }
};

// The result of all_plays, kept in C++: Python asks for the count, one play, or the index of a tile set
// without a Python object per play being built up front (and the core builds a play's table only when asked).
class PlayList {
 public:
  PlayList(PlayEnumeration plays, const SearchStats& stats, const TileSet& rack)
      : plays_(std::move(plays)), stats_(stats), rack_(rack) {}

  py::ssize_t size() const { return static_cast<py::ssize_t>(plays_.size()); }
  const SearchStats& stats() const { return stats_; }

  const PlayResult& at(py::ssize_t i) { return plays_.at(checked(i)); }

  // The index of the play placing exactly `tiles`, or -1 (the lookup table is built on first use).
  py::ssize_t index(const TileSet& tiles) {
    if (plays_.size() <= 8) {
      for (size_t i = 0; i < plays_.size(); ++i) {
        if (plays_.played(i) == tiles) return static_cast<py::ssize_t>(i);
      }
      return -1;
    }
    if (by_played_.empty()) {
      by_played_.reserve(plays_.size());
      for (size_t i = 0; i < plays_.size(); ++i) by_played_.emplace(plays_.played(i), i);
    }
    auto it = by_played_.find(tiles);
    return it == by_played_.end() ? -1 : static_cast<py::ssize_t>(it->second);
  }

  // Plays start..stop-1 (clipped to the list): iteration fetches a chunk per call.
  std::vector<BoundPlay> slice(py::ssize_t start, py::ssize_t stop) {
    start = std::max<py::ssize_t>(0, std::min(start, size()));
    stop = std::max(start, std::min(stop, size()));
    std::vector<BoundPlay> out;
    out.reserve(static_cast<size_t>(stop - start));
    for (py::ssize_t i = start; i < stop; ++i) out.push_back(bound_play(at(i)));
    return out;
  }

  // The played tiles of every play, or of the plays at `indices` (negative ones count from the end).
  py::typing::List<TileSet> played(const std::optional<std::vector<py::ssize_t>>& indices) const {
    if (!indices) {
      py::typing::List<TileSet> out(plays_.size());
      for (size_t i = 0; i < plays_.size(); ++i) out[i] = py::cast(plays_.played(i));
      return out;
    }
    py::typing::List<TileSet> out(indices->size());
    for (size_t k = 0; k < indices->size(); ++k) out[k] = py::cast(plays_.played(checked((*indices)[k])));
    return out;
  }

  // Per play, in order: the rack tiles placed, their face value (jokers 0), the jokers placed, and the weights of
  // the rack tiles the play keeps (the rack minus the placed tiles; each tile weighs 1 without weights), added one
  // tile at a time in code order, the jokers last (weighted_size).
  py::typing::Tuple<py::array_t<int64_t>, py::array_t<int64_t>, py::array_t<int64_t>, py::array_t<double>> tallies(
      const std::optional<std::vector<double>>& weights) const {
    std::array<double, kJoker + 1> w;
    w.fill(1.0);
    if (weights) {
      if (weights->size() != kJoker + 1) {
        raise_error(ErrorKind::Rummikub, "weights must be 65 floats, one per tile code (Tile.code), got " +
                                             std::to_string(weights->size()));
      }
      std::copy(weights->begin(), weights->end(), w.begin());
    }
    const auto n = static_cast<py::ssize_t>(plays_.size());
    py::array_t<int64_t> tiles(n), value(n), jokers(n);
    py::array_t<double> kept(n);
    auto t = tiles.mutable_unchecked<1>(), v = value.mutable_unchecked<1>(), j = jokers.mutable_unchecked<1>();
    auto k = kept.mutable_unchecked<1>();
    for (py::ssize_t i = 0; i < n; ++i) {
      const TileSet& p = plays_.played(static_cast<size_t>(i));
      t(i) = p.size();
      v(i) = p.value(0);
      j(i) = p.jokers;
      k(i) = weighted_size(difference(rack_, p), w);
    }
    return py::make_tuple(tiles, value, jokers, kept);
  }

 private:
  // The position of play i (negative: from the end); IndexError naming it when there is none.
  size_t checked(py::ssize_t i) const {
    const py::ssize_t at = i < 0 ? i + size() : i;
    if (at < 0 || at >= size()) {
      throw py::index_error("play index " + std::to_string(i) + " out of range for " + std::to_string(size()) +
                            " plays");
    }
    return static_cast<size_t>(at);
  }

  PlayEnumeration plays_;
  SearchStats stats_;
  TileSet rack_;  // the rack the plays come from
  std::unordered_map<TileSet, size_t, TileSetHash> by_played_;
};

void bind_stats(py::module_& m) {
  py::class_<SearchStats> stats(m, "SearchStats",
                                "Deterministic work counters of one search: programme states created, transitions "
                                "evaluated, programme runs (one per joker option or opening subset), and whether a "
                                "run stopped at its state limit.");
  stats
      .def(py::init([](uint64_t states, uint64_t transitions, uint64_t runs, uint64_t limited) {
             return SearchStats{states, transitions, runs, limited};
           }),
           py::arg("states") = 0, py::arg("transitions") = 0, py::arg("runs") = 0, py::arg("limited") = 0)
      .def_readonly("states", &SearchStats::states, "Programme states created.")
      .def_readonly("transitions", &SearchStats::transitions, "State-to-state moves evaluated.")
      .def_readonly("runs", &SearchStats::runs, "Programme runs (one per joker option or opening subset).")
      .def_readonly("limited", &SearchStats::limited, "1 when a run passed its state limit (the answer is unknown).")
      .def("to_dict",
           [](const SearchStats& s) {
             py::typing::Dict<py::str, py::int_> d;
             d["states"] = s.states;
             d["transitions"] = s.transitions;
             d["runs"] = s.runs;
             d["limited"] = s.limited;
             return d;
           },
           "The counters as a dict (for JSON).")
      // A comparison with another type returns NotImplemented (pybind11 does so for operators).
      .def("__eq__", [](const SearchStats& a, const SearchStats& b) { return a == b; }, py::is_operator(),
           py::arg("other"))
      .def("__hash__", [](const SearchStats& s) { return static_cast<py::ssize_t>(stats_hash(s)); })
      .def("__repr__",
           [](const SearchStats& s) {
             return "SearchStats(states=" + std::to_string(s.states) + ", transitions=" + std::to_string(s.transitions) +
                    ", runs=" + std::to_string(s.runs) + ", limited=" + std::to_string(s.limited) + ")";
           })
      // Pickled as a call of the class (a bare __new__ gives a whole value, see construct_in_new).
      .def("__reduce__", [](const py::object& self) {
        const SearchStats& s = self.cast<const SearchStats&>();
        return py::make_tuple(py::type::of(self), py::make_tuple(s.states, s.transitions, s.runs, s.limited));
      });
  construct_in_new(stats);
}

void bind_results(py::module_& m) {
  py::class_<BoundPlay> play(m, "PlayResult", "One legal play as the core found it (made by the core only).");
  play.def_property_readonly("played", [](const BoundPlay& p) { return p.played; }, "The rack tiles placed.")
      .def_readonly("table", &BoundPlay::table, "The whole new table, as meld codes (meld_of_code).")
      .def_readonly("key", &BoundPlay::key, "The objective's lexicographic key, packed (higher is better).")
      .def_readonly("tiles", &BoundPlay::tiles, "How many rack tiles the play places.")
      .def_readonly("value", &BoundPlay::value, "The face value of the placed tiles, jokers at what they stand for.")
      .def("__repr__", [](const BoundPlay& p) {
        return "<PlayResult " + quoted(tiles_text(p.played)) + " value=" + std::to_string(p.value) + ">";
      });
  forbid_python_new(play);

  py::class_<SolveOutcome> solved(m, "SolveResult", "What solve found: the best play (or None) and the work counters.");
  // The results' parts are returned as copies: a reference into the result would cost a keep-alive (a weak
  // reference) at each read.
  solved
      .def_property_readonly("play", [](const SolveOutcome& r) { return r.play; },
                             "The best play, or None when no rack tile can be played.")
      .def_property_readonly("stats", [](const SolveOutcome& r) { return r.stats; }, "The work counters of the search.")
      .def("__repr__", [](const SolveOutcome& r) {
        return std::string("<SolveResult ") + (r.play ? quoted(tiles_text(r.play->played)) : "no play") + ">";
      });
  forbid_python_new(solved);

  py::class_<ArrangeGuides>(
      m, "ArrangeGuides",
      "The last arrangements can_arrange found with it (up to 16 of each direction it searches), which a later "
      "can_arrange of a similar multiset, searched the same way, follows first: checks of tile sets that differ by a "
      "few tiles take fewer states. Only the order of the search changes, never its answer.\n\n"
      ">>> g = ArrangeGuides()\n"
      ">>> p = Params()\n"
      ">>> can_arrange(TileSet([0, 1, 2]), TileSet([3]), p, guides=g)[0]\n"
      "True\n"
      ">>> can_arrange(TileSet([0, 1, 2]), TileSet([4]), p, guides=g)[0]\n"
      "False")
      .def(py::init<>(), "No arrangement held yet.");

  py::class_<ArrangeOutcome> arranged(m, "ArrangeResult", "What arrange found: meld codes (or None) and the counters.");
  arranged.def_readonly("table", &ArrangeOutcome::table, "Meld codes partitioning every tile, or None.")
      .def_readonly("stats", &ArrangeOutcome::stats, "The work counters of the search.");
  forbid_python_new(arranged);

  py::class_<BatchOutcome> batch(m, "BatchResult", "The best plays of a batch of positions, one row each.");
  batch.def_readonly("found", &BatchOutcome::found, "Whether each position has a play.")
      .def_readonly("played", &BatchOutcome::played, "The (n, 65) counts of the tiles each play places.")
      .def_readonly("tiles", &BatchOutcome::tiles, "Rack tiles placed by each play.")
      .def_readonly("value", &BatchOutcome::value, "Face value of each play.")
      .def_readonly("key", &BatchOutcome::key, "The objective key of each play.")
      .def_readonly("stats", &BatchOutcome::stats, "The work counters summed over the batch.");
  forbid_python_new(batch);

  py::class_<PlayList> list(m, "PlayList",
                            "Every legal play of a position, kept in the core: a play is read by index; its table is "
                            "built when first read (made by the core only).");
  list.def("__len__", &PlayList::size)
      .def_property_readonly("stats", &PlayList::stats, "The work counters of the enumeration.")
      .def("play", [](PlayList& l, py::ssize_t i) { return bound_play(l.at(i)); }, py::arg("index"), "Play number `index`.")
      .def("slice", &PlayList::slice, py::arg("start"), py::arg("stop"), "Plays start..stop-1 (clipped to the list).")
      .def("index", &PlayList::index, py::arg("tiles"), "The index of the play placing exactly `tiles`, or -1.")
      .def("played", &PlayList::played, py::arg("indices") = py::none(),
           "The played tiles of every play in order, or of the plays at `indices`.")
      .def("tallies", &PlayList::tallies, py::arg("weights") = py::none(),
           "Per play, as arrays: tiles placed, their face value (jokers 0), jokers placed, and the summed weights "
           "(65 floats by tile code, 1 each without) of the rack tiles it keeps, added left to right in code order.");
  forbid_python_new(list);
}

}  // namespace

void register_search(py::module_& m) {
  py::native_enum<Objective>(m, "Objective", "enum.Enum", "What solve maximises.")
      .value("TILES", Objective::Tiles)
      .value("VALUE", Objective::Value)
      .value("PENALTY", Objective::Penalty)
      .finalize();
  py::native_enum<JokerPolicy>(m, "JokerPolicy", "enum.Enum", "When a table joker may be retrieved.")
      .value("FREE", JokerPolicy::Free)
      .value("REPLACE", JokerPolicy::Replace)
      .value("REPLACE_FROM_RACK", JokerPolicy::ReplaceFromRack)
      .finalize();

  py::class_<SearchRules> rules(m, "SearchRules", "The rules the search needs (tile parameters and turn variants).");
  rules.def(py::init([](const Params& p, int opening_threshold, bool joker_in_opening, bool extend_after_opening,
                        JokerPolicy policy, int joker_penalty) {
              require_supported(p);
              if (opening_threshold < 0 || joker_penalty < 0) {
                raise_error(ErrorKind::Rummikub, "opening_threshold and joker_penalty must be >= 0 (got " +
                                                     std::to_string(opening_threshold) + " and " +
                                                     std::to_string(joker_penalty) + ")");
              }
              return SearchRules{p, opening_threshold, joker_in_opening, extend_after_opening, policy, joker_penalty};
            }),
            py::arg("params"), py::arg("opening_threshold"), py::arg("joker_in_opening"),
            py::arg("extend_after_opening"), py::arg("policy"), py::arg("joker_penalty"));
  construct_in_new(rules);

  bind_stats(m);
  bind_results(m);

  m.def(
      "check_position",
      [](const std::vector<int64_t>& table_codes, const TileSet& rack, const SearchRules& rules, const Limit& limit) {
        node_limit_of(limit);
        position_of(table_codes, rack, rules.p);
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("limit") = py::none(),
      "Checks a position and a limit as solve and all_plays do (InvalidMeldError, TileCountError, RummikubError), "
      "without searching.");

  m.def(
      "arrange",
      [](const TileSet& tiles, const Params& p, const Limit& limit) {
        std::vector<Meld> out;
        ArrangeOutcome result;
        if (checked_arrange(tiles, TileSet(), p, limit, &out, result.stats)) result.table = meld_codes(out);
        return result;
      },
      py::arg("tiles"), py::arg("params"), py::arg("limit") = py::none(),
      "Partitions every tile into valid melds; SearchLimitError past `limit` states in a run.");

  m.def(
      "can_arrange",
      [](const TileSet& tiles, const TileSet& more, const Params& p, const Limit& limit,
         const py::typing::Optional<ArrangeGuides>& guides) {
        ArrangeGuides* held = nullptr;
        if (!guides.is_none()) {
          if (!py::isinstance<ArrangeGuides>(guides)) {
            throw py::type_error("guides must be an ArrangeGuides or None, got " +
                                 std::string(py::str(py::type::of(guides).attr("__name__"))));
          }
          held = guides.cast<ArrangeGuides*>();
        }
        SearchStats stats;
        const bool ok = checked_arrange(tiles, more, p, limit, nullptr, stats, held);
        return std::pair<bool, uint64_t>(ok, stats.states);
      },
      py::arg("tiles"), py::arg("more"), py::arg("params"), py::arg("limit") = py::none(),
      py::arg("guides") = py::none(),
      "Whether `tiles` and `more` together split into valid melds, and the search states it took: arrange's answer "
      "without building the melds; SearchLimitError past `limit` states in a run. When the numbers of `more` (a "
      "rack) lie higher than those of `tiles` (a table), the search goes from the top number down: the answer is the "
      "same, the states differ. With `guides` (ArrangeGuides), the search tries first the steps of the nearest "
      "arrangement they hold (of a search the same way), and keeps the one it finds: the answer is the same, the "
      "states it takes depend on what they held.");

  m.def(
      "solve",
      [](const std::vector<int64_t>& table_codes, const TileSet& rack, const SearchRules& rules, bool opened,
         int objective_value, const Limit& limit) {
        const Objective objective = objective_of(objective_value);
        const size_t node_limit = node_limit_of(limit);
        const Position pos = position_of(table_codes, rack, rules.p);
        PlayResult out;
        SolveOutcome result;
        if (checked_solve(pos, rack, rules, opened, objective, node_limit, out, result.stats)) {
          result.play = bound_play(out);
        }
        return result;
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened").noconvert(),
      py::arg("objective").noconvert(), py::arg("limit") = py::none(),
      "The best legal play onto a table given as meld codes, the objective as its number (Objective's value); "
      "SearchLimitError past `limit` states in a run.");

  // solve and arrange as rummikub.search reads them: the parts of the answer straight away, without a result
  // object to build, read and free at each call (a fifth of the Python side of a small search). solve_play checks
  // a table once per thread while it comes again (known_table_of), as a game asks about it turn after turn.
  m.def(
      "solve_play",
      [](const TableCodes& table_codes, const TileSet& rack, const SearchRules& rules, bool opened,
         int objective_value, const Limit& limit) {
        const Objective objective = objective_of(objective_value);
        const size_t node_limit = node_limit_of(limit);
        const Position& pos = known_table_of(table_codes.codes, rules.p);
        check_rack(pos, rack, rules.p);
        PlayResult out;
        SearchStats stats;
        if (!checked_solve(pos, rack, rules, opened, objective, node_limit, out, stats)) {
          return py::reinterpret_borrow<PlayParts>(py::none());
        }
        know_found_table(pos, rules.p, out.table, out.played);  // (pos may be replaced: not read after this)
        return py::reinterpret_steal<PlayParts>(py::make_tuple(out.played, meld_codes(out.table), out.value, stats).release());
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened").noconvert(),
      py::arg("objective").noconvert(), py::arg("limit") = py::none(),
      "solve's best play as (played, table, value, stats), or None when no rack tile can be played.");

  m.def(
      "arrange_table",
      [](const TileSet& tiles, const Params& p, const Limit& limit) {
        std::vector<Meld> out;
        SearchStats stats;
        if (!checked_arrange(tiles, TileSet(), p, limit, &out, stats)) return py::reinterpret_borrow<py::typing::Optional<Codes>>(py::none());
        return py::reinterpret_steal<py::typing::Optional<Codes>>(meld_codes(out).release());
      },
      py::arg("tiles"), py::arg("params"), py::arg("limit") = py::none(),
      "arrange's meld codes, or None when the tiles form no partition.");

  m.def(
      "all_plays",
      [](const std::vector<int64_t>& table_codes, const TileSet& rack, const SearchRules& rules, bool opened,
         const Limit& limit) {
        const size_t node_limit = node_limit_of(limit);
        const Position pos = position_of(table_codes, rack, rules.p);
        PlayEnumeration out;
        SearchStats stats;
        PlaysStatus status;
        {
          py::gil_scoped_release release;
          status = all_plays(pos.table, rack, rules, opened, out, &stats, node_limit);
        }
        if (status == PlaysStatus::RackTooLarge) {
          raise_error(ErrorKind::Rummikub, "plays of " + where(pos.table, rack) +
                                               ": plays() handles racks of at most 64 numbered tiles");
        }
        if (status == PlaysStatus::TooMany) {
          raise_error(ErrorKind::SearchLimit, "plays of " + where(pos.table, rack) +
                                                  ": too many plays to list: the enumeration passed its limit of " +
                                                  limit_text(node_limit) + " (pass a larger limit, or None for none)");
        }
        if (status != PlaysStatus::Ok) {
          raise_error(ErrorKind::TileCount, "plays of " + where(pos.table, rack) + ": the position does not fit the rule set");
        }
        return PlayList(std::move(out), stats, rack);
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened").noconvert(), py::arg("limit") = py::none(),
      "Every distinct legal play onto a table given as meld codes, best first; SearchLimitError past `limit` states.");

  m.def(
      "solve_batch",
      [](const py::array_t<int64_t, py::array::c_style>& tables, const py::array_t<int64_t, py::array::c_style>& racks,
         const SearchRules& rules, const py::array_t<bool, py::array::c_style>& opened, int objective_value,
         const Limit& limit, int threads) {
        const Objective objective = objective_of(objective_value);
        const size_t node_limit = node_limit_of(limit);
        if (threads < 1 || threads > 256) {
          raise_error(ErrorKind::Rummikub, "threads must be in 1..256, got " + std::to_string(threads));
        }
        if (tables.ndim() != 2 || racks.ndim() != 2 || tables.shape(1) != kJoker + 1 ||
            racks.shape(1) != kJoker + 1 || tables.shape(0) != racks.shape(0)) {
          raise_error(ErrorKind::TileCount, "tables and racks must be (n, 65) count arrays of the same length");
        }
        const py::ssize_t n = tables.shape(0);
        if (opened.ndim() != 1 || opened.shape(0) != n) {
          raise_error(ErrorKind::Rummikub, "opened must be a bool or a length-" + std::to_string(n) + " bool array");
        }
        std::vector<TileSet> ts(static_cast<size_t>(n)), rs(static_cast<size_t>(n));
        auto tv = tables.unchecked<2>();
        auto rv = racks.unchecked<2>();
        for (py::ssize_t i = 0; i < n; ++i) {
          const size_t u = static_cast<size_t>(i);
          for (py::ssize_t k = 0; k <= kJoker; ++k) {
            if (tv(i, k) < 0 || tv(i, k) > kMaxCount || rv(i, k) < 0 || rv(i, k) > kMaxCount) {
              raise_error(ErrorKind::TileCount, "position " + std::to_string(i) + ": count out of range 0..7 at code " +
                                                    std::to_string(k));
            }
            ts[u].add(static_cast<int>(k), static_cast<int>(tv(i, k)));
            rs[u].add(static_cast<int>(k), static_cast<int>(rv(i, k)));
          }
          // Both fit a supported rule set (at most 3 copies, 4 jokers), so their sum cannot overflow a count.
          if (fits_rules(ts[u], rules.p) && fits_rules(rs[u], rules.p) && fits_rules(sum(ts[u], rs[u]), rules.p)) continue;
          const std::string at = "position " + std::to_string(i) + ": ";
          require_fits(ts[u], rules.p, at + "table " + quoted(tiles_text(ts[u])));
          require_fits(rs[u], rules.p, at + "rack " + quoted(tiles_text(rs[u])));
          require_fits(sum(ts[u], rs[u]), rules.p,
                       at + "table " + quoted(tiles_text(ts[u])) + " with rack " + quoted(tiles_text(rs[u])));
        }
        auto ov = opened.unchecked<1>();
        BatchOutcome out{py::array_t<bool>(n), py::array_t<uint8_t>({n, static_cast<py::ssize_t>(kJoker + 1)}),
                         py::array_t<int32_t>(n), py::array_t<int32_t>(n), py::array_t<int64_t>(n), {}};
        auto fw = out.found.mutable_unchecked<1>();
        auto pw = out.played.mutable_unchecked<2>();
        auto tw = out.tiles.mutable_unchecked<1>();
        auto vw = out.value.mutable_unchecked<1>();
        auto kw = out.key.mutable_unchecked<1>();
        {
          py::gil_scoped_release release;
          // Positions are handed out one at a time (their costs vary a hundredfold) to `threads` workers: this
          // thread and threads - 1 more; each has its own counters (summed after) and its own search scratch.
          const int workers = static_cast<int>(std::min<py::ssize_t>(threads, std::max<py::ssize_t>(n, 1)));
          std::atomic<py::ssize_t> next{0};
          std::atomic<bool> stop{false};
          std::vector<SearchStats> part(static_cast<size_t>(workers));
          auto work = [&](int w) {
            SearchStats& st = part[static_cast<size_t>(w)];
            for (py::ssize_t i = next++; i < n && !stop.load(std::memory_order_relaxed); i = next++) {
              PlayResult r;
              const bool ok = solve_tiles(ts[static_cast<size_t>(i)], rs[static_cast<size_t>(i)], rules, ov(i),
                                          objective, r, &st, node_limit);
              if (st.limited != 0) {
                stop = true;
                break;
              }
              fw(i) = ok;
              for (int k = 0; k <= kJoker; ++k) pw(i, k) = static_cast<uint8_t>(ok ? r.played.count(k) : 0);
              tw(i) = ok ? r.tiles : 0;
              vw(i) = ok ? r.value : 0;
              kw(i) = ok ? r.key : 0;
            }
          };
          std::vector<std::thread> pool;
          pool.reserve(static_cast<size_t>(workers - 1));
          for (int w = 1; w < workers; ++w) pool.emplace_back(work, w);
          work(0);
          for (std::thread& t : pool) t.join();
          for (const SearchStats& st : part) {
            out.stats.states += st.states;
            out.stats.transitions += st.transitions;
            out.stats.runs += st.runs;
            out.stats.limited |= st.limited;
          }
        }
        require_within_limit(out.stats, node_limit, "solve_batch");
        return out;
      },
      py::arg("tables").noconvert(), py::arg("racks").noconvert(), py::arg("rules"), py::arg("opened").noconvert(),
      py::arg("objective").noconvert(), py::arg("limit") = py::none(), py::arg("threads") = 1,
      "Best plays of many positions given as (n, 65) int64 count arrays and a bool array `opened`, the objective as "
      "its number (Objective's value); table jokers "
      "count as free. `threads` workers share the batch (the answers do not depend on it).");
}
