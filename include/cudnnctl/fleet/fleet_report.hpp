#pragma once
// cudnnctl report: a fleet's view from the doctor --json documents its engines collect (ansible.builtin.fetch,
// a shared folder): which release most nodes run, which nodes differ and why, every check across the hosts.
// It aggregates files; it is not a server (docs/fleets.md).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/exit_code.hpp"

namespace cudnnctl {

struct NodeCheck {
  std::string id;
  int layer = 0;
  std::string status;   // pass, warn, fail, skip
  std::string finding;
};

/// One node's doctor document, as read.
struct NodeDocument {
  std::string file;                 // where it was read
  std::string host;                 // its "host" ("" in documents of cudnnctl before 0.x, or when unread)
  std::string name;                 // what the report calls it: the host, or the file name where hosts repeat
  std::optional<std::string> cudnn; // "9.19.0"; nullopt: the doctor found none
  std::string cuda_major;           // "13"; empty when unknown
  std::string toolkit;              // the toolkit's root
  int exit_code = 0;
  std::vector<NodeCheck> checks;
};

/// A file that was named or found and is not a doctor document: why.
struct Unreadable {
  std::string file;
  std::string why;
};

/// The caps that keep hostile folders and files from eating the machine.
inline constexpr std::uint64_t k_node_document_max = 16ull << 20;  // a doctor document is tens of KiB
inline constexpr std::size_t k_node_documents_max = 100000;        // files read in one report

/// Reads one doctor --json document (schema cudnnctl.doctor/2). Errors say what is wrong with it.
Result<NodeDocument> parse_node_document(std::string_view text, const std::string& file);

struct CollectedDocuments {
  std::vector<NodeDocument> nodes;
  std::vector<Unreadable> unreadable;
};
/// Reads every FILE, and every *.json file directly in every DIR (sorted by name), each as hostile input:
/// regular files only (a FIFO or device is listed as unreadable, never opened), at most 16 MiB each, at most
/// 100000 in all. A name that does not exist is an error (io.not-found); a file that is not a doctor
/// document is listed as unreadable.
Result<CollectedDocuments> collect_node_documents(const std::vector<std::string>& paths);

struct OutlierNode {
  std::string name;
  std::vector<std::string> reasons;   // "cuDNN 9.1.0 (CUDA 12), not the majority's 9.19.0 (CUDA 13)", "files.headers failed: ..."
};

struct CheckAcrossNodes {
  std::string id;
  int layer = 0;
  std::size_t pass = 0, warn = 0, fail = 0, skip = 0;
  std::vector<std::string> failing;   // node names, then those that warn
  std::vector<std::string> warning;
};

struct ReleaseCount {
  std::string release;   // "9.19.0 (CUDA 13)", or "none" where no cuDNN was found
  std::vector<std::string> nodes;
};

struct FleetReport {
  std::vector<NodeDocument> nodes;        // named, sorted by name
  std::vector<ReleaseCount> releases;     // most nodes first
  std::string majority;                   // releases.front().release; empty without nodes
  std::vector<OutlierNode> outliers;      // nodes off the majority release or with a failed check, by name
  std::vector<CheckAcrossNodes> checks;   // by layer, then id
  std::vector<Unreadable> unreadable;
};

/// The fleet view: names the nodes (the host, or the file's name where two documents share a host), counts
/// the releases (ties: the newer release counts as the majority), and finds the outliers and why: another
/// release than the majority's, no cuDNN, a failed check, or a warning on a check most nodes pass.
FleetReport build_fleet_report(std::vector<NodeDocument> nodes, std::vector<Unreadable> unreadable);

/// 0 when every node runs the majority release and none fails or is unreadable; 10 otherwise.
ExitCode fleet_exit_code(const FleetReport& report);

std::string fleet_text(const FleetReport& report);
nlohmann::json fleet_json(const FleetReport& report);
/// One self-contained page like doctor --html's: the releases, the outliers with their reasons, the checks
/// by hosts.
std::string fleet_html(const FleetReport& report);

} // namespace cudnnctl
