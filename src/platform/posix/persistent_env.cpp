#include "cudnnctl/platform/persistent_env.hpp"

namespace cudnnctl::platform {

namespace {
Unexpected<Error> no_store() {
  return fail(ErrorCode::usage, "user and machine scopes exist on Windows only (its registry)",
              "on Linux use --apply (ld.so.conf.d, as root) or --shell bash|fish|pwsh for the current shell");
}
} // namespace

Result<PersistentValue> read_persistent_env(EnvScope, const std::string&) { return no_store(); }
Result<void> write_persistent_env(EnvScope, const std::string&, const PersistentValue&) { return no_store(); }
void broadcast_environment_change() {}

} // namespace cudnnctl::platform
