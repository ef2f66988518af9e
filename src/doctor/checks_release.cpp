// Layer 2: facts about the installed release itself: its libraries' glibc / libstdc++ floor against this
// host's, and known-bad releases (data/cudnn-advisories.json).
#include <fmt/format.h>

#include "cudnnctl/catalog/advisories.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

void check_files_glibc_floor(const DoctorFacts& f, Checks& out) {
  const auto& g = f.glibc_floor;
  if (!g.gathered) return;
  const auto short_of = floor_shortfalls(g.floor, g.host);
  std::string host;
  for (const char* family : {"GLIBC", "GLIBCXX", "CXXABI"})
    if (const auto it = g.host.highest.find(family); it != g.host.highest.end()) host += (host.empty() ? "" : ", ") + it->second.text();
  std::string finding = fmt::format("the cuDNN libraries need {}; this host has {}", describe_floor(g.floor), host.empty() ? "unknown versions" : host);
  if (!g.unreadable.empty()) finding += fmt::format(" ({} libraries unreadable: files.cudnn and loader.needed say why)", g.unreadable.size());
  if (short_of.empty()) {
    out.push_back(make_check("files.glibc_floor", 2, CheckStatus::pass, finding));
    return;
  }
  std::string what;
  for (const auto& s : short_of) what += fmt::format("{}{} needs {} (host: {})", what.empty() ? "" : "; ", s.needed.library, s.needed.version.text(), s.host.text());
  Check c = make_check("files.glibc_floor", 2, CheckStatus::fail, finding + ": too old for " + what);
  c.cause = "the dynamic loader refuses a library whose version-needed table asks for a newer glibc or libstdc++ symbol "
            "version than the host's (\"version `GLIBC_2.xx' not found\")";
  c.fix = "use a newer OS image (or container base) whose glibc / libstdc++ meet the floor, or install an older cuDNN release: "
          "cudnnctl inspect <archive> shows an archive's floor before you install it";
  out.push_back(std::move(c));
}

void check_files_advisories(const DoctorFacts& f, Checks& out) {
  if (!f.header) return;
  Version v;
  v.parts = {f.header->major, f.header->minor, f.header->patch, 0};
  v.count = 3;
  const auto hits = advisories_for(v, builtin_advisories());
  if (hits.empty()) {
    out.push_back(make_check("files.advisories", 2, CheckStatus::pass,
                             fmt::format("cuDNN {} is in no known-bad range ({} advisories known)", v.release_label(), builtin_advisories().size())));
    return;
  }
  for (const auto& a : hits) {
    Check c = make_check("files.advisories", 2, CheckStatus::warn, advisory_warning(v, a));
    c.cause = a.symptom + " (" + a.affected + ")";
    c.fix = a.workaround;
    out.push_back(std::move(c));
  }
}

} // namespace

const std::vector<CheckSpec>& release_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"files.glibc_floor", 2, need_toolkit, &check_files_glibc_floor, "Linux: the glibc / libstdc++ floor of the cuDNN libraries (the highest GLIBC_, GLIBCXX_, CXXABI_ versions in their version-needed tables) against this host's", ""},
      {"files.advisories", 2, need_toolkit, &check_files_advisories, "the installed release against the known-bad cuDNN releases (data/cudnn-advisories.json): what goes wrong, on which GPUs or features, and the release that fixes it", ""},
  };
  return rows;
}

} // namespace cudnnctl
