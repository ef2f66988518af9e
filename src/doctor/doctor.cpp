#include "cudnnctl/doctor/doctor.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/doctor/probe.hpp"
#include "cudnnctl/doctor/signatures.hpp"
#include "cudnnctl/doctor/status_names.hpp"
#include "cudnnctl/doctor/windows_offline.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/env/path_report.hpp"
#include "cudnnctl/env/windows_mount.hpp"
#include "cudnnctl/install/receipt.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/workload/conv_workload.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

std::string_view to_string(CheckStatus s) {
  switch (s) {
  case CheckStatus::pass: return "pass";
  case CheckStatus::warn: return "warn";
  case CheckStatus::fail: return "fail";
  case CheckStatus::skip: return "skip";
  }
  return "?";
}

std::string parse_driver_version(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"(Kernel Module\s+(?:for\s+\S+\s+)?(\d+\.\d+(?:\.\d+)?))"))) return m[1];
  return {};
}

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct HeaderVersion {
  unsigned major = 0, minor = 0, patch = 0;
  std::string text() const { return fmt::format("{}.{}.{}", major, minor, patch); }
};

std::optional<HeaderVersion> header_version(const fs::path& include_dir) {
  for (const char* h : {"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h"}) {
    const auto text = read_text(include_dir / h);
    if (text.empty()) continue;
    auto get = [&](const char* macro) -> std::optional<unsigned> {
      std::smatch m;
      if (std::regex_search(text, m, std::regex(std::string(R"(#define\s+)") + macro + R"(\s+(\d+))"))) return static_cast<unsigned>(std::stoul(m[1]));
      return std::nullopt;
    };
    const auto a = get("CUDNN_MAJOR"), b = get("CUDNN_MINOR"), c = get("CUDNN_PATCHLEVEL");
    if (a && b && c) return HeaderVersion{*a, *b, *c};
  }
  return std::nullopt;
}

// The ld.so cache as name -> path (first entry wins, as the loader's lookup does).
std::map<std::string, std::string> ld_cache_map() {
  std::map<std::string, std::string> out;
  auto text = platform::run_capture({"ldconfig", "-p"});
  if (!text) return out;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    const auto arrow = line.find("=> ");
    if (arrow == std::string::npos) continue;
    auto name = line.substr(0, line.find(" ("));
    name.erase(0, name.find_first_not_of(" \t"));
    out.emplace(name, line.substr(arrow + 3));
  }
  return out;
}

struct Resolver {
  std::vector<std::string> ld_library_path;
  std::map<std::string, std::string> cache;
  std::vector<std::string> defaults{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib", "/lib64", "/usr/lib64"};

  // Where the loader finds `name` for a library with this RUNPATH, and through what; nullopt: nowhere.
  std::optional<std::pair<std::string, std::string>> find(const std::string& name, const std::vector<std::string>& runpath) const {
    std::error_code ec;
    for (const auto& d : ld_library_path)
      if (fs::exists(fs::path(d) / name, ec)) return std::pair{(fs::path(d) / name).string(), std::string("LD_LIBRARY_PATH")};
    for (const auto& d : runpath)
      if (fs::exists(fs::path(d) / name, ec)) return std::pair{(fs::path(d) / name).string(), std::string("RUNPATH")};
    if (const auto it = cache.find(name); it != cache.end()) return std::pair{it->second, std::string("ld.so cache")};
    for (const auto& d : defaults)
      if (fs::exists(fs::path(d) / name, ec)) return std::pair{(fs::path(d) / name).string(), std::string("default folder")};
    return std::nullopt;
  }
};

std::vector<std::string> runpath_of(const ElfDynamicInfo& info, const std::string& origin) {
  std::vector<std::string> out;
  for (auto d : split(info.runpath.empty() ? info.rpath : info.runpath, ':')) {
    std::string dir(d);
    for (const std::string tag : {"$ORIGIN", "${ORIGIN}"})
      for (auto pos = dir.find(tag); pos != std::string::npos; pos = dir.find(tag)) dir.replace(pos, tag.size(), origin);
    if (!dir.empty()) out.push_back(dir);
  }
  return out;
}

class Doctor {
public:
  Doctor(const DoctorOptions& o, const platform::Environment& env) : m_opt(o), m_env(env), m_host(platform::detect_host()) {}

  DoctorReport run() {
    {
      log::Phase phase("doctor layer 1 (toolkit)");
      layer_toolkit();
    }
    if (m_report.toolkit && !target_fits()) m_report.toolkit.reset(), m_target_failed = true;
    if (m_report.toolkit) {
      m_offline = m_opt.offline || m_report.toolkit->os != m_host.os;
      m_report.offline = m_offline;
      log::info("doctor: toolkit {} ({}), {}", m_report.toolkit->root, to_string(m_report.toolkit->os),
                m_offline ? "offline (files only: no probe, no GPU)" : "on this machine (probe and GPU layers run)");
      if (m_report.toolkit->os == Os::windows && m_offline) prepare_windows_offline();
      {
        log::Phase phase("doctor layer 2 (files)");
        layer_files();
      }
      log::Phase phase("doctor layer 3 (loader)");
      layer_loader();
    } else {
      skip_layers_from(2, m_target_failed ? "the toolkit is not for the --target platform (layer 1)" : "no CUDA toolkit was found (layer 1)");
    }
    if (m_report.toolkit) {
      log::Phase phase("doctor layers 4-5 (driver, device, workload)");
      layer_gpu();
    }
    if (m_opt.only_layer) {
      std::vector<Check> only;
      for (auto& c : m_report.checks)
        if (c.layer == m_opt.only_layer) only.push_back(c);
      m_report.checks = std::move(only);
    }
    return std::move(m_report);
  }

private:
  void add(std::string id, int layer, CheckStatus s, std::string finding, std::string cause = {}, std::string fix = {}) {
    log::debug("doctor check {} (layer {}): {}: {}", id, layer, to_string(s), finding);
    m_report.checks.push_back({std::move(id), layer, s, std::move(finding), std::move(cause), std::move(fix)});
  }
  void add_sig(std::string id, int layer, CheckStatus s, std::string finding, std::string_view signature_id) {
    const auto& sig = signature(signature_id);
    add(std::move(id), layer, s, std::move(finding), std::string(sig.cause), std::string(sig.fix));
  }
  void skip_layers_from(int layer, const std::string& why) {
    const char* ids[] = {"", "toolkit", "files", "loader", "driver", "workload"};
    for (int l = layer; l <= 5; ++l) add(fmt::format("{}.skipped", ids[l]), l, CheckStatus::skip, "skipped: " + why);
  }
  std::string lib_dir() const {
    const auto& t = *m_report.toolkit;
    return (fs::path(t.root) / (t.os == Os::windows ? t.dll_dir : t.lib_dir)).string();
  }

