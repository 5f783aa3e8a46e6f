// Shared declarations of the binding files: one register_* per area, plus argument checks.
#pragma once

#include <pybind11/pybind11.h>

#include "rummikub/tiles.h"

namespace py = pybind11;

void register_tiles(py::module_& m);
void register_meld(py::module_& m);
void register_search(py::module_& m);

// Raises ValueError unless the parameters are inside what the engine supports.
void require_params(const rummikub::Params& p);
// Raises ValueError unless the code names a tile of the parameters.
void require_code(int code, const rummikub::Params& p);
// Raises ValueError unless every tile of the set belongs to the parameters' full set.
void require_fits(const rummikub::TileSet& s, const rummikub::Params& p, const char* what);
