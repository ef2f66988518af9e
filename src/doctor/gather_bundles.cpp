// Framework bundles of cuDNN for the bundles.* checks, found the way `cudnnctl bundle list` finds them (the
// bundle module's scan), through the DoctorSystem seam, and handed to the run's machine (machine/machine_bundles.hpp),
// which the doctor's facts read them from.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_receipt.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/bundle/python_sites.hpp"
#include "cudnnctl/bundle/windows_python_places.hpp"
#include "cudnnctl/doctor/file_snapshot.hpp"
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

// The site folders of this machine's Python environments that neither the environment nor an interpreter
// on PATH names (an inactive conda env, ~/.local, the system's Python): the doctor looks wider than
// `bundle list`, so a framework copy of cuDNN anywhere here is a bundle it reports. Each existing one of
// <prefix>/lib*/python3*/{site,dist}-packages and <prefix>/Lib/site-packages.
// On Windows, the places Windows keeps Pythons instead (bundle/windows_python_places.hpp): a Linux prefix named
// there is a folder of the current drive, under wine the Linux machine's own.
std::vector<std::string> machine_python_sites(const platform::Environment& env, DoctorSystem& sys, Os host) {
  if (host == Os::windows) {
    SystemPythonDisk disk(sys);
    return windows_python_sites(env, sys.registered_python_prefixes(), disk);
  }
  std::vector<std::string> prefixes;
  if (const auto home = env.get("HOME"); home && !home->empty()) {
    prefixes.push_back(join_path(*home, ".local"));
    for (const char* base : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda"}) {
      const auto conda = join_path(*home, base);
      for (const auto& e : sys.list_dir(join_path(conda, "envs"))) prefixes.push_back(join_path(join_path(conda, "envs"), e));
      prefixes.push_back(conda);
    }
  }
  prefixes.push_back("/usr/local");
  prefixes.push_back("/usr");
  std::vector<std::string> sites;
  for (const auto& prefix : prefixes) {
    for (const char* lib : {"lib", "lib64"})
      for (const auto& py : sys.list_dir(join_path(prefix, lib)))
        if (py.starts_with("python3"))
          for (const char* site : {"site-packages", "dist-packages"}) sites.push_back(join_path(join_path(join_path(prefix, lib), py), site));
    sites.push_back(join_path(prefix, "Lib/site-packages"));
  }
  std::erase_if(sites, [&](const std::string& s) { return !sys.is_dir(s); });
  return sites;
}

} // namespace

const BundleFacts& DoctorFacts::bundles() const {
  static const BundleFacts none;
  return machine ? machine->bundles() : none;
}

BundleFacts& DoctorFacts::bundles() { return own_machine().bundles(); }

void gather_bundles(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t) return;
  auto& b = f.bundles();
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
    for (auto& s : machine_python_sites(env, sys, f.host_os)) sites.push_back(std::move(s));
  }
  for (auto& s : sites)
    if (std::find(b.looked_in.begin(), b.looked_in.end(), s) == b.looked_in.end()) b.looked_in.push_back(std::move(s));
  b.gathered = true;
  auto scan = sys.scan_bundles(b.looked_in, bundle_state_root(env));
  for (auto& v : scan.views) b.bundles.push_back(std::move(v.bundle));
  b.problems = std::move(scan.problems);
}

} // namespace cudnnctl
