// cudnnctl explain [FILE|-]: names the cuDNN/CUDA loading messages of a log through the doctor's signatures.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/explain/explain.hpp"
#include "cudnnctl/explain/signatures.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

// A cuDNN debug log (CUDNN_LOGDEST_DBG) of a short run is ~25 MB; more than this is read in part.
constexpr std::size_t k_max_input = 64u << 20;

struct ExplainOptions {
  std::string input = "-";
  std::string cuda_path;  // --cuda-path: the fix lines' commands name this toolkit
};

// A fix line whose cudnnctl commands name the toolkit given with --cuda-path, so it runs as printed.
std::string fix_text(const Signature& s, const std::string& cuda_path) {
  return cuda_path.empty() ? std::string(s.fix) : with_toolkit_named(s.fix, cuda_path);
}

// The log is read as a stream, one line at a time, so memory does not grow with its size: of each line the
// first k_keep bytes are kept (explain_line looks at 4096), the rest skipped.
constexpr std::size_t k_keep = 4097;

struct Scan {
  std::uint64_t bytes = 0;  // bytes of the lines read
  bool truncated = false;   // stopped at k_max_input
};

// Calls on_line(line, line_no) for every line of `in` (the last one may lack its newline). Stops after
// k_max_input bytes: the line cut there is dropped, as a cut standard input always was.
template <class F>
Scan scan_lines(std::istream& in, F&& on_line) {
  Scan r;
  std::string line;
  std::size_t line_no = 0;
  std::uint64_t total = 0;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    for (std::size_t i = 0; i < got; ++i) {
      if (total == k_max_input) {
        r.truncated = true;
        return r;
      }
      ++total;
      if (buf[i] != '\n') {
        if (line.size() < k_keep) line += buf[i];
        continue;
      }
      on_line(std::string_view(line), ++line_no);
      r.bytes = total;
      line.clear();
    }
  }
  if (total > r.bytes) on_line(std::string_view(line), ++line_no), r.bytes = total;
  return r;
}

// A file goes through the same checks as every input file (a FIFO, a device or a folder is refused without
// blocking on it; a file over the cap is refused, not cut); standard input is read up to the cap.
Result<std::unique_ptr<std::istream>> open_input(const std::string& name) {
  if (name == "-") return std::unique_ptr<std::istream>();
  auto checked = platform::require_regular_file(name, "the log");
  std::error_code ec;
  const auto size = checked ? std::filesystem::file_size(path_from_utf8(name), ec) : 0;
  if (checked && !ec && size > k_max_input)
    checked = fail(ErrorCode::input_invalid, fmt::format("the log '{}' is {}, more than the {} cudnnctl reads", name, human_size(size), human_size(k_max_input)), "", name);
  if (!checked) {
    auto e = checked.error();
    if (e.code == ErrorCode::input_invalid)
      e.hint = "explain reads a regular file of at most 64 MiB, or standard input (cudnnctl explain - < log; a pipe or a larger log: "
               "tail -c 60M log | cudnnctl explain -)";
    return Unexpected<Error>(std::move(e));
  }
  auto in = std::make_unique<std::ifstream>(path_from_utf8(name), std::ios::binary);
  if (!*in) return fail(ErrorCode::io, fmt::format("cannot read the log '{}'", name), "check the file's permissions", name);
  return std::unique_ptr<std::istream>(std::move(in));
}

std::string also_text(const ExplainMatch& m) {
  std::string out;
  for (const auto* s : m.also) out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", s->title, s->id);
  return out;
}

nlohmann::json match_json(const ExplainMatch& m, const std::string& cuda_path) {
  nlohmann::json also = nlohmann::json::array();
  for (const auto* s : m.also) also.push_back(s->id);
  return {{"line", m.line},          {"text", m.text},           {"signature", m.signature->id},
          {"title", m.signature->title}, {"layer", m.signature->layer}, {"check", m.signature->check},
          {"harmless", m.signature->harmless}, {"cause", m.signature->cause}, {"fix", fix_text(*m.signature, cuda_path)},
          {"detail", m.detail},       {"also", also}};
}

