// cudnnctl [--json] trace [--output FILE] [--html FILE] [--want VERSION] -- COMMAND [ARGS...]
// Runs COMMAND with the load trace and reports what it loaded. COMMAND's standard input, output and error are
// its own (untouched); the report goes to standard error after COMMAND ends (with --json: the one JSON
// document, on standard output after COMMAND's own), or to --output FILE; cudnnctl exits with COMMAND's exit code.
#include <algorithm>
#include <fstream>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_envelope.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/platform/environment.hpp"
#include "cudnnctl/platform/load_trace.hpp"
#include "cudnnctl/trace/library_facts.hpp"
#include "cudnnctl/trace/trace_render.hpp"

namespace cudnnctl {

namespace {

struct TraceOptions {
  std::vector<std::string> command;
  std::string output;
  std::string html;
  std::string want;
  std::string events;
};

Result<bool> write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path_from_utf8(path), std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) return fail(ErrorCode::io, fmt::format("cannot write {}", path), "check the folder exists and is writable", path);
  return true;
}

} // namespace

CommandRun setup_trace(CLI::App& sub, Io&) {
  auto opts = std::make_shared<TraceOptions>();
  sub.add_option("--output", opts->output, "Write the report to this file instead of standard error (e.g. /dev/fd/3)");
  sub.add_option("--html", opts->html, "Also write the report as one HTML page to this file");
  sub.add_option("--want", opts->want, "The cuDNN version the program was built with (e.g. 9.8): an older or other-major cuDNN is a fault");
  sub.add_option("--events", opts->events, "Also keep the raw load events in this file")->group("");
  sub.add_option("command", opts->command, "The command to run and trace, after --")->required();
  return [opts](Io& io) -> Result<CommandStatus> {
    // Checked before the command runs: a report that cannot be written is known now, not after a long run.
    for (const auto* p : {&opts->output, &opts->html})
      if (!p->empty() && *p != "/dev/stderr")
        CUDNNCTL_TRY(write_file(*p, ""));
    CUDNNCTL_TRY_ASSIGN(auto audit, platform::find_audit_library());
    // the toolkit's DLL folders (%CUDA_PATH%\bin, bin\x64, bin\arm64): a Windows DLL from one is named "toolkit bin"
    std::vector<std::string> toolkit_dll_dirs;
    platform::ProcessEnvironment env;
    if (const auto cuda = env.get("CUDA_PATH"); cuda && !cuda->empty()) toolkit_dll_dirs = windows_toolkit_dll_dirs(*cuda);
    CUDNNCTL_TRY_ASSIGN(auto run, platform::run_with_load_trace(opts->command, audit, toolkit_dll_dirs));
    if (!opts->events.empty()) (void)write_file(opts->events, run.events);

    const auto report = build_trace_report(parse_trace_events(run.events), real_trace_seams(env), opts->want);
    const TraceRunInfo info{opts->command, run.exit_code, run.signal};
    // --json: the envelope around the report, on standard output (after the command's own output) or in
    // --output FILE, through the one writer (ASCII, invalid UTF-8 replaced: never a throw that would lose the
    // command's exit code); text with control characters escaped, to standard error or --output.
    if (io.json && opts->output.empty()) {
      io.set_body(trace_json(report, info));
    } else if (io.json) {
      CUDNNCTL_TRY(write_file(opts->output, json_text(json_envelope(io.schema, run.exit_code, io.warnings, trace_json(report, info), nullptr)) + "\n"));
      io.document_written = true;
    } else if (opts->output.empty()) {
      io.err << terminal_safe(trace_text(report, info));
    } else {
      CUDNNCTL_TRY(write_file(opts->output, terminal_safe(trace_text(report, info))));
    }
    if (!opts->html.empty())
      CUDNNCTL_TRY(write_file(opts->html, trace_html(report, info)));
    return ChildExit{run.exit_code};
  };
}

} // namespace cudnnctl
