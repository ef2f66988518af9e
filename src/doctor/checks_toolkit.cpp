// Layer 1: which toolkit, and whether the environment agrees.
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

void check_toolkit_found(const DoctorFacts& f, Checks& out) {
  const auto& t = f.toolkit;
  if (!t.chosen) {
    std::string detail;
    for (const auto& n : t.notes) detail += "; " + n;
    out.push_back(make_check("toolkit.found", 1, CheckStatus::fail, "no CUDA toolkit found" + detail, "toolkit.found"));
    return;
  }
  std::string others;
  for (std::size_t i = 1; i < t.found.size(); ++i)
    others += fmt::format("{}{} (CUDA {})", i > 1 ? ", " : "; also found ", t.found[i].root, t.found[i].version);
  out.push_back(make_check("toolkit.found", 1, CheckStatus::pass,
                           fmt::format("CUDA {} at {}, selected because {} names it first{}", t.chosen->version, t.chosen->root,
                                       t.chosen->found_by, others)));
}

void check_toolkit_env(const DoctorFacts& f, Checks& out) {
  if (!f.toolkit.chosen) return;
  for (const auto& n : f.toolkit.notes) out.push_back(make_check("toolkit.env", 1, CheckStatus::warn, n, "toolkit.env.not-a-toolkit"));
  for (const auto& [var, value] : f.toolkit.env_differs)
    out.push_back(make_check("toolkit.env", 1, CheckStatus::warn,
                             fmt::format("{}={} is not the selected toolkit {}", var, value, f.toolkit.chosen->root), "toolkit.env.differs"));
}

void check_toolkit_target(const DoctorFacts& f, Checks& out) {
  if (!f.toolkit.chosen || f.target_fits) return;
  const auto& t = *f.toolkit.chosen;
  out.push_back(make_check("toolkit.target", 1, CheckStatus::fail,
                           fmt::format("--target {} but {} is laid out as a {} toolkit ({})", f.toolkit.target, t.root, to_string(t.os),
                                       t.os == Os::windows ? "DLLs in bin, no lib64" : "lib64, no DLLs in bin"),
                           "toolkit.target"));
}


// Every set variable as "NAME=value (what it is)"; the names of those that are set.
std::string describe_cuda_vars(const DoctorFacts& f, const std::string& chosen) {
  std::string out;
  for (const auto& v : f.toolkit.cuda_vars) {
    if (!out.empty()) out += "; ";
    if (!v.value) {
      out += v.name + " not set";
      continue;
    }
    const std::string what = !v.is_dir ? "not a folder" : v.canonical == chosen ? "the checked toolkit" : "another folder than the checked toolkit";
    out += fmt::format("{}={} ({})", v.name, *v.value, what);
  }
  return out;
}


void check_toolkit_cuda_vars(const DoctorFacts& f, Checks& out) {
  if (f.toolkit.cuda_vars.empty()) return;
  std::string chosen;
  if (f.toolkit.chosen) {
    std::error_code ec;
    chosen = utf8_of(std::filesystem::weakly_canonical(path_from_utf8(f.toolkit.chosen->root), ec).lexically_normal());
    if (chosen.size() > 1 && (chosen.back() == '/' || chosen.back() == '\\')) chosen.pop_back();
  }
  const bool reads_them = f.header && (f.header->major > 9 || (f.header->major == 9 && f.header->minor >= 24));
  std::vector<const CudaVar*> set;
  for (const auto& v : f.toolkit.cuda_vars)
    if (v.value) set.push_back(&v);
  bool disagree = false, broken = false, elsewhere = false;
  for (const auto* v : set) {
    disagree = disagree || v->canonical != set.front()->canonical;
    broken = broken || !v->is_dir;
    elsewhere = elsewhere || (!chosen.empty() && v->canonical != chosen);
  }
  std::string finding = set.empty() ? "none of CUDA_HOME, CUDA_PATH, CUDA_ROOT is set" : describe_cuda_vars(f, chosen);
  if (!set.empty() && !disagree) finding += set.size() > 1 ? "; they agree" : "";
  if (reads_them)
    finding += set.empty() ? "; this cuDNN (9.24 or later) finds the CUDA runtime libraries through the loader alone"
                           : fmt::format("; this cuDNN (9.24 or later) reads them itself, {} first", set.front()->name);
  // A disagreement matters to every tool that reads one of them; naming another toolkit matters to cuDNN 9.24+
  // itself (CUDA_PATH and CUDA_HOME against the checked toolkit are toolkit.env's finding for older releases).
  const bool warn = broken || disagree || (elsewhere && reads_them);
  Check c = make_check("toolkit.cuda_vars", 1, warn ? CheckStatus::warn : CheckStatus::pass, finding);
  if (warn) {
    c.cause = "tools that look for CUDA read different variables (cuDNN 9.24+ and cuda-pathfinder: CUDA_HOME, then CUDA_PATH, "
              "then CUDA_ROOT): variables that disagree, or name no folder, send them to different toolkits";
    const std::string target = chosen.empty() ? std::string("/usr/local/cuda") : f.toolkit.chosen->root;
    c.fix = f.toolkit.chosen && f.toolkit.chosen->os == Os::windows
                ? fmt::format("setx CUDA_PATH \"{0}\" && setx CUDA_HOME \"{0}\" && setx CUDA_ROOT \"{0}\"", target)
                : fmt::format("export CUDA_HOME=\"{0}\" CUDA_PATH=\"{0}\"; unset CUDA_ROOT", target);
  }
  out.push_back(std::move(c));
}

} // namespace

const std::vector<CheckSpec>& toolkit_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"toolkit.found", 1, need_toolkit, &check_toolkit_found, "every CUDA toolkit found (--cuda-path, CUDA_PATH, CUDA_PATH_V*, CUDA_HOME, nvcc on PATH, the usual places) and which one is checked, and why", ""},
      {"toolkit.env", 1, need_toolkit, &check_toolkit_env, "whether CUDA_PATH or CUDA_HOME name another toolkit than the one checked", ""},
      {"toolkit.cuda_vars", 1, need_toolkit, &check_toolkit_cuda_vars, "CUDA_HOME, CUDA_PATH and CUDA_ROOT: which are set, where each points, whether they agree with each other and with the toolkit checked (cuDNN 9.24 and later reads them itself, in that order)", ""},
      {"toolkit.target", 1, need_toolkit, &check_toolkit_target, "which OS the tree is for (bin\\*.dll and lib\\x64 against lib64/*.so), against --target when given", ""},
  };
  return rows;
}

} // namespace cudnnctl
