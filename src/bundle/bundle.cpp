#include "cudnnctl/bundle/bundle.hpp"

#include <algorithm>
#include <charconv>

#include "cudnnctl/contract/cudnn_files.hpp"

namespace cudnnctl {

std::string_view to_string(BundleState s) {
  switch (s) {
    case BundleState::original: return "original";
    case BundleState::modified: return "modified";
    case BundleState::swapped: return "swapped";
    case BundleState::unbundled: return "unbundled";
    case BundleState::reverted: return "reverted";
    case BundleState::unrecorded: return "unrecorded";
  }
  return "unrecorded";
}

std::vector<std::string> cudnn_files_among(const std::vector<std::string>& names, Os os) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (classify_cudnn_file(n, os)) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Os> bundle_os(const std::vector<std::string>& names) {
  for (const Os os : {Os::windows, Os::linux_os})
    for (const auto& n : names)
      if (const auto f = classify_cudnn_file(n, os); f && f->main()) return os;
  return std::nullopt;
}

std::string main_library(const std::vector<std::string>& files, Os os) {
  for (const auto& n : files)
    if (const auto f = classify_cudnn_file(n, os); f && f->main() && f->full_version.empty()) return n;
  return {};
}

unsigned bundle_cudnn_major(const std::vector<std::string>& files, Os os) {
  const auto m = main_library(files, os);
  if (m.empty()) return 0;
  return classify_cudnn_file(m, os)->major;
}

namespace {
std::vector<unsigned> parts_of(const std::string& v) {
  std::vector<unsigned> out;
  std::size_t i = 0;
  while (i < v.size()) {
    unsigned n = 0;
    const auto [p, ec] = std::from_chars(v.data() + i, v.data() + v.size(), n);
    if (ec != std::errc()) break;
    out.push_back(n);
    i = static_cast<std::size_t>(p - v.data());
    if (i < v.size() && v[i] != '.') break;
    ++i;
  }
  return out;
}
} // namespace

unsigned cudnn_version_number(const std::string& version) {
  auto p = parts_of(version);
  p.resize(3);
  if (p[0] >= 9) return p[0] * 10000 + p[1] * 100 + p[2];
  return p[0] * 1000 + p[1] * 100 + p[2];
}

} // namespace cudnnctl
