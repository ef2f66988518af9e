#pragma once
// Paths of the archives tests/archive/make_test_archives.py writes (a CTest fixture runs it first),
// and a temporary folder that removes itself.
#include <unistd.h>

#include <filesystem>
#include <cstdlib>
#include <string>
#include <vector>

#include "cudnnctl/archive/reader.hpp"

namespace cudnnctl::testing {

/// The top folders (and names without extension) of the 9.1.0.70 test archives, Linux and Windows.
inline const std::string L91 = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive";
inline const std::string W91 = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive";

inline std::string test_archive(const std::string& relative) { return std::string(CUDNNCTL_TEST_ARCHIVES) + "/" + relative; }

/// Extraction options for a test archive whose top folder is `top`.
inline ExtractOptions options_for(const std::string& top) {
  ExtractOptions o;
  o.policy.archive = "test";
  o.policy.expected_top = top;
  return o;
}

class TempDir {
public:
  TempDir() {
    static int counter = 0;
    m_path = std::filesystem::temp_directory_path() / ("cudnnctl-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  const std::filesystem::path& path() const { return m_path; }
  std::string str() const { return m_path.string(); }

private:
  std::filesystem::path m_path;
};

/// Sets environment variables for one test and removes them again (the probe children inherit them).
struct ScopedEnv {
  std::vector<std::string> names;
  void set(const char* n, const std::string& v) {
    ::setenv(n, v.c_str(), 1);
    names.push_back(n);
  }
  ~ScopedEnv() {
    for (const auto& n : names) ::unsetenv(n.c_str());
  }
};

} // namespace cudnnctl::testing
