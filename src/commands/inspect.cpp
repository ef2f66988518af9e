// cudnnctl inspect <archive>: the file name read as a version contract.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cudnnctl/catalog/version_contract.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/contract_output.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {
struct InspectOptions {
  std::string archive;
  std::string catalog;
};
} // namespace

CommandRun setup_inspect(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<InspectOptions>();
  sub.add_option("archive", opts->archive, "Archive path or file name (the file need not exist)")->required();
  sub.add_option("--catalog", opts->catalog, "Release catalog JSON to use instead of the built-in one");
  sub.add_flag("--json", shared_io.json, "Print one JSON document");
  return [opts](Io& io) -> Result<ExitCode> {
    Catalog storage;
    auto catalog = select_catalog(opts->catalog, storage);
    if (!catalog) return Unexpected<Error>(catalog.error());
    auto name = parse_archive_name(opts->archive);
    if (!name) return Unexpected<Error>(name.error());
    for (const auto& w : name->warnings) io.warn(w);
    const auto contract = make_contract(*name, **catalog, platform::detect_host());
    if (io.json) {
      auto j = contract_to_json(contract);
      j["ok"] = true;
      j["warnings"] = io.warnings;
      io.out << json_text(j) << "\n";
    } else {
      print_contract(io.out, contract);
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
