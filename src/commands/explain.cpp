// cudnnctl explain [FILE|-]: names the cuDNN/CUDA loading messages of a log through the doctor's signatures.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/doctor/explain_gpu_here.hpp"
#include "cudnnctl/commands/json_envelope.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/explain/explain.hpp"
#include "cudnnctl/explain/log_reader.hpp"
#include "cudnnctl/explain/signatures.hpp"
#include "cudnnctl/env/library_lookup.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/environment.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

// A cuDNN debug log (CUDNN_LOGDEST_DBG) of a short run is ~25 MB; more than this is read in part.
constexpr std::size_t k_max_input = 64u << 20;

struct ExplainOptions {
  std::string input = "-";
  std::string cuda_path;  // --cuda-path: the fix lines' commands name this toolkit
  bool here = false;      // --here: check on this machine what the log's messages name
  std::string driver_library;  // --driver-library: the CUDA driver --here probes (default libcuda.so.1 / nvcuda.dll)
};

// --here: what this machine says about a message's library (is the named file there, which copy would load).
// For the GPU messages (no kernel image, ARCH_MISMATCH, driver too old) also the GPUs, the driver and the GPU code
// of the cuDNN the loader would take (doctor/explain_gpu_here.hpp, over the machine module's GPUs).
struct Here {
  bool checked = false;
  std::string not_checked;  // why not (the message is from another OS), when !checked
  LibraryLookup lookup;
  std::vector<std::string> gpu;  // the GPU and driver findings
  std::vector<std::string> doctor;  // the doctor's own check for the condition the signature names, run here
  std::vector<std::string> mixed;   // SUBLIBRARY_* messages: the copies on the loader's path that mix releases
  bool any() const { return checked || !not_checked.empty() || !gpu.empty() || !doctor.empty() || !mixed.empty(); }
};

class HereChecker {
public:
  explicit HereChecker(const std::string& driver_library)
      : driver_library_(driver_library), machine_(std::make_shared<Machine>(driver_library)),
        gpu_(machine_, [this] { return machine_->loader().cudnn_dir(); }, platform::detect_host().os) {}

  Here check(const ExplainMatch& m) {
    Here h;
    // the doctor first: its probe (when its check loads cuDNN) hands the GPUs to the shared machine, so the GPU
    // findings start no second child
    h.doctor = doctor_findings(m);
    h.gpu = gpu_.findings(m);
    if (m.text.find("SUBLIBRARY_VERSION_MISMATCH") != std::string::npos || m.text.find("SUBLIBRARY_LOADING_FAILED") != std::string::npos)
      h.mixed = machine_->loader().mixed_release_findings(9);
    if (m.library.empty()) return h;
    const auto os = m.library_windows ? Os::windows : Os::linux_os;
    if (os != host_.os) {
      h.not_checked = fmt::format("{} is a {} file and this machine runs {}", m.library, to_string(os), to_string(host_.os));
      return h;
    }
    h.checked = true;
    h.lookup = machine_->loader().look_up(m.library, m.library_dir);
    return h;
  }

private:
  // One knowledge base: a signature a doctor check reports names that check, and --here runs it (once per check).
  std::vector<std::string> doctor_findings(const ExplainMatch& m) {
    const std::string check(m.signature->check);
    if (check == "explain" || !find_check(check)) return {};
    auto it = doctor_runs_.find(check);
    if (it == doctor_runs_.end()) {
      DoctorOptions o;
      o.only_checks = {check};
      o.self_exe = platform::self_executable();
      o.driver_library = driver_library_;
      o.machine = machine_;
      platform::ProcessEnvironment env;
      std::vector<std::string> lines;
      for (const auto& c : run_doctor(o, env).checks)
        lines.push_back(fmt::format("doctor {}: {}: {}", c.id, to_string(c.status), c.finding));
      it = doctor_runs_.emplace(check, std::move(lines)).first;
    }
    return it->second;
  }

