// Bindings for the search: arrange, solve, all_plays and the batch entry point.
// Every call releases the GIL while the engine runs: the engine touches no Python object, and a
// server or an arena can then search in several threads at once.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "register.h"
#include "rummikub/search.h"

using namespace rummikub;

namespace {

void require_supported(const Params& p) {
  require_params(p);
  if (!search_supported(p)) {
    throw py::value_error("the search handles at most 3 copies, 4 jokers and a minimum set length of 7");
  }
}

void require_table(const std::vector<Meld>& table, const Params& p) {
  TileSet all;
  for (size_t i = 0; i < table.size(); ++i) {
    const MeldError e = check_meld(table[i], p);
    if (e != MeldError::Ok) throw py::value_error("meld " + std::to_string(i + 1) + ": " + meld_error_text(e));
    const TileSet t = table[i].tiles();
    if (!sum_fits(all, t)) throw py::value_error("the table holds too many copies of a tile");
    all = sum(all, t);
  }
  require_fits(all, p, "the table");
}

void require_position(const TileSet& table, const TileSet& rack, const Params& p) {
  require_fits(rack, p, "the rack");
  require_fits(table, p, "the table");
  if (!sum_fits(table, rack) || !fits_rules(sum(table, rack), p)) {
    throw py::value_error("the table and the rack together hold more copies of a tile than the rule set has");
  }
}

TileSet table_tiles(const std::vector<Meld>& table) {
  TileSet all;
  for (const Meld& m : table) all = sum(all, m.tiles());
  return all;
}

// The shapes of the results, spelled out for the generated stub (_core.pyi).
using Codes = py::typing::Tuple<py::int_, py::ellipsis>;  // meld codes, one per meld
using Counters = py::typing::Tuple<py::int_, py::int_, py::int_>;  // states, transitions, runs
using PlayTuple = py::typing::Tuple<TileSet, Codes, py::int_>;  // played tiles, new table, value

// The work counters as a (states, transitions, runs) tuple.
Counters stats_tuple(const SearchStats& s) { return Counters(py::make_tuple(s.states, s.transitions, s.runs)); }

py::dict stats_dict(const SearchStats& s) {
  py::dict d;
  d["states"] = s.states;
  d["transitions"] = s.transitions;
  d["runs"] = s.runs;
  return d;
}

// A meld as one small int, so that a search result crosses into Python as a tuple of ints instead of a
// list of wrapped Meld objects (the Python side keeps one shared Meld per code). Fields, low bit first:
// joker_slots (16 bits), colours (4), length (5), number (5), colour (2), kind (1): at most 33 bits.
static_assert(kMaxNumbers <= 16 && kMaxColours <= 4, "meld codes hold 16 slots and 4 colours");
constexpr int kCodeColours = 16, kCodeLength = 20, kCodeNumber = 25, kCodeColour = 30, kCodeKind = 32;

int64_t meld_code(const Meld& m) {
  const uint64_t code = static_cast<uint64_t>(m.joker_slots) | static_cast<uint64_t>(m.colours) << kCodeColours |
                        static_cast<uint64_t>(m.length) << kCodeLength |
                        static_cast<uint64_t>(m.number) << kCodeNumber | static_cast<uint64_t>(m.colour) << kCodeColour |
                        static_cast<uint64_t>(m.kind == MeldKind::Group) << kCodeKind;
  return static_cast<int64_t>(code);
}

Meld meld_of_code(int64_t code) {
  const uint64_t c = static_cast<uint64_t>(code);
  if (code < 0 || c >> (kCodeKind + 1) != 0) {
    throw py::value_error("meld code " + std::to_string(code) + " out of range");
  }
  Meld m;
  m.joker_slots = static_cast<uint32_t>(c & 0xFFFF);
  m.colours = static_cast<uint32_t>(c >> kCodeColours & 0xF);
  m.length = static_cast<int>(c >> kCodeLength & 0x1F);
  m.number = static_cast<int>(c >> kCodeNumber & 0x1F);
  m.colour = static_cast<int>(c >> kCodeColour & 0x3);
  m.kind = (c >> kCodeKind & 1) != 0 ? MeldKind::Group : MeldKind::Run;
  return m;
}

// Whether the meld's fields fit their code fields (an engine meld always does; checked so that a code
// never stands for a different meld).
bool codable(const Meld& m) {
  return m.joker_slots <= 0xFFFF && m.colours <= 0xF && m.length >= 0 && m.length <= 0x1F && m.number >= 0 &&
         m.number <= 0x1F && m.colour >= 0 && m.colour <= 0x3;
}

// The melds of a table as a tuple of meld codes (built with the C API: this runs once per play).
Codes meld_codes(const std::vector<Meld>& table) {
  Codes out(table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    if (!codable(table[i])) throw std::runtime_error("a meld of the search does not fit a meld code");
    PyObject* v = PyLong_FromLongLong(meld_code(table[i]));
    if (v == nullptr) throw py::error_already_set();
    PyTuple_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), v);
  }
  return out;
}

