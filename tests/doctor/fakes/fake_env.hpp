#pragma once
// The fakes' one knob: a number from the environment the test sets (FAKE_*), or the fallback.
#include <cstdlib>

inline long env_or(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtol(v, nullptr, 10) : fallback;
}
