// Bit counting for the engine's small masks (colours, joker slots, subsets of a few options).
#pragma once

#include <cstdint>

namespace rummikub {

// Returns the bits set in x. Written out rather than __builtin_popcount: a build for the baseline x86-64 target
// (no popcnt instruction, as wheels are) turns the builtin into a call into libgcc, several times dearer.
inline int popcount32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return static_cast<int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

}  // namespace rummikub
