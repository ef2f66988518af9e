// cudnnctl inspect <archive>: the file name read as a version contract; when the file exists, also the
// glibc / libstdc++ floor of its Linux libraries (read from their ELF headers) and the GPU code of every
// library (SASS, PTX, compression: their fat binaries' entry headers), in one pass over the archive.
// Known-bad releases warn.
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cudnnctl/archive/sniff.hpp"
#include "cudnnctl/catalog/advisories.hpp"
#include "cudnnctl/catalog/version_contract.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/contract_output.hpp"
#include "cudnnctl/commands/floor_output.hpp"
#include "cudnnctl/commands/gpu_code_output.hpp"
#include "cudnnctl/install/archive_libraries.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {
struct InspectOptions {
  std::string archive;
  std::string catalog;
};

struct ArchiveFloor {
  ArchiveLibraryFacts libraries;
  HostSymbolVersions host;
};

// The floor and GPU code of the archive's libraries, when the archive is a file here (a bare name reads as a
// contract only).
Result<std::optional<ArchiveFloor>> floor_of_file(const std::string& path, const ArchiveName& name) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(path), ec)) return std::optional<ArchiveFloor>{};
  CUDNNCTL_TRY(check_is_archive(path, name.format));
  CUDNNCTL_TRY_ASSIGN(auto libraries, read_archive_libraries(path, name.format));
  return std::optional<ArchiveFloor>(ArchiveFloor{std::move(libraries), detect_host_symbol_versions()});
}
} // namespace

CommandRun setup_inspect(CLI::App& sub, Io&) {
  auto opts = std::make_shared<InspectOptions>();
  sub.add_option("archive", opts->archive, "Archive path or file name (the file need not exist)")->required();
  sub.add_option("--catalog", opts->catalog, "Release catalog JSON to use instead of the built-in one");
  return [opts](Io& io) -> Result<ExitCode> {
    Catalog storage;
    CUDNNCTL_TRY_ASSIGN(const auto* catalog, select_catalog(opts->catalog, storage));
    CUDNNCTL_TRY_ASSIGN(const auto name, parse_archive_name(opts->archive));
    for (const auto& w : name.warnings) io.warn(w);
    const auto contract = make_contract(name, *catalog, platform::detect_host());
    const auto advisories = advisories_for(name.version, builtin_advisories());
    for (const auto& a : advisories) io.warn(advisory_warning(name.version, a));
    CUDNNCTL_TRY_ASSIGN(const auto floor, floor_of_file(opts->archive, name));
    if (io.json) {
      auto j = contract_to_json(contract);
      j["advisories"] = advisories_to_json(advisories);
      j["library_floor"] = floor ? floor_to_json(floor->libraries.floor, floor->host) : nlohmann::json(nullptr);
      j["gpu_code"] = floor ? archive_gpu_code_to_json(floor->libraries.gpu_code) : nlohmann::json(nullptr);
      io.set_body(j);
    } else {
      print_contract(io.out, contract);
      if (floor) {
        print_floor(io.out, floor->libraries.floor, floor->host);
        print_archive_gpu_code(io.out, floor->libraries.gpu_code);
      }
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
