// cudnnctl path: the loader search order, the cuDNN copies on it, and the fix that makes the toolkit's win.
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/env/path_report.hpp"
#include "cudnnctl/commands/toolkit_options.hpp"
#include "cudnnctl/platform/persistent_env.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

namespace {

struct PathOptions {
  std::string cuda_path;
  std::string scope = "process";
  bool apply = false;
  std::string shell;
  std::string consumer;
  std::string root = "/";
};

// Linux --apply: the ld.so.conf.d file and ldconfig. Returns what it did.
Result<std::string> apply_ld_conf(const LoaderPathPlan& plan, const std::string& root) {
  namespace fs = std::filesystem;
  if (root == "/" && !platform::is_privileged())
    return fail(ErrorCode::io, fmt::format("writing {} needs root", plan.ld_conf_path),
                "run 'sudo cudnnctl path --apply', or for this shell only: eval \"$(cudnnctl path --shell bash)\"; nothing was changed",
                plan.ld_conf_path);
  {
    std::ifstream in(plan.ld_conf_path);
    std::stringstream ss;
    ss << in.rdbuf();
    if (in && ss.str() == plan.ld_conf_content) return fmt::format("{} already lists {}", plan.ld_conf_path, plan.folder);
  }
  std::error_code ec;
  fs::create_directories(fs::path(plan.ld_conf_path).parent_path(), ec);
  const std::string tmp = plan.ld_conf_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << plan.ld_conf_content;
    if (!out) return fail(ErrorCode::io, fmt::format("cannot write {}", tmp), "check that you are root", tmp);
  }
  fs::rename(tmp, plan.ld_conf_path, ec);
  if (ec) return fail(ErrorCode::io, fmt::format("cannot write {}: {}", plan.ld_conf_path, ec.message()), "", plan.ld_conf_path);
  // CUDNNCTL_LDCONFIG replaces the ldconfig command (packaging and tests); "-r ROOT" when not the real root
  const char* override_cmd = std::getenv("CUDNNCTL_LDCONFIG");
  std::vector<std::string> argv{override_cmd ? override_cmd : "ldconfig"};
  if (root != "/") argv.insert(argv.end(), {"-r", root});
  if (auto ran = platform::run_capture(argv); !ran)
    return fail(ErrorCode::io, fmt::format("wrote {}, but {} failed: {}", plan.ld_conf_path, argv[0], ran.error().message),
                "run 'sudo ldconfig' by hand");
  return fmt::format("wrote {} and ran {}", plan.ld_conf_path, argv[0]);
}

// Windows --apply --scope user|machine: the registry value, fixed the same way, type kept, never cut.
Result<std::string> apply_registry(const LoaderPathPlan& plan, platform::EnvScope scope, const platform::Environment& env,
                                   std::string& diff_out) {
  auto current = platform::read_persistent_env(scope, "PATH");
  if (!current) return Unexpected<Error>(current.error());
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  const auto fix = put_first(split_path_list(current->value, PathFlavor::windows), plan.folder, PathFlavor::windows, lookup);
  diff_out = diff_lines(fix.before, fix.after);
  if (!fix.changed) return std::string("the registry PATH already has it first");
  platform::PersistentValue next{join_path_list(fix.after, PathFlavor::windows), current->expandable || !current->exists, true};
  if (next.value.size() > k_windows_env_max)
    return fail(ErrorCode::io, fmt::format("the new PATH would be {} characters; Windows allows {}", next.value.size(), k_windows_env_max),
                "remove entries you no longer need from PATH first; nothing was changed");
  if (auto ok = platform::write_persistent_env(scope, "PATH", next); !ok) return Unexpected<Error>(ok.error());
  platform::broadcast_environment_change();
  return std::string("wrote PATH to the registry and told running programs; programs already open (terminals, IDEs) keep their "
                     "old PATH until they are restarted");
}

} // namespace

