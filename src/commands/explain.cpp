// cudnnctl explain [FILE|-]: names the cuDNN/CUDA loading messages of a log through the doctor's signatures.
#include <iostream>
#include <map>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/doctor/explain.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

// A cuDNN debug log (CUDNN_LOGDEST_DBG) of a short run is ~25 MB; more than this is read in part.
constexpr std::size_t k_max_input = 64u << 20;

struct ExplainOptions {
  std::string input = "-";
};

struct Input {
  std::string text;
  bool truncated = false;
};

Input read_bounded(std::istream& in) {
  Input r;
  r.text.resize(k_max_input + 1);
  in.read(r.text.data(), static_cast<std::streamsize>(r.text.size()));
  r.text.resize(static_cast<std::size_t>(in.gcount()));
  if (r.text.size() > k_max_input) {
    r.text.resize(k_max_input);
    r.text.resize(r.text.rfind('\n') == std::string::npos ? r.text.size() : r.text.rfind('\n'));
    r.truncated = true;
  }
  return r;
}

// A file goes through the one hostile-input-safe reader (a FIFO, a device or a folder is refused without
// blocking on it; a file over the cap is refused, not cut); standard input is read up to the cap.
Result<Input> read_input(const std::string& name) {
  if (name == "-") return read_bounded(std::cin);
  auto text = platform::read_input_file(name, "the log", k_max_input);
  if (!text) {
    auto e = text.error();
    if (e.code == ErrorCode::input_invalid)
      e.hint = "explain reads a regular file of at most 64 MiB, or standard input (cudnnctl explain - < log; a pipe or a larger log: "
               "tail -c 60M log | cudnnctl explain -)";
    return Unexpected<Error>(std::move(e));
  }
  return Input{std::move(*text), false};
}

std::string also_text(const ExplainMatch& m) {
  std::string out;
  for (const auto* s : m.also) out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", s->title, s->id);
  return out;
}

nlohmann::json match_json(const ExplainMatch& m) {
  nlohmann::json also = nlohmann::json::array();
  for (const auto* s : m.also) also.push_back(s->id);
  return {{"line", m.line},          {"text", m.text},           {"signature", m.signature->id},
          {"title", m.signature->title}, {"layer", m.signature->layer}, {"check", m.signature->check},
          {"harmless", m.signature->harmless}, {"cause", m.signature->cause}, {"fix", m.signature->fix},
          {"detail", m.detail},       {"also", also}};
}

std::string lines_text(const std::vector<std::size_t>& lines) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(lines.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) out += fmt::format("{}{}", i ? ", " : "", lines[i]);
  if (lines.size() > shown) out += fmt::format(" and {} more", lines.size() - shown);
  return out;
}

} // namespace

CommandRun setup_explain(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<ExplainOptions>();
  sub.add_option("input", opts->input, "The log to read: a file, or - for standard input (default)");
  sub.add_flag("--json", shared_io.json, "Print one JSON document (schema cudnnctl.explain/1) with every match and its line");
  return [opts](Io& io) -> Result<ExitCode> {
    auto input = read_input(opts->input);
    if (!input) return Unexpected<Error>(input.error());
    if (input->truncated) io.warn(fmt::format("read only the first {} MiB of {}", k_max_input >> 20, opts->input == "-" ? "standard input" : opts->input));
    const auto matches = explain_text(input->text);
    std::size_t harmless = 0;
    for (const auto& m : matches) harmless += m.signature->harmless ? 1 : 0;
    const std::size_t actionable = matches.size() - harmless;
    const auto code = actionable ? ExitCode::doctor_failed : ExitCode::ok;

    if (io.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& m : matches) list.push_back(match_json(m));
      nlohmann::json doc{{"ok", true},
                         {"schema", "cudnnctl.explain/1"},
                         {"source", opts->input},
                         {"bytes_read", input->text.size()},
                         {"truncated", input->truncated},
                         {"matches", list},
                         {"harmless", harmless},
                         {"actionable", actionable},
                         {"warnings", io.warnings}};
      io.out << doc.dump(2) << "\n";
      return code;
    }
    // One block per signature (first seen first), with every line that showed it.
    std::vector<const Signature*> order;
    std::map<const Signature*, std::vector<const ExplainMatch*>> by_sig;
    for (const auto& m : matches) {
      if (!by_sig.contains(m.signature)) order.push_back(m.signature);
      by_sig[m.signature].push_back(&m);
    }
    for (const auto* s : order) {
      const auto& list = by_sig[s];
      std::vector<std::size_t> lines;
      for (const auto* m : list) lines.push_back(m->line);
      const auto& first = *list.front();
      io.out << fmt::format("{} {}: {}\n", lines.size() == 1 ? "line" : "lines", lines_text(lines), first.text);
      io.out << fmt::format("  {}: {} ({})\n", s->harmless ? "harmless" : "problem", s->title, s->id);
      if (!first.detail.empty()) io.out << fmt::format("  says: {}\n", first.detail);
      io.out << fmt::format("  cause: {}\n", s->cause);
      io.out << fmt::format("  fix: {}\n", s->fix);
      if (!first.also.empty()) io.out << fmt::format("  can also be: {}\n", also_text(first));
      io.out << "\n";
    }
    if (matches.empty())
      io.out << "no cuDNN or CUDA loading message found that cudnnctl knows (docs/troubleshooting.md lists them)\n";
    else
      io.out << fmt::format("{} message{} named: {} harmless, {} to fix\n", matches.size(), matches.size() == 1 ? "" : "s", harmless, actionable);
    return code;
  };
}

} // namespace cudnnctl
