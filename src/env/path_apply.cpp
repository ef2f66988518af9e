#include "cudnnctl/env/path_apply.hpp"

#include <fmt/format.h>

#include "cudnnctl/env/ld_conf.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/platform/persistent_env.hpp"

namespace cudnnctl {

namespace {
Result<PathApplied> apply_registry(const LoaderPathPlan& plan, platform::EnvScope scope, const platform::Environment& env) {
  PathApplied done;
  CUDNNCTL_TRY_ASSIGN(auto current, platform::read_persistent_env(scope, "PATH"));
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  const auto fix = put_first(split_path_list(current.value, PathFlavor::windows), plan.folder, PathFlavor::windows, lookup);
  done.registry_diff = diff_lines(fix.before, fix.after);
  auto cudnn_path = platform::read_persistent_env(scope, "CUDNN_PATH");
  const bool cudnn_path_right = cudnn_path && cudnn_path->exists && cudnn_path->value == plan.cudnn_path;
  if (!fix.changed && cudnn_path_right) {
    done.summary = "the registry PATH already has it first and CUDNN_PATH names the toolkit";
    return done;
  }
  if (fix.changed) {
    platform::PersistentValue next{join_path_list(fix.after, PathFlavor::windows), current.expandable || !current.exists, true};
    if (next.value.size() > k_windows_env_max)
      return fail(ErrorCode::io, fmt::format("the new PATH would be {} characters; Windows allows {}", next.value.size(), k_windows_env_max),
                  "remove entries you no longer need from PATH first; nothing was changed");
    CUDNNCTL_TRY(platform::write_persistent_env(scope, "PATH", next));
  }
  if (!cudnn_path_right)
    CUDNNCTL_TRY(platform::write_persistent_env(scope, "CUDNN_PATH", {plan.cudnn_path, false, true}));
  platform::broadcast_environment_change();
  done.summary = "wrote PATH and CUDNN_PATH to the registry and told running programs; programs already open (terminals, IDEs) keep "
                 "their old values until they are restarted";
  return done;
}
} // namespace

Result<PathApplied> apply_loader_path(const Toolkit& toolkit, const PathReport& report, PathScope scope, const std::string& system_root,
                                      const platform::Environment& env) {
  const auto& plan = report.plan;
  if (scope == PathScope::process) {
    if (toolkit.os == Os::windows)
      return fail(ErrorCode::usage, "a process PATH cannot be changed from outside the shell",
                  "use --shell pwsh (this shell) or --scope user|machine (the registry) with --apply");
    CUDNNCTL_TRY_ASSIGN(auto done, apply_ld_conf(plan, system_root, report.cudnn_file));
    return PathApplied{done, {}};
  }
  if (!plan.list_problem.empty())
    return fail(ErrorCode::input_invalid, plan.list_problem, "move or link the toolkit to a folder without it; nothing was changed", plan.folder);
  return apply_registry(plan, scope == PathScope::user ? platform::EnvScope::user : platform::EnvScope::machine, env);
}

Result<std::string> new_process_path(const platform::Environment& env) {
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  std::string out;
  for (const auto scope : {platform::EnvScope::machine, platform::EnvScope::user}) {
    CUDNNCTL_TRY_ASSIGN(const auto v, platform::read_persistent_env(scope, "PATH"));
    if (!v.exists || v.value.empty()) continue;
    if (!out.empty() && !out.ends_with(';')) out += ';';
    out += v.expandable ? expand_windows_vars(v.value, lookup) : v.value;
  }
  return out;
}

} // namespace cudnnctl