  bool target_fits() {
    if (m_opt.target.empty()) return true;
    const auto& t = *m_report.toolkit;
    if (to_lower_ascii(m_opt.target) == to_string(t.os)) return true;
    add_sig("toolkit.target", 1, CheckStatus::fail,
            fmt::format("--target {} but {} is laid out as a {} toolkit ({})", m_opt.target, t.root, to_string(t.os),
                        t.os == Os::windows ? "DLLs in bin, no lib64" : "lib64, no DLLs in bin"),
            "toolkit.target");
    return false;
  }

  // A Windows toolkit read from files: which local folder each drive is, that machine's System32 and PATH.
  void prepare_windows_offline() {
    const auto& t = *m_report.toolkit;
    WindowsMount mount;
    for (const auto& d : m_opt.drives)
      if (auto p = WindowsMount::parse_drive_option(d)) mount.map_drive(p->first, p->second);
    std::error_code ec;
    const auto root_abs = fs::absolute(t.root, ec).lexically_normal().string();
    std::string root_clean = root_abs;
    while (root_clean.size() > 1 && root_clean.back() == '/') root_clean.pop_back();
    if (auto w = WindowsMount::infer_from_wsl_path(root_clean); w && !mount.drives().count(w->first)) mount.map_drive(w->first, w->second);
    const auto lookup = [this](const std::string& n) -> std::optional<std::string> {
      std::string upper = n;
      for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (const auto it = m_opt.windows_vars.find(upper); it != m_opt.windows_vars.end()) return it->second;
      if (upper == "SYSTEMROOT" || upper == "WINDIR") return std::string("C:\\Windows");
      return std::nullopt;
    };
    std::vector<std::string> entries;
    if (m_opt.windows_path) entries = split_path_list(*m_opt.windows_path, PathFlavor::windows);
    // the toolkit named both ways (CUDA_PATH or a PATH entry, and the folder here) tells where its drive is
    std::vector<std::string> named;
    if (const auto cp = lookup("CUDA_PATH")) named.push_back(*cp);
    for (const auto& e : entries) named.push_back(expand_windows_vars(e, lookup));
    const auto dll_local = (fs::path(root_clean) / t.dll_dir).lexically_normal().string();
    for (const auto& n : named) {
      std::string w = n;
      w.erase(std::remove(w.begin(), w.end(), '"'), w.end());
      while (w.size() > 3 && (w.back() == '\\' || w.back() == '/')) w.pop_back();
      for (const auto& local : {root_clean, dll_local, (fs::path(root_clean) / "bin").string()}) {
        auto m = WindowsMount::infer_from_match(w, local);
        if (m && !mount.drives().count(m->first)) {
          mount.map_drive(m->first, m->second);
          m_report.notes.push_back(fmt::format("drive {}: is {} here (from {} = {})", m->first, m->second, w, local));
        }
      }
    }
    if (!mount.empty()) m_report.notes.push_back("Windows drives mapped: " + mount.describe());
    m_win.dll_dir = dll_local;
    for (const auto& b : {fs::path(root_clean) / "bin", fs::path(root_clean) / "bin" / "x64"})
      if (fs::is_directory(b, ec)) m_win.toolkit_bins.push_back(b.string());
    const auto sysroot = lookup("SystemRoot").value_or("C:\\Windows");
    if (!m_opt.system32.empty()) m_win.system32 = m_opt.system32;
    else if (auto l = mount.to_local(sysroot + "\\System32"); l && fs::is_directory(*l, ec)) m_win.system32 = *l;
    m_win.cuda_major = t.major();
    if (m_opt.windows_path) {
      platform::MapEnvironment wenv(std::map<std::string, std::string>{{"PATH", *m_opt.windows_path}, {"SystemRoot", sysroot}});
      auto order = windows_search_order(wenv, "");
      for (auto& sd : order) {
        sd.dir = expand_windows_vars(sd.dir, lookup);
        if (sd.via == "System32" && m_win.system32) sd.local = *m_win.system32;
        else if (auto l = mount.to_local(sd.dir)) sd.local = *l;
        else sd.local = "?";  // not reachable from here
        if (sd.via == "PATH") m_win.path.push_back(sd);
      }
      m_win_order = order;
    }
  }

