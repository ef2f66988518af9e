#pragma once
// The doctor's one seam to the machine: every folder listed, file read, library parsed and child process
// run while facts are gathered goes through a DoctorSystem. make_real_system() is the machine; tests use
// tests/doctor/fake_system.hpp, a map-backed one.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/bundle/bundle_ops.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/machine/probe.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/workload/conv_workload.hpp"

namespace cudnnctl {

class DoctorSystem {
public:
  virtual ~DoctorSystem() = default;
  /// Names in a folder, sorted; empty when it is not a readable folder.
  virtual std::vector<std::string> list_dir(const std::string& dir) = 0;
  virtual bool exists(const std::string& path) = 0;
  virtual bool is_dir(const std::string& path) = 0;
  /// `path` with its symbolic links resolved; `path` itself when it cannot be (the default: no links).
  virtual std::string real_path(const std::string& path) { return path; }
  /// A regular file's text, at most max_bytes; nullopt when it is missing, not a regular file or larger.
  virtual std::optional<std::string> read_text(const std::string& path, std::size_t max_bytes = 1 << 20) = 0;
  virtual Result<ElfDynamicInfo> read_elf(const std::string& path) = 0;
  virtual Result<PeImports> read_pe(const std::string& path) = 0;
  /// The fat binaries of an ELF or PE library (loader/fatbin_reader.hpp): headers only, nothing decompressed.
  virtual Result<GpuCode> read_gpu_code(const std::string& path) = 0;
  /// `ldconfig -p` (empty when it cannot run). The real system runs it at most once.
  virtual const std::string& ld_cache_text() = 0;
  /// Why the ld.so cache could not be read, once ld_cache_text() was asked (empty when it was read): said as a note.
  virtual std::string ld_cache_problem() { return {}; }
  virtual Result<ProbeResult> probe(const ProbeRequest& request, int timeout_ms) = 0;
  virtual Result<WorkloadResult> workload(const WorkloadRequest& request, int timeout_ms) = 0;
  /// The site folders interpreter `exe` reports (the bundle module's python_site_dirs: a child process).
  virtual Result<std::vector<std::string>> python_sites(const std::string& exe) = 0;
  /// The install folders of the Pythons PEP 514's registry entries name (platform/python_registry.hpp; Windows only).
  virtual std::vector<std::string> registered_python_prefixes() { return {}; }
  /// The framework bundles below `sites` and those cudnnctl's state under `state_root` names, read only
  /// (the bundle module's scan_bundles).
  virtual BundleScan scan_bundles(const std::vector<std::string>& sites, const std::string& state_root) = 0;
};

/// This machine; `self_exe` is run as the probe and workload child.
/// `machine`: the run's (its loader reads this machine's ld.so cache once, for the doctor and whoever shares it);
/// null: the system reads the cache itself.
std::unique_ptr<DoctorSystem> make_real_system(std::string self_exe, std::string system_root = "/", std::shared_ptr<Machine> machine = {});

} // namespace cudnnctl