  platform::HostPlatform host_ = platform::detect_host();
  std::string driver_library_;
  std::shared_ptr<Machine> machine_;  // this run's machine: the doctor's probe and the GPU findings share it
  GpuHereChecker gpu_;
  std::map<std::string, std::vector<std::string>> doctor_runs_;  // check id -> its findings here
};

nlohmann::json here_json(const Here& h) {
  if (!h.checked) {
    nlohmann::json j{{"checked", false}, {"why_not", h.not_checked}};
    if (!h.gpu.empty()) j["gpu"] = h.gpu;
    if (!h.doctor.empty()) j["doctor"] = h.doctor;
    if (!h.mixed.empty()) j["mixed_release"] = h.mixed;
    return j;
  }
  const auto& l = h.lookup;
  nlohmann::json j{{"checked", true}, {"file", l.file}, {"loads", l.found.empty() ? nlohmann::json() : nlohmann::json(l.found)},
                   {"via", l.via}, {"other_copies", l.other_copies}};
  if (!l.named_dir.empty()) j["named_file_exists"] = l.named_file_exists;
  if (!h.gpu.empty()) j["gpu"] = h.gpu;
  if (!h.doctor.empty()) j["doctor"] = h.doctor;
  if (!h.mixed.empty()) j["mixed_release"] = h.mixed;
  return j;
}

std::string library_here_text(const Here& h) {
  if (!h.checked) return h.not_checked.empty() ? std::string() : "not checked: " + h.not_checked;
  const auto& l = h.lookup;
  auto out = l.found.empty() ? fmt::format("no {} on this machine's loader search order", l.file)
                             : fmt::format("{} loads from {} ({})", l.file, l.found, l.via);
  if (!l.other_copies.empty()) out += fmt::format("; other copies after it: {}", fmt::join(l.other_copies, ", "));
  if (!l.named_dir.empty())
    out += fmt::format("; the file the message names, {}{}, {}", l.named_dir, l.file, l.named_file_exists ? "exists" : "is not there");
  return out;
}

// The library finding, then each GPU finding on a line of its own.
std::string here_text(const Here& h) {
  auto out = library_here_text(h);
  for (const auto& g : h.gpu) out += (out.empty() ? "" : "\n  here: ") + g;
  for (const auto& d : h.doctor) out += (out.empty() ? "" : "\n  here: ") + d;
  for (const auto& g : h.mixed) out += (out.empty() ? "" : "\n  here: ") + g;
  return out;
}

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

