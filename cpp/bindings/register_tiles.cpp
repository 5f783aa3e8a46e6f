// Bindings for Params and TileSet. Every argument a user can pass is checked here, so that nothing
// reaching the engine can break its invariants (counts within kMaxCount, codes in range).
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "register.h"

using namespace rummikub;

namespace {

constexpr int kMaxJokerValue = 1000000;

// Builds a TileSet from tile codes, refusing codes out of range and counts above kMaxCount.
TileSet from_codes(const std::vector<int>& codes) {
  TileSet s;
  for (int c : codes) {
    if (c < 0 || c > kJoker) {
      raise_error(ErrorKind::InvalidTile, "tile code " + std::to_string(c) + " out of range 0..64");
    }
    if (s.count(c) >= kMaxCount) {
      TileSet one;
      one.add(c);
      raise_error(ErrorKind::TileCount, "a TileSet holds at most 7 copies of one tile, got more of " + tiles_text(one));
    }
    s.add(c);
  }
  return s;
}

std::vector<int> to_codes(const TileSet& s) {
  std::vector<int> out;
  out.reserve(static_cast<size_t>(s.size()));
  for (int code = 0; code < kCodes; ++code) {
    for (int k = s.count(code); k > 0; --k) out.push_back(code);
  }
  for (int k = 0; k < s.jokers; ++k) out.push_back(kJoker);
  return out;
}

// Weighted sums over the neighbours of a rack's tile codes (the hard bot's flexibility of a kept tile,
// rummikub.bots.hard): for each code c the rack holds (not the joker), near starts at 0.0 and adds, for each
// neighbour (k, w) of c in order, w * on[n] when the rack holds k and w * off[n] when not (n: the copies of k in
// `unseen`); the result is near / divisor, at most cap. The same floating-point operations in the same order as the
// Python loop it stands for, so the same doubles; 0.0 for the codes the rack does not hold and for the joker.
class NeighbourSums {
 public:
  NeighbourSums(std::vector<std::vector<std::pair<int, double>>> neighbours, std::vector<double> on,
                std::vector<double> off, double divisor, double cap)
      : neighbours_(std::move(neighbours)), on_(std::move(on)), off_(std::move(off)), divisor_(divisor), cap_(cap) {
    if (neighbours_.size() != kCodes) {
      raise_error(ErrorKind::Rummikub, "neighbours must list 64 tile codes' neighbours, got " +
                                           std::to_string(neighbours_.size()));
    }
    for (const auto& list : neighbours_) {
      for (const auto& [k, w] : list) {
        if (k < 0 || k >= kCodes) {
          raise_error(ErrorKind::InvalidTile, "neighbour code " + std::to_string(k) + " out of range 0..63");
        }
      }
    }
    if (on_.size() != kMaxCount + 1 || off_.size() != kMaxCount + 1) {
      raise_error(ErrorKind::Rummikub, "on and off must hold one float per count 0.." + std::to_string(kMaxCount));
    }
  }

  std::vector<double> of(const TileSet& rack, const TileSet& unseen) const {
    std::vector<double> out(kJoker + 1, 0.0);
    for (int code = 0; code < kCodes; ++code) {
      if (rack.count(code) == 0) continue;
      double near = 0.0;
      for (const auto& [k, w] : neighbours_[static_cast<size_t>(code)]) {
        const auto n = static_cast<size_t>(unseen.count(k));
        near += w * (rack.count(k) != 0 ? on_[n] : off_[n]);
      }
      near /= divisor_;
      out[static_cast<size_t>(code)] = near < cap_ ? near : cap_;
    }
    return out;
  }

 private:
  std::vector<std::vector<std::pair<int, double>>> neighbours_;
  std::vector<double> on_, off_;
  double divisor_, cap_;
};

}  // namespace

