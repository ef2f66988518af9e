// cudnnctl path: the loader search order, the cuDNN copies on it, and the fix that makes the toolkit's win.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/env/toolkit_json.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/env/path_apply.hpp"
#include "cudnnctl/env/path_report.hpp"
#include "cudnnctl/platform/input_file.hpp"

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

// The human report: the toolkit, the search order with its copies, the change for this shell, and the command
// that makes it last.
void print_path_text(Io& io, const PathReport& report, const Toolkit& toolkit, const std::string& reason, const PathApplied& applied) {
  const auto& plan = report.plan;
  io.out << fmt::format("toolkit  {}\nfolder   {} (must come first for its cuDNN to load)\n", reason, plan.folder);
  if (report.shadows) {
    io.out << "cuDNN on the search path now (* = what programs load):\n" << shadow_table(*report.shadows);
    for (const auto& e : report.shadows->explanations) io.out << "  ! " << e << "\n";
  }
  if (plan.list_problem.empty())
    io.out << fmt::format("{} for this shell{}:\n{}", plan.variable, plan.fix.changed ? "" : " (already right)",
                          diff_lines(plan.fix.before, plan.fix.after));
  io.out << fmt::format("CUDNN_PATH {} (read by cuda-pathfinder, cudnn-frontend and TransformerEngine)\n", plan.cudnn_path);
  if (!applied.registry_diff.empty()) io.out << "registry PATH:\n" << applied.registry_diff;
  if (!applied.summary.empty()) io.out << "applied: " << applied.summary << "\n";
  else if (toolkit.os == Os::windows)
    io.out << fmt::format("to change it: {} (or --scope machine, elevated); this shell: {}\n", plan.apply_command, plan.eval_command);
  else
    io.out << fmt::format("to change it: {} (writes {} and runs ldconfig); this shell only: {}\n", plan.apply_command, plan.ld_conf_path,
                          plan.eval_command);
}

} // namespace

CommandRun setup_path(CLI::App& sub, Io&) {
  auto opts = std::make_shared<PathOptions>();
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit (default: found from the environment)");
  sub.add_option("--scope", opts->scope, "process (this shell), user or machine (Windows registry)")
      ->check(CLI::IsMember({"process", "user", "machine"}));
  sub.add_flag("--apply", opts->apply,
               "Write the change (Linux: ld.so.conf.d + ldconfig as root, then checks the ld.so cache; Windows: PATH and CUDNN_PATH "
               "in the registry for --scope)");
  sub.add_option("--shell", opts->shell, "Print only the lines to eval in this shell (LD_LIBRARY_PATH or PATH, and CUDNN_PATH)")
      ->check(CLI::IsMember({"bash", "fish", "pwsh"}));
  sub.add_option("--consumer", opts->consumer, "A program or library whose RUNPATH (Linux) or folder (Windows) joins the search order");
  sub.add_option("--root", opts->root, "System root for ld.so.conf.d (tests and image builders)")->group("");
  return [opts](Io& io) -> Result<ExitCode> {
    if (io.json && !opts->shell.empty())
      return fail(ErrorCode::usage, "--shell prints lines for a shell to eval, not a JSON document: it cannot be used with --json",
                  "drop --shell (the JSON document carries every shell's lines under \"shell\") or drop --json");
    if (!opts->consumer.empty())
      CUDNNCTL_TRY(platform::require_regular_file(opts->consumer, "the consumer (--consumer)"));
    std::string reason;
    CUDNNCTL_TRY_ASSIGN(auto toolkit, Machine().select_toolkit(opts->cuda_path, std::nullopt, reason));
    platform::ProcessEnvironment env;
    const auto report = make_path_report(toolkit, env, opts->root, opts->consumer);
    for (const auto& n : report.notes) io.warn(n);
    const auto& plan = report.plan;

    // a folder with the list separator (or a line break) in it cannot be written into a list safely
    const bool on_github = env.get("GITHUB_ACTIONS").value_or("") == "true";
    if (!plan.list_problem.empty() && (!opts->shell.empty() || on_github))
      return fail(ErrorCode::input_invalid, plan.list_problem,
                  "move or link the toolkit to a folder without it (e.g. ln -s '<toolkit>' /opt/cuda) and name that; nothing was printed "
                  "or written",
                  plan.folder);
    CUDNNCTL_TRY_ASSIGN(auto github, apply_github_update(env, plan.github));

    if (!opts->shell.empty()) {
      const Shell shell = opts->shell == "bash" ? Shell::bash : opts->shell == "fish" ? Shell::fish : Shell::pwsh;
      io.out << shell_lines(plan, shell);
      return ExitCode::ok;
    }
    PathApplied applied;
    if (opts->apply) {
      const auto scope = opts->scope == "user" ? PathScope::user : opts->scope == "machine" ? PathScope::machine : PathScope::process;
      CUDNNCTL_TRY_ASSIGN(auto done, apply_loader_path(toolkit, report, scope, opts->root, env));
      applied = done;
    }
    if (io.json) {
      auto j = path_report_json(report);
      j["toolkit"] = toolkit_json(toolkit, reason);
      j["applied"] = applied.summary.empty() ? nlohmann::json(nullptr) : nlohmann::json(applied.summary);
      j["github"] = github;
      j["next"] = {{"apply", plan.apply_command}, {"this_shell", plan.eval_command}};
      if (plan.list_problem.empty())
        j["shell"] = {{"bash", shell_lines(plan, Shell::bash)}, {"fish", shell_lines(plan, Shell::fish)}, {"pwsh", shell_lines(plan, Shell::pwsh)}};
      else
        j["shell"] = nullptr;
      io.set_body(j);
      return ExitCode::ok;
    }
    print_path_text(io, report, toolkit, reason, applied);
    for (const auto& g : github) io.out << "github: " << g << "\n";
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
