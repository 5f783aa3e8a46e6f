// The exact search: partition a multiset into melds, and the best legal play.
#pragma once

#include "rummikub/meld.h"
#include "rummikub/tiles.h"

namespace rummikub {}  // namespace rummikub
