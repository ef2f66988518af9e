// cudnnctl gpu-code <library or folder>...: the GPU code each CUDA library carries, read from its fat
// binaries (.nv_fatbin in an ELF file, .nv_fatb in a PE file): SASS architectures, PTX, compression.
// No GPU and no driver needed; nothing is decompressed.
#include <algorithm>
#include <iterator>
#include <filesystem>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/loader/library_files.hpp"

namespace cudnnctl {

namespace {

struct GpuCodeOptions {
  std::vector<std::string> paths;
};

nlohmann::json code_to_json(const std::string& path, const GpuCode& code) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : code.entries) {
    if (e.kind == FatbinKind::other) {
      entries.push_back({{"kind", "other"}, {"kind_code", e.kind_code}});
      continue;
    }
    nlohmann::json j{{"kind", e.kind == FatbinKind::sass ? "sass" : "ptx"},
                     {"arch", e.kind == FatbinKind::sass ? sass_name(e.arch) : ptx_name(e.arch)},
                     {"compressed", e.compressed},
                     {"size", e.stored_size}};
    if (e.kind == FatbinKind::ptx) j["ptx_isa"] = fmt::format("{}.{}", e.ptx_isa_major, e.ptx_isa_minor);
    entries.push_back(std::move(j));
  }
  nlohmann::json sass = nlohmann::json::array(), ptx = nlohmann::json::array();
  for (const auto& a : code.sass()) sass.push_back(sass_name(a));
  for (const auto& a : code.ptx()) ptx.push_back(ptx_name(a));
  return {{"path", path},      {"has_fatbin", code.has_fatbin}, {"section", code.section}, {"containers", code.containers},
          {"sass", sass},      {"ptx", ptx},                     {"compressed_entries", code.compressed_entries()},
          {"entries", entries}};
}

void print_code(std::ostream& out, const std::string& path, const GpuCode& code) {
  out << terminal_safe(path) << "\n";
  if (!code.has_fatbin || code.entries.empty()) {
    out << "  no GPU code (no fat binary)\n";
    return;
  }
  std::string sass, ptx;
  for (const auto& a : code.sass()) sass += " " + sass_name(a);
  for (const auto& a : code.ptx()) ptx += " " + ptx_name(a);
  out << "  SASS:" << (sass.empty() ? " none" : sass) << "\n";
  out << "  PTX: " << (ptx.empty() ? " none" : ptx) << "\n";
  out << fmt::format("  {} entries in {} fat binaries ({}), {} compressed\n", code.entries.size(), code.containers, code.section,
                     code.compressed_entries());
}

} // namespace

CommandRun setup_gpu_code(CLI::App& sub, Io&) {
  auto opts = std::make_shared<GpuCodeOptions>();
  sub.add_option("paths", opts->paths, "Libraries (ELF .so, PE .dll) or folders of them")->required();
  return [opts](Io& io) -> Result<ExitCode> {
    std::vector<FolderLibraryCode> read;
    for (const auto& p : opts->paths) {
      std::error_code ec;
      if (!std::filesystem::is_directory(path_from_utf8(p), ec)) {
        read.push_back({p, read_gpu_code_file(p)});
        continue;
      }
      auto found = read_folder_gpu_code(p);
      if (found.empty()) io.warn(fmt::format("'{}' holds no library (.so, .dll)", p));
      std::move(found.begin(), found.end(), std::back_inserter(read));
    }
    nlohmann::json libraries = nlohmann::json::array();
    for (const auto& [f, result] : read) {
      CUDNNCTL_TRY_ASSIGN(const auto& code, result);
      if (io.json) libraries.push_back(code_to_json(f, code));
      else print_code(io.out, f, code);
    }
    if (io.json) io.set_body({{"libraries", libraries}});
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
