#pragma once
// doctor's files for the engines a fleet runs (docs/fleets.md): --prometheus FILE (node_exporter's
// textfile collector) and --nfd FILE (Node Feature Discovery's local feature source), each replaced
// atomically after the diagnosis.
#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/doctor/doctor.hpp"

namespace cudnnctl {

struct FleetFiles {
  std::string prometheus;               // --prometheus FILE
  std::string nfd;                      // --nfd FILE
  std::int64_t nfd_expiry_s = 900;      // --nfd-expiry SECONDS: when NFD drops the labels of a node that stopped writing
};

/// Adds --prometheus, --nfd and --nfd-expiry to doctor; the values land in the returned FleetFiles.
std::shared_ptr<FleetFiles> add_fleet_file_options(CLI::App& sub);

/// Writes the files the options name (nothing when none); the first that cannot be written is the error,
/// and that file is left as it was.
Result<void> write_fleet_files(const FleetFiles& files, const DoctorReport& report);

} // namespace cudnnctl