std::string lines_text(const std::vector<std::size_t>& lines, std::size_t total) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", lines[i]);
  if (total > lines.size()) out += fmt::format(" and {} more", total - lines.size());
  return out;
}

// One text block per signature (first seen first): its first match, the first 8 line numbers and the count.
struct Group {
  ExplainMatch first;
  std::vector<std::size_t> lines;
  std::size_t count = 0;
};

void print_groups(std::ostream& out, const std::vector<Group>& groups, const std::string& cuda_path) {
  for (const auto& g : groups) {
    const auto* s = g.first.signature;
    out << fmt::format("{} {}: {}\n", g.count == 1 ? "line" : "lines", lines_text(g.lines, g.count), g.first.text);
    out << fmt::format("  {}: {} ({})\n", s->harmless ? "harmless" : "problem", s->title, s->id);
    if (!g.first.detail.empty()) out << fmt::format("  says: {}\n", g.first.detail);
    out << fmt::format("  cause: {}\n", s->cause);
    out << fmt::format("  fix: {}\n", fix_text(*s, cuda_path));
    if (!g.first.also.empty()) out << fmt::format("  can also be: {}\n", also_text(g.first));
    out << "\n";
  }
}

// "  " + each line of a match's JSON indented once more: the document reads as one json_text() of it would.
std::string indented(const std::string& text) {
  std::string out = "    ";
  for (char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

} // namespace

CommandRun setup_explain(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<ExplainOptions>();
  sub.add_option("input", opts->input, "The log to read: a file, or - for standard input (default)");
  sub.add_flag("--json", shared_io.json, "Print one JSON document (schema cudnnctl.explain/1) with every match and its line");
  sub.add_option("--cuda-path", opts->cuda_path, "The toolkit the fix lines' cudnnctl commands should name (they then run as printed)")
      ->type_name("DIR");
  return [opts](Io& io) -> Result<ExitCode> {
    CUDNNCTL_TRY_ASSIGN(auto file, open_input(opts->input));
    std::istream& in = file ? *file : std::cin;
    std::size_t matches = 0, harmless = 0;
    std::vector<Group> groups;
    if (io.json)
      io.out << "{\n  \"ok\": true,\n  \"schema\": \"cudnnctl.explain/1\",\n  \"source\": " << json_text(opts->input) << ",\n  \"matches\": [";
    // Matches are written as they are found (JSON) or grouped by signature (text): nothing grows with the log.
    const auto scan = scan_lines(in, [&](std::string_view line, std::size_t line_no) {
      for (auto& m : explain_line(line, line_no)) {
        harmless += m.signature->harmless ? 1 : 0;
        if (io.json) {
          io.out << (matches ? ",\n" : "\n") << indented(json_text(match_json(m, opts->cuda_path)));
        } else {
          auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.first.signature == m.signature; });
          if (g == groups.end()) g = groups.insert(groups.end(), Group{m, {}, 0});
          if (g->lines.size() < 8) g->lines.push_back(m.line);
          ++g->count;
        }
        ++matches;
      }
    });
    if (scan.truncated) io.warn(fmt::format("read only the first {} MiB of {}", k_max_input >> 20, opts->input == "-" ? "standard input" : opts->input));
    const std::size_t actionable = matches - harmless;
    const auto code = actionable ? ExitCode::doctor_failed : ExitCode::ok;
    if (io.json) {
      const nlohmann::json tail{{"bytes_read", scan.bytes}, {"truncated", scan.truncated}, {"harmless", harmless},
                                {"actionable", actionable}, {"warnings", io.warnings}};
      auto rest = json_text(tail);  // "{\n  ...\n}": its members follow the matches
      io.out << (matches ? "\n  ],\n" : "],\n") << rest.substr(2) << "\n";
      return code;
    }
    print_groups(io.out, groups, opts->cuda_path);
    if (matches == 0)
      io.out << "no cuDNN or CUDA loading message found that cudnnctl knows (docs/troubleshooting.md lists them)\n";
    else
      io.out << fmt::format("{} message{} named: {} harmless, {} to fix\n", matches, matches == 1 ? "" : "s", harmless, actionable);
    return code;
  };
}

} // namespace cudnnctl
