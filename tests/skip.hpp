#pragma once
// A test that needs something this machine lacks (the project image's real toolkit) says so and
// stops; CTest reports it as skipped (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), never passed.
#include <catch2/catch.hpp>

#define CUDNNCTL_SKIP(why)            \
  do {                                \
    WARN("CUDNNCTL-SKIP: " << why);   \
    return;                           \
  } while (0)
