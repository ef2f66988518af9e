// files.mixed_release: each place programs load cuDNN from (the toolkit's runtime folder, each framework bundle)
// against the sub-libraries its release has, and the loader's path (env/mixed_release.hpp). Pure: facts only.
#include <fmt/format.h>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/env/mixed_release.hpp"

namespace cudnnctl {

namespace {

std::string bundle_owner_words(const Bundle& b) {
  if (!b.owner) return "not owned by any package manager";
  const bool conda = b.owner->metadata.ends_with(".json");
  return fmt::format("{}: {}{}", conda ? "conda" : "pip", b.owner->name, b.owner->version.empty() ? "" : " " + b.owner->version);
}

std::vector<LoadPlace> load_places(const DoctorFacts& f) {
  std::vector<LoadPlace> out;
  const Os os = f.model == LoaderModel::windows_pe ? Os::windows : Os::linux_os;
  if (f.tk() && f.header && f.header->major >= 9 && !f.runtime_dir.empty()) {
    LoadPlace p{f.runtime_dir, f.header->text(), f.header->major, "not owned by any package manager", {},
                loader_sub_libraries(f.lib_names, f.header->major, os)};
    for (const auto& c : f.search->copies)
      if (c.installed) p.owner = describe(c.owner);
    p.fix = fmt::format("complete it: `cudnnctl install` of cuDNN {} into the toolkit", p.version);
    out.push_back(std::move(p));
  }
  for (const auto& b : f.bundles().bundles) {
    if (b.state == BundleState::unbundled || b.cudnn_major < 9 || b.version.empty()) continue;
    LoadPlace p{b.dir, b.version, b.cudnn_major, bundle_owner_words(b), {}, loader_sub_libraries(b.files, b.cudnn_major, b.os)};
    p.fix = b.owner ? fmt::format("make the bundle complete: a {} release that ships it, or `cudnnctl bundle swap {} <release>`", b.owner->name, b.dir)
                    : fmt::format("make the bundle complete: `cudnnctl bundle swap {} <release>`", b.dir);
    out.push_back(std::move(p));
  }
  return out;
}

void check_files_mixed_release(const DoctorFacts& f, Checks& out) {
  if (!f.search) return;
  const auto places = load_places(f);
  if (places.empty()) return;
  const auto gaps = mixed_release_gaps(places, f.search->copies, f.model == LoaderModel::windows_pe ? Os::windows : Os::linux_os);
  for (const auto& g : gaps) {
    auto c = make_check("files.mixed_release", 2, CheckStatus::fail, gap_text(g), "files.mixed_release");
    c.fix = gap_fix(g);
    out.push_back(std::move(c));
  }
  if (gaps.empty())
    out.push_back(make_check("files.mixed_release", 2, CheckStatus::pass,
                             places.size() == 1 ? fmt::format("no sub-library of another release fills a gap in {}", places.front().dir)
                                                : fmt::format("no sub-library of another release fills a gap in the {} places programs load cuDNN from",
                                                              places.size())));
}

} // namespace

const std::vector<CheckSpec>& mixed_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"files.mixed_release", 2, need_toolkit | need_search_path | need_bundles, &check_files_mixed_release,
       "each place programs load cuDNN from (the toolkit, each framework bundle) against the sub-libraries its release has: one it lacks that another folder on the loader's path holds, of another release, is a FAIL naming both releases, folders and owners (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH)", ""},
  };
  return rows;
}

} // namespace cudnnctl
