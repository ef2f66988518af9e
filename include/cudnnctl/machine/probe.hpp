#pragma once
// The loader and driver probe. It runs in a child process (cudnnctl runs itself with a hidden command),
// because cuDNN aborts the whole process when a sub-library is missing. The child loads every
// sub-library by full path, then the main library, calls the version functions and the sub-library
// version checks, then probes the driver (libcuda.so.1 / nvcuda.dll) and calls cudnnCreate. It prints one
// JSON line per step, flushed, so whatever it learnt before dying reaches the parent.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"

namespace cudnnctl {

struct ProbeRequest {
  std::string lib_dir;           // where the toolkit's cuDNN libraries are
  unsigned major = 9;
  std::string driver_library;    // "libcuda.so.1" by name (the loader's search), or a path (tests)
  bool with_driver = true;
  bool driver_only = false;      // no cuDNN: only the driver and its GPUs (install's look at the devices)
};

struct LibraryLoad {
  std::string file;
  bool loaded = false;
  std::string error;  // the loader's text
};

struct DeviceInfo {
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
};

struct ProbeResult {
  std::vector<LibraryLoad> loads;  // sub-libraries, then the main library last
  std::optional<std::uint64_t> version, cudart_version, max_device_version;
  std::map<std::string, int> version_checks;
  bool driver_loaded = false;
  std::string driver_error;
  std::optional<int> cu_init;
  std::optional<int> driver_api_version;
  std::vector<DeviceInfo> devices;
  std::optional<int> create_status;
  std::string last_error;
  // how the child ended
  int signal = 0;
  bool timed_out = false;
  std::string child_stderr;
  bool completed = false;

  /// What the probe found, as facts (the checks of layer 4 judge them; the workload runs only on a usable GPU):
  /// a driver loaded and initialised,
  /// the child reached the driver step (it stops before it when cuDNN does not load): what it says of the driver
  /// and the GPUs is an answer,
  bool driver_asked() const { return driver_loaded || !driver_error.empty() || cu_init.has_value(); }
  bool driver_ready() const { return driver_loaded && cu_init && *cu_init == 0; }
  /// and with it a GPU on which cudnnCreate succeeded.
  bool gpu_usable() const { return driver_ready() && !devices.empty() && (!create_status || *create_status == 0); }
};

/// The child side: does the steps and writes JSON lines to `out`. Returns the exit code.
int run_probe_child(const ProbeRequest& request, std::ostream& out);

/// The parent side: runs `self_exe __probe ...` with a timeout and reads what it printed.
Result<ProbeResult> run_probe(const std::string& self_exe, const ProbeRequest& request, int timeout_ms);

/// Sub-libraries of `major` found in `dir` by pattern (libcudnn_*.so.N / cudnn_*64_N.dll), graph first.
std::vector<std::string> discover_sub_libraries(const std::string& dir, unsigned major, Os os);

} // namespace cudnnctl
