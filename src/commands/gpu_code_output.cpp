#include "cudnnctl/commands/gpu_code_output.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

// The distinct PTX ISA versions of a library's PTX entries ("9.0"), ordered.
std::vector<std::string> ptx_isa_versions(const GpuCode& code) {
  std::vector<std::pair<unsigned, unsigned>> seen;
  for (const auto& e : code.entries)
    if (e.kind == FatbinKind::ptx) seen.emplace_back(e.ptx_isa_major, e.ptx_isa_minor);
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  std::vector<std::string> out;
  for (const auto& [major, minor] : seen) out.push_back(fmt::format("{}.{}", major, minor));
  return out;
}

nlohmann::json one_library_json(const ArchiveLibraryGpuCode& lib) {
  if (!lib.code) return {{"library", lib.name}, {"error", lib.unreadable}};
  const auto& code = *lib.code;
  nlohmann::json sass = nlohmann::json::array(), ptx = nlohmann::json::array();
  for (const auto& a : code.sass()) sass.push_back(sass_name(a));
  for (const auto& a : code.ptx()) ptx.push_back(ptx_name(a));
  return {{"library", lib.name},
          {"has_fatbin", code.has_fatbin},
          {"section", code.section},
          {"containers", code.containers},
          {"entries", code.entries.size()},
          {"sass", sass},
          {"ptx", ptx},
          {"ptx_isa", ptx_isa_versions(code)},
          {"compressed_entries", code.compressed_entries()}};
}

std::string one_library_line(const GpuCode& code) {
  if (!code.has_fatbin || code.entries.empty()) return "no GPU code";
  auto line = gpu_code_summary(code);
  const auto isa = ptx_isa_versions(code);
  if (!isa.empty()) {
    std::string list;
    for (const auto& v : isa) list += (list.empty() ? "" : " ") + v;
    line += fmt::format(" (PTX ISA {})", list);
  }
  const auto compressed = code.compressed_entries();
  line += compressed == 0                    ? "; not compressed"
          : compressed == code.entries.size() ? "; compressed"
                                              : fmt::format("; {} of {} entries compressed", compressed, code.entries.size());
  return line;
}

} // namespace

nlohmann::json archive_gpu_code_to_json(const std::vector<ArchiveLibraryGpuCode>& libraries) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& lib : libraries) out.push_back(one_library_json(lib));
  return out;
}

void print_archive_gpu_code(std::ostream& out, const std::vector<ArchiveLibraryGpuCode>& libraries) {
  if (libraries.empty()) {
    out << fmt::format("  {:<18}{}\n", "GPU code", "no libraries in the archive");
    return;
  }
  out << "  GPU code\n";
  for (const auto& lib : libraries)
    out << fmt::format("    {}: {}\n", terminal_safe(lib.name),
                       lib.code ? one_library_line(*lib.code) : "unreadable: " + terminal_safe(lib.unreadable));
}

} // namespace cudnnctl