  // ---- layer 1
  void layer_toolkit() {
    std::vector<std::string> notes;
    const auto found = find_toolkits(m_env, m_opt.cuda_path.empty() ? std::nullopt : std::optional(m_opt.cuda_path), &notes);
    const auto choice = choose_toolkit(found, std::nullopt);
    if (!choice.toolkit) {
      std::string detail;
      for (const auto& n : notes) detail += "; " + n;
      add_sig("toolkit.found", 1, CheckStatus::fail, "no CUDA toolkit found" + detail, "toolkit.found");
      return;
    }
    m_report.toolkit = choice.toolkit;
    std::string others;
    for (std::size_t i = 1; i < found.size(); ++i) others += fmt::format("{}{} (CUDA {})", i > 1 ? ", " : "; also found ", found[i].root, found[i].version);
    add("toolkit.found", 1, CheckStatus::pass, fmt::format("CUDA {} at {}, selected because {} names it first{}", choice.toolkit->version,
                                                          choice.toolkit->root, choice.toolkit->found_by, others));
    for (const auto& n : notes) add_sig("toolkit.env", 1, CheckStatus::warn, n, "toolkit.env.not-a-toolkit");
    std::error_code ec;
    const auto chosen = fs::weakly_canonical(choice.toolkit->root, ec);
    for (const char* var : {"CUDA_PATH", "CUDA_HOME"}) {
      const auto v = m_env.get(var);
      if (!v || v->empty()) continue;
      const auto other = fs::weakly_canonical(*v, ec);
      if (other != chosen)
        add_sig("toolkit.env", 1, CheckStatus::warn, fmt::format("{}={} is not the selected toolkit {}", var, *v, choice.toolkit->root), "toolkit.env.differs");
    }
  }

  // ---- layer 2
  void layer_files() {
    const auto& t = *m_report.toolkit;
    const auto dir = lib_dir();
    std::error_code ec;
    std::set<unsigned> majors;
    static const std::regex so_re(R"(^libcudnn\.so\.(\d+)$)");
    static const std::regex dll_re(R"(^cudnn64_(\d+)\.dll$)", std::regex::icase);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
    for (const auto& n : names) {
      std::smatch m;
      if (std::regex_match(n, m, t.os == Os::windows ? dll_re : so_re)) majors.insert(static_cast<unsigned>(std::stoul(m[1])));
    }
    m_header = header_version(fs::path(t.root) / t.include_dir);
    if (majors.empty()) {
      add_sig("files.cudnn", 2, CheckStatus::fail, fmt::format("no cuDNN library in {}", dir), "files.cudnn");
      return;
    }
    const unsigned major = m_header && majors.count(m_header->major) ? m_header->major : *majors.rbegin();
    m_major = major;
    add("files.cudnn", 2, CheckStatus::pass,
        fmt::format("cuDNN {} in {}{}", m_header ? m_header->text() : fmt::format("{}.x", major), dir,
                    majors.size() > 1 ? fmt::format(" (and libraries of {} other major versions)", majors.size() - 1) : ""));
    // sub-libraries of another major left behind (cudnn_ops_infer64_8.dll beside cuDNN 9)
    static const std::regex sub_so(R"(^libcudnn_[a-z_]+\.so\.(\d+)$)");
    static const std::regex sub_dll(R"(^cudnn_[a-z_]+64_(\d+)\.dll$)", std::regex::icase);
    std::vector<std::string> stale;
    for (const auto& n : names) {
      std::smatch m;
      if (std::regex_match(n, m, t.os == Os::windows ? dll_re : so_re) && std::stoul(m[1]) != major) stale.push_back(n);
      else if (std::regex_match(n, m, t.os == Os::windows ? sub_dll : sub_so) && std::stoul(m[1]) != major) stale.push_back(n);
    }
    std::sort(stale.begin(), stale.end());
    if (!stale.empty())
      add_sig("files.stale", 2, CheckStatus::warn,
              fmt::format("{} holds cuDNN {} and {} files of other majors: {}", dir, major, stale.size(), fmt::format("{}", fmt::join(stale, ", "))),
              "files.stale");

    // completeness: the sub-libraries this major has, found by pattern; the core set must be there
    const auto subs = discover_sub_libraries(dir, major, t.os);
    std::vector<std::string> missing;
    for (const auto& s : sub_library_names(major)) {
      if (s == "cudnn") continue;
      const auto f = library_file_name(t.os, s, major);
      if (std::find(subs.begin(), subs.end(), f) == subs.end()) missing.push_back(f);
    }
    if (!missing.empty())
      add_sig("files.complete", 2, CheckStatus::fail, fmt::format("missing sub-libraries: {}", fmt::format("{}", fmt::join(missing, ", "))), "files.complete");
    else
      add("files.complete", 2, CheckStatus::pass, fmt::format("{} sub-libraries: {}", subs.size(), fmt::format("{}", fmt::join(subs, ", "))));
    if (t.os == Os::windows) windows_dlls(dir, major);
    if (!m_header)
      add_sig("files.headers", 2, CheckStatus::warn, fmt::format("no cudnn_version.h in {}/{}", t.root, t.include_dir), "files.headers");

    if (t.os == Os::windows) {
      m_report.checks.push_back(windows_dll_versions(dir, major, m_header ? m_header->text() : std::string()));
      receipt_check();
      search_path_check();
      frameworks();
      return;
    }
    // versions: file names (Linux real files carry major.minor.patch) against the header
    std::set<std::string> versions;
    static const std::regex full(R"(^libcudnn[a-z_]*\.so\.(\d+\.\d+\.\d+)$)");
    for (const auto& n : names) {
      std::smatch m;
      if (std::regex_match(n, m, full) && std::stoul(m[1].str()) == major) versions.insert(m[1]);
    }
    if (versions.size() > 1)
      add_sig("files.versions", 2, CheckStatus::fail, fmt::format("mixed cuDNN versions in {}: {}", dir, fmt::format("{}", fmt::join(versions, ", "))), "files.versions.mixed");
    else if (versions.size() == 1 && m_header && *versions.begin() != m_header->text())
      add_sig("files.versions", 2, CheckStatus::fail, fmt::format("the libraries are {} but cudnn_version.h says {}", *versions.begin(), m_header->text()), "files.versions.header");
    else
      add("files.versions", 2, CheckStatus::pass,
          versions.empty() ? "file names carry only the major; the header gives the version"
                           : fmt::format("libraries and header agree on {}", *versions.begin()));

    receipt_check();
    search_path_check();
    frameworks();
  }

