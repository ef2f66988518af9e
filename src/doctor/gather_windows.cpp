// The Windows loader model's facts: which folders Windows searches, as folders here, listed and read.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/contract/windows_installer.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/env/installer_copies.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/env/windows_mount.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

// A Windows toolkit read from files: which local folder each drive is, that machine's System32 and PATH.
void prepare_offline(DoctorFacts& f, const DoctorOptions& o, DoctorSystem& sys) {
  const auto& t = *f.tk();
  auto& win = f.win;
  WindowsMount mount;
  for (const auto& d : o.drives)
    if (auto p = WindowsMount::parse_drive_option(d)) mount.map_drive(p->first, p->second);
  std::error_code ec;
  std::string root = utf8_of(fs::absolute(path_from_utf8(t.root), ec).lexically_normal());
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (auto w = WindowsMount::infer_from_wsl_path(root); w && !mount.drives().count(w->first)) mount.map_drive(w->first, w->second);
  const auto lookup = [&o](const std::string& n) -> std::optional<std::string> {
    std::string upper = n;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (const auto it = o.windows_vars.find(upper); it != o.windows_vars.end()) return it->second;
    if (upper == "SYSTEMROOT" || upper == "WINDIR") return std::string("C:\\Windows");
    if (upper == "PROGRAMFILES" || upper == "PROGRAMW6432") return std::string("C:\\Program Files");
    return std::nullopt;
  };
  std::vector<std::string> entries;
  if (o.windows_path) entries = split_path_list(*o.windows_path, PathFlavor::windows);
  // the toolkit named both ways (CUDA_PATH or a PATH entry, and the folder here) tells where its drive is
  std::vector<std::string> named;
  if (const auto cp = lookup("CUDA_PATH")) named.push_back(*cp);
  for (const auto& e : entries) named.push_back(expand_windows_vars(e, lookup));
  const auto dll_local = utf8_of((path_from_utf8(root) / path_from_utf8(t.runtime_dir())).lexically_normal());
  for (const auto& n : named) {
    std::string w = n;
    w.erase(std::remove(w.begin(), w.end(), '"'), w.end());
    while (w.size() > 3 && (w.back() == '\\' || w.back() == '/')) w.pop_back();
    for (const auto& local : {root, dll_local, utf8_of(path_from_utf8(root) / "bin")}) {
      auto m = WindowsMount::infer_from_match(w, local);
      if (m && !mount.drives().count(m->first)) {
        mount.map_drive(m->first, m->second);
        f.notes.push_back(fmt::format("drive {}: is {} here (from {} = {})", m->first, m->second, w, local));
      }
    }
  }
  if (!mount.empty()) f.notes.push_back("Windows drives mapped: " + mount.describe());
  win.dll_dir = dll_local;
  for (const auto& d : windows_dll_dirs())
    if (const auto b = path_from_utf8(root) / path_from_utf8(d); sys.is_dir(utf8_of(b))) win.toolkit_bins.push_back(utf8_of(b));
  const auto sysroot = lookup("SystemRoot").value_or("C:\\Windows");
  if (!o.system32.empty()) win.system32 = o.system32;
  else if (auto l = mount.to_local(sysroot + "\\System32"); l && sys.is_dir(*l)) win.system32 = *l;
  f.installer.root = installer_root(lookup("ProgramFiles"));
  f.installer.root_local = mount.to_local(f.installer.root).value_or(std::string());
  if (!o.windows_path) return;
  platform::MapEnvironment wenv(std::map<std::string, std::string>{{"PATH", *o.windows_path}, {"SystemRoot", sysroot}});
  auto order = windows_search_order(wenv, "");
  for (auto& sd : order) {
    sd.dir = expand_windows_vars(sd.dir, lookup);
    if (sd.via == "System32" && win.system32) sd.local = *win.system32;
    else if (auto l = mount.to_local(sd.dir)) sd.local = *l;
    else sd.local = "?";  // not reachable from here
    if (sd.via == "PATH") win.path.push_back(sd);
  }
  win.order = order;
}

// This Windows machine: its own System32 and PATH, as the loader of a program started here sees them.
void prepare_native(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys) {
  const auto& t = *f.tk();
  auto& win = f.win;
  win.dll_dir = utf8_of(path_from_utf8(t.runtime_library_dir()).lexically_normal());
  for (const auto& d : windows_dll_dirs())
    if (const auto b = path_from_utf8(t.root) / path_from_utf8(d); sys.is_dir(utf8_of(b))) win.toolkit_bins.push_back(utf8_of(b.lexically_normal()));
  f.installer.root = installer_root(env.get("ProgramFiles"));
  f.installer.root_local = f.installer.root;
  for (auto sd : windows_search_order(env, "")) {
    sd.local = sd.dir;
    if (sd.via == "System32" && sys.is_dir(sd.dir)) win.system32 = sd.dir;
    if (sd.via == "PATH") win.path.push_back(sd);
  }
}

} // namespace

void snapshot_windows_folders(OfflineWindows& in, DoctorSystem& sys) {
  auto list = [&](const std::string& dir) {
    if (!dir.empty() && dir != "?" && !in.files.dirs.count(dir)) in.files.dirs[dir] = sys.list_dir(dir);
  };
  list(in.dll_dir);
  for (const auto& b : in.toolkit_bins) list(b);
  if (in.system32) list(*in.system32);
  for (const auto& p : in.path) list(p.local);
  for (const auto& d : cudnn_dll_names(in.files.list(in.dll_dir))) {
    const auto path = join_path(in.dll_dir, d);
    in.files.pe.emplace(path, sys.read_pe(path));
  }
  if (in.system32)
    for (const auto& n : in.files.list(*in.system32))
      if (iequals_ascii(n, "nvcuda.dll")) {
        const auto path = join_path(*in.system32, n);
        in.files.pe.emplace(path, sys.read_pe(path));
      }
}

void gather_windows(DoctorFacts& f, const DoctorOptions& o, const platform::Environment& env, DoctorSystem& sys) {
  const auto& t = *f.tk();
  if (f.offline) prepare_offline(f, o, sys);
  else prepare_native(f, env, sys);
  f.win.cuda_major = t.major();
  f.win.cudnn_major = f.major.value_or(9);
  f.win.header_version = f.header ? f.header->text() : std::string();
  snapshot_windows_folders(f.win, sys);
  gather_windows_installer(f, sys);
}

} // namespace cudnnctl
