#pragma once
// Environment variables behind a seam: the real process environment, or a map in tests.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl::platform {

class Environment {
public:
  virtual ~Environment() = default;
  virtual std::optional<std::string> get(const std::string& name) const = 0;
  /// Every variable name (for CUDA_PATH_V<maj>_<min>).
  virtual std::vector<std::string> names() const = 0;
};

class ProcessEnvironment final : public Environment {
public:
  std::optional<std::string> get(const std::string& name) const override;
  std::vector<std::string> names() const override;
};

class MapEnvironment final : public Environment {
public:
  explicit MapEnvironment(std::map<std::string, std::string> vars) : m_vars(std::move(vars)) {}
  std::optional<std::string> get(const std::string& name) const override;
  std::vector<std::string> names() const override;

private:
  std::map<std::string, std::string> m_vars;
};

/// Another environment with some variables set differently (names matched without case, as Windows does):
/// what a program started after a change to the persistent environment sees.
class OverlayEnvironment final : public Environment {
public:
  OverlayEnvironment(const Environment& base, std::map<std::string, std::string> set) : m_base(base), m_set(std::move(set)) {}
  std::optional<std::string> get(const std::string& name) const override;
  std::vector<std::string> names() const override;

private:
  const Environment& m_base;
  std::map<std::string, std::string> m_set;
};

/// `env` kept for a holder that may outlive it (the run's Machine): this process's environment is itself (read
/// live), any other one is copied, its names matched exactly and, on Windows, then without case.
std::shared_ptr<const Environment> snapshot_environment(const Environment& env);

/// The PATH list separator of this platform (':' or ';').
char path_list_separator();

/// This user's folder for a program's state (Linux: $XDG_STATE_HOME, else ~/.local/state; Windows:
/// %LOCALAPPDATA%); empty when the environment names none.
std::string user_state_dir(const Environment& env);

} // namespace cudnnctl::platform
