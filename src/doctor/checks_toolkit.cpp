// Layer 1: which toolkit, and whether the environment agrees.
#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

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

} // namespace cudnnctl
