// Framework bundles of cuDNN for the bundles.* checks, found the way `cudnnctl bundle list` finds them (the
// bundle module's scan), through the DoctorSystem seam.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/bundle/bundle_receipt.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/bundle/python_sites.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/doctor/gather.hpp"

namespace cudnnctl {

namespace {

// The doctor's seam as the disk python_sites reads: every look goes through `sys`.
class SystemPythonDisk final : public PythonDisk {
public:
  explicit SystemPythonDisk(DoctorSystem& sys) : m_sys(sys) {}
  bool exists(const std::string& path) override { return m_sys.exists(path); }
  bool is_dir(const std::string& path) override { return m_sys.is_dir(path); }
  std::optional<std::string> read_text(const std::string& path) override { return m_sys.read_text(path, 1 << 16); }
  std::vector<std::string> list_dir(const std::string& dir) override { return m_sys.list_dir(dir); }
  std::string real_path(const std::string& path) override { return m_sys.real_path(path); }

private:
  DoctorSystem& m_sys;
};

} // namespace

void gather_bundles(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t) return;
  auto& b = f.bundles;
  b.sites_given = !o.bundle_sites.empty();
  std::vector<std::string> sites;
  if (b.sites_given) {
    sites = o.bundle_sites;
  } else {
    // this machine's Python environments serve only a toolkit of this machine
    if (f.offline || t->os != f.host_os) return;
    sites = env_bundle_sites(env);
    // python3 and python on the environment's PATH, each distinct interpreter asked once, and none whose
    // folders its layout names (python_sites.hpp)
    SystemPythonDisk disk(sys);
    std::vector<std::string> exes;
    for (const char* py : {"python3", "python"}) {
      if (auto exe = find_on_path(py, env, f.host_os == Os::windows, disk); !exe.empty()) exes.push_back(std::move(exe));
      else b.not_asked.push_back(fmt::format("{} (not on PATH)", py));
    }
    std::error_code ec;
    const auto cwd = utf8_of(std::filesystem::current_path(ec));
    auto found = collect_python_sites(plan_python_sites(exes, env, cwd, disk), [&sys](const std::string& exe) { return sys.python_sites(exe); });
    for (auto& s : found.sites) sites.push_back(std::move(s));
    for (const auto& [exe, why] : found.not_asked) b.not_asked.push_back(fmt::format("{} ({})", exe, why));
  }
  for (auto& s : sites)
    if (std::find(b.looked_in.begin(), b.looked_in.end(), s) == b.looked_in.end()) b.looked_in.push_back(std::move(s));
  b.gathered = true;
  auto scan = sys.scan_bundles(b.looked_in, bundle_state_root(env));
  for (auto& v : scan.views) b.bundles.push_back(std::move(v.bundle));
  b.problems = std::move(scan.problems);
}

} // namespace cudnnctl
