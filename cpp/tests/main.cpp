// The test runner's entry point (Catch2 v3 links its own main: this file is then empty).
#if !defined(RUMMIKUB_CATCH3)
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