nlohmann::json match_json(const ExplainMatch& m, const std::string& cuda_path, const Here* here) {
  nlohmann::json also = nlohmann::json::array();
  for (const auto* s : m.also) also.push_back(s->id);
  nlohmann::json j{{"line", m.line},          {"text", m.text},           {"signature", m.signature->id},
                   {"title", m.signature->title}, {"layer", m.signature->layer}, {"check", m.signature->check},
                   {"harmless", m.signature->harmless}, {"cause", m.signature->cause}, {"fix", fix_text(*m.signature, cuda_path)},
                   {"detail", m.detail},       {"also", also},
                   {"folded_under", m.folded_under ? nlohmann::json(m.folded_under) : nlohmann::json()},
                   {"role", m.signature->harmless ? "harmless" : m.folded_under ? "collateral" : "root"}};
  if (!m.library.empty()) j["library"] = m.library;
  if (here && here->any()) j["here"] = here_json(*here);
  return j;
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
  std::string here;  // --here's finding for the first match
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
    if (g.first.folded_under) out << fmt::format("  follows from: line {}\n", g.first.folded_under);
    if (!g.here.empty()) out << fmt::format("  here: {}\n", g.here);
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

CommandRun setup_explain(CLI::App& sub, Io&) {
  auto opts = std::make_shared<ExplainOptions>();
  sub.add_option("input", opts->input, "The log to read: a file, or - for standard input (default)");
  sub.add_option("--cuda-path", opts->cuda_path, "The toolkit the fix lines' cudnnctl commands should name (they then run as printed)")
      ->type_name("DIR");
  sub.add_flag("--here", opts->here,
               "Check on this machine what the messages name: whether the file a message names is there, which copy the loader would take");
  sub.add_option("--driver-library", opts->driver_library,
                 "With --here: the CUDA driver library asked about the GPUs for GPU and driver messages (default: libcuda.so.1 / "
                 "nvcuda.dll by name)")
      ->type_name("FILE");
  return [opts](Io& io) -> Result<ExitCode> {
    if (!opts->cuda_path.empty()) CUDNNCTL_TRY(read_cuda_path(opts->cuda_path));  // the fix lines name a toolkit that is one
    CUDNNCTL_TRY_ASSIGN(auto file, open_input(opts->input));
    std::istream& in = file ? *file : std::cin;
    std::size_t matches = 0, harmless = 0;
    std::vector<Group> groups;
    LogReader reader;  // the first error first: a later message that follows from an earlier cause is folded under it
    HereChecker checker(opts->driver_library);
    if (io.json)
      io.out << "{\n  \"source\": " << json_text(opts->input) << ",\n  \"matches\": [";
    // Matches are written as they are found (JSON) or grouped by signature (text): nothing grows with the log.
    const auto take = [&](std::vector<ExplainMatch> found) {
      for (auto& m : found) {
        harmless += m.signature->harmless ? 1 : 0;
        const auto here = opts->here ? std::optional<Here>(checker.check(m)) : std::nullopt;
        if (io.json) {
          io.out << (matches ? ",\n" : "\n") << indented(json_text(match_json(m, opts->cuda_path, here ? &*here : nullptr)));
        } else {
          auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.first.signature == m.signature; });
          if (g == groups.end()) g = groups.insert(groups.end(), Group{m, {}, 0, here ? here_text(*here) : std::string()});
          if (g->lines.size() < 8) g->lines.push_back(m.line);
          ++g->count;
        }
        ++matches;
      }
    };
    const auto scan = scan_lines(in, [&](std::string_view line, std::size_t line_no) { take(reader.feed(line, line_no)); });
    take(reader.finish());
    const auto& folder = reader.folder();
    if (scan.truncated) io.warn(fmt::format("read only the first {} MiB of {}", k_max_input >> 20, opts->input == "-" ? "standard input" : opts->input));
    const std::size_t actionable = matches - harmless;
    const auto code = actionable ? ExitCode::problems_found : ExitCode::ok;
    if (io.json) {
      const nlohmann::json tail{{"bytes_read", scan.bytes}, {"truncated", scan.truncated}, {"harmless", harmless},
                                {"actionable", actionable}, {"causes", folder.cause_count()},
                                {"first_cause", folder.first_cause() ? nlohmann::json(folder.first_cause()) : nlohmann::json()}};
      // the envelope's fields (schema, ok, exit_code, warnings) close the streamed document
      auto rest = json_text(json_envelope(io.schema, to_int(code), io.warnings, tail, nullptr));  // "{\n  ...\n}": its members follow the matches
      io.out << (matches ? "\n  ],\n" : "],\n") << rest.substr(2) << "\n";
      io.document_written = true;
      return code;
    }
    print_groups(io.out, groups, opts->cuda_path);
    if (matches == 0)
      io.out << "no cuDNN or CUDA loading message found that cudnnctl knows (docs/troubleshooting.md lists them)\n";
    else
      io.out << fmt::format("{} message{} named: {} harmless, {} to fix{}\n", matches, matches == 1 ? "" : "s", harmless, actionable,
                            folder.first_cause() ? fmt::format("; the first cause is on line {}, {} cause{} in all", folder.first_cause(),
                                                               folder.cause_count(), folder.cause_count() == 1 ? "" : "s")
                                                 : std::string());
    return code;
  };
}

} // namespace cudnnctl
