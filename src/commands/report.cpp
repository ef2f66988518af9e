// cudnnctl report FILE|DIR...: a fleet's view from the doctor --json documents its nodes wrote (fleet/).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/fleet/fleet_report.hpp"
#include "cudnnctl/platform/replace_file.hpp"

namespace cudnnctl {

CommandRun setup_report(CLI::App& sub, Io&) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto html = std::make_shared<std::string>();
  sub.add_option("documents", *paths, "doctor --json documents, or folders holding them (*.json)")->required();
  sub.add_option("--html", *html, "Also write the report as one self-contained HTML page to FILE");
  return [paths, html](Io& io) -> Result<ExitCode> {
    CUDNNCTL_TRY_ASSIGN(auto collected, collect_node_documents(*paths));
    if (collected.nodes.empty())
      return fail(ErrorCode::input_invalid,
                  fmt::format("no doctor document among {} file{} read", collected.unreadable.size(), collected.unreadable.size() == 1 ? "" : "s"),
                  collected.unreadable.empty() ? "name the files `cudnnctl doctor --json` wrote on each node, or their folder"
                                               : collected.unreadable.front().why);
    const auto report = build_fleet_report(std::move(collected.nodes), std::move(collected.unreadable));
    if (!html->empty()) CUDNNCTL_TRY(platform::replace_file_atomically(*html, fleet_html(report)));
    if (io.json) io.set_body(fleet_json(report));
    else io.out << fleet_text(report);
    return fleet_exit_code(report);
  };
}

} // namespace cudnnctl
