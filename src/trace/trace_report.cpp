#include "cudnnctl/trace/trace.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/owner/owner.hpp"

namespace cudnnctl {

std::string bundle_text(const LibraryFacts& f) {
  if (f.bundle_owner.empty()) return {};
  return fmt::format("{} (bundled copy, {})", f.bundle_owner, f.bundle_where.empty() ? f.bundle_dir : f.bundle_where);
}

namespace {

std::string base_name(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string dir_name(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

// cuDNN's release is its first three numbers (9.1.0.70 is build 70 of 9.1.0). A version known less precisely
// (9.1.0 from cudnn_version.h, 9 from a SONAME) agrees with every release it is a prefix of.
std::string release_of(const std::string& version) {
  std::size_t dots = 0, i = 0;
  for (; i < version.size(); ++i)
    if (version[i] == '.' && ++dots == 3) break;
  return version.substr(0, i);
}
bool releases_agree(const std::string& a, const std::string& b) {
  const auto& shorter = a.size() <= b.size() ? a : b;
  const auto& longer = a.size() <= b.size() ? b : a;
  return longer.starts_with(shorter) && (longer.size() == shorter.size() || longer[shorter.size()] == '.');
}

} // namespace

std::vector<TraceEvent> parse_trace_events(std::string_view text) {
  std::vector<TraceEvent> out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    std::vector<std::string> f;
    std::size_t start = 0;
    for (;;) {
      const auto tab = line.find('\t', start);
      f.emplace_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (f.size() != 5 || f[0].size() != 1 || std::string("PSO").find(f[0][0]) == std::string::npos) continue;
    TraceEvent e;
    e.kind = f[0][0];
    const auto pid = parse_uint(f[1]);
    if (!pid) continue;
    e.pid = static_cast<long>(*pid);
    e.a = f[2], e.b = f[3], e.c = f[4];
    out.push_back(std::move(e));
  }
  return out;
}

std::string_view to_string(LibFamily f) {
  switch (f) {
  case LibFamily::cudnn: return "cudnn";
  case LibFamily::cudnn_sub: return "cudnn sub-library";
  case LibFamily::cublas: return "cublas";
  case LibFamily::cublaslt: return "cublasLt";
  case LibFamily::nvrtc: return "nvrtc";
  case LibFamily::cudart: return "cudart";
  case LibFamily::driver: return "driver";
  case LibFamily::other: return "other";
  }
  return "other";
}

LibraryKind classify_library(std::string_view file_name) {
  const auto name = to_lower_ascii(file_name);
  std::smatch m;
  static const std::regex so(R"(^(lib[a-z_0-9.-]+?)\.so(?:\.(\d+))?(?:\.[0-9.]+)?$)");
  static const std::regex dll(R"(^([a-z_]+?)64_(\d+)(?:_0)?\.dll$)");
  LibraryKind k;
  std::string stem;
  unsigned number = 0;
  if (std::regex_match(name, m, so)) {
    stem = m[1];
    number = m[2].matched ? parse_uint_or(m[2].str(), 0) : 0;  // a number too large to be a major: unknown (0)
  } else if (std::regex_match(name, m, dll)) {
    stem = m[1];
    number = parse_uint_or(m[2].str(), 0);
    if (number >= 100) number /= 10;  // nvrtc64_120_0.dll, cudart64_110.dll: CUDA 12, 11
    if (number >= 100) number /= 10;
  } else if (name == "nvcuda.dll") {
    return {LibFamily::driver, "nvcuda", 0};
  } else {
    return k;
  }
  k.stem = std::string(file_name.substr(0, stem.size()));
  k.major = number;
  if (stem == "libcudnn" || stem == "cudnn") k.family = LibFamily::cudnn;
  else if (stem.starts_with("libcudnn_") || stem.starts_with("cudnn_")) k.family = LibFamily::cudnn_sub;
  else if (stem == "libcublaslt" || stem == "cublaslt") k.family = LibFamily::cublaslt;
  else if (stem == "libcublas" || stem == "cublas") k.family = LibFamily::cublas;
  else if (stem.starts_with("libnvrtc") || stem == "nvrtc") k.family = LibFamily::nvrtc;
  else if (stem == "libcudart" || stem == "cudart") k.family = LibFamily::cudart;
  else if (stem == "libcuda") k.family = LibFamily::driver;
  else k.major = 0;
  return k;
}


namespace {

// What the events said so far, per process.
struct TraceState {
  struct Asked {
    std::string name, requester;
    std::vector<std::string> tried;  // "step\tpath"
    bool resolved = false;
  };
  std::map<long, std::string> program;   // the latest program of each pid
  std::map<long, long> parent;
  std::map<long, std::vector<Asked>> asked;  // per pid, in order
  std::set<long> active;
  // what each main cuDNN asked for by name: its sub-libraries with its own version, cuBLASLt with its CUDA major
  std::map<std::string, std::string> cudnn_version_asked;
  std::map<std::string, unsigned> cudnn_cublaslt_major;
};

// 'S': a library asked for by name, or one folder the loader tried for it
void on_search(TraceState& st, const TraceEvent& e) {
  static const std::regex versioned_sub(R"(^libcudnn_[a-z_]+\.so\.(\d+\.\d+\.\d+)$)");
  auto& list = st.asked[e.pid];
  if (e.a != "asked") {
    if (!list.empty()) list.back().tried.push_back(e.a + "\t" + e.b);
    return;
  }
  list.push_back({e.b, e.c, {}, false});
  const auto req = classify_library(base_name(e.c));
  std::smatch m;
  if (req.family == LibFamily::cudnn && std::regex_match(e.b, m, versioned_sub) && !st.cudnn_version_asked.contains(e.c))
    st.cudnn_version_asked[e.c] = m[1];
  const auto want = classify_library(e.b);
  if ((req.family == LibFamily::cudnn || req.family == LibFamily::cudnn_sub) && want.family == LibFamily::cublaslt && want.major)
    st.cudnn_cublaslt_major[e.c] = want.major;
}

// 'O': a library loaded, and which search step produced its path
LoadedLibrary on_open(TraceState& st, const TraceEvent& e, std::size_t order, const TraceSeams& seams) {
  LoadedLibrary lib;
  lib.order = order;
  lib.pid = e.pid;
  lib.program = st.program.contains(e.pid) ? st.program[e.pid] : std::string();
  lib.path = e.a;
  lib.name = base_name(e.a);
  lib.kind = classify_library(lib.name);
  auto& list = st.asked[e.pid];
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    if (it->resolved) continue;
    if (it->name == e.a) {
      lib.step = "path given by the program", lib.asked_as = it->name, lib.requested_by = it->requester, it->resolved = true;
      break;
    }
    const auto hit = std::find_if(it->tried.rbegin(), it->tried.rend(), [&](const std::string& t) { return t.substr(t.find('\t') + 1) == e.a; });
    if (hit != it->tried.rend()) {
      lib.step = hit->substr(0, hit->find('\t')), lib.asked_as = it->name, lib.requested_by = it->requester, it->resolved = true;
      break;
    }
  }
  if (lib.step.empty()) lib.step = "loaded as a dependency before the trace saw a request";
  // earlier requests of the same library under other names (libcudnn_graph.so.9.19.0, then .9.19) were
  // cuDNN trying exact names first: they are answered by this load
  for (auto& a : list)
    if (!a.resolved && classify_library(base_name(a.name)).stem == lib.kind.stem) a.resolved = true;
  lib.facts = seams.describe ? seams.describe(lib.path) : LibraryFacts{};
  if (seams.other_copies) lib.others = seams.other_copies(lib.path, lib.requested_by);
  return lib;
}

// requests no load answered, with the folders tried (the linker's per-CPU subfolders left out)
std::vector<MissingLibrary> unanswered(const TraceState& st, const TraceSeams& seams) {
  std::vector<MissingLibrary> out;
  const auto probe = [&](const auto& a) {
    if (!seams.file_exists) return false;
    if (a.name.find('/') != std::string::npos && seams.file_exists(a.name)) return true;
    return std::any_of(a.tried.begin(), a.tried.end(), [&](const std::string& t) { return seams.file_exists(t.substr(t.find('\t') + 1)); });
  };
  for (const auto& [pid, list] : st.asked)
    for (const auto& a : list) {
      if (a.resolved || probe(a)) continue;  // a probe asked, found the file and loaded nothing: not missing
      MissingLibrary m{pid, a.name, a.requester, {}};
      for (const auto& t : a.tried) {
        auto d = dir_name(t.substr(t.find('\t') + 1));
        if (d.find("/glibc-hwcaps/") != std::string::npos || d.find("/tls/") != std::string::npos || d.find("/haswell") != std::string::npos ||
            d.find("/avx512_1") != std::string::npos || d.ends_with("/x86_64"))
          continue;
        if (std::find(m.tried.begin(), m.tried.end(), d) == m.tried.end()) m.tried.push_back(d);
      }
      out.push_back(std::move(m));
    }
  return out;
}

// one process's libraries: its cuDNN releases (version -> files) and CUDA majors (with the files saying so)
struct ProcessStack {
  std::vector<const LoadedLibrary*> libs;
  const LoadedLibrary* main = nullptr;
  std::map<std::string, std::vector<std::string>> versions;
  std::set<unsigned> cuda_majors;
  std::vector<std::string> cuda_files;
};
ProcessStack stack_of(long pid, const TraceReport& r, const TraceState& st) {
  ProcessStack p;
  for (const auto& l : r.loaded)
    if (l.pid == pid) p.libs.push_back(&l);
  for (const auto* l : p.libs) {
    const bool cudnn = l->kind.family == LibFamily::cudnn || l->kind.family == LibFamily::cudnn_sub;
    if (l->kind.family == LibFamily::cudnn && !p.main) p.main = l;
    if (cudnn && !l->facts.version.empty())  // each file with its folder and owner: the fix is its owner's (docs/owners.md)
      p.versions[release_of(l->facts.version)].push_back(fmt::format("{} in {} ({})", l->name, dir_name(l->path), describe(l->facts.owner)));
    if ((l->kind.family == LibFamily::cudart || l->kind.family == LibFamily::cublas || l->kind.family == LibFamily::cublaslt ||
         l->kind.family == LibFamily::nvrtc) && l->kind.major) {
      p.cuda_majors.insert(l->kind.major);
      p.cuda_files.push_back(fmt::format("{} (CUDA {})", l->name, l->kind.major));
    }
    if (const auto it = st.cudnn_cublaslt_major.find(l->path); cudnn && it != st.cudnn_cublaslt_major.end()) {
      p.cuda_majors.insert(it->second);
      p.cuda_files.push_back(fmt::format("{} (built for CUDA {}: asks for libcublasLt.so.{})", l->name, it->second, it->second));
    }
  }
  return p;
}

// the main cuDNN's faults: sub-libraries from elsewhere, older than wanted, not the copy cudnnctl installed
void main_cudnn_faults(long pid, const ProcessStack& p, const std::string& want_cudnn, TraceReport& r) {
  const auto* main = p.main;
  for (const auto* l : p.libs)
    if (l->kind.family == LibFamily::cudnn_sub && dir_name(l->path) != dir_name(main->path))
      r.faults.push_back({"loader.sublibrary.elsewhere", pid,
                          fmt::format("{} comes from {} ({}), but {} from {}; owners: {}, and {}", l->name, dir_name(l->path), l->step, main->name,
                                      dir_name(main->path), describe(l->facts.owner), describe(main->facts.owner))});
  if (!want_cudnn.empty() && !main->facts.version.empty() &&
      (compare_versions(main->facts.version, want_cudnn) < 0 ||
       compare_versions(main->facts.version.substr(0, main->facts.version.find('.')), want_cudnn.substr(0, want_cudnn.find('.'))) != 0))
    r.faults.push_back({"files.search_path", pid,
                        fmt::format("{} {} is loaded ({}), but the program wants cuDNN {}", main->path, main->facts.version, main->step, want_cudnn)});
  if (!main->facts.installed_by_cudnnctl)
    for (const auto& o : main->others)
      if (o.installed_by_cudnnctl)
        r.faults.push_back({"files.search_path", pid,
                            fmt::format("the cuDNN cudnnctl installed ({}{}) is not the one loaded: {} came first ({})", o.path,
                                        o.version.empty() ? "" : " " + o.version, main->path, main->step)});
}

void process_faults(long pid, const TraceState& st, const std::string& want_cudnn, TraceReport& r) {
  const auto p = stack_of(pid, r, st);
  bool mixed = false;
  for (auto a = p.versions.begin(); a != p.versions.end(); ++a)
    for (auto b = std::next(a); b != p.versions.end(); ++b) mixed = mixed || !releases_agree(a->first, b->first);
  if (mixed) {
    std::string d;
    for (const auto& [v, files] : p.versions) d += fmt::format("{}{}: {}", d.empty() ? "" : "; ", v, fmt::join(files, ", "));
    r.faults.push_back({"loader.versions.mixed", pid, "cuDNN files of several releases in one process: " + d});
  }
  if (p.main) main_cudnn_faults(pid, p, want_cudnn, r);
  if (p.cuda_majors.size() > 1)
    r.faults.push_back({"loader.cuda-majors", pid, fmt::format("CUDA libraries of majors {} in one process: {}", fmt::join(p.cuda_majors, " and "),
                                                                fmt::join(p.cuda_files, "; "))});
  for (const auto& m : r.missing)
    if (m.pid == pid) {
      const auto k = classify_library(base_name(m.name));
      const char* sig = k.family == LibFamily::cudnn_sub || k.family == LibFamily::cudnn ? "files.complete"
                        : k.family == LibFamily::driver                                 ? "driver.none"
                                                                                        : "loader.runtime_deps";
      r.faults.push_back({sig, pid, fmt::format("{} was asked for{} and not found (looked in {})", m.name,
                                                m.requested_by.empty() ? "" : " by " + m.requested_by,
                                                m.tried.empty() ? "no folder" : fmt::format("{}", fmt::join(m.tried, ", ")))});
    }
}

} // namespace

TraceReport build_trace_report(const std::vector<TraceEvent>& events, const TraceSeams& seams, const std::string& want_cudnn) {
  TraceReport r;
  TraceState st;
  for (const auto& e : events) {
    if (e.kind == 'P') {
      st.program[e.pid] = e.b;
      if (const auto ppid = parse_uint(e.a)) st.parent[e.pid] = static_cast<long>(*ppid);
      continue;
    }
    st.active.insert(e.pid);
    if (e.kind == 'S') on_search(st, e);  // else 'O': parse_trace_events keeps only P, S and O
    else r.loaded.push_back(on_open(st, e, r.loaded.size() + 1, seams));
  }
  // versions the trace itself shows: a main cuDNN asks for its sub-libraries by its own full version
  for (auto& lib : r.loaded)
    if (const auto it = st.cudnn_version_asked.find(lib.path); lib.kind.family == LibFamily::cudnn && it != st.cudnn_version_asked.end())
      if (lib.facts.version.empty() || lib.facts.version_source == "SONAME")
        lib.facts.version = it->second, lib.facts.version_source = "the sub-library names it asks for";
  r.missing = unanswered(st, seams);
  for (long pid : st.active)
    r.processes.push_back({pid, st.parent.contains(pid) ? st.parent.at(pid) : 0, st.program.contains(pid) ? st.program.at(pid) : std::string()});
  for (const auto& proc : r.processes) process_faults(proc.pid, st, want_cudnn, r);
  return r;
}

} // namespace cudnnctl