  // the receipt, when cudnnctl installed it
  void receipt_check() {
    const auto& t = *m_report.toolkit;
    const auto state = state_dir_of(t);
    auto fs_ = make_real_fs();
    if (fs_->entry(receipt_path(state)) == FsEntry::missing) {
      add("files.receipt", 2, CheckStatus::skip, "not installed by cudnnctl (no receipt): file hashes cannot be checked");
    } else if (auto text = fs_->read_text(receipt_path(state)); text) {
      if (auto r = receipt_from_json(*text, receipt_path(state)); r) {
        const auto problems = check_receipt(*r, t.root, *fs_);
        if (problems.empty())
          add("files.receipt", 2, CheckStatus::pass, fmt::format("all {} files match the receipt of {}", r->files.size(), r->canonical_name));
        else
          add_sig("files.receipt", 2, CheckStatus::fail, fmt::format("{} files differ from the receipt: {}", problems.size(), problems.front()), "files.receipt");
      }
    }

  }

  // the search path: which copy programs load
  void search_path_check() {
    const auto& t = *m_report.toolkit;
    const auto dir = lib_dir();
    std::optional<ShadowReport> shadows;
    if (t.os == Os::windows && m_offline) {
      if (!m_win_order) {
        add("files.search_path", 2, CheckStatus::skip,
            "that machine's PATH was not given (--path-value \"...\" or --path-file machine.reg): the copies on it were not checked");
        return;
      }
      shadows = scan_cudnn_copies(*m_win_order, LoaderFlavor::windows, m_major.value_or(9), m_win.dll_dir);
      m_report.search_origin = m_opt.windows_path_origin.empty() ? "the given PATH" : m_opt.windows_path_origin;
      std::size_t unreachable = 0;
      for (const auto& sd : *m_win_order) unreachable += sd.local == "?";
      if (unreachable)
        m_report.notes.push_back(fmt::format("{} of the {} folders on that PATH are not reachable from here (no drive mapped; --drive X:=DIR)",
                                             unreachable, m_win_order->size()));
    } else {
      shadows = make_path_report(t, m_env, "/", "").shadows;
      m_report.search_origin = "this process's environment";
    }
    if (shadows) {
      m_report.search = shadows;
      const auto& sh = *shadows;
      const auto winner = std::find_if(sh.copies.begin(), sh.copies.end(), [](const CudnnCopy& c) { return c.wins; });
      if (!sh.explanations.empty())
        add_sig("files.search_path", 2, winner != sh.copies.end() && !winner->installed ? CheckStatus::fail : CheckStatus::warn, sh.explanations.front(), "files.search_path");
      else
        add("files.search_path", 2, CheckStatus::pass, fmt::format("programs load cuDNN {} from {}", winner != sh.copies.end() ? winner->version : "?",
                                                                   winner != sh.copies.end() ? winner->dir : dir));
      // copies of older majors on the path: programs built for those load them
      std::vector<std::string> others;
      for (const auto& c : sh.copies)
        if (c.major != m_major.value_or(0) && c.major < m_major.value_or(0)) others.push_back(fmt::format("cuDNN {} in {} (via {})", c.version, c.dir, c.via));
      if (!others.empty())
        add_sig("files.stale", 2, CheckStatus::warn, fmt::format("older cuDNN copies on the search path: {}", fmt::format("{}", fmt::join(others, "; "))),
                "files.stale");
    }
  }

  // Windows DLLs, read from any machine: damaged or 32-bit files, imports of cuDNN DLLs that are not
  // there, and zlibwapi.dll for cuDNN 8.
  void windows_dlls(const std::string& dir, unsigned major) {
    std::error_code ec;
    std::vector<std::string> dlls;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const auto n = e.path().filename().string();
      const auto lower = to_lower_ascii(n);
      if (lower.ends_with(".dll") && (lower.starts_with("cudnn") || lower == "zlibwapi.dll")) dlls.push_back(n);
    }
    std::sort(dlls.begin(), dlls.end());
    auto present = [&](const std::string& name) {
      return std::any_of(dlls.begin(), dlls.end(), [&](const std::string& d) { return iequals_ascii(d, name); }) ||
             fs::exists(fs::path(dir) / name, ec);
    };
    std::vector<std::string> problems;
    for (const auto& d : dlls) {
      auto pe = read_pe_file((fs::path(dir) / d).string());
      if (!pe) {
        problems.push_back(fmt::format("{} is not a readable DLL (emptied or damaged?)", d));
        continue;
      }
      if (pe->machine != 0x8664 && pe->machine != 0xAA64)
        problems.push_back(fmt::format("{} is a {} DLL: a 64-bit program cannot load it (Windows error 193)", d, pe_machine_name(pe->machine)));
      for (const auto& imp : pe->imports) {
        const auto li = to_lower_ascii(imp);
        if ((li.starts_with("cudnn") || li == "zlibwapi.dll") && !present(imp)) problems.push_back(fmt::format("{} imports {}, which is missing", d, imp));
      }
    }
    if (major == 8 && !present("zlibwapi.dll"))
      problems.push_back("zlibwapi.dll is missing: cuDNN 8 on Windows needs it (\"Could not locate zlibwapi.dll\")");
    if (!problems.empty())
      add_sig("files.dlls", 2, CheckStatus::fail, fmt::format("{}", fmt::join(problems, "; ")), "files.dlls");
    else
      add("files.dlls", 2, CheckStatus::pass, fmt::format("{} DLLs are x64 and their cuDNN imports are present", dlls.size()));
  }

