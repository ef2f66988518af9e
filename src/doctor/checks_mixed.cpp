// Mixed releases, found before anything runs (files.mixed_release): a place programs load cuDNN from (the
// toolkit's runtime folder, each framework bundle) that lacks a sub-library its release has, while another
// folder on the loader's search path holds that sub-library of another release. cuDNN opens its sub-libraries
// by name, the loader takes the other folder's, and the first convolution fails with
// CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (pytorch/pytorch#188892, #185512, koharu-rs/koharu#694). Pure: facts only.
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

// A place programs load cuDNN from: its folder, release, owner and the sub-libraries it holds.
struct LoadPlace {
  std::string dir, version, owner, fix;
  unsigned major = 0;
  std::set<std::string> subs;
};

std::set<std::string> loader_subs(const std::vector<std::string>& names, unsigned major, Os os) {
  std::set<std::string> out;
  for (const auto& n : names)
    if (const auto f = classify_cudnn_file(n, os); f && f->major == major) out.insert(f->sub_library);
  return out;
}

std::string bundle_owner_words(const Bundle& b) {
  if (!b.owner) return "not owned by any package manager";
  const bool conda = b.owner->metadata.ends_with(".json");
  return fmt::format("{}: {}{}", conda ? "conda" : "pip", b.owner->name, b.owner->version.empty() ? "" : " " + b.owner->version);
}

std::vector<LoadPlace> load_places(const DoctorFacts& f) {
  std::vector<LoadPlace> out;
  const Os os = f.model == LoaderModel::windows_pe ? Os::windows : Os::linux_os;
  if (f.tk() && f.header && f.header->major >= 9 && !f.runtime_dir.empty()) {
    LoadPlace p{f.runtime_dir, f.header->text(), "not owned by any package manager", {}, f.header->major, loader_subs(f.lib_names, f.header->major, os)};
    if (f.search)
      for (const auto& c : f.search->copies)
        if (c.installed) p.owner = describe(c.owner);
    p.fix = fmt::format("complete it: `cudnnctl install` of cuDNN {} into the toolkit", p.version);
    out.push_back(std::move(p));
  }
  for (const auto& b : f.bundles.bundles) {
    if (b.state == BundleState::unbundled || b.cudnn_major < 9 || b.version.empty()) continue;
    LoadPlace p{b.dir, b.version, bundle_owner_words(b), {}, b.cudnn_major, loader_subs(b.files, b.cudnn_major, b.os)};
    p.fix = b.owner ? fmt::format("make the bundle complete: a {} release that ships it (`pip install -U {}`), or `cudnnctl bundle swap {} <release>`",
                                  b.owner->name, b.owner->name, b.dir)
                    : fmt::format("`cudnnctl bundle swap {} <release>` with a complete release", b.dir);
    out.push_back(std::move(p));
  }
  return out;
}

unsigned minor_of(const std::string& version) {
  const auto parts = split(version, '.');
  return parts.size() >= 2 ? parse_uint_or(parts[1], 0) : 0;
}

// 3-part form for comparing releases ("9.21.0.82" and "9.21.0" are one release).
std::string release_of(const std::string& version) {
  const auto parts = split(version, '.');
  if (parts.size() < 3) return version;
  return fmt::format("{}.{}.{}", parts[0], parts[1], parts[2]);
}

void check_files_mixed_release(const DoctorFacts& f, Checks& out) {
  if (!f.search) return;
  const auto places = load_places(f);
  if (places.empty()) return;
  bool failed = false;
  for (const auto& p : places) {
    const auto expected = release_sub_libraries(p.major, minor_of(p.version));
    // a JIT build (libcudnn-jit: main, graph and the runtime-compiled engines only) is complete as it is
    const bool jit = !p.subs.count("cudnn_engines_precompiled") && p.subs.count("cudnn_engines_runtime_compiled");
    for (const auto& sub : expected) {
      if (p.subs.count(sub) || (jit && sub != "cudnn" && sub != "cudnn_graph")) continue;
      for (const auto& q : f.search->copies) {
        if (q.dir == p.dir || q.major != p.major || q.other_machine || release_of(q.version) == release_of(p.version)) continue;
        if (std::find(q.sub_libraries.begin(), q.sub_libraries.end(), sub) == q.sub_libraries.end()) continue;
        const auto file = library_file_name(f.model == LoaderModel::windows_pe ? Os::windows : Os::linux_os, sub, p.major);
        auto c = make_check("files.mixed_release", 2, CheckStatus::fail,
                            fmt::format("{} (cuDNN {}, {}) has no {}, which cuDNN {} opens by name: the loader takes it from {} (cuDNN {}, {} via {})",
                                        p.dir, p.version, p.owner, file, p.version, q.dir, q.version, describe(q.owner), q.via),
                            "files.mixed_release");
        c.fix = fmt::format("remove the other copy the way its owner does (`{}`), or {}", removal_fix(q.owner, q.dir + "/" + file), p.fix);
        out.push_back(std::move(c));
        failed = true;
        break;
      }
    }
  }
  if (!failed)
    out.push_back(make_check("files.mixed_release", 2, CheckStatus::pass,
                             fmt::format("no sub-library of another release fills a gap in {}", places.size() == 1 ? places.front().dir
                                                                                                  : fmt::format("the {} places programs load cuDNN from", places.size()))));
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
