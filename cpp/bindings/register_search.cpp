// Bindings for the search: arrange, solve, all_plays and the batch entry point.
// Every call releases the GIL while the engine runs: the engine touches no Python object, and a
// server or an arena can then search in several threads at once.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
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

py::dict stats_dict(const SearchStats& s) {
  py::dict d;
  d["states"] = s.states;
  d["transitions"] = s.transitions;
  d["runs"] = s.runs;
  return d;
}

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

  py::class_<PlayResult>(m, "PlayResult", "One legal play: the rack tiles placed and the whole new table.")
      .def_readonly("played", &PlayResult::played)
      .def_readonly("table", &PlayResult::table)
      .def_readonly("key", &PlayResult::key)
      .def_readonly("tiles", &PlayResult::tiles)
      .def_readonly("value", &PlayResult::value);

  m.def(
      "arrange",
      [](const TileSet& tiles, const Params& p) {
        require_supported(p);
        require_fits(tiles, p, "the tiles");
        std::vector<Meld> out;
        SearchStats stats;
        bool ok;
        {
          py::gil_scoped_release release;
          ok = arrange(tiles, p, out, &stats);
        }
        return py::make_tuple(ok ? py::cast(out) : py::none(), stats_dict(stats));
      },
      py::arg("tiles"), py::arg("params"),
      "Partitions every tile into valid melds: (melds or None, work counters).");

  m.def(
      "solve",
      [](const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
         Objective objective, size_t node_limit) {
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
        return py::make_tuple(ok ? py::cast(out) : py::none(), stats_dict(stats));
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened"), py::arg("objective"),
      py::arg("node_limit") = 0,
      "The best legal play: (PlayResult or None, work counters).");

  m.def(
      "all_plays",
      [](const std::vector<Meld>& table, const TileSet& rack, const SearchRules& rules, bool opened,
         size_t node_limit) {
        require_table(table, rules.p);
        require_position(table_tiles(table), rack, rules.p);
        std::vector<PlayResult> out;
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
        return py::make_tuple(out, stats_dict(stats));
      },
      py::arg("table"), py::arg("rack"), py::arg("rules"), py::arg("opened"), py::arg("node_limit") = 0,
      "Every distinct legal play, best first: (list of PlayResult, work counters).");

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