  // PyTorch and pip wheels carry their own cuDNN, which their programs load first.
  void frameworks() {
    std::vector<fs::path> roots;
    for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
      if (auto v = m_env.get(var); v && !v->empty()) roots.push_back(*v);
    if (auto home = m_env.get("HOME")) {
      roots.push_back(fs::path(*home) / ".local");
      // conda environments in the usual places
      for (const char* base : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda"}) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(fs::path(*home) / base / "envs", ec)) roots.push_back(e.path());
        roots.push_back(fs::path(*home) / base);
      }
    }
    roots.push_back("/usr/local");
    roots.push_back("/usr");
    if (auto path = m_env.get("PATH"))
      for (auto d : split(*path, ':')) {
        std::error_code ec;
        const fs::path dir{std::string(d)};
        if (fs::exists(dir / "python3", ec)) roots.push_back(fs::weakly_canonical(dir / "python3", ec).parent_path().parent_path());
      }
    std::set<std::string> seen;
    std::vector<std::string> found;
    for (const auto& root : roots) {
      std::error_code ec;
      // Linux: <prefix>/lib/python3.X/site-packages; Windows: <prefix>\Lib\site-packages
      std::vector<fs::path> sites;
      for (const auto& lib : {root / "lib", root / "lib64"})
        for (const auto& py : fs::directory_iterator(lib, ec))
          if (py.path().filename().string().starts_with("python3"))
            for (const char* site : {"site-packages", "dist-packages"}) sites.push_back(py.path() / site);
      sites.push_back(root / "Lib" / "site-packages");
      for (const auto& sp : sites) {
        if (!fs::is_directory(sp, ec) || !seen.insert(fs::weakly_canonical(sp, ec).string()).second) continue;
        for (const auto& e : fs::directory_iterator(sp, ec)) {
          const auto n = e.path().filename().string();
          static const std::regex wheel(R"(^nvidia_cudnn_cu(\d+)-([\d.]+)\.dist-info$)");
          std::smatch m;
          if (std::regex_match(n, m, wheel)) found.push_back(fmt::format("pip nvidia-cudnn-cu{} {} in {}", m[1].str(), m[2].str(), sp.string()));
          if (n == "torch" && fs::exists(e.path() / "lib", ec)) {
            for (const auto& f : fs::directory_iterator(e.path() / "lib", ec))
              if (f.path().filename().string().starts_with("libcudnn") || f.path().filename().string().starts_with("cudnn")) {
                found.push_back(fmt::format("PyTorch's own cuDNN in {}", (e.path() / "lib").string()));
                break;
              }
          }
        }
      }
    }
    if (found.empty()) {
      add("files.frameworks", 2, CheckStatus::pass, "no framework-bundled cuDNN found (pip nvidia-cudnn wheels, torch/lib)");
      return;
    }
    add_sig("files.frameworks", 2, CheckStatus::warn, fmt::format("{} other cuDNN: {}", found.size(), fmt::format("{}", fmt::join(found, "; "))), "files.frameworks");
  }

  // ---- layer 3
  void layer_loader() {
    const auto& t = *m_report.toolkit;
    if (!m_major) {
      add("loader.skipped", 3, CheckStatus::skip, "skipped: no cuDNN library to load (layer 2)");
      return;
    }
    if (t.os == Os::windows && m_offline) {
      m_win.cudnn_major = *m_major;
      m_win.header_version = m_header ? m_header->text() : std::string();
      for (auto& c : windows_offline_loader(m_win)) m_report.checks.push_back(std::move(c));
      return;
    }
    if (t.os != m_host.os) {
      add("loader.skipped", 3, CheckStatus::skip,
          fmt::format("skipped: this is a {} toolkit and this machine is {}", to_string(t.os), m_host.description));
      return;
    }
    const auto dir = lib_dir();
    Resolver res;
    if (auto v = m_env.get("LD_LIBRARY_PATH"))
      for (auto d : split(*v, ':'))
        if (!d.empty()) res.ld_library_path.emplace_back(d);
    res.cache = ld_cache_map();

    // static dependencies of every cuDNN library, resolved as the loader would
    std::vector<std::string> unresolved;
    std::size_t checked = 0;
    std::optional<std::vector<std::string>> graph_runpath;
    for (const auto& file : discover_sub_libraries(dir, *m_major, t.os)) {
      auto info = read_elf_file((fs::path(dir) / file).string());
      if (!info) {
        unresolved.push_back(fmt::format("{} (unreadable: {})", file, info.error().message));
        continue;
      }
      const auto rp = runpath_of(*info, dir);
      if (file.find("_graph") != std::string::npos) graph_runpath = rp;
      for (const auto& need : info->needed) {
        ++checked;
        if (!res.find(need, rp)) unresolved.push_back(fmt::format("{} needs {}", file, need));
      }
    }
    if (!unresolved.empty())
      add_sig("loader.needed", 3, CheckStatus::fail, fmt::format("unresolved dependencies: {}", fmt::format("{}", fmt::join(unresolved, "; "))), "loader.needed");
    else
      add("loader.needed", 3, CheckStatus::pass, fmt::format("all {} static dependencies resolve", checked));

    // what cuDNN opens by name at run time
    const unsigned cuda_major = static_cast<unsigned>(std::stoul(t.major().empty() ? "0" : t.major()));
    std::vector<std::pair<std::string, std::string>> runtime;  // name, what needs it
    if (*m_major >= 9) {
      runtime.push_back({fmt::format("libcublasLt.so.{}", cuda_major), "cudnn_adv and the precompiled engines"});
      runtime.push_back({fmt::format("libnvrtc.so.{}", cuda_major), "the runtime-compiled engines"});
    } else {
      runtime.push_back({"libnvrtc.so", "cudnn_cnn_infer (cuDNN 8 opens the unversioned name)"});
    }
    std::vector<std::string> missing_rt;
    for (const auto& [name, who] : runtime)
      if (!res.find(name, graph_runpath.value_or(std::vector<std::string>{dir})) && !fs::exists(fs::path(dir) / name))
        missing_rt.push_back(fmt::format("{} (for {})", name, who));
    if (!missing_rt.empty())
      add_sig("loader.runtime_deps", 3, CheckStatus::warn, fmt::format("not found: {}", fmt::format("{}", fmt::join(missing_rt, "; "))), "loader.runtime_deps");
    else
      add("loader.runtime_deps", 3, CheckStatus::pass, "cuBLASLt and NVRTC for this CUDA major are found");

    if (m_offline) {
      add("loader.load", 3, CheckStatus::skip, "offline: nothing was loaded (--offline); the dependencies above were resolved from the files");
      return;
    }
    // the real load, in a child process
    ProbeRequest req{dir, *m_major, m_opt.driver_library, true};
    auto probe = run_probe(m_opt.self_exe, req, m_opt.probe_timeout_ms);
    if (!probe) {
      add("loader.load", 3, CheckStatus::fail, "the probe could not run: " + probe.error().message);
      return;
    }
    m_probe = *probe;
    const auto& p = *probe;
    std::vector<std::string> failed;
    for (const auto& l : p.loads)
      if (!l.loaded) failed.push_back(fmt::format("{}: {}", l.file, l.error));
    if (!failed.empty()) {
      add_sig("loader.load", 3, CheckStatus::fail, fmt::format("cannot load: {}", fmt::format("{}", fmt::join(failed, "; "))), "loader.load.cannot-load");
      return;
    }
    if (p.signal || p.timed_out || !p.version) {
      std::string tail = p.child_stderr;
      std::replace(tail.begin(), tail.end(), '\n', ' ');
      add_sig("loader.load", 3, CheckStatus::fail, p.timed_out ? "the cuDNN probe did not finish in time"
                      : fmt::format("cuDNN aborted the process (signal {}) at its first call: {}", p.signal, tail.substr(0, 300)), "loader.load.aborted");
      return;
    }
    add("loader.load", 3, CheckStatus::pass,
        fmt::format("{} libraries load; cudnnGetVersion() = {}, built with CUDA runtime {}, max device {}", p.loads.size(), *p.version,
                    p.cudart_version.value_or(0), p.max_device_version.value_or(0)));
    std::vector<std::string> bad_checks;
    for (const auto& [name, status] : p.version_checks)
      if (status != 0) bad_checks.push_back(fmt::format("{}: {}", name, cudnn_status_name(status, *m_major)));
    if (!bad_checks.empty())
      add_sig("loader.version_checks", 3, CheckStatus::fail, fmt::format("sub-library checks failed: {}", fmt::format("{}", fmt::join(bad_checks, "; "))), "loader.version_checks");
    else
      add("loader.version_checks", 3, CheckStatus::pass, fmt::format("all {} sub-library version checks pass", p.version_checks.size()));
    if (m_header) {
      const auto expected = cudnn_version_macro(Version{{m_header->major, m_header->minor, m_header->patch, 0}, 3});
      if (expected && *p.version != *expected)
        add_sig("loader.version", 3, CheckStatus::fail, fmt::format("the loaded library is {} but the header says {}", *p.version, *expected), "loader.version");
    }
  }

  // ---- layers 4 and 5
  void layer_gpu() {
    const auto& t = *m_report.toolkit;
    if (t.os == Os::linux_os && m_host.os == Os::linux_os) stubs_on_path();
    if (m_offline) {
      if (t.os == Os::windows) {
        std::string min_driver;
        if (m_header)
          for (const auto* r : Catalog::embedded().support_for(m_header->text(), t.major()))
            if (!r->min_driver_windows.empty() && (min_driver.empty() || compare_dotted(r->min_driver_windows, min_driver) < 0))
              min_driver = r->min_driver_windows;
        for (auto& c : windows_offline_driver(m_win, min_driver)) m_report.checks.push_back(std::move(c));
      } else {
        add("driver.skipped", 4, CheckStatus::skip, "skipped: offline (--offline): the driver and the GPU are not touched");
      }
      add("workload.skipped", 5, CheckStatus::skip, "skipped: offline: no GPU work is run");
      return;
    }
    if (!m_probe) {
      add("driver.skipped", 4, CheckStatus::skip, "skipped: cuDNN could not be loaded (layer 3)");
      add("workload.skipped", 5, CheckStatus::skip, "skipped: layer 4 did not run");
      return;
    }
    const auto& p = *m_probe;
    bool gpu_ok = false;
    if (!p.driver_loaded) {
      add_sig("driver.library", 4, CheckStatus::skip, fmt::format("no NVIDIA driver: {}", p.driver_error), "driver.none");
    } else if (p.cu_init == 34) {
      add_sig("driver.library", 4, CheckStatus::fail, fmt::format("the toolkit's stub library was loaded as the driver ({}): cuInit returned CUDA_ERROR_STUB_LIBRARY", m_opt.driver_library), "driver.stub");
    } else if (p.cu_init == 100) {
      add_sig("driver.library", 4, CheckStatus::skip, "the NVIDIA driver is present but sees no GPU (CUDA_ERROR_NO_DEVICE)", "driver.no-device");
    } else if (!p.cu_init || *p.cu_init != 0) {
      add_sig("driver.library", 4, CheckStatus::fail, fmt::format("cuInit failed: {}", cu_result_name(p.cu_init.value_or(-1))), "driver.init");
    } else {
      gpu_ok = true;
      add("driver.library", 4, CheckStatus::pass,
          fmt::format("driver loaded; CUDA driver API {}.{}", p.driver_api_version.value_or(0) / 1000, p.driver_api_version.value_or(0) % 1000 / 10));
    }
    if (gpu_ok) driver_version_and_devices();
    const bool created = !p.create_status || *p.create_status == 0;
    if (m_opt.no_gpu) add("workload.conv", 5, CheckStatus::skip, "skipped: --no-gpu");
    else if (!gpu_ok || p.devices.empty() || !created) add("workload.conv", 5, CheckStatus::skip, "skipped: layer 4 found no usable GPU");
    else workload();
  }

