// Framework bundles of cuDNN for the bundles.* checks, found the way `cudnnctl bundle list` finds them (the
// bundle module's scan), through the DoctorSystem seam.
#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/bundle/bundle_receipt.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/doctor/file_snapshot.hpp"
#include "cudnnctl/doctor/gather.hpp"

namespace cudnnctl {

namespace {

// The interpreter `name` the environment's PATH runs (python3, python; python.exe on Windows), as a path;
// empty when no PATH folder holds it. The environment given is searched, not this process's.
std::string on_path(const std::string& name, const platform::Environment& env, Os os, DoctorSystem& sys) {
  const auto path = env.get("PATH").value_or("");
  const auto file = os == Os::windows ? name + ".exe" : name;
  for (const auto entry : split(path, os == Os::windows ? ';' : ':')) {
    std::string dir(entry);
    if (dir.empty()) continue;  // the current folder is not searched for a program to run
    while (dir.size() > 1 && (dir.back() == '/' || dir.back() == '\\')) dir.pop_back();
    const auto candidate = dir + (os == Os::windows ? "\\" : "/") + file;
    if (sys.exists(candidate) && !sys.is_dir(candidate)) return candidate;
  }
  return {};
}

// The site folders of this machine's Python environments that neither the environment nor an interpreter
// on PATH names (an inactive conda env, ~/.local, the system's Python): the doctor looks wider than
// `bundle list`, so a framework copy of cuDNN anywhere here is a bundle it reports. Each existing one of
// <prefix>/lib*/python3*/{site,dist}-packages and <prefix>/Lib/site-packages.
std::vector<std::string> machine_python_sites(const platform::Environment& env, DoctorSystem& sys) {
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
    for (const char* py : {"python3", "python"}) {
      const auto exe = on_path(py, env, f.host_os, sys);
      if (exe.empty()) {
        b.not_asked.push_back(fmt::format("{} (not on PATH)", py));
        continue;
      }
      auto found = sys.python_sites(exe);
      if (!found) {
        b.not_asked.push_back(fmt::format("{} ({})", exe, found.error().message));
        continue;
      }
      for (auto& s : *found) sites.push_back(std::move(s));
    }
    for (auto& s : machine_python_sites(env, sys)) sites.push_back(std::move(s));
  }
  for (auto& s : sites)
    if (std::find(b.looked_in.begin(), b.looked_in.end(), s) == b.looked_in.end()) b.looked_in.push_back(std::move(s));
  b.gathered = true;
  auto scan = sys.scan_bundles(b.looked_in, bundle_state_root(env));
  for (auto& v : scan.views) b.bundles.push_back(std::move(v.bundle));
  b.problems = std::move(scan.problems);
}

} // namespace cudnnctl
