#pragma once
// The layered diagnosis: 1 toolkit, 2 files, 3 loader, 4 driver and device, 5 workload. Each check has
// a status, a one-line finding and, when it does not pass, the cause and the fix.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/exit_code.hpp"
#include "cudnnctl/env/shadow_scan.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/machine/device_gate.hpp"  // parse_driver_version
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

class Catalog;
struct DoctorFacts;

enum class CheckStatus { pass, warn, fail, skip };
std::string_view to_string(CheckStatus s);

struct Check {
  std::string id;   // stable, e.g. "loader.load"
  int layer = 1;
  CheckStatus status = CheckStatus::pass;
  std::string finding;
  std::string cause;
  std::string fix;
};

struct DoctorOptions {
  std::string cuda_path;
  bool no_gpu = false;
  int only_layer = 0;                 // 0: every layer
  std::vector<std::string> only_checks; // --check: only these ids (each reported by a row of the check table)
  std::string self_exe;               // this program, run as the probe child
  std::string driver_library;         // empty: libcuda.so.1 (nvcuda.dll on Windows), by name
  std::string driver_version_file = "/proc/driver/nvidia/version";
  int probe_timeout_ms = 60000;
  const Catalog* catalog = nullptr;   // --catalog; null: the built-in one

  // offline: read files only (no probe, no driver, no workload). Implied for a toolkit of another OS.
  bool offline = false;
  std::string target;                             // "windows" or "linux": what the tree must be; empty: read from it
  std::string system32;                           // a Windows toolkit's System32 as a folder here (--system32)
  std::vector<std::string> drives;                // "C:=/mnt/c" (--drive); /mnt/<letter> and the toolkit's own path are inferred
  std::optional<std::string> windows_path;        // that machine's PATH (--path-value, or from --path-file exports)
  std::map<std::string, std::string> windows_vars;// other variables from the exports, for %VAR% in PATH
  std::string windows_path_origin;                // where the PATH came from, in words

  // framework bundles (bundles.* checks): these site folders only (--site); empty: $VIRTUAL_ENV's,
  // $CONDA_PREFIX's and what python3 and python on PATH report, as `cudnnctl bundle list` searches
  std::vector<std::string> bundle_sites;

  // the system root whose ld.so cache is read and whose /etc/ld.so.conf.d `doctor --fix` writes ("/"; another root:
  // an image, tests)
  std::string system_root = "/";

  // this run's machine (explain --here shares its own): the toolkits are looked for in its environment (surveyed
  // once, whoever asks first), the doctor's probe hands it the GPUs and the driver (Machine::know_gpus) and its
  // bundle scan the bundles, and the checks read them there; null: the doctor makes its own over the environment
  // it is given
  std::shared_ptr<Machine> machine;
};

/// The cuDNN the doctor found in the toolkit, as a fleet compares nodes by it (doctor --prometheus, --nfd,
/// --json's "cudnn", cudnnctl report).
struct CudnnFound {
  std::string version;     // "9.19.0", from the toolkit's cudnn_version.h
  unsigned major = 0;
  std::string cuda_major;  // the toolkit's CUDA major ("13"); empty when unread
  std::string owner;       // "cudnnctl" when cudnnctl's receipt records it, else "unrecorded"
};

struct DoctorReport {
  std::optional<Toolkit> toolkit;
  std::optional<CudnnFound> cudnn;     // nullopt: no toolkit, or no readable version header
  std::string host;                    // this machine's host name (the real run's; empty behind a fake system)
  std::vector<Check> checks;
  bool offline = false;
  std::optional<ShadowReport> search;  // the loader's search order and the cuDNN copies on it, when it was scanned
  std::string search_origin;           // "this process's environment", "--path-value", "machine.reg + user.reg"
  std::vector<std::string> notes;      // how a foreign disk was mapped, and similar
  std::shared_ptr<const DoctorFacts> facts;  // what the checks were run over (doctor --fix plans from it)
};

DoctorReport run_doctor(const DoctorOptions& options, const platform::Environment& env);
/// The same, with the machine behind a seam (doctor/system.hpp): tests pass a fake.
DoctorReport run_doctor(const DoctorOptions& options, const platform::Environment& env, class DoctorSystem& system);

/// The layer names ("toolkit", "files", "loader", "driver and device", "workload"), for every renderer.
std::string_view layer_name(int layer);

/// What every renderer says at the end: the counts and the verdict.
struct DoctorSummary {
  int passed = 0, warnings = 0, failed = 0, skipped = 0;
  ExitCode code = ExitCode::ok;
  std::string_view verdict;  // "healthy", "problems found", "healthy up to the GPU layers, which were skipped"
};
DoctorSummary summarize(const DoctorReport& report);

/// 0 healthy; 10 something failed; 11 healthy up to the GPU layers, which were skipped.
ExitCode doctor_exit_code(const DoctorReport& report);
nlohmann::json doctor_json(const DoctorReport& report);
std::string doctor_text(const DoctorReport& report);
/// One self-contained HTML page (no network): the layers as a table, each failure's cause and fix, and
/// the loader's search order drawn as a picture (doctor --html FILE).
std::string doctor_html(const DoctorReport& report);


} // namespace cudnnctl
