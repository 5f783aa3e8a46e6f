// Rebuild: a play (its rack tiles, table and value) from a final node of a programme.
#pragma once

#include <cstddef>
#include <vector>

#include "programme.h"

namespace rummikub::search {

// Returns the play of final node f of a programme: its rack tiles, the whole new table (on an untouched table, the
// old melds then the new), value and key; with `mode`, sets `uncovered` as Programme::rebuild does.
PlayResult make_result(const Programme& prog, size_t f, const std::vector<Meld>& table, bool table_untouched,
                       const Mode* mode = nullptr, int* uncovered = nullptr);

}  // namespace rummikub::search
