#!/usr/bin/env bash
# Incremental developer build: compiles the extension with CMake into build/dev and drops _core*.so
# into python/rummikub, so `PYTHONPATH=python pytest` runs against the working tree without reinstalling.
# Pass -DRUMMIKUB_SANITIZE=ON (and a build dir via BUILD_DIR) for the ASan/UBSan build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
BUILD_DIR=${BUILD_DIR:-build/dev}
cmake -S . -B "$BUILD_DIR" -G Ninja -DSKBUILD=ON -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
  -Dpybind11_DIR="$("$PY" -m pybind11 --cmakedir)" -DPython_EXECUTABLE="$(command -v "$PY")" "$@" >/dev/null
cmake --build "$BUILD_DIR"
# Copy then rename, so processes that already loaded the old module keep a valid mapping.
for so in "$BUILD_DIR"/_core*.so; do
  cp "$so" "python/rummikub/.$(basename "$so").tmp" && mv -f "python/rummikub/.$(basename "$so").tmp" "python/rummikub/$(basename "$so")"
done
