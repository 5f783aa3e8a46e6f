// The test framework, Catch2 v2 (one header) or v3 (split headers), whichever the system provides.
#pragma once

#if defined(RUMMIKUB_CATCH3)
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif
