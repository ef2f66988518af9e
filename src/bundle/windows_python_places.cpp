// The site folders of the places Windows keeps Pythons (windows_python_places.hpp): names only, every look
// through the caller's PythonDisk.
#include "cudnnctl/bundle/windows_python_places.hpp"

#include <algorithm>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/env/path_list.hpp"

namespace cudnnctl {

namespace {

// A folder listing is read only this far: a user's folder of Pythons holds a handful.
constexpr std::size_t k_python_folders_max = 64;

std::string win_join(const std::string& dir, const std::string& name) {
  return !dir.empty() && (dir.back() == '\\' || dir.back() == '/') ? dir + name : dir + "\\" + name;
}

std::string env_folder(const platform::Environment& env, const char* name) {
  auto v = env.get(name).value_or(std::string());
  while (v.size() > 3 && (v.back() == '\\' || v.back() == '/')) v.pop_back();
  return v;
}

// `dir`'s entries whose names start with `prefix` (any case), at most k_python_folders_max.
std::vector<std::string> entries_starting(PythonDisk& disk, const std::string& dir, std::string_view prefix) {
  std::vector<std::string> out;
  auto names = disk.list_dir(dir);
  if (names.size() > k_python_folders_max) names.resize(k_python_folders_max);
  for (const auto& n : names)
    if (to_lower_ascii(n).starts_with(prefix)) out.push_back(win_join(dir, n));
  return out;
}

}  // namespace

std::vector<std::string> windows_python_sites(const platform::Environment& env, const std::vector<std::string>& registered, PythonDisk& disk) {
  std::vector<std::string> prefixes = registered;
  if (const auto local = env_folder(env, "LOCALAPPDATA"); !local.empty())
    for (auto& p : entries_starting(disk, win_join(local, "Programs\\Python"), "python3")) prefixes.push_back(std::move(p));
  if (const auto pf = env_folder(env, "ProgramFiles"); !pf.empty())
    for (auto& p : entries_starting(disk, pf, "python3")) prefixes.push_back(std::move(p));
  std::vector<std::string> conda;
  if (const auto home = env_folder(env, "USERPROFILE"); !home.empty())
    for (const char* base : {"miniconda3", "anaconda3", "miniforge3", "mambaforge"}) conda.push_back(win_join(home, base));
  if (const auto data = env_folder(env, "ProgramData"); !data.empty())
    for (const char* base : {"miniconda3", "anaconda3", "miniforge3"}) conda.push_back(win_join(data, base));
  for (const auto& base : conda) {
    prefixes.push_back(base);
    for (auto& e : entries_starting(disk, win_join(base, "envs"), "")) prefixes.push_back(std::move(e));
  }
  std::vector<std::string> sites;
  for (const auto& p : prefixes) sites.push_back(win_join(p, "Lib\\site-packages"));
  if (const auto roaming = env_folder(env, "APPDATA"); !roaming.empty())
    for (const auto& p : entries_starting(disk, win_join(roaming, "Python"), "python3")) sites.push_back(win_join(p, "site-packages"));
  std::vector<std::string> out, seen;
  for (auto& s : sites) {
    auto key = path_key(s, PathFlavor::windows);
    if (std::find(seen.begin(), seen.end(), key) != seen.end() || !disk.is_dir(s)) continue;
    seen.push_back(std::move(key));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cudnnctl