void register_tiles(py::module_& m) {
  m.attr("MAX_NUMBERS") = kMaxNumbers;
  m.attr("MAX_COLOURS") = kMaxColours;
  m.attr("MAX_COUNT") = kMaxCount;
  m.attr("JOKER") = kJoker;

  // Params is bound first, its full_set() after TileSet: a method bound before its return type is
  // registered shows the C++ name in its signature, which breaks the generated stub (_core.pyi).
  py::class_<Params> params(m, "Params", "Tile-set parameters of a rule set, as the engine sees them.");
  params
      .def(py::init([](int numbers, int colours, int copies, int jokers, int min_len) {
             Params p{numbers, colours, copies, jokers, min_len};
             require_params(p);
             return p;
           }),
           py::arg("numbers") = 13, py::arg("colours") = 4, py::arg("copies") = 2, py::arg("jokers") = 2,
           py::arg("min_len") = 3)
      .def_readonly("numbers", &Params::numbers)
      .def_readonly("colours", &Params::colours)
      .def_readonly("copies", &Params::copies)
      .def_readonly("jokers", &Params::jokers)
      .def_readonly("min_len", &Params::min_len);

  py::class_<TileSet>(m, "TileSet", "A multiset of tiles: four words of packed 4-bit counts plus a joker count.")
      .def(py::init<>())
      .def(py::init(&from_codes), py::arg("codes"))
      .def_static(
          "from_counts",
          [](py::array_t<int64_t, py::array::c_style | py::array::forcecast> counts) {
            if (counts.ndim() != 1 || counts.shape(0) != kJoker + 1) {
              raise_error(ErrorKind::TileCount, "counts must be a 1-d array of length 65 indexed by tile code");
            }
            auto r = counts.unchecked<1>();
            TileSet s;
            for (py::ssize_t i = 0; i <= kJoker; ++i) {
              if (r(i) < 0 || r(i) > kMaxCount) {
                raise_error(ErrorKind::TileCount, "count " + std::to_string(r(i)) + " at code " +
                                                      std::to_string(i) + " out of range 0..7");
              }
              s.add(static_cast<int>(i), static_cast<int>(r(i)));
            }
            return s;
          },
          py::arg("counts"))
      .def("to_counts",
           [](const TileSet& s) {
             py::array_t<uint8_t> out(kJoker + 1);
             auto w = out.mutable_unchecked<1>();
             for (int i = 0; i <= kJoker; ++i) w(i) = static_cast<uint8_t>(s.count(i));
             return out;
           })
      .def("codes", &to_codes, "Tile codes in canonical order (colour, then number, jokers last).")
      .def("count", [](const TileSet& s, int code) {
             if (code < 0 || code > kJoker) {
               raise_error(ErrorKind::InvalidTile, "tile code " + std::to_string(code) + " out of range 0..64");
             }
             return s.count(code);
           })
      .def("size", &TileSet::size)
      .def("value",
           [](const TileSet& s, int joker_value) {
             // The engine sums in int: a joker value within kMaxJokerValue cannot overflow it.
             if (joker_value < 0 || joker_value > kMaxJokerValue) {
               raise_error(ErrorKind::Rummikub, "joker_value must be an int in 0.." + std::to_string(kMaxJokerValue) +
                                                    ", got " + std::to_string(joker_value));
             }
             return s.value(joker_value);
           },
           py::arg("joker_value"), "The sum of the numbers, each joker counting joker_value (0..1000000).")
      .def("max_count", &TileSet::max_count)
      .def("contains", [](const TileSet& a, const TileSet& b) { return contains(a, b); })
      .def("sum",
           [](const TileSet& a, const TileSet& b) {
             if (!sum_fits(a, b)) {
               raise_error(ErrorKind::TileCount, "a TileSet holds at most 7 copies of one tile: " +
                                                     quoted(tiles_text(a)) + " + " + quoted(tiles_text(b)));
             }
             return sum(a, b);
           })
      .def("difference",
           [](const TileSet& a, const TileSet& b) {
             if (!contains(a, b)) {
               raise_error(ErrorKind::TileCount, "cannot remove " + quoted(tiles_text(b)) + " from " +
                                                     quoted(tiles_text(a)) + ": it lacks " +
                                                     quoted(tiles_text(difference(b, intersection(a, b)))));
             }
             return difference(a, b);
           })
      .def("intersection", [](const TileSet& a, const TileSet& b) { return intersection(a, b); })
      .def("fits", [](const TileSet& s, const Params& p) { return fits_rules(s, p); })
      .def("words", [](const TileSet& s) { return py::make_tuple(s.w[0], s.w[1], s.w[2], s.w[3], s.jokers); })
      .def("pretty", [](const TileSet& s) {
        char buf[512];
        return std::string(pretty(s, buf, sizeof buf));
      })
      .def(py::self == py::self)
      .def(py::self != py::self)
      .def("__hash__", [](const TileSet& s) {
        uint64_t h = 1469598103934665603ULL;
        for (uint64_t x : s.w) h = (h ^ x) * 1099511628211ULL;
        h = (h ^ static_cast<uint64_t>(s.jokers)) * 1099511628211ULL;
        return static_cast<py::ssize_t>(h >> 1);
      });

  params.def("full_set", [](const Params& p) { return full_set(p); }, "Every tile of the rule set.");

  py::class_<NeighbourSums> neighbour_sums(
      m, "NeighbourSums",
      "Weighted sums over the neighbours of a rack's tile codes (the hard bot's flexibility).\n\n"
      ">>> sums = NeighbourSums([[(1, 1.0)]] + [[]] * 63, [1.5] * 8, [0.25] * 8, 2.0, 1.0)\n"
      ">>> sums.of(TileSet([0]), TileSet([1]))[:2]\n"
      "[0.125, 0.0]");
  neighbour_sums
      .def(py::init<std::vector<std::vector<std::pair<int, double>>>, std::vector<double>, std::vector<double>, double,
                    double>(),
           py::arg("neighbours"), py::arg("on"), py::arg("off"), py::arg("divisor"), py::arg("cap"),
           "neighbours: for each tile code 0..63, its (code, weight) pairs in order; on, off: the value of a neighbour "
           "the rack holds or not, by its unseen copies (0..MAX_COUNT); the sum is divided by divisor, capped at cap.")
      .def("of", &NeighbourSums::of, py::arg("rack"), py::arg("unseen"),
           "65 floats by tile code: for each code the rack holds (not the joker), min(cap, sum of w * (on or off)[copies "
           "of the neighbour in unseen], in order, / divisor); 0.0 elsewhere.");
  construct_in_new(neighbour_sums);  // (a bare __new__ would hold no C++ value)
  construct_in_new(params);
  construct_in_new(m.attr("TileSet"));

  // random.Random.sample(codes, k) for each size k of `sizes` in turn (codes: population's tile codes as
  // TileSet.codes lists them; k at most their number), each sample as a TileSet, drawing through `getrandbits` (a
  // random.Random's) exactly the 32-bit words sample draws (rummikub.bots.hard: the threats' sampled racks).
  m.def(
      "sample_tiles",
      [](const TileSet& population, const std::vector<int>& sizes,
         const py::typing::Callable<py::int_(int)>& getrandbits) {
        const std::vector<int> codes = to_codes(population);
        const auto n = static_cast<int64_t>(codes.size());
        int64_t picks = 0;  // still to make
        for (int k : sizes) {
          if (k < 0 || k > n) {
            raise_error(ErrorKind::Rummikub, "sample_tiles: a sample of " + std::to_string(k) + " from " +
                                                 std::to_string(n) + " tiles");
          }
          picks += k;
        }
        // The words left of the last draw. Each pick still to make takes one word at least, so drawing that many
        // at a time (getrandbits(32 * m): m words, the first lowest) never draws more than sample does.
        std::vector<uint32_t> words;
        size_t at = 0;
        auto next_word = [&]() {
          if (at == words.size()) {
            const py::bytes b = getrandbits(32 * picks).attr("to_bytes")(4 * picks, "little");
            const std::string_view v = b;
            words.resize(static_cast<size_t>(picks));
            for (size_t i = 0; i < words.size(); ++i) {
              const auto* w = reinterpret_cast<const unsigned char*>(v.data() + 4 * i);
              words[i] = static_cast<uint32_t>(w[0]) | static_cast<uint32_t>(w[1]) << 8 |
                         static_cast<uint32_t>(w[2]) << 16 | static_cast<uint32_t>(w[3]) << 24;
            }
            at = 0;
          }
          return words[at++];
        };
        // Random._randbelow(bound): getrandbits(bound.bit_length()) (a word's top bits) until it is under bound.
        auto below = [&](int64_t bound) {
          int bits = 0;
          while ((bound >> bits) != 0) ++bits;
          for (;;) {
            const int64_t r = static_cast<int64_t>(next_word() >> (32 - bits));
            if (r < bound) return r;
          }
        };
        py::typing::List<TileSet> out;
        std::vector<int> pool;
        std::vector<int64_t> selected;
        for (int k : sizes) {
          // sample's choice of method: a list of the n items when it is smaller than a set of k indices
          int64_t setsize = 21;
          if (k > 5) {
            int64_t table = 1;  // 4 ** ceil(log(3k, 4)): 3k is never a power of 4
            while (table < 3 * int64_t{k}) table *= 4;
            setsize += table;
          }
          TileSet sample;
          if (n <= setsize) {
            pool = codes;
            for (int i = 0; i < k; ++i) {
              const int64_t j = below(n - i);
              sample.add(pool[static_cast<size_t>(j)]);
              pool[static_cast<size_t>(j)] = pool[static_cast<size_t>(n - i - 1)];
              --picks;
            }
          } else {
            selected.clear();
            for (int i = 0; i < k; ++i) {
              int64_t j = below(n);
              while (std::find(selected.begin(), selected.end(), j) != selected.end()) j = below(n);
              selected.push_back(j);
              sample.add(codes[static_cast<size_t>(j)]);
              --picks;
            }
          }
          out.append(py::cast(sample));
        }
        return out;
      },
      py::arg("population"), py::arg("sizes"), py::arg("getrandbits"),
      "random.Random.sample(population.codes(), k) for each k of sizes in turn, as TileSets, with exactly the words "
      "sample draws from the getrandbits given (a random.Random's).");

  // random.Random.shuffle's loop over 32-bit words the caller drew (rummikub.game.state._shuffle): for each index i
  // from `top` down to 1, a word's top k bits (k = (i + 1).bit_length()) are j, taken when j <= i (items i and j
  // swap) and else dropped, as _randbelow draws getrandbits(k) again. Stops when the words run out or i reaches 0,
  // and returns i: the caller draws that many words more (each index left takes one at least, so no more words are
  // drawn than random.shuffle draws).
  m.def(
      "shuffle_words",
      [](const py::list& items, py::ssize_t top, const py::bytes& words) {
        if (top < 0 || top >= static_cast<py::ssize_t>(PyList_GET_SIZE(items.ptr()))) {
          raise_error(ErrorKind::Rummikub, "shuffle_words: top " + std::to_string(top) + " is not an index of the list");
        }
        char* data = nullptr;
        py::ssize_t size = 0;
        if (PyBytes_AsStringAndSize(words.ptr(), &data, &size) != 0) throw py::error_already_set();
        PyObject** item = PySequence_Fast_ITEMS(items.ptr());
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        for (py::ssize_t at = 0; top > 0 && at + 4 <= size; at += 4) {
          const uint32_t w = static_cast<uint32_t>(bytes[at]) | static_cast<uint32_t>(bytes[at + 1]) << 8 |
                             static_cast<uint32_t>(bytes[at + 2]) << 16 | static_cast<uint32_t>(bytes[at + 3]) << 24;
          const uint64_t n = static_cast<uint64_t>(top) + 1;
          int k = 0;
          while (k < 64 && (n >> k) != 0) ++k;  // n.bit_length()
          if (k > 32) raise_error(ErrorKind::Rummikub, "shuffle_words: the list is too long for 32-bit words");
          const uint64_t j = static_cast<uint64_t>(w) >> (32 - k);
          if (j <= static_cast<uint64_t>(top)) {
            std::swap(item[top], item[static_cast<py::ssize_t>(j)]);
            --top;
          }
        }
        return top;
      },
      py::arg("items"), py::arg("top"), py::arg("words"),
      "random.shuffle's steps from index `top` down, with 32-bit little-endian words drawn by getrandbits; returns "
      "the index it stopped at (0: done).");
}
