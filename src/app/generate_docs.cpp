// The man page and the bash completion, generated from the same CLI definition the program parses; the exit
// codes of docs/exit-codes.md and of the man page, generated from the one exit-code table (base/error_table.def).
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cudnnctl/app/app.hpp"
#include "cudnnctl/app/global_options.hpp"
#include "cudnnctl/base/error_table.hpp"
#include "cudnnctl/commands/command.hpp"

#ifndef CUDNNCTL_VERSION
#define CUDNNCTL_VERSION "0.0.0"
#endif

namespace cudnnctl {

namespace {

struct Definition {
  std::ostringstream out, err;
  Io io{out, err, false, false, false, {}, nullptr};
  CLI::App app{"install NVIDIA cuDNN archives and diagnose cuDNN set-ups"};
  GlobalOptions global;
  std::vector<CLI::App*> commands;
  Definition() {
    for (const auto& spec : all_commands()) {
      auto* sub = app.add_subcommand(std::string(spec.name), std::string(spec.summary));
      (void)spec.setup(*sub, io);
      if (!spec.hidden) commands.push_back(sub);
    }
    add_global_options_everywhere(app, global);
  }
};

std::string troff(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  return out;
}

constexpr std::string_view k_global_group = "Global options";

/// A command's own options (the global ones are listed once, not under every command).
std::vector<const CLI::Option*> visible_options(const CLI::App* sub) {
  std::vector<const CLI::Option*> out;
  for (const auto* o : sub->get_options())
    if (!o->get_group().empty() && o->get_group() != k_global_group && o->get_name() != "--help") out.push_back(o);
  return out;
}

std::vector<const CLI::Option*> global_options(const CLI::App& app) {
  std::vector<const CLI::Option*> out;
  for (const auto* o : app.get_options())
    if (o->get_group() == k_global_group) out.push_back(o);
  return out;
}

/// The error ids that lead to `code`, in the table's order.
std::vector<std::string_view> ids_of(ExitCode code) {
  std::vector<std::string_view> ids;
  for (const auto e : error_codes())
    if (exit_code_for(e) == code) ids.push_back(error_id(e));
  return ids;
}

std::string exit_status_manpage() {
  std::string m = ".SH EXIT STATUS\n";
  for (const auto& row : exit_rows()) {
    std::string ids;
    for (const auto id : ids_of(row.code)) ids += (ids.empty() ? " (" : ", ") + std::string(id);
    m += fmt::format(".TP\n.B {}\n{}{}\n", to_int(row.code), troff(std::string(row.summary)), troff(ids.empty() ? ids : ids + ")"));
  }
  m += ".PP\ntrace exits with the traced command's own status. docs/exit-codes.md says more about each code.\n";
  return m;
}

} // namespace

std::string exit_codes_markdown() {
  std::string m = "| code | meaning | error ids |\n| --- | --- | --- |\n";
  for (const auto& row : exit_rows()) {
    std::string ids;
    for (const auto id : ids_of(row.code)) ids += fmt::format("{}`{}`", ids.empty() ? "" : ", ", id);
    m += fmt::format("| {} | {} | {} |\n", to_int(row.code), row.meaning, ids);
  }
  m += "\n| error id | exit | meaning |\n| --- | --- | --- |\n";
  for (const auto e : error_codes()) m += fmt::format("| `{}` | {} | {} |\n", error_id(e), to_int(exit_code_for(e)), error_meaning(e));
  return m;
}

std::string generate_manpage() {
  Definition d;
  std::string m = fmt::format(".TH CUDNNCTL 1 \"\" \"cudnnctl {}\" \"User Commands\"\n", CUDNNCTL_VERSION);
  m += ".SH NAME\ncudnnctl \\- install NVIDIA cuDNN archives and diagnose cuDNN set\\-ups\n";
  m += ".SH SYNOPSIS\n.B cudnnctl\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n";
  m += ".SH DESCRIPTION\ncudnnctl reads cuDNN archive names as version contracts, verifies archives against a sourced catalog, installs "
       "them into CUDA toolkits as one transaction with a receipt, fixes the loader path, and diagnoses cuDNN set\\-ups layer by layer.\n";
  m += ".SH GLOBAL OPTIONS\nAccepted by every command, before or after its name.\n";
  for (const auto* o : global_options(d.app)) m += fmt::format(".TP\n.B {}\n{}\n", troff(o->get_name(false, true)), troff(o->get_description()));
  m += ".SH COMMANDS\n";
  for (const auto* sub : d.commands) {
    std::string usage = sub->get_name();
    for (const auto* o : sub->get_options())
      if (o->get_positional() && o->get_group() != "") usage += " " + o->get_name();
    m += fmt::format(".SS {}\n{}\n", troff(usage), troff(sub->get_description()));
    for (const auto* o : visible_options(sub)) {
      if (o->get_positional()) continue;
      m += fmt::format(".TP\n.B {}\n{}\n", troff(o->get_name()), troff(o->get_description()));
    }
  }
  m += exit_status_manpage();
  m += ".SH SEE ALSO\nREADME.md and docs/ in the source tree.\n";
  return m;
}

std::string generate_bash_completion() {
  Definition d;
  std::string commands, cases, globals;
  for (const auto* o : global_options(d.app)) globals += " " + o->get_name();
  for (const auto* sub : d.commands) {
    commands += (commands.empty() ? "" : " ") + sub->get_name();
    std::string opts = "--help" + globals;
    for (const auto* o : visible_options(sub))
      if (!o->get_positional()) opts += " " + o->get_name();
    cases += fmt::format("    {}) opts=\"{}\" ;;\n", sub->get_name(), opts);
  }
  return fmt::format(R"(# bash completion for cudnnctl, generated from its command-line definition
_cudnnctl() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} cmd=${{COMP_WORDS[1]}} opts
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "{} --help --version" -- "$cur"))
    return
  fi
  case $cmd in
{}    *) opts="--help" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _cudnnctl cudnnctl
)",
                     commands, cases);
}

} // namespace cudnnctl
