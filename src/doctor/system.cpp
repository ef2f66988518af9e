#include "cudnnctl/doctor/system.hpp"

#include "cudnnctl/env/linux_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/bundle/python_sites.hpp"
#include "cudnnctl/install/install_fs.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/platform/python_registry.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

class RealSystem final : public DoctorSystem {
public:
  RealSystem(std::string self_exe, std::string system_root, std::shared_ptr<Machine> machine)
      : m_self(std::move(self_exe)), m_root(std::move(system_root)), m_machine(std::move(machine)) {}

  // the folder and link looks are the bundle module's real disk (one implementation for both)
  std::vector<std::string> list_dir(const std::string& dir) override { return m_disk->list_dir(dir); }
  bool exists(const std::string& path) override { return m_disk->exists(path); }
  bool is_dir(const std::string& path) override { return m_disk->is_dir(path); }
  std::string real_path(const std::string& path) override { return m_disk->real_path(path); }
  std::optional<std::string> read_text(const std::string& path, std::size_t max_bytes) override {
    return read_text_file(path_from_utf8(path), max_bytes);
  }
  Result<ElfDynamicInfo> read_elf(const std::string& path) override { return read_elf_file(path); }
  Result<PeImports> read_pe(const std::string& path) override { return read_pe_file(path); }
  Result<GpuCode> read_gpu_code(const std::string& path) override { return read_gpu_code_file(path); }
  const std::string& ld_cache_text() override {
    if (!m_ld_cache && m_machine && (m_root.empty() || m_root == "/")) {  // this machine's: read once per run, shared
      auto& loader = m_machine->loader();
      m_ld_cache = loader.places().ld_cache_text;
      m_ld_cache_problem = loader.ld_cache_problem();
    }
    if (!m_ld_cache) {
      auto text = read_ld_cache_text(m_root);
      if (!text) m_ld_cache_problem = text.error().message;
      m_ld_cache = text.value_or(std::string());
    }
    return *m_ld_cache;
  }
  std::string ld_cache_problem() override { return m_ld_cache_problem;
  }
  Result<ProbeResult> probe(const ProbeRequest& request, int timeout_ms) override { return run_probe(m_self, request, timeout_ms); }
  Result<WorkloadResult> workload(const WorkloadRequest& request, int timeout_ms) override {
    return run_workload(m_self, request, timeout_ms);
  }
  Result<std::vector<std::string>> python_sites(const std::string& exe) override { return python_site_dirs(exe); }
  std::vector<std::string> registered_python_prefixes() override { return platform::registered_python_prefixes(); }
  BundleScan scan_bundles(const std::vector<std::string>& sites, const std::string& state_root) override {
    auto fs = make_real_fs();
    return cudnnctl::scan_bundles(BundleContext{state_root, fs.get()}, sites);
  }

private:
  std::string m_self;
  std::string m_root;
  std::unique_ptr<PythonDisk> m_disk = make_real_python_disk();
  std::string m_ld_cache_problem;
  std::optional<std::string> m_ld_cache;
  std::shared_ptr<Machine> m_machine;
};

} // namespace

std::unique_ptr<DoctorSystem> make_real_system(std::string self_exe, std::string system_root, std::shared_ptr<Machine> machine) {
  return std::make_unique<RealSystem>(std::move(self_exe), std::move(system_root), std::move(machine));
}

} // namespace cudnnctl
