#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/trace/trace_render.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cudnnctl/explain/signatures.hpp"

namespace cudnnctl {

namespace {

std::string command_line(const TraceRunInfo& run) {
  std::string out;
  for (const auto& a : run.command) {
    const bool quote = a.empty() || a.find_first_of(" \t\"'$\\") != std::string::npos;
    out += (out.empty() ? "" : " ") + (quote ? "'" + a + "'" : a);
  }
  return out;
}

std::string ended(const TraceRunInfo& run) {
  return run.signal ? fmt::format("was ended by signal {} (exit code {})", run.signal, run.exit_code) : fmt::format("exited with {}", run.exit_code);
}

std::string version_text(const LibraryFacts& f) {
  return f.version.empty() ? std::string("version unknown") : fmt::format("{} (read from the {})", f.version, f.version_source);
}

std::string esc(std::string_view s) { return html_escape(s); }

} // namespace

std::string trace_text(const TraceReport& r, const TraceRunInfo& run) {
  std::string out = fmt::format("cudnnctl trace: {} {}; {} librar{} traced in {} process{}\n", command_line(run), ended(run), r.loaded.size(),
                                r.loaded.size() == 1 ? "y" : "ies", r.processes.size(), r.processes.size() == 1 ? "" : "es");
  if (r.loaded.empty() && r.missing.empty())
    out += "the command loaded no cuDNN, cuBLAS, NVRTC, cudart or driver library (a setuid program, or one that loads none, is not traced)\n";
  for (const auto& p : r.processes) {
    out += fmt::format("\nprocess {} {}\n", p.pid, p.program.empty() ? "(program unknown)" : p.program);
    for (const auto& l : r.loaded) {
      if (l.pid != p.pid) continue;
      out += fmt::format("  {}. {}\n", l.order, l.path);
      out += fmt::format("     {} {}{}\n", to_string(l.kind.family), version_text(l.facts), l.facts.soname.empty() ? "" : ", SONAME " + l.facts.soname);
      out += fmt::format("     found via {}{}{}\n", l.step, l.asked_as.empty() ? "" : ", asked for as " + l.asked_as,
                         l.requested_by.empty() ? "" : " by " + l.requested_by);
      if (!l.facts.bundle_owner.empty()) out += fmt::format("     belongs to {}\n", bundle_text(l.facts));
      if (l.kind.family == LibFamily::cudnn || l.kind.family == LibFamily::cudnn_sub) out += fmt::format("     owner: {}\n", describe(l.facts.owner));
      if (l.facts.installed_by_cudnnctl) out += fmt::format("     installed by cudnnctl (receipt {})\n", l.facts.receipt);
      for (const auto& o : l.others)
        out += fmt::format("     shadows {}{}: {}{}\n", o.path, o.version.empty() ? "" : " " + o.version, o.relation,
                           o.installed_by_cudnnctl ? ", installed by cudnnctl" : "");
    }
    for (const auto& m : r.missing)
      if (m.pid == p.pid)
        out += fmt::format("  not found: {}{} (looked in {})\n", m.name, m.requested_by.empty() ? "" : ", asked for by " + m.requested_by,
                           m.tried.empty() ? "no folder" : fmt::format("{}", fmt::join(m.tried, ", ")));
  }
  if (r.faults.empty()) {
    out += "\nno faults: one cuDNN release from one folder, one CUDA major\n";
  } else {
    out += fmt::format("\n{} fault{}:\n", r.faults.size(), r.faults.size() == 1 ? "" : "s");
    for (const auto& f : r.faults) {
      const auto& s = signature(f.signature);
      out += fmt::format("  {} ({}), process {}\n    {}\n    cause: {}\n    fix: {}\n", s.title, s.id, f.pid, f.detail, s.cause, s.fix);
    }
  }
  return out;
}

nlohmann::json trace_json(const TraceReport& r, const TraceRunInfo& run) {
  nlohmann::json procs = nlohmann::json::array(), libs = nlohmann::json::array(), missing = nlohmann::json::array(), faults = nlohmann::json::array();
  for (const auto& p : r.processes) procs.push_back({{"pid", p.pid}, {"ppid", p.ppid}, {"program", p.program}});
  for (const auto& l : r.loaded) {
    nlohmann::json others = nlohmann::json::array();
    for (const auto& o : l.others)
      others.push_back({{"path", o.path}, {"version", o.version}, {"relation", o.relation}, {"installed_by_cudnnctl", o.installed_by_cudnnctl}});
    libs.push_back({{"order", l.order}, {"pid", l.pid}, {"path", l.path}, {"name", l.name}, {"family", to_string(l.kind.family)},
                    {"major", l.kind.major}, {"version", l.facts.version}, {"version_source", l.facts.version_source},
                    {"soname", l.facts.soname}, {"step", l.step}, {"asked_as", l.asked_as}, {"requested_by", l.requested_by},
                    {"installed_by_cudnnctl", l.facts.installed_by_cudnnctl}, {"receipt", l.facts.receipt},
                    {"bundle", l.facts.bundle_owner.empty() ? nlohmann::json(nullptr)
                                                            : nlohmann::json{{"owner", l.facts.bundle_owner},
                                                                             {"dir", l.facts.bundle_dir},
                                                                             {"where", l.facts.bundle_where},
                                                                             {"text", bundle_text(l.facts)}}},
                    {"owner", owner_json(l.facts.owner)},
                    {"shadows", others}});
  }
  for (const auto& m : r.missing) missing.push_back({{"pid", m.pid}, {"name", m.name}, {"requested_by", m.requested_by}, {"tried", m.tried}});
  for (const auto& f : r.faults) {
    const auto& s = signature(f.signature);
    faults.push_back({{"signature", s.id}, {"title", s.title}, {"pid", f.pid}, {"detail", f.detail}, {"cause", s.cause}, {"fix", s.fix}});
  }
  return {{"command", run.command}, {"exit_code", run.exit_code}, {"signal", run.signal},
          {"processes", procs},         {"libraries", libs},       {"missing", missing},           {"faults", faults}};
}

std::string trace_html(const TraceReport& r, const TraceRunInfo& run) {
  std::string out = "<!doctype html><html><head><meta charset=\"utf-8\"><title>cudnnctl trace</title><style>"
                    "body{font:14px system-ui,sans-serif;margin:2em;background:#fafafa}table{border-collapse:collapse;width:100%;background:#fff}"
                    "td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}th{background:#eee}"
                    ".fault{background:#fdecea;padding:8px;margin:6px 0;border-left:4px solid #c62828}.ok{color:#2e7d32}code{font-size:13px}"
                    "</style></head><body>";
  out += fmt::format("<h1>cudnnctl trace</h1><p><code>{}</code> {}</p>", esc(command_line(run)), esc(ended(run)));
  out += "<table><tr><th>#</th><th>process</th><th>library</th><th>kind</th><th>version</th><th>found via</th><th>other copies</th></tr>";
  for (const auto& l : r.loaded) {
    std::string others;
    for (const auto& o : l.others) others += fmt::format("<div><code>{}</code> {} ({})</div>", esc(o.path), esc(o.version), esc(o.relation));
    out += fmt::format("<tr><td>{}</td><td>{}</td><td><code>{}</code>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td></tr>", l.order, l.pid,
                       esc(l.path), l.facts.installed_by_cudnnctl ? " <b>(installed by cudnnctl)</b>" : "", esc(to_string(l.kind.family)),
                       esc(version_text(l.facts)), esc(l.step), l.requested_by.empty() ? "" : "<br>asked by <code>" + esc(l.requested_by) + "</code>",
                       others);
  }
  out += "</table>";
  for (const auto& m : r.missing)
    out += fmt::format("<p>not found: <code>{}</code> (looked in {})</p>", esc(m.name), esc(fmt::format("{}", fmt::join(m.tried, ", "))));
  if (r.faults.empty()) out += "<p class=\"ok\">No faults: one cuDNN release from one folder, one CUDA major.</p>";
  for (const auto& f : r.faults) {
    const auto& s = signature(f.signature);
    out += fmt::format("<div class=\"fault\"><b>{}</b> (<code>{}</code>)<br>{}<br>cause: {}<br>fix: {}</div>", esc(s.title), esc(s.id), esc(f.detail),
                       esc(s.cause), esc(s.fix));
  }
  return out + "</body></html>\n";
}

} // namespace cudnnctl