// The melds of meld codes (a table given to the search).
std::vector<Meld> melds_of_codes(const std::vector<int64_t>& codes) {
  std::vector<Meld> out;
  out.reserve(codes.size());
  for (int64_t c : codes) out.push_back(meld_of_code(c));
  return out;
}

// A play as (played tiles, meld codes of the new table, value).
PlayTuple play_tuple(const PlayResult& r) { return PlayTuple(py::make_tuple(r.played, meld_codes(r.table), r.value)); }

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
  explicit PlayList(PlayEnumeration plays) : plays_(std::move(plays)) {}

  py::ssize_t size() const { return static_cast<py::ssize_t>(plays_.size()); }

  const PlayResult& at(py::ssize_t i) {
    if (i < 0) i += size();
    if (i < 0 || i >= size()) throw py::index_error("play index out of range");
    return plays_.at(static_cast<size_t>(i));
  }

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

  // Plays start..stop-1 (clipped to the list) as play tuples: iteration fetches a chunk per call.
  py::typing::List<PlayTuple> slice(py::ssize_t start, py::ssize_t stop) {
    start = std::max<py::ssize_t>(0, std::min(start, size()));
    stop = std::max(start, std::min(stop, size()));
    py::typing::List<PlayTuple> out(static_cast<size_t>(stop - start));
    for (py::ssize_t i = start; i < stop; ++i) out[static_cast<size_t>(i - start)] = play_tuple(at(i));
    return out;
  }

  py::typing::List<TileSet> played() const {
    py::typing::List<TileSet> out(plays_.size());
    for (size_t i = 0; i < plays_.size(); ++i) out[i] = py::cast(plays_.played(i));
    return out;
  }

 private:
  PlayEnumeration plays_;
  std::unordered_map<TileSet, size_t, TileSetHash> by_played_;
};

// Raises ValueError when a search stopped at its node limit (its answer is unknown, not "no play").
void require_within_limit(const SearchStats& s, size_t node_limit) {
  if (s.limited != 0) {
    throw py::value_error("search limit: a programme run passed " + std::to_string(node_limit) + " states");
  }
}

}  // namespace

