#pragma once
// Runs the real cudnnctl binary in a child with a time limit, for inputs that could block the process
// (a FIFO, a device) and for what only the binary shows (CLI11's usage text with the program name).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace cudnnctl::testing {

struct BinaryRun {
  int code = -1;  // 124 when the time limit killed it
  std::string out;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// stdout only (stderr joins it when `merge_stderr`); stdin is /dev/null.
inline BinaryRun run_binary(const std::vector<std::string>& args, bool merge_stderr = false, int seconds = 20) {
  std::string cmd = "timeout " + std::to_string(seconds) + " " + shell_quote(CUDNNCTL_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += merge_stderr ? " 2>&1 </dev/null" : " 2>/dev/null </dev/null";
  BinaryRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

} // namespace cudnnctl::testing
