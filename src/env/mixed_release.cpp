// Mixed releases: sub-libraries a place lacks that another release on the loader's path fills (mixed_release.hpp).
#include "cudnnctl/env/mixed_release.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"

namespace cudnnctl {
namespace {

unsigned release_minor(const std::string& version) {
  const auto parts = split(version, '.');
  return parts.size() >= 2 ? parse_uint_or(parts[1], 0) : 0;
}

// 3-part form for comparing releases ("9.21.0.82" and "9.21.0" are one release).
std::string release_key(const std::string& version) {
  const auto parts = split(version, '.');
  if (parts.size() < 3) return version;
  return fmt::format("{}.{}.{}", parts[0], parts[1], parts[2]);
}

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

} // namespace

std::vector<std::string> loader_sub_libraries(const std::vector<std::string>& names, unsigned major, Os os) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (const auto f = classify_cudnn_file(n, os); f && f->major == major && f->full_version.empty() && !has(out, f->sub_library))
      out.push_back(f->sub_library);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<ReleaseGap> mixed_release_gaps(const std::vector<LoadPlace>& places, const std::vector<CudnnCopy>& copies, Os os) {
  std::vector<ReleaseGap> out;
  for (const auto& p : places) {
    if (p.major < 9 || p.version.empty() || p.version.find('x') != std::string::npos) continue;
    const bool jit = !has(p.subs, "cudnn_engines_precompiled") && has(p.subs, "cudnn_engines_runtime_compiled");
    for (const auto& sub : release_sub_libraries(p.major, release_minor(p.version))) {
      if (has(p.subs, sub) || (jit && sub != "cudnn" && sub != "cudnn_graph")) continue;
      for (const auto& q : copies) {
        if (q.dir == p.dir || q.major != p.major || q.other_machine || release_key(q.version) == release_key(p.version)) continue;
        if (!has(q.sub_libraries, sub)) continue;
        out.push_back({p, library_file_name(os, sub, p.major), q});
        break;
      }
    }
  }
  return out;
}

LoadPlace place_of_copy(const CudnnCopy& c) {
  LoadPlace p{c.dir, c.version, c.major, describe(c.owner), {}, c.sub_libraries};
  // a wheel's libcudnn.so.9 says no version: NVIDIA's cuDNN wheel (or conda package) that owns it does
  const bool cudnn_package = c.owner.package.starts_with("nvidia-cudnn") || c.owner.package == "cudnn" || c.owner.package == "libcudnn";
  if (p.version.find('x') != std::string::npos && cudnn_package && !c.owner.version.empty()) p.version = c.owner.version;
  p.fix = c.owner.kind == OwnerKind::cudnnctl ? fmt::format("reinstall cuDNN {} there (`cudnnctl install`)", c.version)
                                              : fmt::format("make that copy complete through its owner ({})", describe(c.owner));
  return p;
}

std::string gap_text(const ReleaseGap& g) {
  return fmt::format("{} (cuDNN {}, {}) has no {}, which cuDNN {} opens by name: the loader takes it from {} (cuDNN {}, {} via {})",
                     g.place.dir, g.place.version, g.place.owner, g.file, g.place.version, g.from.dir, g.from.version,
                     describe(g.from.owner), g.from.via);
}

std::string gap_fix(const ReleaseGap& g) {
  return fmt::format("remove the other copy the way its owner does (`{}`), or {}", removal_fix(g.from.owner, g.from.dir + "/" + g.file),
                     g.place.fix);
}

} // namespace cudnnctl
