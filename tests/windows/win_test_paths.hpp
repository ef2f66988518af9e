#pragma once
// The Windows tests' path helpers: the project's UTF-8 <-> path functions (base/utf8_path) under short names,
// and a fresh scratch folder per test (ids are unique per run: wine reuses process ids).
#include <filesystem>
#include <string>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl::wintest {

inline std::string utf8(const std::filesystem::path& p) { return utf8_of(p); }
inline std::filesystem::path from_utf8(const std::string& s) { return path_from_utf8(s); }

inline std::filesystem::path scratch(const char* name) {
  const auto p = std::filesystem::temp_directory_path() / ("cudnnctl-wintest-" + platform::unique_id()) / name;
  std::filesystem::create_directories(p);
  return p;
}

} // namespace cudnnctl::wintest
