#pragma once
// The doctor's report in the formats the engines a fleet already runs collect (docs/fleets.md): the
// Prometheus text format for node_exporter's textfile collector (doctor --prometheus FILE) and a Node
// Feature Discovery local feature file (doctor --nfd FILE). Pure functions of the report and the time.
#include <cstdint>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/doctor/doctor.hpp"

namespace cudnnctl {

/// Text format 0.0.4, no timestamps (the collector refuses them): cudnnctl_cudnn_info{version,cuda_major,
/// toolkit,owner} 1 (when a cuDNN was found), cudnnctl_check_status{check,layer,status} with exactly one of
/// a check's four status series 1 (a check reported more than once counts at its worst), cudnnctl_checks_failed
/// (the checks whose fail series is 1), cudnnctl_doctor_exit_code, cudnnctl_doctor_last_run_timestamp_seconds.
std::string doctor_prometheus(const DoctorReport& report, std::int64_t now_unix_seconds);

/// The label namespace of doctor --nfd ("cudnnctl.io/cudnn-version.major").
inline constexpr std::string_view k_nfd_namespace = "cudnnctl.io";
/// NFD ignores feature files larger than 64 KiB (MaxFeatureFileSize).
inline constexpr std::size_t k_nfd_file_max = 65536;

/// "2026-12-06T23:15:00Z" for a Unix time (RFC 3339, UTC).
std::string rfc3339_utc(std::int64_t unix_seconds);

/// The NFD local feature file: "# +expiry-time=" now + `expiry_seconds`, then the labels
/// <ns>/cudnn-version.major|minor|patch|full and <ns>/cudnn.cuda-major (when a cuDNN was found),
/// <ns>/cudnn.healthy=true|false, <ns>/cudnn.checks-failed=N, and for each failed or warning check a
/// "# +no-label" feature <ns>/check.<id>=fail|warn. Every key and value is checked against Kubernetes'
/// and NFD's rules first (doctor/k8s_labels); a line that breaks them, or a file over 64 KiB, is an error
/// and nothing is returned.
Result<std::string> doctor_nfd(const DoctorReport& report, std::int64_t now_unix_seconds, std::int64_t expiry_seconds);

} // namespace cudnnctl
