#pragma once
// Loading shared libraries by path or name (dlopen / LoadLibraryExW) and finding symbols.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

/// Loads a library now (all symbols bound), locally. The error text is the loader's own.
Result<void*> load_library(const std::string& path_or_name);
void* find_symbol(void* library, const char* name);

/// This program's own path (to run itself as a child probe).
std::string self_executable();

struct ChildResult {
  int exit_code = -1;
  int signal = 0;        // the signal that ended it (POSIX), 0 if none
  bool timed_out = false;
  std::string out;
  std::string err;
};

/// Runs argv with `extra_env` added, captures both streams, kills it after `timeout_ms`.
Result<ChildResult> run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& extra_env,
                              int timeout_ms);

} // namespace cudnnctl::platform
