// cudnnctl gpu-code <library or folder>...: the GPU code each CUDA library carries, read from its fat
// binaries (.nv_fatbin in an ELF file, .nv_fatb in a PE file): SASS architectures, PTX, compression.
// No GPU and no driver needed; nothing is decompressed.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/install/library_floor.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"

namespace cudnnctl {

namespace {

struct GpuCodeOptions {
  std::vector<std::string> paths;
};

bool is_library_name(const std::string& name) {
  return is_shared_library_name(name) || (name.size() > 4 && iequals_ascii(name.substr(name.size() - 4), ".dll"));
}

// A folder's libraries (regular files with a library's name, links left out: their targets are listed), sorted.
std::vector<std::string> libraries_in(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(folder), ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code lec;
    if (it->is_symlink(lec) || !it->is_regular_file(lec) || !is_library_name(it->path().filename().string())) continue;
    out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

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
    std::vector<std::string> files;
    for (const auto& p : opts->paths) {
      std::error_code ec;
      if (std::filesystem::is_directory(std::filesystem::path(p), ec)) {
        const auto found = libraries_in(p);
        if (found.empty()) io.warn(fmt::format("'{}' holds no library (.so, .dll)", p));
        files.insert(files.end(), found.begin(), found.end());
      } else {
        files.push_back(p);
      }
    }
    nlohmann::json libraries = nlohmann::json::array();
    for (const auto& f : files) {
      CUDNNCTL_TRY_ASSIGN(auto code, read_gpu_code_file(f));
      if (io.json) libraries.push_back(code_to_json(f, code));
      else print_code(io.out, f, code);
    }
    if (io.json) io.set_body({{"libraries", libraries}});
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
