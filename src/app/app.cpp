#include "cudnnctl/app/app.hpp"

#include <chrono>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/app/global_options.hpp"
#include "cudnnctl/app/path_options.hpp"
#include "cudnnctl/app/safe_text.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/commands/json_envelope.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/explain/signatures.hpp"

#ifndef CUDNNCTL_VERSION
#define CUDNNCTL_VERSION "0.0.0"
#endif
#ifndef CUDNNCTL_BUILD_PLATFORM
#define CUDNNCTL_BUILD_PLATFORM "unknown"
#endif

namespace cudnnctl {

std::string version_text() {
  const auto* newest = Catalog::embedded().newest_release();
  return fmt::format("cudnnctl {} (catalog: {} archives, newest cuDNN {}{}; built for {})", CUDNNCTL_VERSION,
                     Catalog::embedded().archives().size(), newest ? newest->label : "?",
                     newest && !newest->date.empty() ? ", " + newest->date : "", CUDNNCTL_BUILD_PLATFORM);
}

int report_error(const Error& e, bool json, std::ostream& out, std::ostream& err) {
  return report_failure(e, json ? std::optional<std::string>(document_schema("")) : std::nullopt, {}, nlohmann::json::object(), out, err);
}

int report_failure(const Error& e, const std::optional<std::string>& json_schema, const std::vector<std::string>& warnings,
                   nlohmann::json body, std::ostream& out, std::ostream& err) {
  const auto code = to_int(exit_code_for(e.code));
  if (json_schema) {
    out << json_text(json_envelope(*json_schema, code, warnings, std::move(body), &e)) << "\n";
  } else {
    // names and paths come from outside: nothing in them may act on the terminal
    err << "error: " << terminal_safe(e.message) << "\n";
    if (!e.path.empty() && e.message.find(e.path) == std::string::npos) err << "  file: " << terminal_safe(e.path) << "\n";
    if (!e.hint.empty()) err << "  hint: " << terminal_safe(e.hint) << "\n";
  }
  return code;
}

namespace {

// A usage error must honour --json even when CLI11 stops before it reaches the flag (`doctor --layer 9
// --json`): the flag anywhere before "--" counts.
bool json_requested(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") break;
    if (a == "--json") return true;
  }
  return false;
}

// The word the user meant as a command when it is none of ours (`cudnnctl bogus`), skipping the values of
// top-level options that take one.
std::string unknown_command(CLI::App& app, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    if (a == "--") return {};
    if (a.starts_with("-")) {
      const auto name = a.substr(0, a.find('='));
      const auto* opt = app.get_option_no_throw(name);
      if (opt && opt->get_items_expected_min() > 0 && a.find('=') == std::string::npos) ++i;
      continue;
    }
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->check_name(a)) return {};
    return a;
  }
  return {};
}

std::string command_list() {
  std::string names;
  for (const auto& spec : all_commands())
    if (!spec.hidden) names += (names.empty() ? "" : ", ") + std::string(spec.name);
  return names;
}

} // namespace

namespace {
// A parse error in words: the command's own --help when one was named, the list of commands for an unknown one.
Error usage_error(const CLI::ParseError& e, CLI::App& app, const std::vector<std::pair<CLI::App*, CommandRun>>& runs,
                  const std::vector<std::string>& args) {
  std::string message = e.what();
  std::string hint = "run 'cudnnctl --help' for the commands and options";
  bool in_command = false;
  for (const auto& [sub, run] : runs)
    if (sub->parsed()) {
      hint = fmt::format("run 'cudnnctl {} --help' for its options", sub->get_name());
      in_command = true;
    }
  if (const auto word = in_command ? std::string() : unknown_command(app, args); !word.empty()) {
    message = fmt::format("unknown command '{}'", word);
    hint = fmt::format("the commands are: {}; run 'cudnnctl --help' for what each does", command_list());
  }
  return Error{ErrorCode::usage, message, hint, {}};
}
} // namespace

