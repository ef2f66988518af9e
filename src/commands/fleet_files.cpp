// doctor --prometheus / --nfd: the renderers' text written where node_exporter and NFD read it.
#include "cudnnctl/commands/fleet_files.hpp"

#include <chrono>

#include <fmt/format.h>

#include "cudnnctl/doctor/fleet_formats.hpp"
#include "cudnnctl/platform/replace_file.hpp"

namespace cudnnctl {

std::shared_ptr<FleetFiles> add_fleet_file_options(CLI::App& sub) {
  auto shared = std::make_shared<FleetFiles>();
  auto& files = *shared;
  sub.add_option("--prometheus", files.prometheus,
                 "Also write the result as Prometheus metrics for node_exporter's textfile collector to FILE (a .prom file; docs/fleets.md)");
  sub.add_option("--nfd", files.nfd, "Also write cuDNN labels for Node Feature Discovery to FILE (in its features.d folder; docs/fleets.md)");
  sub.add_option("--nfd-expiry", files.nfd_expiry_s, "Seconds until NFD drops the --nfd labels unless doctor writes them again (default 900)")
      ->check(CLI::Range(std::int64_t{60}, std::int64_t{7 * 24 * 3600}));
  return shared;
}

Result<void> write_fleet_files(const FleetFiles& files, const DoctorReport& report) {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (!files.prometheus.empty()) CUDNNCTL_TRY(platform::replace_file_atomically(files.prometheus, doctor_prometheus(report, now)));
  if (!files.nfd.empty()) {
    CUDNNCTL_TRY_ASSIGN(const auto text, doctor_nfd(report, now, files.nfd_expiry_s));
    CUDNNCTL_TRY(platform::replace_file_atomically(files.nfd, text));
  }
  return {};
}

} // namespace cudnnctl