  // lib64/stubs (libcuda.so for linking) on the loader path shadows the real driver once one is installed
  void stubs_on_path() {
    std::vector<std::string> dirs;
    if (auto v = m_env.get("LD_LIBRARY_PATH"))
      for (auto d : split(*v, ':'))
        if (!d.empty()) dirs.emplace_back(d);
    for (const auto& [name, path] : ld_cache_map())
      if (name.starts_with("libcuda.so")) dirs.push_back(fs::path(path).parent_path().string());
    std::vector<std::string> bad;
    std::error_code ec;
    for (const auto& d : dirs) {
      fs::path p(d);
      while (p.has_parent_path() && p.filename().empty()) p = p.parent_path();
      const bool stub_dir = p.filename() == "stubs" && (fs::exists(p / "libcuda.so", ec) || fs::exists(p / "libcuda.so.1", ec));
      if (stub_dir && std::find(bad.begin(), bad.end(), d) == bad.end()) bad.push_back(d);
    }
    if (bad.empty()) return;
    add_sig("driver.stubs_on_path", 4, CheckStatus::warn,
            fmt::format("the toolkit's stub folder is on the loader path: {} (it holds the link-time libcuda.so, not a driver)",
                        fmt::format("{}", fmt::join(bad, ", "))),
            "driver.stubs-on-path");
  }

  void workload() {
    const auto& t = *m_report.toolkit;
    WorkloadRequest req;
    req.cudnn_library = (fs::path(lib_dir()) / library_file_name(t.os, "cudnn", *m_major)).string();
    req.major = *m_major;
    req.driver_library = m_opt.driver_library;
    req.quick = true;
    auto r = run_workload(m_opt.self_exe, req, 60000);
    if (!r || (!r->error.empty() && r->layers.empty())) {
      add_sig("workload.conv", 5, CheckStatus::fail, "the GPU workload could not run: " + (r ? r->error : r.error().message), "workload.could-not-run");
      return;
    }
    if (!r->correctness_ok)
      add_sig("workload.correctness", 5, CheckStatus::fail, fmt::format("a small convolution on the GPU differs from the CPU reference (max error {:.3g})", r->correctness_max_error), "workload.correctness");
    else
      add("workload.correctness", 5, CheckStatus::pass, "a small convolution matches the CPU reference");
    std::vector<std::string> failures;
    double best = 0;
    std::optional<double> best_pct;
    for (const auto& l : r->layers) {
      if (l.status != 0 || !l.error.empty()) failures.push_back(fmt::format("{} {}: {}", l.layer, l.precision, l.error));
      if (l.precision.starts_with("fp16") && l.tflops > best) {
        best = l.tflops;
        best_pct = l.pct_of_peak;
      }
    }
    if (!failures.empty())
      add_sig("workload.conv", 5, CheckStatus::fail, fmt::format("{} of {} layer runs failed: {}", failures.size(), r->layers.size(), failures.front()), "workload.failed-layers");
    else if (best_pct && *best_pct < 10)
      add_sig("workload.conv", 5, CheckStatus::warn, fmt::format("fp16 convolutions reach only {:.1f} TFLOP/s ({:.0f}% of {}'s peak)", best, *best_pct, r->device), "workload.slow");
    else
      add("workload.conv", 5, CheckStatus::pass,
          fmt::format("{} layer runs on {}; fp16 best {:.1f} TFLOP/s{}", r->layers.size(), r->device, best,
                      best_pct ? fmt::format(" ({:.0f}% of peak)", *best_pct) : std::string()));
  }

