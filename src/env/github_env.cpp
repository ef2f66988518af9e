#include "cudnnctl/env/github_env.hpp"

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {
std::string random_delimiter(const std::string& value) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  for (;;) {
    const auto d = fmt::format("ghadelimiter_{:016x}{:016x}", rng(), rng());
    if (value.find(d) == std::string::npos) return d;
  }
}

Result<void> append(const std::string& path, const std::string& text, const char* var) {
  std::ofstream out(path_from_utf8(path), std::ios::binary | std::ios::app);
  out << text;
  out.flush();
  if (!out)
    return fail(ErrorCode::io, fmt::format("cannot append to {} ('{}')", var, path), "the runner names this file; check the step's permissions", path);
  return {};
}
} // namespace

std::string github_env_entry(const std::string& name, const std::string& value, const std::string& delimiter) {
  return fmt::format("{}<<{}\n{}\n{}\n", name, delimiter, value, delimiter);
}

Result<std::vector<std::string>> apply_github_update(const platform::Environment& env, const GithubUpdate& update) {
  std::vector<std::string> done;
  if (env.get("GITHUB_ACTIONS").value_or("") != "true") return done;
  if (!update.path_dirs.empty()) {
    const auto file = env.get("GITHUB_PATH");
    if (!file || file->empty())
      return fail(ErrorCode::io, "GITHUB_ACTIONS=true but GITHUB_PATH is not set", "run cudnnctl inside a GitHub Actions step");
    std::string text;
    for (const auto& d : update.path_dirs) text += d + "\n";
    CUDNNCTL_TRY(append(*file, text, "GITHUB_PATH"));
    for (const auto& d : update.path_dirs) done.push_back(fmt::format("GITHUB_PATH += {}", d));
  }
  if (!update.env.empty()) {
    const auto file = env.get("GITHUB_ENV");
    if (!file || file->empty())
      return fail(ErrorCode::io, "GITHUB_ACTIONS=true but GITHUB_ENV is not set", "run cudnnctl inside a GitHub Actions step");
    std::string text;
    for (const auto& [k, v] : update.env) text += github_env_entry(k, v, random_delimiter(v));
    CUDNNCTL_TRY(append(*file, text, "GITHUB_ENV"));
    for (const auto& [k, v] : update.env) done.push_back(fmt::format("GITHUB_ENV {}={}", k, v));
  }
  return done;
}

Result<std::map<std::string, std::string>> parse_github_env(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto heredoc = line.find("<<");
    const auto eq = line.find('=');
    if (heredoc != std::string::npos && (eq == std::string::npos || heredoc < eq)) {
      const auto name = line.substr(0, heredoc);
      const auto delim = line.substr(heredoc + 2);
      std::string value, l;
      bool first = true, closed = false;
      while (std::getline(in, l)) {
        if (l == delim) {
          closed = true;
          break;
        }
        value += (first ? "" : "\n") + l;
        first = false;
      }
      if (!closed) return fail(ErrorCode::io, fmt::format("GITHUB_ENV: the value of {} is not closed by {}", name, delim), "");
      out[name] = value;
    } else if (eq != std::string::npos) {
      out[line.substr(0, eq)] = line.substr(eq + 1);
    } else {
      return fail(ErrorCode::io, fmt::format("GITHUB_ENV: cannot read the line '{}'", line), "");
    }
  }
  return out;
}

} // namespace cudnnctl