namespace {

// The command's words as its schema names them ("bundle.swap"), from what CLI11 parsed.
std::string parsed_command(const CLI::App& sub) {
  for (const auto* nested : sub.get_subcommands()) return sub.get_name() + "." + parsed_command(*nested);
  return sub.get_name();
}

// A usage error: with --json, the envelope of the command that was named (or "cudnnctl/1").
int report_usage(const Error& e, bool json, const std::vector<std::pair<CLI::App*, CommandRun>>& runs, std::ostream& out,
                 std::ostream& err) {
  std::string command;
  for (const auto& [sub, run] : runs)
    if (sub->parsed()) command = parsed_command(*sub);
  return report_failure(e, json ? std::optional<std::string>(document_schema(command)) : std::nullopt, {}, nlohmann::json::object(), out, err);
}

// Runs the parsed command and prints its outcome: with --json exactly one document, the envelope around its body.
int run_command(CLI::App& sub, const CommandRun& run, Io& io, const std::vector<std::string>& args) {
  const bool envelope = io.json && !sub.get_group().empty();  // the internal child commands speak their own lines
  io.schema = document_schema(parsed_command(sub));
  const auto json_schema = [&]() { return envelope ? std::optional<std::string>(io.schema) : std::nullopt; };
  try {
    log::info("cudnnctl {}: {}", CUDNNCTL_VERSION, log::command_line(args));
    const auto started = std::chrono::steady_clock::now();
    auto result = run(io);
    const int code = result ? result->exit() : to_int(exit_code_for(result.error().code));
    log::info("{} finished in {} with exit code {}{}", sub.get_name(), log::elapsed_ms(started), code,
              result ? "" : " (" + std::string(error_id(result.error().code)) + ")");
    auto body = io.body ? std::move(*io.body) : nlohmann::json::object();
    if (!result) return report_failure(result.error(), json_schema(), io.warnings, std::move(body), io.out, io.err);
    if (envelope && !io.document_written) io.out << json_text(json_envelope(io.schema, code, io.warnings, std::move(body), nullptr)) << "\n";
    return code;
  } catch (const std::exception& e) {
    return report_failure(Error{ErrorCode::internal, fmt::format("unexpected failure: {}", e.what()),
                                "this is a bug in cudnnctl; please report it with the command line", {}},
                          json_schema(), io.warnings, nlohmann::json::object(), io.out, io.err);
  }
}

} // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& raw_out, std::ostream& err, bool err_is_tty, bool err_color) {
  // what the user reads passes the terminal filter; the internal child commands (__probe, __workload)
  // speak JSON lines to their parent, which parses them: they write as they are
  SafeTextStream safe_out(raw_out);
  std::ostream& out = !args.empty() && args[0].starts_with("__") ? raw_out : safe_out;
  // build-time generators (CMake runs these to make the man page and the completion)
  if (args.size() == 2 && args[0] == "__generate") {
    if (args[1] == "manpage") out << generate_manpage();
    else if (args[1] == "bash-completion") out << generate_bash_completion();
    else if (args[1] == "troubleshooting") out << troubleshooting_markdown();
    else if (args[1] == "doctor-checks") out << doctor_checks_markdown();
    else if (args[1] == "exit-codes") out << exit_codes_markdown();
    else return report_error(Error{ErrorCode::usage, "unknown generator " + args[1], "manpage, bash-completion, troubleshooting, doctor-checks or exit-codes", {}}, false, out, err);
    return 0;
  }
  CLI::App app{"cudnnctl: install NVIDIA cuDNN archives and diagnose cuDNN set-ups", "cudnnctl"};
  app.set_version_flag("--version", std::function<std::string()>(version_text));  // lazy: the catalog is parsed only when asked
  app.require_subcommand(1);
  app.allow_windows_style_options(false);  // CLI11 turns them on for Windows: there `/x` is a path, not an option
  // standard error passes the terminal filter too (names and messages can carry escapes); only the progress
  // line writes to the terminal itself (err_raw), for its '\r' redraws and colour
  SafeTextStream safe_err(err);
  std::ostream& user_err = !args.empty() && args[0].starts_with("__") ? err : safe_err;  // children's stderr is read by the parent
  Io io{out, user_err, false, err_is_tty, err_color, {}, &err};
  GlobalOptions global;
  std::vector<std::pair<CLI::App*, CommandRun>> runs;
  for (const auto& spec : all_commands()) {
    auto* sub = app.add_subcommand(std::string(spec.name), std::string(spec.summary));
    if (spec.hidden) sub->group("");
    if (spec.hidden) add_child_log_option(*sub, global);
    runs.emplace_back(sub, spec.setup(*sub, io));
  }
  add_global_options_everywhere(app, global);
  require_non_empty_paths(app);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion&) {
    out << version_text() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    // CLI11 throws help requests of subcommands as CallForHelp too; everything else is a usage error
    return report_usage(usage_error(e, app, runs, args), global.json || json_requested(args), runs, out, err);
  }
  io.json = global.json;
  auto log_session = start_log(global, err);
  if (!log_session) return report_usage(log_session.error(), io.json, runs, out, err);
  for (const auto& [sub, run] : runs)
    if (sub->parsed()) return run_command(*sub, run, io, args);
  return report_error(Error{ErrorCode::usage, "no command given", "run 'cudnnctl --help'", {}}, io.json, out, err);
}

} // namespace cudnnctl