void register_search(py::module_& m) {
  py::enum_<Objective>(m, "Objective")
      .value("TILES", Objective::Tiles)
      .value("VALUE", Objective::Value)
      .value("PENALTY", Objective::Penalty);
  py::enum_<JokerPolicy>(m, "JokerPolicy")
      .value("FREE", JokerPolicy::Free)
      .value("REPLACE", JokerPolicy::Replace)
      .value("REPLACE_FROM_RACK", JokerPolicy::ReplaceFromRack);

  py::class_<SearchRules>(m, "SearchRules", "The rules the search needs (tile parameters and turn variants).")
      .def(py::init([](const Params& p, int opening_threshold, bool joker_in_opening, bool extend_after_opening,
                       JokerPolicy policy, int joker_penalty) {
             require_supported(p);
             if (opening_threshold < 0 || joker_penalty < 0) {
               throw py::value_error("opening_threshold and joker_penalty must be >= 0");
             }
             return SearchRules{p, opening_threshold, joker_in_opening, extend_after_opening, policy, joker_penalty};
           }),
           py::arg("params"), py::arg("opening_threshold"), py::arg("joker_in_opening"),
           py::arg("extend_after_opening"), py::arg("policy"), py::arg("joker_penalty"));

  py::class_<PlayList>(m, "PlayList",
                       "Every legal play of a position, kept in the core: a play is read by index as (played "
                       "tiles, meld codes of the new table, value); its table is built when first read.")
      .def("__len__", &PlayList::size)
      .def("play", [](PlayList& l, py::ssize_t i) { return play_tuple(l.at(i)); }, py::arg("index"),
           "Play number `index` as (played tiles, meld codes of the new table, value).")
      .def("slice", &PlayList::slice, py::arg("start"), py::arg("stop"),
           "Plays start..stop-1 (clipped to the list) as play tuples.")
      .def("index", &PlayList::index, py::arg("tiles"), "The index of the play placing exactly `tiles`, or -1.")
      .def("played", &PlayList::played, "The played tiles of every play, in order.");

  m.def("meld_code", [](const Meld& x) {
        if (!codable(x)) throw py::value_error("the meld's fields do not fit a meld code");
        return meld_code(x);
      }, py::arg("meld"), "The meld as the int code the search results use.");
  m.def("meld_of_code", &meld_of_code, py::arg("code"), "The meld of a code from meld_code or a search result.");

  m.def(
      "arrange",
      [](const TileSet& tiles, const Params& p) -> py::typing::Tuple<py::typing::Optional<Codes>, Counters> {
        require_supported(p);
        require_fits(tiles, p, "the tiles");
        std::vector<Meld> out;
        SearchStats stats;
        bool ok;
        {
          py::gil_scoped_release release;
          ok = arrange(tiles, p, out, &stats);
        }
        return py::make_tuple(ok ? py::object(meld_codes(out)) : py::none(), stats_tuple(stats));
      },
      py::arg("tiles"), py::arg("params"),
      "Partitions every tile into valid melds: (meld codes or None, (states, transitions, runs)).");

  m.def(
      "solve",
      [](const std::vector<int64_t>& table_codes, const TileSet& rack, const SearchRules& rules, bool opened,
         Objective objective, size_t node_limit)
          -> py::typing::Tuple<py::typing::Optional<TileSet>, Codes, py::int_, py::int_, py::int_, py::int_> {
        const std::vector<Meld> table = melds_of_codes(table_codes);
        require_table(table, rules.p);
        require_position(table_tiles(table), rack, rules.p);
        PlayResult out;
        SearchStats stats;
        bool ok;
        {
          py::gil_scoped_release release;
          ok = solve(table, rack, rules, opened, objective, out, &stats, node_limit);
        }
        require_within_limit(stats, node_limit);
        const py::object played = ok ? py::cast(out.played) : py::none();
        return py::make_tuple(played, ok ? meld_codes(out.table) : py::tuple(), ok ? out.value : 0, stats.states,
                              stats.transitions, stats.runs);
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened"), py::arg("objective"),
      py::arg("node_limit") = 0,
      "The best legal play onto a table given as meld codes: (played tiles or None, meld codes of the new "
      "table, value, states, transitions, runs).");

  m.def(
      "all_plays",
      [](const std::vector<int64_t>& table_codes, const TileSet& rack, const SearchRules& rules, bool opened,
         size_t node_limit) -> py::typing::Tuple<PlayList, Counters> {
        const std::vector<Meld> table = melds_of_codes(table_codes);
        require_table(table, rules.p);
        require_position(table_tiles(table), rack, rules.p);
        PlayEnumeration out;
        SearchStats stats;
        PlaysStatus status;
        {
          py::gil_scoped_release release;
          status = all_plays(table, rack, rules, opened, out, &stats, node_limit);
        }
        if (status == PlaysStatus::RackTooLarge) throw py::value_error("plays() handles racks of at most 64 numbered tiles");
        if (status == PlaysStatus::TooMany) {
          throw py::value_error("too many plays to list: the enumeration passed its limit of " +
                                std::to_string(node_limit) + " search states");
        }
        if (status != PlaysStatus::Ok) throw py::value_error("the position does not fit the rule set");
        return py::make_tuple(PlayList(std::move(out)), stats_tuple(stats));
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened"), py::arg("node_limit") = 0,
      "Every distinct legal play onto a table given as meld codes, best first: (PlayList, (states, "
      "transitions, runs)).");

  m.def(
      "solve_batch",
      [](py::array_t<int64_t, py::array::c_style | py::array::forcecast> tables,
         py::array_t<int64_t, py::array::c_style | py::array::forcecast> racks, const SearchRules& rules,
         py::array_t<bool, py::array::c_style | py::array::forcecast> opened, Objective objective,
         size_t node_limit) {
        if (tables.ndim() != 2 || racks.ndim() != 2 || tables.shape(1) != kJoker + 1 ||
            racks.shape(1) != kJoker + 1 || tables.shape(0) != racks.shape(0)) {
          throw py::value_error("tables and racks must be (n, 65) count arrays of the same length");
        }
        const py::ssize_t n = tables.shape(0);
        if (opened.ndim() != 1 || opened.shape(0) != n) throw py::value_error("opened must be a length-n bool array");
        std::vector<TileSet> ts(static_cast<size_t>(n)), rs(static_cast<size_t>(n));
        auto tv = tables.unchecked<2>();
        auto rv = racks.unchecked<2>();
        for (py::ssize_t i = 0; i < n; ++i) {
          for (py::ssize_t k = 0; k <= kJoker; ++k) {
            if (tv(i, k) < 0 || tv(i, k) > kMaxCount || rv(i, k) < 0 || rv(i, k) > kMaxCount) {
              throw py::value_error("count out of range 0..7 in position " + std::to_string(i));
            }
            ts[static_cast<size_t>(i)].add(static_cast<int>(k), static_cast<int>(tv(i, k)));
            rs[static_cast<size_t>(i)].add(static_cast<int>(k), static_cast<int>(rv(i, k)));
          }
          try {
            require_position(ts[static_cast<size_t>(i)], rs[static_cast<size_t>(i)], rules.p);
          } catch (const py::value_error& e) {
            throw py::value_error("position " + std::to_string(i) + ": " + e.what());
          }
        }
        auto ov = opened.unchecked<1>();
        py::array_t<bool> found(n);
        py::array_t<uint8_t> played({n, static_cast<py::ssize_t>(kJoker + 1)});
        py::array_t<int32_t> tiles(n), value(n);
        py::array_t<int64_t> key(n);
        auto fw = found.mutable_unchecked<1>();
        auto pw = played.mutable_unchecked<2>();
        auto tw = tiles.mutable_unchecked<1>();
        auto vw = value.mutable_unchecked<1>();
        auto kw = key.mutable_unchecked<1>();
        SearchStats stats;
        {
          py::gil_scoped_release release;
          for (py::ssize_t i = 0; i < n; ++i) {
            PlayResult r;
            const bool ok = solve_tiles(ts[static_cast<size_t>(i)], rs[static_cast<size_t>(i)], rules, ov(i), objective,
                                        r, &stats, node_limit);
            if (stats.limited != 0) break;
            fw(i) = ok;
            for (int k = 0; k <= kJoker; ++k) pw(i, k) = static_cast<uint8_t>(ok ? r.played.count(k) : 0);
            tw(i) = ok ? r.tiles : 0;
            vw(i) = ok ? r.value : 0;
            kw(i) = ok ? r.key : 0;
          }
        }
        require_within_limit(stats, node_limit);
        py::dict out;
        out["found"] = found;
        out["played"] = played;
        out["tiles"] = tiles;
        out["value"] = value;
        out["key"] = key;
        out["stats"] = stats_dict(stats);
        return out;
      },
      py::arg("tables"), py::arg("racks"), py::arg("rules"), py::arg("opened"), py::arg("objective"),
      py::arg("node_limit") = 0, "Best plays of many positions given as (n, 65) count arrays; table jokers count as free.");
}
