#pragma once
// GitHub Actions: later steps see PATH and environment changes written to the files named by
// GITHUB_PATH (one folder a line) and GITHUB_ENV (NAME=value, or the multi-line form
// NAME<<DELIMITER / value / DELIMITER), as GitHub documents for workflow commands.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

struct GithubUpdate {
  std::vector<std::string> path_dirs;                     // prepended to PATH for later steps
  std::vector<std::pair<std::string, std::string>> env;  // set for later steps
};

/// The GITHUB_ENV text for one variable, always in the delimiter form (safe for any value).
std::string github_env_entry(const std::string& name, const std::string& value, const std::string& delimiter);

/// Appends to $GITHUB_PATH and $GITHUB_ENV when GITHUB_ACTIONS=true. Returns what it wrote, in words
/// (empty when not on GitHub Actions).
Result<std::vector<std::string>> apply_github_update(const platform::Environment& env, const GithubUpdate& update);

/// Reads GITHUB_ENV text back (both forms), last assignment wins.
Result<std::map<std::string, std::string>> parse_github_env(const std::string& text);

} // namespace cudnnctl