CommandRun setup_path(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<PathOptions>();
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit (default: found from the environment)");
  sub.add_option("--scope", opts->scope, "process (this shell), user or machine (Windows registry)")
      ->check(CLI::IsMember({"process", "user", "machine"}));
  sub.add_flag("--apply", opts->apply, "Write the change (Linux: ld.so.conf.d + ldconfig as root; Windows: the registry for --scope)");
  sub.add_option("--shell", opts->shell, "Print only the lines to eval in this shell")->check(CLI::IsMember({"bash", "fish", "pwsh"}));
  sub.add_option("--consumer", opts->consumer, "A program or library whose RUNPATH (Linux) or folder (Windows) joins the search order");
  sub.add_option("--root", opts->root, "System root for ld.so.conf.d (tests and image builders)")->group("");
  sub.add_flag("--json", shared_io.json, "Print one JSON document");
  return [opts](Io& io) -> Result<ExitCode> {
    std::string reason;
    auto toolkit = select_toolkit(opts->cuda_path, std::nullopt, reason);
    if (!toolkit) return Unexpected<Error>(toolkit.error());
    platform::ProcessEnvironment env;
    const auto report = make_path_report(*toolkit, env, opts->root, opts->consumer);
    for (const auto& n : report.notes) io.warn(n);
    const auto& plan = report.plan;

    auto github = apply_github_update(env, plan.github);
    if (!github) return Unexpected<Error>(github.error());

    if (!opts->shell.empty()) {
      const Shell shell = opts->shell == "bash" ? Shell::bash : opts->shell == "fish" ? Shell::fish : Shell::pwsh;
      io.out << shell_lines(plan, shell);
      return ExitCode::ok;
    }
    std::string applied, registry_diff;
    if (opts->apply) {
      Result<std::string> done = Unexpected<Error>(Error{});
      if (opts->scope == "process") {
        if (toolkit->os == Os::windows)
          return fail(ErrorCode::usage, "a process PATH cannot be changed from outside the shell",
                      "use --shell pwsh (this shell) or --scope user|machine (the registry) with --apply");
        done = apply_ld_conf(plan, opts->root);
      } else {
        done = apply_registry(plan, opts->scope == "user" ? platform::EnvScope::user : platform::EnvScope::machine, env, registry_diff);
      }
      if (!done) return Unexpected<Error>(done.error());
      applied = *done;
    }
    if (io.json) {
      auto j = path_report_json(report);
      j["ok"] = true;
      j["toolkit"] = {{"root", toolkit->root}, {"version", toolkit->version}, {"reason", reason}};
      j["applied"] = applied.empty() ? nlohmann::json(nullptr) : nlohmann::json(applied);
      j["github"] = *github;
      j["shell"] = {{"bash", shell_lines(plan, Shell::bash)}, {"fish", shell_lines(plan, Shell::fish)}, {"pwsh", shell_lines(plan, Shell::pwsh)}};
      j["warnings"] = io.warnings;
      io.out << j.dump(2) << "\n";
      return ExitCode::ok;
    }
    io.out << fmt::format("toolkit  {}\nfolder   {} (must come first for its cuDNN to load)\n", reason, plan.folder);
    if (report.shadows) {
      io.out << "cuDNN on the search path now (* = what programs load):\n" << shadow_table(*report.shadows);
      for (const auto& e : report.shadows->explanations) io.out << "  ! " << e << "\n";
    }
    io.out << fmt::format("{} for this shell{}:\n{}", plan.variable, plan.fix.changed ? "" : " (already right)",
                          diff_lines(plan.fix.before, plan.fix.after));
    if (!registry_diff.empty()) io.out << "registry PATH:\n" << registry_diff;
    if (!applied.empty()) io.out << "applied: " << applied << "\n";
    else if (toolkit->os == Os::windows)
      io.out << "to change it: cudnnctl path --apply --scope user (or machine, elevated); this shell: cudnnctl path --shell pwsh\n";
    else
      io.out << fmt::format("to change it: sudo cudnnctl path --apply (writes {} and runs ldconfig); this shell only: eval \"$(cudnnctl "
                            "path --shell bash)\"\n",
                            plan.ld_conf_path);
    for (const auto& g : *github) io.out << "github: " << g << "\n";
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
