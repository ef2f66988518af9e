#pragma once
// Environment variables that outlive the process: on Windows the registry (HKCU\Environment for the
// user, HKLM\...\Session Manager\Environment for the machine), keeping REG_EXPAND_SZ and never truncating,
// then WM_SETTINGCHANGE so newly started programs see the change. Elsewhere there is no such store.
#include <string>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

enum class EnvScope { user, machine };

struct PersistentValue {
  std::string value;        // UTF-8, %VAR% references unexpanded
  bool expandable = false;  // REG_EXPAND_SZ
  bool exists = false;
};

Result<PersistentValue> read_persistent_env(EnvScope scope, const std::string& name);
/// Writes with the same type it had (REG_EXPAND_SZ when `expandable`). Machine scope needs elevation.
Result<void> write_persistent_env(EnvScope scope, const std::string& name, const PersistentValue& value);
/// Tells running programs (Explorer) that the environment changed.
void broadcast_environment_change();

} // namespace cudnnctl::platform