  void driver_version_and_devices() {
    const auto& p = *m_probe;
    const auto& t = *m_report.toolkit;
    std::vector<const SupportRow*> rows;
    if (m_header) rows = Catalog::embedded().support_for(m_header->text(), t.major());
    std::string min_driver;
    std::vector<std::string> ccs;
    for (const auto* r : rows) {
      const auto& d = m_host.os == Os::windows ? r->min_driver_windows : r->min_driver_linux;
      if (!d.empty() && (min_driver.empty() || compare_dotted(d, min_driver) < 0)) min_driver = d;
      ccs.insert(ccs.end(), r->compute_capabilities.begin(), r->compute_capabilities.end());
    }
    const auto installed = parse_driver_version(read_text(m_opt.driver_version_file));
    if (installed.empty())
      add("driver.version", 4, CheckStatus::skip, fmt::format("the driver version could not be read from {}", m_opt.driver_version_file));
    else if (min_driver.empty())
      add("driver.version", 4, CheckStatus::pass, fmt::format("driver {}; the catalog has no minimum for cuDNN {} cuda{}", installed,
                                                             m_header ? m_header->text() : "?", t.major()));
    else if (compare_dotted(installed, min_driver) < 0)
      add_sig("driver.version", 4, CheckStatus::fail, fmt::format("driver {} is older than {}, the minimum NVIDIA lists for cuDNN {} cuda{}",
                                                             installed, min_driver, m_header->text(), t.major()), "driver.version");
    else
      add("driver.version", 4, CheckStatus::pass, fmt::format("driver {} >= {} (NVIDIA's minimum)", installed, min_driver));

    const auto max = p.max_device_version.value_or(0);
    for (std::size_t i = 0; i < p.devices.size(); ++i) {
      const auto& d = p.devices[i];
      const auto cc = fmt::format("{}.{}", d.cc_major, d.cc_minor);
      const unsigned encoded = static_cast<unsigned>(d.cc_major * 100 + d.cc_minor * 10);
      if (max && encoded > max)
        add_sig("device.arch", 4, CheckStatus::fail, fmt::format("GPU {} {} (compute {}) is newer than this cuDNN knows (up to {}.{})", i, d.name, cc,
                                                            max / 100, max % 100 / 10), "device.arch.too-new-gpu");
      else if (!ccs.empty() && compare_dotted(cc, ccs.front()) < 0)
        add_sig("device.arch", 4, CheckStatus::fail, fmt::format("GPU {} {} (compute {}) is older than this cuDNN supports (from {})", i, d.name, cc, ccs.front()), "device.arch.dropped");
      else
        add("device.arch", 4, CheckStatus::pass, fmt::format("GPU {} {} (compute {})", i, d.name, cc));
    }
    if (p.create_status) {
      if (*p.create_status == 0) add("device.create", 4, CheckStatus::pass, "cudnnCreate succeeded");
      else {
        const auto name = cudnn_status_name(*p.create_status, *m_major);
        add_sig("device.create", 4, CheckStatus::fail, fmt::format("cudnnCreate returned {}{}", name, p.last_error.empty() ? "" : ": " + p.last_error), "device.create");
      }
    }
  }

  const DoctorOptions& m_opt;
  const platform::Environment& m_env;
  platform::HostPlatform m_host;
  DoctorReport m_report;
  std::optional<unsigned> m_major;
  std::optional<HeaderVersion> m_header;
  std::optional<ProbeResult> m_probe;
  bool m_offline = false;
  bool m_target_failed = false;
  OfflineWindows m_win;
  std::optional<std::vector<SearchDir>> m_win_order;
};

} // namespace

DoctorReport run_doctor(const DoctorOptions& options, const platform::Environment& env) { return Doctor(options, env).run(); }

ExitCode doctor_exit_code(const DoctorReport& r) {
  bool gpu_skipped = false;
  for (const auto& c : r.checks) {
    if (c.status == CheckStatus::fail) return ExitCode::doctor_failed;
    if (c.layer >= 4 && c.status == CheckStatus::skip) gpu_skipped = true;
  }
  return gpu_skipped ? ExitCode::doctor_gpu_skipped : ExitCode::ok;
}

nlohmann::json doctor_json(const DoctorReport& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks)
    checks.push_back({{"id", c.id}, {"layer", c.layer}, {"status", std::string(to_string(c.status))}, {"finding", c.finding},
                      {"cause", c.cause.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.cause)},
                      {"fix", c.fix.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.fix)}});
  std::map<std::string, int> counts;
  for (const auto& c : r.checks) ++counts[std::string(to_string(c.status))];
  nlohmann::json search = nullptr;
  if (r.search) {
    search = {{"origin", r.search_origin}, {"order", nlohmann::json::array()}, {"copies", nlohmann::json::array()}};
    for (const auto& d : r.search->order)
      search["order"].push_back({{"dir", d.dir}, {"via", d.via}, {"local", d.local.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.local)}});
    for (const auto& c : r.search->copies)
      search["copies"].push_back({{"dir", c.dir}, {"via", c.via}, {"major", c.major}, {"file", c.main_file}, {"version", c.version},
                                  {"wins", c.wins}, {"installed", c.installed}});
  }
  return {{"schema", "cudnnctl.doctor/1"},
          {"toolkit", r.toolkit ? nlohmann::json{{"root", r.toolkit->root}, {"version", r.toolkit->version},
                                                 {"os", std::string(to_string(r.toolkit->os))}}
                                : nlohmann::json(nullptr)},
          {"offline", r.offline},
          {"notes", r.notes},
          {"search_path", search},
          {"checks", checks},
          {"counts", counts},
          {"exit_code", to_int(doctor_exit_code(r))}};
}

std::string doctor_text(const DoctorReport& r) {
  static const char* names[] = {"", "toolkit", "files", "loader", "driver and device", "workload"};
  std::string out;
  int layer = 0;
  std::map<CheckStatus, int> counts;
  for (const auto& c : r.checks) {
    if (c.layer != layer) {
      layer = c.layer;
      out += fmt::format("layer {}  {}\n", layer, names[layer]);
    }
    ++counts[c.status];
    std::string tag(to_string(c.status));
    for (auto& ch : tag) ch = static_cast<char>(ch - 'a' + 'A');
    out += fmt::format("  {:<4}  {:<22} {}\n", tag, c.id, c.finding);
    if (!c.cause.empty() && c.status != CheckStatus::pass) out += fmt::format("        cause: {}\n", c.cause);
    if (!c.fix.empty() && c.status != CheckStatus::pass) out += fmt::format("        fix:   {}\n", c.fix);
  }
  for (const auto& n : r.notes) out += fmt::format("note: {}\n", n);
  const auto code = doctor_exit_code(r);
  out += fmt::format("summary: {} passed, {} warnings, {} failed, {} skipped; {} (exit {})\n", counts[CheckStatus::pass],
                     counts[CheckStatus::warn], counts[CheckStatus::fail], counts[CheckStatus::skip],
                     code == ExitCode::ok               ? "healthy"
                     : code == ExitCode::doctor_failed ? "problems found"
                                                       : "healthy up to the GPU layers, which were skipped",
                     to_int(code));
  return out;
}

} // namespace cudnnctl
